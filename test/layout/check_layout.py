#!/usr/bin/env python3
"""Fails when an #include breaks the repository's layout (README.md, Layout).

  check_layout.py [--root DIR] [--self-test]

Rules, each reported as file:line with the include that breaks it:
- the compiler's stages run frontend < sema < lowering < driver: a stage
  includes headers of its own and earlier stages only;
- of sema/, others include sema.h only (INTERFACES): the rest is sema's own;
- the compiler and the library (runtime/, stdlib/) are separate programs:
  neither includes the other's headers;
- only sema/'s .cpp files include Clang or LLVM (clang/, llvm/, clang-c/,
  llvm-c/): sema's headers are included by the lowering and the driver;
- runtime/'s headers are private: only runtime/ itself and the white-box
  tests and benchmarks (WHITE_BOX; their targets link wuc_internal) include
  them.

An include is resolved as the compiler would find it: a quoted include next
to the including file first, else relative to each directory of the layout
(the targets' include paths), else it is a system header.  So a header name
must be unique across those directories (checked too).
--self-test runs the rules on a small tree with one breach of each and
fails unless each is reported.
"""
import argparse
import os
import re
import sys
import tempfile

STAGES = ['frontend', 'sema', 'lowering', 'driver']  # pipeline order
RUNTIME = 'runtime'
STDLIB = 'stdlib'
WHITE_BOX = ['test/unit', 'test/stress', 'bench']
# A stage whose headers are not all for others: the ones that are.
INTERFACES = {'sema': {'sema/sema.h', 'sema/prelude.h'}}
# Headers the build generates into frontend's binary directory.
GENERATED = {'parser.hpp': 'frontend', 'scanner.h': 'frontend'}
CLANG_PREFIXES = ('clang/', 'llvm/', 'clang-c/', 'llvm-c/')
SOURCE_SUFFIXES = ('.c', '.h', '.cc', '.cpp', '.hpp', '.l', '.y', '.S', '.wc')

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def under(path, top):
    return path == top or path.startswith(top + '/')


def sources(root):
    """Relative paths of every source file, build trees and dot dirs left out."""
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith('.')
                         and not os.path.exists(os.path.join(d, x, 'CMakeCache.txt')))
        for f in sorted(files):
            if f.endswith(SOURCE_SUFFIXES):
                yield os.path.relpath(os.path.join(d, f), root).replace(os.sep, '/')


def resolve(root, rel, quote, name):
    """The repository path `name` (included from `rel`) refers to, or None."""
    if quote == '"':
        here = os.path.normpath(os.path.join(os.path.dirname(rel), name)).replace(os.sep, '/')
        if os.path.isfile(os.path.join(root, here)):
            return here
    for top in STAGES + [RUNTIME, STDLIB]:
        if os.path.isfile(os.path.join(root, top, name)):
            return top + '/' + name
    if name in GENERATED:
        return GENERATED[name] + '/' + name
    return None


def stage_of(path):
    for i, s in enumerate(STAGES):
        if under(path, s):
            return i
    return None


def duplicate_headers(root):
    """Header names found in two of the include directories: ambiguous."""
    owner, errors = {}, []
    for top in STAGES + [RUNTIME, STDLIB]:
        for d, _, names in os.walk(os.path.join(root, top)):
            for f in sorted(names):
                if f.endswith(('.h', '.hpp')):
                    name = os.path.relpath(os.path.join(d, f), os.path.join(root, top))
                    if name in owner:
                        errors.append(f'{top}/{name}: {owner[name]}/{name} has the same name '
                                      f'(both directories are include paths)')
                    owner.setdefault(name, top)
    return errors


