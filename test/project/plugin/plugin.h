/* The shared library's interface, plain C: a host that knows nothing of wuc
 * calls it (host/host.c). */
#ifndef PROJ_PLUGIN_H
#define PROJ_PLUGIN_H
const char *proj_plugin_name(void);
/* The sum of the squares 1..n, computed by n user threads. */
long proj_plugin_squares(int n);
#endif
