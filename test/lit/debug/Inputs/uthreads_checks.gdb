# test/lit/debug/uthreads.wc: what both halves check once every thread is parked.
echo info uthreads when all are parked\n
info uthreads
echo uthread 2 bt\n
uthread 2 bt
echo uthread 1 bt\n
uthread 1 bt
echo uthread 3, then frame function client, info locals\n
uthread 3
frame function client
info locals
echo uthread none\n
uthread none
echo end\n
