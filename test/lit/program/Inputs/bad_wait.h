/* A dialect header with an error of the dialect: reported at its own line. */
#include <wuc.h>
static inline void bad_wait(int n) {
  waituntil (n) {}
}
