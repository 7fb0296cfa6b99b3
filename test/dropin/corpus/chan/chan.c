/* chan.c - see chan.h. */
#include "chan.h"

#include <errno.h>
#include <stdlib.h>

int chan_init(struct channel *c, size_t cap)
{
	if (cap == 0)
		return EINVAL;
	c->items = calloc(cap, sizeof *c->items);
	if (c->items == NULL)
		return ENOMEM;
	c->head = c->len = 0;
	c->cap = cap;
	c->closed = false;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->not_empty, NULL);
	pthread_cond_init(&c->not_full, NULL);
	return 0;
}

void chan_destroy(struct channel *c)
{
	pthread_cond_destroy(&c->not_full);
	pthread_cond_destroy(&c->not_empty);
	pthread_mutex_destroy(&c->mu);
	free(c->items);
}

bool chan_send(struct channel *c, void *item)
{
	bool ok;

	pthread_mutex_lock(&c->mu);
	while (c->len == c->cap && !c->closed)
		pthread_cond_wait(&c->not_full, &c->mu);
	ok = !c->closed;
	if (ok) {
		c->items[(c->head + c->len) % c->cap] = item;
		c->len++;
		pthread_cond_signal(&c->not_empty);
	}
	pthread_mutex_unlock(&c->mu);
	return ok;
}

bool chan_recv(struct channel *c, void **item)
{
	bool ok;

	pthread_mutex_lock(&c->mu);
	while (c->len == 0 && !c->closed)
		pthread_cond_wait(&c->not_empty, &c->mu);
	ok = c->len > 0;
	if (ok) {
		*item = c->items[c->head];
		c->head = (c->head + 1) % c->cap;
		c->len--;
		pthread_cond_signal(&c->not_full);
	}
	pthread_mutex_unlock(&c->mu);
	return ok;
}

void chan_close(struct channel *c)
{
	pthread_mutex_lock(&c->mu);
	c->closed = true;
	pthread_cond_broadcast(&c->not_empty);
	pthread_cond_broadcast(&c->not_full);
	pthread_mutex_unlock(&c->mu);
}
