#!/usr/bin/env python3
"""malformed.py — malformed and oversized inputs through wucc.

Every input must give diagnostics (exit status 1 and an `error:` line) or
output (exit status 0 and a non-empty lowered file) — never a crash, never a
hang.  Each run is under a time bound, a hang guard only: the machine may be
loaded, so the bound is generous and nothing is said about speed.  Each input
also states which of the two it must give, and some what the first error says.

The small inputs are the fuzz seed corpus (test/fuzz/corpus); the big ones
(a 10 MB file, 1 and 4 MB lines, 10,000 clauses, nesting thousands deep, random
bytes) are generated here, into --work, and are not committed.  With
--fuzz-binary, every input is also run once through the frontend's libFuzzer
target (ASan + UBSan, built by run.sh).

    test/fuzz/malformed.py --wucc build/bin/wucc [--fuzz-binary DIR/frontend_fuzz]
                           [--work DIR] [--bound SECONDS] [--keep]
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, 'corpus')
# Diagnostics must stay readable whatever the input: the first 20 errors
# (the engine's limit), each with a line of at most a few hundred bytes.
MAX_STDERR = 64 * 1024

# What the seed corpus files must give: 'error' (optionally with a regex the
# first error line must match) or 'output'.  Seeds not listed may give either.
SEEDS = {
    '17_jumps_into_bodies.wc': ('error', r'target of a jump from outside the body'),
    # Outside every waituntil statement: the back end's business (issue 14).
    '14_unterminated_string.wc': ('output', None),
    '15_unterminated_comment.wc': ('error', r'unterminated'),
    '20_unterminated_char.wc': ('error', r'unterminated'),
    '21_unterminated_string_in_clause.wc': ('error', r'unterminated'),
    '22_unterminated_comment_in_body.wc': ('error', r'unterminated'),
    '23_unbalanced_open_paren.wc': ('error', None),
    '24_unbalanced_close_paren.wc': ('error', None),
    '25_unbalanced_open_brace.wc': ('error', None),
    '26_unbalanced_close_brace.wc': ('error', None),
    '27_only_waituntil.wc': ('error', r"'waituntil' can only begin a statement"),
    '28_nul_bytes.wc': ('error', None),
    '29_non_utf8.wc': ('error', r'not valid UTF-8'),
    '30_non_utf8_outside.wc': ('output', None),
    '31_empty.wc': ('output', None),
    '32_clause_soup.wc': ('error', None),
    '33_incomplete_operand.wc': ('error', r'expected expression'),
}


def lines(n, make):
    return ''.join(make(i) for i in range(n))


def channels(n):
    return '#include <wuc.h>\n' + lines(n, lambda i: f'static channel(int) c{i};\n')


def clause_statement(n, joiner, guarded=False, broken_at=None):
    """A statement of n receive clauses joined by `or`/`and`."""
    def clause(i):
        if i == broken_at:
            return 'waituntil () ;'
        guard = f'when (v != {i}) ' if guarded else ''
        return f'{guard}waituntil (v << c{i}) {{ v = {i}; }}'
    body = ('\n  ' + joiner + ' ').join(clause(i) for i in range(n))
    return channels(n) + 'void f(void) {\n  int v = 0;\n  ' + body + '\n}\n'


def giant_file(size):
    """Plain C functions with a statement every so often, up to size bytes."""
    parts = ['#include <wuc.h>\nstatic channel(int) c;\nstatic latch done;\n']
    total, i = len(parts[0]), 0
    while total < size:
        if i % 1000 == 0:
            s = (f'int w{i}(void) {{ int v = 0; waituntil (v << c) {{ v++; }} '
                 f'or waituntil (done) ; or waituntil (timeout({i}`ms)) ; return v; }}\n')
        else:
            s = f'static int f{i}(int x) {{ return x * {i % 97} + {i}; }}\n'
        parts.append(s)
        total += len(s)
        i += 1
    return ''.join(parts)


def token_soup(size, seed):
    """Random dialect and C tokens, broken and unbalanced, in function bodies."""
    words = ['waituntil', 'when', 'or', 'and', 'else', '(', ')', '{', '}', ';', '<<', 'x', 'c',
             'timeout', 'closed', 'readable', 'writable', '10`ms', 'channel(int)',
             'future(long)', '"s"', "'c'", '/* */', '\n', 'if', 'while', 'for', 'return', '[',
             ']', ',', '=', '?', ':', '||', '&&']
    rng = random.Random(seed)
    out, total, n = [], 0, 0
    while total < size:
        if n % 200 == 0:
            w = '\nvoid g%d(void) {\n' % n
        else:
            w = rng.choice(words) + ' '
        out.append(w)
        total += len(w)
        n += 1
    return ''.join(out)


def random_bytes(size, seed):
    rng = random.Random(seed)
    return bytes(rng.getrandbits(8) for _ in range(size))


def generated():
    """(name, bytes, expected, first-error regex) for the big inputs."""
    deep = 4000  # under the limits of groups and nested types (4096)
    yield ('giant_10mb.wc', giant_file(10 << 20), 'output', None)
    yield ('giant_token_soup_10mb.wc', token_soup(10 << 20, 1), 'error', None)
    yield ('huge_line_1mb.wc',
           '#include <wuc.h>\nstatic latch e; int a[] = {' + '1,' * (1 << 19) +
           '1}; void f(void) { waituntil (e) ; }\n', 'output', None)
    yield ('huge_line_4mb_error.wc',
           'int a[] = {' + '1,' * (2 << 20) + '1}; void f(void) { waituntil (e) ; or ( }\n',
           'error', r"expected 'waituntil', 'when', '\(' or 'else' after 'or'")
    yield ('long_identifier_1mb.wc',
           '#include <wuc.h>\nstatic latch ' + 'e' * (1 << 20) + ';\nvoid f(void) { waituntil (' +
           'e' * (1 << 20) + ') ; }\n', 'output', None)
    yield ('clauses_10000_or.wc', clause_statement(10000, 'or'), 'output', None)
    yield ('clauses_10000_and.wc', clause_statement(10000, 'and'), 'output', None)
    yield ('clauses_10000_guarded.wc', clause_statement(10000, 'or', guarded=True), 'output', None)
    yield ('clauses_10000_error_at_end.wc', clause_statement(10000, 'or', broken_at=9999),
           'error', r'clauses_10000_error_at_end\.wc:20003:\d+: error: waituntil clause has no resource')
    yield ('statements_5000.wc', channels(1) + 'void f(void) {\n  int v;\n' +
           lines(5000, lambda i: '  waituntil (v << c0) ; or waituntil (timeout(1`ms)) ;\n') + '}\n',
           'output', None)
    yield (f'parens_{deep}.wc', '#include <wuc.h>\nstatic latch e;\nvoid f(void) { waituntil ' +
           '(' * deep + 'e' + ')' * deep + ' ; }\n', 'output', None)
    yield (f'paren_operand_{deep}.wc', '#include <wuc.h>\nstatic latch e;\nvoid f(void) { waituntil (' +
           '(' * deep + '&e' + ')' * deep + ') ; }\n', 'output', None)
    yield (f'paren_body_{deep}.wc', '#include <wuc.h>\nstatic latch e;\nvoid f(void) { int x = 0;'
           ' waituntil (e) { x = ' + '(' * deep + 'x' + ')' * deep + '; } }\n', 'output', None)
    yield (f'brace_body_{deep}.wc', '#include <wuc.h>\nstatic latch e;\nvoid f(void) { waituntil (e) ' +
           '{' * deep + '}' * deep + ' }\n', 'output', None)
    yield ('parens_140000.wc', 'void f(void) { waituntil ' + '(' * 140000 + 'e' + ')' * 140000 +
           ' ; }\n', 'error', r'brackets nested too deeply \(more than 131072 levels\)')
    yield ('braces_100000.wc', '#include <wuc.h>\nstatic latch e;\nvoid f(void) { waituntil (e) ' +
           '{' * 100000 + '}' * 100000 + ' }\n', 'output', None)
    yield ('parens_100000.wc', '#include <wuc.h>\nstatic latch e;\nint f(void) { waituntil (e) ; return ' +
           '(' * 100000 + '1' + ')' * 100000 + '; }\n', 'output', None)
    yield ('nested_statements_64.wc', channels(1) + 'void f(void) { int v; ' +
           'waituntil (v << c0) ' * 64 + '; }\n', 'output', None)
    yield ('nested_statements_10000.wc', 'void f(void) { ' + 'waituntil (a) ' * 10000 + '; }\n',
           'error', r'nested too deeply \(more than 64 levels\)')
    yield ('nested_groups_5000.wc', 'void f(void) { waituntil (a) ; ' + 'or (waituntil (a) ; ' * 5000 +
           ')' * 5000 + ' }\n', 'error', r'nested too deeply')
    yield ('unterminated_comment_10mb.wc', 'void f(void) { waituntil (a) ; }\n/*' + 'x' * (10 << 20),
           'error', r'unterminated')
    yield ('unbalanced_parens_1mb.wc', 'void f(void) { waituntil (a) ; or ' + '(' * (1 << 20) + '\n',
           'error', None)
    yield ('random_bytes_1mb.wc', random_bytes(1 << 20, 2), 'any', None)
    yield ('random_bytes_with_statement.wc',
           b'void f(void) { waituntil (a) ' + random_bytes(1 << 16, 3) + b' }\n', 'any', None)


def first_error(stderr):
    for line in stderr.splitlines():
        if ': error: ' in line or ': fatal error: ' in line:
            return line
    return None


def check_wucc(wucc, path, expected, regex, bound, out):
    """Runs wucc --emit-c; returns a list of problems (empty: passed)."""
    name = os.path.basename(path)
    start = time.monotonic()
    try:
        p = subprocess.run([wucc, '--emit-c', path, '-o', out], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=bound)
    except subprocess.TimeoutExpired:
        return [f'{name}: no answer within {bound} s (a hang?)']
    took = time.monotonic() - start
    err = p.stderr.decode('utf-8', 'replace')
    problems = []
    if p.returncode < 0:
        problems.append(f'{name}: killed by signal {-p.returncode}')
    elif p.returncode == 0:
        if not os.path.exists(out) or os.path.getsize(out) == 0:
            problems.append(f'{name}: exit status 0 but no output')
        if expected == 'error':
            problems.append(f'{name}: expected a diagnostic, got output')
    elif p.returncode == 1:
        line = first_error(err)
        if line is None:
            problems.append(f'{name}: exit status 1 without an error line')
        elif expected == 'output':
            problems.append(f'{name}: expected output, got: {line[:300]}')
        elif regex and not re.search(regex, line):
            problems.append(f'{name}: first error does not match {regex!r}: {line[:300]}')
        if os.path.exists(out):
            problems.append(f'{name}: an output file was left behind on error')
    else:
        problems.append(f'{name}: exit status {p.returncode}')
    if len(p.stderr) > MAX_STDERR:
        problems.append(f'{name}: {len(p.stderr)} bytes of diagnostics (at most {MAX_STDERR})')
    what = 'output' if p.returncode == 0 else (first_error(err) or '?')[:100]
    print(f'  {name}: exit {p.returncode} in {took:.1f} s: {what}')
    if os.path.exists(out):
        os.remove(out)
    return problems


def check_fuzz_target(binary, path, bound):
    name = os.path.basename(path)
    env = dict(os.environ, ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='halt_on_error=1:print_stacktrace=1')
    try:
        p = subprocess.run([binary, '-rss_limit_mb=4096', f'-timeout={bound}', path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=bound + 30, env=env)
    except subprocess.TimeoutExpired:
        return [f'{name}: the fuzz target gave no answer within {bound} s']
    if p.returncode != 0:
        tail = p.stdout.decode('utf-8', 'replace')[-3000:]
        return [f'{name}: the fuzz target (ASan+UBSan) failed with status {p.returncode}:\n{tail}']
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--wucc', required=True)
    ap.add_argument('--fuzz-binary', help='frontend_fuzz built by run.sh (also run every input through it)')
    ap.add_argument('--work', help='where the generated inputs go (default: a temporary directory)')
    ap.add_argument('--bound', type=int, default=180, help='seconds before a run counts as a hang')
    ap.add_argument('--keep', action='store_true', help='keep the generated inputs (to replay one)')
    args = ap.parse_args()

    work = args.work or tempfile.mkdtemp(prefix='wuc-malformed-')
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, 'lowered.c')
    problems, inputs = [], []
    for name in sorted(os.listdir(CORPUS)):
        expected, regex = SEEDS.get(name, ('any', None))
        inputs.append((os.path.join(CORPUS, name), expected, regex))
    missing = sorted(set(SEEDS) - set(os.listdir(CORPUS)))
    problems += [f'{name}: listed in SEEDS but not in {CORPUS}' for name in missing]
    for name, text, expected, regex in generated():
        path = os.path.join(work, name)
        with open(path, 'wb') as f:
            f.write(text.encode() if isinstance(text, str) else text)
        inputs.append((path, expected, regex))

    fuzz = args.fuzz_binary if args.fuzz_binary and os.path.exists(args.fuzz_binary) else None
    if args.fuzz_binary and not fuzz:
        print(f'note: {args.fuzz_binary} not built (run.sh builds it): inputs not run under ASan+UBSan')
    print(f'{len(inputs)} inputs through {args.wucc} --emit-c' + (f' and {fuzz}' if fuzz else ''))
    for path, expected, regex in inputs:
        problems += check_wucc(args.wucc, path, expected, regex, args.bound, out)
        if fuzz:
            problems += check_fuzz_target(fuzz, path, args.bound)
    if not args.keep:  # tens of megabytes, made again on the next run
        if args.work:
            for path, _, _ in inputs:
                if path.startswith(work):
                    os.remove(path)
        else:
            shutil.rmtree(work, ignore_errors=True)
    for p in problems:
        print('FAILED: ' + p)
    print(f'{len(inputs)} inputs, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
