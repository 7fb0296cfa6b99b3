/* context.h — saved execution contexts and the switch between them.
 *
 * A suspended context is only its stack pointer.  Everything the SysV ABI
 * says a callee must preserve is pushed on that stack by the switch: rbx,
 * rbp, r12-r15, the MXCSR control bits and the x87 control word, and the
 * return address.  Caller-saved registers are dead across a call, so they
 * are not saved: that is why a switch costs a handful of pushes and pops and
 * not a ucontext's signal-mask syscall.
 *
 * Under AddressSanitizer or ThreadSanitizer (sanitizer.h) a context also
 * carries what the sanitizer must be told when execution moves onto it: the
 * bounds of its stack (ASan) and its fiber (TSan, one per context), and the
 * switch is a C function that tells it (context.c).  In a plain build these
 * fields and calls do not exist. */
#ifndef WUC_RUNTIME_CONTEXT_H
#define WUC_RUNTIME_CONTEXT_H

#include <stddef.h>

#include "sanitizer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wuc_context {
  void *sp;
#ifdef WUC_FIBER_ANNOTATIONS
  const void *stack_bottom; /* ASan: the stack this context runs on */
  size_t stack_size;
  void *tsan_fiber;      /* TSan: the fiber this context runs as */
  void (*entry)(void *); /* what a new context starts (after annotating its start) */
  void *arg;
#endif
} wuc_context;

/* Saves the running context into *from and resumes *to.  Returns when some
 * other context switches back to *from. */
void wuc_context_switch(wuc_context *from, wuc_context *to);

/* Prepares *ctx so that switching to it calls entry(arg) on the stack
 * [stack_bottom, stack_top).  entry must never return.  The new context
 * starts with the caller's MXCSR and x87 control word. */
void wuc_context_init(wuc_context *ctx, void *stack_bottom, void *stack_top, void (*entry)(void *),
                      void *arg);

#ifdef WUC_FIBER_ANNOTATIONS
/* Makes *ctx describe the calling kernel thread's own stack and sanitizer
 * thread, before the first switch away from it. */
void wuc_context_init_current(wuc_context *ctx);
/* The last switch away from a context nobody will resume: the sanitizers
 * drop its per-stack state.  *from stays valid for wuc_context_release. */
__attribute__((noreturn)) void wuc_context_exit(wuc_context *from, wuc_context *to);
/* Frees what the sanitizers keep for a context that has exited (called from
 * another context, after the exit) and unpoisons its stack for reuse. */
void wuc_context_release(wuc_context *ctx);
#else
static inline void wuc_context_init_current(wuc_context *ctx) { (void)ctx; }
__attribute__((noreturn)) static inline void wuc_context_exit(wuc_context *from, wuc_context *to) {
  wuc_context_switch(from, to);
  __builtin_unreachable();
}
static inline void wuc_context_release(wuc_context *ctx) { (void)ctx; }
#endif

#ifdef __cplusplus
}
#endif
#endif
