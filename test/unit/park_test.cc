// park_test.cc — the one-permit park/unpark protocol: permits kept and
// saturating, hand-offs, ping-pong across workers, and the unpark-before-park
// races under stress (a lost wake-up shows up as a hang, caught by the child
// process watchdog; a double wake-up as more park returns than unparks).
#include <gtest/gtest.h>

#include <park.h>
#include <timer.h>
#include <wuc.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "runtime_probe.h"
#include "scenario.h"
#include "spin.h"
#include "subprocess.h"

namespace {

using wuc_test::ExitedWith;
using wuc_test::RunScenario;

TEST(Park, PermitGivenBeforeParkIsKept) {
  wuc_unpark(uthread_self());
  wuc_park("test: consume own permit", nullptr); // returns at once
}

struct Saturation {
  std::atomic<int> stage{0};
};

void ParkTwiceAfterTwoUnparks(void *arg) {
  auto *s = static_cast<Saturation *>(arg);
  wuc_unpark(uthread_self());
  wuc_unpark(uthread_self());      // saturates: still one permit
  wuc_park("test: first park", s); // consumes it
  s->stage = 1;
  wuc_park("test: second park", s); // no permit left: blocks until main's unpark
  s->stage = 2;
}

TEST(Park, PermitSaturatesAtOne) {
  Saturation s;
  uthread_t *t = uthread_spawn(ParkTwiceAfterTwoUnparks, &s);
  while (s.stage.load() != 1) uthread_sleep(microseconds(100));
  // Had the second unpark been kept, the second park would have returned
  // at once and the thread would be at stage 2 by now.
  uthread_sleep(milliseconds(20));
  EXPECT_EQ(s.stage.load(), 1);
  wuc_unpark(t);
  uthread_join(t);
  EXPECT_EQ(s.stage.load(), 2);
}

// Published parks (park.h, wuc_park_published): the publication runs after
// the switch; a failed one runs the thread again at once, a successful one
// leaves it parked until wuc_wake_published, whatever wuc_unpark says.
struct Publication {
  std::atomic<int> publishes{0};
  std::atomic<bool> accept{false};
  std::atomic<bool> published{false};
  std::atomic<int> stage{0};
};

bool Publish(void *arg) {
  auto *p = static_cast<Publication *>(arg);
  p->publishes++;
  bool ok = p->accept.load();
  if (ok) p->published = true;
  return ok;
}

TEST(Park, RefusedPublicationRunsTheThreadAgain) {
  Publication p;
  wuc_park_published("test: refused", &p, Publish, &p);
  EXPECT_EQ(p.publishes.load(), 1);
  EXPECT_FALSE(p.published.load());
}

void ParkPublished(void *arg) {
  auto *p = static_cast<Publication *>(arg);
  p->stage = 1;
  wuc_park_published("test: published", p, Publish, p);
  p->stage = 2;
}

TEST(Park, PublishedParkWaitsForItsWakeNotForUnpark) {
  Publication p;
  p.accept = true;
  uthread_t *t = uthread_spawn(ParkPublished, &p);
  while (!p.published.load()) uthread_sleep(microseconds(100));
  for (int i = 0; i < 20; i++) wuc_unpark(t); // ignored: not its wake
  uthread_sleep(milliseconds(20));
  EXPECT_EQ(p.stage.load(), 1);
  wuc_wake_published(t);
  uthread_join(t);
  EXPECT_EQ(p.stage.load(), 2);
  EXPECT_EQ(p.publishes.load(), 1);
}

struct JoinWatch {
  std::atomic<bool> release{false};
  std::atomic<bool> join_returned{false};
  uthread_t *slow = nullptr;
};

void WaitForRelease(void *arg) {
  auto *j = static_cast<JoinWatch *>(arg);
  while (!j->release) uthread_sleep(microseconds(100));
}

void JoinSlow(void *arg) {
  auto *j = static_cast<JoinWatch *>(arg);
  uthread_join(j->slow);
  j->join_returned = true;
}

// An unpark that is not the joined thread's finish must not end a join.
TEST(Park, SpuriousUnparkDoesNotEndJoin) {
  JoinWatch j;
  j.slow = uthread_spawn(WaitForRelease, &j);
  uthread_t *joiner = uthread_spawn(JoinSlow, &j);
  for (int i = 0; i < 200; i++) {
    wuc_unpark(joiner);
    uthread_sleep(microseconds(50));
  }
  EXPECT_FALSE(j.join_returned.load());
  j.release = true;
  uthread_join(joiner);
  EXPECT_TRUE(j.join_returned.load());
}

void NeverFires(wuc_timer *) {}

// A kernel thread outside the runtime may unpark a user thread: the thread
// goes through the global queue.
TEST(Park, UnparkFromAForeignKernelThread) {
  // While main is parked every worker may be idle; the deadlock detector
  // does not know about foreign kernel threads (docs/runtime.md), so keep a
  // timer pending for the duration.
  wuc_timer keep_alive;
  wuc_timer_start(&keep_alive, wuc_now() + seconds(3600), NeverFires);
  for (int round = 0; round < 100; round++) {
    std::atomic<bool> woken{false};
    uthread_t *self = uthread_self();
    std::thread waker([&] {
      woken = true;
      wuc_unpark(self);
    });
    while (!woken) wuc_park("test: foreign wake", &woken);
    waker.join(); // also: main stays alive until the unpark is over
  }
  EXPECT_TRUE(wuc_timer_cancel(&keep_alive));
}

// ---- ping-pong and races ---------------------------------------------------

uint32_t NextRandom(uint32_t &x) { // xorshift32
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

constexpr unsigned kNoWorker = ~0u;

// Players take turns in pairs: in each game, side 0 plays the even turns and
// side 1 the odd ones.  A player publishes the next turn, then unparks its
// peer, and waits for its own turn again by spinning and then parking.
struct Game;

struct Player {
  Game *game = nullptr;
  int me = 0;
  uthread_t *thread = nullptr;
  Player *decoy = nullptr; // also unparked every turn (a spurious wake-up), or null
  std::atomic<long> unparks_received{0};
  long park_returns = 0;
  std::atomic<unsigned> worker{kNoWorker}; // where it last played
  unsigned first_worker = kNoWorker;
  duration_t spun = 0;  // time spent spinning, against Game::total_spin_budget
  duration_t slept = 0; // time spent in sleeps to get apart, against Game::total_sleep_budget
  long turns_on_other_worker_than_peer = 0;
  long worker_changes = 0;
};

struct Game {
  long rounds = 0;
  // How a player waits for its turn.  By default it parks at once.  With
  // spin_when_apart, while its peer last played on another worker, it first
  // spins: up to a random 0..max_spins times (if max_spins is not 0), and up
  // to spin_budget in any case, but on 1 in park_one_in turns (0: never) not
  // at all.  While the peer is on its own worker it parks at once (the peer
  // needs the worker), except that on 1 in resplit_one_in turns (0: never)
  // it sleeps 1 µs first: a thread woken by a timer is queued where an idle
  // worker can steal it, so the pair gets apart again.
  bool spin_when_apart = false;
  uint32_t max_spins = 0;
  duration_t spin_budget = microseconds(50);
  uint32_t park_one_in = 0;
  uint32_t resplit_one_in = 0;
  // Spinning and sleeping stop for good once a player has spent this long on
  // each in all: on a busy machine a peer's worker may not be running, and a
  // sleep may take a scheduler tick.  Beyond that the players only park,
  // which is fast in any case.
  duration_t total_spin_budget = milliseconds(300);
  duration_t total_sleep_budget = milliseconds(300);
  std::atomic<long> turn{-1};
  std::atomic<bool> handles_ready{false}; // every player's thread is set
  Player players[2];
  // Waits for the turns up to this one spin without ever parking (see
  // ping_pong_across_workers); -1 for none.
  long spin_until_turn = -1;
  std::atomic<int> *done_unparking = nullptr; // shared by every game, and main
  int everyone = 0;                           // how many must be done before any exits
};

bool TurnIs(const Game *g, long turn) { return g->turn.load(std::memory_order_acquire) == turn; }

bool OneIn(uint32_t n, uint32_t &rng) { return n != 0 && NextRandom(rng) % n == 0; }

void WaitForTurn(Player *p, long my_turn, uint32_t &rng) {
  Game *g = p->game;
  Player *peer = &g->players[1 - p->me];
  if (my_turn <= g->spin_until_turn) {
    for (uint32_t spins = 0; !TurnIs(g, my_turn);) wuc_test_spin_step(&spins);
    return;
  }
  if (g->spin_when_apart) {
    if (peer->worker.load() == probe_worker_id()) {
      if (p->slept < g->total_sleep_budget && OneIn(g->resplit_one_in, rng)) {
        int64_t start = wuc_now();
        uthread_sleep(microseconds(1));
        p->slept += wuc_now() - start;
      }
    } else if (p->spun < g->total_spin_budget && !OneIn(g->park_one_in, rng)) {
      uint32_t limit = g->max_spins ? NextRandom(rng) % (g->max_spins + 1) : UINT32_MAX;
      int64_t start = wuc_now(), give_up = start + g->spin_budget;
      for (uint32_t i = 0; i < limit && !TurnIs(g, my_turn); i++) {
        if (i % 64 == 63 && (peer->worker.load() == probe_worker_id() || wuc_now() > give_up))
          break;
        __builtin_ia32_pause();
      }
      p->spun += wuc_now() - start;
    }
  }
  while (!TurnIs(g, my_turn)) {
    wuc_park("test: wait for my turn", g);
    p->park_returns++;
  }
}

void Unpark(Player *p) {
  p->unparks_received.fetch_add(1, std::memory_order_relaxed);
  wuc_unpark(p->thread);
}

void Play(void *arg) {
  auto *p = static_cast<Player *>(arg);
  Game *g = p->game;
  Player *peer = &g->players[1 - p->me];
  uint32_t rng = 0x9e3779b9u * static_cast<uint32_t>(p->me + 1) ^
                 static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p) >> 4);
  for (uint32_t spins = 0; !g->handles_ready.load();) {
    uthread_yield();
    wuc_test_spin_step(&spins);
  }
  for (long r = 0; r < g->rounds; r++) {
    const long my_turn = 2 * r + p->me;
    WaitForTurn(p, my_turn, rng);
    unsigned worker = probe_worker_id();
    if (r == 0) p->first_worker = worker;
    if (worker != p->worker.load()) p->worker_changes++;
    p->worker.store(worker);
    if (peer->worker.load() != worker) p->turns_on_other_worker_than_peer++;
    g->turn.store(my_turn + 1, std::memory_order_release);
    // The decoy first: the peer then displaces it from this worker's `next`
    // slot into the run queue, where the other worker can steal it.
    if (p->decoy) Unpark(p->decoy);
    Unpark(peer);
  }
  // Others may still be about to unpark us: exit only when nobody will.
  g->done_unparking->fetch_add(1);
  for (uint32_t spins = 0; g->done_unparking->load() < g->everyone;) {
    uthread_yield();
    wuc_test_spin_step(&spins);
  }
}

