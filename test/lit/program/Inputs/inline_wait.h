/* A header beside its includer (../header_inline_waituntil.wc): a static
 * inline function whose waituntil waits on a future or a timeout. */
#ifndef INLINE_WAIT_H
#define INLINE_WAIT_H
#include <wuc.h>
typedef future(long) answer_t;
static inline long wait_answer(answer_t *f, duration_t limit) {
  long v = -1;
  waituntil (*f) v = future_get(f);
  or waituntil (timeout(limit)) v = -2;
  return v;
}
#endif
