/* The plain C translation unit of ../type_identity.wc: it names channel(int)
 * as the dialect does (docs/language.md, "Types": the tag of the canonical
 * type, defined under its WUC_DEFINED_ guard). */
#include <wuc.h>

#ifndef WUC_DEFINED_wuc_channel_int
#define WUC_DEFINED_wuc_channel_int
WUC_CHANNEL_STRUCT(wuc_channel_int, int);
#endif

int plain_sum(struct wuc_channel_int *c);

int plain_sum(struct wuc_channel_int *c) {
  int s = 0, v;
  while (chan_recv(c, &v)) s += v;
  return s;
}
