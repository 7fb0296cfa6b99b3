/* For driver/forced_include.wc: given with -include only. */
#include <wuc.h>
static latch forced_latch;
#define FORCED_VALUE 5
