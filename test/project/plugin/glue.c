/* Plain C in the shared library. */
#include "plugin/plugin.h"

const char *proj_plugin_name(void) { return "squares"; }
