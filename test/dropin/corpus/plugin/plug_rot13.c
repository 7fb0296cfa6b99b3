/* plug_rot13.c - rotates letters by N places (13 unless told otherwise). */
#include <ctype.h>
#include <stdlib.h>

#include "plugin.h"

struct rot {
	int shift;
	unsigned long letters;
};

static void *rot_open(const char *arg)
{
	struct rot *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->shift = arg != NULL ? atoi(arg) % 26 : 13;
	if (r->shift < 0)
		r->shift += 26;
	return r;
}

static void rot_close(void *state)
{
	struct rot *r = state;

	filt_log("rot", "%lu letters rotated by %d", r->letters, r->shift);
	free(r);
}

static size_t rot_transform(char *buf, size_t len, void *state)
{
	struct rot *r = state;
	size_t i;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)buf[i];
		if (islower(c))
			buf[i] = (char)('a' + (c - 'a' + r->shift) % 26);
		else if (isupper(c))
			buf[i] = (char)('A' + (c - 'A' + r->shift) % 26);
		else
			continue;
		r->letters++;
	}
	return len;
}

int filt_plugin_v1(struct filt_plugin *out)
{
	out->abi = FILT_ABI;
	out->name = "rot";
	out->open = rot_open;
	out->close = rot_close;
	out->transform = rot_transform;
	return 0;
}
