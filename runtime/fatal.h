/* fatal.h — stopping the program on misuse or an unrecoverable runtime error.
 *
 * wuc_fatal prints
 *     wuc: fatal: <message>
 *       in user thread N (spawned at FILE:LINE by FUNCTION)
 * on stderr and exits with status 2 (as Go does for its fatal errors); with
 * $WUC_ABORT set it calls abort() instead, for a core dump or a debugger. */
#ifndef WUC_RUNTIME_FATAL_H
#define WUC_RUNTIME_FATAL_H

#define WUC_EXIT_FATAL 2

__attribute__((noreturn, format(printf, 1, 2))) void wuc_fatal(const char *fmt, ...);

/* Writes "FILE:LINE" (or "unknown location") of the caller-supplied site. */
struct uthread;
void wuc_describe_thread(struct uthread *t, char *buf, unsigned size);

/* Ends the process after a report has been printed (exit status 2, or abort). */
__attribute__((noreturn)) void wuc_die(void);

#endif
