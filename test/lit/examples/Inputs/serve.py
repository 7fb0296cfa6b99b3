#!/usr/bin/env python3
"""serve.py [options] SERVER [ARGS...] -- CLIENT [ARGS...]

Runs an example server and a client against it, for the tests of
examples/echo_server.wc, chat.wc and httpd.wc:

 1. starts SERVER; its first line of output must name the port it listens on
    ("... port N"); that line is printed;
 2. runs CLIENT with every "{port}" in its arguments replaced by N (and
    "{pid}" by the server's process id); its output is printed, and it must
    exit with status 0;
 3. with --idle, first opens a TCP connection to the server that sends
    nothing and reads nothing until the server has exited (shutdown must
    not wait for it); then what it received is printed, each line as
    "idle: <line>", and "idle: end of file";
 4. sends the server --signal (TERM by default, or INT) and waits for it to
    exit; the rest of its output is printed, then "server exit status N"
    (or "server killed by signal S").

Every wait is bounded (--limit seconds each, default 20): a server that
does not print its port or does not exit is killed and the run fails.  The
server's stderr passes through."""
import argparse
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--signal', default='TERM', choices=['TERM', 'INT'])
    ap.add_argument('--idle', action='store_true')
    ap.add_argument('--limit', type=float, default=20.0)
    ap.add_argument('command', nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    if '--' not in opts.command:
        sys.exit('serve.py: expected SERVER ... -- CLIENT ...')
    cut = opts.command.index('--')
    server_cmd, client_cmd = opts.command[:cut], opts.command[cut + 1:]

    server = subprocess.Popen(server_cmd, stdout=subprocess.PIPE)
    ok = True
    try:
        # 1. The port, from the first line, within the limit.
        deadline = time.monotonic() + opts.limit
        first = b''
        while not first.endswith(b'\n'):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([server.stdout], [], [], left)[0]:
                sys.exit('serve.py: the server printed no port within %gs' % opts.limit)
            byte = os.read(server.stdout.fileno(), 1)
            if not byte:
                sys.exit('serve.py: the server ended before printing its port')
            first += byte
        line = first.decode()
        match = re.search(r'port (\d+)', line)
        if not match:
            sys.exit('serve.py: no port in the first line: %r' % line)
        port = match.group(1)
        sys.stdout.write(line)
        sys.stdout.flush()

        # 3. An idle connection, open across the shutdown.
        idle = socket.create_connection(('127.0.0.1', int(port))) if opts.idle else None

        # 2. The client.
        client = subprocess.run([a.replace('{port}', port).replace('{pid}', str(server.pid)) for a in client_cmd],
                                timeout=opts.limit)
        if client.returncode != 0:
            sys.stderr.write('serve.py: the client exited with status %d\n' % client.returncode)
            ok = False

        # 4. The signal, and the server's exit.
        server.send_signal(signal.SIGTERM if opts.signal == 'TERM' else signal.SIGINT)
        try:
            rest, _ = server.communicate(timeout=opts.limit)
        except subprocess.TimeoutExpired:
            sys.exit('serve.py: the server did not exit within %gs of SIG%s' %
                     (opts.limit, opts.signal))
        sys.stdout.write(rest.decode())
        if server.returncode >= 0:
            print('server exit status %d' % server.returncode)
        else:
            print('server killed by signal %d' % -server.returncode)
        if idle:
            idle.settimeout(opts.limit)
            received = b''
            while True:
                data = idle.recv(65536)
                if not data:
                    break
                received += data
            for line in received.decode().splitlines():
                print('idle: ' + line)
            print('idle: end of file')
            idle.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
