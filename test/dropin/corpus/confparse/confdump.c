/* confdump - print a configuration file the way conf.c understood it. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>

#include "conf.h"

static const char usage[] = "usage: confdump FILE [SECTION KEY]\n";

int main(int argc, char **argv)
{
	struct conf c;
	const struct conf_entry *e;
	double timeout;
	long workers;
	int verbose;

	if (argc != 2 && argc != 4) {
		fputs(usage, stderr);
		return 2;
	}
	conf_init(&c);
	if (conf_parse_file(&c, argv[1]) != 0) {
		fprintf(stderr, "confdump: %s\n", c.errmsg);
		conf_free(&c);
		return 1;
	}
	if (argc == 4) {
		const char *v = conf_get(&c, argv[2], argv[3]);
		if (v == NULL) {
			fprintf(stderr, "confdump: [%s] %s: not set\n", argv[2], argv[3]);
			conf_free(&c);
			return 1;
		}
		printf("%s\n", v);
		conf_free(&c);
		return 0;
	}
	for (e = c.head; e != NULL; e = e->next)
		printf("%d: [%s] %s = <%s>\n", e->line, e->section, e->key, e->value);
	timeout = conf_get_seconds(&c, "server", "timeout", 30.0);
	workers = conf_get_long(&c, "server", "workers", 1);
	verbose = conf_get_bool(&c, "global", "verbose", 0);
	printf("%zu entries; timeout %.3f s, %ld workers, verbose %s\n", c.count, timeout, workers,
	       verbose ? "yes" : "no");
	conf_free(&c);
	return 0;
}
