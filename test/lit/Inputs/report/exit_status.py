#!/usr/bin/env python3
# Runs a command with its standard error merged into its standard output, then
# prints "exit status: N" and succeeds, so a test can check the exact status
# (lit's `not` only tells zero from non-zero).
#
#   exit_status.py COMMAND ARGS...
import subprocess
import sys

sys.stdout.flush()
status = subprocess.call(sys.argv[1:], stderr=subprocess.STDOUT)
print('exit status: %d' % status)
