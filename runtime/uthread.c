/* uthread.c — the public thread API: spawn, join, yield, self, sleep. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fatal.h"
#include "park.h"
#include "sanitizer.h"
#include "scheduler.h"
#include "spin.h"
#include "timer.h"
#ifdef WUC_ASAN
#include <sanitizer/asan_interface.h>
#endif

void wuc_finish_switch(void);
void wuc_park_at(const char *what, const void *object, const char *file, int line);

void wuc_uthread_main_init(struct wuc_uthread *t) {
  memset(t, 0, sizeof *t);
  t->magic = UTHREAD_MAGIC;
  t->id = 1;
  wuc_registry_add(wuc_sched.workers[0], t);
}

static void uthread_finished(struct wuc_uthread *t);

/* What to do about a stack that could not be mapped.  ENOMEM from mmap means
 * the address-space limit (ulimit -v), which is named when there is one, or
 * the map count (every guard splits a map before Linux 6.13). */
static void stack_failure_hint(int err, char *buf, size_t size) {
  struct rlimit as;
  if (err != ENOMEM)
    buf[0] = '\0';
  else if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    snprintf(
        buf, size,
        "; the address space is limited to %llu MiB (ulimit -v): raise it, or lower WUC_STACK_SIZE",
        (unsigned long long)(as.rlim_cur >> 20));
  else
    snprintf(buf, size, "; lower WUC_STACK_SIZE, or raise vm.max_map_count on kernels before 6.13");
}

/* First frame of every spawned thread (entered from wuc_context_entry). */
static void uthread_entry(void *arg) {
  struct wuc_uthread *t = arg;
  wuc_finish_switch();
  t->fn(t->arg);
  wuc_chan_segment_drop_kept(&t->kept_pin);
  wuc_thread_timer_end(&t->stmt_timer); /* its joiner may free t */
  struct worker *w = wuc_current_worker();
  /* Unless a joiner waits (it runs next: a hand-off), the successor is
   * taken first, so that its stack comes into the cache while the end is
   * published (scheduler.c, "a thread's exit"). */
  struct wuc_uthread *next = NULL;
  if (atomic_load_explicit(&t->join_word, memory_order_relaxed) == 0) next = wuc_exit_successor(w);
  /* Still on t's stack: the next context to run recycles it, and releases
   * t's last context, copied here because t's joiner may free t as soon as
   * uthread_finished has published the end. */
  w->exited_stack = t->stack;
  w->exit_ctx = t->ctx;
  uthread_finished(t);
  wuc_switch_exit(w, next); /* never returns: nobody resumes an exited thread */
}

/* Publishes t's end and wakes its joiner, who then runs next on this worker
 * (one switch from the exiting thread straight to the joiner). */
static void uthread_finished(struct wuc_uthread *t) {
  wuc_registry_remove(t);
  /* Release stores, plain moves on x86 (a seq_cst store is a locked xchg):
   * nothing here pairs a store with a later load of another word.  EXITED
   * is read by wuc_unpark's misuse check and by reports, the join words by
   * the joiner, who acquires them: after DONE it owns t and may free it. */
  atomic_store_explicit(&t->park_state, PARK_EXITED, memory_order_release);
  uintptr_t joiner = 0;
  if (atomic_compare_exchange_strong(&t->join_word, &joiner, JOIN_DONE)) return;
  /* A joiner waits: it may not see DONE before our unpark is over.  The
   * unpark's CAS orders WAKING before the joiner's resumption. */
  atomic_store_explicit(&t->join_word, JOIN_WAKING, memory_order_release);
  wuc_unpark((struct wuc_uthread *)joiner);
  /* t may be freed from here on */
  atomic_store_explicit(&t->join_word, JOIN_DONE, memory_order_release);
}

/* Copies name into t's buffer, truncated; written before t starts, or by t
 * itself, and read by reports while it runs: a name set twice may show
 * half of each for a moment. */
