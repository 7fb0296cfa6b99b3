/* sim.c - the scheduler and the primitives of sim.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define MAX_TASKS 32
#define MAX_CHANNELS 16
#define MAX_CAPACITY 64

struct chan {
	int buf[MAX_CAPACITY];
	int head, len, capacity;
	bool closed, used;
};

duration_t now;
int semaphore;

static struct task tasks[MAX_TASKS];
static int ntasks;
static struct chan channels[MAX_CHANNELS];

duration_t seconds(long n)
{
	return (duration_t)n;
}

duration_t milliseconds(long n)
{
	return (duration_t)n / 1000.0;
}

duration_t microseconds(long n)
{
	return (duration_t)n / 1e6;
}

uthread_t uthread_spawn(const char *name, task_step step, long arg)
{
	struct task *t;

	if (ntasks == MAX_TASKS)
		return -1;
	t = &tasks[ntasks];
	memset(t, 0, sizeof *t);
	t->id = ntasks;
	t->name = name;
	t->step = step;
	t->acc = arg;
	t->when = now;
	return ntasks++;
}

void uthread_yield(struct task *t, duration_t after)
{
	t->when = now + after;
}

/* Runs the earliest runnable task (lowest id on ties) until all are done or
 * the simulated clock passes timeout; returns how many tasks are left. */
int run_all(duration_t timeout)
{
	int left;

	for (;;) {
		struct task *next = NULL;
		int i;

		left = 0;
		for (i = 0; i < ntasks; i++) {
			struct task *t = &tasks[i];
			if (t->done)
				continue;
			left++;
			if (next == NULL || t->when < next->when)
				next = t;
		}
		if (next == NULL)
			return 0;
		if (next->when > timeout)
			return left;
		if (next->when > now)
			now = next->when;
		if (next->when == now && next->step(next) == 0) {
			next->done = true;
			printf("%8.3f  %-8s done (acc %ld)\n", now, next->name, next->acc);
		} else if (next->when <= now) {
			/* The step neither finished nor yielded: it polls again shortly. */
			next->when = now + microseconds(100);
		}
	}
}

int channel(int capacity)
{
	int i;

	if (capacity < 1 || capacity > MAX_CAPACITY)
		return -1;
	for (i = 0; i < MAX_CHANNELS; i++) {
		if (!channels[i].used) {
			memset(&channels[i], 0, sizeof channels[i]);
			channels[i].used = true;
			channels[i].capacity = capacity;
			return i;
		}
	}
	return -1;
}

bool chan_send(int ch, int value)
{
	struct chan *c = &channels[ch];

	if (c->closed || c->len == c->capacity)
		return false;
	c->buf[(c->head + c->len++) % c->capacity] = value;
	return true;
}

bool chan_recv(int ch, int *value)
{
	struct chan *c = &channels[ch];

	if (c->len == 0)
		return false;
	*value = c->buf[c->head];
	c->head = (c->head + 1) % c->capacity;
	c->len--;
	return true;
}

int chan_len(int ch)
{
	return channels[ch].len;
}

void chan_close(int ch)
{
	channels[ch].closed = true;
}

bool chan_closed(int ch)
{
	return channels[ch].closed && channels[ch].len == 0;
}

bool semaphore_try(struct semaphore *s)
{
	semaphore++;
	if (s->permits > 0) {
		s->permits--;
		return true;
	}
	s->waiters++;
	return false;
}

void semaphore_post(struct semaphore *s)
{
	semaphore++;
	s->permits++;
	if (s->waiters > 0)
		s->waiters--;
}

bool lock_acquire(struct owner_lock *l, uthread_t who)
{
	if (l->owner != -1 && l->owner != who)
		return false;
	l->owner = who;
	l->depth++;
	return true;
}

void lock_release(struct owner_lock *l)
{
	if (--l->depth == 0)
		l->owner = -1;
}

void latch_set(struct latch *l)
{
	l->open = true;
}

void future_set(struct future *f, long v)
{
	f->value = v;
	f->ready = true;
}
