# lit configuration for HybridRace's end-to-end tests.
import os
import subprocess
import sys
import lit.formats
import lit.util

site = lit_config.params.get('hrace_site_config')
if site and not getattr(config, 'hrace_bin_dir', None):
    lit_config.load_config(config, site)

config.name = 'HybridRace'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.c', '.cpp', '.ll', '.test']
config.excludes = ['Inputs']
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hrace_binary_dir, 'test', 'lit-out')

# FileCheck, not, opt and llvm-symbolizer come from the LLVM we built against.
config.environment['PATH'] = os.pathsep.join(
    [config.llvm_tools_dir, config.hrace_bin_dir, config.environment.get('PATH', os.environ.get('PATH', ''))])
# Tests start from the default options; each sets what it needs.
config.environment.pop('HRACE_OPTIONS', None)
os.environ.pop('HRACE_OPTIONS', None)

inputs = os.path.join(config.test_source_root, 'Inputs')
common = '-g -O1 -I' + inputs
hrace_cc = os.path.join(config.hrace_bin_dir, 'hrace-clang')
hrace_cxx = os.path.join(config.hrace_bin_dir, 'hrace-clang++')
# --param hrace_target=aarch64: programs are built for AArch64 and run under
# qemu-aarch64 (make check-aarch64); host-only directories are left out.
target = lit_config.params.get('hrace_target')
if target == 'aarch64':
    sysroot = lit_config.params.get('aarch64_sysroot', '/usr/aarch64-linux-gnu')
    cross = '%s %s %s ' % (sys.executable, os.path.join(inputs, 'cross_compile.py'), sysroot)
    hrace_cc, hrace_cxx = cross + hrace_cc, cross + hrace_cxx
    config.available_features.add('aarch64')
    config.excludes += ['pass', 'driver']
    config.test_exec_root += '-aarch64'
elif target:
    lit_config.fatal("hrace_target must be 'aarch64' (or unset for the host)")
config.substitutions.append(('%hrace_cc', hrace_cc + ' -fsanitize-hybrid-race ' + common))
config.substitutions.append(('%hrace_cxx', hrace_cxx + ' -fsanitize-hybrid-race ' + common))
config.substitutions.append(('%driver_cc', os.path.join(config.hrace_bin_dir, 'hrace-clang')))
config.substitutions.append(('%driver_cxx', os.path.join(config.hrace_bin_dir, 'hrace-clang++')))
config.substitutions.append(('%libexec', config.hrace_libexec_dir))
# Pass tests that pin which accesses call the runtime, and where: the inline
# no-op test before each call (x86-64) switched off, so a call is right
# before its access (pass/inline_noop_test_guards_the_call.c pins the test).
plugin = os.path.join(config.hrace_lib_dir, 'HybridRacePass.so')
config.substitutions.append(('%calls_only', '-Xclang -load -Xclang %s -mllvm -hrace-inline-checks=0' % plugin))
config.substitutions.append(('%plugin', plugin))
config.substitutions.append(('%opt', os.path.join(config.llvm_tools_dir, 'opt') + ' -load-pass-plugin=' + os.path.join(config.hrace_lib_dir, 'HybridRacePass.so')))
config.substitutions.append(('%clang', os.path.join(config.llvm_tools_dir, 'clang')))
config.substitutions.append(('%inputs', inputs))
config.substitutions.append(('%cmake', config.cmake_command))
config.substitutions.append(('%hrace_source', config.hrace_source_dir))
config.substitutions.append(('%hrace_build', config.hrace_binary_dir))
# validate_sarif.py needs jsonschema: lit's own python if it has it, else Debian's (python3-jsonschema).
has_jsonschema = subprocess.call([sys.executable, '-c', 'import jsonschema'],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
config.substitutions.append(('%python_jsonschema', sys.executable if has_jsonschema else '/usr/bin/python3'))

config.available_features.add('llvm-%d' % config.llvm_version_major)
# The runtime was built with HRACE_SMALL_LIMITS (runtime/hrace_limits.h).
if getattr(config, 'hrace_small_limits', False):
    config.available_features.add('small-limits')
if os.path.exists('/usr/bin/valgrind'):
    config.available_features.add('valgrind')