static void set_name(struct wuc_uthread *t, const char *name) {
  if (!name) name = "";
  size_t n = strnlen(name, sizeof t->name - 1);
  memcpy(t->name, name, n);
  t->name[n] = '\0';
}

/* ---- handles ---------------------------------------------------------------
 *
 * A thread's handle lives in its stack's slot (stack.h, "The slot"), in the
 * page its first frames touch anyway: an idle thread costs that page and
 * nothing more (docs/runtime.md, "Thread handles").  The slot outlives the
 * stack's reuse, as a handle must until it is joined; a stack whose slot
 * still holds the handle of a thread nobody joined yet gives its next
 * thread a malloc'd handle instead. */

_Static_assert(WUC_STACK_SLOT_DATA + sizeof(struct wuc_uthread) <= WUC_STACK_SLOT,
               "a thread handle fits in its stack's slot");

static struct wuc_uthread *slot_handle(const struct wuc_stack *s) {
  return (struct wuc_uthread *)(void *)(s->top + WUC_STACK_SLOT_DATA);
}

/* A handle for a thread on stack s: its slot, else malloc'd. */
static struct wuc_uthread *handle_alloc(const struct wuc_stack *s) {
  /* An exchange, not a load and a store: on a stack never used, a load
   * first would map the zero page and the store then fault again to copy
   * it (two page faults per spawn on fresh stacks: rss100k's spawn+park
   * went from 3.5-5.4 to 7.1-9.5 us per thread).  Writing 1 over a held
   * slot is harmless.  Acquire: pairs with handle_free's release, the last
   * access of the slot's previous handle. */
  if (atomic_exchange_explicit(wuc_stack_slot_held(s), 1, memory_order_acquire) == 0) {
    struct wuc_uthread *t = slot_handle(s);
#ifdef WUC_ASAN
    ASAN_UNPOISON_MEMORY_REGION(t, sizeof *t);
#endif
    return t;
  }
  /* malloc, not calloc: glibc's calloc bypasses its per-thread cache, and
   * then so does every free of a handle (it finds the cache full), ~300
   * instructions per spawn+join more.  Nor malloc and memset: gcc turns
   * that into calloc; spawn's assignment sets every field. */
  struct wuc_uthread *t = malloc(sizeof *t);
  if (!t) wuc_fatal("uthread_spawn: out of memory for a thread handle");
  return t;
}

/* Frees a joined handle.  Its magic word reads DEAD afterwards, for the
 * check of a second join (volatile: a plain store before free() is dead
 * and compilers drop it). */
static void handle_free(struct wuc_uthread *t) {
  *(volatile uint32_t *)&t->magic = UTHREAD_DEAD;
  if (t != slot_handle(&t->stack)) {
    free(t);
    return;
  }
  _Atomic uint32_t *held = wuc_stack_slot_held(&t->stack);
#ifdef WUC_ASAN
  ASAN_POISON_MEMORY_REGION(t, sizeof *t); /* a second join: handle_freed */
#endif
  atomic_store_explicit(held, 0, memory_order_release); /* the last access: a spawn may reuse it */
}

