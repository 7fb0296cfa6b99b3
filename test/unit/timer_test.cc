// timer_test.cc — one-shot timers: cancel before and after firing, stale
// cancels of reused slots, firing order, a million start/cancel pairs, and
// cancels from another worker racing with the owner's firing.
#include <gtest/gtest.h>

#include <clock.h>
#include <park.h>
#include <timer.h>
#include <wuc.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <random>
#include <unistd.h>
#include <vector>

#include "runtime_probe.h"
#include "scenario.h"
#include "spin.h"
#include "subprocess.h"

namespace {

using wuc_test::ExitedWith;
using wuc_test::RunScenario;

// A timer whose fire counts and, optionally, wakes a thread.  The wuc_timer
// comes first, so fire can get from it to the rest.
struct CountingTimer {
  wuc_timer timer;
  std::atomic<int> fired{0};
  std::atomic<unsigned> fired_on_worker{~0u};
  uthread_t *wake = nullptr;
};

void CountFire(wuc_timer *t) {
  auto *c = reinterpret_cast<CountingTimer *>(t);
  c->fired_on_worker = probe_worker_id();
  c->fired.fetch_add(1);
  if (c->wake) wuc_unpark(c->wake);
}

void NeverFires(wuc_timer *) { std::abort(); }

TEST(Timer, CancelBeforeFireReturnsTrueAndFireNeverRuns) {
  CountingTimer c;
  const int64_t pending = probe_pending_timers();
  wuc_timer_start(&c.timer, wuc_now() + milliseconds(5), CountFire);
  EXPECT_EQ(probe_pending_timers(), pending + 1);
  EXPECT_TRUE(wuc_timer_cancel(&c.timer));
  EXPECT_EQ(probe_pending_timers(), pending);
  uthread_sleep(milliseconds(20)); // well past the deadline
  EXPECT_EQ(c.fired.load(), 0);
}

TEST(Timer, CancelAfterFireReturnsFalse) {
  CountingTimer c;
  c.wake = uthread_self();
  wuc_timer_start(&c.timer, wuc_now() + milliseconds(1), CountFire);
  while (c.fired.load() == 0) wuc_park("test: wait for the timer", &c);
  EXPECT_FALSE(wuc_timer_cancel(&c.timer));
  EXPECT_EQ(c.fired.load(), 1);
}

TEST(Timer, DeadlineInThePastFiresAtOnce) {
  CountingTimer c;
  c.wake = uthread_self();
  wuc_timer_start(&c.timer, wuc_now() - seconds(1), CountFire);
  while (c.fired.load() == 0) wuc_park("test: wait for the timer", &c);
  EXPECT_FALSE(wuc_timer_cancel(&c.timer));
}

// A timer fires no earlier than its deadline, and on the worker that
// started it.
TEST(Timer, FiresNoEarlierThanItsDeadlineOnItsWorker) {
  for (duration_t d : {microseconds(10), microseconds(300), milliseconds(3)}) {
    CountingTimer c;
    c.wake = uthread_self();
    int64_t deadline = wuc_now() + d;
    unsigned worker = probe_worker_id();
    wuc_timer_start(&c.timer, deadline, CountFire);
    while (c.fired.load() == 0) wuc_park("test: wait for the timer", &c);
    EXPECT_GE(wuc_now(), deadline);
    EXPECT_EQ(c.fired_on_worker.load(), worker);
    EXPECT_FALSE(wuc_timer_cancel(&c.timer));
  }
}

// The order timers fire in is (deadline, start order), whatever order they
// were started in.  All are started without blocking, so all are on one
// worker's heap.
struct OrderedTimer {
  wuc_timer timer;
  int index;
  struct FireLog *log;
};

struct FireLog {
  std::vector<int> order;
  std::atomic<int> count{0};
  int expected = 0;
  uthread_t *wake = nullptr;
};

void LogFire(wuc_timer *t) {
  auto *o = reinterpret_cast<OrderedTimer *>(t);
  FireLog *log = o->log;
  log->order[log->count.load()] = o->index;
  if (log->count.fetch_add(1) + 1 == log->expected) wuc_unpark(log->wake);
}

TEST(Timer, FireInDeadlineThenStartOrder) {
  constexpr int kTimers = 2000;
  FireLog log;
  log.order.assign(kTimers, -1);
  log.expected = kTimers;
  log.wake = uthread_self();
  std::vector<OrderedTimer> timers(kTimers);
  std::vector<int64_t> deadline(kTimers);
  std::mt19937 rng(7);
  const int64_t base = wuc_now() + milliseconds(2);
  for (int i = 0; i < kTimers; i++) {
    // 100 distinct deadlines, so many timers share one: ties go by start order.
    deadline[i] = base + microseconds(100) * std::uniform_int_distribution<int>(0, 99)(rng);
    timers[i].index = i;
    timers[i].log = &log;
    wuc_timer_start(&timers[i].timer, deadline[i], LogFire);
  }
  while (log.count.load() < kTimers) wuc_park("test: wait for the timers", &log);
  std::vector<int> expected(kTimers);
  for (int i = 0; i < kTimers; i++) expected[i] = i;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](int a, int b) { return deadline[a] < deadline[b]; });
  EXPECT_EQ(log.order, expected);
}

