/* lt_io.c - the POSIX parts of lt: a spool file made with mkstemp, large-file
 * offsets, popen of sort(1), localtime_r.  All of them are declared only
 * because of the feature macros below, which must come before any header. */
#define _XOPEN_SOURCE 700
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "lt.h"

/* off_t must be 64 bits wide whatever the platform's default. */
typedef char lt_off_t_is_64_bits[sizeof(off_t) == 8 ? 1 : -1];

FILE *lt_spool(char *path_out, size_t path_size)
{
	const char *dir = getenv("TMPDIR");
	int fd;
	FILE *fp;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((size_t)snprintf(path_out, path_size, "%s/lt-spool-XXXXXX", dir) >= path_size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkstemp(path_out);
	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "w+");
	if (fp == NULL) {
		close(fd);
		unlink(path_out);
	}
	return fp;
}

/* The byte offset where line number `line` (1-based) starts, -1 if none. */
long long lt_offset_of_line(FILE *fp, long line)
{
	long n = 1;
	int c;

	if (fseeko(fp, 0, SEEK_SET) != 0)
		return -1;
	while (n < line && (c = getc(fp)) != EOF)
		if (c == '\n')
			n++;
	if (n < line)
		return -1;
	return (long long)ftello(fp);
}

int lt_sort_through(FILE *spool, FILE *out)
{
	char cmd[64], buf[512];
	FILE *p;
	int status;

	fflush(spool);
	if (fseeko(spool, 0, SEEK_SET) != 0)
		return -1;
	/* sort reads the spool through its descriptor: no shell quoting needed. */
	snprintf(cmd, sizeof cmd, "LC_ALL=C sort <&%d", fileno(spool));
	p = popen(cmd, "r");
	if (p == NULL)
		return -1;
	while (fgets(buf, sizeof buf, p) != NULL)
		fputs(buf, out);
	status = pclose(p);
	return status == 0 ? 0 : -1;
}

int lt_format_stamp(long stamp, char *buf, size_t size)
{
	time_t t = (time_t)stamp;
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return -1;
	return strftime(buf, size, "%Y-%m-%d %H:%M:%S %a", &tm) > 0 ? 0 : -1;
}
