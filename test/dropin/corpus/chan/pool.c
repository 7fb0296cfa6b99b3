/* pool - a worker pool over chan.c: N workers factor numbers sent on a
 * channel and send the results back; main totals them.  The output does not
 * depend on which worker did what. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "chan.h"

struct job {
	uint64_t n;
	uint64_t largest_factor;
	unsigned factors;
};

static struct channel jobs, done;

static void factor(struct job *j)
{
	uint64_t n = j->n, p;

	j->factors = 0;
	j->largest_factor = 1;
	for (p = 2; p * p <= n; p++) {
		while (n % p == 0) {
			n /= p;
			j->factors++;
			j->largest_factor = p;
		}
	}
	if (n > 1) {
		j->factors++;
		j->largest_factor = n;
	}
}

static void *worker(void *arg)
{
	void *item;
	long handled = 0;

	(void)arg;
	while (chan_recv(&jobs, &item)) {
		factor(item);
		if (!chan_send(&done, item))
			break;
		handled++;
	}
	return (void *)handled;
}

int main(int argc, char **argv)
{
	int nworkers = argc > 1 ? atoi(argv[1]) : 4, i;
	enum { NJOBS = 200 };
	static struct job all[NJOBS];
	pthread_t tid[16];
	uint64_t sum_largest = 0;
	unsigned long total_factors = 0, primes = 0;
	long handled = 0;
	void *item;

	if (nworkers < 1 || nworkers > 16)
		return 2;
	if (chan_init(&jobs, 8) != 0 || chan_init(&done, NJOBS) != 0)
		return 1;
	for (i = 0; i < nworkers; i++)
		pthread_create(&tid[i], NULL, worker, NULL);
	for (i = 0; i < NJOBS; i++) {
		all[i].n = UINT64_C(1000003) * (uint64_t)(i + 1) + (uint64_t)i * i;
		chan_send(&jobs, &all[i]);
	}
	chan_close(&jobs);
	for (i = 0; i < nworkers; i++) {
		void *n;
		pthread_join(tid[i], &n);
		handled += (long)n;
	}
	chan_close(&done);
	while (chan_recv(&done, &item)) {
		struct job *j = item;
		sum_largest += j->largest_factor;
		total_factors += j->factors;
		primes += j->factors == 1;
	}
	printf("%ld jobs by %d workers: %lu prime factors, %lu primes, sum of largest %" PRIu64 "\n",
	       handled, nworkers, total_factors, primes, sum_largest);
	chan_destroy(&jobs);
	chan_destroy(&done);
	return 0;
}
