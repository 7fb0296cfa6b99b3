// latch_test.cc — latch: zero-initialised unset, one-shot, wakes every
// waiter (threads and clauses), clauses on a set latch complete at
// registration without queueing, and the deadlock report names latch_wait.
#include <gtest/gtest.h>

#include <wuc.h>

#include <atomic>
#include <string>
#include <vector>

#include "scenario.h"
#include "spawn_fn.h"
#include "subprocess.h"
#include "waituntil.h"

namespace {

using wuc_test::AwaitParked;
using wuc_test::Bind;
using wuc_test::Clause;
using wuc_test::ExitedWith;
using wuc_test::Flow;
using wuc_test::RunScenario;
using wuc_test::SpawnFn;
using wuc_test::Waituntil;

latch static_latch; // zeroed storage

TEST(Latch, ZeroInitialisedIsUnset) {
  EXPECT_FALSE(latch_is_set(&static_latch));
  latch local = {};
  EXPECT_FALSE(latch_is_set(&local));
  latch_set(&local);
  EXPECT_TRUE(latch_is_set(&local));
}

TEST(Latch, SetIsOneShotAndIdempotent) {
  latch e = {};
  latch_set(&e);
  latch_set(&e);
  EXPECT_TRUE(latch_is_set(&e));
  latch_wait(&e); // returns at once
  EXPECT_EQ(e.waiters.head, nullptr);
}

TEST(Latch, SetWakesEveryWaitingThread) {
  latch e = {};
  std::atomic<int> woken{0};
  std::vector<uthread_t *> threads;
  for (int i = 0; i < 50; i++)
    threads.push_back(SpawnFn([&] {
      latch_wait(&e);
      woken++;
    }));
  for (uthread_t *t : threads) AwaitParked(t);
  EXPECT_EQ(woken.load(), 0);
  latch_set(&e);
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_EQ(woken.load(), 50);
  EXPECT_EQ(e.waiters.head, nullptr);
}

TEST(Latch, ClauseOnSetLatchCompletesWithoutQueueing) {
  latch e = {};
  latch_set(&e);
  wuc_select_stmt s;
  wuc_select_stmt_init(&s, true);
  wuc_select_node n = {};
  wuc_select_node_init(&n, &s, nullptr);
  n.try_only = true;
  EXPECT_TRUE(wuc_latch_register(&e, &n));
  EXPECT_TRUE(wuc_select_is_done(&n));
  EXPECT_EQ(e.waiters.head, nullptr);
  EXPECT_TRUE(wuc_latch_on_selected(&e, &n));
  EXPECT_TRUE(wuc_latch_unregister(&e, &n));
}

TEST(Latch, ClauseOnUnsetLatchWithTryOnlyDoesNotQueue) {
  latch e = {};
  wuc_select_stmt s;
  wuc_select_stmt_init(&s, true);
  wuc_select_node n = {};
  wuc_select_node_init(&n, &s, nullptr);
  n.try_only = true;
  EXPECT_FALSE(wuc_latch_register(&e, &n));
  EXPECT_EQ(e.waiters.head, nullptr);
  EXPECT_FALSE(wuc_latch_unregister(&e, &n));
}

TEST(Latch, SetWakesEveryWaitingClause) {
  latch e = {};
  std::atomic<int> bodies{0};
  std::vector<uthread_t *> threads;
  for (int i = 0; i < 20; i++)
    threads.push_back(SpawnFn([&] {
      std::vector<Clause> c = {Bind(&e, WUC_TRAIT(wuc_latch_register), [&] {
        EXPECT_TRUE(latch_is_set(&e));
        bodies++;
        return Flow::kNext;
      })};
      auto o = Waituntil(wuc_test::Leaf(0), c);
      EXPECT_EQ(o.ran, std::vector<int>{0});
    }));
  for (uthread_t *t : threads) AwaitParked(t);
  EXPECT_NE(e.waiters.head, nullptr);
  latch_set(&e);
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_EQ(bodies.load(), 20);
  EXPECT_EQ(e.waiters.head, nullptr);
}

// A clause withdrawn from an unset latch leaves its queue.
TEST(Latch, WithdrawnClauseLeavesTheQueue) {
  latch e = {}, other = {};
  uthread_t *t = SpawnFn([&] {
    std::vector<Clause> c = {Bind(&e, WUC_TRAIT(wuc_latch_register)),
                             Bind(&other, WUC_TRAIT(wuc_latch_register))};
    auto o = Waituntil(wuc_test::AnyOf(2), c);
    EXPECT_EQ(o.ran, std::vector<int>{1});
  });
  AwaitParked(t);
  EXPECT_NE(e.waiters.head, nullptr);
  latch_set(&other);
  uthread_join(t);
  EXPECT_EQ(e.waiters.head, nullptr);
  EXPECT_FALSE(latch_is_set(&e));
}

} // namespace

// ---- the deadlock report names the wait --------------------------------------

extern "C" {
latch never_set_latch; // C linkage: its symbol is its name, which the report shows
}

WUC_SCENARIO(latch_wait_forever) {
  std::printf("fact line %d\n", __LINE__ + 1);
  latch_wait(&never_set_latch);
  return 0;
}

namespace {

TEST(Latch, DeadlockReportNamesLatchWait) {
  auto r = RunScenario("latch_wait_forever", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 2));
  std::string line = r.out.substr(r.out.find("fact line ") + 10);
  line = line.substr(0, line.find('\n'));
  EXPECT_NE(r.err.find("    waits in latch_wait on never_set_latch at "), std::string::npos)
      << r.Describe();
  EXPECT_NE(r.err.find(std::string(__FILE__) + ":" + line), std::string::npos) << r.Describe();
}

} // namespace
