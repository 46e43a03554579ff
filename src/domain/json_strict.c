/* Strict parsing on top of cJSON; see json_strict.h for what is refused. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "json_strict.h"
#include "sanitize.h"
#include "text.h"
#include "utf8.h"

#define PATH_SIZE 256

static int
check_bytes(const char *text, size_t len, size_t *where, struct error *err)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;
	uint32_t cp;
	int n;

	while (i < len) {
		if (s[i] != '\0' && s[i] < 0x80) {
			i++;	/* ASCII, nearly all of it: no decoding needed */
			continue;
		}
		if (s[i] == '\0') {
			*where = i;
			return error_set(err, EXIT_DATA, NULL,
			    "a NUL byte is not allowed");
		}
		n = utf8_next(s + i, len - i, &cp);
		if (n < 0) {
			*where = i;
			return error_set(err, EXIT_DATA, NULL,
			    "invalid UTF-8 at byte %zu", i);
		}
		i += (size_t)n;
	}
	return 0;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

size_t
json_number_end(const char *text, size_t len, size_t i)
{
	if (text[i] == '-')
		i++;
	if (i < len && text[i] == '0')
		i++;
	else if (i < len && text[i] >= '1' && text[i] <= '9')
		while (i < len && is_digit(text[i]))
			i++;
	else
		return 0;
	if (i < len && text[i] == '.') {
		if (++i >= len || !is_digit(text[i]))
			return 0;
		while (i < len && is_digit(text[i]))
			i++;
	}
	if (i < len && (text[i] == 'e' || text[i] == 'E')) {
		i++;
		if (i < len && (text[i] == '+' || text[i] == '-'))
			i++;
		if (i >= len || !is_digit(text[i]))
			return 0;
		while (i < len && is_digit(text[i]))
			i++;
	}
	/* "01" or "1.5.2" must not pass as two tokens. */
	if (i < len && (is_digit(text[i]) || text[i] == '.' ||
	    text[i] == 'e' || text[i] == 'E' || text[i] == '+' ||
	    text[i] == '-'))
		return 0;
	return i;
}

/*
 * What cJSON 1.7.15 lets through and RFC 8259 does not: control bytes
 * between tokens (cJSON skips every byte <= 0x20), raw control characters
 * inside strings, numbers such as 01 and 1. that strtod reads anyway, and
 * \u0000, which cJSON decodes and then ends the C string at, so that
 * "approved\u0000 rejected" would read as "approved".  Structure, literals
 * and the rest of each escape are left to cJSON.
 */
/* cJSON's own limit; saying so is clearer than its "malformed JSON". */
#define NESTING_MAX 1000

static int
check_lexical(const char *text, size_t len, size_t *where, struct error *err)
{
	size_t i = 0, end, depth = 0;
	unsigned char c;

	/* A file that is not JSON at all deserves to be told so. */
	while (i < len && strchr(" \t\r\n", text[i]) != NULL)
		i++;
	if (i < len && strchr("{[\"-0123456789tfn", text[i]) == NULL) {
		*where = i;
		return error_set(err, EXIT_DATA, NULL,
		    "this is not JSON (it starts with '%c')",
		    (unsigned char)text[i] >= 0x20 &&
		    (unsigned char)text[i] < 0x7f ? text[i] : '?');
	}
	i = 0;
	while (i < len) {
		c = (unsigned char)text[i];
		if (c == '"') {
			for (i++; i < len && text[i] != '"'; i++) {
				c = (unsigned char)text[i];
				if (c < 0x20) {
					*where = i;
					return error_set(err, EXIT_DATA, NULL,
					    "a control character inside a "
					    "string must be escaped");
				}
				if (c != '\\' || i + 1 >= len)
					continue;
				/*
				 * cJSON decodes a \u not followed by four hex
				 * digits ("\uZZZZ") as U+0000, and so ends the
				 * string there, as \u0000 would.
				 */
				if (text[i + 1] == 'u' && (i + 5 >= len ||
				    !is_hex(text[i + 2]) || !is_hex(text[i + 3]) ||
				    !is_hex(text[i + 4]) || !is_hex(text[i + 5]))) {
					*where = i;
					return error_set(err, EXIT_DATA, NULL,
					    "the escape \\u must be followed by "
					    "four hexadecimal digits");
				}
				if (text[i + 1] == 'u' &&
				    memcmp(text + i + 2, "0000", 4) == 0) {
					*where = i;
					return error_set(err, EXIT_DATA, NULL,
					    "the escape \\u0000 (NUL) is not "
					    "allowed in a string");
				}
				i++;	/* the escaped character, maybe '\\' */
			}
			i++;
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
		} else if (c == '{' || c == '[') {
			if (++depth > NESTING_MAX) {
				*where = i;
				return error_set(err, EXIT_DATA, NULL,
				    "nested deeper than %d levels", NESTING_MAX);
			}
			i++;
		} else if (c == '}' || c == ']') {
			if (depth > 0)
				depth--;
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			*where = i;
			return error_set(err, EXIT_DATA, NULL,
			    "control byte 0x%02x outside a string", c);
		} else if (c == '-' || is_digit((char)c)) {
			if ((end = json_number_end(text, len, i)) == 0) {
				*where = i;
				return error_set(err, EXIT_DATA, NULL,
				    "malformed number at byte %zu", i);
			}
			i = end;
		} else
			i++;
	}
	return 0;
}

