/* lt_main.c - lt: filter, number and optionally sort the lines of a file.
 *
 *   lt [-i] [-s] [-t STAMP] [PATTERN] < input
 *
 * strcasestr and asprintf are GNU extensions: _GNU_SOURCE comes first.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt.h"

#if 0
The spool file is there so that we can seek: a pipe can't be re-read, that's
why.  We'd rather not keep a line's worth of pointers for a huge input.
#endif

static int keep(const struct lt_opts *o, const char *line)
{
	if (o->pattern == NULL)
		return 1;
	if (o->ignore_case)
		return strcasestr(line, o->pattern) != NULL;
	return strstr(line, o->pattern) != NULL;
}

int lt_run(const struct lt_opts *opts, FILE *in, FILE *out)
{
	char path[256], stamp[64];
	char *line = NULL, *header = NULL;
	size_t cap = 0;
	ssize_t len;
	long kept = 0, seen = 0;
	FILE *spool = lt_spool(path, sizeof path);
	int rc = 0;

	if (spool == NULL) {
		fprintf(stderr, "lt: spool: %s\n", strerror(errno));
		return 1;
	}
	unlink(path);
	if (opts->stamp >= 0 && lt_format_stamp(opts->stamp, stamp, sizeof stamp) == 0) {
		if (asprintf(&header, "# lt at %s, pattern %s%s\n", stamp,
			     opts->pattern ? opts->pattern : "(none)",
			     opts->ignore_case ? " (any case)" : "") < 0)
			header = NULL;
	}
	while ((len = getline(&line, &cap, in)) != -1) {
		seen++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!keep(opts, line))
			continue;
		kept++;
		fprintf(spool, "%s\t%ld\n", line, seen);
	}
	free(line);
	if (header != NULL) {
		fputs(header, out);
		free(header);
	}
	if (opts->sort) {
		if (lt_sort_through(spool, out) != 0) {
			fprintf(stderr, "lt: sort failed\n");
			rc = 1;
		}
	} else {
		char *copy = NULL;
		size_t ccap = 0;
		fseeko(spool, 0, SEEK_SET);
		while (getline(&copy, &ccap, spool) != -1)
			fputs(copy, out);
		free(copy);
	}
	if (kept > 1) {
		long long off = lt_offset_of_line(spool, kept);
		fprintf(out, "# %ld of %ld lines kept; the last starts at byte %lld of the spool\n",
			kept, seen, off);
	} else {
		fprintf(out, "# %ld of %ld lines kept\n", kept, seen);
	}
	fclose(spool);
	return rc;
}

int main(int argc, char **argv)
{
	struct lt_opts o = { NULL, 0, 0, -1 };
	int c;

	while ((c = getopt(argc, argv, "ist:")) != -1) {
		switch (c) {
		case 'i':
			o.ignore_case = 1;
			break;
		case 's':
			o.sort = 1;
			break;
		case 't':
			o.stamp = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: lt [-i] [-s] [-t STAMP] [PATTERN]\n");
			return 2;
		}
	}
	if (optind < argc)
		o.pattern = argv[optind];
	return lt_run(&o, stdin, stdout);
}
