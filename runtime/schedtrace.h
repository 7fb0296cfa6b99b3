/* schedtrace.h — WUC_DEBUG: the scheduler trace (Go's GODEBUG=schedtrace).
 *
 * WUC_DEBUG=schedtrace=MS makes the monitor (sysmon.h) print one block to
 * stderr every MS milliseconds: a line for the process, one per worker;
 * scheddetail=1 adds one per user thread.  Read once, at the first spawn;
 * off (the default), the monitor only compares a period with zero. */
#ifndef WUC_RUNTIME_SCHEDTRACE_H
#define WUC_RUNTIME_SCHEDTRACE_H

#include <stdbool.h>
#include <stdint.h>

/* Nanoseconds between two blocks; 0: no trace. */
extern int64_t wuc_schedtrace_period_ns;

/* Reads $WUC_DEBUG (an unknown key stops the program with a message). */
void wuc_schedtrace_init(void);
/* Prints one block (the monitor, every period). */
void wuc_schedtrace_print(int64_t now);

#endif
