#!/usr/bin/env python3
"""Compiles wuc's headers and the C wucc writes in every standard mode.

  check_standards.py <include dir> <work dir> <file>... -- <wucc command>

Each .wc file is lowered once (wucc --emit-c); each resulting C file, and
each .c file as it is, is compiled with every compiler below that exists,
in every mode of docs/language.md ("Source files and the compiler"), with
-pedantic-errors -Wall -Wextra -Wpadded -Werror.  Prints one line per
failing compilation with the compiler's first message, then a summary;
exits 1 if any failed.
"""
import os
import shutil
import subprocess
import sys

STANDARDS = ['c99', 'c11', 'c17', 'c2x', 'gnu99', 'gnu11', 'gnu17', 'gnu2x']
COMPILERS = ['gcc-12', 'clang-14']
FLAGS = ['-pedantic-errors', '-Wall', '-Wextra', '-Wpadded', '-Werror']


def main(include, work, files, wucc):
    os.makedirs(work, exist_ok=True)
    sources = []
    for f in files:
        if f.endswith('.wc'):
            out = os.path.join(work, os.path.basename(f) + '.c')
            r = subprocess.run(wucc + ['--emit-c', f, '-o', out], capture_output=True, text=True)
            if r.returncode != 0:
                print(f'wucc --emit-c {f} failed:\n{r.stderr}')
                return 1
            sources.append((f, out))
        else:
            sources.append((f, f))
    compilers = [c for c in COMPILERS if shutil.which(c)]
    if not compilers:
        print('no compiler found among ' + ', '.join(COMPILERS))
        return 1
    failed = ran = 0
    for cc in compilers:
        for std in STANDARDS:
            for shown, path in sources:
                cmd = [cc, '-std=' + std] + FLAGS + ['-I' + include, '-c', path, '-o', os.devnull]
                r = subprocess.run(cmd, capture_output=True, text=True)
                ran += 1
                if r.returncode != 0:
                    failed += 1
                    first = next((l for l in r.stderr.splitlines() if 'error' in l), r.stderr[:200])
                    print(f'FAIL {cc} -std={std} {os.path.basename(shown)}: {first}')
    print(f'{ran - failed} of {ran} compilations clean ({", ".join(compilers)})')
    return 1 if failed else 0


if __name__ == '__main__':
    args = sys.argv[1:]
    cut = args.index('--')
    sys.exit(main(args[0], args[1], args[2:cut], args[cut + 1:]))
