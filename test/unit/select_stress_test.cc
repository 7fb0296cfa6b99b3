// select_stress_test.cc — many threads running hand-lowered waituntil
// statements against each other and against plain lock / semaphore users,
// at 1, 2 and 8 workers (child processes).  Checked: exactly one body per
// all-or statement (never the never-set latch's), the lock and the
// semaphore's limits hold inside bodies, permits are conserved and locks end
// free, every mixed statement runs one body of its `or` and the other
// operand's, and no wake-up is lost (every thread finishes; the watchdog
// catches a hang).
#include <gtest/gtest.h>

#include <wuc.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "runtime_probe.h"
#include "scenario.h"
#include "spawn_fn.h"
#include "subprocess.h"
#include "waituntil.h"

WUC_FUTURE_STRUCT(stress_future, int);

namespace {

using wuc_test::And;
using wuc_test::Bind;
using wuc_test::Clause;
using wuc_test::Flow;
using wuc_test::Leaf;
using wuc_test::Or;
using wuc_test::SpawnFn;
using wuc_test::Waituntil;

uint32_t Next(uint32_t &x) { // xorshift32
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

// Occupancy of a lock or semaphore, checked inside the critical section.
struct Gauge {
  std::atomic<int> inside{0};
  void Enter(int limit, const char *what) {
    int before = inside.fetch_add(1);
    SCENARIO_CHECK(before < limit, "%d threads inside %s (limit %d)", before + 1, what, limit);
  }
  void Leave() { inside.fetch_sub(1); }
};

bool Free(owner_lock *l) { return l->owner == nullptr && l->waiters.head == nullptr; }

long Permits(semaphore *s) {
  long n = 0;
  while (semaphore_try_acquire(s)) n++;
  for (long i = 0; i < n; i++) semaphore_release(s);
  return n;
}

// ---- all-or over locks, a semaphore, a latch and a timeout --------------------

constexpr int kLocks = 3, kPermits = 2;

struct Shared {
  owner_lock locks[kLocks] = {};
  semaphore sem = {};
  latch never = {};
  Gauge lock_gauge[kLocks], sem_gauge;
  std::atomic<long> bodies{0}, statements{0}, waited{0}, again{0};
};

// One statement over every resource, in an order that changes with i.
void ExclusiveStatement(Shared &sh, uint32_t &rng) {
  wuc_timeout t = wuc_timeout_make(microseconds(Next(rng) % 40));
  bool jump = Next(rng) % 8 == 0;
  auto lock_body = [&sh, jump](int i) {
    return [&sh, i, jump] {
      SCENARIO_CHECK(sh.locks[i].owner == uthread_self(), "lock %d body without the lock", i);
      sh.lock_gauge[i].Enter(1, "a lock");
      if (jump) uthread_yield();
      sh.lock_gauge[i].Leave();
      sh.bodies++;
      return jump ? Flow::kJump : Flow::kNext;
    };
  };
  std::vector<Clause> c;
  for (int i = 0; i < kLocks; i++)
    c.push_back(Bind(&sh.locks[i], WUC_TRAIT(wuc_owner_lock_register), lock_body(i)));
  c.push_back(Bind(&sh.sem, WUC_TRAIT(wuc_semaphore_register), [&sh] {
    sh.sem_gauge.Enter(kPermits, "the semaphore");
    uthread_yield();
    sh.sem_gauge.Leave();
    sh.bodies++;
    return Flow::kNext;
  }));
  c.push_back(Bind(&sh.never, WUC_TRAIT(wuc_latch_register), [] {
    SCENARIO_CHECK(false, "the never-set latch's body ran");
    return Flow::kNext;
  }));
  c.push_back(Bind(&t, WUC_TRAIT(wuc_timeout_register), [&sh] {
    sh.bodies++;
    return Flow::kNext;
  }));
  // Rotate the source order: each resource gets to be first.
  size_t first = Next(rng) % c.size();
  std::vector<Clause> ordered;
  for (size_t k = 0; k < c.size(); k++) ordered.push_back(c[(first + k) % c.size()]);
  auto o = Waituntil(wuc_test::AnyOf(ordered.size()), ordered);
  SCENARIO_CHECK(o.ran.size() == 1, "%zu bodies ran in an all-or statement", o.ran.size());
  SCENARIO_CHECK(o.completed_unrun.empty(), "a clause completed without winning");
  sh.statements++;
  sh.waited += o.waited;
  sh.again += o.registered_again;
}

WUC_SCENARIO(stress_exclusive_or) {
  static Shared sh;
  semaphore_init(&sh.sem, kPermits);
  constexpr int kSelectors = 6, kPlain = 2, kRounds = 5000;
  std::vector<uthread_t *> threads;
  for (int id = 0; id < kSelectors; id++)
    threads.push_back(SpawnFn([id] {
      uint32_t rng = 0x9e3779b9u * (id + 1);
      for (int r = 0; r < kRounds; r++) ExclusiveStatement(sh, rng);
    }));
  for (int id = 0; id < kPlain; id++)
    threads.push_back(SpawnFn([id] {
      uint32_t rng = 0x85ebca6bu * (id + 1);
      for (int r = 0; r < kRounds; r++) {
        if (Next(rng) % 2) {
          int i = Next(rng) % kLocks;
          lock_acquire(&sh.locks[i]);
          sh.lock_gauge[i].Enter(1, "a lock");
          sh.lock_gauge[i].Leave();
          lock_release(&sh.locks[i]);
        } else {
          semaphore_acquire(&sh.sem);
          sh.sem_gauge.Enter(kPermits, "the semaphore");
          uthread_yield();
          sh.sem_gauge.Leave();
          semaphore_release(&sh.sem);
        }
      }
    }));
  for (uthread_t *t : threads) uthread_join(t);
  SCENARIO_CHECK(sh.statements == kSelectors * kRounds, "%ld statements", sh.statements.load());
  SCENARIO_CHECK(sh.bodies == kSelectors * kRounds, "%ld bodies for %d statements",
                 sh.bodies.load(), kSelectors * kRounds);
  for (owner_lock &l : sh.locks) SCENARIO_CHECK(Free(&l), "a lock ended busy");
  SCENARIO_CHECK(sh.sem.waiters.head == nullptr, "semaphore waiters left");
  SCENARIO_CHECK(Permits(&sh.sem) == kPermits, "permits not conserved");
  SCENARIO_CHECK(sh.never.waiters.head == nullptr, "clauses left on the latch");
  SCENARIO_CHECK(probe_pending_timers() == 0, "timers left pending");
  std::printf("%ld statements, %ld waited, %ld clauses registered again\n", sh.statements.load(),
              sh.waited.load(), sh.again.load());
  return 0;
}

// ---- futures set by a producer; consumers retry on timeout -----------------------

WUC_SCENARIO(stress_futures) {
  constexpr int kConsumers = 4, kRounds = 5000;
  static std::unique_ptr<stress_future[]> f(new stress_future[kRounds]());
  static std::unique_ptr<stress_future[]> g(new stress_future[kRounds]());
  static std::atomic<long> wins{0}, waited{0};
  static std::atomic<int> frontier{0}; // the furthest round a consumer has reached
  uthread_t *producer = SpawnFn([] {
    uint32_t rng = 12345;
    for (int r = 0; r < kRounds; r++) {
      while (frontier.load() < r) uthread_yield(); // let consumers arrive first
      if (Next(rng) % 2) uthread_yield();
      switch (Next(rng) % 3) {
      case 0:
        future_set(&f[r], r);
        break;
      case 1:
        future_set(&g[r], r);
        break;
      default:
        future_set(&g[r], r);
        future_set(&f[r], r);
      }
      if (Next(rng) % 4 == 0) uthread_yield();
    }
  });
  std::vector<uthread_t *> consumers;
  for (int id = 0; id < kConsumers; id++)
    consumers.push_back(SpawnFn([id] {
      uint32_t rng = 777u * (id + 1);
      for (int r = 0; r < kRounds; r++) {
        for (int seen = frontier.load(); seen < r && !frontier.compare_exchange_weak(seen, r);) {
        }
        for (bool got = false; !got;) {
          wuc_timeout t = wuc_timeout_make(microseconds(Next(rng) % 30));
          auto won = [&got, r](stress_future *fut) {
            return [&got, r, fut] {
              SCENARIO_CHECK(future_ready(fut) && future_get(fut) == r, "body of an unset future");
              got = true;
              return Flow::kNext;
            };
          };
          std::vector<Clause> c = {Bind(&f[r], WUC_TRAIT(stress_future_register), won(&f[r])),
                                   Bind(&g[r], WUC_TRAIT(stress_future_register), won(&g[r])),
                                   Bind(&t, WUC_TRAIT(wuc_timeout_register))};
          auto o = Waituntil(wuc_test::AnyOf(3), c);
          SCENARIO_CHECK(o.ran.size() == 1, "%zu bodies ran", o.ran.size());
          waited += o.waited;
        }
        wins++;
      }
    }));
  for (uthread_t *t : consumers) uthread_join(t);
  uthread_join(producer);
  SCENARIO_CHECK(wins == kConsumers * kRounds, "%ld wins", wins.load());
  for (int r = 0; r < kRounds; r++)
    SCENARIO_CHECK(!f[r].core.waiters.head && !g[r].core.waiters.head, "clauses left queued");
  SCENARIO_CHECK(probe_pending_timers() == 0, "timers left pending");
  std::printf("%ld rounds won, %ld statements waited\n", wins.load(), waited.load());
  return 0;
}

// ---- mixed statements: (L0 or L1) and S --------------------------------------------

WUC_SCENARIO(stress_mixed) {
  static owner_lock locks[2];
  static semaphore sem;
  static Gauge lock_gauge[2], sem_gauge;
  constexpr int kThreads = 6, kRounds = 3000;
  semaphore_init(&sem, 1);
  std::vector<uthread_t *> threads;
  for (int id = 0; id < kThreads; id++)
    threads.push_back(SpawnFn([id] {
      uint32_t rng = 31337u * (id + 1);
      for (int r = 0; r < kRounds; r++) {
        if (id == 0) { // a plain user of everything
          int i = Next(rng) % 2;
          lock_acquire(&locks[i]);
          lock_gauge[i].Enter(1, "a lock");
          lock_gauge[i].Leave();
          lock_release(&locks[i]);
          semaphore_acquire(&sem);
          sem_gauge.Enter(1, "the semaphore");
          sem_gauge.Leave();
          semaphore_release(&sem);
          continue;
        }
        auto in_lock = [](int i) {
          return [i] {
            SCENARIO_CHECK(locks[i].owner == uthread_self(), "lock body without the lock");
            lock_gauge[i].Enter(1, "a lock");
            uthread_yield();
            lock_gauge[i].Leave();
            return Flow::kNext;
          };
        };
        std::vector<Clause> c = {Bind(&locks[0], WUC_TRAIT(wuc_owner_lock_register), in_lock(0)),
                                 Bind(&locks[1], WUC_TRAIT(wuc_owner_lock_register), in_lock(1)),
                                 Bind(&sem, WUC_TRAIT(wuc_semaphore_register), [] {
                                   sem_gauge.Enter(1, "the semaphore");
                                   uthread_yield();
                                   sem_gauge.Leave();
                                   return Flow::kNext;
                                 })};
        auto o = Waituntil(And({Or({Leaf(0), Leaf(1)}), Leaf(2)}), c);
        int locks_run = 0, sem_run = 0;
        for (int k : o.ran) (k == 2 ? sem_run : locks_run)++;
        SCENARIO_CHECK(locks_run == 1 && sem_run == 1, "%d lock bodies, %d semaphore bodies",
                       locks_run, sem_run);
        for (int k : o.completed_unrun) SCENARIO_CHECK(k != 2, "the semaphore body skipped");
      }
    }));
  for (uthread_t *t : threads) uthread_join(t);
  for (owner_lock &l : locks) SCENARIO_CHECK(Free(&l), "a lock ended busy");
  SCENARIO_CHECK(Permits(&sem) == 1, "permits not conserved");
  return 0;
}

// ---- shutdown: many statements on one latch, then one set ------------------------

WUC_SCENARIO(stress_shutdown) {
  static latch stop;
  static owner_lock work_lock;
  static std::atomic<long> work{0};
  constexpr int kThreads = 16;
  std::vector<uthread_t *> threads;
  for (int id = 0; id < kThreads; id++)
    threads.push_back(SpawnFn([id] {
      uint32_t rng = 4242u * (id + 1);
      for (bool stopping = false; !stopping;) {
        wuc_timeout t = wuc_timeout_make(microseconds(Next(rng) % 200));
        std::vector<Clause> c = {Bind(&stop, WUC_TRAIT(wuc_latch_register),
                                      [&stopping] {
                                        stopping = true;
                                        return Flow::kNext;
                                      }),
                                 Bind(&work_lock, WUC_TRAIT(wuc_owner_lock_register),
                                      [] {
                                        work++;
                                        uthread_yield();
                                        return Flow::kNext;
                                      }),
                                 Bind(&t, WUC_TRAIT(wuc_timeout_register))};
        auto o = Waituntil(wuc_test::AnyOf(3), c);
        SCENARIO_CHECK(o.ran.size() == 1, "%zu bodies ran", o.ran.size());
      }
    }));
  while (work.load() < 10000) uthread_sleep(microseconds(100));
  latch_set(&stop);
  for (uthread_t *t : threads) uthread_join(t);
  SCENARIO_CHECK(Free(&work_lock), "the lock ended busy");
  SCENARIO_CHECK(stop.waiters.head == nullptr, "clauses left on the latch");
  SCENARIO_CHECK(probe_pending_timers() == 0, "timers left pending");
  return 0;
}

void RunAtEveryWorkerCount(const char *scenario) {
  for (const char *workers : {"1", "2", "8"}) {
    auto r = wuc_test::RunScenario(scenario, {{"WUC_PROCESSORS", workers}});
    EXPECT_TRUE(wuc_test::ExitedWith(r, 0)) << scenario << " at " << workers << " workers\n"
                                            << r.Describe();
  }
}

TEST(WaituntilStress, AllOrIsExclusiveOverLocksSemaphoreLatchTimeout) {
  RunAtEveryWorkerCount("stress_exclusive_or");
}
TEST(WaituntilStress, FuturesOrTimeoutLoseNoWakeUp) { RunAtEveryWorkerCount("stress_futures"); }
TEST(WaituntilStress, MixedStatementsReleaseWhatTheyDoNotNeed) {
  RunAtEveryWorkerCount("stress_mixed");
}
TEST(WaituntilStress, ShutdownLatchWakesEveryStatement) {
  RunAtEveryWorkerCount("stress_shutdown");
}

} // namespace
