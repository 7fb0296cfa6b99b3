// channel_test.cc — channels (<wuc/channel.h>, docs/library.md): set-up and
// capacities, FIFO order, when sends and receives block and when try
// operations succeed, element types (channel_c_api.c, compiled as C), close,
// segment removal behind withdrawn waiters, and misuse and deadlock reports
// (child processes, exact text).
//
// "Blocked" is observed with probe_is_parked: a thread parked in a channel
// operation has registered in its cell before parking.
#include <gtest/gtest.h>

#include <wuc/channel.h>
#include <wuc/select.h>
#include <wuc/thread.h>
#include <wuc/timeout.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "channel_c_api.h"
#include "runtime_probe.h"
#include "scenario.h"
#include "spawn_fn.h"
#include "spin.h"
#include "subprocess.h"
#include "waituntil.h"

WUC_CHANNEL_STRUCT(int_chan, int);
WUC_CHANNEL_STRUCT(long_chan, long);

namespace {

using wuc_test::AwaitParked; // t is blocked in the one channel operation it may block in
using wuc_test::ChildResult;
using wuc_test::ExitedWith;
using wuc_test::RunScenario;
using wuc_test::SpawnFn;

constexpr size_t kUnbounded = CHAN_UNBOUNDED;

std::string CapName(size_t cap) { return cap == kUnbounded ? "Unbounded" : std::to_string(cap); }

// Tests over several capacities are value-parameterized rather than loops
// with SCOPED_TRACE: gtest keeps that trace per kernel thread, and a user
// thread that blocks may come back on another worker.
struct CapParamName {
  std::string operator()(const ::testing::TestParamInfo<size_t> &info) const {
    return "Cap" + CapName(info.param);
  }
};
#define CAP_TEST(suite, ...)                                                                       \
  class suite : public ::testing::TestWithParam<size_t> {};                                        \
  INSTANTIATE_TEST_SUITE_P(Caps, suite, ::testing::Values(__VA_ARGS__), CapParamName())

// ---- set-up, capacity, length ----------------------------------------------

TEST(Channel, ZeroInitialisedIsARendezvousChannel) {
  int_chan c{};
  EXPECT_EQ(chan_cap(&c), 0u);
  EXPECT_EQ(chan_len(&c), 0u);
  EXPECT_FALSE(chan_is_closed(&c));
  EXPECT_FALSE(chan_try_send(&c, 1)) << "no receiver waits: a rendezvous try_send fails";
  int v = -1;
  EXPECT_FALSE(chan_try_recv(&c, &v));
  // A send blocks until a receive comes.
  std::atomic<bool> sent{false};
  uthread_t *t = SpawnFn([&] {
    EXPECT_TRUE(chan_send(&c, 42));
    sent = true;
  });
  AwaitParked(t);
  EXPECT_FALSE(sent.load());
  EXPECT_EQ(chan_len(&c), 0u) << "a rendezvous channel holds nothing";
  EXPECT_TRUE(chan_recv(&c, &v));
  EXPECT_EQ(v, 42);
  uthread_join(t);
  EXPECT_TRUE(sent.load());
  chan_destroy(&c);
}

// The lazy set-up of a zeroed channel, raced by its first users: every
// element still goes through exactly once.
TEST(Channel, ZeroInitialisedFirstUsedByManyThreadsAtOnce) {
  for (int round = 0; round < 200; round++) {
    long_chan c{};
    std::atomic<int> go{0};
    std::atomic<long> sum{0};
    std::vector<uthread_t *> threads;
    for (int i = 0; i < 4; i++) {
      threads.push_back(SpawnFn([&, i] {
        while (!go.load()) uthread_yield();
        ASSERT_TRUE(chan_send(&c, static_cast<long>(i + 1)));
      }));
      threads.push_back(SpawnFn([&] {
        while (!go.load()) uthread_yield();
        long v = 0;
        ASSERT_TRUE(chan_recv(&c, &v));
        sum += v;
      }));
    }
    go = 1;
    for (uthread_t *t : threads) uthread_join(t);
    ASSERT_EQ(sum.load(), 10) << "round " << round;
    EXPECT_EQ(chan_cap(&c), 0u);
    chan_destroy(&c);
  }
}

CAP_TEST(ChannelLength, size_t{0}, size_t{1}, size_t{64}, kUnbounded);

TEST_P(ChannelLength, FollowsSendsAndReceives) {
  const size_t cap = GetParam();
  long_chan c{};
  EXPECT_EQ(chan_cap(&c), 0u) << "fresh";
  chan_init(&c, cap);
  EXPECT_EQ(chan_cap(&c), cap);
  EXPECT_EQ(chan_len(&c), 0u);
  if (cap != 0) {
    size_t n = cap == kUnbounded ? 100 : cap;
    for (size_t i = 0; i < n; i++) {
      ASSERT_TRUE(chan_try_send(&c, static_cast<long>(i)));
      EXPECT_EQ(chan_len(&c), i + 1);
    }
    long v;
    ASSERT_TRUE(chan_recv(&c, &v));
    EXPECT_EQ(chan_len(&c), n - 1);
  }
  EXPECT_EQ(chan_cap(&c), cap);
  chan_destroy(&c);
}

// ---- FIFO ------------------------------------------------------------------------

CAP_TEST(ChannelFifo, size_t{0}, size_t{1}, size_t{4}, size_t{64}, kUnbounded);

TEST_P(ChannelFifo, FromOneSender) {
  long_chan c{};
  chan_init(&c, GetParam());
  constexpr long kN = 5000; // many segments
  uthread_t *t = SpawnFn([&] {
    for (long i = 0; i < kN; i++) ASSERT_TRUE(chan_send(&c, i));
  });
  for (long i = 0; i < kN; i++) {
    long v = -1;
    ASSERT_TRUE(chan_recv(&c, &v));
    ASSERT_EQ(v, i);
  }
  uthread_join(t);
  chan_destroy(&c);
}

// Receivers that block one after the other get the elements in that order.
CAP_TEST(ChannelWaitingReceivers, size_t{0}, size_t{2}, kUnbounded);

TEST_P(ChannelWaitingReceivers, ServedInArrivalOrder) {
  long_chan c{};
  chan_init(&c, GetParam());
  constexpr int kReceivers = 5;
  long got[kReceivers];
  uthread_t *t[kReceivers];
  for (int i = 0; i < kReceivers; i++) {
    got[i] = -1;
    t[i] = SpawnFn([&c, &got, i] { EXPECT_TRUE(chan_recv(&c, &got[i])); });
    AwaitParked(t[i]);
  }
  EXPECT_EQ(chan_len(&c), 0u);
  for (int i = 0; i < kReceivers; i++) EXPECT_TRUE(chan_send(&c, 100L + i));
  for (int i = 0; i < kReceivers; i++) {
    uthread_join(t[i]);
    EXPECT_EQ(got[i], 100 + i) << "receiver " << i;
  }
  EXPECT_EQ(chan_len(&c), 0u);
  chan_destroy(&c);
}

// Senders that block one after the other (beyond a full buffer) deliver in
// that order, after the buffered elements.
CAP_TEST(ChannelWaitingSenders, size_t{0}, size_t{1}, size_t{3});

TEST_P(ChannelWaitingSenders, ServedInArrivalOrderAfterTheBuffer) {
  const size_t cap = GetParam();
  long_chan c{};
  chan_init(&c, cap);
  for (size_t i = 0; i < cap; i++) ASSERT_TRUE(chan_send(&c, static_cast<long>(i)));
  constexpr int kSenders = 5;
  uthread_t *t[kSenders];
  for (int i = 0; i < kSenders; i++) {
    long v = static_cast<long>(cap) + i;
    t[i] = SpawnFn([&c, v] { EXPECT_TRUE(chan_send(&c, v)); });
    AwaitParked(t[i]);
  }
  EXPECT_EQ(chan_len(&c), cap) << "blocked senders are not in the buffer";
  for (long i = 0; i < static_cast<long>(cap) + kSenders; i++) {
    long v = -1;
    ASSERT_TRUE(chan_recv(&c, &v));
    EXPECT_EQ(v, i);
  }
  for (int i = 0; i < kSenders; i++) uthread_join(t[i]);
  long v;
  EXPECT_FALSE(chan_try_recv(&c, &v));
  chan_destroy(&c);
}

// ---- when operations block ---------------------------------------------------

CAP_TEST(ChannelBufferedSend, size_t{1}, size_t{4}, size_t{64}, size_t{100});

TEST_P(ChannelBufferedSend, UpToCapacityDoesNotBlock) {
  const size_t cap = GetParam();
  long_chan c{};
  chan_init(&c, cap);
  // No receiver exists: a blocking send here would end the test in the
  // runtime's deadlock report.
  for (size_t i = 0; i < cap; i++) ASSERT_TRUE(chan_send(&c, static_cast<long>(i)));
  EXPECT_EQ(chan_len(&c), cap);
  EXPECT_FALSE(chan_try_send(&c, -1L)) << "full";
  for (size_t i = 0; i < cap; i++) {
    long v;
    ASSERT_TRUE(chan_try_recv(&c, &v));
    EXPECT_EQ(v, static_cast<long>(i));
  }
  chan_destroy(&c);
}

TEST_P(ChannelBufferedSend, BeyondCapacityBlocksUntilAReceive) {
  const size_t cap = GetParam();
  long_chan c{};
  chan_init(&c, cap);
  std::atomic<size_t> sent{0};
  uthread_t *t = SpawnFn([&] {
    for (size_t i = 0; i <= cap; i++) {
      ASSERT_TRUE(chan_send(&c, static_cast<long>(i)));
      sent++;
    }
  });
  AwaitParked(t);
  EXPECT_EQ(sent.load(), cap) << "the first cap sends returned, the next one blocks";
  long v = -1;
  ASSERT_TRUE(chan_recv(&c, &v));
  EXPECT_EQ(v, 0);
  uthread_join(t);
  EXPECT_EQ(sent.load(), cap + 1);
  EXPECT_EQ(chan_len(&c), cap);
  for (size_t i = 1; i <= cap; i++) {
    ASSERT_TRUE(chan_try_recv(&c, &v));
    EXPECT_EQ(v, static_cast<long>(i));
  }
  chan_destroy(&c);
}

// Close is atomic for blocked senders (docs/channels.md, "Close"): with the
// buffer full and nobody receiving before the close, every send fails,
// including one that took its cell before the close but had not reached it
// yet (it is on another worker, between its fetch-and-add and its waiter's
// publication, when the close and the receive that makes room come).  The
// buffer's elements are delivered, and nothing else.
WUC_SCENARIO(close_meets_senders_on_their_way) {
  constexpr int kRounds = 4000, kSenders = 3;
  constexpr size_t kCap = 2;
  int delivered_total = 0;
  for (int round = 0; round < kRounds; round++) {
    long_chan c{};
    chan_init(&c, kCap);
    for (size_t i = 0; i < kCap; i++) chan_send(&c, static_cast<long>(i));
    std::atomic<int> started{0}, delivered{0};
    uthread_t *t[kSenders];
    for (int i = 0; i < kSenders; i++)
      t[i] = SpawnFn([&c, &started, &delivered] {
        started++;
        if (chan_send(&c, 100L)) delivered++;
      });
    // Spin, not yield: the senders start on other workers (stolen at once at
    // WUC_STEAL_AGE=0), so one may be half-way through its send below.
    for (uint32_t spins = 0; started.load() == 0;) wuc_test_spin_step(&spins);
    chan_close(&c);
    long v;
    size_t got = 0;
    while (chan_recv(&c, &v)) got++;
    for (auto *th : t) uthread_join(th);
    SCENARIO_CHECK(got == kCap + static_cast<size_t>(delivered.load()),
                   "round %d: %zu received, %d sends delivered", round, got, delivered.load());
    delivered_total += delivered.load();
    chan_destroy(&c);
  }
  SCENARIO_CHECK(delivered_total == 0, "%d sends blocked at close delivered after it",
                 delivered_total);
  return 0;
}

TEST(Channel, CloseFailsSendersStillOnTheirWayToAFullBuffer) {
  auto r = RunScenario("close_meets_senders_on_their_way",
                       {{"WUC_PROCESSORS", "4"}, {"WUC_STEAL_AGE", "0"}});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.err;
}

TEST(Channel, RendezvousTrySendNeedsABlockedReceiver) {
  int_chan c{};
  chan_init(&c, 0);
  EXPECT_FALSE(chan_try_send(&c, 1));
  int got = -1;
  uthread_t *t = SpawnFn([&] { EXPECT_TRUE(chan_recv(&c, &got)); });
  AwaitParked(t);
  EXPECT_TRUE(chan_try_send(&c, 7)) << "a receiver is blocked waiting";
  uthread_join(t);
  EXPECT_EQ(got, 7);
  EXPECT_FALSE(chan_try_send(&c, 8)) << "that receiver was served";
  chan_destroy(&c);
}

CAP_TEST(ChannelTryRecv, size_t{0}, size_t{1}, size_t{64}, kUnbounded);

TEST_P(ChannelTryRecv, FailsWhenNothingIsThere) {
  const size_t cap = GetParam();
  long_chan c{};
  chan_init(&c, cap);
  long v = 5;
  EXPECT_FALSE(chan_try_recv(&c, &v));
  EXPECT_FALSE(chan_try_recv(&c, &v)) << "a failed try_recv leaves no trace";
  EXPECT_EQ(v, 5);
  if (cap != 0) {
    ASSERT_TRUE(chan_send(&c, 1L));
    EXPECT_TRUE(chan_try_recv(&c, &v));
    EXPECT_EQ(v, 1);
    EXPECT_FALSE(chan_try_recv(&c, &v));
  }
  chan_destroy(&c);
}

TEST(Channel, RendezvousTryRecvTakesFromABlockedSender) {
  int_chan c{};
  std::atomic<bool> sent{false};
  uthread_t *t = SpawnFn([&] {
    EXPECT_TRUE(chan_send(&c, 9));
    sent = true;
  });
  AwaitParked(t);
  int v = -1;
  EXPECT_TRUE(chan_try_recv(&c, &v));
  EXPECT_EQ(v, 9);
  uthread_join(t);
  EXPECT_TRUE(sent.load());
  EXPECT_FALSE(chan_try_recv(&c, &v));
  chan_destroy(&c);
}

TEST(Channel, BufferedTryRecvTakesBlockedSendersAfterTheBuffer) {
  long_chan c{};
  chan_init(&c, 2);
  ASSERT_TRUE(chan_send(&c, 0L));
  ASSERT_TRUE(chan_send(&c, 1L));
  uthread_t *t = SpawnFn([&] { EXPECT_TRUE(chan_send(&c, 2L)); });
  AwaitParked(t);
  long v = -1;
  for (long i = 0; i < 3; i++) {
    ASSERT_TRUE(chan_try_recv(&c, &v));
    EXPECT_EQ(v, i);
  }
  uthread_join(t);
  EXPECT_FALSE(chan_try_recv(&c, &v));
  chan_destroy(&c);
}

TEST(Channel, UnboundedMillionSendsNeverBlock) {
  long_chan c{};
  chan_init(&c, kUnbounded);
  constexpr long kN = 1000000;
  for (long i = 0; i < kN; i++) ASSERT_TRUE(chan_send(&c, i));
  EXPECT_EQ(chan_len(&c), static_cast<size_t>(kN));
  EXPECT_TRUE(chan_try_send(&c, kN));
  for (long i = 0; i <= kN; i++) {
    long v = -1;
    ASSERT_TRUE(chan_recv(&c, &v));
    ASSERT_EQ(v, i);
  }
  EXPECT_EQ(chan_len(&c), 0u);
  chan_destroy(&c);
}

// Kernel threads outside the runtime may make the non-blocking operations
// (docs/library.md); reclamation counts them while they hold segment
// pointers, and the segments they retire wait for a worker (reclaim.h,
// wuc_reclaim_foreign_begin).  Enough elements to pass hundreds of segments
// each way: retiring one from such a thread stopped the program ("wuc_retire
// called outside the wuc runtime"), as the monitor's signal dispatch did.
TEST(Channel, ForeignKernelThreadsTryAcrossManySegments) {
  constexpr long kN = 20000;
  long_chan to_user{}, from_user{};
  chan_init(&to_user, kUnbounded);
  chan_init(&from_user, 4);
  std::thread sender([&] {
    for (long i = 0; i < kN; i++) EXPECT_TRUE(chan_try_send(&to_user, i));
    chan_close(&to_user);
  });
  std::atomic<long> received{0};
  std::thread receiver([&] {
    long next = 0, v = -1;
    while (next < kN) {
      if (!chan_try_recv(&from_user, &v)) {
        std::this_thread::yield();
        continue;
      }
      EXPECT_EQ(v, next);
      next++;
    }
    received = next;
  });
  uthread_t *producer = wuc_test::SpawnFn([&] {
    for (long i = 0; i < kN; i++) EXPECT_TRUE(chan_send(&from_user, i));
  });
  long v = -1;
  for (long i = 0; i < kN; i++) {
    ASSERT_TRUE(chan_recv(&to_user, &v));
    ASSERT_EQ(v, i);
  }
  EXPECT_FALSE(chan_recv(&to_user, &v)); // closed by the foreign thread, drained
  uthread_join(producer);
  sender.join();
  receiver.join();
  EXPECT_EQ(received.load(), kN);
  chan_destroy(&to_user);
  chan_destroy(&from_user);
}

// ---- element types (compiled as C) ------------------------------------------

TEST(ChannelTypes, Char) { EXPECT_EQ(channel_c_char(), 0) << "channel_c_api.c line"; }
TEST(ChannelTypes, Long) { EXPECT_EQ(channel_c_long(), 0) << "channel_c_api.c line"; }
TEST(ChannelTypes, FortyByteStruct) {
  EXPECT_EQ(channel_c_struct40(), 0) << "channel_c_api.c line";
}
TEST(ChannelTypes, FortyByteStructThroughWaiters) {
  EXPECT_EQ(channel_c_struct40_rendezvous(), 0) << "channel_c_api.c line";
}
TEST(ChannelTypes, ZeroSizeStruct) {
  EXPECT_EQ(channel_c_zero_size(), 0) << "channel_c_api.c line";
}
TEST(ChannelTypes, ZeroSizeStructRendezvous) {
  EXPECT_EQ(channel_c_zero_size_rendezvous(), 0) << "channel_c_api.c line";
}
TEST(ChannelTypes, Pointers) { EXPECT_EQ(channel_c_pointers(), 0) << "channel_c_api.c line"; }
TEST(ChannelTypes, AssignmentConversions) {
  EXPECT_EQ(channel_c_conversions(), 0) << "channel_c_api.c line";
}
TEST(ChannelTypes, NamedStructPassedToFunctions) {
  EXPECT_EQ(channel_c_named_struct(), 0) << "channel_c_api.c line";
}

// The same macros from C++ (the unit tests use them throughout): a double
// channel takes an int literal.
TEST(ChannelTypes, IntLiteralIntoDoubleFromCxx) {
  WUC_CHANNEL(double) d{};
  chan_init(&d, 1);
  EXPECT_TRUE(chan_send(&d, 3));
  double v = 0;
  EXPECT_TRUE(chan_recv(&d, &v));
  EXPECT_EQ(v, 3.0);
  chan_destroy(&d);
}

// ---- close -------------------------------------------------------------------

CAP_TEST(ChannelClose, size_t{0}, size_t{1}, size_t{4}, size_t{64}, kUnbounded);

TEST_P(ChannelClose, IsIdempotent) {
  long_chan c{};
  chan_init(&c, GetParam());
  EXPECT_FALSE(chan_is_closed(&c));
  chan_close(&c);
  EXPECT_TRUE(chan_is_closed(&c));
  chan_close(&c);
  EXPECT_TRUE(chan_is_closed(&c));
  long v;
  EXPECT_FALSE(chan_recv(&c, &v));
  chan_destroy(&c);
}

TEST(Channel, CloseIsAFirstUseToo) {
  int_chan z{};
  chan_close(&z);
  EXPECT_TRUE(chan_is_closed(&z));
  EXPECT_EQ(chan_cap(&z), 0u);
  int v;
  EXPECT_FALSE(chan_recv(&z, &v));
  chan_destroy(&z);
}

CAP_TEST(ChannelCloseBuffered, size_t{1}, size_t{4}, size_t{64}, kUnbounded);

TEST_P(ChannelCloseBuffered, ElementsAreDeliveredThenReceiveFails) {
  const size_t cap = GetParam();
  for (bool try_ops : {false, true}) {
    long_chan c{};
    chan_init(&c, cap);
    long n = cap < 3 ? static_cast<long>(cap) : 3;
    for (long i = 0; i < n; i++) ASSERT_TRUE(chan_send(&c, i));
    chan_close(&c);
    EXPECT_EQ(chan_len(&c), static_cast<size_t>(n));
    for (long i = 0; i < n; i++) {
      long v = -1;
      ASSERT_TRUE(try_ops ? chan_try_recv(&c, &v) : chan_recv(&c, &v)) << "try " << try_ops;
      EXPECT_EQ(v, i);
    }
    long v = -1;
    EXPECT_FALSE(chan_recv(&c, &v)) << "closed and drained";
    EXPECT_FALSE(chan_try_recv(&c, &v));
    EXPECT_FALSE(chan_recv(&c, &v)) << "and stays so";
    EXPECT_EQ(v, -1) << "a failed receive leaves the target alone";
    chan_destroy(&c);
  }
}

TEST_P(ChannelClose, SendsAfterCloseFail) {
  long_chan c{};
  chan_init(&c, GetParam());
  chan_close(&c);
  EXPECT_FALSE(chan_send(&c, 1L)) << "room or not, a closed channel takes nothing";
  EXPECT_FALSE(chan_try_send(&c, 2L));
  long v;
  EXPECT_FALSE(chan_try_recv(&c, &v));
  EXPECT_FALSE(chan_recv(&c, &v));
  chan_destroy(&c);
}

TEST_P(ChannelClose, WakesBlockedReceivers) {
  long_chan c{};
  chan_init(&c, GetParam());
  constexpr int kReceivers = 4;
  uthread_t *t[kReceivers];
  for (int i = 0; i < kReceivers; i++) {
    t[i] = SpawnFn([&c] {
      long v = -1;
      EXPECT_FALSE(chan_recv(&c, &v));
      EXPECT_EQ(v, -1);
    });
    AwaitParked(t[i]);
  }
  chan_close(&c);
  for (int i = 0; i < kReceivers; i++) uthread_join(t[i]);
  long v;
  EXPECT_FALSE(chan_try_send(&c, 1L)) << "no receiver waits any more";
  EXPECT_FALSE(chan_recv(&c, &v));
  chan_destroy(&c);
}

// A blocked sender (buffer full, or rendezvous) fails: its element never
// entered the buffer.  What was buffered before close is still delivered.
CAP_TEST(ChannelCloseBlockedSenders, size_t{0}, size_t{1}, size_t{4}, size_t{64});

TEST_P(ChannelCloseBlockedSenders, AreWokenAndFail) {
  const size_t cap = GetParam();
  long_chan c{};
  chan_init(&c, cap);
  for (size_t i = 0; i < cap; i++) ASSERT_TRUE(chan_send(&c, static_cast<long>(i)));
  constexpr int kSenders = 3;
  uthread_t *t[kSenders];
  for (int i = 0; i < kSenders; i++) {
    t[i] = SpawnFn([&c, i] { EXPECT_FALSE(chan_send(&c, 1000L + i)) << "woken by close"; });
    AwaitParked(t[i]);
  }
  chan_close(&c);
  for (int i = 0; i < kSenders; i++) uthread_join(t[i]);
  for (size_t i = 0; i < cap; i++) {
    long v = -1;
    ASSERT_TRUE(chan_recv(&c, &v));
    EXPECT_EQ(v, static_cast<long>(i));
  }
  long v;
  EXPECT_FALSE(chan_recv(&c, &v));
  EXPECT_FALSE(chan_try_recv(&c, &v));
  chan_destroy(&c);
}

// Main itself blocked in a receive, closed from another thread.
TEST(Channel, CloseWakesMainBlockedInReceive) {
  long_chan c{};
  chan_init(&c, 1);
  uthread_t *self = uthread_self();
  uthread_t *closer = SpawnFn([&] {
    AwaitParked(self);
    chan_close(&c);
  });
  long v;
  EXPECT_FALSE(chan_recv(&c, &v));
  uthread_join(closer);
  chan_destroy(&c);
}

// ---- segments --------------------------------------------------------------------

// A receiver waits in cell 0, so the send head stays on segment 0 while
// thousands of receive clauses register and withdraw behind it (each losing
// to a timeout; many threads at once, so the timers overlap): their cells
// are interrupted, and the segments they fill must be unlinked instead of
// piling up.  A sender then meets the first receiver and skips the
// interrupted cells.
void ReceiveOrTimeout(long_chan *c, uint64_t until_receivers) {
  using wuc_test::Bind;
  using wuc_test::Clause;
  wuc_chan_recv_clause rc{&c->core, sizeof(long)};
  while (c->core.receivers.load() < until_receivers) {
    long x = -1;
    wuc_timeout t = wuc_timeout_make(microseconds(30)); // long enough to miss the try pass
    std::vector<Clause> clauses = {Bind(&rc, WUC_TRAIT(wuc_chan_recv_register)),
                                   Bind(&t, WUC_TRAIT(wuc_timeout_register))};
    clauses[0].data = &x;
    wuc_test::Outcome o = wuc_test::Waituntil(wuc_test::AnyOf(2), clauses);
    ASSERT_EQ(o.ran, std::vector<int>{1}) << "nothing was sent: the timeout wins";
    ASSERT_EQ(x, -1);
  }
}

TEST(ChannelSegments, WithdrawnReceiveClausesAreUnlinked) {
  long_chan c{};
  long first = -1;
  uthread_t *a = SpawnFn([&] { EXPECT_TRUE(chan_recv(&c, &first)); });
  AwaitParked(a);
  const uint64_t target = 1 + 100 * channel_segment_size();
  constexpr int kThreads = 32;
  std::vector<uthread_t *> threads;
  for (int i = 0; i < kThreads; i++)
    threads.push_back(SpawnFn([&] { ReceiveOrTimeout(&c, target); }));
  for (uthread_t *t : threads) uthread_join(t);
  EXPECT_LE(channel_linked_segments(&c.core), 4u)
      << "segments full of withdrawn clauses stay linked (" << c.core.receivers.load()
      << " receivers)";
  EXPECT_TRUE(chan_try_send(&c, 5L)) << "the first receiver still waits";
  uthread_join(a);
  EXPECT_EQ(first, 5);
  EXPECT_FALSE(chan_try_send(&c, 6L)) << "every other receiver withdrew";
  long second = -1;
  uthread_t *b = SpawnFn([&] { EXPECT_TRUE(chan_recv(&c, &second)); });
  AwaitParked(b);
  EXPECT_TRUE(chan_try_send(&c, 7L));
  uthread_join(b);
  EXPECT_EQ(second, 7);
  EXPECT_LE(channel_linked_segments(&c.core), 4u);
  chan_destroy(&c);
}

// A buffered channel's buffer end starts at the capacity; moving its segment
// pointer must not allocate the segments up to there (regression: the
// first receive after 32 sends allocated capacity/32 segments).
TEST(ChannelSegments, LargeCapacityAllocatesOnlyWhatIsUsed) {
  for (size_t cap : {size_t{1} << 20, size_t{1} << 40}) {
    long_chan c{};
    chan_init(&c, cap);
    for (long i = 0; i < 40; i++) ASSERT_TRUE(chan_send(&c, i));
    long v = -1;
    ASSERT_TRUE(chan_recv(&c, &v));
    EXPECT_EQ(v, 0);
    EXPECT_LE(channel_linked_segments(&c.core), 4u) << "capacity " << cap;
    EXPECT_EQ(chan_len(&c), 39u);
    chan_destroy(&c);
  }
}

// Sends on a closed channel take no cell (regression: each still counted,
// so chan_len showed phantom elements and the next receive walked, and
// allocated segments for, every one of them).
TEST(ChannelSegments, FailedSendsAfterCloseLeaveNoTrace) {
  long_chan c{};
  chan_init(&c, 4);
  ASSERT_TRUE(chan_send(&c, 7L));
  chan_close(&c);
  for (long i = 0; i < 3; i++) EXPECT_FALSE(chan_send(&c, i));
  EXPECT_EQ(chan_len(&c), 1u);
  for (long i = 0; i < 100000; i++) ASSERT_FALSE(chan_send(&c, i));
  long v = -1;
  EXPECT_TRUE(chan_recv(&c, &v));
  EXPECT_EQ(v, 7);
  EXPECT_EQ(chan_len(&c), 0u);
  EXPECT_FALSE(chan_recv(&c, &v));
  EXPECT_FALSE(chan_try_recv(&c, &v));
  EXPECT_LE(channel_linked_segments(&c.core), 4u);
  chan_destroy(&c);
}

// ---- misuse and deadlock (child processes) ------------------------------------

constexpr int kFatal = 2;
const char kMain[] = "  in user thread 1 (main)\n";

// A child says where its channel is (the messages print its address).
void Fact(const char *name, const void *value) { std::printf("fact %s %p\n", name, value); }

std::map<std::string, std::string> Facts(const ChildResult &r) {
  std::map<std::string, std::string> facts;
  std::istringstream in(r.out);
  std::string word, name, value;
  while (in >> word)
    if (word == "fact" && in >> name >> value) facts[name] = value;
  return facts;
}

// Exit status 2 and exactly `message` with the thread line on stderr.
void ExpectFatal(const ChildResult &r, const std::string &message) {
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, "wuc: fatal: " + message + "\n" + kMain) << r.Describe();
  EXPECT_EQ(r.out.find("survived"), std::string::npos) << r.Describe();
}

