#!/usr/bin/env python3
"""Fails when the reference docs fall behind the code.

  check_docs_coverage.py <source dir>

- every public function and macro of stdlib/wuc.h and stdlib/wuc/*.h must
  be named (as a whole word) in docs/library.md;
- every message of frontend/messages.h must appear in docs/language.md,
  exactly, with each %s standing for any text on the same line (a
  placeholder such as <type> or an example such as 'int');
- every test that docs/language.md cites (`semantics/or_priority.wc`,
  `semantics/jumps_*.wc`) must exist under test/lit.

Not public, so not checked: <wuc/waituntil.h> (the support code of the
lowered statements, included by wucc, not by users), names ending in `_`
(helpers of other macros), reserved names beginning with `__` (helpers of
code that expands in the program's text), include guards, and the
wuc_selectable_* names that WUC_SELECTABLE generates.
"""
import glob
import os
import re
import sys

PRIVATE_HEADERS = {'waituntil.h'}


def public_names(header_text):
    text = re.sub(r'/\*.*?\*/', ' ', header_text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    names = set(re.findall(r'^\s*#\s*define\s+([A-Za-z_]\w*)', text, re.M))
    # Function declarations and inline definitions: `type name(` at the
    # start of a declaration (a line starting with a type, not a call
    # inside a body or a macro's replacement).
    for m in re.finditer(r'^(?:static\s+inline\s+|extern\s+)?[A-Za-z_][\w\s\*]*?[\s\*]([A-Za-z_]\w*)\s*\(',
                         text, re.M):
        line = m.group(0)
        if line.lstrip().startswith(('return', 'if', 'for', 'while', 'WUC_SELECTABLE', '#')):
            continue
        names.add(m.group(1))
    return {n for n in names
            if not n.endswith('_') and not n.endswith('_H') and not n.startswith('__')
            and not n.startswith('wuc_selectable_')
            and not n.startswith('WUC_SELECTABLE_')}


def messages(messages_h):
    with open(messages_h) as f:
        text = f.read()
    out = {}
    for m in re.finditer(r'constexpr const char \*(\w+)\s*=\s*((?:"(?:[^"\\]|\\.)*"\s*)+);', text):
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2))
        out[m.group(1)] = bytes(''.join(parts), 'utf-8').decode('unicode_escape')
    return out


def main(src):
    errors = []
    with open(os.path.join(src, 'docs', 'library.md')) as f:
        library = f.read()
    headers = [os.path.join(src, 'stdlib', 'wuc.h')]
    wuc_dir = os.path.join(src, 'stdlib', 'wuc')
    headers += [os.path.join(wuc_dir, h) for h in sorted(os.listdir(wuc_dir))
                if h.endswith('.h') and h not in PRIVATE_HEADERS]
    checked = 0
    for h in headers:
        with open(h) as f:
            for name in sorted(public_names(f.read())):
                checked += 1
                if not re.search(r'(?<!\w)' + re.escape(name) + r'(?!\w)', library):
                    errors.append(f'docs/library.md does not mention {name} '
                                  f'({os.path.relpath(h, src)})')

    with open(os.path.join(src, 'docs', 'language.md')) as f:
        language = f.read()
    msgs = messages(os.path.join(src, 'frontend', 'messages.h'))
    for name, msg in sorted(msgs.items()):
        pattern = '.+?'.join(re.escape(p) for p in msg.split('%s'))
        if not re.search(pattern, language):
            errors.append(f'docs/language.md lacks the message {name}: "{msg}"')
    cited = sorted(set(re.findall(r'(?<![\w/])[a-z_]+/[\w*]+\.wc', language)))
    for test in cited:
        if not glob.glob(os.path.join(src, 'test', 'lit', test)):
            errors.append(f'docs/language.md cites test/lit/{test}, which does not exist')
    for e in errors:
        print(e)
    print(f'{checked} names, {len(msgs)} messages, {len(cited)} cited tests checked; '
          f'{len(errors)} missing')
    return 1 if errors or checked < 50 or len(msgs) < 40 or len(cited) < 20 else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
