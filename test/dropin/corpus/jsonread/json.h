/* json.h - a tiny JSON reader: parses a document into a tree of values.
 * No dependencies beyond the C library; C99.
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>

typedef enum { false, true } bool;

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
};

struct json_value {
	enum json_type type;
	union {
		bool boolean;
		double number;
		struct {
			char *chars;
			size_t len;
		} string;
		struct {
			struct json_value **items;
			char **keys; /* objects only */
			size_t len;
		} list;
	} u;
};

struct json_error {
	size_t offset;
	int line, column;
	const char *what;
};

struct json_value *json_parse(const char *text, size_t len, struct json_error *err);
void json_free(struct json_value *v);

struct json_value *json_get(const struct json_value *object, const char *key);
struct json_value *json_at(const struct json_value *array, size_t index);
bool json_is(const struct json_value *v, enum json_type type);

/* Writes v compactly; returns the number of bytes written to out (at most cap-1, NUL-terminated)
 * or the number that would have been written. */
size_t json_write(const struct json_value *v, char *out, size_t cap);

#endif
