# gdb commands of ../clause_body_breakpoint.wc (its line numbers).
set debuginfod enabled off
set pagination off
break clause_body_breakpoint.wc:35
break clause_body_breakpoint.wc:39
run
print x
bt
list 35,35
info source
continue
print seen
bt 1
continue
