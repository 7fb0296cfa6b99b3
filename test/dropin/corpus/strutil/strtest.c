/* strtest - checks strbuf, base64 and utf8 against known answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static int failures;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                            \
		}                                                              \
	} while (0)

static const struct {
	const char *plain, *encoded;
} vectors[] = {
	{ "", "" },		 { "f", "Zg==" },	  { "fo", "Zm8=" },
	{ "foo", "Zm9v" },	 { "foob", "Zm9vYg==" },  { "fooba", "Zm9vYmE=" },
	{ "foobar", "Zm9vYmFy" },
};

int main(void)
{
	strbuf sb = STRBUF_INIT;
	unsigned char raw[64];
	char enc[4];
	size_t i;

	for (i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		strbuf e = STRBUF_INIT;
		long n;
		b64_encode(&e, (const unsigned char *)vectors[i].plain, strlen(vectors[i].plain));
		CHECK(strcmp(e.data ? e.data : "", vectors[i].encoded) == 0);
		n = b64_decode(raw, sizeof raw, vectors[i].encoded);
		CHECK(n == (long)strlen(vectors[i].plain));
		CHECK(memcmp(raw, vectors[i].plain, (size_t)n) == 0);
		sb_release(&e);
	}
	CHECK(b64_decode(raw, sizeof raw, "Zm9=v") == -1);
	CHECK(b64_decode(raw, sizeof raw, "Zm=vYg==") == -1);

	CHECK(utf8_length("na\xc3\xafve caf\xc3\xa9") == 10);
	CHECK(utf8_length("\xf0\x9f\x98\x80") == 1);
	CHECK(utf8_length("\xc0\xaf") == -1);	  /* overlong '/' */
	CHECK(utf8_length("\xed\xa0\x80") == -1); /* a surrogate */
	CHECK(utf8_encode(enc, 0x20AC) == 3 && memcmp(enc, "\xe2\x82\xac", 3) == 0);
	CHECK(utf8_encode(enc, 0x110000) == -1);

	sb_add(&sb, "x=");
	sb_add(&sb, 42);
	sb_add(&sb, ", y=");
	sb_add(&sb, 2.5);
	sb_add(&sb, ", z=");
	sb_add(&sb, 7ul);
	sb_printf(&sb, " (%zu bytes so far)", sb.len);
	printf("%s\n", sb.data);
	for (i = 0; i < 1000; i++)
		sb_append(&sb, "0123456789", 10);
	printf("len %zu, cap %zu\n", sb.len, sb.cap);
	free(sb_detach(&sb));
	printf("%d failure(s)\n", failures);
	return failures != 0;
}
