/* waitq.c — the FIFO waiter queue (invariants in waitq.h). */
#include "waitq.h"

#include "park.h"

void wuc_park_at(const char *what, const void *object, const char *file, int line);

static void unlink_waiter(wuc_waitq *q, struct wuc_waiter *w) {
  if (w->prev)
    w->prev->next = w->next;
  else
    q->head = w->next;
  if (w->next)
    w->next->prev = w->prev;
  else
    q->tail = w->prev;
  /* Last: a lock-free reader that sees false leaves w alone from now on. */
  atomic_store_explicit(&w->queued, false, memory_order_release);
}

void wuc_waitq_push(wuc_waitq *q, struct wuc_waiter *w) {
  w->next = NULL;
  w->prev = q->tail;
  if (q->tail)
    q->tail->next = w;
  else
    q->head = w;
  q->tail = w;
  atomic_store_explicit(&w->queued, true, memory_order_relaxed);
}

/* Decides, still queued, whether w takes the operation.  A thread always
 * does; a node only if its claim is won.  Either way w leaves the queue. */
static bool grant(wuc_waitq *q, struct wuc_waiter *w) {
  bool accepted = true;
  if (w->node)
    accepted = wuc_select_claim(w->node);
  else
    atomic_store_explicit(&w->wake, WAITER_WAKING, memory_order_relaxed);
  unlink_waiter(q, w);
  return accepted;
}

struct wuc_waiter *wuc_waitq_grant_first(wuc_waitq *q) {
  while (q->head) {
    struct wuc_waiter *w = q->head;
    if (grant(q, w)) return w;
  }
  return NULL;
}

struct wuc_waiter *wuc_waitq_grant_all(wuc_waitq *q) {
  struct wuc_waiter *first = NULL, *last = NULL;
  while (q->head) {
    struct wuc_waiter *w = q->head;
    if (!grant(q, w)) continue;
    w->next = NULL; /* w is ours until woken: its links now chain the granted */
    if (last)
      last->next = w;
    else
      first = w;
    last = w;
  }
  return first;
}

void wuc_waitq_wake(struct wuc_waiter *w) {
  if (w->node) {
    wuc_select_wake(w->node);
    return;
  }
  wuc_unpark(w->thread);
  atomic_store_explicit(&w->wake, WAITER_WOKEN, memory_order_release); /* w may vanish now */
}

void wuc_waitq_wake_chain(struct wuc_waiter *chain) {
  while (chain) {
    struct wuc_waiter *next = chain->next; /* before the wake: then chain may vanish */
    wuc_waitq_wake(chain);
    chain = next;
  }
}

static void thread_waiter_init(struct wuc_waiter *w, wuc_uthread_t *self) {
  w->prev = w->next = NULL;
  w->node = NULL;
  w->thread = self;
  atomic_init(&w->wake, WAITER_WAITING);
  atomic_init(&w->queued, false);
}

/* Returns once w is WOKEN: until then the waker may still touch w (waitq.h). */
static void wait_until_woken(struct wuc_waiter *w, const char *what, const void *object,
                             const char *file, int line) {
  uint32_t spins = 0;
  for (int state; (state = atomic_load_explicit(&w->wake, memory_order_acquire)) != WAITER_WOKEN;) {
    if (state == WAITER_WAITING)
      wuc_park_at(what, object, file, line); /* may return early: loop on our own state */
    else
      wuc_spin_step(&spins); /* the waker is inside wuc_unpark(us) */
  }
}

void wuc_waitq_block(wuc_waitq *q, wuc_uthread_t *self, const char *what, const void *object,
                     const char *file, int line) {
  struct wuc_waiter w;
  thread_waiter_init(&w, self);
  wuc_waitq_push(q, &w);
  waitq_unlock(q);
  wait_until_woken(&w, what, object, file, line);
}

struct wuc_waiter *wuc_waitq_node_init(wuc_select_node *n) {
  struct wuc_waiter *w = waitq_node_waiter(n);
  w->prev = w->next = NULL;
  w->node = n;
  w->thread = n->stmt->thread;
  atomic_init(&w->wake, WAITER_WAITING);
  atomic_init(&w->queued, false);
  return w;
}

bool wuc_waitq_cancel(wuc_waitq *q, struct wuc_waiter *w) {
  if (!atomic_load_explicit(&w->queued, memory_order_acquire)) return false;
  waitq_lock(q);
  bool queued = atomic_load_explicit(&w->queued, memory_order_relaxed);
  if (queued) unlink_waiter(q, w);
  waitq_unlock(q);
  return queued;
}
