/* The job channel the static library fills and the program drains: a
 * channel(T) in an extern declaration (issue 15, "Dialect in headers"). */
#ifndef PROJ_JOBS_H
#define PROJ_JOBS_H
#include <wuc.h>

extern channel(int) proj_jobs;

/* Starts a user thread that sends 1..n on proj_jobs, then closes it. */
uthread_t *proj_start_producer(int n);
#endif
