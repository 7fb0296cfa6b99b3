/* A duration in a header: how long a stage waits before it gives up. */
#ifndef PROJ_PATIENCE_H
#define PROJ_PATIENCE_H
#include <wuc.h>

static inline duration_t proj_patience(void) { return 5`s; }
#endif
