# lit configuration for HybridRace's stress tests: the end-to-end setup of
# test/lit, with each program told how hard to push. `make check` runs the
# short form; `make stress` passes --param stress=full (the figures).
import os

lit_config.load_config(
    config, os.path.join(os.path.dirname(__file__), '..', 'lit', 'lit.cfg.py'))

config.name = 'HybridRace-stress'
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hrace_binary_dir, 'test', 'stress-out')
if lit_config.params.get('hrace_target'):
    config.test_exec_root += '-' + lit_config.params['hrace_target']
config.excludes = ['Inputs']

scale = lit_config.params.get('stress', 'short')
if scale not in ('short', 'full'):
    lit_config.fatal("--param stress must be 'short' or 'full'")
config.substitutions.insert(0, ('%scale', scale))
