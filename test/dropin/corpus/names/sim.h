/* sim.h - a deterministic discrete-event simulator of cooperating tasks.
 *
 * Tasks are state machines stepped by the scheduler; they talk through
 * numbered channels (bounded queues of ints), counting semaphores, latches
 * and one-shot futures.  Time is simulated: nothing here sleeps.
 */
#ifndef SIM_H
#define SIM_H

typedef enum { false, true } bool;

typedef double duration_t;	/* simulated seconds */
typedef int uthread_t;		/* task id */

struct semaphore {
	int permits;
	int waiters;
};

struct latch {
	bool open;
	int waiters;
};

struct owner_lock {
	uthread_t owner;	/* -1: free */
	int depth;
};

struct future {
	bool ready;
	long value;
};

struct task;
typedef int (*task_step)(struct task *t);	/* returns 0 when finished */

struct task {
	uthread_t id;
	const char *name;
	task_step step;
	int pc;			/* where the state machine is */
	long acc;
	duration_t when;	/* runnable at this simulated time */
	bool done;
};

extern duration_t now;
extern int semaphore;	/* how many semaphore operations ran: a statistic */

uthread_t uthread_spawn(const char *name, task_step step, long arg);
void uthread_yield(struct task *t, duration_t after);
int run_all(duration_t timeout);

int channel(int capacity);		/* a new channel's number, -1 if none left */
bool chan_send(int ch, int value);	/* false: full */
bool chan_recv(int ch, int *value);	/* false: empty */
int chan_len(int ch);
void chan_close(int ch);
bool chan_closed(int ch);

bool semaphore_try(struct semaphore *s);
void semaphore_post(struct semaphore *s);
bool lock_acquire(struct owner_lock *l, uthread_t who);
void lock_release(struct owner_lock *l);
void latch_set(struct latch *l);
void future_set(struct future *f, long v);

duration_t seconds(long n);
duration_t milliseconds(long n);
duration_t microseconds(long n);

#endif
