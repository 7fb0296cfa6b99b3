/* base64.c - RFC 4648 base64 with padding. */
#include "strbuf.h"

#include <string.h>

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t b64_encode(strbuf *out, const unsigned char *in, size_t len)
{
	size_t start = out->len, i;
	char quad[4];

	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		quad[0] = alphabet[v >> 18];
		quad[1] = alphabet[(v >> 12) & 63];
		quad[2] = alphabet[(v >> 6) & 63];
		quad[3] = alphabet[v & 63];
		if (sb_append(out, quad, 4) != 0)
			return 0;
	}
	if (i < len) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)in[i + 1] << 8;
		quad[0] = alphabet[v >> 18];
		quad[1] = alphabet[(v >> 12) & 63];
		quad[2] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		quad[3] = '=';
		if (sb_append(out, quad, 4) != 0)
			return 0;
	}
	return out->len - start;
}

static int value_of(char c)
{
	const char *p = c != '\0' ? strchr(alphabet, c) : NULL;
	return p != NULL ? (int)(p - alphabet) : -1;
}

long b64_decode(unsigned char *out, size_t cap, const char *in)
{
	size_t n = 0, len = strlen(in), i;

	if (len % 4 != 0)
		return -1;
	for (i = 0; i < len; i += 4) {
		int a = value_of(in[i]), b = value_of(in[i + 1]);
		int c = in[i + 2] == '=' ? 0 : value_of(in[i + 2]);
		int d = in[i + 3] == '=' ? 0 : value_of(in[i + 3]);
		int pad = (in[i + 2] == '=') + (in[i + 3] == '=');
		uint32_t v;

		if (a < 0 || b < 0 || c < 0 || d < 0 || (pad > 0 && i + 4 != len))
			return -1;
		v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
		if (n + 3 - (size_t)pad > cap)
			return -1;
		out[n++] = (unsigned char)(v >> 16);
		if (pad < 2)
			out[n++] = (unsigned char)(v >> 8);
		if (pad < 1)
			out[n++] = (unsigned char)v;
	}
	return (long)n;
}
