// lock_test.cc — owner_lock: zero-initialised unlocked, recursion, blocking
// and try acquire, FIFO hand-off among threads and clauses (a clause whose
// claim is lost is skipped), clauses that acquire and release, and the
// misuse messages.
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

owner_lock static_lock; // zeroed storage

// Whether another user thread could take l right now.
bool FreeForOthers(owner_lock *l) {
  bool taken = false;
  uthread_join(SpawnFn([&] {
    taken = lock_try_acquire(l);
    if (taken) lock_release(l);
  }));
  return taken;
}

TEST(OwnerLock, ZeroInitialisedIsUnlocked) {
  EXPECT_TRUE(FreeForOthers(&static_lock));
  owner_lock local = {};
  EXPECT_TRUE(lock_try_acquire(&local));
  lock_release(&local);
  EXPECT_EQ(local.owner, nullptr);
}

TEST(OwnerLock, RecursionNeedsAsManyReleases) {
  owner_lock l = {};
  lock_acquire(&l);
  lock_acquire(&l);
  EXPECT_TRUE(lock_try_acquire(&l));
  EXPECT_EQ(l.depth, 3u);
  lock_release(&l);
  lock_release(&l);
  EXPECT_FALSE(FreeForOthers(&l));
  lock_release(&l);
  EXPECT_TRUE(FreeForOthers(&l));
}

TEST(OwnerLock, TryAcquireFailsWhileAnotherThreadHoldsIt) {
  owner_lock l = {};
  lock_acquire(&l);
  EXPECT_FALSE(FreeForOthers(&l));
  lock_release(&l);
}

TEST(OwnerLock, AcquireBlocksUntilRelease) {
  owner_lock l = {};
  std::atomic<bool> acquired{false};
  lock_acquire(&l);
  uthread_t *t = SpawnFn([&] {
    lock_acquire(&l);
    acquired = true;
    lock_release(&l);
  });
  AwaitParked(t);
  EXPECT_FALSE(acquired.load());
  lock_release(&l);
  uthread_join(t);
  EXPECT_TRUE(acquired.load());
  EXPECT_EQ(l.owner, nullptr);
}

// Waiters are queued one after another (each parked before the next
// starts); a release must serve them in that order.
TEST(OwnerLock, HandOffIsFifoAmongThreads) {
  owner_lock l = {};
  std::vector<int> order;
  std::vector<uthread_t *> threads;
  lock_acquire(&l);
  for (int i = 0; i < 8; i++) {
    threads.push_back(SpawnFn([&, i] {
      lock_acquire(&l);
      order.push_back(i);
      lock_release(&l);
    }));
    AwaitParked(threads.back());
  }
  lock_release(&l);
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(OwnerLock, HandOffIsFifoAmongThreadsAndClauses) {
  owner_lock l = {};
  std::vector<int> order;
  std::vector<uthread_t *> threads;
  lock_acquire(&l);
  for (int i = 0; i < 8; i++) {
    if (i % 2 == 0) {
      threads.push_back(SpawnFn([&, i] {
        lock_acquire(&l);
        order.push_back(i);
        lock_release(&l);
      }));
    } else {
      threads.push_back(SpawnFn([&, i] {
        std::vector<Clause> c = {Bind(&l, WUC_TRAIT(wuc_owner_lock_register), [&, i] {
          EXPECT_EQ(l.owner, uthread_self());
          order.push_back(i);
          return Flow::kNext;
        })};
        Waituntil(wuc_test::Leaf(0), c);
      }));
    }
    AwaitParked(threads.back());
  }
  lock_release(&l);
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(l.owner, nullptr);
}

TEST(OwnerLock, ClauseOnFreeLockHoldsItDuringTheBody) {
  owner_lock l = {};
  std::vector<Clause> c = {Bind(&l, WUC_TRAIT(wuc_owner_lock_register), [&] {
    EXPECT_EQ(l.owner, uthread_self());
    EXPECT_FALSE(FreeForOthers(&l));
    return Flow::kNext;
  })};
  auto o = Waituntil(wuc_test::Leaf(0), c);
  EXPECT_EQ(o.ran, std::vector<int>{0});
  EXPECT_TRUE(FreeForOthers(&l));
}

TEST(OwnerLock, ClauseOnALockTheThreadHoldsRecurses) {
  owner_lock l = {};
  lock_acquire(&l);
  std::vector<Clause> c = {Bind(&l, WUC_TRAIT(wuc_owner_lock_register), [&] {
    EXPECT_EQ(l.depth, 2u);
    return Flow::kNext;
  })};
  auto o = Waituntil(wuc_test::Leaf(0), c);
  EXPECT_EQ(o.ran, std::vector<int>{0});
  EXPECT_EQ(l.owner, uthread_self());
  EXPECT_EQ(l.depth, 1u);
  lock_release(&l);
}

TEST(OwnerLock, ClauseGetsTheLockHandedOver) {
  owner_lock l = {};
  latch never = {};
  lock_acquire(&l);
  uthread_t *t = SpawnFn([&] {
    std::vector<Clause> c = {Bind(&never, WUC_TRAIT(wuc_latch_register)),
                             Bind(&l, WUC_TRAIT(wuc_owner_lock_register), [&] {
                               EXPECT_EQ(l.owner, uthread_self());
                               return Flow::kNext;
                             })};
    auto o = Waituntil(wuc_test::AnyOf(2), c);
    EXPECT_EQ(o.ran, std::vector<int>{1});
  });
  AwaitParked(t);
  lock_release(&l);
  uthread_join(t);
  EXPECT_EQ(l.owner, nullptr);
  EXPECT_EQ(never.waiters.head, nullptr);
}

} // namespace

