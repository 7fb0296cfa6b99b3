/* json.c - recursive descent JSON reader, see json.h. */
#include "json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200

struct parser {
	const char *text;
	size_t len, pos;
	int depth;
	struct json_error *err;
};

static struct json_value *parse_value(struct parser *p);

static bool fail(struct parser *p, const char *what)
{
	if (p->err != NULL && p->err->what == NULL) {
		int line = 1, column = 1;
		for (size_t i = 0; i < p->pos && i < p->len; i++) {
			if (p->text[i] == '\n') {
				line++;
				column = 1;
			} else {
				column++;
			}
		}
		p->err->offset = p->pos;
		p->err->line = line;
		p->err->column = column;
		p->err->what = what;
	}
	return false;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->text[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static bool literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);
	if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
		return fail(p, "invalid literal");
	p->pos += n;
	return true;
}

static struct json_value *new_value(enum json_type type)
{
	struct json_value *v = calloc(1, sizeof *v);
	if (v != NULL)
		v->type = type;
	return v;
}

static int hex4(const char *s)
{
	int n = 0;
	for (int i = 0; i < 4; i++) {
		int c = s[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		n = n * 16 + d;
	}
	return n;
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static char *parse_string_raw(struct parser *p, size_t *out_len)
{
	/* The decoded string is never longer than its escaped form. */
	size_t start = ++p->pos, n = 0;
	char *buf;

	while (p->pos < p->len && p->text[p->pos] != '"') {
		if (p->text[p->pos] == '\\')
			p->pos++;
		p->pos++;
	}
	if (p->pos >= p->len) {
		fail(p, "unterminated string");
		return NULL;
	}
	buf = malloc(p->pos - start + 1);
	if (buf == NULL)
		return NULL;
	for (size_t i = start; i < p->pos; i++) {
		char c = p->text[i];
		if ((unsigned char)c < 0x20) {
			p->pos = i;
			free(buf);
			fail(p, "control character in string");
			return NULL;
		}
		if (c != '\\') {
			buf[n++] = c;
			continue;
		}
		c = p->text[++i];
		switch (c) {
		case '"': case '\\': case '/': buf[n++] = c; break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u': {
			int cp = i + 4 < p->pos ? hex4(p->text + i + 1) : -1;
			if (cp < 0) {
				p->pos = i;
				free(buf);
				fail(p, "bad \\u escape");
				return NULL;
			}
			i += 4;
			n += put_utf8(buf + n, (uint32_t)cp);
			break;
		}
		default:
			p->pos = i;
			free(buf);
			fail(p, "bad escape");
			return NULL;
		}
	}
	buf[n] = '\0';
	p->pos++;
	*out_len = n;
	return buf;
}

static struct json_value *parse_number(struct parser *p)
{
	const char *s = p->text + p->pos;
	char tmp[64];
	size_t n = 0;
	struct json_value *v;

	while (p->pos + n < p->len && n < sizeof tmp - 1 && strchr("+-0123456789.eE", s[n]) != NULL)
		n++;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	char *end;
	double d = strtod(tmp, &end);
	if (n == 0 || end != tmp + n || !isfinite(d)) {
		fail(p, "bad number");
		return NULL;
	}
	p->pos += n;
	v = new_value(JSON_NUMBER);
	if (v != NULL)
		v->u.number = d;
	return v;
}

static bool push(struct json_value *list, struct json_value *item, char *key)
{
	size_t n = list->u.list.len + 1;
	struct json_value **items = realloc(list->u.list.items, n * sizeof *items);
	if (items == NULL)
		return false;
	list->u.list.items = items;
	if (list->type == JSON_OBJECT) {
		char **keys = realloc(list->u.list.keys, n * sizeof *keys);
		if (keys == NULL)
			return false;
		list->u.list.keys = keys;
		keys[n - 1] = key;
	}
	items[n - 1] = item;
	list->u.list.len = n;
	return true;
}

static struct json_value *parse_list(struct parser *p, enum json_type type, char close)
{
	struct json_value *v = new_value(type);

	if (v == NULL)
		return NULL;
	if (++p->depth > MAX_DEPTH) {
		fail(p, "nesting too deep");
		goto error;
	}
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->text[p->pos] == close) {
		p->pos++;
		p->depth--;
		return v;
	}
	for (;;) {
		char *key = NULL;
		size_t key_len;
		struct json_value *item;

		skip_ws(p);
		if (type == JSON_OBJECT) {
			if (p->pos >= p->len || p->text[p->pos] != '"') {
				fail(p, "expected a key");
				goto error;
			}
			key = parse_string_raw(p, &key_len);
			if (key == NULL)
				goto error;
			skip_ws(p);
			if (p->pos >= p->len || p->text[p->pos] != ':') {
				free(key);
				fail(p, "expected ':'");
				goto error;
			}
			p->pos++;
		}
		item = parse_value(p);
		if (item == NULL || !push(v, item, key)) {
			free(key);
			json_free(item);
			goto error;
		}
		skip_ws(p);
		if (p->pos < p->len && p->text[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->text[p->pos] == close) {
			p->pos++;
			break;
		}
		fail(p, type == JSON_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
		goto error;
	}
	p->depth--;
	return v;
error:
	json_free(v);
	return NULL;
}

static struct json_value *parse_value(struct parser *p)
{
	struct json_value *v;

	skip_ws(p);
	if (p->pos >= p->len) {
		fail(p, "unexpected end of input");
		return NULL;
	}
	switch (p->text[p->pos]) {
	case 'n':
		return literal(p, "null") ? new_value(JSON_NULL) : NULL;
	case 't':
	case 'f': {
		bool b = p->text[p->pos] == 't';
		if (!literal(p, b ? "true" : "false"))
			return NULL;
		v = new_value(JSON_BOOL);
		if (v != NULL)
			v->u.boolean = b;
		return v;
	}
	case '"': {
		size_t len;
		char *s = parse_string_raw(p, &len);
		if (s == NULL)
			return NULL;
		v = new_value(JSON_STRING);
		if (v == NULL) {
			free(s);
			return NULL;
		}
		v->u.string.chars = s;
		v->u.string.len = len;
		return v;
	}
	case '[':
		return parse_list(p, JSON_ARRAY, ']');
	case '{':
		return parse_list(p, JSON_OBJECT, '}');
	default:
		return parse_number(p);
	}
}

struct json_value *json_parse(const char *text, size_t len, struct json_error *err)
{
	struct parser p = { .text = text, .len = len, .err = err };
	struct json_value *v;

	if (err != NULL)
		*err = (struct json_error){ 0, 0, 0, NULL };
	v = parse_value(&p);
	if (v == NULL)
		return NULL;
	skip_ws(&p);
	if (p.pos != p.len) {
		fail(&p, "trailing characters");
		json_free(v);
		return NULL;
	}
	return v;
}

void json_free(struct json_value *v)
{
	if (v == NULL)
		return;
	if (v->type == JSON_STRING)
		free(v->u.string.chars);
	if (v->type == JSON_ARRAY || v->type == JSON_OBJECT) {
		for (size_t i = 0; i < v->u.list.len; i++) {
			json_free(v->u.list.items[i]);
			if (v->u.list.keys != NULL)
				free(v->u.list.keys[i]);
		}
		free(v->u.list.items);
		free(v->u.list.keys);
	}
	free(v);
}

bool json_is(const struct json_value *v, enum json_type type)
{
	return v != NULL && v->type == type;
}

struct json_value *json_get(const struct json_value *object, const char *key)
{
	if (!json_is(object, JSON_OBJECT))
		return NULL;
	for (size_t i = object->u.list.len; i-- > 0;)
		if (strcmp(object->u.list.keys[i], key) == 0)
			return object->u.list.items[i];
	return NULL;
}

struct json_value *json_at(const struct json_value *array, size_t index)
{
	if (!json_is(array, JSON_ARRAY) || index >= array->u.list.len)
		return NULL;
	return array->u.list.items[index];
}

struct out {
	char *buf;
	size_t cap, n;
};

static void emit(struct out *o, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++, o->n++)
		if (o->n + 1 < o->cap)
			o->buf[o->n] = s[i];
}

static void emit_string(struct out *o, const char *s, size_t len)
{
	emit(o, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			emit(o, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof esc, "\\u%04x", c);
			emit(o, esc, 6);
		} else {
			emit(o, (const char *)&s[i], 1);
		}
	}
	emit(o, "\"", 1);
}

