// context_test.cc — wuc_context_init / wuc_context_switch on their own,
// without the scheduler: every callee-saved register and both FP control
// words survive a switch away and back, in both directions, and a new context
// starts on an aligned stack with the FP control words of its creator.
#include <gtest/gtest.h>

// context.h has no extern "C" block of its own.
extern "C" {
#include <context.h>
}

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

extern "C" {
// Layout shared with context_regs_x86_64.S.
struct regtest_state {
  uint64_t rbx, rbp, r12, r13, r14, r15;
  uint32_t mxcsr;
  uint16_t fpucw;
  uint16_t unused;
};
void regtest_switch(wuc_context *from, wuc_context *to, const regtest_state *load,
                    regtest_state *after);
void regtest_record_entry(void *arg);
void regtest_entry_body(void *arg);
extern uintptr_t regtest_entry_rsp;
}

static_assert(offsetof(regtest_state, r15) == 40);
static_assert(offsetof(regtest_state, mxcsr) == 48);
static_assert(offsetof(regtest_state, fpucw) == 52);

namespace {

// MXCSR: bits 0-5 are sticky exception flags (status, not preserved by the
// ABI); the rest — DAZ, exception masks, rounding control, FTZ — is control.
constexpr uint32_t kMxcsrControl = 0xffc0;
constexpr uint32_t kMxcsrMasks = 0x1f80; // all exceptions masked
constexpr uint32_t kMxcsrDaz = 0x0040, kMxcsrFtz = 0x8000;
constexpr uint32_t kMxcsrRoundDown = 0x2000, kMxcsrRoundUp = 0x4000, kMxcsrRoundZero = 0x6000;
// x87 control word: exception masks (0-5), precision (8-9), rounding (10-11).
constexpr uint16_t kFpucwControl = 0x0f3f;
constexpr uint16_t kFpucwMasks = 0x037f; // all masked, 64-bit precision, nearest
constexpr uint16_t kFpucwRoundDown = 0x0400, kFpucwRoundUp = 0x0800, kFpucwRoundZero = 0x0c00;
constexpr uint16_t kFpucwPrecisionBits = 0x0300, kFpucwPrecision53 = 0x0200;

constexpr int kRounds = 64;
constexpr size_t kStackSize = 64 * 1024;

uint32_t ReadMxcsr() {
  uint32_t v;
  __asm__ volatile("stmxcsr %0" : "=m"(v));
  return v;
}
void WriteMxcsr(uint32_t v) { __asm__ volatile("ldmxcsr %0" : : "m"(v)); }
uint16_t ReadFpucw() {
  uint16_t v;
  __asm__ volatile("fnstcw %0" : "=m"(v));
  return v;
}
void WriteFpucw(uint16_t v) { __asm__ volatile("fldcw %0" : : "m"(v)); }

// Values a side puts in its registers for a round: every register and round
// different, and different between the two sides (`side` 0 or 1).
regtest_state StateFor(int side, int round) {
  uint64_t base = (side == 0 ? 0x0123456789abcdefull : 0xfedcba9876543210ull) ^
                  (static_cast<uint64_t>(round) * 0x0101010101010101ull);
  regtest_state s{};
  s.rbx = base ^ 0x1000000000000001ull;
  s.rbp = base ^ 0x2000000000000002ull;
  s.r12 = base ^ 0x3000000000000003ull;
  s.r13 = base ^ 0x4000000000000004ull;
  s.r14 = base ^ 0x5000000000000005ull;
  s.r15 = base ^ 0x6000000000000006ull;
  static const uint32_t mx[2][2] = {{kMxcsrRoundZero | kMxcsrFtz, kMxcsrRoundUp},
                                    {kMxcsrRoundDown | kMxcsrDaz, kMxcsrDaz | kMxcsrFtz}};
  static const uint16_t cw[2][2] = {{kFpucwRoundZero, kFpucwRoundUp},
                                    {kFpucwRoundDown, kFpucwRoundZero}};
  s.mxcsr = kMxcsrMasks | mx[side][round % 2];
  s.fpucw = static_cast<uint16_t>(kFpucwMasks | cw[side][round % 2]);
  if (side == 1 && round % 3 == 0)
    s.fpucw = static_cast<uint16_t>((s.fpucw & ~kFpucwPrecisionBits) | kFpucwPrecision53);
  return s;
}

void ExpectSameRegisters(const regtest_state &want, const regtest_state &got, const char *side,
                         int round) {
  SCOPED_TRACE(testing::Message() << side << " side, round " << round);
  EXPECT_EQ(want.rbx, got.rbx);
  EXPECT_EQ(want.rbp, got.rbp);
  EXPECT_EQ(want.r12, got.r12);
  EXPECT_EQ(want.r13, got.r13);
  EXPECT_EQ(want.r14, got.r14);
  EXPECT_EQ(want.r15, got.r15);
  EXPECT_EQ(want.mxcsr & kMxcsrControl, got.mxcsr & kMxcsrControl);
  EXPECT_EQ(want.fpucw & kFpucwControl, got.fpucw & kFpucwControl);
}

struct PingPong {
  wuc_context main_ctx{}, other_ctx{};
  regtest_state main_load[kRounds], main_after[kRounds];
  regtest_state other_load[kRounds], other_after[kRounds];
  int other_rounds_done = 0;
  // What the new context found on entry.
  uint32_t entry_mxcsr = 0;
  uint16_t entry_fpucw = 0;
  uintptr_t entry_local = 0;
};

} // namespace

