#!/usr/bin/env bash
# Instructions per element of the channel and select benchmarks, under
# callgrind on one worker: each program runs at -n N and -n 2N, and the
# difference of the two totals over N is one element's count (start-up and
# teardown cancel out).  Deterministic, so a change's cost can be read off
# on a busy machine.  Needs a Release tree with the benchmarks:
#   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
#   ninja -C build-bench benchmarks
#   bench/instructions.sh [build-bench]      (N=20000 by default; N=... to change)
set -euo pipefail
bench_dir=${1:-build-bench}/bench
n=${N:-20000}
total() {
  WUC_PROCESSORS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
    awk '/Collected/ { print $4 }'
}
per_element() {
  local name=$1
  shift
  local one two
  one=$(total "$bench_dir/bench_$name" "$@" -n "$n")
  two=$(total "$bench_dir/bench_$name" "$@" -n $((2 * n)))
  printf '%-40s %6d\n' "$name $*" $(((two - one) / n))
}
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