int Survived() {
  std::printf("survived\n");
  return 0;
}

} // namespace

WUC_SCENARIO(chan_init_twice) {
  static long_chan c;
  Fact("chan", &c);
  chan_init(&c, 1);
  chan_init(&c, 1);
  return Survived();
}

// A stack channel declared without an initialiser: its state word may be
// zero while its counters are not.  Simulated by filling a channel with
// garbage except the state word.
WUC_SCENARIO(chan_init_not_zeroed) {
  static long_chan c;
  Fact("chan", &c);
  memset(static_cast<void *>(&c), 0x5a, sizeof c);
  atomic_store(&c.core.state, 0u);
  chan_init(&c, 64);
  return Survived();
}

WUC_SCENARIO(chan_init_after_use) {
  static long_chan c; // zeroed: its first use sets it up as a rendezvous channel
  Fact("chan", &c);
  chan_try_send(&c, 1L);
  chan_init(&c, 4);
  return Survived();
}

WUC_SCENARIO(chan_destroy_twice) {
  static long_chan c;
  Fact("chan", &c);
  chan_init(&c, 1);
  chan_destroy(&c);
  chan_destroy(&c);
  return Survived();
}

// The operation named by $CHAN_OP on a destroyed channel.
WUC_SCENARIO(chan_use_after_destroy) {
  static long_chan c;
  Fact("chan", &c);
  chan_init(&c, 4);
  chan_send(&c, 1L);
  chan_destroy(&c);
  std::string op = std::getenv("CHAN_OP");
  long v;
  if (op == "chan_send") chan_send(&c, 2L);
  if (op == "chan_recv") chan_recv(&c, &v);
  if (op == "chan_try_send") chan_try_send(&c, 2L);
  if (op == "chan_try_recv") chan_try_recv(&c, &v);
  if (op == "chan_close") chan_close(&c);
  if (op == "chan_init") chan_init(&c, 1);
  if (op == "chan_is_closed") chan_is_closed(&c);
  if (op == "chan_len") chan_len(&c);
  if (op == "chan_cap") chan_cap(&c);
  return Survived();
}

