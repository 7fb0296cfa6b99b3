// channel_select_test.cc — channel clauses (x << ch, ch << e, closed(ch)) in
// hand-lowered waituntil statements (harness/waituntil.h drives select.h's
// steps).  Checked: the two-sided race (both ends are all-or statements, in
// opposite orders, on rendezvous channels) never livelocks and never makes
// two transfers; all-or exclusivity under contention with checksums, against
// other statements and against plain sends and receives; the channel rule of
// mixed trees (a transfer that happened runs its body); else; closed(ch);
// send clauses on closed channels stop the program; a send clause withdrawn
// after expandBuffer left it to its receiver keeps the buffer's size.
#include <gtest/gtest.h>

#include <wuc.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "chan_probe.h"
#include "scenario.h"
#include "spawn_fn.h"
#include "subprocess.h"
#include "waituntil.h"

namespace {

using wuc_test::And;
using wuc_test::Bind;
using wuc_test::Clause;
using wuc_test::ExitedWith;
using wuc_test::Flow;
using wuc_test::Leaf;
using wuc_test::Or;
using wuc_test::Outcome;
using wuc_test::RunScenario;
using wuc_test::SpawnFn;
using wuc_test::Waituntil;

typedef WUC_CHANNEL_STRUCT(long_channel, long) LongChannel;

// Clause makers: the clause resource must outlive the statement, so the
// caller keeps it; `data` is the receive target or the value to send.
Clause Recv(wuc_chan_recv_clause *c, long *into, std::function<Flow()> body = nullptr) {
  Clause clause = Bind(c, WUC_TRAIT(wuc_chan_recv_register), std::move(body));
  clause.data = into;
  return clause;
}
Clause Send(wuc_chan_send_clause *c, long *value, std::function<Flow()> body = nullptr) {
  Clause clause = Bind(c, WUC_TRAIT(wuc_chan_send_register), std::move(body));
  clause.data = value;
  return clause;
}

// The index of the one clause whose body ran in an all-or statement.
int Winner(const Outcome &o) {
  if (o.ran.size() != 1) {
    std::fprintf(stderr, "all-or statement ran %zu bodies\n", o.ran.size());
    std::abort();
  }
  return o.ran[0];
}

// ---- the two-sided race --------------------------------------------------------

// Thread 1: waituntil (x << A) or waituntil (x << B)
// Thread 2: waituntil (B << i) or waituntil (A << i)
// on rendezvous channels, 100,000 rounds.  Every round of one must match one
// round of the other on the same channel: counts and sums agree per channel.
WUC_SCENARIO(opposite_orders) {
  static LongChannel a, b;
  constexpr long kRounds = 100000;
  static long received[2], sent[2], received_sum, sent_sum;
  uthread_t *receiver = SpawnFn([] {
    wuc_chan_recv_clause ca = chan_recv_clause(&a), cb = chan_recv_clause(&b);
    for (long i = 0; i < kRounds; i++) {
      long x = -1;
      std::vector<Clause> c = {Recv(&ca, &x), Recv(&cb, &x)};
      received[Winner(Waituntil(wuc_test::AnyOf(2), c))]++;
      received_sum += x;
    }
  });
  uthread_t *sender = SpawnFn([] {
    wuc_chan_send_clause cb = chan_send_clause(&b), ca = chan_send_clause(&a);
    for (long i = 0; i < kRounds; i++) {
      long v = i;
      std::vector<Clause> c = {Send(&cb, &v), Send(&ca, &v)};
      sent[Winner(Waituntil(wuc_test::AnyOf(2), c)) == 0 ? 1 : 0]++; // clause 0 is B
      sent_sum += v;
    }
  });
  uthread_join(receiver);
  uthread_join(sender);
  std::printf("A %ld/%ld B %ld/%ld\n", received[0], sent[0], received[1], sent[1]);
  return received[0] == sent[0] && received[1] == sent[1] && received_sum == sent_sum ? 0 : 1;
}

TEST(ChannelSelect, OppositeOrdersOnRendezvousChannelsNeverDoubleOrStall) {
  for (const char *workers : {"1", "2", "4"}) {
    SCOPED_TRACE(workers);
    auto r = RunScenario("opposite_orders", {{"WUC_PROCESSORS", workers}}, 120);
    EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
  }
}

// ---- exclusivity under contention ----------------------------------------------

// P producers and P consumers over C channels.  Each producer op is an
// all-or send over all C channels (or a plain send, in mode "plain-send");
// each consumer op an all-or receive over all C (or a plain receive, in mode
// "plain-recv", rendezvous only: with buffers, plain receivers pinned to one
// channel could wait forever while elements sit in another).  Every value is
// received exactly once; per channel, as many went in as came out.
constexpr int kPairs = 3, kChannels = 4;
constexpr long kPerThread = 20000;

struct Contention {
  LongChannel channels[kChannels];
  std::atomic<long> sum{0}, count{0};
  std::atomic<long> in[kChannels], out[kChannels];
  int mode = 0; // 0 selects only, 1 plain senders, 2 plain receivers
};

int RunContention(size_t capacity, int mode) {
  static Contention s;
  s.mode = mode;
  for (auto &ch : s.channels)
    if (capacity) chan_init(&ch, capacity);
  std::vector<uthread_t *> threads;
  for (long p = 0; p < kPairs; p++) {
    threads.push_back(SpawnFn([p] {
      wuc_chan_send_clause clauses[kChannels];
      for (int k = 0; k < kChannels; k++)
        clauses[k] = chan_send_clause(&s.channels[(k + p) % kChannels]);
      for (long i = 0; i < kPerThread; i++) {
        long v = p * kPerThread + i + 1;
        if (s.mode == 1) {
          int k = (int)((i + p) % kChannels);
          chan_send(&s.channels[k], v);
          s.in[k]++;
          continue;
        }
        std::vector<Clause> c;
        for (auto &clause : clauses) c.push_back(Send(&clause, &v));
        s.in[(Winner(Waituntil(wuc_test::AnyOf(kChannels), c)) + p) % kChannels]++;
      }
    }));
    threads.push_back(SpawnFn([p] {
      wuc_chan_recv_clause clauses[kChannels];
      for (int k = 0; k < kChannels; k++)
        clauses[k] = chan_recv_clause(&s.channels[(k + p) % kChannels]);
      for (long i = 0; i < kPerThread; i++) {
        long x = 0;
        if (s.mode == 2) {
          int k = (int)((i + p) % kChannels);
          if (!chan_recv(&s.channels[k], &x)) std::abort();
          s.out[k]++;
        } else {
          std::vector<Clause> c;
          for (auto &clause : clauses) c.push_back(Recv(&clause, &x));
          s.out[(Winner(Waituntil(wuc_test::AnyOf(kChannels), c)) + p) % kChannels]++;
        }
        s.sum += x;
        s.count++;
      }
    }));
  }
  for (auto *t : threads) uthread_join(t);
  long n = kPairs * kPerThread, expect = n * (n + 1) / 2;
  bool balanced = true;
  for (int k = 0; k < kChannels; k++) balanced &= s.in[k] == s.out[k];
  std::printf("count %ld sum %s %s\n", s.count.load(), s.sum == expect ? "ok" : "WRONG",
              balanced ? "balanced" : "UNBALANCED");
  return s.count == n && s.sum == expect && balanced ? 0 : 1;
}

WUC_SCENARIO(contend_select_cap0) { return RunContention(0, 0); }
WUC_SCENARIO(contend_select_cap1) { return RunContention(1, 0); }
WUC_SCENARIO(contend_select_cap64) { return RunContention(64, 0); }
WUC_SCENARIO(contend_plain_send_cap0) { return RunContention(0, 1); }
WUC_SCENARIO(contend_plain_send_cap1) { return RunContention(1, 1); }
WUC_SCENARIO(contend_plain_recv_cap0) { return RunContention(0, 2); }

TEST(ChannelSelect, AllOrExclusiveUnderContention) {
  for (const char *scenario :
       {"contend_select_cap0", "contend_select_cap1", "contend_select_cap64",
        "contend_plain_send_cap0", "contend_plain_send_cap1", "contend_plain_recv_cap0"}) {
    for (const char *workers : {"1", "2", "8"}) {
      SCOPED_TRACE(std::string(scenario) + " at " + workers + " workers");
      auto r = RunScenario(scenario, {{"WUC_PROCESSORS", workers}}, 120);
      EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
    }
  }
}

// ---- statement forms -------------------------------------------------------------

// waituntil (x << A) { ... } or waituntil (y << B) { ... } and waituntil (z << C) { ... }
// i.e. (A or B) and C, with an element ready in each: A's body runs (first
// in source order) and C's; B's transfer, if it happened, runs its body too
// (a moved element is never lost), else B keeps its element.
TEST(ChannelSelect, MixedTreeRunsEveryTransferThatHappened) {
  LongChannel a{}, b{}, c{};
  chan_init(&a, 1);
  chan_init(&b, 1);
  chan_init(&c, 1);
  ASSERT_TRUE(chan_send(&a, 1L));
  ASSERT_TRUE(chan_send(&b, 2L));
  ASSERT_TRUE(chan_send(&c, 3L));
  long x = 0, y = 0, z = 0;
  wuc_chan_recv_clause ca = chan_recv_clause(&a), cb = chan_recv_clause(&b),
                       cc = chan_recv_clause(&c);
  std::vector<Clause> clauses = {Recv(&ca, &x), Recv(&cb, &y), Recv(&cc, &z)};
  Outcome o = Waituntil(And({Or({Leaf(0), Leaf(1)}), Leaf(2)}), clauses);
  EXPECT_FALSE(o.all_or);
  EXPECT_EQ(x, 1);
  EXPECT_EQ(z, 3);
  bool b_ran = std::find(o.ran.begin(), o.ran.end(), 1) != o.ran.end();
  if (b_ran) {
    EXPECT_EQ(y, 2);
    EXPECT_EQ(chan_len(&b), 0u);
  } else {
    long left = 0;
    EXPECT_TRUE(chan_try_recv(&b, &left));
    EXPECT_EQ(left, 2);
  }
  chan_destroy(&a);
  chan_destroy(&b);
  chan_destroy(&c);
}

// waituntil (x << A) or waituntil (B << v) or else { ... }: nothing ready, so
// else runs, and nothing stays behind in either channel.
TEST(ChannelSelect, ElseRunsWhenNothingIsReadyAndLeavesNothingBehind) {
  LongChannel a{}, b{}; // rendezvous: nobody waits on either
  long x = 0, v = 5;
  wuc_chan_recv_clause ca = chan_recv_clause(&a);
  wuc_chan_send_clause cb = chan_send_clause(&b);
  std::vector<Clause> clauses = {Recv(&ca, &x), Send(&cb, &v)};
  bool else_ran = false;
  Outcome o = Waituntil(wuc_test::AnyOf(2), clauses, [&] { else_ran = true; });
  EXPECT_TRUE(else_ran);
  EXPECT_TRUE(o.ran.empty());
  // Neither clause is queued: a try on the other side finds nobody.
  EXPECT_FALSE(chan_try_send(&a, 1L));
  long got;
  EXPECT_FALSE(chan_try_recv(&b, &got));
  chan_destroy(&a); // their segments (LeakSanitizer checks)
  chan_destroy(&b);
}

// A thread keeps the pin of its last clause that let go of one (runtime/
// chan_segment.h, "Kept pins"): the waiting statements after it in the same
// segment share that pin instead of taking their own, and a channel destroyed
// meanwhile leaves the kept segment to the pin's last unpin.
TEST(ChannelSelect, KeptPinIsSharedAndOutlivesChanDestroy) {
  static LongChannel *ch;
  static uthread_t *waiter;
  static const void *oldest, *kept[4];
  static unsigned pins_while_waiting[4], pins[4], pins_after_destroy;
  static int round;
  static int let_go_after_destroy;
  static long received;
  ch = new LongChannel{};
  waiter = SpawnFn([] {
    wuc_chan_recv_clause c = chan_recv_clause(ch);
    for (int i = 0; i < 4; i++) {
      round = i;
      uthread_t *sender = SpawnFn([] {
        wuc_test::AwaitParked(waiter); // its clause waits in a cell
        pins_while_waiting[round] = chan_probe_segment_pins(chan_probe_oldest_segment(&ch->core));
        chan_send(ch, 10L);
      });
      long x = 0;
      std::vector<Clause> clauses = {Recv(&c, &x)};
      EXPECT_EQ(Winner(Waituntil(wuc_test::AnyOf(1), clauses)), 0);
      received += x;
      uthread_join(sender);
      kept[i] = chan_probe_kept_segment();
      pins[i] = kept[i] ? chan_probe_segment_pins(kept[i]) : 0;
    }
    oldest = chan_probe_oldest_segment(&ch->core);
    chan_destroy(ch);
    delete ch;
    pins_after_destroy = chan_probe_segment_pins(kept[3]);
    let_go_after_destroy = chan_probe_segment_let_go(kept[3]);
  }); // its end lets go of the kept pin, which frees the segment (ASan: no leak)
  uthread_join(waiter);
  EXPECT_EQ(received, 40);
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(kept[i], oldest) << "statement " << i;           // four cells of the first segment
    EXPECT_EQ(pins_while_waiting[i], 1u) << "statement " << i; // its own, then the kept one
    EXPECT_EQ(pins[i], 1u) << "statement " << i;               // the kept pin alone
  }
  EXPECT_EQ(pins_after_destroy, 1u);
  EXPECT_EQ(let_go_after_destroy, 1);
}

