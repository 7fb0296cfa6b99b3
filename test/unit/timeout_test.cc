// timeout_test.cc — the timeout(d) clause: its deadline counts from the
// statement's one clock reading when it is about to wait (none in the
// try-only pass), ready at once when d <= 0 or its deadline has passed (also
// in the try-only pass), no timer when try-only, never early, fires and
// wins when nothing else comes, loses to a ready clause earlier in source
// order, and its timer is cancelled by unregister (none stays pending, the
// timer heap does not grow in a receive-or-timeout loop); durations of any
// arithmetic type, saturated: beyond the clock's range is never.
#include <gtest/gtest.h>

#include <clock.h>
#include <wuc.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <unistd.h>

#include "runtime_probe.h"
#include "spawn_fn.h"
#include "waituntil.h"

WUC_FUTURE_STRUCT(timeout_test_future, int);

namespace {

using wuc_test::Bind;
using wuc_test::Clause;
using wuc_test::Flow;
using wuc_test::SpawnFn;
using wuc_test::Waituntil;

struct Node {
  wuc_select_stmt stmt;
  wuc_select_node node = {};
  explicit Node(bool try_only) {
    wuc_select_stmt_init(&stmt, true);
    wuc_select_node_init(&node, &stmt, nullptr);
    node.try_only = try_only;
  }
};

// Timers started while `fn` runs; the runtime's timers then need none: the
// thread's statement timer left armed by earlier tests (it stays armed after
// a statement) may still be pending, and no check here depends on that.
template <typename Fn> uint64_t TimersStartedBy(Fn fn) {
  uint64_t before = probe_timers_started();
  fn();
  EXPECT_EQ(probe_needed_timers(), 0);
  return probe_timers_started() - before;
}

// The deadline a timeout gets once its statement is about to wait.
wuc_timeout Fixed(wuc_timeout t) {
  Node n(/*try_only=*/false);
  (void)wuc_timeout_register(&t, &n.node);
  (void)wuc_timeout_unregister(&t, &n.node);
  return t;
}

TEST(Timeout, DeadlineCountsFromTheFirstWait) {
  wuc_timeout t = wuc_timeout_make(milliseconds(5));
  EXPECT_EQ(t.delay, milliseconds(5)); // no clock read at evaluation
  int64_t before = wuc_now();
  Node n(/*try_only=*/false);
  EXPECT_FALSE(wuc_timeout_register(&t, &n.node));
  EXPECT_EQ(t.delay, 0);
  EXPECT_GE(t.deadline, before + milliseconds(5));
  EXPECT_LE(t.deadline, wuc_now() + milliseconds(5) + WUC_NOW_NOT_BEFORE_MAX_LEAD_NS);
  EXPECT_FALSE(wuc_timeout_unregister(&t, &n.node));
  EXPECT_EQ(wuc_timeout_make(INT64_MAX).deadline, INT64_MAX); // saturates: never
  EXPECT_EQ(wuc_timeout_make(INT64_MAX).delay, 0);
}

// The try-only pass decides a d > 0 without the clock: not ready, and the
// deadline stays to be fixed by the statement's wait.
TEST(Timeout, TryOnlyPassReadsNoClock) {
  wuc_timeout t = wuc_timeout_make(seconds(60));
  Node n(/*try_only=*/true);
  EXPECT_FALSE(wuc_timeout_register(&t, &n.node));
  EXPECT_EQ(t.delay, seconds(60));
  EXPECT_FALSE(wuc_timeout_unregister(&t, &n.node));
}

// All timeouts of one statement count from one clock reading.
TEST(Timeout, OneClockReadingPerStatement) {
  wuc_select_stmt stmt;
  wuc_select_stmt_init(&stmt, true);
  wuc_select_node a, b;
  wuc_select_node_init(&a, &stmt, nullptr);
  wuc_select_node_init(&b, &stmt, nullptr);
  wuc_timeout ta = wuc_timeout_make(milliseconds(5)), tb = wuc_timeout_make(milliseconds(7));
  EXPECT_FALSE(wuc_timeout_register(&ta, &a));
  EXPECT_FALSE(wuc_timeout_register(&tb, &b));
  EXPECT_EQ(tb.deadline - ta.deadline, milliseconds(2));
  EXPECT_FALSE(wuc_timeout_unregister(&ta, &a));
  EXPECT_FALSE(wuc_timeout_unregister(&tb, &b));
  EXPECT_EQ(probe_needed_timers(), 0);
}

// A mixed statement runs the body of a clause that completes at once before
// it registers the next one: its timeouts still count from its first step.
TEST(Timeout, MixedStatementCountsFromItsFirstStep) {
  latch set = {};
  latch_set(&set);
  wuc_wu_clause cl[2];
  wuc_wu w;
  wuc_wu_init(&w, cl, /*all_or=*/0);
  wuc_wu_clause_init(&w, 0, 1, &set, &WUC_SELECTABLE_OPS(wuc_latch_register), nullptr, "t:1");
  wuc_timeout t = wuc_timeout_make(milliseconds(1));
  wuc_wu_clause_init(&w, 1, 1, &t, &WUC_SELECTABLE_OPS(wuc_timeout_register), nullptr, "t:2");
  wuc_wu_mixed_begin(&w, 0);
  std::vector<int> ran;
  for (;;) { // waituntil (set) and waituntil (timeout(1`ms))
    cl[0].__wuc_needed = !cl[0].__wuc_ran;
    cl[1].__wuc_needed = !cl[1].__wuc_ran;
    int next = wuc_wu_mixed_step(&w, cl[0].__wuc_ran && cl[1].__wuc_ran);
    if (next == WUC_WU_RECOMPUTE) continue;
    if (next < 0) break;
    ran.push_back(next);
    if (next == 0) { // the latch's body, before the timeout is registered
      EXPECT_NE(w.s.clock, 0);
      EXPECT_EQ(t.delay, milliseconds(1));
      usleep(3000);
    }
    wuc_wu_mixed_ran(&w, static_cast<unsigned>(next));
  }
  wuc_wu_exit(&w);
  EXPECT_EQ(ran, (std::vector<int>{0, 1}));
  EXPECT_EQ(t.deadline, w.s.clock + milliseconds(1)); // not the registration's time
  EXPECT_EQ(probe_pending_timers(), 0);
}

// Durations beyond the clock's range are "never", whatever their type; a
// plain conversion to duration_t made 1e19, INFINITY and (double)INT64_MAX
// INT64_MIN and UINT64_MAX -1: timeouts that fired at once.
TEST(Timeout, HugeDurationsSaturateToNever) {
  EXPECT_EQ(Fixed(wuc_timeout_make(1e19)).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(INFINITY)).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(static_cast<double>(INT64_MAX))).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(1e30f)).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(HUGE_VALL)).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(UINT64_MAX)).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(static_cast<uint64_t>(INT64_MAX) + 1)).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(seconds(INT64_MAX))).deadline, INT64_MAX);
  EXPECT_EQ(Fixed(wuc_timeout_make(INT64_MAX - 1)).deadline, INT64_MAX); // now + d overflows
  EXPECT_EQ(probe_pending_timers(), 0);
}

