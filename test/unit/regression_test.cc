// regression_test.cc — tests for runtime bugs found and fixed, kept so they
// stay fixed.
#include <gtest/gtest.h>

#include <timer.h>
#include <wuc.h>

#include <park.h>

#include <atomic>
#include <cstdio>

#include "runtime_probe.h"
#include "scenario.h"
#include "spin.h"
#include "subprocess.h"

using wuc_test::RunScenario;

namespace {

wuc_timer self_cancelling;
int cancel_result = -1;

void CancelOwnTimer(wuc_timer *t) { cancel_result = wuc_timer_cancel(t); }

// wuc_timer_cancel waits while the timer is FIRING, for fire to return; called
// from the fire callback itself it used to wait for itself forever.  Now it
// answers "fired" (false), as timer.h documents.
WUC_SCENARIO(cancel_own_timer_in_fire) {
  wuc_timer_start(&self_cancelling, wuc_now(), CancelOwnTimer);
  uthread_sleep(milliseconds(5));
  std::printf("cancel from its own fire returned %d\n", cancel_result);
  return 0;
}

TEST(Regression, CancellingATimerFromItsOwnFireReturnsFalse) {
  auto r = RunScenario("cancel_own_timer_in_fire", {{"WUC_PROCESSORS", "1"}}, 10);
  EXPECT_TRUE(ExitedWith(r, 0)) << r.Describe();
  EXPECT_NE(r.out.find("cancel from its own fire returned 0\n"), std::string::npos) << r.Describe();
}

struct Stranding {
  std::atomic<bool> go{false};
  std::atomic<bool> main_ran_again{false};
};

void ComputeUntilMainRuns(void *arg) {
  auto *s = static_cast<Stranding *>(arg);
  while (!s->go.load()) wuc_park("test: wait for go", s);
  for (uint32_t spins = 0; !s->main_ran_again.load();) wuc_test_spin_step(&spins);
}

// uthread_yield put the yielder at the back of its worker's run queue but did
// not wake an idle worker (finish_switch, PREV_YIELD: runq_push without
// wuc_wake_idle_worker).  If the thread that runs instead computes without
// blocking, the yielder stays in the queue for as long as that takes while
// the other worker sleeps, against docs/runtime.md ("work is never stranded
// while a worker sleeps"; "threads queued behind it can be stolen").  Here
// the computation waits for main, so it never ends: a hang.
WUC_SCENARIO(yielder_stranded_while_a_worker_sleeps) {
  static Stranding s;
  uthread_t *x = uthread_spawn(ComputeUntilMainRuns, &s);
  for (uint32_t spins = 0; !probe_is_parked(x);) wuc_test_spin_step(&spins);
  // Busy, not blocked, for a while: worker 1 has nothing to do and sleeps.
  for (int64_t start = wuc_now(); wuc_now() < start + milliseconds(50);) __builtin_ia32_pause();
  s.go = true;
  wuc_unpark(x);   // x goes to this worker's `next` slot
  uthread_yield(); // x runs here; main waits at the back of the queue
  s.main_ran_again = true;
  uthread_join(x);
  return 0;
}

TEST(Regression, YieldedThreadIsNotStrandedWhileAWorkerSleeps) {
  auto r = RunScenario("yielder_stranded_while_a_worker_sleeps", {{"WUC_PROCESSORS", "2"}}, 10);
  EXPECT_TRUE(wuc_test::ExitedWith(r, 0));
}

} // namespace