// A sender blocked on a rendezvous channel makes a receive clause ready at
// once (the try pass finds it), and the element goes to the clause.
TEST(ChannelSelect, ReceiveClauseTakesFromABlockedSender) {
  static LongChannel ch;
  uthread_t *sender = SpawnFn([] { chan_send(&ch, 42L); });
  long x = 0;
  wuc_chan_recv_clause c = chan_recv_clause(&ch);
  std::vector<Clause> clauses = {Recv(&c, &x)};
  Outcome o = Waituntil(wuc_test::AnyOf(1), clauses);
  EXPECT_EQ(Winner(o), 0);
  EXPECT_EQ(x, 42);
  uthread_join(sender);
}

// closed(ch): not ready while an element is buffered, ready once the channel
// is closed and drained; a receive clause on it never becomes ready.
TEST(ChannelSelect, ClosedClauseWaitsForTheDrain) {
  static LongChannel ch;
  chan_init(&ch, 4);
  ASSERT_TRUE(chan_send(&ch, 7L));
  chan_close(&ch);
  static std::atomic<bool> closed_ran{false};
  uthread_t *watcher = SpawnFn([] {
    wuc_chan_closed_clause c = chan_closed_clause(&ch);
    std::vector<Clause> clauses = {Bind(&c, WUC_TRAIT(wuc_chan_closed_register), [] {
      closed_ran = true;
      return Flow::kNext;
    })};
    Waituntil(wuc_test::AnyOf(1), clauses);
  });
  for (int i = 0; i < 100; i++) uthread_yield();
  EXPECT_FALSE(closed_ran.load()) << "closed(ch) ready with an element still buffered";
  long x = 0;
  EXPECT_TRUE(chan_recv(&ch, &x));
  EXPECT_EQ(x, 7);
  uthread_join(watcher);
  EXPECT_TRUE(closed_ran.load());
  // x << ch or timeout(1ms): the receive never becomes ready on a closed, drained channel.
  wuc_chan_recv_clause rc = chan_recv_clause(&ch);
  wuc_timeout t = wuc_timeout_make(milliseconds(1));
  std::vector<Clause> clauses = {Recv(&rc, &x), Bind(&t, WUC_TRAIT(wuc_timeout_register))};
  EXPECT_EQ(Winner(Waituntil(wuc_test::AnyOf(2), clauses)), 1);
}

