#!/usr/bin/env python3
# ===-- gen_libc_calls_test.py - The libc call table's generator ----------===#
#
# Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Unit tests of interceptors/gen_libc_calls.py: how rows parse, where each
effect goes relative to the real call, and which tables are refused."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..',
                                'interceptors'))
import gen_libc_calls as gen  # noqa: E402


def interceptor(table, name):
    """The generated definition of `name`, one stripped line per element."""
    code = gen.emit(gen.parse(table), 'test.tbl').splitlines()
    start = next(i for i, line in enumerate(code)
                 if line.startswith('INTERCEPTOR_ATTRIBUTE') and
                 (' %s(' % name in line or '*%s(' % name in line))
    end = code.index('}', start)
    return [line.strip() for line in code[start:end + 1]]


class ParseTest(unittest.TestCase):
    def test_prototype_and_parameters(self):
        row, = gen.parse('char *strchrnul(const char *s, int c) => read(s, ret - s + 1)')
        self.assertEqual(row.ret, 'char *')
        self.assertEqual(row.name, 'strchrnul')
        self.assertEqual([(p.type, p.name) for p in row.params],
                         [('const char *', 's'), ('int', 'c')])

    def test_function_pointer_parameter(self):
        row, = gen.parse('void qsort(void *base, size_t n, size_t size, '
                         'int (*compar)(const void *, const void *)) [callback] '
                         '=> write(base, n * size)')
        self.assertEqual(row.params[3].name, 'compar')
        self.assertEqual(row.params[3].type, 'int (*)(const void *, const void *)')
        self.assertTrue(row.callback)

    def test_continuation_lines_and_comments(self):
        rows = gen.parse('# a comment\n'
                         'ssize_t read(int fd, void *buf, size_t n) [cancel] =>\n'
                         '    fd_use(fd);  # uses\n'
                         '    write(buf, ret)\n'
                         'int close(int fd) => fd_close(fd)\n')
        self.assertEqual([r.name for r in rows], ['read', 'close'])
        self.assertEqual([e.kind for e in rows[0].effects], ['fd_use', 'write'])
        self.assertTrue(rows[0].cancel and rows[0].blocking)
        self.assertEqual(rows[1].line, 5)

    def test_void_parameter_list(self):
        row, = gen.parse('FILE *tmpfile(void) => when(ret) fd_create(fileno(ret), File)')
        self.assertEqual(row.params, [])

    def test_when_with_nested_parentheses(self):
        row, = gen.parse('int fcntl(int fd, int cmd, ...) [varg=long arg] => '
                         'when(ret >= 0 && (cmd == 0 || cmd == 1)) fd_dup(fd, ret)')
        effect, = row.effects
        self.assertEqual(effect.cond, 'ret >= 0 && (cmd == 0 || cmd == 1)')
        self.assertEqual(effect.args, ['fd', 'ret'])
        self.assertEqual(row.varg.name, 'arg')


