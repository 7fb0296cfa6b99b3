/* symbolize_probe.c — C functions for symbolize_test.cc: a `static` one
 * (never in .dynsym) whose address the test asks the runtime to name. */
#include <stdint.h>

static __attribute__((noinline)) int symbolize_static_probe(int v) { return v * 7 + 1; }

int (*symbolize_static_probe_address(void))(int) { return symbolize_static_probe; }

/* Data objects: a `static` one in .data, one in .bss (its end may lie past
 * the part of the file that is mapped), and a global one. */
static int symbolize_static_data[4] = {1, 2, 3, 4};
static char symbolize_static_bss[3 * 4096];
int symbolize_global_data = 5;

const void *symbolize_static_data_address(unsigned i) { return &symbolize_static_data[i]; }
const void *symbolize_static_bss_address(unsigned i) { return &symbolize_static_bss[i]; }