static int
compare_names(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	for (; *x != '\0' && *y != '\0'; x++, y++) {
		int cx = (unsigned char)*x, cy = (unsigned char)*y;

		if (cx >= 'A' && cx <= 'Z')
			cx += 'a' - 'A';
		if (cy >= 'A' && cy <= 'Z')
			cy += 'a' - 'A';
		if (cx != cy)
			return cx - cy;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

/*
 * Where a value sits, as a chain up to the root; rendered as a dotted
 * path ("a.b[2].c") only when there is an error to report, since
 * formatting a path for every node of every packet costs more than the
 * checks themselves.
 */
struct path_node {
	const struct path_node *parent;
	const char *key;		/* NULL for an array element */
	size_t index;
};

static void
render_path(const struct path_node *node, char *buf, size_t size)
{
	char tail[PATH_SIZE];

	if (node == NULL) {
		buf[0] = '\0';
		return;
	}
	render_path(node->parent, buf, size);
	if (node->key != NULL)
		snprintf(tail, sizeof tail, "%s%s", buf[0] != '\0' ? "." : "",
		    node->key);
	else
		snprintf(tail, sizeof tail, "[%zu]", node->index);
	strncat(buf, tail, size - strlen(buf) - 1);
}

/*
 * Keys equal but for case are refused along with exact duplicates: a
 * reader that ignores case (cJSON_GetObjectItem does) would otherwise see
 * a different value from the one the checks saw.
 */
static int
check_keys(const cJSON *object, const struct path_node *at, struct error *err)
{
	const cJSON *child;
	const char *small[16], **names = small;
	size_t count = 0, i;
	char field[PATH_SIZE];
	struct path_node node = { at, NULL, 0 };
	int rc = 0;

	for (child = object->child; child != NULL; child = child->next)
		count++;
	if (count < 2)
		return 0;
	if (count > sizeof small / sizeof small[0]) {
		names = malloc(count * sizeof *names);
		if (names == NULL)
			return error_set(err, EXIT_DATA, NULL, "out of memory");
	}
	i = 0;
	for (child = object->child; child != NULL; child = child->next)
		names[i++] = child->string;
	qsort(names, count, sizeof *names, compare_names);
	for (i = 1; i < count; i++) {
		if (compare_names(&names[i - 1], &names[i]) == 0) {
			node.key = names[i];
			render_path(&node, field, sizeof field);
			rc = error_set(err, EXIT_DATA, field,
			    strcmp(names[i - 1], names[i]) == 0 ?
			    "duplicate key" :
			    "duplicate key (differs only in case)");
			break;
		}
	}
	if (names != small)
		free(names);
	return rc;
}

static int
check_tree(const cJSON *item, const struct path_node *at, struct error *err)
{
	const cJSON *child;
	struct path_node node = { at, NULL, 0 };
	char field[PATH_SIZE];
	int rc;

	if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) {
		render_path(at, field, sizeof field);
		return error_set(err, EXIT_DATA, field,
		    "number is out of range (not finite)");
	}
	if (cJSON_IsObject(item) && (rc = check_keys(item, at, err)) != 0)
		return rc;
	for (child = item->child; child != NULL; child = child->next) {
		if (cJSON_IsObject(item))
			node.key = child->string;
		if ((rc = check_tree(child, &node, err)) != 0)
			return rc;
		node.index++;
	}
	return 0;
}

cJSON *
json_parse_strict(const char *text, size_t len, size_t *error_offset,
    struct error *err)
{
	cJSON *json;

	/*
	 * Most input is a plain object the one-pass check vouches for: then
	 * the byte, lexical and tree checks cannot refuse it, and their
	 * three passes are skipped.
	 */
	if (json_object_quick(text, len, NULL, 0) &&
	    (json = cJSON_ParseWithLengthOpts(text, len, NULL, 0)) != NULL) {
		if (error_offset != NULL)
			*error_offset = 0;
		return json;
	}
	return json_parse_strict_full(text, len, error_offset, err);
}

cJSON *
json_parse_strict_full(const char *text, size_t len, size_t *error_offset,
    struct error *err)
{
	const char *end = NULL;
	size_t where = 0, i;
	cJSON *json;

	if (error_offset != NULL)
		*error_offset = 0;
	if (check_bytes(text, len, &where, err) != 0 ||
	    check_lexical(text, len, &where, err) != 0) {
		if (error_offset != NULL)
			*error_offset = where;
		return NULL;
	}
	json = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (json == NULL) {
		where = end != NULL && end >= text ? (size_t)(end - text) : 0;
		if (where > len)
			where = len;
		if (error_offset != NULL)
			*error_offset = where;
		if (where >= len)
			error_set(err, EXIT_DATA, NULL,
			    "malformed JSON (truncated or empty)");
		else
			error_set(err, EXIT_DATA, NULL,
			    "malformed JSON at byte %zu", where);
		return NULL;
	}
	for (i = (size_t)(end - text); i < len; i++) {
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
		    text[i] != '\r') {
			if (error_offset != NULL)
				*error_offset = i;
			error_set(err, EXIT_DATA, NULL,
			    "unexpected text after the JSON value at byte %zu", i);
			cJSON_Delete(json);
			return NULL;
		}
	}
	if (check_tree(json, NULL, err) != 0) {
		cJSON_Delete(json);
		return NULL;
	}
	return json;
}

