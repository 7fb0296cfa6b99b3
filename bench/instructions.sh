#!/usr/bin/env bash
# Instructions and locked instructions (bench/locked_count.py) per element
# of the channel and select benchmarks, under callgrind on one worker: each
# program runs at -n N and -n 2N, and the difference of the two totals over N
# is one element's count (start-up and teardown cancel out).  Deterministic, so a change's cost can be read off
# on a busy machine.  Needs a Release tree with the benchmarks:
#   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
#   ninja -C build-bench benchmarks
#   bench/instructions.sh [build-bench]      (N=20000 by default; N=... to change)
#   bench/instructions.sh build-bench select  the statements' rows instead: select-contend
#                                             and select-spin at C = 2, 4, 8, shared-done,
#                                             timeout-loop ready and pc (the early try,
#                                             docs/select.md)
set -euo pipefail
bench_dir=${1:-build-bench}/bench
n=${N:-20000}
here=$(dirname "$0")
profile=$(mktemp)
trap 'rm -f "$profile"' EXIT
# "instructions locked" of one run (bench/locked_count.py: the locked ones).
totals() {
  local program=$1
  WUC_PROCESSORS=1 valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$profile" \
    "$@" >/dev/null 2>&1
  echo "$(awk '/^totals:/ { print $2 }' "$profile") $(python3 "$here/locked_count.py" "$program" "$profile")"
}
per_element() {
  local name=$1
  shift
  local one two
  one=($(totals "$bench_dir/bench_$name" "$@" -n "$n"))
  two=($(totals "$bench_dir/bench_$name" "$@" -n $((2 * n))))
  awk -v name="$name $*" -v n="$n" -v i1="${one[0]}" -v i2="${two[0]}" -v l1="${one[1]}" \
    -v l2="${two[1]}" 'BEGIN { printf "%-40s %6d %6.1f\n", name, (i2 - i1) / n, (l2 - l1) / n }'
}
printf '%-40s %6s %6s\n' "per element" instr locked
if [ "${2:-}" = select ]; then
  for c in 2 4 8; do
    per_element select-contend -c "$c" -cap 0
    per_element select-contend -c "$c" -cap 64
  done
  for c in 2 4 8; do per_element select-spin -c "$c" -cap 64; done
  per_element shared-done
  per_element timeout-loop -shape ready
  per_element timeout-loop -shape pc
  exit 0
fi
per_element pingpong-chan
per_element select-contend -c 2 -cap 0
per_element select-contend -c 2 -cap 64
per_element select-contend -c 4 -cap 0
per_element elastic -mode Fixed1024
per_element elastic -mode Seq
per_element elastic -mode Con
per_element elastic -mode FixedNoBuf
per_element select-spin -c 2 -cap 64
per_element shared-done
per_element chan-pc -t 1 -cap 64 -w 0
