#!/usr/bin/env python3
"""Keeps the code and output shown in the docs equal to the real files.

In a markdown page, a fenced block right after `<!-- from: FILE -->` must be
an excerpt of FILE (relative to a base directory): its lines, in order and
contiguous, except that a line `  ...` (any indentation) stands for lines
left out.  The block after `<!-- output: FILE -->` is what FILE's program
prints.

  check_doc_blocks.py excerpts PAGE BASE
        every `from` block of PAGE is an excerpt of its file under BASE
  check_doc_blocks.py output PAGE PROGRAM ACTUAL
        ACTUAL (the program's stdout) is exactly PAGE's output block for PROGRAM
  check_doc_blocks.py first-c PAGE
        prints PAGE's first ```c block (to compile the README's example)
  check_doc_blocks.py programs PAGE DIR TEST_DIR
        every DIR/*.wc is shown in PAGE (a `from` and an `output` block) and
        has a lit test of the same name in TEST_DIR
"""
import os
import re
import sys

MARK = re.compile(r'^<!-- (from|output): (\S+) -->\n```[a-z]*\n(.*?)^```$', re.M | re.S)
GAP = re.compile(r'^\s*\.\.\.\s*$')


def blocks(page):
    with open(page) as f:
        text = f.read()
    return [(m.group(1), m.group(2), m.group(3)) for m in MARK.finditer(text)]


def is_excerpt(block, source):
    """Each run of lines between `...` lines occurs in source, in order."""
    pos = 0
    chunk = []
    for line in block.splitlines(keepends=True) + ['...\n']:
        if GAP.match(line):
            if chunk:
                found = source.find(''.join(chunk), pos)
                if found < 0:
                    return False
                pos = found + len(''.join(chunk))
            chunk = []
        else:
            chunk.append(line)
    return True


def check_excerpts(page, base):
    errors = []
    count = 0
    for kind, name, text in blocks(page):
        if kind != 'from':
            continue
        count += 1
        path = os.path.join(base, name)
        if not os.path.exists(path):
            errors.append(f'{page}: an excerpt of a missing file {name}')
            continue
        with open(path) as f:
            if not is_excerpt(text, f.read()):
                errors.append(f'{page}: an excerpt of {name} is not in the file:\n{text}')
    if count == 0:
        errors.append(f'{page}: no excerpts found')
    return errors


def check_output(page, program, actual_path):
    shown = [text for kind, name, text in blocks(page) if kind == 'output' and name == program]
    if len(shown) != 1:
        return [f'{page}: {len(shown)} output blocks for {program}, expected 1']
    with open(actual_path) as f:
        actual = f.read()
    if actual != shown[0]:
        return [f'{program} printed:\n{actual}--- but {page} shows:\n{shown[0]}---']
    return []


def check_programs(page, program_dir, test_dir):
    errors = []
    found = blocks(page)
    for name in sorted(os.listdir(program_dir)):
        if not name.endswith('.wc'):
            continue
        kinds = {kind for kind, shown, _ in found if shown == name}
        for kind in ('from', 'output'):
            if kind not in kinds:
                errors.append(f'{name}: no `{kind}` block in {page}')
        if not os.path.exists(os.path.join(test_dir, name)):
            errors.append(f'{name}: no lit test {os.path.join(test_dir, name)}')
    return errors


def print_first_c(page):
    with open(page) as f:
        m = re.search(r'^```c\n(.*?)^```$', f.read(), re.M | re.S)
    if not m:
        return [f'{page}: no ```c block']
    sys.stdout.write(m.group(1))
    return []


def main(argv):
    modes = {'excerpts': (check_excerpts, 2), 'output': (check_output, 3),
             'programs': (check_programs, 3), 'first-c': (print_first_c, 1)}
    if len(argv) < 2 or argv[1] not in modes or len(argv) != 2 + modes[argv[1]][1]:
        print(__doc__)
        return 2
    errors = modes[argv[1]][0](*argv[2:])
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
