/* runq.h — run queues.
 *
 * Each worker owns a bounded FIFO ring of runnable threads (the algorithm of
 * Go's runq): only the owner pushes, at the tail; the owner pops and thieves
 * steal from the head, both by CAS on `head`, so a pop never blocks a steal.
 * A thief takes half of the victim's queue at once.  When the ring is full
 * the owner moves half of it to the global queue.
 *
 * The global (injection) queue is a mutex-protected ring for threads made
 * runnable outside any worker and for overflow; workers look at it when
 * their own queue is empty and, for fairness, every 61st schedule. */
#ifndef WUC_RUNTIME_RUNQ_H
#define WUC_RUNTIME_RUNQ_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define WUC_RUNQ_SIZE 256

struct wuc_uthread;
struct worker;

struct runq {
  _Atomic uint32_t head; /* next slot to take (owner pop and thieves, by CAS) */
  _Atomic uint32_t tail; /* next slot to fill (owner only) */
  struct wuc_uthread *_Atomic slots[WUC_RUNQ_SIZE];
};

/* A ring of handles that doubles when full, so that taking a batch copies
 * pointers and reads no thread's handle (a linked list made every take walk
 * one cold handle per thread, under the lock). */
struct global_runq {
  pthread_mutex_t lock;
  struct wuc_uthread **ring; /* NULL until the first push */
  uint32_t capacity;         /* a power of two, or 0 */
  uint32_t head;             /* ring index of the oldest thread */
  _Atomic uint32_t size;     /* written under the lock, read without it */
};

void wuc_runq_push(struct worker *w, struct wuc_uthread *t);
struct wuc_uthread *wuc_runq_pop(struct worker *w);
bool wuc_runq_empty(struct runq *q);
/* Moves about half of victim's queue into thief's and returns one of the
 * threads (not queued), or NULL if victim's queue was empty. */
struct wuc_uthread *wuc_runq_steal(struct worker *thief, struct worker *victim);

void wuc_global_runq_push(struct global_runq *g, struct wuc_uthread *t);
/* Takes one thread for w, and moves a fair share of the rest into w's queue. */
struct wuc_uthread *wuc_global_runq_take(struct global_runq *g, struct worker *w);

#endif