void StartGames(Game *games, int ngames, std::atomic<int> *done_unparking, bool decoys) {
  const bool first_turns_spin = games[0].spin_until_turn >= 0;
  for (int i = 0; i < ngames; i++) {
    games[i].done_unparking = done_unparking;
    games[i].everyone = 2 * ngames + 1;
    for (int me = 0; me < 2; me++) {
      Player &p = games[i].players[me];
      p.game = &games[i];
      p.me = me;
      p.decoy = decoys && ngames > 1 ? &games[(i + 1) % ngames].players[me] : nullptr;
    }
  }
  if (first_turns_spin) // nobody parks for the first turns: no unpark to start
    for (int i = 0; i < ngames; i++) games[i].turn.store(0, std::memory_order_release);
  // Every handle must exist before anyone plays (and unparks a decoy).
  for (int i = 0; i < ngames; i++)
    for (Player &p : games[i].players) p.thread = uthread_spawn(Play, &p);
  for (int i = 0; i < ngames; i++) games[i].handles_ready.store(true);
  if (!first_turns_spin)
    for (int i = 0; i < ngames; i++) {
      games[i].turn.store(0, std::memory_order_release);
      Unpark(&games[i].players[0]);
    }
  done_unparking->fetch_add(1);
}

// Every turn was played (the final turn number is exact), and no player
// returned from park more often than it was unparked: one unpark, one wake.
void JoinAndCheckGames(Game *games, int ngames) {
  for (int i = 0; i < ngames; i++)
    for (Player &p : games[i].players) uthread_join(p.thread);
  for (int i = 0; i < ngames; i++) {
    Game &g = games[i];
    SCENARIO_CHECK(g.turn.load() == 2 * g.rounds, "game %d: turn %ld after %ld rounds", i,
                   g.turn.load(), g.rounds);
    for (Player &p : g.players)
      SCENARIO_CHECK(p.park_returns <= p.unparks_received.load(),
                     "game %d side %d returned from park %ld times for %ld unparks", i, p.me,
                     p.park_returns, p.unparks_received.load());
  }
}

