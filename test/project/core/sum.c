/* Plain C in the static library, over libwuc's C interface. */
#include "proj/sum.h"

#include <wuc.h>

static owner_lock total_lock;
static long total;

void proj_add(int v) {
  lock_acquire(&total_lock);
  total += v;
  lock_release(&total_lock);
}

long proj_total(void) {
  lock_acquire(&total_lock);
  long t = total;
  lock_release(&total_lock);
  return t;
}
