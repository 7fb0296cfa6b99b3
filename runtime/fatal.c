/* fatal.c — misuse and error reports (see fatal.h). */
#include "fatal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static _Atomic(wuc_fatal_where_fn) where_hook;

void wuc_fatal_set_where(wuc_fatal_where_fn where) {
  atomic_store_explicit(&where_hook, where, memory_order_release);
}

void wuc_die(void) {
  fflush(stdout);
  if (getenv("WUC_ABORT")) abort();
  _exit(WUC_EXIT_FATAL);
}

const char *wuc_call_site(char *buf, unsigned size, const char *call, const char *file, int line) {
  if (file && line > 0)
    snprintf(buf, size, "%s at %s:%d", call, file, line);
  else if (file) /* a site that has its line: "FILE:LINE" */
    snprintf(buf, size, "%s at %s", call, file);
  else
    snprintf(buf, size, "%s", call);
  return buf;
}

void wuc_fatal(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char where[600] = "while the wuc runtime starts up";
  wuc_fatal_where_fn hook = atomic_load_explicit(&where_hook, memory_order_acquire);
  if (hook) hook(where, sizeof where);
  fprintf(stderr, "wuc: fatal: %s\n  %s\n", msg, where);
  wuc_die();
}