TEST(Timeout, HugeNegativeDurationsAreReadyAtOnce) {
  for (wuc_timeout t : {wuc_timeout_make(-INFINITY), wuc_timeout_make(-1e19),
                        wuc_timeout_make(INT64_MIN), wuc_timeout_make(seconds(INT64_MIN))}) {
    EXPECT_LE(t.deadline, wuc_now());
  }
}

TEST(Timeout, FloatingDurationsInRangeAreTruncated) {
  EXPECT_EQ(wuc_timeout_make(2.9e6).delay, 2900000);
  unsigned long long u = 5000000;
  EXPECT_EQ(wuc_timeout_make(u).delay, 5000000);
  int64_t before = wuc_now();
  wuc_timeout t = Fixed(wuc_timeout_make(2.9e6));
  EXPECT_GE(t.deadline, before + 2900000);
  EXPECT_LE(t.deadline, wuc_now() + 2900000 + WUC_NOW_NOT_BEFORE_MAX_LEAD_NS);
}

// A deadline of never starts no timer: nothing to fire, and nothing pending
// that would hold back a deadlock report.
TEST(Timeout, NeverStartsNoTimer) {
  EXPECT_EQ(TimersStartedBy([] {
              wuc_timeout t = wuc_timeout_make(INFINITY);
              Node n(/*try_only=*/false);
              EXPECT_FALSE(wuc_timeout_register(&t, &n.node));
              EXPECT_EQ(probe_needed_timers(), 0);
              EXPECT_FALSE(wuc_timeout_unregister(&t, &n.node));
            }),
            0u);
}