extern "C" void chan_misuse_receive(void *arg) {
  long v;
  chan_recv(static_cast<long_chan *>(arg), &v);
}

extern "C" void chan_misuse_send(void *arg) { chan_send(static_cast<long_chan *>(arg), 5L); }

// $CHAN_WAITERS threads blocked in the channel (receivers on an empty one,
// or senders beyond a full one with $CHAN_SENDERS) when it is destroyed.
WUC_SCENARIO(chan_destroy_with_waiters) {
  static long_chan c;
  Fact("chan", &c);
  bool senders = std::getenv("CHAN_SENDERS") != nullptr;
  chan_init(&c, senders ? 1 : 0);
  if (senders) chan_send(&c, 1L);
  int n = std::atoi(std::getenv("CHAN_WAITERS"));
  for (int i = 0; i < n; i++) {
    uthread_t *t = uthread_spawn(senders ? chan_misuse_send : chan_misuse_receive, &c);
    AwaitParked(t);
  }
  chan_destroy(&c);
  return Survived();
}

// Through the untyped core, a 4-byte element on a channel of long.
WUC_SCENARIO(chan_size_mismatch) {
  static long_chan c;
  Fact("chan", &c);
  chan_init(&c, 4);
  std::string op = std::getenv("CHAN_OP");
  int small = 1;
  if (op == "chan_send") wuc_chan_send(&c.core, &small, sizeof small);
  if (op == "chan_recv") wuc_chan_recv(&c.core, &small, sizeof small);
  if (op == "chan_try_send") wuc_chan_try_send(&c.core, &small, sizeof small);
  if (op == "chan_try_recv") wuc_chan_try_recv(&c.core, &small, sizeof small);
  if (op == "chan_close") wuc_chan_close(&c.core, sizeof small);
  return Survived();
}

