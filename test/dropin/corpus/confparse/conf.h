/* conf.h - a small INI-style configuration reader.
 *
 * Sections are written [name], entries key = value, comments start with
 * '#' or ';'.  Keys are case-insensitive, values keep their case.  A value
 * may be quoted to keep leading or trailing blanks.
 */
#ifndef CONF_H
#define CONF_H

#include <stddef.h>

struct conf_entry {
	char *section;
	char *key;
	char *value;
	int line;
	struct conf_entry *next;
};

struct conf {
	struct conf_entry *head;
	struct conf_entry **tail;
	size_t count;
	char errmsg[128];
};

void conf_init(struct conf *c);
void conf_free(struct conf *c);

/* Returns 0 on success, -1 on error (c->errmsg says why and where). */
int conf_parse_file(struct conf *c, const char *path);
int conf_parse_string(struct conf *c, const char *text);

const char *conf_get(const struct conf *c, const char *section, const char *key);
long conf_get_long(const struct conf *c, const char *section, const char *key, long dflt);
int conf_get_bool(const struct conf *c, const char *section, const char *key, int dflt);
double conf_get_seconds(const struct conf *c, const char *section, const char *key, double dflt);

#endif /* CONF_H */
