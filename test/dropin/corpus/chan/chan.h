/* chan.h - a bounded, closable queue of pointers for POSIX threads. */
#ifndef CHAN_H
#define CHAN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct channel {
	pthread_mutex_t mu;
	pthread_cond_t not_empty, not_full;
	void **items;
	size_t head, len, cap;
	bool closed;
};

int chan_init(struct channel *c, size_t cap);
void chan_destroy(struct channel *c);
/* false once the channel is closed */
bool chan_send(struct channel *c, void *item);
/* false once the channel is closed and empty */
bool chan_recv(struct channel *c, void **item);
void chan_close(struct channel *c);

#endif