// A zeroed channel takes its element size from its first use.
WUC_SCENARIO(chan_size_mismatch_after_first_use) {
  static long_chan c;
  Fact("chan", &c);
  int small = 1;
  wuc_chan_try_send(&c.core, &small, sizeof small);
  chan_try_send(&c, 2L);
  return Survived();
}

// With C linkage, the channels' symbols are their names (C++ would mangle a
// `static` one's): the report names them.
extern "C" {
long_chan recv_deadlock_chan, send_deadlock_chan;
}

WUC_SCENARIO(chan_recv_deadlock) {
  long_chan &c = recv_deadlock_chan;
  long v;
  std::printf("fact line %d\n", __LINE__ + 1);
  chan_recv(&c, &v);
  return Survived();
}

WUC_SCENARIO(chan_send_deadlock) {
  long_chan &c = send_deadlock_chan;
  chan_init(&c, 1);
  chan_send(&c, 1L);
  std::printf("fact line %d\n", __LINE__ + 1);
  chan_send(&c, 2L); // full, and nobody receives
  return Survived();
}

namespace {

const char kInitMisuse[] =
    " was already initialised or used (chan_init goes on a zeroed, unused channel, once)";

TEST(ChannelMisuse, InitTwice) {
  auto r = RunScenario("chan_init_twice", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, "chan_init: channel " + Facts(r)["chan"] + kInitMisuse);
}

TEST(ChannelMisuse, InitOnAChannelNotZeroed) {
  auto r = RunScenario("chan_init_not_zeroed", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, "chan_init: channel " + Facts(r)["chan"] +
                     " is not zeroed (declare it static, or with = {0}, or allocate it with "
                     "calloc: chan_init goes on a zeroed, unused channel)");
}

TEST(ChannelMisuse, InitAfterUse) {
  auto r = RunScenario("chan_init_after_use", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, "chan_init: channel " + Facts(r)["chan"] + kInitMisuse);
}

TEST(ChannelMisuse, DestroyTwice) {
  auto r = RunScenario("chan_destroy_twice", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, "chan_destroy: channel " + Facts(r)["chan"] + " destroyed twice");
}

TEST(ChannelMisuse, UseAfterDestroy) {
  for (const char *op : {"chan_send", "chan_recv", "chan_try_send", "chan_try_recv", "chan_close",
                         "chan_init", "chan_is_closed", "chan_len", "chan_cap"}) {
    auto r = RunScenario("chan_use_after_destroy", {{"WUC_PROCESSORS", "1"}, {"CHAN_OP", op}});
    ExpectFatal(r, std::string(op) + ": channel " + Facts(r)["chan"] + " used after chan_destroy");
  }
}

TEST(ChannelMisuse, DestroyWithWaiters) {
  auto r =
      RunScenario("chan_destroy_with_waiters", {{"WUC_PROCESSORS", "2"}, {"CHAN_WAITERS", "1"}});
  ExpectFatal(r,
              "chan_destroy: channel " + Facts(r)["chan"] + " still has 1 operation waiting on it");
  r = RunScenario("chan_destroy_with_waiters",
                  {{"WUC_PROCESSORS", "2"}, {"CHAN_WAITERS", "3"}, {"CHAN_SENDERS", "1"}});
  ExpectFatal(r, "chan_destroy: channel " + Facts(r)["chan"] +
                     " still has 3 operations waiting on it");
}

TEST(ChannelMisuse, ElementSizeMismatchThroughTheCore) {
  for (const char *op :
       {"chan_send", "chan_recv", "chan_try_send", "chan_try_recv", "chan_close"}) {
    auto r = RunScenario("chan_size_mismatch", {{"WUC_PROCESSORS", "1"}, {"CHAN_OP", op}});
    ExpectFatal(r, std::string(op) + ": channel " + Facts(r)["chan"] +
                       " holds 8-byte elements, not 4");
  }
}

TEST(ChannelMisuse, ElementSizeFixedByTheFirstUse) {
  auto r = RunScenario("chan_size_mismatch_after_first_use", {{"WUC_PROCESSORS", "1"}});
  ExpectFatal(r, "chan_try_send: channel " + Facts(r)["chan"] + " holds 4-byte elements, not 8");
}

// A receive that can never complete is reported like any other deadlock,
// naming the operation, the channel (by its symbol) and the call's site.
TEST(ChannelReport, DeadlockInReceive) {
  auto r = RunScenario("chan_recv_deadlock", {{"WUC_PROCESSORS", "2"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, "wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                   "  user thread 1 (main)\n"
                   "    waits in chan_recv on recv_deadlock_chan at " __FILE__ ":" +
                       Facts(r)["line"] + "\n")
      << r.Describe();
}

TEST(ChannelReport, DeadlockInSend) {
  auto r = RunScenario("chan_send_deadlock", {{"WUC_PROCESSORS", "1"}});
  EXPECT_TRUE(ExitedWith(r, kFatal));
  EXPECT_EQ(r.err, "wuc: deadlock: all 1 user threads are blocked and no timer is pending\n"
                   "  user thread 1 (main)\n"
                   "    waits in chan_send on send_deadlock_chan at " __FILE__ ":" +
                       Facts(r)["line"] + "\n")
      << r.Describe();
}

} // namespace

// ---- races that once shrank the buffer (child processes, 2 workers) -------------

namespace {

struct RaceRound {
  long_chan *c = nullptr;
  std::atomic<int> go{0};
  bool a = false, b = false;
  long va = 0, vb = 0;
};

void AwaitGo(RaceRound *r) {
  while (!r->go.load()) __builtin_ia32_pause();
}

} // namespace

// A try_send whose pre-check passed but whose cell lies beyond the buffer
// gives the cell up; it must not become a buffer slot nobody fills
// (regression: the cell stayed EMPTY and expandBuffer adopted it, so an
// empty channel of capacity 1 refused try_send).  Each round: an empty
// cap-1 channel, a send and a try_send at once; after receiving what they
// sent, the empty channel must take a try_send.
WUC_SCENARIO(chan_race_send_and_try_send) {
  for (int round = 0; round < 20000; round++) {
    long_chan c{};
    chan_init(&c, 1);
    RaceRound r;
    r.c = &c;
    uthread_t *s = SpawnFn([&r] {
      AwaitGo(&r);
      r.a = chan_send(r.c, 1L);
    });
    uthread_t *t = SpawnFn([&r] {
      AwaitGo(&r);
      r.b = chan_try_send(r.c, 2L);
    });
    r.go = 1;
    uthread_join(t);
    long v;
    if (r.b) SCENARIO_CHECK(chan_recv(&c, &v), "round %d", round); // lets the send finish
    uthread_join(s);
    SCENARIO_CHECK(chan_recv(&c, &v), "round %d", round);
    SCENARIO_CHECK(chan_try_send(&c, 3L), "round %d: an empty cap-1 channel refuses try_send",
                   round);
    SCENARIO_CHECK(chan_try_recv(&c, &v) && v == 3, "round %d", round);
    chan_destroy(&c);
  }
  return 0;
}

// A try_recv that loses the element to another receive gives its cell up
// and must still expand the buffer (regression: each such loss shrank the
// buffer by one slot for good).  Each round: a cap-1 channel holding one
// element, two try_recvs at once; then the empty channel must take a
// try_send.
WUC_SCENARIO(chan_race_two_try_recvs) {
  for (int round = 0; round < 20000; round++) {
    long_chan c{};
    chan_init(&c, 1);
    chan_send(&c, 7L);
    RaceRound r;
    r.c = &c;
    uthread_t *s = SpawnFn([&r] {
      AwaitGo(&r);
      r.a = chan_try_recv(r.c, &r.va);
    });
    uthread_t *t = SpawnFn([&r] {
      AwaitGo(&r);
      r.b = chan_try_recv(r.c, &r.vb);
    });
    r.go = 1;
    uthread_join(s);
    uthread_join(t);
    SCENARIO_CHECK(r.a + r.b == 1, "round %d: %d + %d receives of one element", round, r.a, r.b);
    SCENARIO_CHECK(chan_try_send(&c, 3L), "round %d: an empty cap-1 channel refuses try_send",
                   round);
    chan_destroy(&c);
  }
  return 0;
}

namespace {

TEST(ChannelRace, SendAndTrySendKeepTheBufferSize) {
  auto r = RunScenario("chan_race_send_and_try_send", {{"WUC_PROCESSORS", "2"}}, 120);
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

TEST(ChannelRace, TwoTryRecvsKeepTheBufferSize) {
  auto r = RunScenario("chan_race_two_try_recvs", {{"WUC_PROCESSORS", "2"}}, 120);
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
}

} // namespace
