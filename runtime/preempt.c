/* preempt.c — the preemption signal and when it may switch (preempt.h). */
#define _GNU_SOURCE
#include "preempt.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "alarm.h"
#include "env.h"
#include "fatal.h"
#include "kernel_sigaction.h"
#include "sanitizer.h"
#include "scheduler.h"

#define PREEMPT_SIGNAL SIGURG
#define DEFAULT_TIMESLICE_US 10000

int64_t wuc_timeslice_ns;

static struct sigaction previous; /* the program's SIGURG action before ours */
static pid_t process_id;
static const char preemption_mark; /* its address marks the monitor's signals */
static uint64_t started_mask;      /* the workers' signal mask, SIGURG left out */
/* The return address the kernel gives every handler installed through libc
 * (glibc's __restore_rt): found on a stack, it marks a handler's frame. */
static uintptr_t signal_return;
/* One past the highest address of main's stack (user thread 1 runs on the
 * process's own stack, whose bounds the thread does not carry). */
static uintptr_t main_stack_top;

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

#ifdef WUC_FIBER_ANNOTATIONS
/* The sanitizer's own run-time library, linked into the executable (clang's
 * default, gcc's -static-libtsan / -static-libasan): its code is then inside
 * the program's, and a thread preempted in it left the sanitizer's locks
 * held for the next thread of the worker, which hung (seen with clang's
 * TSan: preempted inside its StackDepot lock).  Such a program is not
 * preempted (docs/driver.md, "Sanitizers").  Its module constructors call
 * this entry point, so it is there. */
#ifdef WUC_TSAN
extern void __tsan_init(void) __attribute__((weak));
#define SANITIZER_ENTRY ((uintptr_t)&__tsan_init)
#else
extern void __asan_init(void) __attribute__((weak));
#define SANITIZER_ENTRY ((uintptr_t)&__asan_init)
#endif
#endif

/* Switches away from the interrupted thread, which resumes here later, on
 * this worker; errno is its own again when the handler returns. */
static void preempt(struct worker *w) {
  int saved_errno = errno;
  w->preempted = true; /* find_local_work's fair turn waits */
  wuc_switch_away(w, w->current, PREV_PREEMPT);
  errno = saved_errno;
}

/* What runs in the handler before it knows the interrupted code is the
 * program's is WUC_NO_TSAN: under ThreadSanitizer the kernel calls the
 * handler directly (wuc_preempt_init), possibly inside ThreadSanitizer,
 * which must not be re-entered then. */
WUC_NO_TSAN static bool in_range(const struct code_range *r, uintptr_t pc) {
  return pc >= r->lo && pc < r->hi;
}

/* The main executable's .text, from its section headers: its code without
 * the PLT stubs (.plt, .plt.sec), which run on behalf of whoever calls a
 * shared library's function — libwuc inside a critical section, say — and
 * without .init/.fini.  bias: where the executable was loaded. */
static bool program_text(uintptr_t bias, struct code_range *out) {
  int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool found = false;
  Elf64_Ehdr eh;
  if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
      memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_shentsize == sizeof(Elf64_Shdr) &&
      eh.e_shnum > 0 && eh.e_shstrndx < eh.e_shnum) {
    size_t size = (size_t)eh.e_shnum * sizeof(Elf64_Shdr);
    Elf64_Shdr *sh = malloc(size);
    Elf64_Shdr names;
    if (sh && pread(fd, sh, size, (off_t)eh.e_shoff) == (ssize_t)size) {
      names = sh[eh.e_shstrndx];
      for (unsigned i = 0; i < eh.e_shnum && !found; i++) {
        char name[8] = {0};
        if (sh[i].sh_name >= names.sh_size ||
            pread(fd, name, sizeof name - 1, (off_t)(names.sh_offset + sh[i].sh_name)) <= 0)
          continue;
        if (strcmp(name, ".text") != 0 || !(sh[i].sh_flags & SHF_EXECINSTR)) continue;
        *out = (struct code_range){bias + sh[i].sh_addr, bias + sh[i].sh_addr + sh[i].sh_size};
        found = true;
      }
    }
    free(sh);
  }
  close(fd);
  return found;
}

/* What dl_iterate_phdr looks for: the object holding `address` (or the main
 * program, the first object, when address is 0): its code, and whether it
 * has an interpreter (a static executable has none, and holds libc). */
struct object_search {
  uintptr_t address;
  struct code_range code;
  uintptr_t bias;
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
  s->bias = info->dlpi_addr;
  s->has_interpreter = interp;
  s->found = true;
  return 1;
}

