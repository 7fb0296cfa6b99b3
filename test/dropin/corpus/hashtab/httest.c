/* httest - word frequencies with ht: reads words from stdin, prints the
 * counts sorted, then exercises removal and growth. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ht.h"

#if defined(WITH_STATS)
extern int ht_stats_enabled;
#endif

struct count {
	const char *word;
	long n;
};

static int by_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->word, y->word);
}

static void free_long(void *p)
{
	free(p);
}

int main(void)
{
	ht *t = ht_create(4);
	char word[64];
	size_t len = 0;
	int c;

	if (t == NULL)
		return 1;
	do {
		c = getchar();
		if (c != EOF && (isalnum(c) || c == '\'')) {
			if (len < sizeof word - 1)
				word[len++] = (char)tolower(c);
			continue;
		}
		if (len == 0)
			continue;
		word[len] = '\0';
		len = 0;
		long *n = ht_get(t, word);
		if (n == NULL) {
			n = calloc(1, sizeof *n);
			if (n == NULL || ht_put(t, word, n) != NULL)
				return 1;
		}
		++*n;
	} while (c != EOF);

	size_t total = ht_size(t), i = 0;
	struct count *all = malloc((total ? total : 1) * sizeof *all);
	ht_iter it = ht_iterate(t);
	while (ht_next(&it))
		all[i++] = (struct count){ it.key, *(long *)it.value };
	qsort(all, total, sizeof *all, by_count);
	for (i = 0; i < total && i < 12; i++)
		printf("%6ld %s\n", all[i].n, all[i].word);
	printf("%zu distinct words\n", total);
	free(all);

	/* Remove every other word, then add many: tombstones must be reused or dropped. */
	char key[32];
	for (i = 0; i < 2000; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		long *v = malloc(sizeof *v);
		*v = (long)i;
		free(ht_put(t, key, v));
	}
	for (i = 0; i < 2000; i += 2) {
		snprintf(key, sizeof key, "k%zu", i);
		free(ht_remove(t, key));
	}
	long sum = 0;
	for (i = 0; i < 2000; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		long *v = ht_get(t, key);
		if (v != NULL)
			sum += *v;
	}
	printf("after removal: %zu entries, sum %ld\n", ht_size(t), sum);
#if defined(WITH_STATS)
	struct ht_stats st;
	ht_get_stats(t, &st);
	printf("stats(%d): capacity %zu, size %zu, tombstones %zu\n", ht_stats_enabled, st.capacity,
	       st.size, st.tombstones);
#endif
	ht_destroy(t, free_long);
	return 0;
}