// The other context: for each round, clobber every register with its own
// values and switch back to the test; when resumed, record what it finds.
extern "C" void regtest_entry_body(void *arg) {
  auto *p = static_cast<PingPong *>(arg);
  p->entry_mxcsr = ReadMxcsr();
  p->entry_fpucw = ReadFpucw();
  int local = 0;
  p->entry_local = reinterpret_cast<uintptr_t>(&local);
  for (int r = 0; r < kRounds; r++) {
    regtest_switch(&p->other_ctx, &p->main_ctx, &p->other_load[r], &p->other_after[r]);
    p->other_rounds_done = r + 1;
  }
  wuc_context_switch(&p->other_ctx, &p->main_ctx);
  std::abort(); // never resumed
}

TEST(Context, SwitchPreservesCalleeSavedRegistersAndFpControl) {
  auto p = std::make_unique<PingPong>();
  for (int r = 0; r < kRounds; r++) {
    p->main_load[r] = StateFor(0, r);
    p->other_load[r] = StateFor(1, r);
  }
  void *stack = std::aligned_alloc(64, kStackSize);
  ASSERT_NE(stack, nullptr);
  char *stack_top = static_cast<char *>(stack) + kStackSize;

  // The new context must start with these, not with what runs at the switch.
  const uint32_t saved_mxcsr = ReadMxcsr();
  const uint16_t saved_fpucw = ReadFpucw();
  const uint32_t init_mxcsr = kMxcsrMasks | kMxcsrRoundUp | kMxcsrDaz;
  const uint16_t init_fpucw = kFpucwMasks | kFpucwRoundUp;
  WriteMxcsr(init_mxcsr);
  WriteFpucw(init_fpucw);
  wuc_context_init(&p->other_ctx, stack, stack_top, regtest_record_entry, p.get());
  WriteMxcsr(saved_mxcsr);
  WriteFpucw(saved_fpucw);

  // Each test runs in a process of its own, before any spawn: this is the
  // main kernel thread's own stack.
  wuc_context_init_current(&p->main_ctx);
  for (int r = 0; r < kRounds; r++)
    regtest_switch(&p->main_ctx, &p->other_ctx, &p->main_load[r], &p->main_after[r]);
  wuc_context_switch(&p->main_ctx, &p->other_ctx); // lets the other side finish its checks

  EXPECT_EQ(ReadMxcsr() & kMxcsrControl, saved_mxcsr & kMxcsrControl);
  EXPECT_EQ(ReadFpucw() & kFpucwControl, saved_fpucw & kFpucwControl);
  ASSERT_EQ(p->other_rounds_done, kRounds);
  for (int r = 0; r < kRounds; r++) {
    ExpectSameRegisters(p->main_load[r], p->main_after[r], "main", r);
    ExpectSameRegisters(p->other_load[r], p->other_after[r], "other", r);
  }

  EXPECT_EQ(p->entry_mxcsr & kMxcsrControl, init_mxcsr & kMxcsrControl);
  EXPECT_EQ(p->entry_fpucw & kFpucwControl, init_fpucw & kFpucwControl);
  // SysV: at a function's entry, rsp + 8 is 16-byte aligned.
  EXPECT_EQ((regtest_entry_rsp + 8) % 16, 0u) << std::hex << regtest_entry_rsp;
  auto low = reinterpret_cast<uintptr_t>(stack), high = reinterpret_cast<uintptr_t>(stack_top);
  EXPECT_TRUE(regtest_entry_rsp > low && regtest_entry_rsp < high);
  EXPECT_TRUE(p->entry_local > low && p->entry_local < high);
  std::free(stack);
}

// Many plain switches between two contexts: a counter kept across them
// (in registers or on each context's own stack) comes out exact.
namespace {
struct Counter {
  wuc_context main_ctx{}, other_ctx{};
  long bumps = 0;
  long limit = 0;
};
void CountingEntry(void *arg) {
  auto *c = static_cast<Counter *>(arg);
  for (long i = 0;; i++) {
    if (i < c->limit) c->bumps++;
    wuc_context_switch(&c->other_ctx, &c->main_ctx);
  }
}
} // namespace

TEST(Context, MillionSwitchesKeepCount) {
  Counter c;
  c.limit = 1000000;
  void *stack = std::aligned_alloc(64, kStackSize);
  ASSERT_NE(stack, nullptr);
  wuc_context_init(&c.other_ctx, stack, static_cast<char *>(stack) + kStackSize, CountingEntry, &c);
  wuc_context_init_current(&c.main_ctx);
  long switches = 0;
  for (long i = 0; i < c.limit; i++, switches++) wuc_context_switch(&c.main_ctx, &c.other_ctx);
  EXPECT_EQ(switches, c.limit);
  EXPECT_EQ(c.bumps, c.limit);
  std::free(stack);
}
