#!/usr/bin/env python3
"""chat_client.py PORT MODE: drives examples/chat.wc, printing what each
client receives (guest names replaced by the letters A, B, C, D of the
clients of this script, so the output does not depend on other
connections).

Both modes: A, B and C connect one after the other (each later one is
announced to the earlier ones), then each sends a line — C's arrives in two
pieces — and every other client must receive it.  Then:

  idle   D connects and is announced; nobody sends anything more; every
         client must then be told it was idle and be disconnected, having
         received nothing else but "left" notices of the others (in an order
         that depends on timers firing close together: they are counted, not
         printed).  The server runs with an idle limit of 1 s.
  quit   A, B and C hang up one after the other; each departure is seen by
         the clients still there.

Every read waits at most 10 s; a missing or unexpected line fails the run
(exit status 1)."""
import re
import socket
import sys

port = int(sys.argv[1])
mode = sys.argv[2]
names = {}  # guestN -> letter


def letters(line):
    return re.sub(r'guest\d+', lambda m: names.get(m.group(0), '?'), line)


class Client:
    def __init__(self, letter):
        self.letter = letter
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=10)
        self.buf = b''
        welcome = self.raw_line()
        m = re.fullmatch(r'welcome, you are (guest\d+)', welcome or '')
        if not m:
            fail('%s: expected a welcome, got %r' % (letter, welcome))
        names[m.group(1)] = letter
        print('%s: %s' % (letter, letters(welcome)))

    def raw_line(self):
        """The next line, without its newline; None at end of file."""
        while b'\n' not in self.buf:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                fail('%s: nothing received for 10 s' % self.letter)
            if not data:
                if self.buf:
                    fail('%s: an unterminated last line %r' % (self.letter, self.buf))
                return None
            self.buf += data
        line, self.buf = self.buf.split(b'\n', 1)
        return line.decode()

    def expect(self, text):
        line = self.raw_line()
        if line is None or letters(line) != text:
            fail('%s: expected %r, got %r' % (self.letter, text, line and letters(line)))
        print('%s: %s' % (self.letter, text))

    def send(self, data):
        self.sock.sendall(data)


def fail(why):
    print('FAILED: ' + why)
    sys.stdout.flush()
    sys.exit(1)


a = Client('A')
b = Client('B')
a.expect('* B joined')
c = Client('C')
a.expect('* C joined')
b.expect('* C joined')

a.send(b'hello from A\n')
b.expect('A: hello from A')
c.expect('A: hello from A')
b.send(b'hi, B here\r\n')
a.expect('B: hi, B here')
c.expect('B: hi, B here')
c.send(b'C says: this line comes in ')
c.send(b'two pieces\n')
a.expect('C: C says: this line comes in two pieces')
b.expect('C: C says: this line comes in two pieces')

if mode == 'idle':
    d = Client('D')
    for x in (a, b, c):
        x.expect('* D joined')
    for x in (a, b, c, d):
        while True:
            line = x.raw_line()
            if line is None:
                fail('%s: end of file without a goodbye' % x.letter)
            line = letters(line)
            if line == 'server: idle for 1 s, bye':
                break
            if not re.fullmatch(r'\* [ABCD] left', line) or line == '* %s left' % x.letter:
                fail('%s: unexpected %r' % (x.letter, line))
        if x.raw_line() is not None:
            fail('%s: still connected after its goodbye' % x.letter)
        print('%s: told it was idle, then disconnected' % x.letter)
elif mode == 'quit':
    a.sock.close()
    b.expect('* A left')
    c.expect('* A left')
    b.sock.close()
    c.expect('* B left')
    c.sock.close()
    print('A, B, C hung up')
else:
    fail('unknown mode ' + mode)
