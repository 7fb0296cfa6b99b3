/* simmain - a producer/consumer pipeline in the simulator: two producers
 * feed a channel, a filter passes even numbers on, a consumer sums them; a
 * latch starts everyone, a semaphore limits the filter, a future carries
 * the result to the reporter. */
#include <stdio.h>

#include "sim.h"

static int raw, evens;
static struct latch start;
static struct semaphore slots = { 2, 0 };
static struct owner_lock out_lock = { -1, 0 };
static struct future result;
static int or, and;	/* counters, named as in the original design notes */

static int starter(struct task *t)
{
	(void)t;
	latch_set(&start);
	printf("%8.3f  starter  latch open\n", now);
	return 0;
}

static int producer(struct task *t)
{
	int v;

	if (!start.open) {
		uthread_yield(t, milliseconds(1));
		return 1;
	}
	if (t->pc == 10) {
		return 0;
	}
	v = (int)t->acc * 100 + t->pc;
	if (!chan_send(raw, v)) {
		uthread_yield(t, milliseconds(2));
		return 1;
	}
	t->pc++;
	uthread_yield(t, milliseconds(3 + t->acc));
	return 1;
}

static int filter(struct task *t)
{
	int v;

	if (!chan_recv(raw, &v)) {
		if (t->pc >= 2 && chan_len(raw) == 0) {
			chan_close(evens);
			return 0;
		}
		t->pc++;
		uthread_yield(t, milliseconds(5));
		return 1;
	}
	t->pc = 0;
	if (!semaphore_try(&slots)) {
		uthread_yield(t, microseconds(500));
		return 1;
	}
	if (v % 2 == 0) {
		chan_send(evens, v);
		or++;
	} else {
		and++;
	}
	semaphore_post(&slots);
	uthread_yield(t, microseconds(250));
	return 1;
}

static int consumer(struct task *t)
{
	int v;

	while (chan_recv(evens, &v)) {
		if (!lock_acquire(&out_lock, t->id))
			break;
		t->acc += v;
		lock_release(&out_lock);
	}
	if (chan_closed(evens)) {
		future_set(&result, t->acc);
		return 0;
	}
	uthread_yield(t, milliseconds(4));
	return 1;
}

static int reporter(struct task *t)
{
	if (!result.ready) {
		uthread_yield(t, seconds(1) / 10);
		return 1;
	}
	t->acc = result.value;
	printf("%8.3f  reporter sum of evens %ld (%d even, %d odd, %d semaphore ops)\n", now,
	       result.value, or, and, semaphore);
	return 0;
}

int main(void)
{
	double timeout = 10.0;
	int left;

	raw = channel(4);
	evens = channel(8);
	uthread_spawn("reporter", reporter, 0);
	uthread_spawn("prod-1", producer, 1);
	uthread_spawn("prod-2", producer, 2);
	uthread_spawn("filter", filter, 0);
	uthread_spawn("consumer", consumer, 0);
	uthread_spawn("starter", starter, 0);
	left = run_all(timeout);
	printf("%d task(s) left at %.3f\n", left, now);
	return left == 0 ? 0 : 1;
}
