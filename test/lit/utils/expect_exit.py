#!/usr/bin/env python3
"""expect_exit.py N cmd [args...]: runs cmd and succeeds only if it exits
with status exactly N (a signal, or any other status, is a failure).  Its
stdout and stderr pass through."""
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit('usage: expect_exit.py N cmd [args...]')
want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write('expect_exit: %r exited with %d, expected %d\n' % (sys.argv[2:], got, want))
    sys.exit(1)
sys.exit(0)
