#!/usr/bin/env python3
"""Lists every name the <wuc/...> headers declare or define that is neither
prefixed (wuc_, WUC_) nor reserved (__...): file-scope declarations (from
clang's AST), enumerators, struct tags, and macros (gcc -dM, minus the
compiler's own).

  check_prefixed.py <include dir> <work dir>

Prints "unprefixed: <kind> <name>" for each, then "checked N names".
"""
import json
import os
import subprocess
import sys

HEADERS = ['base.h', 'atomic.h', 'time.h', 'thread.h', 'select.h', 'channel.h', 'future.h',
           'latch.h', 'lock.h', 'semaphore.h', 'timeout.h', 'waituntil.h', 'fd.h']


def ok(name):
    return name.startswith(('wuc_', 'WUC_', '__'))


def main(include, work):
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, 'all.c')
    with open(src, 'w') as f:
        f.write(''.join(f'#include <wuc/{h}>\n' for h in HEADERS))
    empty = os.path.join(work, 'empty.c')
    open(empty, 'w').close()
    bad, checked = [], 0

    ast = json.loads(subprocess.run(['clang-14', '-std=c99', '-I' + include, '-fsyntax-only',
                                     '-Xclang', '-ast-dump=json', src],
                                    capture_output=True, text=True, check=True).stdout)

    def walk(node, file_scope):
        nonlocal checked
        kind, name = node.get('kind'), node.get('name')
        if name and file_scope:
            checked += 1
            if not ok(name):
                bad.append((kind, name))
        for inner in node.get('inner', []):
            walk(inner, file_scope and kind in ('TranslationUnitDecl', 'EnumDecl'))

    walk(ast, True)

    def macros(path):
        out = subprocess.run(['gcc-12', '-std=c99', '-E', '-dM', '-I' + include, path],
                             capture_output=True, text=True, check=True).stdout
        return {line.split()[1].split('(')[0] for line in out.splitlines() if line.startswith('#define')}

    for name in sorted(macros(src) - macros(empty)):
        checked += 1
        if not ok(name):
            bad.append(('macro', name))
    for kind, name in bad:
        print(f'unprefixed: {kind} {name}')
    print(f'checked {checked} names')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
