// future_test.cc — future(T): set once, get (blocking and not), reset,
// assignment conversion, WUC_FUTURE / WUC_FUTURE_STRUCT on any struct with
// `core` and `value`, clauses, and the future_reset misuse messages.
#include <gtest/gtest.h>

#include <wuc.h>

#include <atomic>
#include <string>
#include <vector>

#include "future_c_api.h"
#include "scenario.h"
#include "spawn_fn.h"
#include "subprocess.h"
#include "waituntil.h"

WUC_FUTURE_STRUCT(future_int, int);

namespace {

using wuc_test::AwaitParked;
using wuc_test::Bind;
using wuc_test::Clause;
using wuc_test::ExitedWith;
using wuc_test::Flow;
using wuc_test::RunScenario;
using wuc_test::SpawnFn;
using wuc_test::Waituntil;

WUC_FUTURE(int) static_future; // zeroed storage

TEST(Future, ZeroInitialisedIsEmpty) {
  EXPECT_FALSE(future_ready(&static_future));
  int out = -1;
  EXPECT_FALSE(future_try_get(&static_future, &out));
  EXPECT_EQ(out, -1);
}

TEST(Future, SetThenGet) {
  WUC_FUTURE(int) f = {};
  EXPECT_TRUE(future_set(&f, 42));
  EXPECT_TRUE(future_ready(&f));
  EXPECT_EQ(future_get(&f), 42);
  int out = 0;
  EXPECT_TRUE(future_try_get(&f, &out));
  EXPECT_EQ(out, 42);
}

TEST(Future, SecondSetFailsAndKeepsTheFirstValue) {
  WUC_FUTURE(int) f = {};
  EXPECT_TRUE(future_set(&f, 1));
  EXPECT_FALSE(future_set(&f, 2));
  EXPECT_EQ(future_get(&f), 1);
}

TEST(Future, ValueFollowsAssignmentConversion) {
  WUC_FUTURE(double) d = {};
  future_set(&d, 3);
  EXPECT_EQ(future_get(&d), 3.0);
  WUC_FUTURE(long) l = {};
  double d29 = 2.9;
  future_set(&l, d29);
  EXPECT_EQ(future_get(&l), 2);
}

TEST(Future, ArgumentsAreEvaluatedOnce) {
  WUC_FUTURE(int) fs[2] = {};
  int i = 0, v = 10;
  future_set(&fs[i++], v++);
  EXPECT_EQ(i, 1);
  EXPECT_EQ(v, 11);
  i = 0;
  EXPECT_EQ(future_get(&fs[i++]), 10);
  EXPECT_EQ(i, 1);
}

// The same macros compiled as C (future_c_api.c).
TEST(Future, TypedMacrosFromC) { EXPECT_EQ(future_c_api_check(), 0); }

TEST(Future, ResetMakesItEmptyAgain) {
  WUC_FUTURE(int) f = {};
  future_set(&f, 1);
  future_reset(&f);
  EXPECT_FALSE(future_ready(&f));
  EXPECT_TRUE(future_set(&f, 2));
  EXPECT_EQ(future_get(&f), 2);
}

struct Point {
  int x, y;
};
WUC_FUTURE_STRUCT(future_point, Point);

Point Receive(struct future_point *p) { return future_get(p); }

TEST(Future, NamedStructPassedBetweenFunctions) {
  struct future_point p = {};
  future_set(&p, (Point{3, 4}));
  Point got = Receive(&p);
  EXPECT_EQ(got.x, 3);
  EXPECT_EQ(got.y, 4);
}

// What wucc generates for future(T) is its own struct; the macros only need
// the members `core` and `value`.
struct handmade_future {
  wuc_future core;
  const char *value;
};

TEST(Future, MacrosWorkOnAnyStructWithCoreAndValue) {
  handmade_future h = {};
  EXPECT_TRUE(future_set(&h, "hello"));
  EXPECT_STREQ(future_get(&h), "hello");
}

TEST(Future, GetBlocksUntilSet) {
  struct future_int f = {};
  std::atomic<int> got{0};
  std::vector<uthread_t *> threads;
  for (int i = 0; i < 10; i++) threads.push_back(SpawnFn([&] { got += future_get(&f); }));
  for (uthread_t *t : threads) AwaitParked(t);
  EXPECT_EQ(got.load(), 0);
  future_set(&f, 7);
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_EQ(got.load(), 70);
  EXPECT_EQ(f.core.waiters.head, nullptr);
}

TEST(Future, ClauseOnReadyFutureCompletesAtOnce) {
  struct future_int f = {};
  future_set(&f, 5);
  int seen = 0;
  std::vector<Clause> c = {Bind(&f, WUC_TRAIT(future_int_register), [&] {
    seen = future_get(&f);
    return Flow::kNext;
  })};
  auto o = Waituntil(wuc_test::Leaf(0), c);
  EXPECT_EQ(o.ran, std::vector<int>{0});
  EXPECT_EQ(seen, 5);
}

TEST(Future, ClauseWaitsForTheSet) {
  struct future_int f = {};
  uthread_t *t = SpawnFn([&] {
    std::vector<Clause> c = {Bind(&f, WUC_TRAIT(future_int_register), [&] {
      EXPECT_EQ(future_get(&f), 9);
      return Flow::kNext;
    })};
    auto o = Waituntil(wuc_test::Leaf(0), c);
    EXPECT_EQ(o.ran, std::vector<int>{0});
  });
  AwaitParked(t);
  EXPECT_NE(f.core.waiters.head, nullptr);
  future_set(&f, 9);
  uthread_join(t);
  EXPECT_EQ(f.core.waiters.head, nullptr);
}

// A clause whose body runs has completed: resetting its future there is fine.
TEST(Future, ResetInTheBodyOfItsClauseIsAllowed) {
  WUC_FUTURE(int) f = {};
  future_set(&f, 1);
  std::vector<Clause> c = {Bind(&f.core, WUC_TRAIT(wuc_future_register), [&] {
    future_reset(&f);
    return Flow::kNext;
  })};
  auto o = Waituntil(wuc_test::Leaf(0), c);
  EXPECT_EQ(o.ran, std::vector<int>{0});
  EXPECT_FALSE(future_ready(&f));
}

} // namespace