TEST(Durations, ConstructorsSaturate) {
  EXPECT_EQ(seconds(3), 3000000000);
  EXPECT_EQ(milliseconds(-7), -7000000);
  EXPECT_EQ(microseconds(11), 11000);
  EXPECT_EQ(nanoseconds(INT64_MAX), INT64_MAX);
  EXPECT_EQ(seconds(9223372036), 9223372036000000000);
  EXPECT_EQ(seconds(9223372037), INT64_MAX);
  EXPECT_EQ(seconds(-9223372037), INT64_MIN);
  EXPECT_EQ(milliseconds(INT64_MAX), INT64_MAX);
  EXPECT_EQ(microseconds(INT64_MIN), INT64_MIN);
}

TEST(Timeout, PassedDeadlineIsReadyEvenInTheTryOnlyPass) {
  EXPECT_EQ(TimersStartedBy([] {
              wuc_timeout t = wuc_timeout_make(0);
              Node n(/*try_only=*/true);
              EXPECT_TRUE(wuc_timeout_register(&t, &n.node));
              EXPECT_TRUE(wuc_select_is_done(&n.node));
              EXPECT_TRUE(wuc_timeout_unregister(&t, &n.node));
            }),
            0u);
}

TEST(Timeout, TryOnlyStartsNoTimer) {
  EXPECT_EQ(TimersStartedBy([] {
              wuc_timeout t = wuc_timeout_make(seconds(60));
              Node n(/*try_only=*/true);
              EXPECT_FALSE(wuc_timeout_register(&t, &n.node));
              EXPECT_EQ(probe_needed_timers(), 0);
              EXPECT_FALSE(wuc_timeout_unregister(&t, &n.node));
            }),
            0u);
}

TEST(Timeout, UnregisterCancelsTheTimer) {
  wuc_timeout t = wuc_timeout_make(seconds(60));
  Node n(/*try_only=*/false);
  EXPECT_FALSE(wuc_timeout_register(&t, &n.node));
  EXPECT_EQ(probe_pending_timers(), 1);
  EXPECT_FALSE(wuc_timeout_unregister(&t, &n.node));
  EXPECT_EQ(probe_needed_timers(), 0); // the thread's timer, armed but unused, is dropped
  EXPECT_EQ(probe_pending_timers(), 0);
}

// The thread's timer stays armed after a statement: the next one whose
// deadline is no earlier starts no timer.
TEST(Timeout, ThreadTimerServesTheNextStatement) {
  (void)probe_needed_timers(); // nothing armed to begin with
  wuc_timeout first = wuc_timeout_make(seconds(60));
  Node a(/*try_only=*/false);
  EXPECT_FALSE(wuc_timeout_register(&first, &a.node));
  EXPECT_FALSE(wuc_timeout_unregister(&first, &a.node));
  uint64_t started = probe_timers_started();
  for (int i = 0; i < 100; i++) {
    wuc_timeout t = wuc_timeout_make(seconds(61));
    Node n(/*try_only=*/false);
    EXPECT_FALSE(wuc_timeout_register(&t, &n.node));
    EXPECT_EQ(probe_pending_timers(), 1);
    EXPECT_FALSE(wuc_timeout_unregister(&t, &n.node));
  }
  EXPECT_EQ(probe_timers_started(), started);
  EXPECT_EQ(probe_needed_timers(), 0);
}

