/* strbuf.h - growable strings, base64 and UTF-8 helpers (C11). */
#ifndef STRBUF_H
#define STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	char *data;
	size_t len, cap;
} strbuf;

#define STRBUF_INIT { NULL, 0, 0 }

int sb_grow(strbuf *sb, size_t extra);
int sb_append(strbuf *sb, const char *s, size_t n);
int sb_puts(strbuf *sb, const char *s);
int sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
char *sb_detach(strbuf *sb);
void sb_release(strbuf *sb);

int sb_append_long(strbuf *sb, long v);
int sb_append_ulong(strbuf *sb, unsigned long v);
int sb_append_double(strbuf *sb, double v);

/* Appends any number or string; picks the function by the argument type. */
#define sb_add(sb, x) _Generic((x),                    \
	char *: sb_puts,                               \
	const char *: sb_puts,                         \
	int: sb_append_long,                           \
	long: sb_append_long,                          \
	unsigned: sb_append_ulong,                     \
	unsigned long: sb_append_ulong,                \
	double: sb_append_double)((sb), (x))

/* base64.c */
size_t b64_encode(strbuf *out, const unsigned char *in, size_t len);
long b64_decode(unsigned char *out, size_t cap, const char *in);

/* utf8.c */
int utf8_decode(const char *s, size_t len, uint32_t *cp); /* bytes used, -1 if invalid */
long utf8_length(const char *s);			  /* code points, -1 if invalid */
int utf8_encode(char out[4], uint32_t cp);

#endif
