"""Starts a command, waits until its back end has started (it writes
backend.pid next to the output), sends SIGTERM to the command, and says how
the command ended, whether $TMPDIR is empty and whether the back end still
runs (interrupted.wc)."""
import os
import signal
import subprocess
import sys
import time

command = sys.argv[1:]
pid_file = os.path.join(os.path.dirname(command[-1]), 'backend.pid')
proc = subprocess.Popen(command)
deadline = time.time() + 60
while not os.path.exists(pid_file) and time.time() < deadline and proc.poll() is None:
    time.sleep(0.05)
time.sleep(0.2)
proc.send_signal(signal.SIGTERM)
status = proc.wait(timeout=60)
print('wucc ended by signal %d' % -status if status < 0 else 'wucc exited with %d' % status)
print('temporary files left: %d' % len(os.listdir(os.environ['TMPDIR'])))
backend = int(open(pid_file).read())
time.sleep(0.2)
try:
    os.kill(backend, 0)
    print('back end still running')
except ProcessLookupError:
    print('back end gone')
