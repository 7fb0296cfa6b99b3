/* utf8.c - strict UTF-8: no overlong forms, no surrogates, at most U+10FFFF. */
#include "strbuf.h"

#include <string.h>

int utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t v, min;
	int n, i;

	if (len == 0)
		return -1;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	} else if ((u[0] & 0xE0) == 0xC0) {
		n = 2, v = u[0] & 0x1F, min = 0x80;
	} else if ((u[0] & 0xF0) == 0xE0) {
		n = 3, v = u[0] & 0x0F, min = 0x800;
	} else if ((u[0] & 0xF8) == 0xF0) {
		n = 4, v = u[0] & 0x07, min = 0x10000;
	} else {
		return -1;
	}
	if ((size_t)n > len)
		return -1;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return -1;
		v = v << 6 | (u[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return -1;
	*cp = v;
	return n;
}

long utf8_length(const char *s)
{
	size_t len = strlen(s), i = 0;
	long count = 0;
	uint32_t cp;

	while (i < len) {
		int n = utf8_decode(s + i, len - i, &cp);
		if (n < 0)
			return -1;
		i += (size_t)n;
		count++;
	}
	return count;
}

int utf8_encode(char out[4], uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp >= 0xD800 && cp <= 0xDFFF)
		return -1;
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	if (cp > 0x10FFFF)
		return -1;
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}
