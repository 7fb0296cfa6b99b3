// sched_test.cc — the scheduler: idle workers steal queued threads and
// threads left waiting in a busy worker's `next` slot, a full run queue
// spills to the global queue, hand-off pairs cannot starve the local or the
// global queue, a lone spawn is taken from a computing spawner, a thread
// asked to yield yields at its next blocking operation; the registry's walk.
#include <gtest/gtest.h>

#include <park.h>
#include <unistd.h>
#include <wuc.h>
#include <wuc/channel.h>
#include <wuc/io.h>

#include <atomic>
#include <cstdio>
#include <thread>

#include "runtime_probe.h"
#include "scenario.h"
#include "spin.h"
#include "subprocess.h"

namespace {

using wuc_test::ExitedWith;
using wuc_test::RunScenario;

constexpr int kStealThreads = 64;

struct StealState {
  std::atomic<bool> ran_on[2] = {{false}, {false}}; // some thread ran on worker 0 / 1
  std::atomic<int> runs[kStealThreads];
};

struct StealArg {
  StealState *state;
  int index;
};

// Occupies its worker, without blocking, until threads have run on both
// workers.  All threads start queued on worker 0 (main spawns them there),
// so the only way to finish is for worker 1 to steal some, and for worker 0
// to run some too (from its own queue, or stolen back) once main blocks.
void BusyUntilBothWorkersRan(void *arg) {
  auto *a = static_cast<StealArg *>(arg);
  StealState *s = a->state;
  s->runs[a->index].fetch_add(1);
  s->ran_on[probe_worker_id()] = true;
  for (uint32_t spins = 0; !s->ran_on[0].load() || !s->ran_on[1].load();)
    wuc_test_spin_step(&spins);
}

WUC_SCENARIO(idle_worker_steals) {
  static StealState state;
  static StealArg args[kStealThreads];
  uthread_t *threads[kStealThreads];
  SCENARIO_CHECK(probe_worker_id() == 0, "main starts on worker %u", probe_worker_id());
  for (int i = 0; i < kStealThreads; i++) {
    args[i] = {&state, i};
    threads[i] = uthread_spawn(BusyUntilBothWorkersRan, &args[i]);
  }
  for (auto *t : threads) uthread_join(t);
  for (int i = 0; i < kStealThreads; i++)
    SCENARIO_CHECK(state.runs[i].load() == 1, "thread %d ran %d times", i, state.runs[i].load());
  uint64_t run0 = probe_threads_run(0), run1 = probe_threads_run(1);
  uint64_t stolen0 = probe_threads_stolen(0), stolen1 = probe_threads_stolen(1);
  std::printf("worker 0: %llu run, %llu stolen; worker 1: %llu run, %llu stolen\n",
              static_cast<unsigned long long>(run0), static_cast<unsigned long long>(stolen0),
              static_cast<unsigned long long>(run1), static_cast<unsigned long long>(stolen1));
  SCENARIO_CHECK(run0 > 0 && run1 > 0, "a worker ran nothing");
  // Worker 1 has no other way to get its first thread.
  SCENARIO_CHECK(stolen1 > 0, "worker 1 ran threads without stealing any");
  return 0;
}

TEST(Scheduler, IdleWorkerStealsQueuedThreads) {
  auto r = RunScenario("idle_worker_steals", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// More runnable threads than a run queue holds (256): half of a full queue
// moves to the global queue, and comes back in batches.  Each thread runs
// exactly once (not strictly in spawn order: the spilled, older half waits
// in the global queue while the local queue goes on).
struct SpawnOrder {
  std::atomic<int> next{0};
  int position[5000];
};

struct OrderArg {
  SpawnOrder *order;
  int index;
};

void RecordPosition(void *arg) {
  auto *a = static_cast<OrderArg *>(arg);
  a->order->position[a->index] = a->order->next.fetch_add(1);
}

WUC_SCENARIO(run_queue_overflow) {
  constexpr int kThreads = 5000;
  static SpawnOrder order;
  static OrderArg args[kThreads];
  static uthread_t *threads[kThreads];
  for (int i = 0; i < kThreads; i++) {
    order.position[i] = -1;
    args[i] = {&order, i};
    threads[i] = uthread_spawn(RecordPosition, &args[i]);
  }
  for (auto *t : threads) uthread_join(t);
  SCENARIO_CHECK(order.next.load() == kThreads, "%d runs", order.next.load());
  int out_of_order = 0;
  for (int i = 0; i < kThreads; i++) {
    SCENARIO_CHECK(order.position[i] >= 0, "thread %d never ran", i);
    if (i > 0 && order.position[i] < order.position[i - 1]) out_of_order++;
  }
  std::printf("%d of %d threads ran before the one spawned just before them\n", out_of_order,
              kThreads);
  return 0;
}

TEST(Scheduler, RunQueueOverflowSpillsToTheGlobalQueueOneWorker) {
  auto r = RunScenario("run_queue_overflow", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

TEST(Scheduler, RunQueueOverflowSpillsToTheGlobalQueueTwoWorkers) {
  auto r = RunScenario("run_queue_overflow", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// The global queue is a ring that doubles when full: its threads come out in
// the order they went in, across wrap-arounds and growths while wrapped,
// through takes whose batches pass through the taker's local queue.
TEST(Scheduler, GlobalQueueKeepsItsOrderAcrossWrapAndGrowth) {
  long out = probe_global_runq_fifo(150);
  EXPECT_GT(out, 20000) << "the first thread out of order: " << -1 - out;
}

// A thread woken into its waker's `next` slot while the waker goes on
// computing (never blocking) is taken by the other worker once it has
// waited there long enough (scheduler.c, steal_stale_next): otherwise it
// would wait as long as the computation.  Here the waker spins until the
// woken thread has run, so without the rule the scenario hangs.
struct Stranded {
  std::atomic<bool> parked{false}, go{false}, ran{false};
  std::atomic<unsigned> ran_on{~0u};
};

void ParkUntilGo(void *arg) {
  auto *s = static_cast<Stranded *>(arg);
  s->parked = true;
  while (!s->go.load()) wuc_park("test: stranded", s);
  s->ran_on = probe_worker_id();
  s->ran = true;
}

WUC_SCENARIO(waiting_next_is_stolen) {
  static Stranded s;
  uthread_t *t = uthread_spawn(ParkUntilGo, &s);
  while (!s.parked.load()) uthread_yield();
  for (int i = 0; i < 1000; i++) uthread_yield(); // let it reach wuc_park
  s.go = true;
  unsigned waker_worker = probe_worker_id();
  wuc_unpark(t); // into this worker's `next`: would run here only once we block
  for (uint32_t spins = 0; !s.ran.load();) wuc_test_spin_step(&spins);
  SCENARIO_CHECK(s.ran_on.load() != waker_worker, "the woken thread ran on its waker's worker %u",
                 waker_worker);
  uthread_join(t);
  return 0;
}

TEST(Scheduler, WaitingNextThreadIsTakenFromABusyWorker) {
  auto r = RunScenario("waiting_next_is_stolen", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// WUC_STEAL_AGE=0: the same thread is taken as soon as another worker looks.
TEST(Scheduler, WaitingNextThreadIsTakenAtStealAgeZero) {
  auto r = RunScenario("waiting_next_is_stolen", {{"WUC_PROCESSORS", "2"}, {"WUC_STEAL_AGE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// Two threads that wake each other forever hand off through `next`; a third
// thread queued behind them must still get the worker (after a bounded
// streak of hand-offs).  It stops the pair.  One worker; a starved queue
// would hang, which the watchdog reports.
struct Pair {
  std::atomic<int> turn{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> stopper_done{false};
  std::atomic<long> turns{0};
  uthread_t *player[2] = {nullptr, nullptr};
  long turns_before_stop = -1;
};

struct PairArg {
  Pair *pair;
  int me;
};

void PlayUntilStopped(void *arg) {
  auto *a = static_cast<PairArg *>(arg);
  Pair *p = a->pair;
  for (;;) {
    while (p->turn.load() != a->me && !p->stop.load()) wuc_park("test: pair turn", p);
    if (p->stop.load()) break;
    p->turns.fetch_add(1);
    p->turn.store(1 - a->me);
    wuc_unpark(p->player[1 - a->me]);
  }
  while (!p->stopper_done.load()) uthread_yield(); // it may still unpark us
}

void StopThePair(void *arg) {
  auto *p = static_cast<Pair *>(arg);
  p->turns_before_stop = p->turns.load();
  p->stop = true;
  wuc_unpark(p->player[0]);
  wuc_unpark(p->player[1]);
  p->stopper_done = true;
}

WUC_SCENARIO(hand_off_pair_does_not_starve_queue) {
  static Pair pair;
  static PairArg args[2] = {{&pair, 0}, {&pair, 1}};
  pair.player[0] = uthread_spawn(PlayUntilStopped, &args[0]);
  pair.player[1] = uthread_spawn(PlayUntilStopped, &args[1]);
  uthread_t *stopper = uthread_spawn(StopThePair, &pair);
  uthread_join(stopper);
  uthread_join(pair.player[0]);
  uthread_join(pair.player[1]);
  std::printf("the queued thread ran after %ld hand-offs\n", pair.turns_before_stop);
  return 0;
}

TEST(Scheduler, HandOffPairDoesNotStarveTheQueue) {
  auto r = RunScenario("hand_off_pair_does_not_starve_queue", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// The same pair, and a thread made runnable by a foreign kernel thread: it
// waits in the global queue, which the hand-offs must not skip for good
// (the fairness turn every 61st schedule counts them: scheduler.h, "The
// hand-off").  It stops the pair; starved, the test hangs.
struct GlobalStopper {
  Pair *pair;
  std::atomic<bool> go{false};
};

void StopThePairWhenWoken(void *arg) {
  auto *g = static_cast<GlobalStopper *>(arg);
  while (!g->go.load()) wuc_park("test: woken from outside", g);
  StopThePair(g->pair);
}

WUC_SCENARIO(hand_off_pair_does_not_starve_global_queue) {
  static Pair pair;
  static PairArg args[2] = {{&pair, 0}, {&pair, 1}};
  static GlobalStopper g{&pair};
  uthread_t *stopper = uthread_spawn(StopThePairWhenWoken, &g);
  pair.player[0] = uthread_spawn(PlayUntilStopped, &args[0]);
  pair.player[1] = uthread_spawn(PlayUntilStopped, &args[1]);
  std::thread outside([stopper] {
    while (pair.turns.load() < 1000) usleep(100);
    g.go = true;
    wuc_unpark(stopper); /* from no worker: into the global queue */
  });
  uthread_join(stopper);
  uthread_join(pair.player[0]);
  uthread_join(pair.player[1]);
  outside.join();
  std::printf("the thread from outside ran after %ld hand-offs\n", pair.turns_before_stop);
  return 0;
}

TEST(Scheduler, HandOffPairDoesNotStarveTheGlobalQueue) {
  auto r = RunScenario("hand_off_pair_does_not_starve_global_queue", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// A lone spawn (nothing else waiting on the spawner's worker) wakes no
// worker while a lookout sleeps (uthread.c, spawn).  If the spawner then
// computes without a scheduling point, and preemption is off, the thread
// must still run: on the other worker, taken by the lookout.  Stranded, the
// spin below would go on until the check gives up (or the test's timeout).
struct LoneSpawn {
  std::atomic<bool> ran{false};
  std::atomic<unsigned> worker{~0u};
};

void RecordWorker(void *arg) {
  auto *s = static_cast<LoneSpawn *>(arg);
  s->worker = probe_worker_id();
  s->ran = true;
}

WUC_SCENARIO(lone_spawn_taken_while_spawner_computes) {
  static LoneSpawn warm_up, lone;
  uthread_join(uthread_spawn(RecordWorker, &warm_up)); // starts worker 1
  // Worker 1 goes to sleep as the lookout: main's worker stays busy.
  for (int64_t until = wuc_now() + milliseconds(20); wuc_now() < until;) __builtin_ia32_pause();
  uthread_t *t = uthread_spawn(RecordWorker, &lone);
  uint32_t spins = 0;
  for (int64_t give_up = wuc_now() + seconds(20); !lone.ran.load() && wuc_now() < give_up;)
    wuc_test_spin_step(&spins); // no scheduling point: sched_yield at most
  SCENARIO_CHECK(lone.ran.load(), "the spawned thread never ran while main computed");
  SCENARIO_CHECK(lone.worker.load() == 1, "it ran on worker %u", lone.worker.load());
  uthread_join(t);
  return 0;
}

TEST(Scheduler, LoneSpawnIsTakenWhileTheSpawnerComputes) {
  auto r = RunScenario("lone_spawn_taken_while_spawner_computes",
                       {{"WUC_PROCESSORS", "2"}, {"WUC_TIMESLICE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

void DoNothing(void *) {}

// A thread that the monitor asked to yield (it has run a slice:
// sysmon.c) yields at its next operation that may block, even if that
// operation does not block: a blocking channel operation or an I/O call
// (scheduler.h, wuc_blocking_op_start).  One worker, preemption off so that
// only the probe asks: the spawned thread can only run if main yields.
WUC_SCENARIO(asked_thread_yields_at_blocking_operation) {
  static std::atomic<int> ran{0};
  auto count_run = [](void *) { ran.fetch_add(1); };
  static WUC_CHANNEL_STRUCT(int_chan, int) ch; // zeroed, as chan_init wants
  wuc_chan_init(&ch.core, 1, sizeof(int));
  int value = 7;

  uthread_t *t = uthread_spawn(count_run, nullptr);
  wuc_chan_send(&ch.core, &value, sizeof value); // room: does not block
  SCENARIO_CHECK(ran.load() == 0, "the thread ran though nobody yielded");
  probe_ask_to_yield();
  wuc_chan_recv(&ch.core, &value, sizeof value); // an element: does not block
  SCENARIO_CHECK(ran.load() == 1, "chan_recv did not yield when asked");
  uthread_join(t);

  int fds[2];
  SCENARIO_CHECK(pipe(fds) == 0, "pipe");
  t = uthread_spawn(count_run, nullptr);
  SCENARIO_CHECK(wuc_write(fds[1], "x", 1) == 1, "wuc_write");
  SCENARIO_CHECK(ran.load() == 1, "the thread ran though nobody yielded");
  probe_ask_to_yield();
  char c;
  SCENARIO_CHECK(wuc_read(fds[0], &c, 1) == 1, "wuc_read"); // a byte: does not block
  SCENARIO_CHECK(ran.load() == 2, "wuc_read did not yield when asked");
  uthread_join(t);

  // A request for a thread that has switched since is stale: no yield.
  t = uthread_spawn(count_run, nullptr);
  probe_ask_to_yield();
  uthread_yield(); // runs t: the request was for the slice that ended here
  SCENARIO_CHECK(ran.load() == 3, "yield did not run the thread");
  uthread_t *u = uthread_spawn(count_run, nullptr);
  wuc_chan_send(&ch.core, &value, sizeof value);
  SCENARIO_CHECK(ran.load() == 3, "a stale request made chan_send yield");
  uthread_join(t);
  uthread_join(u);
  wuc_chan_destroy(&ch.core);
  close(fds[0]);
  close(fds[1]);
  return 0;
}

TEST(Scheduler, AskedThreadYieldsAtItsNextBlockingOperation) {
  auto r = RunScenario("asked_thread_yields_at_blocking_operation",
                       {{"WUC_PROCESSORS", "1"}, {"WUC_TIMESLICE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

// The registry is one list per worker (scheduler.h, "Registry"): the walk
// of the reports and schedtrace merges them, every live thread once and
// oldest first, whichever list each is on.
WUC_SCENARIO(registry_walk_merges_worker_lists) {
  uthread_join(uthread_spawn(DoNothing, nullptr)); // starts the workers
  static const unsigned on[] = {2, 1, 1, 0, 2, 2, 1, 0, 0, 2, 1};
  const char *why = probe_registry_walk(on, sizeof on / sizeof on[0]);
  SCENARIO_CHECK(why == nullptr, "%s", why);
  return 0;
}

TEST(Scheduler, RegistryWalkMergesTheWorkersLists) {
  auto r = RunScenario("registry_walk_merges_worker_lists", {{"WUC_PROCESSORS", "3"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

} // namespace
