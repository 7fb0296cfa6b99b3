// spawn_fn.h — user threads running a C++ callable (tests only).
#ifndef WUC_TEST_SPAWN_FN_H
#define WUC_TEST_SPAWN_FN_H

#include <wuc.h>

#include <functional>
#include <utility>

#include "runtime_probe.h"

namespace wuc_test {

inline void RunSpawnedFn(void *arg) {
  auto *fn = static_cast<std::function<void()> *>(arg);
  (*fn)();
  delete fn;
}

// Starts fn on a new user thread; join it with uthread_join.
inline uthread_t *SpawnFn(std::function<void()> fn) {
  return uthread_spawn(RunSpawnedFn, new std::function<void()>(std::move(fn)));
}

// Waits until t is blocked in wuc_park (for tests that queue waiters in a
// known order).  Only meaningful while t blocks in nothing else.
inline void AwaitParked(uthread_t *t) {
  while (!probe_is_parked(t)) uthread_sleep(microseconds(20));
}

}  // namespace wuc_test

#endif
