/* A plain C program that links the shared wuc library and knows nothing of
 * wuc: the library carries its runtime (libwuc.a, linked in). */
#include <stdio.h>

#include "plugin/plugin.h"

int main(void) {
  printf("host: %s 1..10 = %ld\n", proj_plugin_name(), proj_plugin_squares(10));
  return 0;
}
