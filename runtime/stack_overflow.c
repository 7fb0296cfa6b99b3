/* stack_overflow.c — turning a fault in a guard region into a report.
 *
 * The SIGSEGV handler runs on a per-kernel-thread alternate stack (the
 * faulting stack has no room left).  If the faulting address lies in the
 * guard of the running user thread's stack — or, for main, just below the
 * process stack — it prints which thread overflowed and where it was spawned,
 * and exits with status 2.  Any other fault goes to the SIGSEGV action that
 * was there before the runtime's (docs/runtime.md, 'Faults that are not
 * overflows'): the program's own handler, or the default action, so ordinary
 * crashes still dump core as usual.
 *
 * Main's stack counts only when main really is user thread 1: when the
 * runtime came with the program (the executable or a library it needs), not
 * with a library dlopened later by a program that does not use wuc, whose
 * own stack overflow must stay a plain SIGSEGV. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatal.h"
#include "scheduler.h"
#include "symbolize.h"

#define ALTSTACK_SIZE (64 * 1024)
/* How far below the main stack a fault still counts as its overflow. */
#define MAIN_GUARD_SIZE (1024 * 1024)

static char *main_stack_low;      /* lowest address the main stack may grow to, or NULL
                                     when main is not user thread 1 */
static struct sigaction previous; /* the SIGSEGV action before the runtime's */

static void report(const char *who_fmt, struct wuc_uthread *t) {
  char who[512], msg[1024];
  if (t)
    wuc_describe_thread(t, who, sizeof who);
  else
    snprintf(who, sizeof who, "%s", who_fmt);
  int n = snprintf(msg, sizeof msg,
                   "wuc: fatal: stack overflow in %s\n"
                   "  its stack is %zu bytes; set WUC_STACK_SIZE for larger stacks\n",
                   who, t && t->id == 1 ? (size_t)0 : wuc_stack_size());
  if (t && t->id == 1)
    n = snprintf(msg, sizeof msg,
                 "wuc: fatal: stack overflow in %s\n"
                 "  main runs on the process stack; raise it with ulimit -s\n",
                 who);
  if (n > 0) {
    ssize_t ignored =
        write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    (void)ignored;
  }
  wuc_die();
}

/* Hands a fault that is not an overflow to the action before ours, as the
 * kernel would have: a handler runs with its own mask and flags; SIG_DFL (and
 * SIG_IGN, which the kernel does not honour for a fault) is put back and the
 * handler returns, so the faulting instruction runs again and the process
 * dies by SIGSEGV as it would have without wuc.  A SIGSEGV sent by kill(2)
 * (si_code <= 0) does not repeat: under SIG_DFL it is raised again, under
 * SIG_IGN dropped. */
static void chain(int sig, siginfo_t *info, void *context) {
  bool sent = info->si_code <= 0;
  bool siginfo = (previous.sa_flags & SA_SIGINFO) != 0;
  void (*handler)(int) = siginfo ? NULL : previous.sa_handler;
  if (!siginfo && (handler == SIG_DFL || handler == SIG_IGN)) {
    if (handler == SIG_IGN && sent) return;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (sent) raise(sig); /* blocked until this handler returns */
    return;
  }
  if (previous.sa_flags & SA_RESETHAND) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
  }
  sigset_t mask, old;
  mask = previous.sa_mask;
  pthread_sigmask(SIG_BLOCK, &mask, &old);
  if (previous.sa_flags & SA_NODEFER) {
    sigemptyset(&mask);
    sigaddset(&mask, sig);
    pthread_sigmask(SIG_UNBLOCK, &mask, NULL);
  }
  if (siginfo)
    previous.sa_sigaction(sig, info, context);
  else
    handler(sig);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void on_segv(int sig, siginfo_t *info, void *context) {
  const char *addr = info->si_addr;
  struct worker *w = wuc_current_worker();
  if (w) {
    struct wuc_uthread *t = w->current;
    if (t && t->id != 1 && wuc_stack_guard_contains(&t->stack, addr)) report(NULL, t);
    if (t && t->id == 1 && main_stack_low && addr < main_stack_low + 4096 &&
        addr >= main_stack_low - MAIN_GUARD_SIZE)
      report(NULL, t);
    if (!t && wuc_stack_guard_contains(&w->sched_stack, addr))
      report("the scheduler of worker 0", NULL);
  }
  chain(sig, info, context);
}

/* A kernel thread that has an alternate signal stack already (the program's
 * main thread, given one by a constructor that ran before the runtime's)
 * keeps it: the runtime's handler runs on it too.  Returns the stack it set,
 * or NULL. */
void *wuc_stack_overflow_altstack_init(void) {
  stack_t ss;
  if (sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE)) return NULL;
  ss.ss_sp = malloc(ALTSTACK_SIZE);
  ss.ss_size = ALTSTACK_SIZE;
  ss.ss_flags = 0;
  if (ss.ss_sp) sigaltstack(&ss, NULL);
  return ss.ss_sp;
}

/* Called by the runtime's constructor, on the kernel thread that loads it. */
void wuc_stack_overflow_handler_init(void) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  /* Main is user thread 1 when the constructor runs in the process's start-up
   * on its main thread; in a dlopen the calling thread's stack is left alone. */
  bool main_is_ours =
      gettid() == getpid() &&
      wuc_loaded_with_program((const void *)(uintptr_t)wuc_stack_overflow_handler_init);
  if (main_is_ours && pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) main_stack_low = addr;
    pthread_attr_destroy(&attr);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous);
}
