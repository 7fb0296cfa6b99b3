/* Plain C over libwuc for driver/runtime_segv_chains.wc.  Before the
 * runtime's start-up (from .preinit_array, which runs before every
 * constructor) the program sets its own SIGSEGV action: argv[1] is "handler"
 * (SA_SIGINFO), "plain" (a handler without SA_SIGINFO), "ignore" (SIG_IGN)
 * or "default".  Then argv[2] says what faults: "main" (a null pointer in
 * main), "thread" (one in a user thread) or "overflow" (a user thread's
 * stack overflow, which stays wuc's report). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wuc.h>

static void say(const char *what) {
  ssize_t ignored = write(STDOUT_FILENO, what, strlen(what));
  (void)ignored;
}

static void on_fault_info(int sig, siginfo_t *info, void *context) {
  (void)context;
  say(sig == SIGSEGV && info->si_addr == (void *)16 ? "own handler: SIGSEGV at 0x10\n"
                                                    : "own handler: another fault\n");
  _exit(42);
}

static void on_fault(int sig) {
  say(sig == SIGSEGV ? "own plain handler: SIGSEGV\n" : "own plain handler: ?\n");
  _exit(43);
}

static int pre_argc;
static char **pre_argv;

static void before_wuc(int argc, char **argv, char **envp) {
  (void)envp;
  pre_argc = argc;
  pre_argv = argv;
  if (argc < 3) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  if (strcmp(argv[1], "handler") == 0) {
    sa.sa_sigaction = on_fault_info;
    sa.sa_flags = SA_SIGINFO;
  } else if (strcmp(argv[1], "plain") == 0) {
    sa.sa_handler = on_fault;
  } else if (strcmp(argv[1], "ignore") == 0) {
    sa.sa_handler = SIG_IGN;
  } else {
    sa.sa_handler = SIG_DFL;
  }
  sigaction(SIGSEGV, &sa, NULL);
}

__attribute__((section(".preinit_array"), used)) static void (*const preinit)(int, char **,
                                                                             char **) = before_wuc;

static void fault(void *arg) { *(volatile int *)arg = 1; }

/* Far beyond any stack: read at run time, so the recursion is not infinite
 * to the compiler. */
static volatile int depth_limit = 1 << 30;

static int deep(int n) {
  volatile char pad[1024];
  memset((char *)pad, n, sizeof pad);
  return n < depth_limit ? deep(n + 1) + pad[n % 1024] : 0;
}

static void overflow(void *arg) {
  (void)arg;
  deep(1);
}

int main(void) {
  if (pre_argc < 3) return 1;
  const char *what = pre_argv[2];
  if (strcmp(what, "main") == 0) fault((void *)16);
  if (strcmp(what, "thread") == 0) uthread_join(uthread_spawn(fault, (void *)16));
  if (strcmp(what, "overflow") == 0) uthread_join(uthread_spawn(overflow, NULL));
  say("no fault\n");
  return 0;
}
