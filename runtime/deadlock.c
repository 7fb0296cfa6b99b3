/* deadlock.c — the registry of live threads, and how reports name them:
 * the deadlock report, and the line under a fatal message (fatal.h's hook);
 * and the kernel threads outside the runtime, which hold the report back. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wuc/fd.h>
#include <wuc/waituntil.h>

#include "blocking.h"
#include "fatal.h"
#include "sanitizer.h"
#include "scheduler.h"
#include "spin.h"
#include "symbolize.h"
#include "sysmon.h"

void wuc_registry_add(struct worker *w, struct wuc_uthread *t) {
  if (!t->id) t->id = atomic_fetch_add_explicit(&wuc_sched.next_id, 1, memory_order_relaxed);
  t->registry_worker = w->id;
  wuc_spin_lock(&w->registry_lock);
  t->all_prev = NULL;
  t->all_next = w->threads;
  if (t->all_next) t->all_next->all_prev = t;
  w->threads = t;
  /* Written only under the lock: no locked instruction needed. */
  atomic_store_explicit(&w->live_threads,
                        atomic_load_explicit(&w->live_threads, memory_order_relaxed) + 1,
                        memory_order_relaxed);
  wuc_spin_unlock(&w->registry_lock);
}

void wuc_registry_remove(struct wuc_uthread *t) {
  struct worker *w = wuc_sched.workers[t->registry_worker];
  wuc_spin_lock(&w->registry_lock);
  if (t->all_prev)
    t->all_prev->all_next = t->all_next;
  else
    w->threads = t->all_next;
  if (t->all_next) t->all_next->all_prev = t->all_prev;
  atomic_store_explicit(&w->live_threads,
                        atomic_load_explicit(&w->live_threads, memory_order_relaxed) - 1,
                        memory_order_relaxed);
  wuc_spin_unlock(&w->registry_lock);
}

/* A thread exiting on one worker while another spawns can make the sum
 * read one too high or too low for a moment. */
unsigned long wuc_registry_live(void) {
  unsigned n = atomic_load(&wuc_sched.nworkers);
  unsigned long live = 0;
  for (unsigned i = 0; i < n; i++)
    live += atomic_load_explicit(&wuc_sched.workers[i]->live_threads, memory_order_relaxed);
  return live;
}

/* Always in worker order, and a spawn or an exit takes only one: no cycle. */
unsigned wuc_registry_lock_all(void) {
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) wuc_spin_lock(&wuc_sched.workers[i]->registry_lock);
  return n;
}

void wuc_registry_unlock_all(unsigned lists) {
  for (unsigned i = lists; i-- > 0;) wuc_spin_unlock(&wuc_sched.workers[i]->registry_lock);
}

/* Each list is newest first, and a worker adds its threads in the order of
 * their ids: merging the lists from their tails, smallest id first, gives
 * every thread in order (k lists: k comparisons a thread, for reports). */
void wuc_registry_each(unsigned lists, void (*fn)(struct wuc_uthread *, void *), void *arg) {
  struct wuc_uthread *at[WUC_MAX_WORKERS];
  for (unsigned i = 0; i < lists; i++) {
    struct wuc_uthread *t = wuc_sched.workers[i]->threads;
    while (t && t->all_next) t = t->all_next;
    at[i] = t;
  }
  for (;;) {
    unsigned best = lists;
    for (unsigned i = 0; i < lists; i++)
      if (at[i] && (best == lists || at[i]->id < at[best]->id)) best = i;
    if (best == lists) return;
    struct wuc_uthread *t = at[best];
    at[best] = t->all_prev;
    fn(t, arg);
  }
}

/* Async-signal-safe but for snprintf (which glibc runs without locks or
 * malloc for these formats): the stack overflow report calls it from its
 * SIGSEGV handler.  The function is named from the symbol tables of the
 * process's files (symbolize.h), so `static` functions and programs linked
 * without -rdynamic get names too; without one (a stripped file), its
 * address. */
