// select_stmt_test.cc — hand-lowered waituntil statements over the
// library's resources (harness/waituntil): or-priority, and-trees that run
// each body as soon as its clause completes, mixed trees that release an
// unneeded lock without running its body, guards, else, jumps out of a
// body, and clauses dropped while their all-or statement registers (the
// re-register rule).
#include <gtest/gtest.h>

#include <wuc.h>

#include <atomic>
#include <vector>

#include "runtime_probe.h"
#include "scenario.h"
#include "spawn_fn.h"
#include "subprocess.h"
#include "waituntil.h"

WUC_FUTURE_STRUCT(stmt_future, int);

namespace {

using wuc_test::And;
using wuc_test::AnyOf;
using wuc_test::AwaitParked;
using wuc_test::Bind;
using wuc_test::Clause;
using wuc_test::ExitedWith;
using wuc_test::Flow;
using wuc_test::Leaf;
using wuc_test::Or;
using wuc_test::RunScenario;
using wuc_test::SpawnFn;
using wuc_test::Waituntil;

std::function<Flow()> Note(std::vector<int> &log, int id) {
  return [&log, id] {
    log.push_back(id);
    return Flow::kNext;
  };
}

Clause FutureClause(stmt_future *f, std::function<Flow()> body = nullptr, bool guard = true) {
  return Bind(f, WUC_TRAIT(stmt_future_register), std::move(body), guard);
}
Clause LockClause(owner_lock *l, std::function<Flow()> body = nullptr, bool guard = true) {
  return Bind(l, WUC_TRAIT(wuc_owner_lock_register), std::move(body), guard);
}
Clause SemClause(semaphore *s, std::function<Flow()> body = nullptr) {
  return Bind(s, WUC_TRAIT(wuc_semaphore_register), std::move(body));
}
Clause LatchClause(latch *e, std::function<Flow()> body = nullptr, bool guard = true) {
  return Bind(e, WUC_TRAIT(wuc_latch_register), std::move(body), guard);
}
Clause TimeoutClause(wuc_timeout *t, std::function<Flow()> body = nullptr) {
  return Bind(t, WUC_TRAIT(wuc_timeout_register), std::move(body));
}

bool Free(owner_lock *l) { return l->owner == nullptr && l->waiters.head == nullptr; }

// ---- or -----------------------------------------------------------------------

TEST(Waituntil, OrRunsExactlyOneBodyTheFirstReadyInSourceOrder) {
  stmt_future a = {}, b = {}, c = {};
  future_set(&b, 2);
  future_set(&c, 3);
  std::vector<int> log;
  std::vector<Clause> cl = {FutureClause(&a, Note(log, 0)), FutureClause(&b, Note(log, 1)),
                            FutureClause(&c, Note(log, 2))};
  auto o = Waituntil(AnyOf(3), cl);
  EXPECT_TRUE(o.all_or);
  EXPECT_EQ(log, std::vector<int>{1});
  EXPECT_EQ(a.core.waiters.head, nullptr); // the try-only pass queued nothing
}

TEST(Waituntil, OrWaitsForTheFirstToComplete) {
  stmt_future a = {}, b = {};
  std::vector<int> log;
  uthread_t *t = SpawnFn([&] {
    std::vector<Clause> cl = {FutureClause(&a, Note(log, 0)), FutureClause(&b, Note(log, 1))};
    auto o = Waituntil(AnyOf(2), cl);
    EXPECT_TRUE(o.completed_unrun.empty());
  });
  AwaitParked(t);
  future_set(&b, 1);
  future_set(&a, 1);
  uthread_join(t);
  EXPECT_EQ(log, std::vector<int>{1});
  EXPECT_EQ(a.core.waiters.head, nullptr);
  EXPECT_EQ(b.core.waiters.head, nullptr);
}

// ---- and ----------------------------------------------------------------------

// A and B and C: every body runs, each as soon as its future is set (the
// setter waits for B's body before it sets C, and for C's before A).
TEST(Waituntil, AndRunsEachBodyAsSoonAsItsClauseCompletes) {
  stmt_future a = {}, b = {}, c = {};
  std::vector<int> log;
  std::atomic<int> bodies{0};
  auto body = [&](int id) {
    return [&, id] {
      log.push_back(id);
      bodies++;
      return Flow::kNext;
    };
  };
  uthread_t *setter = SpawnFn([&] {
    future_set(&b, 1);
    while (bodies.load() < 1) uthread_sleep(microseconds(20));
    future_set(&c, 1);
    while (bodies.load() < 2) uthread_sleep(microseconds(20));
    future_set(&a, 1);
  });
  std::vector<Clause> cl = {FutureClause(&a, body(0)), FutureClause(&b, body(1)),
                            FutureClause(&c, body(2))};
  auto o = Waituntil(And({Leaf(0), Leaf(1), Leaf(2)}), cl);
  uthread_join(setter);
  EXPECT_FALSE(o.all_or);
  EXPECT_EQ(log, (std::vector<int>{1, 2, 0}));
}

TEST(Waituntil, AndClausesReadyTogetherRunInSourceOrder) {
  stmt_future a = {}, b = {}, c = {};
  future_set(&c, 1);
  future_set(&a, 1);
  future_set(&b, 1);
  std::vector<int> log;
  std::vector<Clause> cl = {FutureClause(&a, Note(log, 0)), FutureClause(&b, Note(log, 1)),
                            FutureClause(&c, Note(log, 2))};
  Waituntil(And({Leaf(0), Leaf(1), Leaf(2)}), cl);
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2}));
}

