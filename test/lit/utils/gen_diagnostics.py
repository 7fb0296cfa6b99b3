#!/usr/bin/env python3
"""Generates the message tests of test/lit/diagnostics/ from
diagnostics_spec.py: python3 gen_diagnostics.py [spec].  Each test's source
marks the error's position with @@; the generator computes the column, and
writes the CHECK lines for `file:line:col: error: message`, the echoed source
line and the caret (tabs copied), right above the line of the error (or
where a line `##` says).  Hand-written tests in that directory are not
touched."""
import os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'diagnostics')

HEAD = '''// {desc}
// RUN: %not %wucc -fsyntax-only %s 2>&1 | %FileCheck --strict-whitespace %s
// RUN: rm -f %t && %expect_exit 1 %wucc %s -o %t 2>/dev/null && test ! -e %t
'''

# A warning: the compile succeeds; `fixit` is the text clang-style fix-it
# line shows, inserted where a `$$` marks (after the @@).
WARNING_HEAD = '''// {desc}
// RUN: %wucc -fsyntax-only %s 2>&1 | %FileCheck --strict-whitespace %s
// RUN: rm -f %t && %wucc %s -o %t && test -e %t
'''

def literal(text):
    """text as FileCheck matches it literally: `[[` (a variable) and `{{` (a
    regex) are escaped; the message or the echoed line of an attribute holds
    them."""
    return re.sub(r'\[\[|\{\{', lambda m: '{{\\%s\\%s}}' % (m.group(0)[0], m.group(0)[1]), text)


def gen(name, desc, message, body, prologue='#include <wuc.h>\n', extra_run='', severity='error',
        fixit=None):
    lines = body.split('\n')
    out_lines = []
    head = (HEAD if severity == 'error' else WARNING_HEAD).format(desc=desc) + extra_run
    fixcol = None
    for k, l in enumerate(lines):
        if '$$' in l:
            fixcol = l.replace('@@', '').index('$$') + 1
            lines[k] = l.replace('$$', '')
    text = head + prologue
    # find the marker
    idx = [i for i, l in enumerate(lines) if '@@' in l]
    assert len(idx) == 1, name
    i = idx[0]
    line = lines[i]
    col = line.index('@@') + 1
    clean = line.replace('@@', '')
    lines[i] = clean
    # the CHECK block goes before the line where the marked line's statement
    # begins: we put it right before the marked line unless a '##' line
    # marks a different insertion point.
    ins = [j for j, l in enumerate(lines) if l.strip() == '##']
    if ins:
        j = ins[0]
        del lines[j]
        if j < i:
            i -= 1
    else:
        j = i
    clean = clean.replace('$$', '')
    lines[i] = clean
    offset = (i - j) + (4 if fixit else 3)  # the CHECK lines sit between
    caret = ''.join('\t' if ch == '\t' else ' ' for ch in clean[:col - 1]) + '^'
    block = [
        '// CHECK: {{^}}{{.*}}%s.wc:[[@LINE+%d]]:%d: %s: %s{{$}}' % (name, offset, col, severity,
                                                                   literal(message)),
        '// CHECK-NEXT: {{^}}%s{{$}}' % literal(clean),
        '// CHECK-NEXT: {{^}}%s{{$}}' % caret,
    ]
    if fixit:
        pad = ''.join('\t' if ch == '\t' else ' ' for ch in clean[:fixcol - 1])
        block.append('// CHECK-NEXT: {{^}}%s%s{{$}}' % (pad, fixit))
    lines[j:j] = block
    lines.append('// CHECK-NOT: error:')
    if severity == 'warning':
        lines.append('// CHECK-NOT: warning:')
    text += '\n'.join(lines)
    if not text.endswith('\n'):
        text += '\n'
    with open(os.path.join(OUT, name + '.wc'), 'w') as f:
        f.write(text)

exec(open(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'diagnostics_spec.py')).read())
