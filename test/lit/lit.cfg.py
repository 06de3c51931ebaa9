# lit configuration for HybridRace's end-to-end tests.
import os
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
config.substitutions.append(('%hrace_cc', os.path.join(config.hrace_bin_dir, 'hrace-clang') + ' -fsanitize-hybrid-race ' + common))
config.substitutions.append(('%hrace_cxx', os.path.join(config.hrace_bin_dir, 'hrace-clang++') + ' -fsanitize-hybrid-race ' + common))
config.substitutions.append(('%driver_cc', os.path.join(config.hrace_bin_dir, 'hrace-clang')))
config.substitutions.append(('%driver_cxx', os.path.join(config.hrace_bin_dir, 'hrace-clang++')))
config.substitutions.append(('%libexec', config.hrace_libexec_dir))
config.substitutions.append(('%plugin', os.path.join(config.hrace_lib_dir, 'HybridRacePass.so')))
config.substitutions.append(('%opt', os.path.join(config.llvm_tools_dir, 'opt') + ' -load-pass-plugin=' + os.path.join(config.hrace_lib_dir, 'HybridRacePass.so')))
config.substitutions.append(('%clang', os.path.join(config.llvm_tools_dir, 'clang')))
config.substitutions.append(('%inputs', inputs))
config.substitutions.append(('%cmake', config.cmake_command))
config.substitutions.append(('%hrace_source', config.hrace_source_dir))
config.substitutions.append(('%hrace_build', config.hrace_binary_dir))

config.available_features.add('llvm-%d' % config.llvm_version_major)
if os.path.exists('/usr/bin/valgrind'):
    config.available_features.add('valgrind')