// ---- mixed and/or ---------------------------------------------------------------

// (A or B) and C with locks: A and B are free, so both are acquired at
// registration; A's body runs, B is no longer needed: released, body not run.
TEST(Waituntil, MixedTreeReleasesAnUnneededLockWithoutItsBody) {
  owner_lock a = {}, b = {}, c = {};
  std::atomic<bool> holding{false};
  latch let_go = {};
  uthread_t *holder = SpawnFn([&] {
    lock_acquire(&c);
    holding = true;
    latch_wait(&let_go);
    lock_release(&c);
  });
  while (!holding.load()) uthread_sleep(microseconds(20));
  std::vector<int> log;
  std::vector<Clause> cl = {LockClause(&a,
                                       [&] {
                                         log.push_back(0);
                                         EXPECT_EQ(a.owner, uthread_self());
                                         latch_set(&let_go); // now C can come
                                         return Flow::kNext;
                                       }),
                            LockClause(&b, Note(log, 1)), LockClause(&c, [&] {
                              log.push_back(2);
                              EXPECT_EQ(c.owner, uthread_self());
                              EXPECT_TRUE(Free(&b));
                              return Flow::kNext;
                            })};
  auto o = Waituntil(And({Or({Leaf(0), Leaf(1)}), Leaf(2)}), cl);
  uthread_join(holder);
  EXPECT_EQ(log, (std::vector<int>{0, 2}));
  EXPECT_EQ(o.completed_unrun, std::vector<int>{1});
  EXPECT_TRUE(Free(&a));
  EXPECT_TRUE(Free(&b));
  EXPECT_TRUE(Free(&c));
}

// (A and B) or C: C completes first, A and B are withdrawn (B held: it
// never even queued... A's queued node leaves the queue).
TEST(Waituntil, MixedTreeWithdrawsTheOtherOperandOfASatisfiedOr) {
  stmt_future a = {}, b = {}, c = {};
  future_set(&c, 1);
  std::vector<int> log;
  std::vector<Clause> cl = {FutureClause(&a, Note(log, 0)), FutureClause(&b, Note(log, 1)),
                            FutureClause(&c, Note(log, 2))};
  auto o = Waituntil(Or({And({Leaf(0), Leaf(1)}), Leaf(2)}), cl);
  EXPECT_FALSE(o.all_or);
  EXPECT_EQ(log, std::vector<int>{2});
  EXPECT_EQ(a.core.waiters.head, nullptr);
  EXPECT_EQ(b.core.waiters.head, nullptr);
}

