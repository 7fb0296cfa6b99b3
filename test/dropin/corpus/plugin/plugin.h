/* plugin.h - the interface between filt (the host) and its plugins.
 *
 * A plugin is a shared object exporting `filt_plugin_v1`, a function that
 * fills in a struct filt_plugin.  The host exports filt_log() to plugins.
 */
#ifndef FILT_PLUGIN_H
#define FILT_PLUGIN_H

#include <stddef.h>

#define FILT_ABI 1

struct filt_plugin {
	int abi;
	const char *name;
	/* Transforms len bytes of buf in place; returns the new length. */
	size_t (*transform)(char *buf, size_t len, void *state);
	void *(*open)(const char *arg);
	void (*close)(void *state);
};

typedef int (*filt_plugin_entry)(struct filt_plugin *out);

/* Provided by the host. */
void filt_log(const char *plugin, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
