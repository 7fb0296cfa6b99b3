/* chan_probe.h — a look at a channel's segment list and counters, and two
 * ways to stand in for a thread that stalls at a chosen point (runtime/
 * chan_segment.h is C11 only, so the tests ask through this C file). */
#ifndef WUC_TEST_CHAN_PROBE_H
#define WUC_TEST_CHAN_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Segments from the oldest linked one to the tail.  Only while nobody uses
 * the channel. */
size_t chan_probe_linked_segments(wuc_chan *ch);
/* Cells per segment. */
size_t chan_probe_segment_size(void);
/* Bytes of freed segments the workers keep for reuse (runtime/segment_pool.h). */
size_t chan_probe_pooled_bytes(void);

/* Kept pins (runtime/chan_segment.h): the calling thread's kept segment
 * (NULL: none), ch's oldest linked segment, a segment's pins, and whether
 * its channel or its grace period let go of it (its last unpin frees it). */
const void *chan_probe_kept_segment(void);
const void *chan_probe_oldest_segment(wuc_chan *ch);
unsigned chan_probe_segment_pins(const void *segment);
int chan_probe_segment_let_go(const void *segment);

/* The counters: S (without the closed bit), R and B. */
uint64_t chan_probe_senders(wuc_chan *ch);
uint64_t chan_probe_receivers(wuc_chan *ch);
uint64_t chan_probe_buffer_end(wuc_chan *ch);

/* Takes and releases the channel's segment-maintenance lock, as a thread
 * descheduled while unlinking a segment would hold it: an operation that
 * must remove a segment spins in chan_segment.c until the release. */
void chan_probe_hold_maintenance(wuc_chan *ch);
void chan_probe_release_maintenance(wuc_chan *ch);

/* A receive's fetch-and-add on R, without its cell visit: stands for a
 * try_recv stalled between the two.  Returns its cell index.  The caller
 * must make that visit a no-op (a cell whose sender was interrupted: the
 * receiver would just fail there and, finding R >= S, return false). */
uint64_t chan_probe_take_receive_index(wuc_chan *ch);

/* A send's fetch-and-add on S, without its cell visit: stands for a send
 * stalled between the two (its cell stays empty; the receiver of that cell
 * breaks it, and a real sender would then take another).  Returns its cell
 * index. */
uint64_t chan_probe_take_send_index(wuc_chan *ch);

#ifdef __cplusplus
}
#endif
#endif
