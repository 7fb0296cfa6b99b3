# test/lit/debug/uthreads.wc, the core file half (then uthreads_checks.gdb).
set pagination off
set width 0

