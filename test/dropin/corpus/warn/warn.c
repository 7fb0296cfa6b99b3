/* warn.c - a histogram tool with the kind of slips -Wall -Wextra catch.
 * Every warning here is deliberate: the drop-in test compares gcc's warning
 * text with what the compiler under test prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bucket {
	char tag;	/* -Wpadded: 7 bytes of padding follow */
	long count;
	short width;
};

struct options {
	int bins;
	int verbose;
	const char *title;
};

static int unused_helper(int x)	/* -Wunused-function */
{
	return x * 2;
}

static int classify(int value, int bins, int flags)	/* flags: -Wunused-parameter */
{
	int scratch;	/* -Wunused-variable */
	int b = value % bins;

	switch (b) {
	case 0:
		b = 1;	/* -Wimplicit-fallthrough */
	case 1:
		b++;
		break;
	default:
		break;
	}
	return b;
}

int main(int argc, char **argv)
{
	struct options o = { 8, 0 };	/* -Wmissing-field-initializers */
	struct bucket h[8];
	unsigned n = 0;
	int i;

	memset(h, 0, sizeof h);
	for (i = 1; i < argc; i++) {
		int v = atoi(argv[i]);
		if (v < n)	/* -Wsign-compare */
			n = v;
		h[classify(v, o.bins, 0) % 8].count++;
	}
	for (i = 0; i < o.bins; i++)
		printf("%d: %d\n", i, h[i].count);	/* -Wformat */
	if (o.title = NULL)	/* -Wparentheses */
		puts("untitled");
	return 0;
}
