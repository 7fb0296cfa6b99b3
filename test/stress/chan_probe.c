/* chan_probe.c — see chan_probe.h. */
#include "chan_probe.h"

#include "chan_segment.h"

size_t chan_probe_linked_segments(wuc_chan *ch) {
  size_t n = 0;
  for (struct chan_segment *s = ch->oldest; s; s = atomic_load(&s->next)) n++;
  return n;
}

size_t chan_probe_segment_size(void) { return WUC_SEGMENT_SIZE; }
