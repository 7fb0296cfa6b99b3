// semaphore_test.cc — semaphore: zero-initialised with no permits, init,
// blocking and try acquire, FIFO hand-off of permits among threads and
// clauses, clauses that take a permit and give it back, misuse messages.
#include <gtest/gtest.h>

#include <wuc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

semaphore static_semaphore; // zeroed storage

// Takes every available permit, gives them back, and says how many there were.
long CountPermits(semaphore *s) {
  long n = 0;
  while (semaphore_try_acquire(s)) n++;
  for (long i = 0; i < n; i++) semaphore_release(s);
  return n;
}

TEST(Semaphore, ZeroInitialisedHasNoPermits) {
  EXPECT_FALSE(semaphore_try_acquire(&static_semaphore));
  semaphore s = {};
  EXPECT_EQ(CountPermits(&s), 0);
  semaphore_release(&s);
  EXPECT_EQ(CountPermits(&s), 1);
}

TEST(Semaphore, InitGivesPermits) {
  semaphore s = {};
  semaphore_init(&s, 3);
  EXPECT_EQ(CountPermits(&s), 3);
  semaphore_acquire(&s);
  semaphore_acquire(&s);
  EXPECT_EQ(CountPermits(&s), 1);
  semaphore_release(&s);
  semaphore_release(&s);
  EXPECT_EQ(CountPermits(&s), 3);
}

TEST(Semaphore, AcquireBlocksUntilRelease) {
  semaphore s = {};
  std::atomic<bool> acquired{false};
  uthread_t *t = SpawnFn([&] {
    semaphore_acquire(&s);
    acquired = true;
  });
  AwaitParked(t);
  EXPECT_FALSE(acquired.load());
  semaphore_release(&s);
  uthread_join(t);
  EXPECT_TRUE(acquired.load());
  EXPECT_EQ(CountPermits(&s), 0); // handed over, never counted
}

// Waiters queue one after another (each parked before the next starts).
// One permit then travels down the queue: each thread gives it back after
// recording its turn, each clause when its body ends.
TEST(Semaphore, HandOffIsFifoAmongThreadsAndClauses) {
  semaphore s = {};
  std::vector<int> order;
  std::vector<uthread_t *> threads;
  for (int i = 0; i < 9; i++) {
    if (i % 3 != 1) {
      threads.push_back(SpawnFn([&, i] {
        semaphore_acquire(&s);
        order.push_back(i);
        semaphore_release(&s);
      }));
    } else {
      threads.push_back(SpawnFn([&, i] {
        std::vector<Clause> c = {Bind(&s, WUC_TRAIT(wuc_semaphore_register), [&, i] {
          order.push_back(i);
          return Flow::kNext;
        })};
        Waituntil(wuc_test::Leaf(0), c);
      }));
    }
    AwaitParked(threads.back());
  }
  semaphore_release(&s);
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(CountPermits(&s), 1);
}

TEST(Semaphore, ClauseTakesAPermitAndGivesItBack) {
  semaphore s = {};
  semaphore_init(&s, 2);
  std::vector<Clause> c = {Bind(&s, WUC_TRAIT(wuc_semaphore_register), [&] {
    EXPECT_EQ(CountPermits(&s), 1);
    return Flow::kNext;
  })};
  auto o = Waituntil(wuc_test::Leaf(0), c);
  EXPECT_EQ(o.ran, std::vector<int>{0});
  EXPECT_EQ(CountPermits(&s), 2);
}

TEST(Semaphore, ClauseWaitsForARelease) {
  semaphore s = {};
  latch never = {};
  uthread_t *t = SpawnFn([&] {
    std::vector<Clause> c = {Bind(&never, WUC_TRAIT(wuc_latch_register)),
                             Bind(&s, WUC_TRAIT(wuc_semaphore_register), [&] {
                               EXPECT_EQ(CountPermits(&s), 0);
                               return Flow::kNext;
                             })};
    auto o = Waituntil(wuc_test::AnyOf(2), c);
    EXPECT_EQ(o.ran, std::vector<int>{1});
  });
  AwaitParked(t);
  semaphore_release(&s);
  uthread_join(t);
  EXPECT_EQ(CountPermits(&s), 1);
  EXPECT_EQ(never.waiters.head, nullptr);
}

} // namespace

// ---- misuse -----------------------------------------------------------------

WUC_SCENARIO(semaphore_init_negative) {
  static semaphore s;
  std::printf("fact semaphore %p\n", static_cast<void *>(&s));
  semaphore_init(&s, -1);
  std::printf("survived\n");
  return 0;
}

WUC_SCENARIO(semaphore_init_twice) {
  static semaphore s;
  std::printf("fact semaphore %p\n", static_cast<void *>(&s));
  semaphore_init(&s, 1);
  semaphore_init(&s, 1);
  std::printf("survived\n");
  return 0;
}

WUC_SCENARIO(semaphore_init_after_use) {
  static semaphore s;
  std::printf("fact semaphore %p\n", static_cast<void *>(&s));
  semaphore_release(&s);
  semaphore_init(&s, 5);
  std::printf("survived\n");
  return 0;
}

// Garbage with `used` clear, as in a local semaphore without an initialiser:
// a lock word that is neither 0 nor 1 ($SEM_GARBAGE=lock) or, with the lock
// free, queue links (links).
WUC_SCENARIO(semaphore_init_not_zeroed) {
  static semaphore s;
  std::printf("fact semaphore %p\n", static_cast<void *>(&s));
  std::memset(static_cast<void *>(&s), 0x5a, sizeof s);
  s.used = false;
  if (std::string(std::getenv("SEM_GARBAGE")) == "links") s.waiters.lock.store(0);
  semaphore_init(&s, 5);
  std::printf("survived\n");
  return 0;
}

namespace {

void ExpectFatal(const wuc_test::ChildResult &r, const std::string &message_after_pointer) {
  EXPECT_TRUE(ExitedWith(r, 2));
  size_t at = r.out.find("fact semaphore ");
  std::string pointer = at == std::string::npos ? "?" : r.out.substr(at + 15);
  pointer = pointer.substr(0, pointer.find('\n'));
  EXPECT_EQ(r.err, "wuc: fatal: semaphore_init(" + pointer + message_after_pointer +
                       "\n  in user thread 1 (main)\n")
      << r.Describe();
  EXPECT_EQ(r.out.find("survived"), std::string::npos) << r.Describe();
}

TEST(SemaphoreMisuse, InitWithANegativeCount) {
  ExpectFatal(RunScenario("semaphore_init_negative"), ", -1): negative permit count");
}

TEST(SemaphoreMisuse, InitTwice) {
  ExpectFatal(RunScenario("semaphore_init_twice"),
              "): the semaphore was already initialised or used");
}

TEST(SemaphoreMisuse, InitAfterUse) {
  ExpectFatal(RunScenario("semaphore_init_after_use"),
              "): the semaphore was already initialised or used");
}

TEST(SemaphoreMisuse, InitOnASemaphoreNotZeroed) {
  for (const char *garbage : {"lock", "links"}) {
    SCOPED_TRACE(garbage);
    ExpectFatal(RunScenario("semaphore_init_not_zeroed", {{"SEM_GARBAGE", garbage}}),
                "): the semaphore is not zeroed (declare it static, or with = {0}, or allocate it "
                "with calloc: semaphore_init goes on a zeroed, unused semaphore)");
  }
}

} // namespace
