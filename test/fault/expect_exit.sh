#!/bin/sh
# expect_exit.sh STATUS REGEX [--vm-limit KIB] -- COMMAND [ARGS...]
# Runs COMMAND (under `ulimit -v KIB` if given) and passes when it exits with
# STATUS and its stderr matches the extended regular expression REGEX.  For
# the fault tests whose point is the way a program stops.
set -u
want=$1 regex=$2
shift 2
limit=
if [ "$1" = --vm-limit ]; then limit=$2; shift 2; fi
[ "$1" = -- ] && shift
err=${TMPDIR:-/tmp}/wuc-expect-exit.$$
trap 'rm -f "$err"' EXIT
if [ -n "$limit" ]; then
  (ulimit -v "$limit" && exec "$@") 2>"$err"
else
  "$@" 2>"$err"
fi
status=$?
cat "$err" >&2
if [ "$status" -gt 128 ]; then
  echo "expect_exit.sh: killed by signal $((status - 128)), expected exit status $want" >&2
  exit 1
fi
if [ "$status" -ne "$want" ]; then
  echo "expect_exit.sh: exit status $status, expected $want" >&2
  exit 1
fi
if ! grep -Eq -- "$regex" "$err"; then
  echo "expect_exit.sh: stderr does not match: $regex" >&2
  exit 1
fi
echo "expect_exit.sh: exit status $status and the expected message"
