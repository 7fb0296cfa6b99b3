/* <wuc.h> — the wuc library: user-level threads, durations and (as they land)
 * channels, futures, locks, semaphores, latches and the select protocol. */
#ifndef WUC_H
#define WUC_H

#include <wuc/time.h>
#include <wuc/thread.h>

#include <wuc/future.h>
#include <wuc/latch.h>
#include <wuc/lock.h>
#include <wuc/semaphore.h>
#include <wuc/timeout.h>

#endif
