/* Strict parsing on top of cJSON; see json_strict.h for what is refused. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "json_lex.h"
#include "json_strict.h"
#include "json_writer.h"
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
				    json_lex_hex4(text + i + 2) < 0)) {
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
	return strcmp(*(const char *const *)a, *(const char *const *)b);
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
 * Only keys spelt exactly alike are duplicates (SPEC 1): every lookup of
 * input data compares names with their case (json_member(),
 * cJSON_GetObjectItemCaseSensitive()), so "authors" beside "Authors" is a
 * known field beside an unknown one, kept and ignored.  Where the data
 * itself is compared ignoring case (tickers, asset classes), the loaders
 * refuse names that differ only in case (object.c).
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
			rc = error_set(err, EXIT_DATA, field, "duplicate key");
			break;
		}
	}
	if (names != small)
		free(names);
	return rc;
}

/*
 * The number literals of the text, in order, as check_tree() meets their
 * nodes (cJSON builds a tree in the order of the text).
 */
struct number_cursor {
	const char *text;
	size_t len;
	size_t nodes;		/* number nodes check_tree() has met */
	size_t literals;	/* literals the cursor has passed */
	size_t at;		/* where the next literal is looked for */
};

/*
 * Whether the literal of the number node just met (the cursor's nodes-th)
 * has only zeros before its exponent.  The cursor moves lazily, and only
 * forward: the text is read at most once, however many nodes ask.
 */
static bool
literal_is_zero(struct number_cursor *c)
{
	size_t i = c->at, end = 0;

	for (;;) {
		while (i < c->len) {
			if (c->text[i] == '"')
				i = json_lex_string_end(c->text, c->len, i) + 1;
			else if ((c->text[i] == '-' || is_digit(c->text[i])) &&
			    (end = json_number_end(c->text, c->len, i)) != 0)
				break;
			else
				i++;
		}
		if (i >= c->len) {
			c->at = c->len;
			return true;	/* lost: never refuse on a guess */
		}
		c->at = end;
		if (++c->literals == c->nodes)
			break;
		i = end;
	}
	for (; i < end && c->text[i] != 'e' && c->text[i] != 'E'; i++) {
		if (c->text[i] >= '1' && c->text[i] <= '9')
			return false;
	}
	return true;
}

static int
check_tree(const cJSON *item, const struct path_node *at,
    struct number_cursor *numbers, struct error *err)
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
	/*
	 * -0 is 0, and the loaders take it for 0 (SPEC 1: money ">= 0"); a
	 * negative number too small for a double, such as -1e-400, reads as
	 * -0 too, and must not pass for 0.  Only -0 nodes, rare, send the
	 * cursor through the text, and it only ever moves forward.
	 */
	if (cJSON_IsNumber(item))
		numbers->nodes++;
	if (cJSON_IsNumber(item) && item->valuedouble == 0 &&
	    signbit(item->valuedouble) && !literal_is_zero(numbers)) {
		render_path(at, field, sizeof field);
		return error_set(err, EXIT_DATA, field,
		    "number is out of range (below 0, but too close to 0 "
		    "to be represented)");
	}
	if (cJSON_IsObject(item) && (rc = check_keys(item, at, err)) != 0)
		return rc;
	for (child = item->child; child != NULL; child = child->next) {
		if (cJSON_IsObject(item))
			node.key = child->string;
		if ((rc = check_tree(child, &node, numbers, err)) != 0)
			return rc;
		node.index++;
	}
	return 0;
}

/*
 * Finding a place in the text again, by a second, forgiving walk over it:
 * only when an error is reported, so that neither the parse nor the checks
 * carry positions or paths for the input that is accepted (nearly all of
 * it).  The walk reads strings, brackets, ',' and ':' and whatever lies
 * between them as one token each; it needs the text to be JSON only up to
 * the place sought, and gives up (no path) where it is not.
 */
struct walk_frame {
	bool object;
	bool want_key;		/* object: a string now would be a key */
	bool has_member;	/* the key (object) or element (array) is known */
	size_t index;		/* array: the element's index */
	size_t key_at, key_len;	/* object: the raw key, inside its quotes */
	size_t matched;		/* how much of the path sought this member
				   completes, or NO_MATCH */
};

#define NO_MATCH ((size_t)-1)

/* Beyond cJSON's limit: text nested deeper was refused before any path. */
#define WALK_DEPTH_MAX (NESTING_MAX + 1)

