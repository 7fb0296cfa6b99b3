/* A plain C source next to the .wc ones: compiled by the C compiler. */
#include "external.h"

const char *external_label(void) { return "sum"; }