// x << ch or closed(ch), over and over, while the channel is fed and closed:
// the watcher list is entered and left by every statement that loses to a
// receive, and emptied by the close.  Every element is received once, and
// every consumer ends through closed(ch).  Under ThreadSanitizer
// (docs/testing.md, "Sanitizers") this is the shape whose list accesses
// raced before they were made atomic.
TEST(ChannelSelect, ReceiveOrClosedRepeatedWhileClosing) {
  constexpr int kRounds = 20, kConsumers = 3;
  constexpr long kElements = 200;
  for (int round = 0; round < kRounds; round++) {
    static LongChannel ch;
    memset(static_cast<void *>(&ch), 0, sizeof ch); // chan_init takes a zeroed channel
    chan_init(&ch, round % 2 ? 4 : 0);
    static std::atomic<long> sum, count, ended;
    sum = 0;
    count = 0;
    ended = 0;
    std::vector<uthread_t *> consumers;
    for (int i = 0; i < kConsumers; i++) {
      consumers.push_back(SpawnFn([] {
        for (;;) {
          long x = 0;
          wuc_chan_recv_clause rc = chan_recv_clause(&ch);
          wuc_chan_closed_clause cc = chan_closed_clause(&ch);
          std::vector<Clause> clauses = {Recv(&rc, &x),
                                         Bind(&cc, WUC_TRAIT(wuc_chan_closed_register))};
          if (Winner(Waituntil(wuc_test::AnyOf(2), clauses)) == 1) break;
          sum += x;
          count++;
        }
        ended++;
      }));
    }
    for (long v = 1; v <= kElements; v++) ASSERT_TRUE(chan_send(&ch, v));
    chan_close(&ch);
    for (uthread_t *t : consumers) uthread_join(t);
    EXPECT_EQ(count.load(), kElements) << "round " << round;
    EXPECT_EQ(sum.load(), kElements * (kElements + 1) / 2) << "round " << round;
    EXPECT_EQ(ended.load(), kConsumers);
    chan_destroy(&ch);
  }
}

