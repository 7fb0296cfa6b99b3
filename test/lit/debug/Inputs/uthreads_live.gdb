# test/lit/debug/uthreads.wc, the live half (then uthreads_checks.gdb and generate-core-file).
set pagination off
set width 0
break at_work
break wuc_deadlock_report
run
echo info uthreads while server runs\n
info uthreads
echo uthread 2 bt\n
uthread 2 bt
echo uthread 4 bt\n
python
try:
    gdb.execute("uthread 4 bt")
except gdb.error as e:
    print(e)
end
continue

