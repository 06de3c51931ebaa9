#!/usr/bin/env python3
# ===-- gen_libc_calls.py - Interceptors from the libc call table ---------===#
#
# Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------===#
"""Writes the interceptors of hrace_libc_calls.tbl as C++.

A row of the table is a C prototype, optional flags in brackets, and after
"=>" the row's effects separated by ";":

    ssize_t read(int fd, void *buf, size_t count) [cancel] =>
        fd_use(fd); when(ret > 0) write(buf, ret); when(ret >= 0) fd_acquire(fd)

A line that starts with white space continues the row above; "#" starts a
comment. Effects (EFFECTS below) say which memory the call reads or writes,
and how it uses a file descriptor. An effect runs before the real call,
unless it is one of the "after" kinds or mentions the result `ret`; `when(c)`
makes it conditional. Flags:

    blocking      the call may block: a signal that arrives meanwhile is
                  handled at once
    cancel        a cancellation point (implies blocking)
    callback      the call runs program code (qsort's comparator): it is
                  made outside the runtime, so that code is checked
    varg=T name   a variadic function whose one optional argument (open's
                  mode) is read as T and passed on
    via=f         a variadic function that does what the row of `f` (its
                  va_list twin) does
"""

import argparse
import re
import sys

# kind: (number of arguments, runs after the call, C++ statement)
EFFECTS = {
    'read': (2, False, 'ReadRange(thr, caller_pc, {0}, {1});'),
    'write': (2, True, 'WriteRange(thr, caller_pc, {0}, {1});'),
    'read_str': (1, False, 'ReadString(thr, caller_pc, {0});'),
    'read_format_args': (2, False, 'ReadFormatArgs(thr, caller_pc, {0}, {1});'),
    'write_str': (1, True, 'WriteString(thr, caller_pc, {0});'),
    'read_iov': (3, False, 'ReadIovec(thr, caller_pc, {0}, {1}, {2});'),
    'write_iov': (3, True, 'WriteIovec(thr, caller_pc, {0}, {1}, {2});'),
    'read_msg': (2, False, 'ReadMsghdr(thr, caller_pc, {0}, {1});'),
    'write_msg': (2, True, 'WriteMsghdr(thr, caller_pc, {0}, {1});'),
    'fd_use': (1, False, 'FdUse(thr, caller_pc, {0});'),
    'fd_release': (1, False, 'FdRelease(thr, caller_pc, {0});'),
    'fd_close': (1, False, 'FdClose(thr, caller_pc, {0});'),
    'fd_acquire': (1, True, 'FdAcquire(thr, caller_pc, {0});'),
    'fd_create': (2, True, 'FdCreate(thr, caller_pc, {0}, FdKind::k{1});'),
    'fd_pipe': (1, True, 'FdCreatePipe(thr, caller_pc, {0}[0], {0}[1]);'),
    'fd_dup': (2, True, 'FdDup(thr, caller_pc, {0}, {1});'),
    'call': (1, True, '{0};'),
}

FD_KINDS = ('File', 'Socket', 'Pipe', 'Eventfd', 'Epoll')


class TableError(Exception):
    def __init__(self, line, message):
        super().__init__('line %d: %s' % (line, message))


def split_top(text, sep):
    """Splits text at `sep` outside parentheses and brackets."""
    parts, depth, cur = [], 0, ''
    for ch in text:
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def call_parts(text, line):
    """'name(a, b)' -> ('name', ['a', 'b']); text must end at the ')'."""
    m = re.match(r'([A-Za-z_]\w*)\s*\((.*)\)$', text, re.S)
    if not m:
        raise TableError(line, 'expected name(arguments): %r' % text)
    return m.group(1), split_top(m.group(2), ',')


class Param:
    def __init__(self, text, line):
        fn = re.search(r'\(\s*\*\s*([A-Za-z_]\w*)\s*\)', text)
        if fn:
            # A function pointer: int (*compar)(const void *, const void *).
            self.name = fn.group(1)
            self.type = text[:fn.start(1)] + text[fn.end(1):]
        else:
            m = re.match(r'(.*?[\s*&])([A-Za-z_]\w*)$', text.strip())
            if not m:
                raise TableError(line, 'parameter without a name: %r' % text)
            self.type, self.name = m.group(1).strip(), m.group(2)


