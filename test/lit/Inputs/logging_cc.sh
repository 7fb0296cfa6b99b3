#!/bin/sh
# A back-end compiler for driver/backend_compiler.wc: records its arguments
# (one line per call, in $LIT_CC_LOG) and runs the real compiler ($LIT_REAL_CC, default cc).
printf '%s\n' "logging_cc $*" >> "${LIT_CC_LOG:?}"
exec "${LIT_REAL_CC:-cc}" "$@"
