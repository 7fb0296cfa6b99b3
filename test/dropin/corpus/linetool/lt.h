/* lt.h - shared declarations of the lt line tool. */
#ifndef LT_H
#define LT_H

#include <stdio.h>

struct lt_opts {
	const char *pattern; /* keep lines containing it (NULL: all) */
	int ignore_case;
	int sort;            /* pipe the kept lines through sort(1) */
	long stamp;          /* a time to print in the header, seconds since the epoch */
};

/* lt_io.c */
FILE *lt_spool(char *path_out, size_t path_size);
long long lt_offset_of_line(FILE *fp, long line);
int lt_sort_through(FILE *spool, FILE *out);
int lt_format_stamp(long stamp, char *buf, size_t size);

/* lt_main.c */
int lt_run(const struct lt_opts *opts, FILE *in, FILE *out);

#endif