// ---- guards ---------------------------------------------------------------------

// A false guard removes its clause: its resource is never touched (here it
// is NULL).
TEST(Waituntil, FalseGuardNeverTouchesItsResource) {
  stmt_future ready = {};
  future_set(&ready, 1);
  owner_lock *no_lock = nullptr;
  std::vector<int> log;
  std::vector<Clause> cl = {LockClause(no_lock, Note(log, 0), /*guard=*/false),
                            FutureClause(&ready, Note(log, 1))};
  EXPECT_EQ(Waituntil(AnyOf(2), cl).ran, std::vector<int>{1});
  std::vector<Clause> mixed = {LockClause(no_lock, Note(log, 2), /*guard=*/false),
                               FutureClause(&ready, Note(log, 3))};
  EXPECT_EQ(Waituntil(And({Leaf(0), Leaf(1)}), mixed).ran, std::vector<int>{1});
  EXPECT_EQ(log, (std::vector<int>{1, 3}));
}

// when (true) A or when (false) B and C behaves as A or C.
TEST(Waituntil, FalseGuardIsTheIdentityOfItsParent) {
  stmt_future a = {}, c = {};
  future_set(&c, 1);
  latch *no_latch = nullptr;
  std::vector<int> log;
  std::vector<Clause> cl = {FutureClause(&a, Note(log, 0)),
                            LatchClause(no_latch, Note(log, 1), /*guard=*/false),
                            FutureClause(&c, Note(log, 2))};
  auto o = Waituntil(Or({Leaf(0), And({Leaf(1), Leaf(2)})}), cl);
  EXPECT_EQ(log, std::vector<int>{2});
  EXPECT_EQ(a.core.waiters.head, nullptr);
}

TEST(Waituntil, EveryGuardFalseDoesNothingNotEvenTheElse) {
  bool else_ran = false;
  std::vector<Clause> cl = {LockClause(nullptr, nullptr, false),
                            LatchClause(nullptr, nullptr, false)};
  auto o = Waituntil(AnyOf(2), cl, [&] { else_ran = true; });
  EXPECT_TRUE(o.nothing);
  EXPECT_FALSE(else_ran);
}

// ---- else -----------------------------------------------------------------------

// Nothing ready: the else runs, and no clause stays queued or holds anything.
TEST(Waituntil, ElseRunsWhenNothingIsReadyAndLeavesNothingRegistered) {
  owner_lock l = {};
  semaphore s = {};
  stmt_future f = {};
  latch e = {};
  std::atomic<bool> holding{false};
  latch let_go = {};
  uthread_t *holder = SpawnFn([&] {
    lock_acquire(&l);
    holding = true;
    latch_wait(&let_go);
    lock_release(&l);
  });
  while (!holding.load()) uthread_sleep(microseconds(20));
  wuc_timeout t = wuc_timeout_make(seconds(60));
  std::vector<int> log;
  std::vector<Clause> cl = {LockClause(&l, Note(log, 0)), SemClause(&s, Note(log, 1)),
                            FutureClause(&f, Note(log, 2)), LatchClause(&e, Note(log, 3)),
                            TimeoutClause(&t, Note(log, 4))};
  bool else_ran = false;
  auto o = Waituntil(AnyOf(5), cl, [&] { else_ran = true; });
  EXPECT_TRUE(else_ran);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(l.waiters.head, nullptr);
  EXPECT_EQ(s.waiters.head, nullptr);
  EXPECT_EQ(f.core.waiters.head, nullptr);
  EXPECT_EQ(e.waiters.head, nullptr);
  EXPECT_EQ(probe_pending_timers(), 0);
  latch_set(&let_go);
  uthread_join(holder);
  EXPECT_TRUE(Free(&l));
}

