/* <wuc/thread.h> — user-level threads.
 *
 * User threads run M:N on kernel threads ("workers", $WUC_PROCESSORS of them,
 * default one per online CPU).  A user thread may move to another worker at
 * any point where it blocks or yields, so it must not keep a pointer to
 * kernel-thread-local state (errno excepted: read it right after the call
 * that set it) across such a point.
 *
 * main() itself runs as user thread 1; returning from main ends the program
 * without waiting for other threads, as exit() does.
 *
 * Misuse (joining a thread twice or joining yourself, spawning a NULL
 * function, calling these from a kernel thread that is not a wuc worker)
 * stops the program with a message naming the call, the thread and, where the
 * macros below recorded it, the source location. */
#ifndef WUC_THREAD_H
#define WUC_THREAD_H

#include <wuc/time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wuc_uthread wuc_uthread_t;

/* Starts fn(arg) on a new user thread.  Never returns NULL: running out of
 * stack memory stops the program with a message. */
wuc_uthread_t *wuc_uthread_spawn(void (*__wuc_fn)(void *), void *__wuc_arg);
/* Waits until t has returned from its function, then frees t.  Each thread is
 * joined at most once; a thread that is never joined keeps only its handle
 * (its stack is recycled as soon as it finishes; the handle lives in the
 * stack's top page, which stays resident for it if the stack's other pages
 * are given back: docs/runtime.md, 'Stacks'). */
void wuc_uthread_join(wuc_uthread_t *__wuc_t);
/* Lets the other runnable threads of this worker run first. */
void wuc_uthread_yield(void);
wuc_uthread_t *wuc_uthread_self(void);
/* Blocks for at least d (no earlier than asked; normally within ~100 µs after);
 * for ever if wuc_now() + d is beyond INT64_MAX. */
void wuc_uthread_sleep(wuc_duration_t __wuc_d);
/* A thread's number: 1 for main, then 2, 3, … in spawn order. */
unsigned long wuc_uthread_id(const wuc_uthread_t *__wuc_t);
/* Names the calling thread (up to 31 bytes are kept): reports, the
 * scheduler trace and gdb show it.  wuc_uthread_name gives it, or NULL for a
 * thread never named.  wuc_uthread_spawn_named names a thread before it
 * starts. */
void wuc_uthread_set_name(const char *__wuc_name);
const char *wuc_uthread_name(const wuc_uthread_t *__wuc_t);
wuc_uthread_t *wuc_uthread_spawn_named(const char *__wuc_name, void (*__wuc_fn)(void *),
                                       void *__wuc_arg);

/* Time-slice preemption off for the calling thread until the matching
 * wuc_uthread_preemption_on (pairs nest): around code that holds a lock of
 * its kernel thread (a pthread mutex, say) while it computes, and around a
 * libc call that calls the program back while holding one (dl_iterate_phdr,
 * a fopencookie stream's fprintf).  The thread still switches where it
 * blocks or yields (docs/runtime.md, 'Preemption'). */
void wuc_uthread_preemption_off(void);
void wuc_uthread_preemption_on(void);

/* The scheduler's counters, as WUC_DEBUG=schedtrace prints them
 * (docs/runtime.md, 'Scheduler trace'): a snapshot, each field read on its
 * own while the program runs. */
struct wuc_stats {
  wuc_uint64_t workers;        /* workers running (1 until the first spawn) */
  wuc_uint64_t idle_workers;   /* asleep with nothing to run */
  wuc_uint64_t live_threads;   /* user threads not yet finished, main included */
  wuc_uint64_t switches;       /* switches into a user thread, all workers */
  wuc_uint64_t steals;         /* threads a worker took from another */
  wuc_uint64_t preemptions;    /* threads preempted at the end of a time slice */
  wuc_uint64_t polls;          /* looks at the file descriptors (docs/io.md) */
  wuc_uint64_t pending_timers; /* started, neither fired nor cancelled */
  wuc_uint64_t fd_waiters;     /* threads and clauses waiting on an fd */
  wuc_uint64_t blocking_jobs;  /* wuc_blocking calls running or queued */
};
void wuc_stats(struct wuc_stats *__wuc_out);

/* Sets the number of workers.  Only before the first spawn; 0 means the
 * default ($WUC_PROCESSORS, else the number of online CPUs). */
void wuc_set_processors(unsigned __wuc_n);
/* The number of workers the runtime uses (or will use). */
unsigned wuc_processors(void);

/* The same calls, recording the caller's source location for the deadlock
 * report and misuse messages.  The macros below route every ordinary call
 * here; (wuc_uthread_spawn)(f, a) still reaches the plain function. */
wuc_uthread_t *wuc_uthread_spawn_at(void (*__wuc_fn)(void *), void *__wuc_arg,
                                    const char *__wuc_file, int __wuc_line);
wuc_uthread_t *wuc_uthread_spawn_named_at(const char *__wuc_name, void (*__wuc_fn)(void *),
                                          void *__wuc_arg, const char *__wuc_file, int __wuc_line);
void wuc_uthread_join_at(wuc_uthread_t *__wuc_t, const char *__wuc_file, int __wuc_line);
void wuc_uthread_sleep_at(wuc_duration_t __wuc_d, const char *__wuc_file, int __wuc_line);

#define wuc_uthread_spawn(fn, ...) wuc_uthread_spawn_at((fn), (__VA_ARGS__), __FILE__, __LINE__)
#define wuc_uthread_spawn_named(name, fn, ...)                                                     \
  wuc_uthread_spawn_named_at((name), (fn), (__VA_ARGS__), __FILE__, __LINE__)
#define wuc_uthread_join(...) wuc_uthread_join_at((__VA_ARGS__), __FILE__, __LINE__)
/* Any arithmetic d (WUC_DURATION_ in <wuc/time.h>: 1e19 or UINT64_MAX sleeps
 * for ever, a NaN stops the program). */
#define wuc_uthread_sleep(...)                                                                     \
  wuc_uthread_sleep_at(WUC_DURATION_((__VA_ARGS__), "uthread_sleep", __FILE__, __LINE__),          \
                       __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
