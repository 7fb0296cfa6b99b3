/* chan_probe.h — a look at a channel's segment list (runtime/chan_segment.h
 * is C11 only, so the stress tests ask through this C file). */
#ifndef WUC_TEST_CHAN_PROBE_H
#define WUC_TEST_CHAN_PROBE_H

#include <stddef.h>

#include <wuc/channel.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Segments from the oldest linked one to the tail.  Only while nobody uses
 * the channel. */
size_t chan_probe_linked_segments(wuc_chan *ch);
/* Cells per segment. */
size_t chan_probe_segment_size(void);

#ifdef __cplusplus
}
#endif
#endif
