#!/bin/sh
# wucc-launcher.sh WUCC [LAUNCHER...] -- COMPILER ARGUMENT...
#
# The C compiler launcher that wuc_add_executable() and wuc_add_library()
# (cmake/WucAddExecutable.cmake) give their targets.  CMake runs a target's
# compile rule as <launcher> <C compiler> <arguments>; this runs
#
#   WUCC --cc='[LAUNCHER...] COMPILER' ARGUMENT...
#
# so every C source of the target, the .wc ones included (marked LANGUAGE C),
# is compiled by wucc with the target's own flags, depfile and object path,
# wucc's back end being the project's C compiler (behind the user's own
# launcher, e.g. ccache, when the target had one).  docs/driver.md says what
# wucc does with each option.
set -eu
if [ $# -lt 3 ]; then
  echo "usage: wucc-launcher.sh WUCC [LAUNCHER...] -- COMPILER ARGUMENT..." >&2
  exit 2
fi
wucc=$1
shift
# One word of the back end, quoted for wucc, which reads --cc with the
# shell's quoting.
quote() {
  case $1 in
  *\'*) printf "'%s' " "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
  *) printf "'%s' " "$1" ;;
  esac
}
back_end=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  back_end=$back_end$(quote "$1")
  shift
done
if [ $# -lt 2 ]; then
  echo "wucc-launcher.sh: no '--' and compiler after the launcher" >&2
  exit 2
fi
shift
back_end=$back_end$(quote "$1")
shift
exec "$wucc" "--cc=$back_end" "$@"