// A statement whose deadline is earlier than the armed one starts the
// timer again, so it is not late: with the thread's timer armed for 60 s,
// a 2 ms timeout wins after 2 ms.
TEST(Timeout, EarlierDeadlineRestartsTheThreadTimer) {
  wuc_timeout far = wuc_timeout_make(seconds(60));
  Node a(/*try_only=*/false);
  EXPECT_FALSE(wuc_timeout_register(&far, &a.node));
  EXPECT_FALSE(wuc_timeout_unregister(&far, &a.node));
  latch never = {};
  wuc_timeout t = wuc_timeout_make(milliseconds(2));
  std::vector<Clause> c = {Bind(&never, WUC_TRAIT(wuc_latch_register)),
                           Bind(&t, WUC_TRAIT(wuc_timeout_register))};
  EXPECT_EQ(Waituntil(wuc_test::AnyOf(2), c).ran, std::vector<int>{1});
  EXPECT_GE(wuc_now(), t.deadline); // never early
  EXPECT_EQ(probe_needed_timers(), 0);
}

// The thread's timer armed earlier than a later statement's deadline fires
// early for it: that firing only starts the timer again, and the statement
// times out at its own deadline, never before.
TEST(Timeout, EarlyFiringOfTheThreadTimerIsHarmless) {
  for (int round = 0; round < 20; round++) {
    wuc_timeout near = wuc_timeout_make(microseconds(200));
    Node a(/*try_only=*/false);
    EXPECT_FALSE(wuc_timeout_register(&near, &a.node));
    EXPECT_FALSE(wuc_timeout_unregister(&near, &a.node));
    latch never = {};
    wuc_timeout t = wuc_timeout_make(milliseconds(3));
    std::vector<Clause> c = {Bind(&never, WUC_TRAIT(wuc_latch_register)),
                             Bind(&t, WUC_TRAIT(wuc_timeout_register))};
    EXPECT_EQ(Waituntil(wuc_test::AnyOf(2), c).ran, std::vector<int>{1});
    ASSERT_GE(wuc_now(), t.deadline); // never early
  }
  EXPECT_EQ(probe_needed_timers(), 0);
}

// Two timeouts in one statement: the second gets a timer of its own (the
// thread's serves one clause), and the earlier one wins.
TEST(Timeout, SecondTimeoutOfAStatementHasItsOwnTimer) {
  latch never = {};
  wuc_timeout late = wuc_timeout_make(seconds(60)), soon = wuc_timeout_make(milliseconds(2));
  std::vector<Clause> c = {Bind(&never, WUC_TRAIT(wuc_latch_register)),
                           Bind(&late, WUC_TRAIT(wuc_timeout_register)),
                           Bind(&soon, WUC_TRAIT(wuc_timeout_register))};
  EXPECT_EQ(Waituntil(wuc_test::AnyOf(3), c).ran, std::vector<int>{2});
  EXPECT_GE(wuc_now(), soon.deadline);
  EXPECT_EQ(probe_needed_timers(), 0);
}

// A thread that ends with its timer armed cancels it.
TEST(Timeout, ThreadEndCancelsItsTimer) {
  (void)probe_needed_timers();
  int64_t before = probe_pending_timers();
  uthread_t *t = SpawnFn([] {
    wuc_timeout far = wuc_timeout_make(seconds(60));
    Node a(/*try_only=*/false);
    EXPECT_FALSE(wuc_timeout_register(&far, &a.node));
    EXPECT_FALSE(wuc_timeout_unregister(&far, &a.node));
    EXPECT_EQ(probe_pending_timers(), 1); // still armed, for its next statement
  });
  uthread_join(t);
  EXPECT_EQ(probe_pending_timers(), before);
}