void wuc_describe_thread(struct wuc_uthread *t, char *buf, unsigned size) {
  char unnamed[2 + 2 * sizeof(void *) + 1];
  const char *fn_name = t->fn ? wuc_symbolize((const void *)(uintptr_t)t->fn) : NULL;
  if (!fn_name) {
    snprintf(unnamed, sizeof unnamed, "%p", (void *)(uintptr_t)t->fn);
    fn_name = unnamed;
  }
  /* A name, if the thread has one, in quotes after its number. */
  char name[sizeof t->name + 3] = "";
  if (t->name[0]) snprintf(name, sizeof name, " \"%s\"", t->name);
  if (t->id == 1) {
    snprintf(buf, size, "user thread 1%s (main)", name);
  } else if (t->spawn_file) {
    snprintf(buf, size, "user thread %lu%s (%s, spawned at %s:%d by thread %lu)", t->id, name,
             fn_name, t->spawn_file, t->spawn_line, t->parent_id);
  } else {
    snprintf(buf, size, "user thread %lu%s (%s, spawned from %p by thread %lu)", t->id, name,
             fn_name, t->spawn_return_address, t->parent_id);
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
  } else if (atomic_load_explicit(&wuc_fork.in_child, memory_order_relaxed)) {
    char who[512] = "";
    if (wuc_fork.thread) wuc_describe_thread(wuc_fork.thread, who, sizeof who);
    snprintf(buf, size, "in a child process forked by %s",
             wuc_fork.thread ? who : "a kernel thread that is not running a user thread");
  } else if (!atomic_load(&wuc_sched.initialized)) {
    snprintf(buf, size, "while the wuc runtime starts up");
  } else {
    snprintf(buf, size, "in a kernel thread that is not a wuc worker");
  }
}

/* ---- kernel threads outside the runtime -------------------------------------
 *
 * A kernel thread that is not a worker may wake a user thread with a call
 * that does not block (latch_set, future_set, chan_try_send, chan_close...),
 * so while one exists a process whose user threads all wait is not known to
 * be deadlocked (docs/runtime.md, 'Deadlock report').  The process's kernel
 * threads are the entries of /proc/self/task. */

static bool is_worker(pid_t tid) {
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++)
    if (atomic_load_explicit(&wuc_sched.workers[i]->tid, memory_order_relaxed) == tid) return true;
  return false;
}

#ifdef WUC_FIBER_ANNOTATIONS
/* A sanitizer's own thread (ThreadSanitizer's background thread, started at
 * the process's first pthread_create) would hold every report back.  It
 * blocks every signal it can, SIGSEGV included, which a program's threads
 * hardly do: such threads are left out, in a sanitized build only. */
static bool is_sanitizer_thread(pid_t tid) {
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f) return false;
  unsigned long long blocked = 0;
  bool found = false;
  while (!found && fgets(line, sizeof line, f)) found = sscanf(line, "SigBlk: %llx", &blocked) == 1;
  fclose(f);
  const unsigned long long every_blockable = 0x7ffbfeffull; /* signals 1-31 but SIGKILL, SIGSTOP */
  return found && (blocked & every_blockable) == every_blockable;
}
#else
static bool is_sanitizer_thread(pid_t tid) {
  (void)tid;
  return false;
}
#endif

/* Calls visit(tid) for each kernel thread of the process until it returns
 * true; returns whether one did (false if /proc cannot be read). */
static bool any_task(bool (*visit)(pid_t tid)) {
  DIR *dir = opendir("/proc/self/task");
  if (!dir) return false;
  bool found = false;
  for (struct dirent *e; !found && (e = readdir(dir));) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    found = visit((pid_t)strtol(e->d_name, NULL, 10));
  }
  closedir(dir);
  return found;
}

static bool is_foreign(pid_t tid) {
  return !is_worker(tid) && !wuc_sysmon_is(tid) && !wuc_blocking_is_helper(tid) &&
         !is_sanitizer_thread(tid);
}

