/* <wuc.h> — the wuc library: user-level threads, durations, channels, futures,
 * locks, semaphores, latches, timeouts and the select protocol. */
#ifndef WUC_H
#define WUC_H

#include <wuc/channel.h>
#include <wuc/select.h>
#include <wuc/thread.h>
#include <wuc/time.h>

#include <wuc/future.h>
#include <wuc/latch.h>
#include <wuc/lock.h>
#include <wuc/semaphore.h>
#include <wuc/timeout.h>

/* The support code of lowered statements, with the rest: wucc inserts it
 * (docs/language.md, "Names and headers"). */
#include <wuc/waituntil.h>

#endif