/* Whether a handler's frame lies on the interrupted stack above sp: the
 * program's own handler may have interrupted libc, whatever its mask (an
 * SA_NODEFER handler's is the code's it interrupted).  A stale copy of the
 * address in a dead slot only makes us wait for the next look. */
WUC_NO_TSAN WUC_NO_ASAN static bool in_signal_handler(uintptr_t sp, const struct wuc_uthread *cur) {
  uintptr_t top = cur->stack.base ? (uintptr_t)cur->stack.top : main_stack_top;
  for (const uintptr_t *p = (const uintptr_t *)((sp + 7) & ~(uintptr_t)7);
       (uintptr_t)p < top - sizeof *p; p++)
    if (*p == signal_return) return true;
  return false;
}

/* Whether the interrupted instruction is the main executable's own code,
 * not libwuc's: nothing of libc's, the loader's or a sanitizer's is under
 * way on this kernel thread. */
WUC_NO_TSAN static bool in_program_code(const ucontext_t *uc) {
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  return in_range(&program_code, pc) && !in_range(&runtime_code, pc);
}

/* Whether the interrupted context may switch to another thread (preempt.h). */
WUC_NO_TSAN static bool safe_to_switch(struct worker *w, const ucontext_t *uc) {
  struct wuc_uthread *cur = w->current;
  if (!cur || w->in_timer_callbacks) return false;
  /* The code first: while the worker runs the runtime's, `current` may
   * still name a thread that exited and whose handle its joiner has freed
   * (ASan saw the read, 1 run in 45 of stress.chan.lincheck under load).
   * In the program's own code, `current` is the thread running it. */
  if (!in_program_code(uc)) return false;
  if (cur->preemption_off) return false;
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  if (cur->stack.base && (sp < (uintptr_t)cur->stack.base || sp >= (uintptr_t)cur->stack.top))
    return false;
  uint64_t mask;
  __builtin_memcpy(&mask, &uc->uc_sigmask, sizeof mask); /* the kernel's 64 signals */
  if ((mask & ~(1ull << (PREEMPT_SIGNAL - 1))) != started_mask) return false;
  return !in_signal_handler(sp, cur);
}

/* The program's action for a SIGURG the runtime did not send. */
static void chain(int sig, siginfo_t *info, void *context) {
  if (previous.sa_flags & SA_SIGINFO)
    previous.sa_sigaction(sig, info, context);
  else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
    previous.sa_handler(sig);
}

/* Under ThreadSanitizer: its own handler, which runs the program's action
 * at its next interceptor as it does for every signal (NULL: the program
 * has none). */
static void (*sanitizer_handler)(int, siginfo_t *, void *) = chain;

static __attribute__((unused)) bool program_has_handler(void) {
  return (previous.sa_flags & SA_SIGINFO) ||
         (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN);
}

/* The worker's alarm (alarm.h): one of its timers may be overdue behind
 * the running thread.  The timers are looked at only from the program's
 * own code (under ThreadSanitizer the kernel calls this handler directly,
 * and the atomic loads are instrumented).  An overdue timer is then fired
 * by an idle worker, woken for it (a spinning worker fires others' overdue
 * timers): this thread keeps its CPU, and the timer's thread moves to the
 * idle one, where its next timers fire on time, as after the monitor's
 * fire.  Else this thread makes room as for the monitor's signal.  Where
 * it cannot, the alarm rings again a little later, and the thread yields
 * at its next preemption point. */
WUC_NO_TSAN static void on_alarm(struct worker *w, ucontext_t *context) {
  int saved_errno = errno; /* the alarm's system calls must not change it */
  if (!in_program_code(context)) {
    wuc_alarm_retry(w);
  } else if (!wuc_alarm_rang(w)) {
    /* nothing overdue: re-armed for what is left */
  } else if (atomic_load(&wuc_sched.nidle) != 0) {
    wuc_wake_idle_worker();
    wuc_alarm_retry(w);
  } else if (safe_to_switch(w, context)) {
    preempt(w);
  } else {
    atomic_store_explicit(&w->yield_request, atomic_load(&w->threads_run) + 1,
                          memory_order_relaxed);
    wuc_alarm_retry(w);
  }
  errno = saved_errno;
}