class PlacementTest(unittest.TestCase):
    def test_reads_go_before_the_call_writes_after(self):
        code = interceptor('ssize_t write(int fd, const void *buf, size_t n) [cancel] '
                           '=> read(buf, n); fd_release(fd)\n'
                           'ssize_t read(int fd, void *buf, size_t n) [cancel] '
                           '=> fd_use(fd); write(buf, ret); when(ret >= 0) fd_acquire(fd)',
                           'read')
        call = next(i for i, l in enumerate(code) if 'REAL(read)' in l)
        self.assertLess(code.index('FdUse(thr, caller_pc, fd);'), call)
        self.assertGreater(code.index('WriteRange(thr, caller_pc, buf, ret);'), call)
        self.assertGreater(code.index('FdAcquire(thr, caller_pc, fd);'), call)
        self.assertEqual(code[code.index('FdAcquire(thr, caller_pc, fd);') - 1],
                         'if (ret >= 0)')
        self.assertIn('CallCancellationPoint(thr, nullptr, 0, REAL(read), fd, buf, n)',
                      code[call])

    def test_a_read_that_needs_the_result_goes_after(self):
        code = interceptor('char *strchrnul(const char *s, int c) => read(s, ret - s + 1)',
                           'strchrnul')
        self.assertEqual(code[2], 'char * ret = REAL(strchrnul)(s, c);')
        self.assertEqual(code[3], 'ReadRange(thr, caller_pc, s, ret - s + 1);')
        self.assertEqual(code[4], 'return ret;')

    def test_callback_runs_outside_the_runtime(self):
        code = interceptor('void qsort(void *b, size_t n, size_t s, '
                           'int (*c)(const void *, const void *)) [callback] => '
                           'read(b, n * s); write(b, n * s)', 'qsort')
        self.assertIn('CallOutsideRuntime(thr, REAL(qsort), b, n, s, c);', code)
        self.assertNotIn('return ret;', code)

    def test_varg_is_read_and_passed_on(self):
        code = interceptor('int open(const char *path, int flags, ...) [varg=int mode] '
                           '=> read_str(path)', 'open')
        self.assertIn('int mode = va_arg(ap, int);', code)
        self.assertIn('SCOPED_INTERCEPTOR(open, path, flags, mode);', code)
        self.assertIn('int ret = REAL(open)(path, flags, mode);', code)

    def test_via_shares_the_va_list_twin(self):
        table = ('int vsnprintf(char *s, size_t n, const char *f, va_list ap) '
                 '=> read_str(f)\n'
                 'int snprintf(char *s, size_t n, const char *f, ...) [via=vsnprintf]\n')
        code = gen.emit(gen.parse(table), 'test.tbl')
        self.assertIn('static ALWAYS_INLINE int Intercept_vsnprintf(uptr pc, '
                      'char *s, size_t n, const char *f, va_list ap)', code)
        self.assertIn('SCOPED_INTERCEPTOR_AT(vsnprintf, pc, s, n, f, ap);', code)
        self.assertIn('int ret = Intercept_vsnprintf(CALLER_PC(), s, n, f, ap);',
                      code)
        # Only the twin has a real function.
        self.assertNotIn('DEFINE_REAL(int, snprintf', code)
        self.assertIn('RESOLVE_REAL(vsnprintf);', code)

    def test_format_args_are_read_before_the_call(self):
        code = interceptor('int vprintf(const char *f, va_list ap) '
                           '=> read_str(f); read_format_args(f, ap)', 'vprintf')
        read = code.index('ReadFormatArgs(thr, caller_pc, f, ap);')
        self.assertLess(read, code.index('int ret = REAL(vprintf)(f, ap);'))

    def test_every_row_is_resolved(self):
        code = gen.emit(gen.parse('int dup(int fd) => fd_use(fd)\n'
                                  'int close(int fd) => fd_close(fd)\n'), 't')
        self.assertIn('DEFINE_REAL(int, dup, int)', code)
        self.assertIn('RESOLVE_REAL(dup);\n  RESOLVE_REAL(close);', code)


class RefusalTest(unittest.TestCase):
    def refused(self, table, message):
        with self.assertRaises(gen.TableError) as e:
            gen.parse(table)
        self.assertIn(message, str(e.exception))

    def test_unknown_effect(self):
        self.refused('int close(int fd) => fd_shut(fd)', "unknown effect 'fd_shut'")

    def test_wrong_arity(self):
        self.refused('int close(int fd) => fd_close(fd, 1)',
                     'fd_close takes 1 argument(s), not 2')

    def test_unknown_descriptor_kind(self):
        self.refused('int socket(int a, int b, int c) => fd_create(ret, Sock)',
                     'descriptor kind must be one of')

    def test_variadic_without_varg_or_via(self):
        self.refused('int printf(const char *f, ...) => read_str(f)',
                     'a variadic function needs varg= or via=')

    def test_via_naming_no_row(self):
        self.refused('int printf(const char *f, ...) [via=vprintf]',
                     'via=vprintf names no va_list row')

    def test_duplicate_row(self):
        self.refused('int close(int fd) => fd_close(fd)\n'
                     'int close(int fd) => fd_use(fd)', 'close is already on line 1')

    def test_ret_in_a_void_function(self):
        self.refused('void f(int *p) => write(p, ret)', 'a void function has no ret')

    def test_line_numbers_in_errors(self):
        self.refused('\n\nint close(int fd) => nope(fd)', 'line 3:')

    def test_the_real_table_parses(self):
        path = os.path.join(os.path.dirname(__file__), '..', '..', 'interceptors',
                            'hrace_libc_calls.tbl')
        with open(path) as f:
            rows = gen.parse(f.read())
        self.assertGreater(len(rows), 80)


if __name__ == '__main__':
    unittest.main()
