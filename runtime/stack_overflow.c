/* stack_overflow.c — turning a fault in a guard region into a report.
 *
 * The SIGSEGV handler runs on a per-kernel-thread alternate stack (the
 * faulting stack has no room left).  If the faulting address lies in the
 * guard of the running user thread's stack — or, for main, just below the
 * process stack — it prints which thread overflowed and where it was spawned,
 * and exits with status 2.  Any other fault is handed back to the default
 * action, so ordinary crashes still dump core as usual. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatal.h"
#include "scheduler.h"

#define ALTSTACK_SIZE (64 * 1024)
/* How far below the main stack a fault still counts as its overflow. */
#define MAIN_GUARD_SIZE (1024 * 1024)

static char *main_stack_low; /* lowest address the main stack may grow to */

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

static void on_segv(int sig, siginfo_t *info, void *context) {
  (void)context;
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
  /* Not an overflow we know: let the default action happen. */
  signal(sig, SIG_DFL);
}

void *wuc_stack_overflow_altstack_init(void) {
  stack_t ss;
  ss.ss_sp = malloc(ALTSTACK_SIZE);
  ss.ss_size = ALTSTACK_SIZE;
  ss.ss_flags = 0;
  if (ss.ss_sp) sigaltstack(&ss, NULL);
  return ss.ss_sp;
}

void wuc_stack_overflow_handler_init(void) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) main_stack_low = addr;
    pthread_attr_destroy(&attr);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
}
