/* blocking.h — the helper kernel threads behind wuc_blocking (<wuc/io.h>).
 *
 * A user thread hands a job to the pool and parks; a helper runs it, stores
 * its result and errno, and unparks the thread (from outside any worker: the
 * global queue).  Helpers start on demand, at most $WUC_BLOCKING_THREADS
 * (default 16), and never end; an idle one waits on a condition variable.
 * Jobs run in the order they came.  The job lives in the caller's frame:
 * the caller does not return while the helper is still waking it (WAKING),
 * as with waitq.h's thread waiters. */
#ifndef WUC_RUNTIME_BLOCKING_H
#define WUC_RUNTIME_BLOCKING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

/* Jobs handed over and not yet finished: the deadlock report waits. */
extern _Atomic long wuc_blocking_jobs;

/* Whether tid is one of the helpers (deadlock.c: not a foreign thread). */
bool wuc_blocking_is_helper(pid_t tid);

#endif
