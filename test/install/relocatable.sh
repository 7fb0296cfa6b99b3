#!/usr/bin/env bash
# Installs the build into a scratch prefix, moves the prefix elsewhere, and
# builds and runs a program with the moved wucc from an unrelated directory:
# wucc must find <wuc.h>, libwuc and its semantic pass (lib/wuc/wucc-sema.so)
# relative to itself.
set -euo pipefail
build_dir=$1
source_dir=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/first" >/dev/null
mv "$scratch/first" "$scratch/moved"
test -f "$scratch/moved/lib/wuc/wucc-sema.so"
mkdir "$scratch/work"
cd "$scratch/work"
"$scratch/moved/bin/wucc" -O2 "$source_dir/examples/job_farm.wc" -o job_farm
./job_farm