TEST(Waituntil, ElseIsExclusiveWithAReadyClause) {
  semaphore s = {};
  semaphore_init(&s, 1);
  latch e = {};
  std::vector<int> log;
  std::vector<Clause> cl = {LatchClause(&e, Note(log, 0)), SemClause(&s, Note(log, 1))};
  bool else_ran = false;
  auto o = Waituntil(AnyOf(2), cl, [&] { else_ran = true; });
  EXPECT_FALSE(else_ran);
  EXPECT_EQ(log, std::vector<int>{1});
  EXPECT_TRUE(semaphore_try_acquire(&s)); // the permit came back
}

// A and B or else, with only A ready: A's body runs, then (the tree is not
// satisfied) B is withdrawn and the else runs.
TEST(Waituntil, MixedElseRunsReadyBodiesThenTheElse) {
  owner_lock a = {};
  latch b = {};
  std::vector<int> log;
  std::vector<Clause> cl = {LockClause(&a, Note(log, 0)), LatchClause(&b, Note(log, 1))};
  auto o = Waituntil(And({Leaf(0), Leaf(1)}), cl, [&] { log.push_back(9); });
  EXPECT_EQ(log, (std::vector<int>{0, 9}));
  EXPECT_TRUE(Free(&a));
  EXPECT_EQ(b.waiters.head, nullptr);
}

// ---- jumps out of a body ----------------------------------------------------------

// A body that breaks out: the statement's clauses are withdrawn, its lock
// released.
TEST(Waituntil, JumpOutOfABodyReleasesTheLock) {
  owner_lock l = {};
  latch never = {};
  std::vector<Clause> cl = {LatchClause(&never), LockClause(&l, [&] {
                              EXPECT_EQ(l.owner, uthread_self());
                              return Flow::kJump; // break
                            })};
  auto o = Waituntil(AnyOf(2), cl);
  EXPECT_TRUE(o.jumped);
  EXPECT_EQ(o.ran, std::vector<int>{1});
  EXPECT_TRUE(Free(&l));
  EXPECT_EQ(never.waiters.head, nullptr);
}

// In A and B, A's body jumps: B (a lock acquired at registration) is
// released with its body skipped; C's queued node leaves its queue.
TEST(Waituntil, JumpOutOfAnAndReleasesWhatOtherClausesAcquired) {
  owner_lock a = {}, b = {};
  latch c = {};
  std::vector<int> log;
  std::vector<Clause> cl = {LockClause(&a,
                                       [&] {
                                         log.push_back(0);
                                         return Flow::kJump;
                                       }),
                            LockClause(&b, Note(log, 1)), LatchClause(&c, Note(log, 2))};
  auto o = Waituntil(And({Leaf(0), Leaf(1), Leaf(2)}), cl);
  EXPECT_TRUE(o.jumped);
  EXPECT_EQ(log, std::vector<int>{0});
  EXPECT_EQ(o.completed_unrun, std::vector<int>{1});
  EXPECT_TRUE(Free(&a));
  EXPECT_TRUE(Free(&b));
  EXPECT_EQ(c.waiters.head, nullptr);
}

} // namespace

// ---- clauses dropped while their statement registers --------------------------

// A test resource whose register (not the try-only pass) blocks until told
// (as a user type built on a blocking lock may): it keeps its statement in
// the registration phase while others try to claim the statement's earlier
// clauses.
struct dawdle {
  std::atomic<bool> inside{false};
  std::function<bool()> until;
};
static bool dawdle_register(dawdle *d, wuc_select_node *n) {
  if (n->try_only) return false;
  d->inside = true;
  while (!d->until()) uthread_sleep(microseconds(50));
  return false;
}
static bool dawdle_unregister(dawdle *, wuc_select_node *n) { return wuc_select_withdraw(n); }
static bool dawdle_on_selected(dawdle *, wuc_select_node *n) { return n->needed; }
WUC_SELECTABLE(dawdle, dawdle_register, dawdle_unregister, dawdle_on_selected);