static void write_value(struct out *o, const struct json_value *v)
{
	char num[32];

	switch (v->type) {
	case JSON_NULL:
		emit(o, "null", 4);
		break;
	case JSON_BOOL:
		if (v->u.boolean)
			emit(o, "true", 4);
		else
			emit(o, "false", 5);
		break;
	case JSON_NUMBER:
		emit(o, num, (size_t)snprintf(num, sizeof num, "%.17g", v->u.number));
		break;
	case JSON_STRING:
		emit_string(o, v->u.string.chars, v->u.string.len);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		emit(o, v->type == JSON_ARRAY ? "[" : "{", 1);
		for (size_t i = 0; i < v->u.list.len; i++) {
			if (i > 0)
				emit(o, ",", 1);
			if (v->type == JSON_OBJECT) {
				emit_string(o, v->u.list.keys[i], strlen(v->u.list.keys[i]));
				emit(o, ":", 1);
			}
			write_value(o, v->u.list.items[i]);
		}
		emit(o, v->type == JSON_ARRAY ? "]" : "}", 1);
		break;
	}
}

size_t json_write(const struct json_value *v, char *out, size_t cap)
{
	struct out o = { out, cap, 0 };

	write_value(&o, v);
	if (cap > 0)
		out[o.n < cap ? o.n : cap - 1] = '\0';
	return o.n;
}