// ---- withdrawals that expandBuffer passed ------------------------------------

// expandBuffer, reaching a cell where a sender waits and whose receiver has
// already taken its index, leaves the sender to that receiver (WAITER_EB):
// the receiver resumes it and then expands the buffer.  A send clause
// withdrawn before the receiver gets there leaves the cell interrupted, and
// the receiver skips it without expanding; so the withdrawal must expand
// (regression: the buffer lost that cell for good, and the cap-1 channel
// below then refused a try_send while empty).
//
// The window (a receiver between its fetch-and-add on R and its cell) is a
// few instructions wide, so the scenario holds it open: a try_recv stalled
// there is stood in for by chan_probe_take_receive_index, and the expanding
// receiver is made to wait until then on the segment-maintenance lock, held
// by the probe as by a descheduled unlinker (its expandBuffer moves the
// buffer-end pointer off a segment whose cells are all cleaned, and removes
// that segment).  Every step is one the runtime allows; only the timing is
// chosen.  Cells (cap 1, 32-cell segments): 0..31 interrupted receives;
// 32 the element; 33 the send clause.
WUC_SCENARIO(withdrawn_send_clause_keeps_the_buffer) {
  static LongChannel ch, other; // other: rendezvous, for the clause that wins
  chan_init(&ch, 1);
  wuc_chan *core = &ch.core;
  const uint64_t seg = chan_probe_segment_size();
  // Segment 0: receive clauses that register (and expand the buffer), then
  // lose to a timeout.
  for (int tries = 0; chan_probe_receivers(core) < seg; tries++) {
    SCENARIO_CHECK(tries < 1000, "receive clauses keep winning nothing");
    long x = 0;
    wuc_chan_recv_clause rc = chan_recv_clause(&ch);
    wuc_timeout t = wuc_timeout_make(milliseconds(1));
    std::vector<Clause> clauses = {Recv(&rc, &x), Bind(&t, WUC_TRAIT(wuc_timeout_register))};
    SCENARIO_CHECK(Winner(Waituntil(wuc_test::AnyOf(2), clauses)) == 1, "a receive won");
  }
  SCENARIO_CHECK(chan_probe_buffer_end(core) == seg + 1, "B = %lu",
                 (unsigned long)chan_probe_buffer_end(core));
  SCENARIO_CHECK(chan_send(&ch, 7L), "send"); // fails through segment 0, buffers in cell 32
  SCENARIO_CHECK(chan_probe_senders(core) == seg + 1, "S = %lu",
                 (unsigned long)chan_probe_senders(core));

  // (ch << 8) or (y << other): the send clause waits in cell 33.
  static Outcome statement;
  static long y = 0;
  uthread_t *t = SpawnFn([] {
    long v = 8;
    wuc_chan_send_clause sc = chan_send_clause(&ch);
    wuc_chan_recv_clause oc = chan_recv_clause(&other);
    std::vector<Clause> clauses = {Send(&sc, &v), Recv(&oc, &y)};
    statement = Waituntil(wuc_test::AnyOf(2), clauses);
  });
  wuc_test::AwaitParked(t);
  SCENARIO_CHECK(chan_probe_senders(core) == seg + 2, "the send clause did not register");

  // A receive takes cell 32 and expands the buffer: B 33 -> 34, then it
  // spins on the maintenance lock before it looks at cell 33.
  chan_probe_hold_maintenance(core);
  static long got = 0;
  uthread_t *r = SpawnFn([] { chan_recv(&ch, &got); });
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (chan_probe_buffer_end(core) == seg + 1) {
    if (std::chrono::steady_clock::now() > give_up) {
      chan_probe_release_maintenance(core);
      SCENARIO_CHECK(false, "the receive never expanded the buffer");
    }
    __builtin_ia32_pause();
  }
  // The stalled try_recv takes cell 33 (R 33 -> 34; it passed its check,
  // R < S): now expandBuffer leaves the sender in cell 33 to it.
  uint64_t stalled = chan_probe_take_receive_index(core);
  SCENARIO_CHECK(stalled == seg + 1, "the stalled receive took cell %lu", (unsigned long)stalled);
  chan_probe_release_maintenance(core);
  uthread_join(r);
  SCENARIO_CHECK(got == 7, "received %ld", got);

  // The other clause wins; the send clause is withdrawn from cell 33.
  SCENARIO_CHECK(chan_send(&other, 5L), "send on other");
  uthread_join(t);
  SCENARIO_CHECK(statement.ran.size() == 1 && statement.ran[0] == 1 && y == 5 &&
                     statement.completed_unrun.empty(),
                 "the statement did not end by its receive alone");
  // The stalled try_recv now finds cell 33 interrupted and, with R = S,
  // returns false: it changes nothing, so nothing is left to do for it.
  SCENARIO_CHECK(chan_probe_receivers(core) == chan_probe_senders(core), "R != S");

  // Empty, capacity 1: exactly one try_send fits.
  SCENARIO_CHECK(chan_try_send(&ch, 3L), "the empty cap-1 channel refuses a try_send");
  SCENARIO_CHECK(!chan_try_send(&ch, 4L), "the cap-1 channel takes a second element");
  long x = 0;
  SCENARIO_CHECK(chan_try_recv(&ch, &x) && x == 3, "received %ld", x);
  std::printf("ok\n");
  return 0;
}

