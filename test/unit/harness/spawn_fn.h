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

// Waits until t is blocked in wuc_park (runtime_probe.h).
inline void AwaitParked(uthread_t *t) { probe_await_parked(t); }

} // namespace wuc_test

#endif