TEST(Timeout, WinsWhenNothingElseComes) {
  latch never = {};
  int64_t evaluated = wuc_now();
  wuc_timeout t = wuc_timeout_make(milliseconds(2));
  std::vector<Clause> c = {Bind(&never, WUC_TRAIT(wuc_latch_register)),
                           Bind(&t, WUC_TRAIT(wuc_timeout_register))};
  auto o = Waituntil(wuc_test::AnyOf(2), c);
  EXPECT_EQ(o.ran, std::vector<int>{1});
  EXPECT_GE(wuc_now(), t.deadline); // never early
  EXPECT_GE(wuc_now() - evaluated, milliseconds(2));
  EXPECT_EQ(never.waiters.head, nullptr);
  EXPECT_EQ(probe_pending_timers(), 0);
}

// Priority: the first ready clause in source order wins, a timeout included.
TEST(Timeout, ReadyFutureEarlierInSourceOrderWins) {
  WUC_FUTURE(int) f = {};
  future_set(&f, 1);
  wuc_timeout t = wuc_timeout_make(0);
  std::vector<Clause> c = {Bind(&f.core, WUC_TRAIT(wuc_future_register)),
                           Bind(&t, WUC_TRAIT(wuc_timeout_register))};
  EXPECT_EQ(Waituntil(wuc_test::AnyOf(2), c).ran, std::vector<int>{0});
  std::vector<Clause> reversed = {Bind(&t, WUC_TRAIT(wuc_timeout_register)),
                                  Bind(&f.core, WUC_TRAIT(wuc_future_register))};
  EXPECT_EQ(Waituntil(wuc_test::AnyOf(2), reversed).ran, std::vector<int>{0});
}

// A receive-or-timeout loop whose timeout never fires: the thread's timer
// serves every statement, and nothing accumulates.
TEST(Timeout, LoopThatNeverTimesOutLeavesNoTimers) {
  const int kRounds = 20000;
  std::unique_ptr<timeout_test_future[]> futures(new timeout_test_future[kRounds]());
  std::atomic<int> next{0};
  uthread_t *setter = SpawnFn([&] {
    for (int i = 0; i < kRounds; i++) {
      while (next.load() < i) uthread_yield();
      future_set(&futures[i], i);
    }
  });
  size_t max_heap = 0;
  for (int i = 0; i < kRounds; i++) {
    wuc_timeout t = wuc_timeout_make(seconds(60));
    std::vector<Clause> c = {Bind(&futures[i], WUC_TRAIT(timeout_test_future_register)),
                             Bind(&t, WUC_TRAIT(wuc_timeout_register))};
    next = i;
    auto o = Waituntil(wuc_test::AnyOf(2), c);
    ASSERT_EQ(o.ran, std::vector<int>{0});
    max_heap = std::max(max_heap, probe_timer_heap_len());
  }
  uthread_join(setter);
  EXPECT_EQ(probe_needed_timers(), 0);
  EXPECT_LT(max_heap, 1000u); // cancelled entries are dropped as they go
}

TEST(Timeout, AndWithAFutureWaitsForBoth) {
  WUC_FUTURE(int) f = {};
  future_set(&f, 1);
  wuc_timeout t = wuc_timeout_make(milliseconds(1));
  std::vector<Clause> c = {Bind(&t, WUC_TRAIT(wuc_timeout_register)),
                           Bind(&f.core, WUC_TRAIT(wuc_future_register))};
  auto o = Waituntil(wuc_test::And({wuc_test::Leaf(0), wuc_test::Leaf(1)}), c);
  EXPECT_EQ(o.ran, (std::vector<int>{1, 0})); // the future at once, the timeout later
  EXPECT_GE(wuc_now(), t.deadline);
}

} // namespace
