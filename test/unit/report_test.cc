// report_test.cc — what the runtime prints when a program cannot go on: the
// deadlock report, stack overflows, and misuse of the thread, park and timer
// APIs and of the environment variables.  Each case runs in a child process
// and must end with exit status 2 and the documented text.
//
// Thread functions named in reports have C linkage (a C++ name would show
// mangled): the runtime names them from the binary's symbol table
// (runtime/symbolize.h), so `static` ones too, without -rdynamic.
#include <gtest/gtest.h>

#include <park.h>
#include <timer.h>
#include <wuc.h>
#include <wuc/fd.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "scenario.h"
#include "subprocess.h"

using wuc_test::ChildResult;
using wuc_test::Env;
using wuc_test::ExitedWith;
using wuc_test::RunScenario;

namespace {

constexpr int kFatal = 2;

// A child tells the parent things only it knows (source lines, addresses)
// as lines "fact NAME VALUE" on stdout; wuc_die flushes stdout.
void Fact(const char *name, long value) { std::printf("fact %s %ld\n", name, value); }
void Fact(const char *name, const void *value) { std::printf("fact %s %p\n", name, value); }

std::map<std::string, std::string> Facts(const ChildResult &r) {
  std::map<std::string, std::string> facts;
  std::istringstream in(r.out);
  std::string word, name, value;
  while (in >> word) {
    if (word == "fact" && in >> name >> value) facts[name] = value;
  }
  return facts;
}

std::string Where(const std::string &line) { return std::string(__FILE__) + ":" + line; }

// Checks a fatal error: status 2, stderr exactly `message` and the thread
// line (when `thread` is not empty).
void ExpectFatal(const ChildResult &r, const std::string &message, const std::string &thread) {
  EXPECT_TRUE(ExitedWith(r, kFatal));
  std::string expected = "wuc: fatal: " + message + "\n";
  if (thread == "the wuc runtime starts up")
    expected += "  while " + thread + "\n";
  else if (!thread.empty())
    expected += "  in " + thread + "\n";
  if (thread.empty())
    EXPECT_EQ(r.err.substr(0, expected.size()), expected) << r.Describe();
  else
    EXPECT_EQ(r.err, expected) << r.Describe();
  EXPECT_EQ(r.out.find("survived"), std::string::npos) << r.Describe();
}

// The scenarios below print this if the misuse did not stop them.
int Survived() {
  std::printf("survived\n");
  return 0;
}

} // namespace

// ---- deadlock ---------------------------------------------------------------

extern "C" void deadlock_parks_forever(void *object) {
  for (;;) wuc_park("test: never woken", object);
}

extern "C" void deadlock_joins(void *thread) {
  Fact("join_in_thread", __LINE__ + 1);
  uthread_join(static_cast<uthread_t *>(thread));
}

// Main joins thread 3, which joins thread 2, which parks for good on an
// object the report names by its symbol.
extern "C" {
int parked_on_object; // C linkage: its symbol is its name
}

WUC_SCENARIO(deadlock_join_chain) {
  int &object = parked_on_object;
  Fact("spawn_parker", __LINE__ + 1); // before: the thread may end the program
  uthread_t *parker = uthread_spawn(deadlock_parks_forever, &object);
  Fact("spawn_joiner", __LINE__ + 1); // before: the thread may end the program
  uthread_t *joiner = uthread_spawn(deadlock_joins, parker);
  Fact("object", &object);
  Fact("join_in_main", __LINE__ + 1);
  uthread_join(joiner);
  return Survived();
}

