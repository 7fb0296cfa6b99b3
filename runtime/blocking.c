/* blocking.c — wuc_blocking's helper threads (blocking.h). */
#define _GNU_SOURCE
#include "blocking.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wuc/io.h>

#include "fatal.h"
#include "park.h"
#include "scheduler.h"
#include "spin.h"

#define DEFAULT_HELPERS 16
#define MAX_HELPERS 1024

enum { JOB_QUEUED, JOB_WAKING, JOB_DONE };

struct job {
  void *(*fn)(void *);
  void *arg;
  void *result;
  int error;
  struct wuc_uthread *thread;
  _Atomic int state;
  struct job *next;
};

_Atomic long wuc_blocking_jobs;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t work;
  struct job *head, *tail;
  unsigned started, idle, limit;
  _Atomic pid_t tids[MAX_HELPERS];
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER};

bool wuc_blocking_is_helper(pid_t tid) {
  for (unsigned i = 0; i < MAX_HELPERS; i++) {
    pid_t t = atomic_load_explicit(&pool.tids[i], memory_order_relaxed);
    if (t == 0) return false; /* filled in order */
    if (t == tid) return true;
  }
  return false;
}

static void finish(struct job *j, void *result, int error) {
  j->result = result;
  j->error = error;
  struct wuc_uthread *t = j->thread;
  atomic_store_explicit(&j->state, JOB_WAKING, memory_order_release);
  wuc_unpark(t);
  atomic_store_explicit(&j->state, JOB_DONE, memory_order_release); /* j may vanish now */
  atomic_fetch_sub(&wuc_blocking_jobs, 1);
}

static void *helper_main(void *arg) {
  unsigned index = (unsigned)(size_t)arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* the program's signals go to its own threads */
  atomic_store_explicit(&pool.tids[index], gettid(), memory_order_relaxed);
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    while (!pool.head) {
      pool.idle++;
      pthread_cond_wait(&pool.work, &pool.lock);
      pool.idle--;
    }
    struct job *j = pool.head;
    if (!(pool.head = j->next)) pool.tail = NULL;
    pthread_mutex_unlock(&pool.lock);
    errno = 0;
    void *result = j->fn(j->arg);
    finish(j, result, errno);
    pthread_mutex_lock(&pool.lock);
  }
  return NULL;
}

static unsigned helpers_from_env(void) {
  const char *env = getenv("WUC_BLOCKING_THREADS");
  if (!env || !*env) return DEFAULT_HELPERS;
  char *end;
  long n = strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > MAX_HELPERS)
    wuc_fatal("WUC_BLOCKING_THREADS=%s: expected a number of helper threads from 1 to %d", env,
              MAX_HELPERS);
  return (unsigned)n;
}

/* Under pool.lock, with a job queued and no helper idle. */
static void start_helper(void) {
  if (pool.limit == 0) pool.limit = helpers_from_env();
  if (pool.started == pool.limit) return; /* the job waits for a helper */
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  int err = pthread_create(&thread, &attr, helper_main, (void *)(size_t)pool.started);
  pthread_attr_destroy(&attr);
  if (err) wuc_fatal("cannot start a helper thread for wuc_blocking: %s", strerror(err));
  pool.started++;
}

void *wuc_blocking(void *(*fn)(void *), void *arg) {
  struct wuc_uthread *self = wuc_current_thread_or_die("wuc_blocking");
  if (!fn) wuc_fatal("wuc_blocking: NULL function");
  struct job j = {.fn = fn, .arg = arg, .thread = self, .state = JOB_QUEUED};
  atomic_fetch_add(&wuc_blocking_jobs, 1);
  pthread_mutex_lock(&pool.lock);
  if (pool.tail)
    pool.tail->next = &j;
  else
    pool.head = &j;
  pool.tail = &j;
  if (pool.idle)
    pthread_cond_signal(&pool.work);
  else
    start_helper();
  pthread_mutex_unlock(&pool.lock);
  uint32_t spins = 0;
  for (int state; (state = atomic_load_explicit(&j.state, memory_order_acquire)) != JOB_DONE;) {
    if (state == JOB_QUEUED)
      wuc_park("wuc_blocking", (const void *)&j);
    else
      wuc_spin_step(&spins); /* the helper is inside wuc_unpark(us) */
  }
  wuc_set_errno_after_park(j.error);
  return j.result;
}