class Effect:
    def __init__(self, text, line):
        self.cond = None
        m = re.match(r'when\s*\(', text)
        if m:
            depth, i = 0, m.end() - 1
            for i in range(m.end() - 1, len(text)):
                depth += {'(': 1, ')': -1}.get(text[i], 0)
                if depth == 0:
                    break
            self.cond = text[m.end():i].strip()
            text = text[i + 1:].strip()
        self.kind, self.args = call_parts(text, line)
        if self.kind not in EFFECTS:
            raise TableError(line, 'unknown effect %r' % self.kind)
        arity, after, self.template = EFFECTS[self.kind]
        if len(self.args) != arity:
            raise TableError(line, '%s takes %d argument(s), not %d' %
                             (self.kind, arity, len(self.args)))
        if self.kind == 'fd_create' and self.args[1] not in FD_KINDS:
            raise TableError(line, 'descriptor kind must be one of %s' %
                             ', '.join(FD_KINDS))
        mentions_ret = re.search(r'\bret\b', text + ' ' + (self.cond or ''))
        self.after = after or bool(mentions_ret)

    def code(self):
        stmt = self.template.format(*self.args)
        return 'if (%s)\n  %s' % (self.cond, stmt) if self.cond else stmt


class Row:
    def __init__(self, text, line):
        self.line = line
        head, _, effects = text.partition('=>')
        flags = ''
        m = re.search(r'\[([^\]]*)\]\s*$', head)
        if m:
            flags, head = m.group(1), head[:m.start()]
        m = re.match(r'\s*(.+?[\s*])([A-Za-z_]\w*)\s*\((.*)\)\s*$', head, re.S)
        if not m:
            raise TableError(line, 'expected a C prototype: %r' % head.strip())
        self.ret, self.name = m.group(1).strip(), m.group(2)
        params = split_top(m.group(3), ',')
        self.variadic = bool(params) and params[-1] == '...'
        if self.variadic:
            params = params[:-1]
        self.params = [Param(p, line) for p in params if p != 'void']
        self.blocking = self.cancel = self.callback = False
        self.varg = self.via = None
        for flag in split_top(flags, ','):
            if flag == 'blocking':
                self.blocking = True
            elif flag == 'cancel':
                self.cancel = self.blocking = True
            elif flag == 'callback':
                self.callback = True
            elif flag.startswith('varg='):
                self.varg = Param(flag[len('varg='):], line)
            elif flag.startswith('via='):
                self.via = flag[len('via='):].strip()
            else:
                raise TableError(line, 'unknown flag %r' % flag)
        if self.variadic != bool(self.varg or self.via):
            raise TableError(line, 'a variadic function needs varg= or via='
                             if self.variadic else
                             'varg= and via= are for variadic functions')
        self.effects = [Effect(e, line) for e in split_top(effects, ';')]
        if self.callback and self.blocking:
            raise TableError(line, 'a callback call cannot also block')
        if self.via and self.effects:
            raise TableError(line, 'a via= row has the effects of its twin')
        if self.ret == 'void' and any(re.search(r'\bret\b', e.code())
                                      for e in self.effects):
            raise TableError(line, 'a void function has no ret')

    def args(self):
        names = [p.name for p in self.params]
        return names + [self.varg.name] if self.varg else names


def parse(text):
    rows, cur, cur_line = [], '', 0
    for number, raw in enumerate(text.splitlines(), 1):
        body = raw.split('#', 1)[0].rstrip()
        if not body.strip():
            continue
        if body[0].isspace():
            if not cur:
                raise TableError(number, 'continuation without a row')
            cur += ' ' + body.strip()
            continue
        if cur:
            rows.append(Row(cur, cur_line))
        cur, cur_line = body.strip(), number
    if cur:
        rows.append(Row(cur, cur_line))
    names = {}
    for row in rows:
        if row.name in names:
            raise TableError(row.line, '%s is already on line %d' %
                             (row.name, names[row.name]))
        names[row.name] = row.line
    for row in rows:
        target = next((r for r in rows if r.name == row.via), None)
        if row.via and (target is None or target.variadic):
            raise TableError(row.line, 'via=%s names no va_list row' % row.via)
    return rows


