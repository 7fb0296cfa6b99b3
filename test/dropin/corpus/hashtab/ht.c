/* ht.c - linear probing with tombstones; the capacity is a power of two and
 * the table grows at 3/4 load (tombstones count as load). */
#include "ht.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define TOMBSTONE ((char *)&tombstone_marker)

static char tombstone_marker;

struct slot {
	char *key;
	void *value;
	uint64_t hash;
};

struct ht {
	struct slot *slots;
	size_t capacity; /* power of two */
	size_t size;
	size_t used; /* size + tombstones */
};

_Static_assert(sizeof(uint64_t) == 8, "FNV-1a below assumes 64-bit hashes");

uint64_t ht_hash(const char *key)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++) {
		h ^= *p;
		h *= UINT64_C(1099511628211);
	}
	return h;
}

static size_t round_up(size_t n)
{
	size_t c = 8;
	while (c < n)
		c <<= 1;
	return c;
}

ht *ht_create(size_t hint)
{
	ht *t = malloc(sizeof *t);

	if (t == NULL)
		return NULL;
	t->capacity = round_up(hint + hint / 3 + 1);
	t->slots = calloc(t->capacity, sizeof *t->slots);
	if (t->slots == NULL) {
		free(t);
		return NULL;
	}
	t->size = t->used = 0;
	return t;
}

void ht_destroy(ht *t, void (*free_value)(void *))
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->capacity; i++) {
		struct slot *s = &t->slots[i];
		if (s->key != NULL && s->key != TOMBSTONE) {
			free(s->key);
			if (free_value != NULL)
				free_value(s->value);
		}
	}
	free(t->slots);
	free(t);
}

/* Index of key's slot, or of the slot where it would go. */
static size_t find(const ht *t, const char *key, uint64_t hash, size_t *probes)
{
	size_t mask = t->capacity - 1, i = (size_t)hash & mask, grave = SIZE_MAX, n = 0;

	for (;; i = (i + 1) & mask, n++) {
		const struct slot *s = &t->slots[i];
		if (s->key == NULL)
			break;
		if (s->key == TOMBSTONE) {
			if (grave == SIZE_MAX)
				grave = i;
			continue;
		}
		if (s->hash == hash && strcmp(s->key, key) == 0) {
			grave = SIZE_MAX;
			break;
		}
	}
	if (probes != NULL)
		*probes = n;
	return grave != SIZE_MAX ? grave : i;
}

static bool grow(ht *t)
{
	struct slot *old = t->slots;
	size_t old_cap = t->capacity;
	size_t cap = round_up((t->size + 1) * 2);
	struct slot *slots = calloc(cap, sizeof *slots);

	if (slots == NULL)
		return false;
	t->slots = slots;
	t->capacity = cap;
	t->used = t->size;
	for (size_t i = 0; i < old_cap; i++) {
		if (old[i].key == NULL || old[i].key == TOMBSTONE)
			continue;
		size_t j = find(t, old[i].key, old[i].hash, NULL);
		slots[j] = old[i];
	}
	free(old);
	return true;
}

void *ht_put(ht *t, const char *key, void *value)
{
	uint64_t hash = ht_hash(key);
	size_t i;
	struct slot *s;

	if ((t->used + 1) * 4 > t->capacity * 3 && !grow(t))
		return NULL;
	i = find(t, key, hash, NULL);
	s = &t->slots[i];
	if (s->key != NULL && s->key != TOMBSTONE) {
		void *prev = s->value;
		s->value = value;
		return prev;
	}
	char *copy = malloc(strlen(key) + 1);
	if (copy == NULL)
		return NULL;
	strcpy(copy, key);
	if (s->key == NULL)
		t->used++;
	*s = (struct slot){ .key = copy, .value = value, .hash = hash };
	t->size++;
	return NULL;
}

void *ht_get(const ht *t, const char *key)
{
	const struct slot *s = &t->slots[find(t, key, ht_hash(key), NULL)];
	return s->key != NULL && s->key != TOMBSTONE ? s->value : NULL;
}

void *ht_remove(ht *t, const char *key)
{
	struct slot *s = &t->slots[find(t, key, ht_hash(key), NULL)];
	void *value;

	if (s->key == NULL || s->key == TOMBSTONE)
		return NULL;
	value = s->value;
	free(s->key);
	s->key = TOMBSTONE;
	s->value = NULL;
	t->size--;
	return value;
}

size_t ht_size(const ht *t)
{
	return t->size;
}

ht_iter ht_iterate(const ht *t)
{
	return (ht_iter){ .table = t };
}

bool ht_next(ht_iter *it)
{
	const ht *t = it->table;

	while (it->index < t->capacity) {
		const struct slot *s = &t->slots[it->index++];
		if (s->key != NULL && s->key != TOMBSTONE) {
			it->key = s->key;
			it->value = s->value;
			return true;
		}
	}
	return false;
}

/* For ht_stats.c, which is in the same library but a separate member. */
size_t ht__probe_length(const ht *t, size_t index);
size_t ht__capacity(const ht *t);
int ht__slot_state(const ht *t, size_t index);

size_t ht__probe_length(const ht *t, size_t index)
{
	size_t probes = 0;
	assert(index < t->capacity);
	find(t, t->slots[index].key, t->slots[index].hash, &probes);
	return probes;
}

size_t ht__capacity(const ht *t)
{
	return t->capacity;
}

int ht__slot_state(const ht *t, size_t index)
{
	const char *k = t->slots[index].key;
	return k == NULL ? 0 : k == TOMBSTONE ? 1 : 2;
}
