/* <wuc.h> — the wuc library: user-level threads, durations and (as they land)
 * channels, futures, locks, semaphores, latches and the select protocol. */
#ifndef WUC_H
#define WUC_H

#include <wuc/time.h>
#include <wuc/thread.h>

#endif