namespace {

std::string DeadlockChainReport(const ChildResult &r) {
  auto facts = Facts(r);
  return "wuc: deadlock: all 3 user threads are blocked and no timer is pending\n"
         "  user thread 1 (main)\n"
         "    waits in uthread_join for user thread 3 at " +
         Where(facts["join_in_main"]) +
         "\n"
         "  user thread 2 (deadlock_parks_forever, spawned at " +
         Where(facts["spawn_parker"]) +
         " by thread 1)\n"
         "    waits in test: never woken on parked_on_object\n"
         "  user thread 3 (deadlock_joins, spawned at " +
         Where(facts["spawn_joiner"]) +
         " by thread 1)\n"
         "    waits in uthread_join for user thread 2 at " +
         Where(facts["join_in_thread"]) + "\n";
}

TEST(Report, DeadlockOnOneWorker) {
  auto r = RunScenario("deadlock_join_chain", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, DeadlockChainReport(r)) << r.Describe();
}

TEST(Report, DeadlockOnFourWorkers) {
  auto r = RunScenario("deadlock_join_chain", {{"WUC_PROCESSORS", "4"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, DeadlockChainReport(r)) << r.Describe();
}

} // namespace

// Main alone, before any spawn (only worker 0 exists), with no object.
WUC_SCENARIO(deadlock_main_alone) {
  wuc_park("test: alone", nullptr);
  return Survived();
}

extern "C" void deadlock_plain_spawned(void *) { wuc_park("test: plain", nullptr); }

// Spawned through the plain function (no source location): the report
// gives the caller's address instead.
WUC_SCENARIO(deadlock_plain_spawn) {
  uthread_t *t = (uthread_spawn)(deadlock_plain_spawned, nullptr);
  (uthread_join)(t);
  return Survived();
}

void NeverFires(wuc_timer *) {}

// Many timers started and cancelled, then a deadlock: cancelled timers must
// not count as pending (a miscount would hang instead of reporting).
WUC_SCENARIO(deadlock_after_cancelled_timers) {
  wuc_timer t;
  for (int i = 0; i < 1000000; i++) {
    wuc_timer_start(&t, wuc_now() + seconds(3600) - i, NeverFires);
    if (!wuc_timer_cancel(&t)) return 1;
  }
  wuc_timer fired; // and one that fires: it must not stay counted either
  wuc_timer_start(&fired, wuc_now(), NeverFires);
  uthread_sleep(milliseconds(1));
  wuc_park("test: after timers", nullptr);
  return Survived();
}

namespace {

TEST(Report, DeadlockOfMainAlone) {
  for (const char *workers : {"1", "2"}) {
    auto r = RunScenario("deadlock_main_alone", {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(ExitedWith(r, kFatal));
    EXPECT_EQ(r.err, "wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                     "  user thread 1 (main)\n"
                     "    waits in test: alone\n")
        << r.Describe();
  }
}

TEST(Report, DeadlockNamesPlainSpawnByAddress) {
  auto r = RunScenario("deadlock_plain_spawn", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  std::regex expected(
      "wuc: deadlock: all 2 user threads are blocked and no timer is pending\n"
      "  user thread 1 \\(main\\)\n"
      "    waits in uthread_join for user thread 2\n"
      "  user thread 2 \\(deadlock_plain_spawned, spawned from 0x[0-9a-f]+ by thread 1\\)\n"
      "    waits in test: plain\n");
  EXPECT_TRUE(std::regex_match(r.err, expected)) << r.Describe();
}

TEST(Report, DeadlockAfterAMillionCancelledTimers) {
  auto r = RunScenario("deadlock_after_cancelled_timers", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, "wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                   "  user thread 1 (main)\n"
                   "    waits in test: after timers\n")
      << r.Describe();
}

} // namespace

// ---- no false deadlock report: kernel threads outside the runtime -------------
//
// While main waits, every user thread is blocked and no timer is pending, but a
// kernel thread the runtime did not start is still there, and wakes main later
// with a call that does not block: not a deadlock (docs/runtime.md, 'Deadlock
// report').  It sleeps first, so that main is waiting when it wakes it.

WUC_FUTURE_STRUCT(report_future, int);

extern "C" {
latch foreign_latch; // C linkage: the deadlock report names it by its symbol
}

namespace {

report_future foreign_future;
wuc_chan foreign_chan; // zeroed: rendezvous
semaphore foreign_semaphore;

// The wake-up the foreign thread makes, by $WUC_TEST_WAKER.
void ForeignWake(const std::string &how) {
  if (how == "latch_set") {
    latch_set(&foreign_latch);
  } else if (how == "future_set") {
    future_set(&foreign_future, 7);
  } else if (how == "chan_try_send") {
    int v = 7; // rendezvous: succeeds only once main waits in its receive
    while (!wuc_chan_try_send(&foreign_chan, &v, sizeof v)) usleep(1000);
  } else if (how == "chan_close") {
    wuc_chan_close(&foreign_chan, sizeof(int));
  } else if (how == "semaphore_release") {
    semaphore_release(&foreign_semaphore);
  }
}

// What main waits in, by $WUC_TEST_WAKER; the value it got.
int WaitForForeignWake(const std::string &how) {
  int v = 0;
  if (how == "latch_set") {
    latch_wait(&foreign_latch);
  } else if (how == "future_set") {
    v = future_get(&foreign_future);
  } else if (how == "chan_try_send" || how == "chan_close") {
    if (!wuc_chan_recv(&foreign_chan, &v, sizeof v)) v = -1;
  } else if (how == "semaphore_release") {
    semaphore_acquire(&foreign_semaphore);
  }
  return v;
}

} // namespace

WUC_SCENARIO(woken_by_a_foreign_thread) {
  const char *env = std::getenv("WUC_TEST_WAKER");
  std::string how = env ? env : "";
  std::thread waker([how] {
    usleep(100 * 1000);
    ForeignWake(how);
  });
  int got = WaitForForeignWake(how);
  waker.join();
  std::printf("woken by %s: %d\n", how.c_str(), got);
  return 0;
}

// Main and a thread it joins wait for the foreign thread's wake-up: two
// threads blocked, at 2 and 4 workers on different workers.
extern "C" void foreign_latch_waiter(void *) { latch_wait(&foreign_latch); }

WUC_SCENARIO(two_threads_woken_by_a_foreign_thread) {
  uthread_t *t = uthread_spawn(foreign_latch_waiter, nullptr);
  std::thread waker([] {
    usleep(100 * 1000);
    latch_set(&foreign_latch);
  });
  uthread_join(t);
  latch_wait(&foreign_latch);
  waker.join();
  std::printf("both woken\n");
  return 0;
}

// A signal, the way docs/library.md says to wait for one (a handler may not
// call libwuc): blocked before the first spawn, so that every worker
// inherits the mask, and taken by a kernel thread of the program's in
// sigwait, which sets the latch two user threads wait on.
WUC_SCENARIO(woken_by_a_signal_through_sigwait) {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, nullptr);
  uthread_t *t = uthread_spawn(foreign_latch_waiter, nullptr);
  std::thread waiter([usr1] {
    int sig = 0;
    sigwait(&usr1, &sig);
    latch_set(&foreign_latch);
  });
  std::thread sender([] {
    usleep(100 * 1000);
    kill(getpid(), SIGUSR1);
  });
  latch_wait(&foreign_latch);
  uthread_join(t);
  waiter.join();
  sender.join();
  std::printf("woken by SIGUSR1\n");
  return 0;
}

// A real deadlock while a foreign thread exists: reported once it has ended
// (it makes no wake-up).
WUC_SCENARIO(deadlock_after_a_foreign_thread_ends) {
  std::thread idle([] { usleep(100 * 1000); });
  idle.detach();
  Fact("latch", &foreign_latch);
  Fact("wait", __LINE__ + 1);
  latch_wait(&foreign_latch);
  return Survived();
}

namespace {

TEST(Report, NoDeadlockWhileAForeignThreadCanWake) {
  // The waker, and the value main got (-1: the receive failed, the channel is closed).
  const std::map<std::string, std::string> wakers = {{"latch_set", "0"},
                                                     {"future_set", "7"},
                                                     {"chan_try_send", "7"},
                                                     {"chan_close", "-1"},
                                                     {"semaphore_release", "0"}};
  for (const auto &[how, value] : wakers) {
    for (const char *workers : {"1", "2", "4"}) {
      SCOPED_TRACE(how + " at " + workers + " workers");
      auto r = RunScenario("woken_by_a_foreign_thread",
                           {{"WUC_PROCESSORS", workers}, {"WUC_TEST_WAKER", how}});
      EXPECT_TRUE(ExitedWith(r, 0));
      EXPECT_EQ(r.out, "woken by " + how + ": " + value + "\n") << r.Describe();
      EXPECT_EQ(r.err, "") << r.Describe();
    }
  }
}

TEST(Report, NoDeadlockWhileAForeignThreadCanWakeTwoThreads) {
  for (const char *workers : {"1", "2", "4"}) {
    SCOPED_TRACE(workers);
    auto r = RunScenario("two_threads_woken_by_a_foreign_thread", {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out, "both woken\n") << r.Describe();
  }
}

TEST(Report, NoDeadlockWhileASigwaitThreadWaitsForASignal) {
  for (const char *workers : {"1", "2", "4"}) {
    SCOPED_TRACE(workers);
    auto r = RunScenario("woken_by_a_signal_through_sigwait", {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out, "woken by SIGUSR1\n") << r.Describe();
  }
}

TEST(Report, DeadlockAfterTheForeignThreadsEnd) {
  for (const char *workers : {"1", "2"}) {
    SCOPED_TRACE(workers);
    auto r = RunScenario("deadlock_after_a_foreign_thread_ends", {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(ExitedWith(r, kFatal));
    auto facts = Facts(r);
    EXPECT_EQ(r.err, "wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                     "  user thread 1 (main)\n"
                     "    waits in latch_wait on foreign_latch at " +
                         Where(facts["wait"]) + "\n")
        << r.Describe();
  }
}

} // namespace

// ---- stack overflow -----------------------------------------------------------

// Never true, but the compiler cannot know: keeps the recursion finite in
// its eyes (no -Winfinite-recursion) and the frames real.
volatile int overflow_stop = 0;

extern "C" __attribute__((noinline)) int overflow_recurse(int depth) {
  volatile char frame[512]; // a real frame per call
  frame[0] = static_cast<char>(depth);
  if (overflow_stop) return frame[0];
  int below = overflow_recurse(depth + 1);
  __asm__ volatile("" : : "r"(frame) : "memory"); // no tail call
  return below + frame[0];
}

extern "C" void overflow_thread(void *) { overflow_recurse(0); }

WUC_SCENARIO(stack_overflow_in_thread) {
  Fact("spawn", __LINE__ + 1); // before: the thread may end the program
  uthread_t *t = uthread_spawn(overflow_thread, nullptr);
  uthread_join(t);
  return Survived();
}

// Main keeps worker 0 busy, so the thread overflows on worker 1 (whose
// kernel thread has its own signal stack).
WUC_SCENARIO(stack_overflow_on_worker_1) {
  Fact("spawn", __LINE__ + 1); // before: the thread ends the program
  uthread_spawn(overflow_thread, nullptr);
  for (volatile unsigned long spins = 0;; spins = spins + 1) __builtin_ia32_pause();
  return Survived();
}

// One frame larger than the stack's 64 KiB guard: without stack clash
// protection (-fstack-clash-protection, set for the runtime and the tests
// by stdlib/CMakeLists.txt) its first store lands below the guard: 329,000
// bytes below the top of a 256 KiB stack crashed with no report, 380,000
// bytes wrote into the neighbouring stack.  With it, the frame is touched
// page by page from the top and the guard faults.
template <size_t kBytes> __attribute__((noinline)) int big_frame() {
  volatile char frame[kBytes];
  frame[0] = 1;
  __asm__ volatile("" : : "r"(frame) : "memory");
  return frame[0];
}

extern "C" void big_frame_329000(void *) { big_frame<329000>(); }
extern "C" void big_frame_380000(void *) { big_frame<380000>(); }

WUC_SCENARIO(stack_overflow_by_one_big_frame) {
  const char *env = std::getenv("WUC_TEST_FRAME");
  bool larger = env && std::string(env) == "380000";
  Fact("spawn", __LINE__ + 1); // before: the thread ends the program
  uthread_t *t = uthread_spawn(larger ? big_frame_380000 : big_frame_329000, nullptr);
  uthread_join(t);
  return Survived();
}

// 400 threads live at once, then finished: up to 16 stacks per worker stay
// in its cache and 256 in the pool with their pages, the others (at least
// 112) give their pages back once unused for a second (runtime/stack.c,
// from the monitor thread), which shows as VmRSS going down.  Then 320
// threads: main's cache and the pool give at most 272, so the last ones get
// given-back stacks (new ones only after those), and the last of all
// overflows: its guard must still be there.
static std::atomic<bool> recycled_release;
extern "C" void recycled_waiter(void *) {
  volatile char used[16384]; // a few pages each, given back later
  for (size_t i = 0; i < sizeof used; i += 4096) used[i] = 1;
  while (!recycled_release.load()) uthread_yield();
}

static long vm_rss_kib() {
  FILE *f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  if (f) std::fclose(f);
  return kib;
}

static void run_recycled_waiters(int n, uthread_t *last(void)) {
  static uthread_t *threads[400];
  recycled_release = false;
  for (int i = 0; i < n - 1; i++) threads[i] = uthread_spawn(recycled_waiter, nullptr);
  threads[n - 1] = last();
  recycled_release = true;
  for (int i = 0; i < n; i++) uthread_join(threads[i]);
}

static uthread_t *one_more_waiter() { return uthread_spawn(recycled_waiter, nullptr); }
static uthread_t *the_overflow() {
  Fact("spawn", __LINE__ + 1); // before: the thread may end the program
  return uthread_spawn(overflow_thread, nullptr);
}

WUC_SCENARIO(stack_overflow_on_a_recycled_stack) {
  run_recycled_waiters(400, one_more_waiter);
  long before = vm_rss_kib();
  // Over 100 stacks of at least 16 KiB each: more than 1 MiB goes back.
  for (int i = 0; i < 600 && vm_rss_kib() > before - 1024; i++) uthread_sleep(milliseconds(50));
  if (vm_rss_kib() > before - 1024) {
    std::fprintf(stderr, "VmRSS went from %ld to only %ld kB\n", before, vm_rss_kib());
    return Survived();
  }
  run_recycled_waiters(320, the_overflow);
  return Survived();
}

WUC_SCENARIO(stack_overflow_in_main) {
  overflow_recurse(0);
  return Survived();
}

namespace {

std::string OverflowReport(const ChildResult &r, const char *bytes,
                           const char *fn = "overflow_thread", const char *thread = "2") {
  return std::string("wuc: fatal: stack overflow in user thread ") + thread + " (" + fn +
         ", spawned at " + Where(Facts(r)["spawn"]) + " by thread 1)\n  its stack is " + bytes +
         " bytes; set WUC_STACK_SIZE for larger stacks\n";
}

TEST(Report, StackOverflowInAThread) {
  auto r = RunScenario("stack_overflow_in_thread", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, OverflowReport(r, "262144")) << r.Describe();
}

TEST(Report, StackOverflowWithSmallStacks) {
  auto r =
      RunScenario("stack_overflow_in_thread", {{"WUC_PROCESSORS", "1"}, {"WUC_STACK_SIZE", "32k"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, OverflowReport(r, "32768")) << r.Describe();
}

// The guards made with mprotect (WUC_STACK_GUARD, docs/debugging.md) catch it too.
TEST(Report, StackOverflowWithMprotectGuards) {
  auto r = RunScenario("stack_overflow_in_thread",
                       {{"WUC_PROCESSORS", "2"}, {"WUC_STACK_GUARD", "mprotect"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, OverflowReport(r, "262144")) << r.Describe();
}

TEST(Report, StackOverflowOnAStackThatGaveItsPagesBack) {
  for (const char *guard : {"madvise", "mprotect"}) {
    SCOPED_TRACE(guard);
    auto r = RunScenario("stack_overflow_on_a_recycled_stack",
                         {{"WUC_PROCESSORS", "2"}, {"WUC_STACK_GUARD", guard}});
    EXPECT_TRUE(ExitedWith(r, kFatal));
    EXPECT_EQ(r.err, OverflowReport(r, "262144", "overflow_thread", "721")) << r.Describe();
  }
}

TEST(Report, StackOverflowOnAnotherWorker) {
  auto r = RunScenario("stack_overflow_on_worker_1", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, OverflowReport(r, "262144")) << r.Describe();
}

TEST(Report, StackOverflowByOneFrameLargerThanTheGuard) {
  for (const char *bytes : {"329000", "380000"}) {
    SCOPED_TRACE(bytes);
    auto r = RunScenario("stack_overflow_by_one_big_frame",
                         {{"WUC_PROCESSORS", "2"}, {"WUC_TEST_FRAME", bytes}});
    EXPECT_TRUE(ExitedWith(r, kFatal));
    EXPECT_EQ(r.err, OverflowReport(r, "262144", (std::string("big_frame_") + bytes).c_str()))
        << r.Describe();
  }
}

TEST(Report, StackOverflowInMain) {
  auto r = RunScenario("stack_overflow_in_main", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, "wuc: fatal: stack overflow in user thread 1 (main)\n"
                   "  main runs on the process stack; raise it with ulimit -s\n")
      << r.Describe();
}

} // namespace

// ---- misuse -----------------------------------------------------------------

extern "C" void misuse_noop(void *) {}

// The handle is freed by the first join; nothing is allocated in between,
// so its memory still reads "dead".
WUC_SCENARIO(join_twice) {
  uthread_t *t = uthread_spawn(misuse_noop, nullptr);
  uthread_join(t);
  Fact("handle", t);
  Fact("join", __LINE__ + 1);
  uthread_join(t);
  return Survived();
}

extern "C" void misuse_wait_for_flag(void *flag) {
  while (!static_cast<std::atomic<bool> *>(flag)->load()) uthread_sleep(milliseconds(1));
}

extern "C" void misuse_join_target(void *target) { uthread_join(static_cast<uthread_t *>(target)); }

// One worker: main runs again only once the first joiner is parked in its join.
WUC_SCENARIO(two_joiners) {
  static std::atomic<bool> never{false};
  uthread_t *target = uthread_spawn(misuse_wait_for_flag, &never);
  uthread_t *first_joiner = uthread_spawn(misuse_join_target, target);
  (void)first_joiner;
  uthread_yield();
  Fact("join", __LINE__ + 1);
  uthread_join(target);
  return Survived();
}

// The line of the join in misuse_join_self.
static const int kJoinSelfLine = __LINE__ + 1;
extern "C" void misuse_join_self(void *) { uthread_join(uthread_self()); }

WUC_SCENARIO(join_self) {
  Fact("spawn", __LINE__ + 1); // before: the thread may end the program
  uthread_t *t = uthread_spawn(misuse_join_self, nullptr);
  uthread_join(t);
  return Survived();
}

WUC_SCENARIO(main_joins_itself) {
  Fact("join", __LINE__ + 1);
  uthread_join(uthread_self());
  return Survived();
}

static const int kJoinMainLine = __LINE__ + 2;
extern "C" void misuse_join_main(void *main_thread) {
  uthread_join(static_cast<uthread_t *>(main_thread));
}

WUC_SCENARIO(join_main) {
  Fact("spawn", __LINE__ + 1); // before: the thread may end the program
  uthread_t *t = uthread_spawn(misuse_join_main, uthread_self());
  uthread_join(t);
  return Survived();
}

WUC_SCENARIO(join_null) {
  Fact("join", __LINE__ + 1);
  uthread_join(nullptr);
  return Survived();
}

WUC_SCENARIO(spawn_null) {
  uthread_spawn(nullptr, nullptr);
  return Survived();
}

WUC_SCENARIO(unpark_null) {
  wuc_unpark(nullptr);
  return Survived();
}

extern "C" void misuse_set_flag(void *flag) { static_cast<std::atomic<bool> *>(flag)->store(true); }

// One worker: once main is back from a yield after the thread set its flag,
// the thread has exited (its exit completes before main resumes).
WUC_SCENARIO(unpark_finished) {
  static std::atomic<bool> ran{false};
  uthread_t *t = uthread_spawn(misuse_set_flag, &ran);
  while (!ran.load()) uthread_yield();
  uthread_yield();
  wuc_unpark(t);
  return Survived();
}

void ParkInFire(wuc_timer *) { wuc_park("test: in timer", nullptr); }

// The timer fires from the worker's scheduler while main sleeps.
WUC_SCENARIO(park_in_timer_callback_from_scheduler) {
  static wuc_timer t;
  wuc_timer_start(&t, wuc_now() + microseconds(100), ParkInFire);
  uthread_sleep(milliseconds(50));
  return Survived();
}

// The timer fires while main switches away in uthread_yield (the worker
// runs due timers there too).
WUC_SCENARIO(park_in_timer_callback_from_yield) {
  static wuc_timer t;
  int64_t deadline = wuc_now() + microseconds(100);
  wuc_timer_start(&t, deadline, ParkInFire);
  while (wuc_now() < deadline + milliseconds(50)) uthread_yield();
  return Survived();
}

WUC_SCENARIO(set_processors_after_spawn) {
  uthread_join(uthread_spawn(misuse_noop, nullptr));
  wuc_set_processors(1);
  return Survived();
}

WUC_SCENARIO(set_processors_too_many) {
  wuc_set_processors(257);
  return Survived();
}

WUC_SCENARIO(timer_cancel_never_started) {
  wuc_timer t{};
  wuc_timer_cancel(&t);
  return Survived();
}

WUC_SCENARIO(timer_start_null_fire) {
  wuc_timer t{};
  wuc_timer_start(&t, wuc_now(), nullptr);
  return Survived();
}

// The thread API from a kernel thread the runtime does not know.
WUC_SCENARIO(spawn_from_foreign_thread) {
  std::thread([] { uthread_spawn(misuse_noop, nullptr); }).join();
  return Survived();
}

// A blocking channel operation from such a thread is told its own name.
WUC_SCENARIO(recv_from_foreign_thread) {
  static wuc_chan ch;
  std::thread([] {
    int v = 0;
    wuc_chan_recv(&ch, &v, sizeof v);
  }).join();
  return Survived();
}

WUC_SCENARIO(send_from_foreign_thread) {
  static wuc_chan ch;
  std::thread([] {
    int v = 1;
    wuc_chan_send(&ch, &v, sizeof v);
  }).join();
  return Survived();
}

WUC_SCENARIO(timer_start_from_foreign_thread) {
  static wuc_timer t;
  std::thread([] { wuc_timer_start(&t, wuc_now(), NeverFires); }).join();
  return Survived();
}

WUC_SCENARIO(park_from_foreign_thread) {
  std::thread([] { wuc_park("test: foreign", nullptr); }).join();
  return Survived();
}

// Spawns and joins a thread and says how many workers there are.
WUC_SCENARIO(spawn_one) {
  uthread_join(uthread_spawn(misuse_noop, nullptr));
  std::printf("workers %u\n", wuc_processors());
  return 0;
}

WUC_SCENARIO(abort_on_fatal) {
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core); // the abort is expected: no core file
  wuc_unpark(nullptr);
  return Survived();
}

namespace {

const std::string kMain = "user thread 1 (main)";

std::string SpawnedThread(const ChildResult &r, const char *fn) {
  return std::string("user thread 2 (") + fn + ", spawned at " + Where(Facts(r)["spawn"]) +
         " by thread 1)";
}

TEST(Misuse, JoinTwice) {
  auto r = RunScenario("join_twice", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r,
              "uthread_join at " + Where(Facts(r)["join"]) + ": " + Facts(r)["handle"] +
                  " is not a live thread handle (was it joined already?)",
              kMain);
}

TEST(Misuse, TwoJoiners) {
  auto r = RunScenario("two_joiners", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r,
              "uthread_join at " + Where(Facts(r)["join"]) +
                  ": user thread 2 is already being joined by user thread 3",
              kMain);
}

TEST(Misuse, JoinSelf) {
  auto r = RunScenario("join_self", {{"WUC_PROCESSORS", "2"}});
  ExpectFatal(
      r, "uthread_join at " + Where(std::to_string(kJoinSelfLine)) + ": user thread 2 joins itself",
      SpawnedThread(r, "misuse_join_self"));
}

TEST(Misuse, MainJoinsItself) {
  auto r = RunScenario("main_joins_itself");
  ExpectFatal(r, "uthread_join at " + Where(Facts(r)["join"]) + ": user thread 1 joins itself",
              kMain);
}

TEST(Misuse, JoinMain) {
  auto r = RunScenario("join_main", {{"WUC_PROCESSORS", "2"}});
  ExpectFatal(r,
              "uthread_join at " + Where(std::to_string(kJoinMainLine)) +
                  ": user thread 1 (main) cannot be joined; returning from main ends the "
                  "program",
              SpawnedThread(r, "misuse_join_main"));
}

TEST(Misuse, JoinNull) {
  auto r = RunScenario("join_null");
  ExpectFatal(r, "uthread_join at " + Where(Facts(r)["join"]) + ": NULL thread handle", kMain);
}

TEST(Misuse, SpawnNull) {
  ExpectFatal(RunScenario("spawn_null"), "uthread_spawn: NULL thread function", kMain);
}

TEST(Misuse, UnparkNull) { ExpectFatal(RunScenario("unpark_null"), "wuc_unpark(NULL)", kMain); }

TEST(Misuse, UnparkFinishedThread) {
  auto r = RunScenario("unpark_finished", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, "wuc_unpark: user thread 2 has already finished", kMain);
}

const std::string kParkInTimer =
    "wuc_park(\"test: in timer\") called outside a user thread (e.g. in a timer callback)";

TEST(Misuse, ParkInTimerCallbackFromScheduler) {
  auto r = RunScenario("park_in_timer_callback_from_scheduler", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, kParkInTimer, "a timer callback on worker 0");
}

TEST(Misuse, ParkInTimerCallbackRunDuringYield) {
  auto r = RunScenario("park_in_timer_callback_from_yield", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, kParkInTimer, ""); // the thread line names whichever context ran the timer
}

TEST(Misuse, SetProcessorsAfterSpawn) {
  auto r = RunScenario("set_processors_after_spawn", {{"WUC_PROCESSORS", "2"}});
  ExpectFatal(r,
              "wuc_set_processors(1) called after the first uthread_spawn; 2 workers already run",
              kMain);
}

TEST(Misuse, SetProcessorsTooMany) {
  ExpectFatal(RunScenario("set_processors_too_many"),
              "wuc_set_processors(257): at most 256 workers are supported", kMain);
}

TEST(Misuse, CancelATimerNeverStarted) {
  auto r = RunScenario("timer_cancel_never_started");
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex("^wuc: fatal: wuc_timer_cancel: timer 0x[0-9a-f]+ was never started\n")))
      << r.Describe();
}

TEST(Misuse, StartATimerWithoutFire) {
  ExpectFatal(RunScenario("timer_start_null_fire"), "wuc_timer_start: NULL fire function", kMain);
}

const std::string kForeign = "a kernel thread that is not a wuc worker";

TEST(Misuse, SpawnFromAForeignKernelThread) {
  ExpectFatal(RunScenario("spawn_from_foreign_thread"),
              "uthread_spawn called outside a user thread", kForeign);
}

TEST(Misuse, ChannelCallsFromAForeignKernelThreadNameThemselves) {
  ExpectFatal(RunScenario("recv_from_foreign_thread"), "chan_recv called outside a user thread",
              kForeign);
  ExpectFatal(RunScenario("send_from_foreign_thread"), "chan_send called outside a user thread",
              kForeign);
}

TEST(Misuse, ParkFromAForeignKernelThread) {
  ExpectFatal(RunScenario("park_from_foreign_thread"),
              "wuc_park(\"test: foreign\") called outside a user thread (e.g. in a timer callback)",
              kForeign);
}

TEST(Misuse, StartATimerFromAForeignKernelThread) {
  ExpectFatal(RunScenario("timer_start_from_foreign_thread"),
              "wuc_timer_start called outside the wuc runtime", kForeign);
}

TEST(Misuse, AbortInsteadOfExitWithWucAbort) {
  auto r = RunScenario("abort_on_fatal", {{"WUC_ABORT", "1"}});
  EXPECT_FALSE(r.exited) << r.Describe();
  EXPECT_EQ(r.signal, SIGABRT) << r.Describe();
  EXPECT_EQ(r.err.rfind("wuc: fatal: wuc_unpark(NULL)\n", 0), 0u) << r.Describe();
}

// ---- fork ---------------------------------------------------------------------
//
// After the first spawn, the child of a fork() has none of the runtime's
// other kernel threads: every call there that would block, wake or start a
// thread, or change an object, stops it with a message naming the call
// (docs/runtime.md, 'fork').  The parent's runtime goes on.  Before the first
// spawn, the child's runtime is whole.

namespace {

// What the child calls, by $WUC_TEST_FORK_CALL.
void CallInForkChild(const std::string &call) {
  static wuc_chan ch; // rendezvous, nobody sends: a receive would wait
  static latch unset;
  static report_future empty;
  static semaphore sem;
  static owner_lock lock;
  int v = 1;
  if (call == "chan_recv") wuc_chan_recv(&ch, &v, sizeof v);
  if (call == "chan_try_send") wuc_chan_try_send(&ch, &v, sizeof v);
  if (call == "latch_wait") latch_wait(&unset);
  if (call == "latch_set") latch_set(&unset);
  if (call == "future_get") v = future_get(&empty);
  if (call == "future_set") future_set(&empty, 1);
  if (call == "semaphore_acquire") semaphore_acquire(&sem);
  if (call == "semaphore_try_acquire") semaphore_try_acquire(&sem);
  if (call == "semaphore_release") semaphore_release(&sem);
  if (call == "lock_acquire") lock_acquire(&lock);
  if (call == "lock_try_acquire") lock_try_acquire(&lock);
  if (call == "uthread_spawn") uthread_spawn(misuse_noop, nullptr);
  if (call == "uthread_yield") uthread_yield();
  if (call == "uthread_sleep") uthread_sleep(milliseconds(1));
  if (call == "uthread_self") uthread_self();
  if (call == "wuc_set_processors") wuc_set_processors(1);
}

// Forks; the child makes the call and would print "survived"; the parent
// waits for it, then checks that its own runtime still works.
void ForkAndCall() {
  const char *env = std::getenv("WUC_TEST_FORK_CALL");
  std::string call = env ? env : "";
  std::fflush(stdout); // the child's exit flushes its copy of the buffer
  pid_t pid = fork();
  if (pid == 0) {
    CallInForkChild(call);
    std::printf("survived\n");
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::printf("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

} // namespace

extern "C" void fork_in_thread(void *) { ForkAndCall(); }

WUC_SCENARIO(fork_then_call) {
  // Workers run before the fork (the first spawn starts them).
  static wuc_chan ch;
  uthread_t *t = uthread_spawn(
      [](void *) {
        int v = 5;
        wuc_chan_send(&ch, &v, sizeof v);
      },
      nullptr);
  ForkAndCall();
  int v = 0; // the parent's runtime goes on
  wuc_chan_recv(&ch, &v, sizeof v);
  uthread_join(t);
  std::printf("parent got %d\n", v);
  return 0;
}

extern "C" void fork_child_sender(void *ch) {
  int v = 9;
  wuc_chan_send(static_cast<wuc_chan *>(ch), &v, sizeof v);
}

// main forks before any spawn; the child spawns, receives from its thread,
// and then waits for good: its deadlock report (its kernel thread, a new
// one, must count as its worker, not as a kernel thread outside it).
WUC_SCENARIO(fork_before_the_first_spawn) {
  static wuc_chan ch;
  static latch never;
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    uthread_t *t = uthread_spawn(fork_child_sender, &ch);
    int v = 0;
    wuc_chan_recv(&ch, &v, sizeof v);
    uthread_join(t);
    std::printf("child got %d on %u workers\n", v, wuc_processors());
    std::fflush(stdout);
    latch_wait(&never);
    return Survived();
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::printf("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  uthread_t *t = uthread_spawn(fork_child_sender, &ch); // and the parent's runtime works
  int v = 0;
  wuc_chan_recv(&ch, &v, sizeof v);
  uthread_join(t);
  std::printf("parent got %d\n", v);
  return 0;
}

WUC_SCENARIO(fork_in_a_thread) {
  Fact("spawn", __LINE__ + 1);
  uthread_t *t = uthread_spawn(fork_in_thread, nullptr);
  uthread_join(t);
  return 0;
}

#if defined(__SANITIZE_THREAD__)
#define REPORT_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define REPORT_TEST_TSAN 1
#endif
#endif

namespace {

std::string ForkMessage(const std::string &call, const std::string &forker) {
  return "wuc: fatal: " + call +
         " called in the child of a fork() made after the first uthread_spawn: the wuc runtime "
         "runs only in the parent (fork before it, exec a program in the child, or use "
         "posix_spawn)\n  in a child process forked by " +
         forker + "\n";
}

TEST(Misuse, ChannelReceiveInAForkChild) {
  for (const char *workers : {"1", "2", "4"}) {
    SCOPED_TRACE(workers);
    auto r = RunScenario("fork_then_call",
                         {{"WUC_PROCESSORS", workers}, {"WUC_TEST_FORK_CALL", "chan_recv"}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out, "child exited 2\nparent got 5\n") << r.Describe();
    EXPECT_EQ(r.err, ForkMessage("a channel operation", kMain)) << r.Describe();
  }
}

TEST(Misuse, AnyCallInAForkChild) {
  const std::map<std::string, std::string> calls = {
      {"chan_try_send", "a channel operation"},
      {"latch_wait", "latch_wait"},
      {"latch_set", "latch_set"},
      {"future_get", "future_get"},
      {"future_set", "future_set"},
      {"semaphore_acquire", "semaphore_acquire"},
      {"semaphore_try_acquire", "semaphore_try_acquire"},
      {"semaphore_release", "semaphore_release"},
      {"lock_acquire", "lock_acquire"},
      {"lock_try_acquire", "lock_try_acquire"},
      {"uthread_spawn", "uthread_spawn"},
      {"uthread_yield", "uthread_yield"},
      {"uthread_sleep", "uthread_sleep"},
      {"uthread_self", "uthread_self"},
      {"wuc_set_processors", "wuc_set_processors"},
  };
  for (const auto &[call, named] : calls) {
    SCOPED_TRACE(call);
    auto r = RunScenario("fork_then_call", {{"WUC_PROCESSORS", "2"}, {"WUC_TEST_FORK_CALL", call}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out, "child exited 2\nparent got 5\n") << r.Describe();
    EXPECT_EQ(r.err, ForkMessage(named, kMain)) << r.Describe();
  }
}

TEST(Report, ForkBeforeTheFirstSpawnLeavesTheChildARuntime) {
#ifdef REPORT_TEST_TSAN
  // ThreadSanitizer counts the runtime's fibers as threads, takes the fork for
  // one of a multi-threaded process, and kills the child at its first
  // pthread_create.
  GTEST_SKIP() << "ThreadSanitizer refuses new threads after a multi-threaded fork";
#endif
  for (const char *workers : {"1", "2", "4"}) {
    SCOPED_TRACE(workers);
    auto r = RunScenario("fork_before_the_first_spawn", {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out,
              std::string("child got 9 on ") + workers + " workers\nchild exited 2\nparent got 9\n")
        << r.Describe();
    EXPECT_TRUE(std::regex_match(
        r.err, std::regex("wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                          "  user thread 1 \\(main\\)\n"
                          "    waits in latch_wait on \\S+ at .*report_test.cc:[0-9]+\n")))
        << r.Describe();
  }
}

TEST(Misuse, ForkChildNamesTheForkingThread) {
  auto r = RunScenario("fork_in_a_thread",
                       {{"WUC_PROCESSORS", "2"}, {"WUC_TEST_FORK_CALL", "latch_wait"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  EXPECT_EQ(r.err, ForkMessage("latch_wait", SpawnedThread(r, "fork_in_thread"))) << r.Describe();
}

} // namespace

// ---- durations ------------------------------------------------------------------

WUC_SCENARIO(timeout_of_nan) {
  volatile double zero = 0.0;
  wuc_timeout t = wuc_timeout_make(zero / zero);
  (void)t;
  return Survived();
}

WUC_SCENARIO(sleep_of_nan) {
  Fact("sleep", __LINE__ + 1);
  uthread_sleep(std::nan(""));
  return Survived();
}

// A sleep beyond the clock's range never ends; it starts no timer, so main
// alone in it is a deadlock (before, it returned at once).
WUC_SCENARIO(sleep_for_ever) {
  Fact("sleep", __LINE__ + 1);
  uthread_sleep(1e19);
  return Survived();
}

WUC_SCENARIO(sleep_of_int64_max) {
  uthread_sleep(INT64_MAX);
  return Survived();
}

namespace {

TEST(Misuse, DurationThatIsNaN) {
  ExpectFatal(RunScenario("timeout_of_nan"), "timeout: the duration is NaN (not a number)", kMain);
  auto r = RunScenario("sleep_of_nan");
  ExpectFatal(
      r, "uthread_sleep at " + Where(Facts(r)["sleep"]) + ": the duration is NaN (not a number)",
      kMain);
}

TEST(Report, SleepBeyondTheClockIsForEver) {
  auto r = RunScenario("sleep_for_ever", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, "wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                   "  user thread 1 (main)\n"
                   "    waits in uthread_sleep at " +
                       Where(Facts(r)["sleep"]) + "\n")
      << r.Describe();
  r = RunScenario("sleep_of_int64_max", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err.rfind("wuc: deadlock: all 1 user threads are blocked", 0), 0u) << r.Describe();
}

} // namespace

// ---- environment ----------------------------------------------------------------

TEST(Environment, BadProcessorCounts) {
  for (const char *value : {"abc", "0", "-3", "257", "4x", "1.5"}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_PROCESSORS", value}});
    ExpectFatal(
        r, std::string("WUC_PROCESSORS=") + value + ": expected a number of workers from 1 to 256",
        "the wuc runtime starts up");
  }
}

TEST(Environment, BadStealAges) {
  for (const char *value : {"abc", "-1", "1000001", "5us", "99999999999999999999"}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_PROCESSORS", "2"}, {"WUC_STEAL_AGE", value}});
    ExpectFatal(r,
                std::string("WUC_STEAL_AGE=") + value +
                    ": expected how long work waits before another worker takes it, in "
                    "microseconds from 0 to 1000000",
                "user thread 1 (main)");
  }
}

TEST(Environment, GoodStealAges) {
  for (const char *value : {"0", "100", "1000000", ""}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_PROCESSORS", "2"}, {"WUC_STEAL_AGE", value}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out, "workers 2\n");
  }
}

TEST(Environment, GoodProcessorCounts) {
  for (const char *value : {"1", "3", "256"}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_PROCESSORS", value}});
    EXPECT_TRUE(ExitedWith(r, 0));
    EXPECT_EQ(r.out, std::string("workers ") + value + "\n");
  }
}

TEST(Environment, BadStackSizes) {
  // Signs and spaces are not sizes (strtoull took "-18446744073709486080" for
  // 64k); the last four do not fit in 64 bits, and the last three used to
  // wrap to 64k, 16m and 1g.
  for (const char *value :
       {"abc", "1k", "16383", "2g", "16q", "64kx", "k", "-1", "-18446744073709486080", "+64k",
        " 64k", "18446744073709551616", "18014398509482048k", "17592186044432m", "17179869185g"}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_STACK_SIZE", value}});
    ExpectFatal(r,
                std::string("WUC_STACK_SIZE=") + value +
                    ": expected a size from 16k to 1g (bytes, or with a k, m or g suffix)",
                "the wuc runtime starts up");
  }
}

TEST(Environment, GoodStackSizes) {
  for (const char *value : {"16k", "16384", "64KB", "1m", "1g"}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_STACK_SIZE", value}, {"WUC_PROCESSORS", "2"}});
    EXPECT_TRUE(ExitedWith(r, 0));
  }
}

TEST(Environment, BadStackGuard) {
  for (const char *value : {"none", "MPROTECT", "mprotect "}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_STACK_GUARD", value}});
    ExpectFatal(r, std::string("WUC_STACK_GUARD=") + value + ": expected madvise or mprotect",
                "the wuc runtime starts up");
  }
}

// mprotect guards: separate mappings, so gdb's generate-core-file keeps the
// stacks (docs/debugging.md); a thread still runs on its stack.
TEST(Environment, GoodStackGuards) {
  for (const char *value : {"madvise", "mprotect", ""}) {
    SCOPED_TRACE(value);
    auto r = RunScenario("spawn_one", {{"WUC_STACK_GUARD", value}, {"WUC_PROCESSORS", "2"}});
    EXPECT_TRUE(ExitedWith(r, 0));
  }
}

} // namespace

// ---- what a waituntil clause on a descriptor waits on --------------------------
//
// No deadlock is reported while a thread waits on a descriptor (docs/io.md), so
// the fd line of the report's format is checked on the describer itself, with
// a clause built as lowered C builds it (report_probe.c).

extern "C" void report_probe_describe_fd_clause(int fd, unsigned events, char *buf, unsigned size);

namespace {

std::string DescribeFdClause(int fd, unsigned events) {
  char buf[256];
  report_probe_describe_fd_clause(fd, events, buf, sizeof buf);
  return buf;
}

TEST(Report, FdClausesNameTheDescriptorAndItsKind) {
  int p[2], s[2];
  ASSERT_EQ(pipe(p), 0);
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
  FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(DescribeFdClause(p[0], WUC_FD_READABLE),
            "fd " + std::to_string(p[0]) + " readable (pipe)");
  EXPECT_EQ(DescribeFdClause(s[1], WUC_FD_WRITABLE),
            "fd " + std::to_string(s[1]) + " writable (socket)");
  EXPECT_EQ(DescribeFdClause(fileno(file), WUC_FD_READABLE),
            "fd " + std::to_string(fileno(file)) + " readable (file)");
  int closed = p[1];
  close(closed);
  EXPECT_EQ(DescribeFdClause(closed, WUC_FD_WRITABLE),
            "fd " + std::to_string(closed) + " writable (not open)");
  close(p[0]);
  close(s[0]);
  close(s[1]);
  std::fclose(file);
}

} // namespace
