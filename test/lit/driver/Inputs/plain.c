/* Plain C that names what wuc's headers define, with feature macros first:
 * wucc must hand it to the back end untouched (plain_c_untouched.wc). */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { false, true } bool;

struct latch { int count; };
static int semaphore;

static double seconds(void) { return 1.5; }
static int channel(int n) { return n * 2; }
static int chan_send(int a, int b) { return a + b; }

#if 0
This part isn't compiled: it doesn't need to be C, and wucc doesn't read it.
#endif

int main(void) {
  int unused;
  struct latch l = {3};
  bool ok = true;
  char *copy = strdup("hello");
  semaphore = channel(l.count) + chan_send(1, 1) - 2;
  if (ok && copy && strcasestr(copy, "ELL"))
    printf("strdup ok, channel %d, seconds %.1f\n", semaphore + 2, seconds());
  free(copy);
  return 0;
}
