/* kernel_sigaction.h — a signal handler installed with the raw system call,
 * for the handlers ThreadSanitizer must not wrap: it runs a handler it
 * installed only at the thread's next interceptor (preempt.c,
 * signal_notify.c). */
#ifndef WUC_RUNTIME_KERNEL_SIGACTION_H
#define WUC_RUNTIME_KERNEL_SIGACTION_H

#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's struct sigaction (rt_sigaction(2)), and its flag saying that
 * `restorer` is set (x86-64). */
struct wuc_kernel_sigaction {
  void (*handler)(int, siginfo_t *, void *);
  unsigned long flags;
  void (*restorer)(void);
  uint64_t mask;
};
#define WUC_KERNEL_SA_RESTORER 0x04000000

/* signo's action as the kernel has it; 0 or -1 with errno. */
static inline int wuc_kernel_sigaction_get(int signo, struct wuc_kernel_sigaction *out) {
  return syscall(SYS_rt_sigaction, signo, NULL, out, sizeof out->mask) == 0 ? 0 : -1;
}

/* Replaces signo's handler, as the kernel has it, by `handler` with `flags`
 * (SA_SIGINFO among them) and an empty mask, keeping the return trampoline
 * that libc installed with the handler before it: a sigaction(2) for signo
 * must come first.  0 or -1 with errno. */
static inline int wuc_kernel_sigaction_replace(int signo, void (*handler)(int, siginfo_t *, void *),
                                               unsigned long flags) {
  struct wuc_kernel_sigaction k;
  if (wuc_kernel_sigaction_get(signo, &k) != 0) return -1;
  k.handler = handler;
  k.flags = flags | WUC_KERNEL_SA_RESTORER;
  k.mask = 0;
  return syscall(SYS_rt_sigaction, signo, &k, NULL, sizeof k.mask) == 0 ? 0 : -1;
}

#endif
