/* A header shared by three dialect files (../../headers_shared.wc): channel
 * types, a duration and a static inline function with a waituntil; it
 * includes sub/kinds.h, which includes more.h beside it. */
#ifndef BOX_H
#define BOX_H
#include <wuc.h>
#include "sub/kinds.h"
typedef struct job {
  int id;
} job_t;
extern channel(job_t) jobs;
extern channel(unsigned) done;
static inline int take_one(channel(job_t) *c, int *got) {
  job_t j;
  int r = 0;
  waituntil (j << c) {
    *got = j.id;
    r = 1;
  }
  or waituntil (timeout(2`s)) {
    r = 0;
  }
  return r;
}
#endif
