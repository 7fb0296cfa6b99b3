#!/usr/bin/env bash
# Installs the build into a scratch prefix, moves the prefix elsewhere, and
# uses it from outside as another project would:
#   package.sh <build> <source> cmake      find_package(wuc) + wuc_add_executable()
#                                          in test/install/external (Ninja), run
#                                          its program
#   package.sh <build> <source> pkgconfig  cc $(pkg-config --cflags --libs wuc)
#                                          on a plain C program, run; exits 77
#                                          (skipped) without pkg-config
set -euo pipefail
build_dir=$1
source_dir=$2
mode=$3
if [ "$mode" = pkgconfig ] && ! command -v pkg-config >/dev/null 2>&1; then
  echo "pkg-config not installed: skipped"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/first" >/dev/null
mv "$scratch/first" "$scratch/moved"
prefix=$scratch/moved
# The runtime's headers are private (README.md, Layout): none is installed,
# and the package points at no directory of the source tree.
for h in "$source_dir"/runtime/*.h; do
  if [ -e "$prefix/include/${h##*/}" ]; then echo "installed a private header: ${h##*/}"; exit 1; fi
done
if grep -rqF -- "$source_dir/" "$prefix/lib/cmake/wuc" "$prefix/lib/pkgconfig"; then
  echo "the installed package names the source tree $source_dir"; exit 1
fi

case "$mode" in
cmake)
  cmake -S "$source_dir/test/install/external" -B "$scratch/external" -G Ninja \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  ninja -C "$scratch/external" >/dev/null
  # The compile used the moved wucc; the link needs no -rdynamic, -lpthread
  # or -ldl (docs/runtime.md, 'Linking').
  grep -q -- "$prefix/bin/wucc" "$scratch/external/build.ninja"
  if grep -qE -- "-rdynamic|-lpthread|-ldl" "$scratch/external/build.ninja"; then
    echo "the link has -rdynamic, -lpthread or -ldl"; exit 1
  fi
  "$scratch/external/proj_app"
  ;;
pkgconfig)
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  flags=$(pkg-config --cflags --libs wuc)
  case "$flags" in *"-I$prefix/"*) ;; *) echo "bad flags: $flags"; exit 1 ;; esac
  cat >"$scratch/pc.c" <<'C'
#include <stdio.h>
#include <wuc.h>
static WUC_CHANNEL(int) numbers;
static void produce(void *arg) {
  (void)arg;
  for (int i = 1; i <= 10; i++) chan_send(&numbers, i);
  chan_close(&numbers);
}
int main(void) {
  chan_init(&numbers, 2);
  uthread_t *t = uthread_spawn(produce, NULL);
  int n, sum = 0;
  while (chan_recv(&numbers, &n)) sum += n;
  uthread_join(t);
  printf("pkg-config: sum 1..10 = %d\n", sum);
  return 0;
}
C
  # shellcheck disable=SC2086  # the flags are words
  cc -std=gnu11 "$scratch/pc.c" -o "$scratch/pc" $flags
  LD_LIBRARY_PATH=$prefix/lib "$scratch/pc"
  # A program that does not use wuc, linked with the same flags, does not
  # get libwuc.so (nor its start-up): -lwuc is --as-needed.
  printf '#include <stdio.h>\nint main(void) { puts("plain"); return 0; }\n' >"$scratch/plain.c"
  # shellcheck disable=SC2086  # the flags are words
  cc -Wl,--no-as-needed "$scratch/plain.c" -o "$scratch/plain" $flags
  if readelf -d "$scratch/plain" | grep -q "libwuc"; then
    echo "a program that does not use wuc needs libwuc.so"; exit 1
  fi
  LD_LIBRARY_PATH=$prefix/lib "$scratch/plain" >/dev/null
  ;;
*)
  echo "unknown mode $mode"; exit 2 ;;
esac
