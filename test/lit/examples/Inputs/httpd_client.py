#!/usr/bin/env python3
"""httpd_client.py PORT PID ROOT FREE SIGNAL: drives examples/httpd.wc.

ROOT is the server's root directory (its files are compared with what is
served; ROOT/../secret.txt must stay out of reach); FREE is how many more
connections the server's limit allows (the limit minus connections other
programs hold open).  Prints one line per check; a failed check prints
FAILED and exits with status 1.  At the end it sends the server SIGNAL
(TERM or INT, to process PID) in the middle of a request and checks the
graceful shutdown.  Every wait is bounded (10 s); the one check that waits
for something NOT to happen (a connection over the limit gets no answer)
waits 0.5 s, which can only let a broken limit pass, never fail a good one.
"""
import os
import select
import signal
import socket
import sys
import time

port, pid, root, free, signame = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                  int(sys.argv[4]), sys.argv[5])


def fail(why):
    print('FAILED: ' + why)
    sys.stdout.flush()
    sys.exit(1)


def content(path):
    with open(os.path.join(root, path), 'rb') as f:
        return f.read()


class Conn:
    def __init__(self):
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=10)
        self.buf = b''

    def send(self, data):
        self.sock.sendall(data)

    def get(self, path, method='GET', extra=b'', version=b'HTTP/1.1'):
        self.send(method.encode() + b' ' + path.encode() + b' ' + version + b'\r\n' +
                  b'Host: 127.0.0.1\r\n' + extra + b'\r\n')

    def fill(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            fail('nothing received for 10 s')
        except ConnectionResetError:
            data = b''
        self.buf += data
        return bool(data)

    def response(self, head_only=False):
        """(status, headers with lower-case names, body)."""
        while b'\r\n\r\n' not in self.buf:
            if not self.fill():
                fail('the connection ended before a response: %r' % self.buf)
        head, self.buf = self.buf.split(b'\r\n\r\n', 1)
        lines = head.decode().split('\r\n')
        parts = lines[0].split(' ', 2)
        if len(parts) < 2 or parts[0] != 'HTTP/1.1':
            fail('bad status line %r' % lines[0])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(':')
            headers[name.strip().lower()] = value.strip()
        for h in ('content-length', 'date', 'connection'):
            if h not in headers:
                fail('no %s header in %r' % (h, head))
        length = 0 if head_only else int(headers['content-length'])
        while len(self.buf) < length:
            if not self.fill():
                fail('the connection ended in a body')
        body, self.buf = self.buf[:length], self.buf[length:]
        return int(parts[1]), headers, body

    def at_eof(self):
        """True if the server closed the connection (and sent nothing more)."""
        return not self.buf and not self.fill()

    def quiet_for(self, seconds):
        return not select.select([self.sock], [], [], seconds)[0]

    def close(self):
        self.sock.close()


def check(label, cond, what):
    if not cond:
        fail('%s: %s' % (label, what))
    print('%s: %s' % (label, what))


# Keep-alive: many requests on one connection.
c = Conn()
for path, name, ctype in (('/hello.txt', 'hello.txt', 'text/plain'),
                          ('/big.bin', 'big.bin', 'application/octet-stream'),
                          ('/', 'index.html', 'text/html'),
                          ('/sub/a%20b.txt', 'sub/a b.txt', 'text/plain'),
                          ('/hello.txt?x=1', 'hello.txt', 'text/plain')):
    c.get(path)
    status, h, body = c.response()
    want = content(name)
    check('GET ' + path, status == 200 and h['content-type'] == ctype and body == want and
          h['connection'] == 'keep-alive', '200 %s, %d bytes, intact, kept open' % (ctype, len(want)))
c.get('/hello.txt', method='HEAD')
status, h, body = c.response(head_only=True)
check('HEAD /hello.txt', status == 200 and h['content-length'] == '6',
      '200, Content-Length 6, no body')
for path, why in (('/missing.txt', 'no such file'), ('/sub/', 'no index.html'),
                  ('/sub', 'a directory'), ('/fifo', 'a FIFO: no regular file')):
    c.get(path)
    status, h, body = c.response()
    check('GET ' + path, status == 404 and h['connection'] == 'keep-alive',
          '404 (%s), kept open' % why)
check('keep-alive', True, 'all of these on one connection')
c.close()

# Pipelining: three requests in one write, answered in order.
c = Conn()
c.send(b'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n'
       b'GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n'
       b'HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n')
got = [c.response()[0], c.response()[0], c.response(head_only=True)[0]]
check('pipelined', got == [200, 404, 200], 'three requests in one write: 200 404 200, in order')
c.close()

# Connection: close, and HTTP/1.0.
c = Conn()
c.get('/hello.txt', extra=b'Connection: close\r\n')
status, h, body = c.response()
check('Connection: close', status == 200 and h['connection'] == 'close' and c.at_eof(),
      '200, Connection: close, then end of file')
c = Conn()
c.get('/hello.txt', version=b'HTTP/1.0')
status, h, body = c.response()
check('HTTP/1.0', status == 200 and h['connection'] == 'close' and c.at_eof(),
      '200, Connection: close, then end of file')
c = Conn()
c.get('/hello.txt', version=b'HTTP/1.0', extra=b'Connection: Keep-Alive\r\n')
status, h, body = c.response()
c.get('/hello.txt', version=b'HTTP/1.0', extra=b'Connection: Keep-Alive\r\n')
status2, h2, body2 = c.response()
check('HTTP/1.0 keep-alive', status == status2 == 200 and h['connection'] == 'keep-alive',
      '200, Connection: keep-alive, a second request on it: 200')
c.close()

# Paths that would leave the root, and malformed requests: 400, then closed.
for label, request in (
        ('GET /../secret.txt', b'GET /../secret.txt HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET /sub/../../secret.txt', b'GET /sub/../../secret.txt HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET /%2e%2e/secret.txt', b'GET /%2e%2e/secret.txt HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET /sub/..%2F..%2Fsecret.txt',
         b'GET /sub/..%2F..%2Fsecret.txt HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET /..', b'GET /.. HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET /hello.txt%00', b'GET /hello.txt%00 HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET /hello%+a.txt', b'GET /hello%+a.txt HTTP/1.1\r\nHost: x\r\n\r\n'),
        ('GET without Host', b'GET /hello.txt HTTP/1.1\r\n\r\n'),
        ('a garbage line', b'hello there\r\n\r\n'),
        ('HTTP/2.0', b'GET /hello.txt HTTP/2.0\r\nHost: x\r\n\r\n'),
        ('8 KiB of headers', (b'GET /hello.txt HTTP/1.1\r\nX: ' + b'x' * 8192)[:8192])):
    c = Conn()
    c.send(request)
    status, h, body = c.response()
    check(label, status == 400 and h['connection'] == 'close' and c.at_eof(),
          '400, then end of file')
# A name with dots that is not "..": an ordinary file.
c = Conn()
c.get('/..hidden..')
status, h, body = c.response()
check('GET /..hidden..', status == 200 and body == content('..hidden..'), '200, intact')
c.close()

# Other methods: 405 with Allow, and a request with a body closes the connection.
c = Conn()
c.send(b'POST /hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc')
status, h, body = c.response()
check('POST', status == 405 and h.get('allow') == 'GET, HEAD' and c.at_eof(),
      '405, Allow: GET, HEAD, then end of file')
c = Conn()
c.get('/hello.txt', method='DELETE')
status, h, body = c.response()
check('DELETE', status == 405 and h.get('allow') == 'GET, HEAD', '405, Allow: GET, HEAD')
c.close()

# The connection limit: FREE connections are served, one more waits for a
# slot and is answered once one of them closes.
held = []
for i in range(free):
    held.append(Conn())
    held[-1].get('/hello.txt')
    held[-1].response()
extra = Conn()
extra.get('/hello.txt')
check('limit', extra.quiet_for(0.5), '%d connections served, one more gets no answer' % free)
held[0].close()
status, h, body = extra.response()
check('limit', status == 200 and body == b'hello\n', 'answered once one of them closed')
for x in held[1:] + [extra]:
    x.close()

# Graceful shutdown: a request begun before the signal is answered.
begun = Conn()
begun.send(b'GET /hello.txt HTTP/1.1\r\nHost: x\r\n')
waiting = Conn()  # between requests: closed at once
waiting.get('/hello.txt')
waiting.response()
os.kill(pid, signal.SIGTERM if signame == 'TERM' else signal.SIGINT)
check('shutdown', waiting.at_eof(), 'an idle keep-alive connection is closed')
waiting.close()
begun.send(b'\r\n')
status, h, body = begun.response()
check('shutdown', status == 200 and body == b'hello\n' and h['connection'] == 'close' and
      begun.at_eof(), 'a request begun before it is answered, Connection: close, end of file')
begun.close()
deadline = time.monotonic() + 10
while True:
    try:
        probe = socket.create_connection(('127.0.0.1', port), timeout=10)
    except ConnectionRefusedError:
        break
    probe.close()  # still in the backlog of a listener being closed
    if time.monotonic() > deadline:
        fail('shutdown: connections still accepted after 10 s')
    time.sleep(0.01)
check('shutdown', True, 'new connections are refused')
