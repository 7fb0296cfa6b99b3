/* conf.c - see conf.h.
 *
 * getline() and strdup() are POSIX 2008; ask for them before any header.
 */
#define _POSIX_C_SOURCE 200809L

#include "conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if 0
Notes on the format: there's no line continuation, and that's on purpose.
Nobody's config needs them, and they'd make error positions harder to read.
A repeated key isn't an error: the last one wins (it's what git does).
#endif

void conf_init(struct conf *c)
{
	c->head = NULL;
	c->tail = &c->head;
	c->count = 0;
	c->errmsg[0] = '\0';
}

void conf_free(struct conf *c)
{
	struct conf_entry *e = c->head;

	while (e != NULL) {
		struct conf_entry *next = e->next;
		free(e->section);
		free(e->key);
		free(e->value);
		free(e);
		e = next;
	}
	conf_init(c);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

static int add_entry(struct conf *c, const char *section, const char *key,
		     const char *value, int line)
{
	struct conf_entry *e = calloc(1, sizeof *e);

	if (e == NULL)
		return -1;
	e->section = strdup(section);
	e->key = strdup(key);
	e->value = strdup(value);
	e->line = line;
	if (e->section == NULL || e->key == NULL || e->value == NULL) {
		free(e->section);
		free(e->key);
		free(e->value);
		free(e);
		return -1;
	}
	*c->tail = e;
	c->tail = &e->next;
	c->count++;
	return 0;
}

/* Unquotes "..." in place; \" and \\ are the only escapes. */
static int unquote(char *v)
{
	char *r = v + 1, *w = v;

	while (*r != '\0' && *r != '"') {
		if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
			r++;
		*w++ = *r++;
	}
	if (*r != '"')
		return -1;
	if (*trim(r + 1) != '\0')
		return -1;
	*w = '\0';
	return 0;
}

static int parse_line(struct conf *c, char *line, int lineno, char *section,
		      size_t section_size)
{
	char *s = trim(line);
	char *eq, *key, *value;

	if (*s == '\0' || *s == '#' || *s == ';')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		size_t len;

		if (close == NULL || close[1] != '\0') {
			snprintf(c->errmsg, sizeof c->errmsg, "line %d: bad section header", lineno);
			return -1;
		}
		*close = '\0';
		s = trim(s + 1);
		len = strlen(s);
		if (len == 0 || len >= section_size) {
			snprintf(c->errmsg, sizeof c->errmsg, "line %d: bad section name", lineno);
			return -1;
		}
		memcpy(section, s, len + 1);
		return 0;
	}
	eq = strchr(s, '=');
	if (eq == NULL) {
		snprintf(c->errmsg, sizeof c->errmsg, "line %d: expected key = value", lineno);
		return -1;
	}
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	if (*key == '\0') {
		snprintf(c->errmsg, sizeof c->errmsg, "line %d: empty key", lineno);
		return -1;
	}
	if (*value == '"' && unquote(value) != 0) {
		snprintf(c->errmsg, sizeof c->errmsg, "line %d: unterminated quote", lineno);
		return -1;
	}
	if (add_entry(c, section, key, value, lineno) != 0) {
		snprintf(c->errmsg, sizeof c->errmsg, "line %d: %s", lineno, strerror(ENOMEM));
		return -1;
	}
	return 0;
}

int conf_parse_file(struct conf *c, const char *path)
{
	FILE *fp = fopen(path, "r");
	char section[64] = "global";
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, rc = 0;

	if (fp == NULL) {
		snprintf(c->errmsg, sizeof c->errmsg, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, fp) != -1) {
		lineno++;
		if (parse_line(c, line, lineno, section, sizeof section) != 0) {
			rc = -1;
			break;
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

int conf_parse_string(struct conf *c, const char *text)
{
	char section[64] = "global";
	char *copy = strdup(text), *p, *nl;
	int lineno = 0, rc = 0;

	if (copy == NULL)
		return -1;
	for (p = copy; p != NULL && *p != '\0'; p = nl) {
		nl = strchr(p, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		if (parse_line(c, p, ++lineno, section, sizeof section) != 0) {
			rc = -1;
			break;
		}
	}
	free(copy);
	return rc;
}

const char *conf_get(const struct conf *c, const char *section, const char *key)
{
	const struct conf_entry *e, *found = NULL;

	for (e = c->head; e != NULL; e = e->next)
		if (strcmp(e->section, section) == 0 && strcasecmp(e->key, key) == 0)
			found = e;
	return found != NULL ? found->value : NULL;
}

long conf_get_long(const struct conf *c, const char *section, const char *key, long dflt)
{
	const char *v = conf_get(c, section, key);
	char *end;
	long n;

	if (v == NULL)
		return dflt;
	errno = 0;
	n = strtol(v, &end, 0);
	if (errno != 0 || end == v || *end != '\0')
		return dflt;
	return n;
}

int conf_get_bool(const struct conf *c, const char *section, const char *key, int dflt)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	const char *v = conf_get(c, section, key);
	size_t i;

	if (v == NULL)
		return dflt;
	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return dflt;
}

/* "1.5", "250ms", "2m", "1h" -> seconds. */
double conf_get_seconds(const struct conf *c, const char *section, const char *key, double dflt)
{
	const char *v = conf_get(c, section, key);
	double seconds;
	char *unit;

	if (v == NULL)
		return dflt;
	seconds = strtod(v, &unit);
	if (unit == v)
		return dflt;
	if (strcmp(unit, "") == 0 || strcmp(unit, "s") == 0)
		return seconds;
	if (strcmp(unit, "ms") == 0)
		return seconds / 1000.0;
	if (strcmp(unit, "us") == 0)
		return seconds / 1e6;
	if (strcmp(unit, "m") == 0)
		return seconds * 60.0;
	if (strcmp(unit, "h") == 0)
		return seconds * 3600.0;
	return dflt;
}
