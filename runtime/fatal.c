/* fatal.c — misuse and error reports. */
#define _GNU_SOURCE
#include "fatal.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "scheduler.h"

void wuc_describe_thread(struct uthread *t, char *buf, unsigned size) {
  Dl_info info;
  const char *fn_name = NULL;
  if (t->fn && dladdr((void *)(uintptr_t)t->fn, &info) && info.dli_sname) fn_name = info.dli_sname;
  if (t->id == 1) {
    snprintf(buf, size, "user thread 1 (main)");
  } else if (t->spawn_file) {
    snprintf(buf, size, "user thread %lu (%s, spawned at %s:%d by thread %lu)", t->id,
             fn_name ? fn_name : "?", t->spawn_file, t->spawn_line, t->parent_id);
  } else {
    snprintf(buf, size, "user thread %lu (%s, spawned from %p by thread %lu)", t->id,
             fn_name ? fn_name : "?", t->spawn_return_address, t->parent_id);
  }
}

void wuc_die(void) {
  fflush(stdout);
  if (getenv("WUC_ABORT")) abort();
  _exit(WUC_EXIT_FATAL);
}

void wuc_fatal(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  struct worker *w = wuc_current_worker();
  if (w && w->in_timer_callbacks) {
    fprintf(stderr, "wuc: fatal: %s\n  in a timer callback on worker %u\n", msg, w->id);
  } else if (w && w->current) {
    char who[512];
    wuc_describe_thread(w->current, who, sizeof who);
    fprintf(stderr, "wuc: fatal: %s\n  in %s\n", msg, who);
  } else if (w) {
    fprintf(stderr, "wuc: fatal: %s\n  in the scheduler of worker %u\n", msg, w->id);
  } else if (!atomic_load(&wuc_sched.initialized)) {
    fprintf(stderr, "wuc: fatal: %s\n  while the wuc runtime starts up\n", msg);
  } else {
    fprintf(stderr, "wuc: fatal: %s\n  in a kernel thread that is not a wuc worker\n", msg);
  }
  wuc_die();
}