void PrintGames(const Game *games, int ngames) {
  long turns = 0, apart = 0, changes = 0, parks = 0;
  for (int i = 0; i < ngames; i++)
    for (const Player &p : games[i].players) {
      turns += games[i].rounds;
      apart += p.turns_on_other_worker_than_peer;
      changes += p.worker_changes;
      parks += p.park_returns;
    }
  std::printf("%ld turns: %ld played on another worker than the peer's last turn, "
              "%ld worker changes, %ld park returns\n",
              turns, apart, changes, parks);
}

// Two threads handing the turn back and forth with park and unpark only: on
// two workers, after the first hand-off, the pair shares a worker (hand-off
// through `next`), so this is the single-switch wake-up path.
WUC_SCENARIO(ping_pong_park) {
  static Game game;
  static std::atomic<int> done{0};
  game.rounds = 200000;
  StartGames(&game, 1, &done, false);
  JoinAndCheckGames(&game, 1);
  PrintGames(&game, 1);
  return 0;
}

TEST(Park, PingPongOnOneWorker) {
  auto r = RunScenario("ping_pong_park", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

TEST(Park, PingPongOnTwoWorkers) {
  auto r = RunScenario("ping_pong_park", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// With WUC_STEAL_AGE=0 the other worker steals the pair's `next` thread as
// soon as it looks, racing the owner's take of it (scheduler.c, "the plain
// hand-off"): a thread taken by both would return from park once too often.
TEST(Park, PingPongOnTwoWorkersWhileThievesRace) {
  auto r = RunScenario("ping_pong_park", {{"WUC_PROCESSORS", "2"}, {"WUC_STEAL_AGE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 0));
}

// The same with the players on different workers: a player spins while its
// peer plays on another worker, so unparks cross workers and land on a
// running, spinning or parking thread.  A player that parks is woken into its
// peer's worker, which keeps spinning, so the other (idle) worker steals it
// back from there most of the time.  The start is made to cross: until turn
// 2 the players only spin, never block, so while one of them occupies a
// worker the other can only run by being stolen to the other worker (a hang
// here would mean it never was).
WUC_SCENARIO(ping_pong_across_workers) {
  static Game game;
  static std::atomic<int> done{0};
  game.rounds = 100000;
  game.spin_when_apart = true;
  game.park_one_in = 16;
  game.resplit_one_in = 16;
  game.spin_until_turn = 2;
  StartGames(&game, 1, &done, false);
  JoinAndCheckGames(&game, 1);
  PrintGames(&game, 1);
  SCENARIO_CHECK(game.players[0].first_worker != game.players[1].first_worker,
                 "the first turns were played on the same worker %u", game.players[0].first_worker);
  return 0;
}

TEST(Park, PingPongAcrossWorkers) {
  auto r = RunScenario("ping_pong_across_workers", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// Four games at once on two workers, each player also unparking a player of
// the next game (a spurious wake-up for it).  The decoy wake-ups displace
// threads from `next` slots into run queues, where the other worker steals
// them, and the short sleeps move pairs apart, so players keep meeting on
// different workers and unparks race with parks on the other CPU.  Players
// spin a random while before parking, so an unpark lands before, during and
// after the park.  4,000,000 turns in all (about a second).
WUC_SCENARIO(unpark_before_park_races) {
  constexpr int kGames = 4;
  static Game games[kGames];
  static std::atomic<int> done{0};
  for (int i = 0; i < kGames; i++) {
    games[i].rounds = 500000;
    games[i].spin_when_apart = true;
    games[i].max_spins = i % 2 ? 300 : 40;
    games[i].resplit_one_in = 8;
  }
  StartGames(games, kGames, &done, true);
  JoinAndCheckGames(games, kGames);
  PrintGames(games, kGames);
  return 0;
}

TEST(Park, UnparkBeforeParkRacesLoseNoWakeUp) {
  auto r = RunScenario("unpark_before_park_races", {{"WUC_PROCESSORS", "2"}}, 60);
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

// A waker that publishes its result with a release store and then unparks a
// thread that still holds a permit from an earlier wake-up (the thread
// waiter of a blocking chan_recv: WAKING, then wuc_unpark).  The unpark
// must not take the permit it finds as done with a plain load: x86 lets
// that load pass the store, the waiter consumes the old permit, still reads
// its old condition and parks for good (stress.family.scatter.w2 hung so in 4
// of 200 runs; this test, in 3 of 5 runs before the fix).  Each round the waiter gives itself the
// stale permit, tells the kernel thread to go, waits a random few pauses (to sweep the window) and
// parks in a loop over the round's flag; the waker stores the flag and
// unparks at once.  A lost wake-up is a hang (the watchdog).
WUC_SCENARIO(unpark_with_permit_pending) {
  constexpr long kRounds = 400000;
  static std::atomic<long> go{0}, flag{0};
  static std::atomic<bool> waker_done{false};
  uthread_t *self = uthread_self();
  // The deadlock report waits while a foreign kernel thread lives; a timer
  // keeps every worker from counting as idle for good in any case.
  wuc_timer keep_alive;
  wuc_timer_start(&keep_alive, wuc_now() + seconds(3600), NeverFires);
  std::thread waker([self] {
    for (long k = 1; k <= kRounds; k++) {
      for (uint32_t spins = 0; go.load(std::memory_order_acquire) != k;) wuc_test_spin_step(&spins);
      flag.store(k, std::memory_order_release);
      wuc_unpark(self);
    }
    waker_done.store(true);
  });
  uint32_t rng = 0x2545f491u;
  long parks = 0;
  for (long k = 1; k <= kRounds; k++) {
    wuc_unpark(self); // the stale permit
    go.store(k);
    for (uint32_t i = NextRandom(rng) % 64; i > 0; i--) __builtin_ia32_pause();
    while (flag.load(std::memory_order_acquire) != k) {
      wuc_park("test: wait for the flag", &flag);
      parks++;
    }
  }
  // The waker may still be inside its last unpark of us.
  for (uint32_t spins = 0; !waker_done.load();) wuc_test_spin_step(&spins);
  waker.join();
  SCENARIO_CHECK(wuc_timer_cancel(&keep_alive), "the keep-alive timer fired");
  std::printf("%ld rounds, %ld park returns\n", kRounds, parks);
  return 0;
}

TEST(Park, UnparkOrdersTheResultBeforeAPendingPermit) {
  auto r = RunScenario("unpark_with_permit_pending", {{"WUC_PROCESSORS", "2"}}, 60);
  EXPECT_TRUE(ExitedWith(r, 0));
  std::printf("%s", r.out.c_str());
}

} // namespace
