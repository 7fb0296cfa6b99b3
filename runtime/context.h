/* context.h — saved execution contexts and the switch between them.
 *
 * A suspended context is only its stack pointer.  Everything the SysV ABI
 * says a callee must preserve is pushed on that stack by the switch: rbx,
 * rbp, r12-r15, the MXCSR control bits and the x87 control word, and the
 * return address.  Caller-saved registers are dead across a call, so they
 * are not saved: that is why a switch costs a handful of pushes and pops and
 * not a ucontext's signal-mask syscall. */
#ifndef WUC_RUNTIME_CONTEXT_H
#define WUC_RUNTIME_CONTEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wuc_context {
  void *sp;
} wuc_context;

/* Saves the running context into *from and resumes *to.  Returns when some
 * other context switches back to *from. */
void wuc_context_switch(wuc_context *from, wuc_context *to);

/* Prepares *ctx so that switching to it calls entry(arg) on the stack that
 * ends (exclusive) at stack_top.  entry must never return.  The new context
 * starts with the caller's MXCSR and x87 control word. */
void wuc_context_init(wuc_context *ctx, void *stack_top, void (*entry)(void *), void *arg);

#ifdef __cplusplus
}
#endif
#endif