TEST(ChannelSelect, WithdrawnSendClauseKeepsTheBuffer) {
  auto r = RunScenario("withdrawn_send_clause_keeps_the_buffer", {{"WUC_PROCESSORS", "2"}}, 60);
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

// A receive clause that makes room in the buffer must not complete a send
// clause of its own statement waiting beyond it while the statement
// registers: that won the statement behind the receive's back, the receive
// went on, took its own statement's element and stopped the program ("a
// channel clause completed after its statement was won elsewhere";
// semantics/self_select_buffered.wc under TSan, where a partner's send
// stalled between its fetch-and-add and its cell).  The sibling is dropped
// and registered again, as anyone else drops it.  Clause 0 stands for that
// partner: each reg takes a send index and leaves its cell empty.  Cap 1:
//   try pass:   cell 0 stalled; the send gives up (full); the receive breaks
//               cell 0 (B 1 -> 2) and gives up
//   register:   cell 1 stalled; the send waits in cell 2; the receive breaks
//               cell 1 and expands the buffer over cell 2 (B 2 -> 3), where
//               its own send waits
WUC_SCENARIO(receive_clause_makes_room_for_its_own_send) {
  static LongChannel ch;
  chan_init(&ch, 1);
  wuc_chan *core = &ch.core;
  Clause stall;
  stall.reg = [core](wuc_select_node *) {
    (void)chan_probe_take_send_index(core);
    return false;
  };
  stall.unreg = [](wuc_select_node *n) { return wuc_select_withdraw(n); };
  stall.on_selected = [](wuc_select_node *n) { return n->needed; };
  long v = 2, x = -1;
  wuc_chan_send_clause sc = chan_send_clause(&ch);
  wuc_chan_recv_clause rc = chan_recv_clause(&ch);
  std::vector<Clause> clauses = {stall, Send(&sc, &v), Recv(&rc, &x)};
  Outcome o = Waituntil(wuc_test::AnyOf(3), clauses);
  SCENARIO_CHECK(chan_probe_senders(core) >= 3, "S = %lu: the scenario went another way",
                 (unsigned long)chan_probe_senders(core));
  SCENARIO_CHECK(Winner(o) == 1 && x == -1, "clause %d won, received %ld", Winner(o), x);
  long got = -1;
  SCENARIO_CHECK(chan_try_recv(&ch, &got) && got == 2, "the buffer held %ld", got);
  SCENARIO_CHECK(!chan_try_recv(&ch, &got), "a second element %ld", got);
  std::printf("ok\n");
  return 0;
}

TEST(ChannelSelect, ReceiveClauseMakingRoomDropsItsOwnSendWhileRegistering) {
  auto r = RunScenario("receive_clause_makes_room_for_its_own_send", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
  EXPECT_EQ(r.out, "ok\n") << r.Describe();
}

// ch << e on a closed channel stops the program, naming the clause's site.
WUC_SCENARIO(send_clause_on_closed_channel) {
  static LongChannel ch;
  chan_close(&ch);
  long v = 1;
  wuc_chan_send_clause c = chan_send_clause(&ch);
  std::vector<Clause> clauses = {Send(&c, &v)};
  Waituntil(wuc_test::AnyOf(1), clauses);
  std::printf("survived\n");
  return 0;
}

TEST(ChannelSelect, SendClauseOnClosedChannelStopsTheProgram) {
  auto r = RunScenario("send_clause_on_closed_channel", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, 2)) << r.Describe();
  EXPECT_EQ(r.err.rfind("wuc: fatal: waituntil: send on a closed channel\n", 0), 0u)
      << r.Describe();
  EXPECT_EQ(r.out.find("survived"), std::string::npos);
}

} // namespace