bool wuc_foreign_kernel_threads(void) { return any_task(is_foreign); }

/* ---- what a thread waits on -------------------------------------------------- */

/* A static or global object by its symbol ("jobs", "pool+16"), anything
 * else (heap, stack) by its address. */
static const char *object_name(const void *p, char *buf, size_t size) {
  if (!wuc_symbolize_data(p, buf, size)) snprintf(buf, size, "%p", p);
  return buf;
}

/* What kind of file fd is, as fstat tells. */
static const char *fd_kind(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return "not open";
  if (S_ISSOCK(st.st_mode)) return "socket";
  if (S_ISFIFO(st.st_mode)) return "pipe";
  if (S_ISREG(st.st_mode)) return "file";
  if (S_ISCHR(st.st_mode)) return isatty(fd) ? "terminal" : "character device";
  if (S_ISDIR(st.st_mode)) return "directory";
  if (S_ISBLK(st.st_mode)) return "block device";
  return "other";
}

/* The resources of the clause forms, told apart by the name of the
 * type-erased trait the clause carries (WUC_SELECTABLE_OPS(reg_fn) is
 * `wuc_selectable_ops_<reg_fn>`, a static object of the program's text or
 * the runtime's, named by its symbol table). */
static const char *const ops_prefix = "wuc_selectable_ops_";

static bool ops_is(const char *ops_name, const char *reg_fn) {
  return ops_name && strcmp(ops_name, reg_fn) == 0;
}

/* A typed future's trait: wuc_selectable_ops_<tag>_register, where wucc
 * names the tag of future(T) wuc_future_... (WUC_FUTURE_STRUCT). */
static bool ops_is_future(const char *ops_name) {
  if (!ops_name || strncmp(ops_name, "wuc_future", 10) != 0) return false;
  size_t len = strlen(ops_name), suffix = strlen("_register");
  return len > suffix && strcmp(ops_name + len - suffix, "_register") == 0;
}

void wuc_describe_clause(const wuc_wu_clause *c, char *buf, unsigned size) {
  char ops_sym[256], obj[256];
  const char *ops_name = NULL;
  if (wuc_symbolize_data(c->ops, ops_sym, sizeof ops_sym) &&
      strncmp(ops_sym, ops_prefix, strlen(ops_prefix)) == 0)
    ops_name = ops_sym + strlen(ops_prefix);
  const void *res = c->res;
  if (ops_is(ops_name, "wuc_chan_recv_register")) {
    const wuc_chan_recv_clause *r = res;
    snprintf(buf, size, "channel receive on %s", object_name(r->chan, obj, sizeof obj));
  } else if (ops_is(ops_name, "wuc_chan_send_register")) {
    const wuc_chan_send_clause *r = res;
    snprintf(buf, size, "channel send on %s", object_name(r->chan, obj, sizeof obj));
  } else if (ops_is(ops_name, "wuc_chan_closed_register")) {
    const wuc_chan_closed_clause *r = res;
    snprintf(buf, size, "channel closed on %s", object_name(r->chan, obj, sizeof obj));
  } else if (ops_is(ops_name, "wuc_fd_register")) {
    const wuc_fd_clause *r = res;
    snprintf(buf, size, "fd %d %s (%s)", r->fd,
             r->events == WUC_FD_WRITABLE ? "writable" : "readable", fd_kind(r->fd));
  } else if (ops_is(ops_name, "wuc_timeout_register")) {
    const wuc_timeout *r = res;
    if (r->deadline == INT64_MAX)
      snprintf(buf, size, "timeout (never)");
    else
      snprintf(buf, size, "timeout");
  } else if (ops_is(ops_name, "wuc_owner_lock_register")) {
    snprintf(buf, size, "lock on %s", object_name(res, obj, sizeof obj));
  } else if (ops_is(ops_name, "wuc_semaphore_register")) {
    snprintf(buf, size, "semaphore on %s", object_name(res, obj, sizeof obj));
  } else if (ops_is(ops_name, "wuc_latch_register")) {
    snprintf(buf, size, "latch on %s", object_name(res, obj, sizeof obj));
  } else if (ops_is_future(ops_name)) {
    snprintf(buf, size, "future on %s", object_name(res, obj, sizeof obj));
  } else if (ops_name) { /* a user's resource: its register function */
    snprintf(buf, size, "%s on %s", ops_name, object_name(res, obj, sizeof obj));
  } else {
    snprintf(buf, size, "resource %s", object_name(res, obj, sizeof obj));
  }
}

