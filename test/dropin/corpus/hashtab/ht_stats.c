/* ht_stats.c - table statistics, a separate archive member. */
#include "ht.h"

size_t ht__probe_length(const ht *t, size_t index);
size_t ht__capacity(const ht *t);
int ht__slot_state(const ht *t, size_t index);

int ht_stats_enabled = 1;

void ht_get_stats(const ht *t, struct ht_stats *out)
{
	*out = (struct ht_stats){ .capacity = ht__capacity(t), .size = ht_size(t) };
	for (size_t i = 0; i < out->capacity; i++) {
		switch (ht__slot_state(t, i)) {
		case 1:
			out->tombstones++;
			break;
		case 2: {
			size_t p = ht__probe_length(t, i);
			if (p > out->longest_probe)
				out->longest_probe = p;
			break;
		}
		default:
			break;
		}
	}
}