// A fire may start a timer (here, its own again): the heap changes while
// the worker is running its due timers.
struct Rearming {
  wuc_timer timer;
  int remaining;
  std::atomic<int> fired{0};
  uthread_t *wake;
};

void FireAndRearm(wuc_timer *t) {
  auto *r = reinterpret_cast<Rearming *>(t);
  r->fired.fetch_add(1);
  if (--r->remaining > 0)
    wuc_timer_start(&r->timer, wuc_now() + microseconds(r->remaining % 3 * 20), FireAndRearm);
  else
    wuc_unpark(r->wake);
}

TEST(Timer, FireCanStartATimer) {
  constexpr int kTimers = 8, kFires = 200;
  std::vector<std::unique_ptr<Rearming>> timers;
  for (int i = 0; i < kTimers; i++) {
    timers.push_back(std::make_unique<Rearming>());
    Rearming &r = *timers.back();
    r.remaining = kFires;
    r.wake = uthread_self();
    wuc_timer_start(&r.timer, wuc_now() + microseconds(i * 10), FireAndRearm);
  }
  for (auto &r : timers)
    while (r->fired.load() < kFires) wuc_park("test: wait for the re-arming timers", r.get());
  for (auto &r : timers) {
    EXPECT_EQ(r->fired.load(), kFires);
    EXPECT_FALSE(wuc_timer_cancel(&r->timer));
  }
}

// A million timers started and cancelled at once: every cancel wins, the
// pending count comes back, the heap stays small (cancelled entries are
// dropped), and timers still work afterwards.
TEST(Timer, MillionStartAndCancelKeepTheHeapSmall) {
  constexpr int kLive = 100;
  const int64_t pending = probe_pending_timers();
  const int64_t far = wuc_now() + seconds(3600);
  // Some live timers, so dead entries sit among live ones.
  std::vector<wuc_timer> live(kLive);
  for (int i = 0; i < kLive; i++) wuc_timer_start(&live[i], far + i, NeverFires);
  wuc_timer t;
  int lost = 0;
  size_t largest_heap = 0;
  for (int i = 0; i < 1000000; i++) {
    wuc_timer_start(&t, far - i, NeverFires); // earlier each time: always the heap top
    if (!wuc_timer_cancel(&t)) lost++;
    if (i % 1024 == 0) largest_heap = std::max(largest_heap, probe_timer_heap_len());
  }
  EXPECT_EQ(lost, 0);
  EXPECT_LE(largest_heap, static_cast<size_t>(2 * kLive + 64));
  EXPECT_EQ(probe_pending_timers(), pending + kLive);
  for (auto &l : live) EXPECT_TRUE(wuc_timer_cancel(&l));
  EXPECT_EQ(probe_pending_timers(), pending);

  CountingTimer c;
  c.wake = uthread_self();
  wuc_timer_start(&c.timer, wuc_now() + microseconds(100), CountFire);
  while (c.fired.load() == 0) wuc_park("test: wait for the timer", &c);
  EXPECT_EQ(c.fired.load(), 1);
}

// A slot is reused with a new generation: cancelling the old timer after it
// fired must not cancel the new one in the same slot.  One worker, so the
// slot the first timer frees is the one the second takes.
WUC_SCENARIO(stale_cancel_spares_reused_slot) {
  static CountingTimer first, second;
  first.wake = second.wake = uthread_self();
  wuc_timer_start(&first.timer, wuc_now(), CountFire);
  while (first.fired.load() == 0) wuc_park("test: wait for the timer", &first);
  wuc_timer_start(&second.timer, wuc_now() + milliseconds(2), CountFire);
  SCENARIO_CHECK(second.timer.slot == first.timer.slot, "the slot was not reused");
  SCENARIO_CHECK(!wuc_timer_cancel(&first.timer), "cancel after fire returned true");
  while (second.fired.load() == 0) wuc_park("test: wait for the timer", &second);
  SCENARIO_CHECK(!wuc_timer_cancel(&second.timer), "second timer did not count as fired");
  SCENARIO_CHECK(first.fired.load() == 1 && second.fired.load() == 1, "fired %d and %d",
                 first.fired.load(), second.fired.load());
  return 0;
}

