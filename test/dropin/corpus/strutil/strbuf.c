/* strbuf.c - growable strings. */
#include "strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_grow(strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1, cap = sb->cap ? sb->cap : 16;
	char *p;

	if (need < extra)
		return ENOMEM;
	if (need <= sb->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->data, cap);
	if (p == NULL)
		return ENOMEM;
	sb->data = p;
	sb->cap = cap;
	return 0;
}

int sb_append(strbuf *sb, const char *s, size_t n)
{
	int rc = sb_grow(sb, n);
	if (rc != 0)
		return rc;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
	return 0;
}

int sb_puts(strbuf *sb, const char *s)
{
	return sb_append(sb, s, strlen(s));
}

int sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n, rc;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return EINVAL;
	rc = sb_grow(sb, (size_t)n);
	if (rc != 0)
		return rc;
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int sb_printf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sb_vprintf(sb, fmt, ap);
	va_end(ap);
	return rc;
}

char *sb_detach(strbuf *sb)
{
	char *p = sb->data;

	if (p == NULL)
		p = calloc(1, 1);
	*sb = (strbuf)STRBUF_INIT;
	return p;
}

void sb_release(strbuf *sb)
{
	free(sb->data);
	*sb = (strbuf)STRBUF_INIT;
}

int sb_append_long(strbuf *sb, long v)
{
	return sb_printf(sb, "%ld", v);
}

int sb_append_ulong(strbuf *sb, unsigned long v)
{
	return sb_printf(sb, "%lu", v);
}

int sb_append_double(strbuf *sb, double v)
{
	return sb_printf(sb, "%g", v);
}
