/* jsoncheck - reads JSON documents, one per line, from a file or stdin, and
 * prints each back compactly, or the error and its position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static const char *const type_names[] = {
	[JSON_NULL] = "null",     [JSON_BOOL] = "bool",   [JSON_NUMBER] = "number",
	[JSON_STRING] = "string", [JSON_ARRAY] = "array", [JSON_OBJECT] = "object",
};

static int check_line(const char *line, size_t len, int lineno)
{
	struct json_error err;
	struct json_value *v = json_parse(line, len, &err);
	char small[16], out[512];
	size_t need;

	if (v == NULL) {
		printf("%d: error at %d:%d: %s\n", lineno, err.line, err.column,
		       err.what != NULL ? err.what : "out of memory");
		return 1;
	}
	need = json_write(v, out, sizeof out);
	printf("%d: %s %s", lineno, type_names[v->type], out);
	if (json_write(v, small, sizeof small) != need)
		printf(" (length mismatch)");
	printf("\n");
	if (json_is(v, JSON_OBJECT)) {
		struct json_value *name = json_get(v, "name");
		struct json_value *tags = json_get(v, "tags");
		if (json_is(name, JSON_STRING))
			printf("   name: %s (%zu bytes)\n", name->u.string.chars, name->u.string.len);
		for (size_t i = 0; json_at(tags, i) != NULL; i++)
			printf("   tag %zu: %s\n", i, type_names[json_at(tags, i)->type]);
	}
	json_free(v);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *in = stdin;
	char line[4096];
	int lineno = 0, errors = 0;

	if (argc > 1 && (in = fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof line, in) != NULL) {
		size_t len = strcspn(line, "\n");
		lineno++;
		if (len == 0)
			continue;
		errors += check_line(line, len, lineno);
	}
	if (in != stdin)
		fclose(in);
	printf("%d lines, %d errors\n", lineno, errors);
	return errors > 0 ? 1 : 0;
}
