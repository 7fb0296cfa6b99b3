// main.cc — the unit-test binary: GoogleTest, or one scenario in a child
// process when started with --scenario=NAME (see harness/scenario.h).
//
// This main() is user thread 1 of the wuc runtime (libwuc's constructor sets
// that up), so tests spawn and join user threads directly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "scenario.h"

int main(int argc, char **argv) {
  const char prefix[] = "--scenario=";
  if (argc == 2 && std::strncmp(argv[1], prefix, sizeof prefix - 1) == 0) {
    const char *name = argv[1] + sizeof prefix - 1;
    // Returning from main, as a real program does, ends it with exit().
    if (std::getenv("WUC_TEST_RETURN_FROM_MAIN")) return wuc_test_call_scenario(name);
    wuc_test_run_scenario(name);
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
