/* scenario.h — code that the unit-test binary runs in a child process.
 *
 * Some tests need a fresh runtime (a given number of workers, a given stack
 * size) or must watch the program die (fatal errors, deadlock, stack
 * overflow).  Such a test re-executes the test binary with
 * --scenario=NAME (see subprocess.h); main() then runs the scenario instead
 * of GoogleTest.  A scenario returns the child's exit status: 0 for success.
 *
 * Usable from C and C++: WUC_SCENARIO(name) { ...; return 0; } */
#ifndef WUC_TEST_SCENARIO_H
#define WUC_TEST_SCENARIO_H

#include <stdio.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*wuc_test_scenario_fn)(void);

void wuc_test_register_scenario(const char *name, wuc_test_scenario_fn fn);
/* NULL if no scenario has that name. */
wuc_test_scenario_fn wuc_test_find_scenario(const char *name);

/* Runs the scenario and ends the process with its status, without running
 * exit handlers: the other user threads may still be running. */
__attribute__((noreturn)) void wuc_test_run_scenario(const char *name);
/* Runs the scenario and returns its status (127 if there is none), for a
 * main() that returns it: used with $WUC_TEST_RETURN_FROM_MAIN set. */
int wuc_test_call_scenario(const char *name);

#ifdef __cplusplus
}
#endif

/* Registration runs from a constructor; it touches only the registry, so its
 * order against the runtime's own constructor does not matter. */
#define WUC_SCENARIO(name)                                                                         \
  static int wuc_scenario_##name(void);                                                            \
  __attribute__((constructor)) static void wuc_register_scenario_##name(void) {                    \
    wuc_test_register_scenario(#name, wuc_scenario_##name);                                        \
  }                                                                                                \
  static int wuc_scenario_##name(void)

/* A failed check in a child: say where, and exit with status 1 at once (other
 * user threads may still be running). */
#define SCENARIO_CHECK(cond, ...)                                                                  \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: scenario check failed: %s: ", __FILE__, __LINE__, #cond);            \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      fflush(stdout);                                                                              \
      fflush(stderr);                                                                              \
      _exit(1);                                                                                    \
    }                                                                                              \
  } while (0)

#endif
