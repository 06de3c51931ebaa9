#!/usr/bin/env python3
# Cross-compiling for the lit suite's AArch64 run (--param hrace_target=aarch64,
# make check-aarch64): runs the driver for aarch64-linux-gnu and, where it
# linked a program, moves that program to DIR/aarch64/NAME (same name, so
# reports name the same module) and puts a launcher at DIR/NAME that runs it
# under qemu-aarch64. The tests then run %t as they do natively.
#
#   cross_compile.py SYSROOT DRIVER ARGS...
import os
import stat
import subprocess
import sys

sysroot, driver, args = sys.argv[1], sys.argv[2], sys.argv[3:]
result = subprocess.call([driver, '--target=aarch64-linux-gnu'] + args)
if result:
    sys.exit(result)
links = not any(a in ('-c', '-S', '-E', '-shared', '-r') for a in args)
if links and '-o' in args:
    out = os.path.abspath(args[args.index('-o') + 1])
    real = os.path.join(os.path.dirname(out), 'aarch64', os.path.basename(out))
    os.makedirs(os.path.dirname(real), exist_ok=True)
    os.replace(out, real)
    with open(out, 'w') as f:
        f.write('#!/bin/sh\nexec qemu-aarch64 -L %s "%s" "$@"\n' % (sysroot, real))
    os.chmod(out, os.stat(out).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
