/* symbolize_probe.c — C functions for symbolize_test.cc: a `static` one
 * (never in .dynsym) whose address the test asks the runtime to name. */
#include <stdint.h>

static __attribute__((noinline)) int symbolize_static_probe(int v) { return v * 7 + 1; }

int (*symbolize_static_probe_address(void))(int) { return symbolize_static_probe; }
