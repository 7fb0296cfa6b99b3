#!/usr/bin/env bash
# Runs a reproducer many times and counts the runs that hang (deadlock
# report or timeout).  Usage: test/stress/repro/run.sh BUILD_DIR FILE.wc [RUNS] [PROCESSORS]
set -uo pipefail
build=$1 src=$2 runs=${3:-2000} procs=${4:-2}
bin=$(mktemp)
trap 'rm -f "$bin" "$bin.err"' EXIT
"$build/bin/wucc" -O2 "$src" -o "$bin" || exit 1
fails=0
for ((i = 0; i < runs; i++)); do
  if ! WUC_PROCESSORS=$procs timeout 10 "$bin" >/dev/null 2>"$bin.err"; then
    fails=$((fails + 1))
    [ $fails -eq 1 ] && head -12 "$bin.err"
  fi
done
echo "$src: $fails of $runs runs failed at WUC_PROCESSORS=$procs"
[ $fails -eq 0 ]
