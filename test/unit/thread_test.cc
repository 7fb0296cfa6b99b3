// thread_test.cc — spawn, join, yield, self, ids and sleep.
#include <gtest/gtest.h>

#include <park.h>
#include <wuc.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "runtime_probe.h"
#include "scenario.h"
#include "spin.h"
#include "subprocess.h"

namespace {

using wuc_test::ExitedWith;
using wuc_test::RunScenario;

TEST(Thread, MainIsUserThreadOne) {
  EXPECT_EQ(uthread_id(uthread_self()), 1u);
  EXPECT_GE(wuc_processors(), 1u);
}

void CountRun(void *arg) { static_cast<std::atomic<int> *>(arg)->fetch_add(1); }

// 100,000 threads, spawned and joined in batches (a batch at a time stays
// under vm.max_map_count on kernels whose stack guards cost VMAs).
TEST(Thread, HundredThousandThreadsEachRunExactlyOnce) {
  constexpr int kThreads = 100000, kBatch = 10000;
  std::vector<std::atomic<int>> runs(kThreads);
  std::vector<uthread_t *> batch(kBatch);
  unsigned long last_id = uthread_id(uthread_self());
  for (int first = 0; first < kThreads; first += kBatch) {
    for (int i = 0; i < kBatch; i++) {
      batch[i] = uthread_spawn(CountRun, &runs[first + i]);
      unsigned long id = uthread_id(batch[i]);
      ASSERT_GT(id, last_id) << "ids grow in spawn order";
      last_id = id;
    }
    for (int i = 0; i < kBatch; i++) uthread_join(batch[i]);
  }
  int wrong = 0;
  for (int i = 0; i < kThreads; i++)
    if (runs[i].load() != 1) wrong++;
  EXPECT_EQ(wrong, 0) << "threads that did not run exactly once";
}

// A tree of threads, each spawning and joining its children: spawns and
// joins from every worker, of threads running anywhere.
struct TreeNode {
  int depth;
  std::atomic<long> *leaves;
};

void GrowTree(void *arg) {
  auto *node = static_cast<TreeNode *>(arg);
  if (node->depth == 0) {
    node->leaves->fetch_add(1);
    return;
  }
  TreeNode children[2] = {{node->depth - 1, node->leaves}, {node->depth - 1, node->leaves}};
  uthread_t *t0 = uthread_spawn(GrowTree, &children[0]);
  uthread_t *t1 = uthread_spawn(GrowTree, &children[1]);
  uthread_join(t1); // the later one first: sometimes finished, sometimes not
  uthread_join(t0);
}

TEST(Thread, NestedSpawnAndJoinFromEveryThread) {
  std::atomic<long> leaves{0};
  TreeNode root{14, &leaves};
  uthread_t *t = uthread_spawn(GrowTree, &root);
  uthread_join(t);
  EXPECT_EQ(leaves.load(), 1L << 14);
}

struct SelfCheck {
  std::atomic<uintptr_t> seen_self{0};
  std::atomic<unsigned long> seen_id{0};
};

void RecordSelf(void *arg) {
  auto *c = static_cast<SelfCheck *>(arg);
  c->seen_self = reinterpret_cast<uintptr_t>(uthread_self());
  c->seen_id = uthread_id(uthread_self());
}

TEST(Thread, SelfIsTheSpawnedHandle) {
  SelfCheck check;
  uthread_t *t = uthread_spawn(RecordSelf, &check);
  const uintptr_t handle = reinterpret_cast<uintptr_t>(t);
  const unsigned long id = uthread_id(t);
  uthread_join(t);
  EXPECT_EQ(check.seen_self.load(), handle);
  EXPECT_EQ(check.seen_id.load(), id);
}

TEST(Thread, YieldAloneReturns) {
  for (int i = 0; i < 1000; i++) uthread_yield();
}

// ---- ordering on one worker ----------------------------------------------

struct Log {
  std::atomic<int> len{0};
  char text[64] = {};
  void Add(char c) { text[len.fetch_add(1)] = c; }
};

struct Yielder {
  char name;
  Log *log;
};

void LogAndYield(void *arg) {
  auto *y = static_cast<Yielder *>(arg);
  for (int i = 0; i < 3; i++) {
    y->log->Add(y->name);
    uthread_yield();
  }
}

// Yield sends the thread to the back of its worker's FIFO queue.
WUC_SCENARIO(yield_round_robin) {
  static Log log;
  static Yielder y[3] = {{'A', &log}, {'B', &log}, {'C', &log}};
  uthread_t *t[3];
  for (int i = 0; i < 3; i++) t[i] = uthread_spawn(LogAndYield, &y[i]);
  for (int i = 0; i < 3; i++) uthread_join(t[i]);
  SCENARIO_CHECK(std::string(log.text) == "ABCABCABC", "order %s", log.text);
  return 0;
}

TEST(Thread, YieldInterleavesInFifoOrderOnOneWorker) {
  auto r = RunScenario("yield_round_robin", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

struct Waiter {
  std::atomic<bool> go{false};
  std::atomic<bool> parked_once{false};
  Log *log;
  char name;
};

void WaitForGo(void *arg) {
  auto *w = static_cast<Waiter *>(arg);
  w->parked_once = true;
  while (!w->go) wuc_park("test: wait for go", w);
  w->log->Add(w->name);
}

void LogOnce(void *arg) {
  auto *y = static_cast<Yielder *>(arg);
  y->log->Add(y->name);
}

// A thread woken by a user thread runs next on the waker's worker, ahead of
// the threads already queued there.
WUC_SCENARIO(unpark_hands_off_before_queue) {
  static Log log;
  static Waiter w{};
  w.log = &log;
  w.name = 'W';
  static Yielder q1{'1', &log}, q2{'2', &log};
  uthread_t *waiter = uthread_spawn(WaitForGo, &w);
  while (!w.parked_once) uthread_yield(); // one worker: it is parked when we are back
  uthread_t *t1 = uthread_spawn(LogOnce, &q1);
  uthread_t *t2 = uthread_spawn(LogOnce, &q2);
  w.go = true;
  wuc_unpark(waiter);
  uthread_join(waiter);
  uthread_join(t1);
  uthread_join(t2);
  SCENARIO_CHECK(std::string(log.text) == "W12", "order %s", log.text);
  return 0;
}

TEST(Thread, WokenThreadRunsBeforeQueuedOnesOnOneWorker) {
  auto r = RunScenario("unpark_hands_off_before_queue", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// A joiner woken by an exit runs next, ahead of the threads queued on the
// worker (a hand-off: the exit takes no successor of its own then,
// scheduler.c, "a thread's exit"), so a recursive fork-join stays depth
// first: joining A of A, B, C on one worker resumes between A and B.
WUC_SCENARIO(exit_hands_off_to_joiner) {
  static Log log;
  static Yielder a{'A', &log}, b{'B', &log}, c{'C', &log};
  uthread_t *ta = uthread_spawn(LogOnce, &a);
  uthread_t *tb = uthread_spawn(LogOnce, &b);
  uthread_t *tc = uthread_spawn(LogOnce, &c);
  uthread_join(ta);
  log.Add('M');
  uthread_join(tb);
  uthread_join(tc);
  SCENARIO_CHECK(std::string(log.text) == "AMBC", "order %s", log.text);
  return 0;
}

TEST(Thread, ExitHandsOffToAWaitingJoinerOnOneWorker) {
  auto r = RunScenario("exit_hands_off_to_joiner", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// ---- worker count -----------------------------------------------------------

// wuc_set_processors works until the first spawn; 0 means the default
// ($WUC_PROCESSORS here).
WUC_SCENARIO(set_processors_before_first_spawn) {
  SCENARIO_CHECK(wuc_processors() == 2, "%u workers from $WUC_PROCESSORS", wuc_processors());
  wuc_set_processors(3);
  SCENARIO_CHECK(wuc_processors() == 3, "%u workers after setting 3", wuc_processors());
  wuc_set_processors(0);
  SCENARIO_CHECK(wuc_processors() == 2, "%u workers after setting 0", wuc_processors());
  wuc_set_processors(3);
  static std::atomic<int> runs{0};
  uthread_join(uthread_spawn(CountRun, &runs));
  SCENARIO_CHECK(wuc_processors() == 3, "%u workers running", wuc_processors());
  return 0;
}

TEST(Thread, SetProcessorsBeforeTheFirstSpawn) {
  auto r = RunScenario("set_processors_before_first_spawn", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// ---- handles in their stacks' slots ----------------------------------------

// A handle lives in its stack's slot (runtime/stack.h, "The slot") and must
// outlive the stack: a thread not joined yet leaves its handle there while
// its stack runs other threads (their handles then come from malloc) and
// while the monitor gives the pooled stack's pages back.  600 threads: more
// than the pool keeps committed (256) plus the workers' caches, so the trim
// takes most of their stacks.
WUC_SCENARIO(handles_outlive_their_stacks) {
  constexpr int kThreads = 600;
  std::atomic<int> runs{0};
  auto spawn_all = [&](std::vector<uthread_t *> &out) {
    for (auto &t : out) t = uthread_spawn(CountRun, &runs);
  };
  auto await_exits = [&](const std::vector<uthread_t *> &ts) {
    for (auto *t : ts)
      while (!probe_has_exited(t)) uthread_sleep(microseconds(100));
    uthread_sleep(milliseconds(2)); // one worker: the last exit's switch is done
  };
  // One worker, no blocking while spawning: each thread gets a fresh stack.
  std::vector<uthread_t *> first(kThreads), second(kThreads), third(kThreads);
  std::vector<unsigned long> ids(kThreads);
  std::set<const void *> first_stacks;
  spawn_all(first);
  for (int i = 0; i < kThreads; i++) {
    SCENARIO_CHECK(probe_handle_in_slot(first[i]), "handle %d of a fresh stack not in its slot", i);
    ids[i] = uthread_id(first[i]);
    first_stacks.insert(probe_stack_of(first[i]));
  }
  await_exits(first);
  // Their stacks again, with the slots still held by unjoined handles.
  spawn_all(second);
  int reused = 0;
  for (int i = 0; i < kThreads; i++) {
    if (!first_stacks.count(probe_stack_of(second[i]))) continue;
    reused++;
    SCENARIO_CHECK(!probe_handle_in_slot(second[i]), "thread %d took a held slot", i);
  }
  SCENARIO_CHECK(reused == kThreads, "%d of %d stacks reused", reused, kThreads);
  await_exits(second);
  for (auto *t : second) uthread_join(t); // malloc'd handles
  int calls = probe_trim_stacks();
  SCENARIO_CHECK(calls > 0, "nothing to trim");
  // The unjoined handles survived the reuse and the trim.
  for (int i = 0; i < kThreads; i++)
    SCENARIO_CHECK(uthread_id(first[i]) == ids[i], "handle %d: id %lu, was %lu", i,
                   uthread_id(first[i]), ids[i]);
  for (int i = kThreads - 1; i >= 0; i--) uthread_join(first[i]);
  // Joined, the slots are free again.
  spawn_all(third);
  for (int i = 0; i < kThreads; i++)
    SCENARIO_CHECK(probe_handle_in_slot(third[i]), "thread %d: its slot was not freed", i);
  for (auto *t : third) uthread_join(t);
  SCENARIO_CHECK(runs.load() == 3 * kThreads, "%d runs", runs.load());
  return 0;
}

TEST(Thread, HandlesOutliveTheirStacksReuseAndTrim) {
  auto r = RunScenario("handles_outlive_their_stacks",
                       {{"WUC_PROCESSORS", "1"}, {"WUC_TIMESLICE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

// ---- returning from main ----------------------------------------------------

struct MainMoves {
  uthread_t *main_thread = nullptr;
  std::atomic<bool> woken{false};
  std::atomic<unsigned> waker_worker{~0u};
  std::atomic<bool> spinner_running{false};
};

// Wakes main once it is really parked, so main resumes on this worker, then
// blocks for good.
void WakeParkedMain(void *arg) {
  auto *m = static_cast<MainMoves *>(arg);
  m->waker_worker = probe_worker_id();
  for (uint32_t spins = 0; !probe_is_parked(m->main_thread);) wuc_test_spin_step(&spins);
  m->woken = true;
  wuc_unpark(m->main_thread);
  for (;;) wuc_park("test: forever", nullptr);
}

void SpinForever(void *arg) {
  static_cast<MainMoves *>(arg)->spinner_running = true;
  for (uint32_t spins = 0;;) wuc_test_spin_step(&spins);
}

// Main moves to worker 1 (woken by a thread there), leaves a thread parked
// for good and another computing for good, and returns: the program ends,
// with main's status and its buffered output, on worker 1's kernel thread.
WUC_SCENARIO(main_returns_on_another_worker) {
  static MainMoves m;
  m.main_thread = uthread_self();
  uthread_spawn(WakeParkedMain, &m);
  // Main keeps worker 0 until the waker runs, so it runs on worker 1.
  for (uint32_t spins = 0; m.waker_worker.load() == ~0u;) wuc_test_spin_step(&spins);
  while (!m.woken) wuc_park("test: wait to be moved", &m);
  unsigned worker = probe_worker_id();
  uthread_spawn(SpinForever, &m); // stolen by the idle worker 0
  for (uint32_t spins = 0; !m.spinner_running;) wuc_test_spin_step(&spins);
  std::printf("main returns on worker %u (waker on %u)\n", worker, m.waker_worker.load());
  return 42;
}

TEST(Thread, ReturningFromMainEndsTheProgram) {
  // WUC_TIMESLICE=0: main's spin must keep worker 0 (a preemption would run
  // the waker there).
  auto r = RunScenario(
      "main_returns_on_another_worker",
      {{"WUC_PROCESSORS", "2"}, {"WUC_TEST_RETURN_FROM_MAIN", "1"}, {"WUC_TIMESLICE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 42));
  EXPECT_EQ(r.out, "main returns on worker 1 (waker on 1)\n") << r.Describe();
}

// ---- sleep ---------------------------------------------------------------

TEST(Sleep, NeverWakesEarlierThanAsked) {
  for (duration_t d : {microseconds(1), microseconds(500), milliseconds(1), milliseconds(7)}) {
    int64_t start = wuc_now();
    uthread_sleep(d);
    EXPECT_GE(wuc_now() - start, d) << "asked for " << d << " ns";
  }
}

TEST(Sleep, ZeroAndNegativeReturnAtOnce) {
  uthread_sleep(0);
  uthread_sleep(-milliseconds(5));
  uthread_sleep(nanoseconds(-1));
}

struct Sleeper {
  duration_t d;
  int64_t slept;
};

void SleepAndMeasure(void *arg) {
  auto *s = static_cast<Sleeper *>(arg);
  int64_t start = wuc_now();
  uthread_sleep(s->d);
  s->slept = wuc_now() - start;
}

TEST(Sleep, ManyConcurrentSleepersNoneEarly) {
  constexpr int kThreads = 2000;
  std::mt19937 rng(12345);
  std::vector<Sleeper> sleepers(kThreads);
  std::vector<uthread_t *> threads(kThreads);
  for (int i = 0; i < kThreads; i++) {
    sleepers[i] = {microseconds(std::uniform_int_distribution<int>(1, 20000)(rng)), 0};
    threads[i] = uthread_spawn(SleepAndMeasure, &sleepers[i]);
  }
  for (auto *t : threads) uthread_join(t);
  int early = 0;
  for (auto &s : sleepers)
    if (s.slept < s.d) early++;
  EXPECT_EQ(early, 0);
}

struct Disturbed {
  uthread_t *thread = nullptr;
  int64_t slept = 0;
  std::atomic<bool> woke{false};
  std::atomic<bool> stop_unparking{false};
};

void SleepWhileDisturbed(void *arg) {
  auto *d = static_cast<Disturbed *>(arg);
  int64_t start = wuc_now();
  uthread_sleep(milliseconds(30));
  d->slept = wuc_now() - start;
  d->woke = true;
  // Stay alive until main has made its last wuc_unpark of us.
  while (!d->stop_unparking) uthread_sleep(microseconds(100));
}

// wuc_unpark of a sleeping thread is a spurious wake-up: the sleep goes on.
TEST(Sleep, SpuriousUnparksDoNotShortenIt) {
  Disturbed d;
  d.thread = uthread_spawn(SleepWhileDisturbed, &d);
  int unparks = 0;
  while (!d.woke) {
    wuc_unpark(d.thread);
    unparks++;
    uthread_sleep(microseconds(200));
  }
  d.stop_unparking = true;
  uthread_join(d.thread);
  EXPECT_GE(d.slept, milliseconds(30)) << "after " << unparks << " unparks";
}

// Sleepers wake in deadline order, whatever order they went to sleep in.
// One worker, so wake order is observable; the durations are 4 ms apart so
// that the few microseconds between the threads' starts cannot reorder them.
struct OrderedSleeper {
  int rank; // position by duration
  duration_t d;
  int64_t slept;
  std::atomic<int> *next_wake;
  int wake_position;
};

void SleepAndRecordOrder(void *arg) {
  auto *s = static_cast<OrderedSleeper *>(arg);
  int64_t start = wuc_now();
  uthread_sleep(s->d);
  s->slept = wuc_now() - start;
  s->wake_position = s->next_wake->fetch_add(1);
}

WUC_SCENARIO(sleepers_wake_in_deadline_order) {
  constexpr int kThreads = 16;
  static std::atomic<int> next_wake{0};
  static OrderedSleeper sleepers[kThreads];
  int order[kThreads];
  for (int i = 0; i < kThreads; i++) order[i] = i;
  std::shuffle(order, order + kThreads, std::mt19937(2024));
  uthread_t *threads[kThreads];
  for (int i = 0; i < kThreads; i++) {
    int rank = order[i];
    sleepers[i] = {rank, milliseconds(2 + 4 * rank), 0, &next_wake, -1};
    threads[i] = uthread_spawn(SleepAndRecordOrder, &sleepers[i]);
  }
  for (auto *t : threads) uthread_join(t);
  for (auto &s : sleepers) {
    SCENARIO_CHECK(s.wake_position == s.rank, "sleeper of %lld ns woke in position %d, not %d",
                   static_cast<long long>(s.d), s.wake_position, s.rank);
    SCENARIO_CHECK(s.slept >= s.d, "slept %lld ns, asked %lld", static_cast<long long>(s.slept),
                   static_cast<long long>(s.d));
  }
  return 0;
}

TEST(Sleep, SleepersWakeInDeadlineOrderOnOneWorker) {
  auto r = RunScenario("sleepers_wake_in_deadline_order", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

} // namespace
