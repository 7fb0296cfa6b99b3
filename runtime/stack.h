/* stack.h — user-thread stacks.
 *
 * Each stack is a fixed-size range of address space ($WUC_STACK_SIZE, default
 * 256 KiB) with a guard region below it.  Pages are committed only when
 * touched, so a parked thread that used 3 KiB of stack costs one page.
 *
 * Stacks are carved from slabs (one mapping for many stacks).  On Linux ≥ 6.13
 * the guards are MADV_GUARD_INSTALL markers inside the slab, which add no VMA;
 * elsewhere each guard is an mprotect'ed range, which costs two VMAs per
 * stack, so vm.max_map_count (65530 by default) caps live threads at about
 * 32,000.  Finished threads' stacks are kept in a pool for reuse; pooled
 * stacks beyond a bound give their pages back to the kernel.
 *
 * A fault inside a guard region is reported as a stack overflow of the thread
 * that owns the stack (see stack_overflow.c).
 *
 * The slot.  The last WUC_STACK_SLOT bytes of each stack's range, above
 * `top`, are not for frames: they outlive the stack's reuse by other
 * threads.  uthread.c keeps a thread's handle there (docs/runtime.md,
 * "Thread handles"), in the page the thread's first frames touch anyway, so
 * a handle costs no memory of its own; the handle lives until joined, which
 * may be long after the stack went back to the pool.  The slot's first word
 * (wuc_stack_slot_held) is nonzero while its user keeps something there:
 * the trim then gives back every page of the stack but the slot's. */
#ifndef WUC_RUNTIME_STACK_H
#define WUC_RUNTIME_STACK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sanitizer.h"

struct wuc_stack {
  char *guard;                      /* lowest address: the guard region begins here */
  char *base;                       /* lowest usable address (end of the guard) */
  char *top;                        /* one past the highest usable address; the slot begins here */
  struct wuc_stack_free *free_next; /* link while pooled */
};

/* The slot's size (a handle is larger in a sanitized build: context.h). */
#ifdef WUC_FIBER_ANNOTATIONS
#define WUC_STACK_SLOT 512
#else
#define WUC_STACK_SLOT 320
#endif
/* Where the slot's user keeps its data: 16 bytes into the slot. */
#define WUC_STACK_SLOT_DATA 16

/* The slot's first word: 0 while the slot is free (a stack never used, or
 * whose pages went back, reads 0). */
static inline _Atomic uint32_t *wuc_stack_slot_held(const struct wuc_stack *s) {
  return (_Atomic uint32_t *)(void *)s->top;
}

/* A worker's own few free stacks (with their pages), so that a spawn and an
 * exit on it take no lock: filled and drained in halves from the pool.
 * Only its worker touches it, from libwuc code (never preempted). */
#define WUC_STACK_CACHE 16
struct wuc_stack_cache {
  unsigned len;
  char *guard[WUC_STACK_CACHE];
};

/* Reads $WUC_STACK_SIZE; called once at start-up. */
void wuc_stacks_init(void);
size_t wuc_stack_size(void);
size_t wuc_stack_guard_size(void);

/* Returns false (errno set) when address space or memory is exhausted. */
bool wuc_stack_alloc(struct wuc_stack *s);
void wuc_stack_free(const struct wuc_stack *s);
/* The same through the calling worker's cache. */
bool wuc_stack_alloc_cached(struct wuc_stack_cache *c, struct wuc_stack *s);
void wuc_stack_free_cached(struct wuc_stack_cache *c, const struct wuc_stack *s);

/* Called by the monitor thread (sysmon.c) at every wake-up: gives back the
 * pages of pooled stacks that are due, a batch at a time, and returns when it
 * wants to be called again (INT64_MAX: when a stack is freed, which wakes
 * the monitor if need be). */
int64_t wuc_stacks_trim(int64_t now);

/* True if addr lies in the guard region below s. */
bool wuc_stack_guard_contains(const struct wuc_stack *s, const void *addr);

/* Installs the SIGSEGV handler that turns guard-page faults into reports, and
 * gives the calling kernel thread an alternate signal stack to run it on
 * (returned, NULL if out of memory: the caller keeps it for the thread's
 * lifetime, so leak checkers see it referenced). */
void wuc_stack_overflow_handler_init(void);
void *wuc_stack_overflow_altstack_init(void);

#endif
