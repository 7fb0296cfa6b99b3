/* channel_c_api.h — channel checks that must be compiled as C
 * (channel_c_api.c): the typed chan_* macros with C's assignment
 * conversions and GNU C's zero-size structs, and a look at a channel's
 * segment list (runtime/chan_segment.h is C11 only). */
#ifndef WUC_TEST_CHANNEL_C_API_H
#define WUC_TEST_CHANNEL_C_API_H

#include <stddef.h>

#include <wuc/channel.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Each returns 0 if every check passed, else the source line of the first
 * that failed. */
int channel_c_char(void);
int channel_c_long(void);
int channel_c_struct40(void);
int channel_c_zero_size(void);
int channel_c_pointers(void);
int channel_c_conversions(void);
int channel_c_named_struct(void);
/* The waiter paths copy elements too: a blocked receiver gets a 40-byte
 * struct from a sender, a blocked sender's struct is taken by a receiver. */
int channel_c_struct40_rendezvous(void);
int channel_c_zero_size_rendezvous(void);

/* Segments from the oldest linked one to the tail (no concurrent use). */
size_t channel_linked_segments(wuc_chan *ch);
/* Cells per segment. */
size_t channel_segment_size(void);

#ifdef __cplusplus
}
#endif
#endif
