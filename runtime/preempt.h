/* preempt.h — time-slice preemption of user threads.
 *
 * The monitor (sysmon.h) sends a worker the preemption signal (SIGURG, as
 * Go) when its user thread has computed for a whole slice, or when a timer
 * woke a thread that nobody else can run.  The handler runs on the worker's
 * kernel thread, on the interrupted user thread's stack, and switches to
 * another thread only when that is safe; otherwise it returns and the
 * monitor asks again a little later.  It is safe when all of these hold
 * (the argument is in docs/runtime.md, 'Preemption'):
 *   - the worker runs a user thread, not its scheduler or a timer callback;
 *   - the interrupted instruction is in the main executable's code and not
 *     in libwuc's (so not in libc, the dynamic loader, or any shared library:
 *     nothing there holds a lock of the kernel thread on our behalf);
 *   - the stack pointer is on that user thread's stack;
 *   - the interrupted code's signal mask is the one the workers started with
 *     (so it is not inside one of the program's signal handlers, which may
 *     have interrupted libc);
 *   - the thread has not turned preemption off (wuc_uthread_preemption_off).
 * A preempted thread goes to its worker's `pinned` list and resumes on the
 * same kernel thread: its registers, FP/SIMD state and signal mask come back
 * through the signal return, and the addresses of thread-locals the
 * compiler may keep in registers (errno's) stay right. */
#ifndef WUC_RUNTIME_PREEMPT_H
#define WUC_RUNTIME_PREEMPT_H

#include <stdint.h>

struct worker;

/* The slice in nanoseconds ($WUC_TIMESLICE is in microseconds); 0 when
 * preemption is off.  Set by wuc_preempt_init, read-only afterwards. */
extern int64_t wuc_timeslice_ns;

/* Reads $WUC_TIMESLICE and installs the signal handler (first spawn, on
 * worker 0, before the other workers start: they inherit its mask). */
void wuc_preempt_init(void);
/* Asks worker v to preempt the user thread it runs (the monitor). */
void wuc_preempt_request(struct worker *v);

#endif
