#!/usr/bin/env bash
# check.sh <wuc build> <wuc source> <mode> [<project>]
#
# Installs the wuc build into a scratch prefix, moves it, and builds the
# project (default: test/project) against it, as another project would:
#   cmake-ninja  find_package(wuc), Ninja
#   cmake-make   find_package(wuc), Unix Makefiles
#   make         plain make, CC=wucc, -MMD (test/project/Makefile with the
#                project's sources.mk)
#   pkgconfig    plain make, CC=cc for plain C, wucc for .wc, pkg-config wuc
# then runs its programs (deps.txt's "run:" line), and for each header of <project>/deps.txt touches
# it and checks that the rebuild recompiles exactly the objects of the
# sources listed there (object modification times), that the build tool
# agrees beforehand (ninja -n -d explain; make -q) and has nothing left to
# do afterwards ("ninja: no work to do", make -q, "Nothing to be done").
# Every build is bounded by a timeout.
set -euo pipefail
build_dir=$1
source_dir=$2
mode=$3
limit=120
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The headers are touched in a copy: tests of the same project may run at once.
cp -R "${4:-$source_dir/test/project}" "$scratch/src"
project=$scratch/src
makefile=$(cd "$source_dir/test/project" && pwd)/Makefile
cmake --install "$build_dir" --prefix "$scratch/first" >/dev/null
mv "$scratch/first" "$scratch/moved"
prefix=$scratch/moved
out=$scratch/out
mkdir "$out"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

fail() { echo "FAIL ($mode): $*"; exit 1; }

case "$mode" in
cmake-ninja | cmake-make)
  generator=Ninja
  [ "$mode" = cmake-make ] && generator="Unix Makefiles"
  timeout $limit cmake -S "$project" -B "$out" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >"$scratch/configure.log" 2>&1 ||
    { cat "$scratch/configure.log"; fail "configure"; }
  build() { timeout $limit cmake --build "$out" -j 2; }
  ;;
make | pkgconfig)
  command -v pkg-config >/dev/null || { echo "pkg-config not installed: skipped"; exit 77; }
  if [ "$mode" = make ]; then
    margs=(CC="$prefix/bin/wucc")
  else
    # libwuc.so for the programs and the shared library, found through the
    # run path (ld also follows it to the plugin's libwuc.so).
    margs=(CC=cc WUCC="$(pkg-config --variable=wucc wuc)" WUC_LIBS="$(pkg-config --libs wuc)"
           LDFLAGS="-Wl,-rpath,$(pkg-config --variable=libdir wuc)")
  fi
  build() { timeout $limit make --no-print-directory -C "$out" -f "$makefile" SRC="$project" "${margs[@]}" -j 2; }
  ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac

# Relative source path of every object, with its modification time.
objects() {
  (cd "$out" && find . -name '*.o' -printf '%P %T@\n') |
    sed -E 's,^CMakeFiles/[^/]+\.dir/,,; s,^obj/(pic/)?,,; s,\.o ,\t,' | sort
}
# Nothing left to do, in the build tool's own words.
idle() {
  case "$mode" in
  cmake-ninja)
    timeout $limit ninja -C "$out" -n -d explain >"$scratch/idle.log" 2>&1 || true
    grep -q "^ninja: no work to do\.$" "$scratch/idle.log" ||
      { cat "$scratch/idle.log"; fail "ninja has work left $1"; } ;;
  cmake-make)
    # CMake's makefiles always run their check steps: no object may change.
    local before; before=$(objects)
    build >"$scratch/idle.log" 2>&1 || { cat "$scratch/idle.log"; fail "rebuild $1"; }
    [ "$(objects)" = "$before" ] || fail "a second build recompiled something $1" ;;
  *)
    timeout $limit make --no-print-directory -q -C "$out" -f "$makefile" SRC="$project" "${margs[@]}" ||
      fail "make -q: not up to date $1"
    build >"$scratch/idle.log" 2>&1 || { cat "$scratch/idle.log"; fail "rebuild $1"; }
    grep -q "Nothing to be done" "$scratch/idle.log" ||
      { cat "$scratch/idle.log"; fail "make had work left $1"; } ;;
  esac
}
run() { timeout 30 "$@"; }

build >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; fail "build"; }
if [ "${mode#cmake}" != "$mode" ] && grep -rqE -- "-rdynamic|-lpthread|-ldl" \
    "$out"/build.ninja "$out"/CMakeFiles/*.dir/link.txt 2>/dev/null; then
  fail "a link has -rdynamic, -lpthread or -ldl"
fi
programs=$(sed -n 's/^run: //p' "$project/deps.txt")
for p in $programs; do run "$out/$p"; done
idle "after the first build"

while read -r header sources; do
  case "$header" in '#'* | '' | run:) continue ;; esac
  header=${header%:}
  expected=$(printf '%s\n' $sources | sort)
  before=$(objects)
  touch "$project/$header"
  case "$mode" in
  cmake-ninja)
    timeout $limit ninja -C "$out" -n -d explain >"$scratch/explain.log" 2>&1 || true
    dirty=$(sed -nE 's,^ninja explain: CMakeFiles/[^/]+\.dir/(.*)\.o is dirty$,\1,p' \
      "$scratch/explain.log" | sort -u)
    [ "$dirty" = "$expected" ] ||
      fail "after touching $header, ninja -n -d explain finds dirty: $(echo $dirty); expected: $(echo $expected)" ;;
  make | pkgconfig)
    if timeout $limit make --no-print-directory -q -C "$out" -f "$makefile" SRC="$project" "${margs[@]}"; then
      fail "make -q finds nothing to do after touching $header"
    fi ;;
  esac
  build >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; fail "rebuild after $header"; }
  rebuilt=$(join -t $'\t' <(echo "$before") <(objects) | awk -F'\t' '$2 != $3 { print $1 }')
  [ "$rebuilt" = "$expected" ] ||
    fail "touching $header rebuilt: $(echo $rebuilt); expected: $(echo $expected)"
  idle "after touching $header"
done <"$project/deps.txt"
for p in $programs; do run "$out/$p" >/dev/null; done
echo "rebuilds: exact"
