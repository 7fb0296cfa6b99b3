/* preempt.c — the preemption signal and when it may switch (preempt.h). */
#define _GNU_SOURCE
#include "preempt.h"

#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "fatal.h"
#include "scheduler.h"

#define PREEMPT_SIGNAL SIGURG
#define DEFAULT_TIMESLICE_US 10000

int64_t wuc_timeslice_ns;

static struct sigaction previous; /* the program's SIGURG action before ours */
static pid_t process_id;
static uint64_t started_mask; /* the workers' signal mask, SIGURG left out */

/* Code addresses [lo, hi): the main executable's, and libwuc's inside it
 * or elsewhere. */
struct code_range {
  uintptr_t lo, hi;
};
static struct code_range program_code, runtime_code;

/* The static library's code is one section, wuc_text (runtime/CMakeLists.txt
 * renames it), so the linker marks its bounds; in libwuc.so it is not, and
 * these are null. */
extern const char __start_wuc_text[] __attribute__((weak, visibility("hidden")));
extern const char __stop_wuc_text[] __attribute__((weak, visibility("hidden")));

static bool in_range(const struct code_range *r, uintptr_t pc) { return pc >= r->lo && pc < r->hi; }

/* What dl_iterate_phdr looks for: the object holding `address` (or the main
 * program, the first object, when address is 0): its code, and whether it
 * has an interpreter (a static executable has none, and holds libc). */
struct object_search {
  uintptr_t address;
  struct code_range code;
  bool found, has_interpreter;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct object_search *s = data;
  struct code_range code = {UINTPTR_MAX, 0};
  bool interp = false;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_INTERP) interp = true;
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (lo < code.lo) code.lo = lo;
    if (lo + ph->p_memsz > code.hi) code.hi = lo + ph->p_memsz;
  }
  /* The main program is the first object. */
  if (s->address && !in_range(&code, s->address)) return 0;
  s->code = code;
  s->has_interpreter = interp;
  s->found = true;
  return 1;
}

/* Whether the interrupted context may switch to another thread (preempt.h). */
static bool safe_to_switch(struct worker *w, const ucontext_t *uc) {
  struct wuc_uthread *cur = w->current;
  if (!cur || w->in_timer_callbacks || cur->preemption_off) return false;
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  if (!in_range(&program_code, pc) || in_range(&runtime_code, pc)) return false;
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  if (cur->stack.base && (sp < (uintptr_t)cur->stack.base || sp >= (uintptr_t)cur->stack.top))
    return false;
  uint64_t mask;
  memcpy(&mask, &uc->uc_sigmask, sizeof mask); /* the kernel's 64 signals */
  return (mask & ~(1ull << (PREEMPT_SIGNAL - 1))) == started_mask;
}

static void on_preempt_signal(int sig, siginfo_t *info, void *context) {
  int saved_errno = errno;
  if (info->si_code == SI_TKILL && info->si_pid == process_id) {
    struct worker *w = wuc_current_worker();
    if (w && safe_to_switch(w, context)) wuc_switch_away(w, w->current, PREV_PREEMPT);
  } else if (previous.sa_flags & SA_SIGINFO) { /* not ours: the program's handler */
    previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
  }
  errno = saved_errno;
}

static int64_t timeslice_from_env(void) {
  const char *env = getenv("WUC_TIMESLICE");
  if (!env || !*env) return (int64_t)DEFAULT_TIMESLICE_US * 1000;
  char *end;
  errno = 0;
  long long us = strtoll(env, &end, 10);
  if (*end != '\0' || errno || us < 0 || us > 60 * 1000000LL)
    wuc_fatal("WUC_TIMESLICE=%s: expected a time slice in microseconds from 0 (no preemption) "
              "to 60000000",
              env);
  return us * 1000;
}

void wuc_preempt_init(void) {
  wuc_timeslice_ns = timeslice_from_env();
  struct object_search program = {0};
  dl_iterate_phdr(find_object, &program);
  /* A static executable holds libc itself: its code cannot be told from
   * the program's, so it is never preempted (docs/runtime.md). */
  if (!program.found || !program.has_interpreter) wuc_timeslice_ns = 0;
  if (wuc_timeslice_ns == 0) return;
  program_code = program.code;
  if (__start_wuc_text && __stop_wuc_text) {
    runtime_code = (struct code_range){(uintptr_t)__start_wuc_text, (uintptr_t)__stop_wuc_text};
  } else {
    struct object_search runtime = {.address = (uintptr_t)&wuc_preempt_init};
    dl_iterate_phdr(find_object, &runtime);
    if (!runtime.found) wuc_fatal("cannot find the runtime's own code");
    runtime_code = runtime.code;
  }
  process_id = getpid();
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, NULL, &mask);
  memcpy(&started_mask, &mask, sizeof started_mask);
  started_mask &= ~(1ull << (PREEMPT_SIGNAL - 1));

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_preempt_signal;
  sigemptyset(&sa.sa_mask);
  /* SA_NODEFER: a thread preempted inside the handler must not leave the
   * signal blocked for the threads that run after it (a second signal that
   * lands in the handler finds runtime code, and returns). */
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
  if (sigaction(PREEMPT_SIGNAL, &sa, &previous) != 0)
    wuc_fatal("cannot install the preemption signal handler: %s", strerror(errno));
  /* The workers run with SIGURG unblocked, whatever main had. */
  sigset_t urg;
  sigemptyset(&urg);
  sigaddset(&urg, PREEMPT_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &urg, NULL);
}

void wuc_preempt_request(struct worker *v) {
  pid_t tid = atomic_load_explicit(&v->tid, memory_order_relaxed);
  if (tid) syscall(SYS_tgkill, process_id, tid, PREEMPT_SIGNAL);
}
