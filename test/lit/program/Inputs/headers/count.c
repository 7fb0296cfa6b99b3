/* Plain C: it cannot include box.h (which uses the dialect); it names the
 * channel(unsigned) of box.h by its tag, under its guard (docs/language.md,
 * "Types"). */
#include <wuc.h>
#ifndef WUC_DEFINED_wuc_channel_unsigned_int
#define WUC_DEFINED_wuc_channel_unsigned_int
WUC_CHANNEL_STRUCT(wuc_channel_unsigned_int, unsigned int);
#endif
int plain_count(struct wuc_channel_unsigned_int *d);
int plain_count(struct wuc_channel_unsigned_int *d) {
  unsigned v;
  int n = 0;
  while (chan_recv(d, &v)) n += (int)v;
  return n;
}
