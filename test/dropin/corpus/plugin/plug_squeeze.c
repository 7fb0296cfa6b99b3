/* plug_squeeze.c - squeezes runs of blanks into one space and drops
 * trailing blanks; has no state of its own. */
#include <string.h>

#include "plugin.h"

static unsigned long squeezed;

static void *squeeze_open(const char *arg)
{
	(void)arg;
	squeezed = 0;
	return &squeezed;
}

static void squeeze_close(void *state)
{
	filt_log("squeeze", "%lu blanks removed", *(unsigned long *)state);
}

static size_t squeeze_transform(char *buf, size_t len, void *state)
{
	unsigned long *count = state;
	size_t r, w = 0;
	int blank = 0;

	for (r = 0; r < len; r++) {
		char c = buf[r];
		if (c == ' ' || c == '\t') {
			if (blank)
				++*count;
			blank = 1;
			continue;
		}
		if (blank) {
			if (c != '\n')
				buf[w++] = ' ';
			else
				++*count;
			blank = 0;
		}
		buf[w++] = c;
	}
	if (blank)
		++*count;
	return w;
}

int filt_plugin_v1(struct filt_plugin *out)
{
	memset(out, 0, sizeof *out);
	out->abi = FILT_ABI;
	out->name = "squeeze";
	out->open = squeeze_open;
	out->close = squeeze_close;
	out->transform = squeeze_transform;
	return 0;
}