// ---- misuse -----------------------------------------------------------------

static WUC_FUTURE(int) misuse_future;

// A thread waits in future_get while main resets the future.
WUC_SCENARIO(future_reset_while_thread_waits) {
  uthread_t *t = SpawnFn([] { future_get(&misuse_future); });
  AwaitParked(t);
  std::printf("fact future %p\n", static_cast<void *>(&misuse_future));
  future_reset(&misuse_future);
  std::printf("survived\n");
  return 0;
}

// A clause on the future is registered (its statement waits) during the reset.
WUC_SCENARIO(future_reset_while_clause_registered) {
  static latch other;
  uthread_t *t = SpawnFn([] {
    std::vector<Clause> c = {Bind(&misuse_future.core, WUC_TRAIT(wuc_future_register)),
                             Bind(&other, WUC_TRAIT(wuc_latch_register))};
    Waituntil(wuc_test::AnyOf(2), c);
  });
  AwaitParked(t);
  std::printf("fact future %p\n", static_cast<void *>(&misuse_future));
  future_reset(&misuse_future);
  std::printf("survived\n");
  return 0;
}

namespace {

std::string FactFuture(const wuc_test::ChildResult &r) {
  size_t at = r.out.find("fact future ");
  if (at == std::string::npos) return "?";
  std::string rest = r.out.substr(at + 12);
  return rest.substr(0, rest.find('\n'));
}

void ExpectResetMisuse(const wuc_test::ChildResult &r) {
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_EQ(r.err, "wuc: fatal: future_reset(" + FactFuture(r) +
                       "): a thread waits in future_get or a waituntil clause on the future is "
                       "still registered\n  in user thread 1 (main)\n")
      << r.Describe();
  EXPECT_EQ(r.out.find("survived"), std::string::npos) << r.Describe();
}

TEST(FutureMisuse, ResetWhileAThreadWaits) {
  for (const char *workers : {"1", "2"})
    ExpectResetMisuse(
        RunScenario("future_reset_while_thread_waits", {{"WUC_PROCESSORS", workers}}));
}

TEST(FutureMisuse, ResetWhileAClauseIsRegistered) {
  for (const char *workers : {"1", "2"})
    ExpectResetMisuse(
        RunScenario("future_reset_while_clause_registered", {{"WUC_PROCESSORS", workers}}));
}

} // namespace