static wuc_uthread_t *spawn(const char *name, void (*fn)(void *), void *arg, const char *file,
                            int line, void *ret_addr) {
  struct wuc_uthread *cur = wuc_current_thread_or_die("uthread_spawn");
  if (!fn) wuc_fatal("uthread_spawn: NULL thread function");
  if (!atomic_load_explicit(&wuc_sched.started, memory_order_relaxed)) wuc_sched_start_workers();
  struct worker *w = wuc_current_worker();
  struct wuc_stack stack;
  if (!wuc_stack_alloc_cached(&w->stacks, &stack)) {
    int err = errno;
    char hint[160];
    stack_failure_hint(err, hint, sizeof hint);
    wuc_fatal("uthread_spawn: cannot allocate a %zu-byte stack (%lu threads live): %s%s",
              wuc_stack_size(), wuc_registry_live(), strerror(err), hint);
  }
  struct wuc_uthread *t = handle_alloc(&stack);
  *t = (struct wuc_uthread){.magic = UTHREAD_MAGIC, .stack = stack, .fn = fn, .arg = arg};
  t->spawn_file = file;
  t->spawn_line = line;
  t->spawn_return_address = ret_addr;
  t->parent_id = cur->id;
  if (name) set_name(t, name); /* else "": the handle starts zeroed */
  wuc_context_init(&t->ctx, t->stack.base, t->stack.top, uthread_entry, t);
  wuc_registry_add(w, t);
  /* A lone spawn (nothing else waits on w) wakes nobody while a lookout
   * sleeps: w runs t as soon as the spawner blocks, a woken worker could
   * not take t for STEAL_AGE_NS anyway, and if the spawner goes on
   * computing, the lookout takes t (scheduler.h, "Waking idle workers").
   * A fan-out (a second thread waiting) wakes a worker, and so does any
   * spawn when there is no lookout. */
  bool lone = wuc_worker_has_no_work(w);
  wuc_runq_push(w, t);
  if (!lone || !atomic_load_explicit(&wuc_sched.lookout, memory_order_relaxed))
    wuc_wake_other_worker();
  return t;
}

wuc_uthread_t *wuc_uthread_spawn_at(void (*fn)(void *), void *arg, const char *file, int line) {
  return spawn(NULL, fn, arg, file, line, __builtin_return_address(0));
}

wuc_uthread_t *wuc_uthread_spawn_named_at(const char *name, void (*fn)(void *), void *arg,
                                          const char *file, int line) {
  return spawn(name, fn, arg, file, line, __builtin_return_address(0));
}

wuc_uthread_t *(wuc_uthread_spawn_named)(const char *name, void (*fn)(void *), void *arg) {
  return spawn(name, fn, arg, NULL, 0, __builtin_return_address(0));
}

void wuc_uthread_set_name(const char *name) {
  set_name(wuc_current_thread_or_die("uthread_set_name"), name);
}

const char *wuc_uthread_name(const wuc_uthread_t *t) { return t->name[0] ? t->name : NULL; }

wuc_uthread_t *(wuc_uthread_spawn)(void (*fn)(void *), void *arg) {
  return spawn(NULL, fn, arg, NULL, 0, __builtin_return_address(0));
}

/* A joined handle is freed memory: its magic word is read on purpose, to
 * report a second join.  The sanitizers would report that read instead of
 * the misuse: ASan knows the handle is freed, so ask it first; TSan has no
 * such query, so the read is left out of its instrumentation. */
static bool handle_freed(const wuc_uthread_t *t) {
#ifdef WUC_ASAN
  return __asan_address_is_poisoned(&t->magic);
#else
  (void)t;
  return false;
#endif
}

/* noipa: gcc would otherwise pass the loaded word in from the caller. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noipa, no_sanitize_thread))
#else
__attribute__((noinline, no_sanitize_thread))
#endif
static uint32_t
handle_magic(const wuc_uthread_t *t) {
  return t->magic;
}

void wuc_uthread_join_at(wuc_uthread_t *t, const char *file, int line) {
  struct wuc_uthread *cur = wuc_current_thread_or_die_at("uthread_join", file, line);
  char call[WUC_CALL_SITE_MAX];
  if (!t)
    wuc_fatal("%s: NULL thread handle",
              wuc_call_site(call, sizeof call, "uthread_join", file, line));
  if (handle_freed(t) || handle_magic(t) != UTHREAD_MAGIC)
    wuc_fatal("%s: %p is not a live thread handle (was it joined already?)",
              wuc_call_site(call, sizeof call, "uthread_join", file, line), (void *)t);
  if (t == cur)
    wuc_fatal("%s: user thread %lu joins itself",
              wuc_call_site(call, sizeof call, "uthread_join", file, line), cur->id);
  if (t->id == 1)
    wuc_fatal("%s: user thread 1 (main) cannot be joined; returning from main ends the program",
              wuc_call_site(call, sizeof call, "uthread_join", file, line));
  uintptr_t expected = 0;
  if (atomic_compare_exchange_strong(&t->join_word, &expected, (uintptr_t)cur)) {
    for (uintptr_t state;
         (state = atomic_load_explicit(&t->join_word, memory_order_acquire)) != JOIN_DONE;) {
      if (state == JOIN_WAKING)
        cpu_relax(); /* the finisher is inside wuc_unpark(cur) */
      else
        wuc_park_at("uthread_join", t, file, line);
    }
  } else if (expected == JOIN_WAKING) {
    wuc_fatal("%s: user thread %lu is already being joined by another thread",
              wuc_call_site(call, sizeof call, "uthread_join", file, line), t->id);
  } else if (expected != JOIN_DONE) {
    wuc_fatal("%s: user thread %lu is already being joined by user thread %lu",
              wuc_call_site(call, sizeof call, "uthread_join", file, line), t->id,
              ((struct wuc_uthread *)expected)->id);
  }
  handle_free(t);
}

