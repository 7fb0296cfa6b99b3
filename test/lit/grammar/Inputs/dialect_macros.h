/* Dialect macros in a header included with quotes (macro_from_header.wc);
 * it includes another one next to it. */
#ifndef DIALECT_MACROS_H
#define DIALECT_MACROS_H
#include "dialect_macros_inner.h"
#define DECL_Q(T, name) static channel(T) name
#define RECV(x, c) waituntil (x << c) printf("%s got %d\n", #c, (int)(x))
#endif