def check(root):
    errors = duplicate_headers(root)
    files = includes = 0
    for rel in sources(root):
        files += 1
        try:
            with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
                lines = f.readlines()
        except OSError as e:
            errors.append(f'{rel}: cannot read: {e}')
            continue
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            includes += 1
            quote, name = m.groups()
            where = f'{rel}:{n}: #include {quote}{name}{">" if quote == "<" else quote}'
            if name.startswith(CLANG_PREFIXES):
                if not (under(rel, 'sema') and not rel.endswith(('.h', '.hpp'))):
                    errors.append(f'{where}: only sema/*.cpp may include Clang or LLVM headers')
                continue
            target = resolve(root, rel, quote, name)
            if target is None:
                continue
            mine, theirs = stage_of(rel), stage_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                errors.append(f'{where}: {STAGES[mine]}/ may not include {target} '
                              f'({STAGES[theirs]}/ comes after it: {" < ".join(STAGES)})')
            if theirs is not None and mine != theirs and STAGES[theirs] in INTERFACES and \
                    target not in INTERFACES[STAGES[theirs]]:
                errors.append(f'{where}: {target} is internal to {STAGES[theirs]}/ '
                              f'(others include {", ".join(sorted(INTERFACES[STAGES[theirs]]))})')
            library = (RUNTIME, STDLIB)
            if (mine is not None and any(under(target, t) for t in library)) or \
                    (theirs is not None and any(under(rel, t) for t in library)):
                errors.append(f'{where}: the compiler ({", ".join(STAGES)}) and the library '
                              f'({", ".join(library)}) do not include each other')
            if under(target, RUNTIME) and not under(rel, RUNTIME) and \
                    not any(under(rel, w) for w in WHITE_BOX):
                errors.append(f'{where}: {target} is private to runtime/ '
                              f'(white-box tests and benchmarks: {", ".join(WHITE_BOX)})')
    return errors, files, includes


def self_test():
    """Each rule must catch its breach; the allowed includes must pass."""
    tree = {
        'frontend/ast.h': '',
        'frontend/bad_up.cpp': '#include "lower.h"\n',
        'sema/sema.h': '#include "ast.h"\n',
        'sema/sema.cpp': '#include <clang/AST/Decl.h>\n#include "sema.h"\n',
        'sema/leak.h': '#include <llvm/ADT/StringRef.h>\n',
        'lowering/lower.h': '#include "sema.h"\n',
        'lowering/bad_clang.cpp': '  #  include <clang/Basic/Diagnostic.h>\n',
        'driver/wucc.cpp': '#include "lower.h"\n#include "sema.h"\n#include "parser.hpp"\n',
        'runtime/park.h': '',
        'runtime/park.c': '#include "park.h"\n',
        'stdlib/wuc.h': '',
        'examples/bad_private.c': '#include <wuc.h>\n#include <park.h>\n',
        'test/unit/park_test.cc': '#include <park.h>\n',
        'bench/switch.c': '#include "park.h"\n',
        'lowering/not_code.cpp': 'const char *s = "#include <park.h>";\n',
        'sema/probe.h': '',
        'sema/probe.cpp': '#include "probe.h"\n',
        'lowering/bad_probe.cpp': '#include <probe.h>\n',
        'stdlib/wuc/select.h': '',
        'runtime/bad_compiler.c': '#include <wuc/select.h>\n#include "ast.h"\n',
        'driver/bad_library.cpp': '#include <wuc/select.h>\n',
        'lowering/ast.h': '',
    }
    expected = {'frontend/bad_up.cpp:1', 'sema/leak.h:1', 'lowering/bad_clang.cpp:1',
                'examples/bad_private.c:2', 'lowering/bad_probe.cpp:1', 'runtime/bad_compiler.c:2',
                'driver/bad_library.cpp:1', 'lowering/ast.h'}
    with tempfile.TemporaryDirectory() as d:
        for path, text in tree.items():
            os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(d, path), 'w') as f:
                f.write(text)
        errors, _, _ = check(d)
    found = {e.split(': ')[0] for e in errors}
    for e in errors:
        print('  reported:', e)
    if found != expected:
        print(f'self-test FAILED: missed {sorted(expected - found)}, '
              f'wrongly reported {sorted(found - expected)}')
        return 1
    print(f'self-test ok: {len(expected)} breaches reported, nothing else')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   '..', '..'))
    ap.add_argument('--self-test', action='store_true')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.abspath(args.root)
    errors, files, includes = check(root)
    for e in errors:
        print(e)
    if errors:
        print(f'layout: {len(errors)} include(s) break the layout (README.md, Layout)')
        return 1
    print(f'layout ok: {includes} includes in {files} files')
    return 0


if __name__ == '__main__':
    sys.exit(main())
