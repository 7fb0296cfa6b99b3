#!/usr/bin/env bash
# Fails when a C or C++ source differs from what clang-format-14 makes of it
# (.clang-format).  Test inputs under test/lit/ are left as written: their
# text, line numbers included, is what the tests check.
#   scripts/check_format.sh          check (the test suite runs this)
#   scripts/check_format.sh --fix    reformat in place
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format-14}
command -v "$clang_format" >/dev/null ||
  { echo "check_format: $clang_format not found (scripts/setup.sh installs it)" >&2; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.cc' | grep -v '^test/lit/')
else
  mapfile -t files < <(find . -path ./test/lit -prune -o -path './build*' -prune -o \
    -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cc' \) -print | sed 's|^\./||')
fi
if [ "${1:-}" = --fix ]; then
  "$clang_format" -i "${files[@]}"
else
  "$clang_format" --dry-run -Werror "${files[@]}"
  echo "check_format: ${#files[@]} files clean"
fi
