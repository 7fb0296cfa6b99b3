# gdb commands of ../step_waituntil.wc (its line 50).
set debuginfod enabled off
set pagination off
break consume
break step_waituntil.wc:50
run
next
next
next
next
echo locals:\n
info locals
echo end of locals\n
next
next
continue
echo locals:\n
info locals
echo end of locals\n
continue
