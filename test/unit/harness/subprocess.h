// subprocess.h — running a scenario (scenario.h) in a child process.
//
// The child is this test binary again, started with --scenario=NAME and an
// environment without any inherited WUC_* variable plus the ones given.
// Its stdout and stderr are captured separately.  A watchdog kills a child
// that has not finished after `watchdog_seconds`: it catches hangs (lost
// wake-ups, missed deadlock reports), it is not a timing assertion.
#ifndef WUC_TEST_SUBPROCESS_H
#define WUC_TEST_SUBPROCESS_H

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace wuc_test {

struct ChildResult {
  bool exited = false; // ended by exit (else by a signal, or killed on timeout)
  int exit_status = -1;
  int signal = 0;
  bool timed_out = false;
  std::string out, err;

  // Everything about the run, for failure messages.
  std::string Describe() const;
};

using Env = std::vector<std::pair<std::string, std::string>>;

ChildResult RunScenario(const std::string &name, const Env &env = {}, int watchdog_seconds = 60);

// Passes if the child exited with `status`; otherwise says how it ended.
::testing::AssertionResult ExitedWith(const ChildResult &r, int status);

} // namespace wuc_test

#endif