/* A lowered waituntil (its statement heads a wuc_wu): the statement's site,
 * which is its first clause's, and each clause still registered.  Read from
 * the parked thread's frame, which cannot change while every thread waits. */
static void print_waituntil(FILE *out, const wuc_select_stmt *s) {
  const wuc_wu *w = (const wuc_wu *)s; /* s is its first member */
  const char *site = w->n ? w->cl[0].__wuc_node.site : NULL;
  unsigned live = 0;
  for (unsigned i = 0; i < w->n; i++) live += w->cl[i].live;
  if (site && !strchr(site, ':')) /* a runtime call built on a statement (wuc_wait_fd) */
    fprintf(out, "    waits in %s", site);
  else if (site) /* "FILE:LINE:COL": the statement at FILE:LINE */
    fprintf(out, "    waits in waituntil at %.*s", (int)(strrchr(site, ':') - site), site);
  else
    fprintf(out, "    waits in waituntil");
  fprintf(out, " on %u clause%s\n", live, live == 1 ? "" : "s");
  for (unsigned i = 0; i < w->n; i++) {
    const wuc_wu_clause *c = &w->cl[i];
    if (!c->live) continue;
    char what[600];
    wuc_describe_clause(c, what, sizeof what);
    const char *at = c->__wuc_node.site;
    if (at && strchr(at, ':'))
      fprintf(out, "      %s: %s\n", at, what);
    else
      fprintf(out, "      %s\n", what);
  }
}

static void print_thread(FILE *out, struct wuc_uthread *t) {
  char who[512], obj[256];
  wuc_describe_thread(t, who, sizeof who);
  fprintf(out, "  %s\n", who);
  if (!t->wait_what) {
    fprintf(out, "    blocked\n");
    return;
  }
  if (strcmp(t->wait_what, "waituntil") == 0 && t->wait_object &&
      ((const wuc_select_stmt *)t->wait_object)->lowered) {
    print_waituntil(out, t->wait_object);
    return;
  }
  if (strcmp(t->wait_what, "uthread_join") == 0)
    fprintf(out, "    waits in uthread_join for user thread %lu",
            ((const struct wuc_uthread *)t->wait_object)->id);
  else if (t->wait_object)
    fprintf(out, "    waits in %s on %s", t->wait_what,
            object_name(t->wait_object, obj, sizeof obj));
  else
    fprintf(out, "    waits in %s", t->wait_what);
  if (t->wait_file && t->wait_line > 0)
    fprintf(out, " at %s:%d", t->wait_file, t->wait_line);
  else if (t->wait_file) /* a whole site, "FILE:LINE" */
    fprintf(out, " at %s", t->wait_file);
  fputc('\n', out);
}

static void print_thread_to(struct wuc_uthread *t, void *out) { print_thread(out, t); }

/* The last two workers to go idle can both find every thread blocked: one
 * report, and the other waits for the exit. */
static atomic_bool deadlock_reported;

void wuc_deadlock_report(void) {
  if (atomic_exchange(&deadlock_reported, true))
    for (;;) pause();
  unsigned lists = wuc_registry_lock_all();
  fprintf(stderr, "wuc: deadlock: all %lu user threads are blocked and no timer is pending\n",
          wuc_registry_live());
  wuc_registry_each(lists, print_thread_to, stderr); /* oldest first: main on top */
  wuc_registry_unlock_all(lists);
  wuc_die();
}