WUC_NO_TSAN static void on_preempt_signal(int sig, siginfo_t *info, void *context) {
  if (info->si_code == SI_TIMER && wuc_alarm_is(info->si_value.sival_ptr)) {
    struct worker *w = wuc_current_worker_in_handler();
    if (w) on_alarm(w, context);
    return;
  }
  /* Ours: queued by the monitor with our mark as its value (a kill, raise
   * or sigqueue of the program's has another code or value). */
  if (info->si_code != SI_QUEUE || info->si_pid != process_id ||
      info->si_value.sival_ptr != &preemption_mark) {
    int saved_errno = errno;
    if (sanitizer_handler) sanitizer_handler(sig, info, context);
    errno = saved_errno;
    return;
  }
  struct worker *w = wuc_current_worker_in_handler();
  if (!w || !safe_to_switch(w, context)) return;
  preempt(w);
}

void wuc_preempt_init(void) {
  wuc_timeslice_ns =
      wuc_env_microseconds("WUC_TIMESLICE", 60 * 1000000LL, (int64_t)DEFAULT_TIMESLICE_US * 1000,
                           "a time slice in microseconds from 0 (no preemption) to 60000000");
  struct object_search program = {0};
  dl_iterate_phdr(find_object, &program);
  /* A static executable holds libc itself: its code cannot be told from
   * the program's, so it is never preempted (docs/runtime.md). */
  if (!program.found || !program.has_interpreter) wuc_timeslice_ns = 0;
  /* Without section headers (a file stripped of them) nothing is known to
   * be the program's own code: no preemption either. */
  if (wuc_timeslice_ns != 0 && !program_text(program.bias, &program_code)) wuc_timeslice_ns = 0;
#ifdef WUC_FIBER_ANNOTATIONS
  if (SANITIZER_ENTRY && in_range(&program_code, SANITIZER_ENTRY)) wuc_timeslice_ns = 0;
#endif
  if (wuc_timeslice_ns == 0) return;
  if (__start_wuc_text && __stop_wuc_text) {
    runtime_code = (struct code_range){(uintptr_t)__start_wuc_text, (uintptr_t)__stop_wuc_text};
  } else {
    struct object_search runtime = {.address = (uintptr_t)&wuc_preempt_init};
    dl_iterate_phdr(find_object, &runtime);
    if (!runtime.found) wuc_fatal("cannot find the runtime's own code");
    runtime_code = runtime.code;
  }
  process_id = getpid();
  pthread_attr_t attr; /* the first spawn runs on worker 0, main's kernel thread */
  void *stack_low;
  size_t stack_size;
  if (pthread_getattr_np(pthread_self(), &attr) != 0 ||
      pthread_attr_getstack(&attr, &stack_low, &stack_size) != 0)
    wuc_fatal("cannot find main's stack: %s", strerror(errno));
  pthread_attr_destroy(&attr);
  main_stack_top = (uintptr_t)stack_low + stack_size;
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
  /* What libc installed, as the kernel has it: its return trampoline. */
  struct wuc_kernel_sigaction installed;
  if (wuc_kernel_sigaction_get(PREEMPT_SIGNAL, &installed) != 0)
    wuc_fatal("cannot read the preemption signal handler: %s", strerror(errno));
  signal_return = (uintptr_t)installed.restorer;
#ifdef WUC_TSAN
  /* ThreadSanitizer runs a handler it installed at its next interceptor,
   * with the context of the signal's arrival, which no longer describes
   * where the thread is: the kernel must call ours directly.  Its table
   * gets the program's action back, and the kernel its handler, which we
   * call for the signals that are not ours. */
  sanitizer_handler = NULL;
  if (program_has_handler()) {
    if (sigaction(PREEMPT_SIGNAL, &previous, NULL) != 0 ||
        wuc_kernel_sigaction_get(PREEMPT_SIGNAL, &installed) != 0)
      wuc_fatal("cannot install the preemption signal handler: %s", strerror(errno));
    sanitizer_handler = installed.handler;
  }
  if (wuc_kernel_sigaction_replace(PREEMPT_SIGNAL, on_preempt_signal, sa.sa_flags) != 0)
    wuc_fatal("cannot install the preemption signal handler: %s", strerror(errno));
#endif
  /* The workers run with SIGURG unblocked, whatever main had. */
  sigset_t urg;
  sigemptyset(&urg);
  sigaddset(&urg, PREEMPT_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &urg, NULL);
}

void wuc_preempt_request(struct worker *v) {
  pid_t tid = atomic_load_explicit(&v->tid, memory_order_relaxed);
  if (!tid) return;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  info.si_signo = PREEMPT_SIGNAL;
  info.si_code = SI_QUEUE;
  info.si_pid = process_id;
  info.si_uid = getuid();
  info.si_value.sival_ptr = (void *)&preemption_mark;
  syscall(SYS_rt_tgsigqueueinfo, process_id, tid, PREEMPT_SIGNAL, &info);
}
