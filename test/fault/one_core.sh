#!/bin/sh
# one_core.sh COMMAND [ARGS...]: runs COMMAND pinned to one CPU, the first of
# those this process may run on (not always CPU 0 in a container).
set -eu
allowed=$(taskset -pc $$ | sed 's/.*: //') # e.g. "0-1" or "2,5-7"
exec taskset -c "${allowed%%[-,]*}" "$@"
