/* ht.h - open-addressing hash table from strings to pointers (C11). */
#ifndef HT_H
#define HT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ht ht;

typedef struct {
	const ht *table;
	size_t index;
	const char *key;
	void *value;
} ht_iter;

ht *ht_create(size_t hint);
void ht_destroy(ht *t, void (*free_value)(void *));

/* Stores value under key (the key is copied); returns the previous value or NULL. */
void *ht_put(ht *t, const char *key, void *value);
void *ht_get(const ht *t, const char *key);
void *ht_remove(ht *t, const char *key);
size_t ht_size(const ht *t);

ht_iter ht_iterate(const ht *t);
bool ht_next(ht_iter *it);

uint64_t ht_hash(const char *key);

/* ht_stats.c: only linked in when asked for (-u ht_stats_enabled). */
struct ht_stats {
	size_t capacity, size, tombstones, longest_probe;
};
void ht_get_stats(const ht *t, struct ht_stats *out);

#endif
