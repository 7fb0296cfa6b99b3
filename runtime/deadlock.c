/* deadlock.c — the registry of live threads, and how reports name them:
 * the deadlock report, and the line under a fatal message (fatal.h's hook). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fatal.h"
#include "scheduler.h"

void wuc_registry_add(struct uthread *t) {
  pthread_mutex_lock(&wuc_sched.registry_lock);
  t->all_prev = NULL;
  t->all_next = wuc_sched.all_threads;
  if (t->all_next) t->all_next->all_prev = t;
  wuc_sched.all_threads = t;
  atomic_fetch_add(&wuc_sched.live_threads, 1);
  pthread_mutex_unlock(&wuc_sched.registry_lock);
}

void wuc_registry_remove(struct uthread *t) {
  pthread_mutex_lock(&wuc_sched.registry_lock);
  if (t->all_prev)
    t->all_prev->all_next = t->all_next;
  else
    wuc_sched.all_threads = t->all_next;
  if (t->all_next) t->all_next->all_prev = t->all_prev;
  atomic_fetch_sub(&wuc_sched.live_threads, 1);
  pthread_mutex_unlock(&wuc_sched.registry_lock);
}

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

void wuc_describe_where(char *buf, unsigned size) {
  struct worker *w = wuc_current_worker();
  if (w && w->in_timer_callbacks) {
    snprintf(buf, size, "in a timer callback on worker %u", w->id);
  } else if (w && w->current) {
    char who[512];
    wuc_describe_thread(w->current, who, sizeof who);
    snprintf(buf, size, "in %s", who);
  } else if (w) {
    snprintf(buf, size, "in the scheduler of worker %u", w->id);
  } else if (!atomic_load(&wuc_sched.initialized)) {
    snprintf(buf, size, "while the wuc runtime starts up");
  } else {
    snprintf(buf, size, "in a kernel thread that is not a wuc worker");
  }
}

static void print_thread(FILE *out, struct uthread *t) {
  char who[512];
  wuc_describe_thread(t, who, sizeof who);
  fprintf(out, "  %s\n", who);
  if (!t->wait_what) {
    fprintf(out, "    blocked\n");
    return;
  }
  if (strcmp(t->wait_what, "uthread_join") == 0)
    fprintf(out, "    waits in uthread_join for user thread %lu",
            ((const struct uthread *)t->wait_object)->id);
  else if (t->wait_object)
    fprintf(out, "    waits in %s on %p", t->wait_what, t->wait_object);
  else
    fprintf(out, "    waits in %s", t->wait_what);
  if (t->wait_file) fprintf(out, " at %s:%d", t->wait_file, t->wait_line);
  fputc('\n', out);
}

/* The last two workers to go idle can both find every thread blocked: one
 * report, and the other waits for the exit. */
static atomic_bool deadlock_reported;

void wuc_deadlock_report(void) {
  if (atomic_exchange(&deadlock_reported, true))
    for (;;) pause();
  pthread_mutex_lock(&wuc_sched.registry_lock);
  /* The registry is newest first; print oldest first, main on top. */
  struct uthread *last = wuc_sched.all_threads;
  while (last && last->all_next) last = last->all_next;
  fprintf(stderr, "wuc: deadlock: all %lu user threads are blocked and no timer is pending\n",
          atomic_load(&wuc_sched.live_threads));
  for (struct uthread *t = last; t; t = t->all_prev) print_thread(stderr, t);
  pthread_mutex_unlock(&wuc_sched.registry_lock);
  wuc_die();
}