def prototype(row):
    params = [p.type + (' ' if not p.type.endswith('*') else '') + p.name
              if '(*' not in p.type else p.type.replace('(*', '(*' + p.name)
              for p in row.params]
    if row.variadic:
        params.append('...')
    sep = '' if row.ret.endswith('*') else ' '
    return '%s%s%s(%s)' % (row.ret, sep, row.name, ', '.join(params))


def body(row):
    """The statements after the prologue: effects around the real call."""
    out = []
    before = [e for e in row.effects if not e.after]
    after = [e for e in row.effects if e.after]
    out += [e.code() for e in before]
    args = ', '.join(row.args())
    if row.cancel:
        call = 'CallCancellationPoint(thr, nullptr, 0, REAL(%s)%s)' % (
            row.name, ', ' + args if args else '')
    elif row.blocking:
        call = 'CallBlocking(thr, REAL(%s)%s)' % (row.name,
                                                 ', ' + args if args else '')
    elif row.callback:
        call = 'CallOutsideRuntime(thr, REAL(%s)%s)' % (
            row.name, ', ' + args if args else '')
    else:
        call = 'REAL(%s)(%s)' % (row.name, args)
    if row.ret == 'void':
        out.append(call + ';')
        out += [e.code() for e in after]
    else:
        out.append('%s ret = %s;' % (row.ret, call))
        out += [e.code() for e in after]
        out.append('return ret;')
    return out


def emit(rows, source):
    out = ['// Generated by gen_libc_calls.py from %s: do not edit.' % source,
           '#include "hrace_libc_calls.h"', '',
           'using namespace hrace;', '']
    for row in rows:
        if row.via:
            continue
        types = [p.type for p in row.params] + (['...'] if row.varg else [])
        out.append('DEFINE_REAL(%s)' % ', '.join([row.ret, row.name] + types))
    out += ['', 'namespace hrace {', 'void InitLibcCallInterceptors() {']
    out += ['  RESOLVE_REAL(%s);' % r.name for r in rows if not r.via]
    out += ['}', '} // namespace hrace', '']
    twins = {r.via for r in rows if r.via}
    for row in rows:
        out.append('// line %d' % row.line)
        if row.via:
            target = next(r for r in rows if r.name == row.via)
            last = row.params[-1].name
            names = ', '.join(p.name for p in row.params)
            out.append('INTERCEPTOR_ATTRIBUTE %s {' % prototype(row))
            out.append('  va_list ap;')
            out.append('  va_start(ap, %s);' % last)
            out.append('  %s ret = Intercept_%s(CALLER_PC(), %s, ap);' %
                       (target.ret, target.name, names))
            out.append('  va_end(ap);')
            out.append('  return ret;')
            out.append('}')
        elif row.name in twins:
            proto = prototype(row)
            params = 'uptr pc, ' + proto[proto.index('(') + 1:-1]
            out.append('static ALWAYS_INLINE %s Intercept_%s(%s) {' %
                       (row.ret, row.name, params))
            out.append('  SCOPED_INTERCEPTOR_AT(%s, pc%s);' %
                       (row.name, ''.join(', ' + a for a in row.args())))
            out += ['  ' + s.replace('\n', '\n  ') for s in body(row)]
            out.append('}')
            out.append('INTERCEPTOR_ATTRIBUTE %s {' % prototype(row))
            out.append('  return Intercept_%s(CALLER_PC(), %s);' %
                       (row.name, ', '.join(row.args())))
            out.append('}')
        else:
            out.append('INTERCEPTOR_ATTRIBUTE %s {' % prototype(row))
            if row.varg:
                last = row.params[-1].name
                out.append('  va_list ap;')
                out.append('  va_start(ap, %s);' % last)
                out.append('  %s %s = va_arg(ap, %s);' %
                           (row.varg.type, row.varg.name, row.varg.type))
                out.append('  va_end(ap);')
            out.append('  SCOPED_INTERCEPTOR(%s);' %
                       ', '.join([row.name] + row.args()))
            out += ['  ' + s.replace('\n', '\n  ') for s in body(row)]
            out.append('}')
        out.append('')
    return '\n'.join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('table')
    ap.add_argument('output')
    args = ap.parse_args(argv)
    with open(args.table) as f:
        text = f.read()
    try:
        rows = parse(text)
    except TableError as e:
        sys.stderr.write('%s: %s\n' % (args.table, e))
        return 1
    with open(args.output, 'w') as f:
        f.write(emit(rows, args.table.rsplit('/', 1)[-1]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