namespace {

// T runs `first or dawdle`.  While T is inside dawdle_register, main
// completes `first`: the claim meets the registering statement, so the
// clause is dropped, registered again, and then completes at once.
// (One worker: main runs only while T sleeps in dawdle_register.)
void RegisteredAgain(Clause first, std::function<void()> complete_it,
                     std::function<void()> check_after = nullptr) {
  static dawdle d;
  static std::atomic<bool> done;
  d.inside = false;
  done = false;
  d.until = [] { return done.load(); };
  int again = -1;
  std::vector<int> ran;
  uthread_t *t = SpawnFn([&] {
    std::vector<Clause> cl = {first, Bind(&d, WUC_TRAIT(dawdle_register))};
    auto o = Waituntil(AnyOf(2), cl);
    again = o.registered_again;
    ran = o.ran;
  });
  while (!d.inside) uthread_sleep(microseconds(50));
  complete_it();
  done = true;
  uthread_join(t);
  SCENARIO_CHECK(again == 1, "registered again %d times", again);
  SCENARIO_CHECK(ran == std::vector<int>{0}, "%zu bodies ran", ran.size());
  if (check_after) check_after();
}

} // namespace

WUC_SCENARIO(reregister_latch_clause) {
  static latch e;
  RegisteredAgain(LatchClause(&e), [] { latch_set(&e); });
  SCENARIO_CHECK(e.waiters.head == nullptr, "left queued");
  return 0;
}

WUC_SCENARIO(reregister_future_clause) {
  static stmt_future f;
  RegisteredAgain(FutureClause(&f), [] { future_set(&f, 1); });
  SCENARIO_CHECK(f.core.waiters.head == nullptr, "left queued");
  return 0;
}

WUC_SCENARIO(reregister_lock_clause) {
  static owner_lock l;
  lock_acquire(&l);
  RegisteredAgain(LockClause(&l), [] { lock_release(&l); });
  SCENARIO_CHECK(Free(&l), "the lock stayed busy");
  return 0;
}

WUC_SCENARIO(reregister_semaphore_clause) {
  static semaphore s;
  RegisteredAgain(SemClause(&s), [] { semaphore_release(&s); });
  SCENARIO_CHECK(semaphore_try_acquire(&s) && !semaphore_try_acquire(&s), "permit lost");
  return 0;
}

// The timeout's fire meets the registering statement.  Its deadline must
// pass after the clause registered and before dawdle lets go: T waits in
// dawdle until it has, and main completes nothing.
WUC_SCENARIO(reregister_timeout_clause) {
  static wuc_timeout t;
  static dawdle d;
  t = wuc_timeout_make(milliseconds(5));
  d.until = [] { return wuc_now() > t.deadline + milliseconds(1); };
  std::vector<Clause> cl = {TimeoutClause(&t), Bind(&d, WUC_TRAIT(dawdle_register))};
  auto o = Waituntil(AnyOf(2), cl);
  SCENARIO_CHECK(o.ran == std::vector<int>{0}, "%zu bodies ran", o.ran.size());
  SCENARIO_CHECK(probe_pending_timers() == 0, "a timer left pending");
  // Registered again unless the deadline passed before the clause registered
  // (a 5 ms stall between two calls): then it completed at once.
  std::printf("registered again %d\n", o.registered_again);
  return 0;
}

namespace {

TEST(Waituntil, ClauseDroppedWhileItsStatementRegistersIsRegisteredAgain) {
  for (const char *name : {"reregister_latch_clause", "reregister_future_clause",
                           "reregister_lock_clause", "reregister_semaphore_clause"}) {
    auto r = RunScenario(name, {{"WUC_PROCESSORS", "1"}});
    EXPECT_TRUE(ExitedWith(r, 0)) << name << "\n" << r.Describe();
  }
}

TEST(Waituntil, TimeoutFiredWhileItsStatementRegistersIsRegisteredAgain) {
  for (const char *workers : {"1", "2"}) {
    auto r = RunScenario("reregister_timeout_clause", {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
  }
}

} // namespace