/* The last byte of the number, literal or stray bytes starting at text[at]. */
static size_t
token_end(const char *text, size_t len, size_t at)
{
	size_t i = at + 1;

	while (i < len && !json_lex_is_space(text[i]) && text[i] != ',' &&
	    text[i] != ':' && text[i] != '"' && text[i] != '[' &&
	    text[i] != ']' && text[i] != '{' && text[i] != '}')
		i++;
	return i - 1;
}

/* Appends bytes to buf[0..size) as far as they fit. */
static void
put_bytes(char *buf, size_t size, size_t *used, const char *bytes, size_t n)
{
	if (n > size - 1 - *used)
		n = size - 1 - *used;
	memcpy(buf + *used, bytes, n);
	*used += n;
	buf[*used] = '\0';
}

static void
put_code_point(char *buf, size_t size, size_t *used, uint32_t cp)
{
	char out[4];
	size_t n;

	if (cp < 0x80) {
		out[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		out[0] = (char)(0xf0 | cp >> 18);
		out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	put_bytes(buf, size, used, out, n);
}

/* A key's raw bytes decoded as cJSON decodes them, so paths compare. */
static void
put_key(char *buf, size_t size, size_t *used, const char *raw, size_t len)
{
	static const char plain[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
	size_t i = 0;
	int high, low;
	const char *at;

	while (i < len) {
		if (raw[i] != '\\' || i + 1 >= len) {
			put_bytes(buf, size, used, raw + i, 1);
			i++;
		} else if (raw[i + 1] != 'u') {
			at = raw[i + 1] != '\0' ? strchr(plain, raw[i + 1]) : NULL;
			if (at != NULL)
				put_bytes(buf, size, used, meant + (at - plain),
				    1);
			i += 2;
		} else if (i + 6 > len || (high = json_lex_hex4(raw + i + 2)) < 0) {
			i += 2;
		} else if (high >= 0xd800 && high <= 0xdbff && i + 12 <= len &&
		    raw[i + 6] == '\\' && raw[i + 7] == 'u' &&
		    (low = json_lex_hex4(raw + i + 8)) >= 0xdc00 && low <= 0xdfff) {
			put_code_point(buf, size, used, 0x10000 +
			    ((uint32_t)(high - 0xd800) << 10) +
			    (uint32_t)(low - 0xdc00));
			i += 12;
		} else {
			put_code_point(buf, size, used, (uint32_t)high);
			i += 6;
		}
	}
}

/* The path of the current member of each of frames[0..count). */
static bool
walk_render(const char *text, const struct walk_frame *frames, size_t count,
    char *buf, size_t size)
{
	char index[32];
	size_t used = 0, k;

	buf[0] = '\0';
	for (k = 0; k < count; k++) {
		if (!frames[k].has_member ||
		    (frames[k].object && frames[k].want_key))
			return false;
		if (frames[k].object) {
			if (used > 0)
				put_bytes(buf, size, &used, ".", 1);
			put_key(buf, size, &used, text + frames[k].key_at,
			    frames[k].key_len);
		} else {
			snprintf(index, sizeof index, "[%zu]", frames[k].index);
			put_bytes(buf, size, &used, index, strlen(index));
		}
	}
	return true;
}

/*
 * Sets frames[depth - 1].matched, now that its member is known: whether
 * the path sought, rendered as render_path() and field_path() render it,
 * goes on with this member.  Done once per member, so that a search stays
 * linear in the text however deep it nests.  A path cut at PATH_SIZE - 1
 * bytes matches whatever lies below where it was cut.
 */
static void
walk_match(const char *text, struct walk_frame *frames, size_t depth,
    const char *path, size_t path_len)
{
	struct walk_frame *top = &frames[depth - 1];
	size_t base = depth > 1 ? frames[depth - 2].matched : 0, used = 0, n;
	char piece[PATH_SIZE + 2];

	top->matched = NO_MATCH;
	if (base == NO_MATCH)
		return;
	if (top->object) {
		if (base > 0)
			put_bytes(piece, sizeof piece, &used, ".", 1);
		put_key(piece, sizeof piece, &used, text + top->key_at,
		    top->key_len);
	} else
		used = (size_t)snprintf(piece, sizeof piece, "[%zu]",
		    top->index);
	n = used < path_len - base ? used : path_len - base;
	if (memcmp(piece, path + base, n) == 0 &&
	    (n == used || path_len == PATH_SIZE - 1))
		top->matched = base + n;
}

/*
 * With path NULL: the path of the string or token that holds byte *at
 * (*in_key when that is a key: the path is then its object's), into buf.
 * With a path: *at becomes the offset of the last value so named (the
 * last, so that of two equal keys the second is found).
 */
static bool
walk(const char *text, size_t len, const char *path, size_t *at,
    bool *in_key, char *buf, size_t size)
{
	struct walk_frame *frames, *top;
	size_t depth = 0, i = 0, end, path_len = path ? strlen(path) : 0;
	bool found = false;
	char c;

	if ((frames = malloc(WALK_DEPTH_MAX * sizeof *frames)) == NULL)
		return false;
	while (i < len && (path != NULL || i <= *at)) {
		c = text[i];
		top = depth > 0 ? &frames[depth - 1] : NULL;
		if (json_lex_is_space(c)) {
			i++;
		} else if (c == ',') {
			if (top != NULL) {
				top->want_key = top->object;
				top->has_member = false;
				top->matched = NO_MATCH;
				top->index += !top->object;
			}
			i++;
		} else if (c == ':') {
			if (top != NULL && top->object)
				top->want_key = false;
			i++;
		} else if (c == '}' || c == ']') {
			depth -= depth > 0;
			i++;
		} else if (c == '"' && top != NULL && top->object &&
		    top->want_key) {
			end = json_lex_string_end(text, len, i);
			if (path == NULL && *at <= end) {
				*in_key = true;
				found = walk_render(text, frames, depth - 1,
				    buf, size);
				break;
			}
			top->key_at = i + 1;
			top->key_len = end - i - 1;
			top->has_member = true;
			if (path != NULL)
				walk_match(text, frames, depth, path, path_len);
			i = end + 1;
		} else {
			/* A value starts here. */
			if (top != NULL && !top->object) {
				top->has_member = true;
				if (path != NULL)
					walk_match(text, frames, depth, path,
					    path_len);
			}
			if (path != NULL && top != NULL && top->has_member &&
			    !top->want_key && top->matched == path_len) {
				*at = i;
				found = true;
			}
			if (c == '{' || c == '[') {
				if (depth == WALK_DEPTH_MAX)
					break;
				frames[depth].object = c == '{';
				frames[depth].want_key = c == '{';
				frames[depth].has_member = false;
				frames[depth].index = 0;
				frames[depth].matched = NO_MATCH;
				depth++;
				i++;
				continue;
			}
			end = c == '"' ? json_lex_string_end(text, len, i) :
			    token_end(text, len, i);
			if (path == NULL && *at <= end) {
				*in_key = false;
				found = walk_render(text, frames, depth, buf,
				    size) && buf[0] != '\0';
				break;
			}
			i = end + 1;
		}
	}
	free(frames);
	return found;
}

bool
json_locate(const char *text, size_t len, const char *path, size_t *offset)
{
	return path != NULL && path[0] != '\0' &&
	    strlen(path) < PATH_SIZE &&
	    walk(text, len, path, offset, NULL, NULL, 0);
}

/*
 * Names the field that holds the bad byte at where, for a refusal the
 * byte and lexical checks made without knowing it (SPEC 1: "file, line
 * and field").  A byte between tokens is left without one.
 */
static void
name_field(const char *text, size_t len, size_t where, struct error *err)
{
	char path[PATH_SIZE];
	bool in_key = false;
	size_t at = where, used;

	if (err == NULL || !walk(text, len, NULL, &at, &in_key, path,
	    sizeof path))
		return;
	if (in_key) {
		used = strlen(err->message);
		snprintf(err->message + used, sizeof err->message - used,
		    " (in a key)");
	}
	snprintf(err->field, sizeof err->field, "%s", path);
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
	struct number_cursor numbers;
	const char *end = NULL;
	size_t where = 0, i;
	cJSON *json;

	if (error_offset != NULL)
		*error_offset = 0;
	if (check_bytes(text, len, &where, err) != 0 ||
	    check_lexical(text, len, &where, err) != 0) {
		name_field(text, len, where, err);
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
	memset(&numbers, 0, sizeof numbers);
	numbers.text = text;
	numbers.len = len;
	if (check_tree(json, NULL, &numbers, err) != 0) {
		cJSON_Delete(json);
		return NULL;
	}
	return json;
}

char *
json_print(const cJSON *json)
{
	struct json_writer w;

	if (json == NULL)
		return NULL;
	json_writer_init(&w);
	json_writer_tree(&w, json);
	return json_writer_finish(&w);
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