// ---- a release skips a queued clause whose claim is lost -------------------

// One worker, so the order of events is fixed: T1 queues a clause on l (and
// one on e), T2 queues in lock_acquire; main sets e, which makes T1's
// statement won (T1 is runnable but does not run until main blocks), then
// releases l: T1's node is still queued but its claim is lost, so the lock
// must go to T2.
WUC_SCENARIO(lock_release_skips_lost_clause) {
  static owner_lock l;
  static latch e;
  static std::vector<int> order;
  lock_acquire(&l);
  uthread_t *t1 = SpawnFn([] {
    std::vector<Clause> c = {Bind(&l, WUC_TRAIT(wuc_owner_lock_register),
                                  [] {
                                    order.push_back(10);
                                    return Flow::kNext;
                                  }),
                             Bind(&e, WUC_TRAIT(wuc_latch_register), [] {
                               order.push_back(1);
                               return Flow::kNext;
                             })};
    auto o = Waituntil(wuc_test::AnyOf(2), c);
    SCENARIO_CHECK(o.ran == std::vector<int>{1}, "T1 ran %zu bodies", o.ran.size());
  });
  wuc_test::AwaitParked(t1);
  uthread_t *t2 = SpawnFn([] {
    lock_acquire(&l);
    order.push_back(2);
    lock_release(&l);
  });
  wuc_test::AwaitParked(t2);
  latch_set(&e);
  lock_release(&l); // T1's node first in the queue, claim lost: skipped
  SCENARIO_CHECK(l.owner == t2, "the lock went to %p, not T2", static_cast<void *>(l.owner));
  uthread_join(t1);
  uthread_join(t2);
  SCENARIO_CHECK(l.owner == nullptr && l.waiters.head == nullptr, "lock left busy");
  SCENARIO_CHECK(order.size() == 2, "%zu bodies", order.size());
  return 0;
}

// ---- misuse -----------------------------------------------------------------

static owner_lock misuse_lock;

WUC_SCENARIO(lock_release_not_held) {
  std::printf("fact lock %p\n", static_cast<void *>(&misuse_lock));
  lock_release(&misuse_lock);
  std::printf("survived\n");
  return 0;
}

WUC_SCENARIO(lock_release_held_by_another) {
  static latch done;
  uthread_t *holder = SpawnFn([] {
    lock_acquire(&misuse_lock);
    latch_wait(&done);
  });
  while (!misuse_lock.owner) uthread_sleep(microseconds(20));
  std::printf("fact lock %p\n", static_cast<void *>(&misuse_lock));
  std::printf("fact holder %lu\n", uthread_id(holder));
  lock_release(&misuse_lock);
  std::printf("survived\n");
  return 0;
}

WUC_SCENARIO(lock_released_in_clause_body) {
  std::printf("fact lock %p\n", static_cast<void *>(&misuse_lock));
  std::vector<Clause> c = {Bind(&misuse_lock, WUC_TRAIT(wuc_owner_lock_register), [] {
    lock_release(&misuse_lock); // the clause's own hold: unregister finds it gone
    return Flow::kNext;
  })};
  Waituntil(wuc_test::Leaf(0), c);
  std::printf("survived\n");
  return 0;
}

namespace {

std::string Fact(const wuc_test::ChildResult &r, const std::string &name) {
  size_t at = r.out.find("fact " + name + " ");
  if (at == std::string::npos) return "?";
  std::string rest = r.out.substr(at + name.size() + 6);
  return rest.substr(0, rest.find('\n'));
}

void ExpectFatal(const wuc_test::ChildResult &r, const std::string &message) {
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_EQ(r.err, "wuc: fatal: " + message + "\n  in user thread 1 (main)\n") << r.Describe();
  EXPECT_EQ(r.out.find("survived"), std::string::npos) << r.Describe();
}

TEST(OwnerLock, ReleaseSkipsAQueuedClauseWhoseClaimIsLost) {
  auto r = RunScenario("lock_release_skips_lost_clause", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

TEST(OwnerLockMisuse, ReleaseNotHeld) {
  auto r = RunScenario("lock_release_not_held");
  ExpectFatal(r, "lock_release(" + Fact(r, "lock") + "): the lock is not held");
}

TEST(OwnerLockMisuse, ReleaseHeldByAnotherThread) {
  auto r = RunScenario("lock_release_held_by_another", {{"WUC_PROCESSORS", "2"}});
  ExpectFatal(r, "lock_release(" + Fact(r, "lock") + "): the lock is held by user thread " +
                     Fact(r, "holder"));
}

TEST(OwnerLockMisuse, ClauseBodyReleasesTheClausesLock) {
  auto r = RunScenario("lock_released_in_clause_body");
  ExpectFatal(r, "waituntil: owner_lock " + Fact(r, "lock") +
                     ", acquired by a clause, is no longer held when the clause ends (was it "
                     "released in the body?)");
}

} // namespace
