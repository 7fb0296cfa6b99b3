/* deadlock.c — the registry of live threads and the deadlock report. */
#include <stdio.h>
#include <string.h>

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

void wuc_deadlock_report(void) {
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
