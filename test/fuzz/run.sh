#!/bin/sh
# run.sh — build the frontend's libFuzzer target with clang++-14 (ASan +
# UBSan) straight from the sources, and run it for a bounded time over the
# seed corpus.  The main build uses gcc, so this is a build of its own.
#
#   test/fuzz/run.sh [--build-dir DIR] [--time SECONDS] [extra libFuzzer args]
#
# The binary is rebuilt only when a source is newer; inputs the fuzzer finds
# go to DIR/corpus (the seeds in test/fuzz/corpus stay untouched), crashes
# to DIR/crash-*.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${TMPDIR:-/tmp}/wuc-frontend-fuzz
seconds=60
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build=$2; shift 2 ;;
    --time) seconds=$2; shift 2 ;;
    *) break ;;
  esac
done
CXX=${FUZZ_CXX:-clang++-14}
command -v "$CXX" >/dev/null || { echo "run.sh: $CXX not found" >&2; exit 1; }
mkdir -p "$build/gen" "$build/corpus"

fe=$src/frontend
# Every source of the frontend library (a new file needs no edit here).
sources="$(echo "$fe"/*.cpp) $here/frontend_fuzz.cpp"
bin=$build/frontend_fuzz
stale=no
[ -x "$bin" ] || stale=yes
for f in $sources $fe/*.h $fe/scanner.l $fe/parser.y "$0"; do
  [ "$f" -nt "$bin" ] && stale=yes
done
if [ $stale = yes ]; then
  echo "run.sh: building $bin"
  flex -o "$build/gen/scanner.cpp" --header-file="$build/gen/scanner.h" "$fe/scanner.l"
  bison -o "$build/gen/parser.cpp" --defines="$build/gen/parser.hpp" "$fe/parser.y"
  flags="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
  objs=""
  # Compile in parallel (two at a time is enough for this machine kind).
  for f in $sources "$build/gen/scanner.cpp" "$build/gen/parser.cpp"; do
    o=$build/$(basename "$f" .cpp).o
    objs="$objs $o"
    $CXX $flags -Wall -Wextra -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter \
      -I"$fe" -I"$build/gen" -c "$f" -o "$o" &
    while [ "$(jobs -p | wc -l)" -ge 2 ]; do sleep 0.2; done
  done
  wait
  $CXX $flags $objs -o "$bin"
fi

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
cd "$build"
exec "$bin" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
  -dict="$here/wuc.dict" -print_final_stats=1 "$@" "$build/corpus" "$here/corpus"
