/* A static inline function with a waituntil statement, in a header. */
#ifndef PROJ_TAKE_H
#define PROJ_TAKE_H
#include <stdbool.h>
#include <wuc.h>

/* Receives the next element of *c into *out; false once *c is closed and
 * drained.  (clang-format does not know the waituntil statement.) */
// clang-format off
static inline bool proj_take(channel(int) *c, int *out) {
  bool got = false;
  int v;
  waituntil (v << *c) {
    *out = v;
    got = true;
  } or waituntil (closed(*c)) {
  }
  return got;
}
// clang-format on
#endif
