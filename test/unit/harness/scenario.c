/* scenario.c — the registry of child-process scenarios (scenario.h). */
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_SCENARIOS = 256 };

static struct {
  const char *name;
  wuc_test_scenario_fn fn;
} scenarios[MAX_SCENARIOS];
static int nscenarios;

void wuc_test_register_scenario(const char *name, wuc_test_scenario_fn fn) {
  if (wuc_test_find_scenario(name)) {
    fprintf(stderr, "duplicate scenario name %s\n", name);
    abort();
  }
  if (nscenarios == MAX_SCENARIOS) {
    fprintf(stderr, "too many scenarios: raise MAX_SCENARIOS\n");
    abort();
  }
  scenarios[nscenarios].name = name;
  scenarios[nscenarios].fn = fn;
  nscenarios++;
}

wuc_test_scenario_fn wuc_test_find_scenario(const char *name) {
  for (int i = 0; i < nscenarios; i++)
    if (strcmp(scenarios[i].name, name) == 0) return scenarios[i].fn;
  return NULL;
}

int wuc_test_call_scenario(const char *name) {
  wuc_test_scenario_fn fn = wuc_test_find_scenario(name);
  if (!fn) {
    fprintf(stderr, "unknown scenario %s\n", name);
    return 127;
  }
  return fn();
}

void wuc_test_run_scenario(const char *name) {
  int status = wuc_test_call_scenario(name);
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}