void(wuc_uthread_join)(wuc_uthread_t *t) { wuc_uthread_join_at(t, NULL, 0); }

void wuc_uthread_yield(void) {
  /* One read of the worker, not the two calls of wuc_current_thread_or_die
   * and wuc_current_worker (~15 of a yield's ~210 instructions): nothing
   * switches before wuc_switch_away (no preemption in the runtime's code). */
  struct worker *w = wuc_tls_worker;
  if (__builtin_expect(!w || !w->current, 0)) (void)wuc_current_thread_or_die("uthread_yield");
  wuc_switch_away(w, w->current, PREV_YIELD);
}

wuc_uthread_t *wuc_uthread_self(void) { return wuc_current_thread_or_die("uthread_self"); }

/* Only the thread itself writes its count, and the preemption handler reads
 * it on the same kernel thread: a compiler barrier orders them. */
void wuc_uthread_preemption_off(void) {
  struct wuc_uthread *cur = wuc_current_thread_or_die("uthread_preemption_off");
  cur->preemption_off++;
  __asm__ volatile("" ::: "memory");
}

void wuc_uthread_preemption_on(void) {
  struct wuc_uthread *cur = wuc_current_thread_or_die("uthread_preemption_on");
  if (cur->preemption_off == 0)
    wuc_fatal("uthread_preemption_on without a matching uthread_preemption_off");
  __asm__ volatile("" ::: "memory");
  cur->preemption_off--;
}

unsigned long wuc_uthread_id(const wuc_uthread_t *t) { return t->id; }

/* ---- sleep ---------------------------------------------------------------- */

struct sleeper {
  wuc_timer timer; /* first: fire() gets &timer */
  wuc_uthread_t *thread;
  _Atomic bool fired;
};

static void sleeper_fire(wuc_timer *timer) {
  struct sleeper *s = (struct sleeper *)timer;
  atomic_store(&s->fired, true);
  wuc_unpark(s->thread); /* safe: the sleeper's cancel below waits for us */
}

void wuc_uthread_sleep_at(wuc_duration_t d, const char *file, int line) {
  struct wuc_uthread *cur = wuc_current_thread_or_die_at("uthread_sleep", file, line);
  if (d <= 0) return;
  int64_t now = wuc_now();
  if (d > INT64_MAX - now) { /* saturates: never wakes (no timer, so a deadlock is reported) */
    for (;;) wuc_park_at("uthread_sleep", NULL, file, line);
  }
  struct sleeper s = {.thread = cur, .fired = false};
  wuc_timer_start(&s.timer, now + d, sleeper_fire);
  while (!atomic_load(&s.fired)) wuc_park_at("uthread_sleep", NULL, file, line);
  wuc_timer_cancel(&s.timer); /* returns once sleeper_fire has finished with s */
}

void(wuc_uthread_sleep)(wuc_duration_t d) { wuc_uthread_sleep_at(d, NULL, 0); }
