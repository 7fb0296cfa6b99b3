#!/usr/bin/env bash
# The gdb extension from an installed, moved prefix: the program built by the
# moved wucc carries the script in .debug_gdb_scripts (it needs no path), and
# the installed share/wuc/gdb/wuc_gdb.py is the same script.  Runs the live
# half of test/lit/debug/uthreads.wc and checks it with the same lines.
# Usage: gdb.sh BUILD_DIR SOURCE_DIR FILECHECK.  Exit 77 (skipped) without gdb.
set -euo pipefail
build_dir=$1
source_dir=$(cd "$2" && pwd)
filecheck=$3
command -v gdb >/dev/null || { echo "no gdb"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/first" >/dev/null
mv "$scratch/first" "$scratch/moved"
cmp "$scratch/moved/share/wuc/gdb/wuc_gdb.py" "$source_dir/runtime/gdb/wuc_gdb.py"
mkdir "$scratch/work"
cd "$scratch/work"
test="$source_dir/test/lit/debug/uthreads.wc"
inputs="$source_dir/test/lit/debug/Inputs"
"$scratch/moved/bin/wucc" -g -O0 "$test" -o uthreads
WUC_PROCESSORS=2 timeout 60 gdb -nx -batch -iex 'set auto-load safe-path /' \
  -x "$inputs/uthreads_live.gdb" -x "$inputs/uthreads_checks.gdb" ./uthreads >live.log 2>&1 || true
"$filecheck" --check-prefixes=LIVE,ALL "$test" <live.log
echo "gdb extension: installed prefix ok"