TEST(Timer, StaleCancelDoesNotCancelTheSlotsNextTimer) {
  auto r = RunScenario("stale_cancel_spares_reused_slot", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// ---- cancel from another worker ------------------------------------------

// Main starts timers on its worker and hands each to a canceller thread on
// the other worker.  Neither ever blocks, so each keeps its worker: the
// canceller can only have started by being stolen by the other worker.
// Main yields between timers, which runs its worker's due timers, so fire
// on main's worker races with cancel on the other.
struct HandedTimer {
  CountingTimer c;
  std::atomic<int> stage{0}; // 0: free, 1: started and handed over, 2: cancel done
  bool cancelled = false;
  int fired_when_cancel_returned = 0;
};

struct CancelRace {
  static constexpr int kRing = 64;
  long timers = 0;
  HandedTimer ring[kRing];
  std::atomic<unsigned> canceller_worker{~0u};
  unsigned main_worker = ~0u;
  long cancelled = 0, missed = 0;
};

void CancelHandedTimers(void *arg) {
  auto *race = static_cast<CancelRace *>(arg);
  // On a loaded machine the main thread's spin can be preempted before the
  // other worker steals this thread: wait to be stolen.
  while (probe_worker_id() == race->main_worker) uthread_yield();
  race->canceller_worker = probe_worker_id();
  for (long i = 0; i < race->timers; i++) {
    HandedTimer &h = race->ring[i % CancelRace::kRing];
    for (uint32_t spins = 0; h.stage.load(std::memory_order_acquire) != 1;)
      wuc_test_spin_step(&spins);
    h.cancelled = wuc_timer_cancel(&h.c.timer);
    h.fired_when_cancel_returned = h.c.fired.load();
    (h.cancelled ? race->cancelled : race->missed)++;
    h.stage.store(2, std::memory_order_release);
  }
}

// A false cancel means fire ran and returned; a true one that it never runs
// (checked again when the slot comes round, long after the deadline).
void CheckHandedTimer(const HandedTimer &h, long index) {
  if (h.cancelled) {
    SCENARIO_CHECK(h.fired_when_cancel_returned == 0 && h.c.fired.load() == 0,
                   "timer %ld: cancelled, yet fired %d/%d times", index,
                   h.fired_when_cancel_returned, h.c.fired.load());
  } else {
    SCENARIO_CHECK(h.fired_when_cancel_returned == 1 && h.c.fired.load() == 1,
                   "timer %ld: cancel said fired, fire count %d/%d", index,
                   h.fired_when_cancel_returned, h.c.fired.load());
  }
}

// Timers are due `delay` plus 0..jitter after they start.
int RunCancelRace(long timers, duration_t delay, duration_t jitter) {
  static CancelRace race;
  race.timers = timers;
  const unsigned main_worker = probe_worker_id();
  race.main_worker = main_worker;
  uthread_t *canceller = uthread_spawn(CancelHandedTimers, &race);
  for (uint32_t spins = 0; race.canceller_worker.load() == ~0u;) wuc_test_spin_step(&spins);
  SCENARIO_CHECK(race.canceller_worker.load() != main_worker, "both on worker %u", main_worker);
  uint32_t rng = 12345;
  for (long i = 0; i < timers; i++) {
    HandedTimer &h = race.ring[i % CancelRace::kRing];
    if (i >= CancelRace::kRing) {
      for (uint32_t spins = 0; h.stage.load(std::memory_order_acquire) != 2;) {
        uthread_yield(); // runs due timers
        wuc_test_spin_step(&spins);
      }
      CheckHandedTimer(h, i - CancelRace::kRing);
    }
    h.c.fired = 0; // the memory is ours again once cancel has returned
    rng = rng * 1103515245u + 12345u;
    duration_t extra = jitter ? static_cast<duration_t>((rng >> 8) % (jitter + 1)) : 0;
    wuc_timer_start(&h.c.timer, wuc_now() + delay + extra, CountFire);
    h.stage.store(1, std::memory_order_release);
    uthread_yield(); // runs the due timers of this worker
  }
  uthread_join(canceller); // it has cancelled every timer when it ends
  if (delay < seconds(1))  // past every deadline: nothing fires late
    uthread_sleep(delay + jitter + milliseconds(1));
  for (long i = std::max(0L, timers - CancelRace::kRing); i < timers; i++)
    CheckHandedTimer(race.ring[i % CancelRace::kRing], i);
  // Fired by its own worker, or by the monitor (no worker: ~0u) when that
  // worker's kernel thread was off its CPU for longer than the grace (a
  // loaded machine: docs/runtime.md, "Timers on any worker").
  for (const HandedTimer &h : race.ring)
    if (h.stage.load() == 2 && !h.cancelled)
      SCENARIO_CHECK(h.c.fired_on_worker.load() == main_worker || h.c.fired_on_worker.load() == ~0u,
                     "fired on worker %u", h.c.fired_on_worker.load());
  SCENARIO_CHECK(probe_pending_timers() == 0, "%lld timers still pending",
                 static_cast<long long>(probe_pending_timers()));
  std::printf("%ld timers: %ld cancelled from worker %u, %ld had fired on worker %u\n", timers,
              race.cancelled, race.canceller_worker.load(), race.missed, main_worker);
  return 0;
}

// Far deadlines: every cancel from the other worker wins.
WUC_SCENARIO(cancel_from_other_worker) { return RunCancelRace(1000, seconds(3600), 0); }

// Deadlines of now .. now + 2 µs: cancels race with firing.
WUC_SCENARIO(cancel_races_fire_across_workers) { return RunCancelRace(100000, 0, microseconds(2)); }

TEST(Timer, CancelFromAnotherWorker) {
  auto r = RunScenario("cancel_from_other_worker", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  EXPECT_NE(r.out.find("1000 timers: 1000 cancelled"), std::string::npos) << r.Describe();
}

TEST(Timer, CancelRacesFireAcrossWorkers) {
  auto r = RunScenario("cancel_races_fire_across_workers", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// A fire that starts a timer, run by the monitor for a worker that went idle
// meanwhile (the monitor fires the overdue timers of a worker it sees busy,
// sysmon.c): the new timer lands on the idle worker's heap, whose sleep was
// set without it, and nobody else watches that heap.  The worker must be
// woken to sleep until the new timer instead (timer.c, wuc_timer_start).
// Once, a thread's statement timer restarted this way left a receive-or-
// timeout statement parked for good (stress.chan.churn.w8 under ASan).
// Here the first timer's fire waits until the worker is idle before it
// starts the second, so the window is always hit.
struct TimerChain {
  wuc_timer first, second;
  std::atomic<bool> first_fired{false}, second_fired{false};
  std::atomic<unsigned> first_fired_on{0};
  uthread_t *waiter = nullptr;
};
TimerChain g_chain;

void FireSecond(wuc_timer *) {
  g_chain.second_fired = true;
  wuc_unpark(g_chain.waiter);
}

void FireFirst(wuc_timer *) {
  g_chain.first_fired_on = probe_worker_id();
  g_chain.first_fired = true; // the thread stops computing and parks
  while (!probe_worker_idle(0)) usleep(100);
  usleep(1000); // well into its sleep
  wuc_timer_start(&g_chain.second, wuc_now() + milliseconds(1), FireSecond);
}

void Nothing(void *) {}

WUC_SCENARIO(timer_started_for_idle_worker) {
  uthread_join(uthread_spawn(Nothing, nullptr)); // starts the monitor
  g_chain.waiter = uthread_self();
  wuc_timer_start(&g_chain.first, wuc_now() + microseconds(100), FireFirst);
  // No scheduling point (and no preemption: WUC_TIMESLICE=0) until the
  // first timer has fired, so the monitor fires it.
  while (!g_chain.first_fired.load()) {
  }
  SCENARIO_CHECK(g_chain.first_fired_on.load() == ~0u, "the first timer fired on worker %u",
                 g_chain.first_fired_on.load());
  while (!g_chain.second_fired) wuc_park("the second timer", &g_chain); // hangs if never woken
  std::printf("the second timer fired\n");
  return 0;
}

TEST(Timer, StartedByTheMonitorWakesAnIdleWorker) {
  auto r = RunScenario("timer_started_for_idle_worker",
                       {{"WUC_PROCESSORS", "1"}, {"WUC_TIMESLICE", "0"}}, 30);
  EXPECT_TRUE(ExitedWith(r, 0));
  EXPECT_NE(r.out.find("the second timer fired"), std::string::npos) << r.Describe();
}

// The alarm (runtime/alarm.h): a timer due behind a thread that computes in
// the program's own code fires through the worker's alarm alone.  One
// worker, a slice longer than the test, the monitor's backup off: without
// the alarm nothing would switch, and the sleeper would never wake (the
// watchdog).  The sleeper parks first, so the switch away from it arms the
// alarm for its deadline.
std::atomic<bool> g_sleeper_woke{false};

void SleepAMillisecond(void *) {
  uthread_sleep(milliseconds(1));
  g_sleeper_woke = true;
}

WUC_SCENARIO(alarm_fires_behind_a_computing_thread) {
  probe_leave_timers_to_alarms();
  uthread_t *sleeper = uthread_spawn(SleepAMillisecond, nullptr); // starts the runtime
  SCENARIO_CHECK(probe_worker_has_alarm(0), "worker 0 has no alarm");
  probe_await_parked(sleeper);
  while (!g_sleeper_woke.load(std::memory_order_relaxed)) {
  } // never enters the runtime
  uthread_join(sleeper);
  std::printf("the sleeper woke\n");
  return 0;
}

TEST(Timer, AlarmFiresBehindAComputingThread) {
  auto r = RunScenario("alarm_fires_behind_a_computing_thread",
                       {{"WUC_PROCESSORS", "1"}, {"WUC_TIMESLICE", "60000000"}}, 30);
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
  EXPECT_NE(r.out.find("the sleeper woke"), std::string::npos) << r.Describe();
}

// A filter that has read the clock once, past the TSC's calibration
// interval (clock.h): its first reading calibrates and anchors it.
struct wuc_deadline_filter CalibratedFilter() {
  usleep(20000);
  struct wuc_deadline_filter f = {};
  (void)wuc_now_for_deadline(&f, wuc_now() + 1000000);
  return f;
}

// The TSC filter (clock.h): it never says "not yet" once a deadline has
// passed on the wuc_now() clock, from 1 ns to 50 us ahead (what could make
// a timer early), and once calibrated it answers for a far deadline and for
// later ones without a clock read, but not for earlier ones.
TEST(DeadlineFilter, NeverNotYetOnceADeadlineHasPassed) {
  struct wuc_deadline_filter f = CalibratedFilter();
  for (int i = 0; i < 500; i++) {
    int64_t deadline = wuc_now() + (i % 50) * 1000 + 1;
    (void)wuc_now_for_deadline(&f, deadline);
    while (wuc_now() < deadline) {
    }
    ASSERT_FALSE(wuc_deadline_surely_ahead(&f, deadline)) << "round " << i;
  }
}

TEST(DeadlineFilter, AnswersForLaterDeadlinesOnly) {
  struct wuc_deadline_filter f = CalibratedFilter();
  if (!wuc_deadline_filter_usable()) GTEST_SKIP() << "the kernel's clock is not the TSC here";
  int64_t deadline = wuc_now() + 1000000000;
  EXPECT_LT(wuc_now_for_deadline(&f, deadline), deadline);
  EXPECT_TRUE(wuc_deadline_surely_ahead(&f, deadline));
  EXPECT_TRUE(wuc_deadline_surely_ahead(&f, deadline + 1000));
  EXPECT_FALSE(wuc_deadline_surely_ahead(&f, deadline - 1));
}

// wuc_now_not_before (clock.h): extrapolated from the TSC, never below a
// clock reading taken before it, and at most ANCHOR_NS * 1/63 + SKEW_NS
// (~17 us) above one taken after it.
TEST(DeadlineFilter, NowNotBeforeNeverBelowTheClock) {
  struct wuc_deadline_filter f = CalibratedFilter();
  for (int i = 0; i < 200000; i++) {
    int64_t before = wuc_now();
    uint64_t tsc_before = __rdtsc();
    uint64_t tsc = 0;
    int64_t reading = wuc_now_not_before(&f, &tsc);
    int64_t after = wuc_now();
    ASSERT_GE(reading, before) << "round " << i;
    ASSERT_LE(reading, after + WUC_NOW_NOT_BEFORE_MAX_LEAD_NS) << "round " << i;
    if (wuc_deadline_filter_usable()) {
      ASSERT_GE(tsc, tsc_before) << "round " << i;
    }
  }
}

// hint_tsc (clock.h): a check answers as of the hint's moment, not its own,
// and without a hint reads the TSC again.
TEST(DeadlineFilter, HintAnswersForItsMoment) {
  struct wuc_deadline_filter f = CalibratedFilter();
  if (!wuc_deadline_filter_usable()) GTEST_SKIP() << "the kernel's clock is not the TSC here";
  int64_t deadline = wuc_now() + 200000;
  (void)wuc_now_for_deadline(&f, deadline);
  f.hint_tsc = __rdtsc();
  while (wuc_now() < deadline) {
  }
  EXPECT_TRUE(wuc_deadline_surely_ahead(&f, deadline)); // the hint's moment: not yet
  f.hint_tsc = 0;
  EXPECT_FALSE(wuc_deadline_surely_ahead(&f, deadline));
}

} // namespace
