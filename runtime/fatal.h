/* fatal.h — stopping the program on misuse or an unrecoverable runtime error.
 *
 * wuc_fatal prints
 *     wuc: fatal: <message>
 *       in user thread N (FUNCTION, spawned at FILE:LINE by thread M)
 * on stderr and exits with status 2 (as Go does for its fatal errors); with
 * $WUC_ABORT set it calls abort() instead, for a core dump or a debugger.
 *
 * The second line comes from the scheduler, through a hook it installs at
 * start-up, so this module stays a leaf: everything may include it, and it
 * includes nothing of the runtime's. */
#ifndef WUC_RUNTIME_FATAL_H
#define WUC_RUNTIME_FATAL_H

#define WUC_EXIT_FATAL 2

__attribute__((noreturn, format(printf, 1, 2))) void wuc_fatal(const char *fmt, ...);

/* Writes where the caller runs, as the line under a fatal message says it
 * ("in user thread 1 (main)"), into buf. */
typedef void (*wuc_fatal_where_fn)(char *buf, unsigned size);
/* Installs the hook; until then a report says "while the wuc runtime starts
 * up" (nothing runs on a worker before the scheduler installs it). */
void wuc_fatal_set_where(wuc_fatal_where_fn where);

/* "CALL at FILE:LINE" into buf, or "CALL" when file is NULL (a call made
 * without its recording macro): how a message names a call and its site.
 * With line 0, file is the whole site ("FILE:LINE", as WUC_SITE_ makes). */
enum { WUC_CALL_SITE_MAX = 512 };
const char *wuc_call_site(char *buf, unsigned size, const char *call, const char *file, int line);

/* Ends the process after a report has been printed (exit status 2, or abort). */
__attribute__((noreturn)) void wuc_die(void);

#endif
