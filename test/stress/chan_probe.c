/* chan_probe.c — see chan_probe.h. */
#include "chan_probe.h"

#include "chan_segment.h"
#include "scheduler.h"

#define CLOSED_BIT (UINT64_C(1) << 63)

size_t chan_probe_linked_segments(wuc_chan *ch) {
  size_t n = 0;
  for (struct wuc_chan_segment *s = ch->oldest; s; s = atomic_load(&s->next)) n++;
  return n;
}

size_t chan_probe_segment_size(void) { return WUC_SEGMENT_SIZE; }

const void *chan_probe_kept_segment(void) { return wuc_tls_worker->current->kept_pin.segment; }

const void *chan_probe_oldest_segment(wuc_chan *ch) { return ch->oldest; }

/* counts: the pins in bits 32-62, bit 63 once let go (chan_segment.c). */
unsigned chan_probe_segment_pins(const void *segment) {
  const struct wuc_chan_segment *s = segment;
  return (unsigned)(atomic_load(&s->counts) >> 32 & 0x7fffffff);
}

int chan_probe_segment_let_go(const void *segment) {
  const struct wuc_chan_segment *s = segment;
  return (int)(atomic_load(&s->counts) >> 63);
}

size_t chan_probe_pooled_bytes(void) { return wuc_segment_pools_held_bytes(); }

uint64_t chan_probe_senders(wuc_chan *ch) { return atomic_load(&ch->senders) & ~CLOSED_BIT; }
uint64_t chan_probe_receivers(wuc_chan *ch) { return atomic_load(&ch->receivers); }
uint64_t chan_probe_buffer_end(wuc_chan *ch) { return atomic_load(&ch->buffer_end); }

/* The lock is the int runtime/spin.h's wuc_spin_lock takes (0 when free);
 * not included here: the unit tests have a spin.h of their own. */
void chan_probe_hold_maintenance(wuc_chan *ch) {
  while (atomic_exchange_explicit(&ch->maintenance_lock, 1, memory_order_acquire)) {
  }
}
void chan_probe_release_maintenance(wuc_chan *ch) {
  atomic_store_explicit(&ch->maintenance_lock, 0, memory_order_release);
}

uint64_t chan_probe_take_receive_index(wuc_chan *ch) { return atomic_fetch_add(&ch->receivers, 1); }

uint64_t chan_probe_take_send_index(wuc_chan *ch) {
  return atomic_fetch_add(&ch->senders, 1) & ~CLOSED_BIT;
}