char *
json_print(const cJSON *json)
{
	char *raw, *safe;

	raw = cJSON_PrintUnformatted(json);
	if (raw == NULL)
		return NULL;
	safe = json_escape_controls(raw);
	cJSON_free(raw);
	return safe;
}

bool
json_equal(const cJSON *a, const cJSON *b)
{
	const cJSON *x, *y;
	int count_a = 0, count_b = 0;

	if (a == NULL || b == NULL)
		return a == b;
	if ((a->type & 0xFF) != (b->type & 0xFF))
		return false;
	if (cJSON_IsNumber(a))
		return a->valuedouble == b->valuedouble;
	if (cJSON_IsString(a))
		return strcmp(a->valuestring, b->valuestring) == 0;
	if (cJSON_IsArray(a)) {
		for (x = a->child, y = b->child; x != NULL && y != NULL;
		    x = x->next, y = y->next) {
			if (!json_equal(x, y))
				return false;
		}
		return x == NULL && y == NULL;
	}
	if (!cJSON_IsObject(a))
		return true;	/* null, true, false: the type said it all */
	/* Keys are unique (json_parse_strict), so equal counts and each
	 * key of a found in b, equal, is equality; each value once. */
	for (x = a->child; x != NULL; x = x->next)
		count_a++;
	for (y = b->child; y != NULL; y = y->next)
		count_b++;
	if (count_a != count_b)
		return false;
	for (x = a->child; x != NULL; x = x->next) {
		y = cJSON_GetObjectItemCaseSensitive(b, x->string);
		if (y == NULL || !json_equal(x, y))
			return false;
	}
	return true;
}
