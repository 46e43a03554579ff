/*
 * The first complete JSON object in raw model output (SPEC 2.2).
 *
 * Every '{' is a candidate, in order.  From a candidate we find where its
 * structure closes, honouring strings and their escapes, and hand exactly
 * that span to json_parse_strict().  A candidate whose structure never
 * closes is dropped and the search goes on from the byte after its '{',
 * so a stray brace in prose cannot hide the object that follows.  The
 * first candidate that closes is the first complete object: if it does
 * not parse (a duplicate key, 1e999, a bad escape) there is no object.
 * Searching on would take an object inside it (one of a broken verdict's
 * issues) or after it (a second, cleaner verdict) for the verdict, and
 * either can report nothing wrong where the first said otherwise.
 *
 * Model output is untrusted, so the scan must stay cheap on hostile text
 * (a megabyte of '{', unterminated strings, deep nesting).  A scan gives a
 * candidate up as soon as the span could not be JSON anyway: a byte that
 * JSON does not allow outside a string, a raw control byte inside one, a
 * bracket that closes the wrong thing, or nesting deeper than MAX_DEPTH.
 * Giving up there reaches the same answer as parsing the span would (the
 * parse would fail), but bounds the work: every live scan at a given byte
 * is at a different depth or a different string state, so no byte is
 * scanned or parsed more than about 2 * MAX_DEPTH times.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "error.h"
#include "json_extract.h"
#include "json_lex.h"
#include "json_strict.h"

/*
 * Deeper than any verdict needs (a legal review nests three levels) and
 * far below cJSON's own limit of 1000, which would make hostile input cost
 * a thousand scans per byte.
 */
#define MAX_DEPTH 32

/* The bytes RFC 8259 allows between tokens and inside literals and numbers. */
static const bool outside_string[256] = {
	[' '] = true, ['\t'] = true, ['\n'] = true, ['\r'] = true,
	[':'] = true, [','] = true, ['+'] = true, ['-'] = true, ['.'] = true,
	['0'] = true, ['1'] = true, ['2'] = true, ['3'] = true, ['4'] = true,
	['5'] = true, ['6'] = true, ['7'] = true, ['8'] = true, ['9'] = true,
	['e'] = true, ['E'] = true,
	/* true, false, null */
	['t'] = true, ['r'] = true, ['u'] = true, ['f'] = true, ['a'] = true,
	['l'] = true, ['s'] = true, ['n'] = true
};

/* After '{' comes either a key or the '}' of an empty object. */
static bool
may_open_object(const char *text, size_t len, size_t at)
{
	size_t i;

	for (i = at + 1; i < len; i++) {
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
		    text[i] != '\r')
			return text[i] == '"' || text[i] == '}';
	}
	return false;
}

/*
 * The end (one past the closing brace) of the structure opened at
 * text[start], or 0 when it never closes or cannot be JSON.
 */
static size_t
span_end(const char *text, size_t len, size_t start)
{
	char closers[MAX_DEPTH];
	size_t depth = 0, i;
	unsigned char c;

	for (i = start; i < len; i++) {
		c = (unsigned char)text[i];
		switch (c) {
		case '"':
			if ((i = json_lex_string_end_clean(text, len, i)) == len)
				return 0;
			break;
		case '{':
		case '[':
			if (depth == MAX_DEPTH)
				return 0;
			closers[depth++] = c == '{' ? '}' : ']';
			break;
		case '}':
		case ']':
			if (depth == 0 || closers[--depth] != (char)c)
				return 0;
			if (depth == 0)
				return i + 1;
			break;
		default:
			if (!outside_string[c])
				return 0;
			break;
		}
	}
	return 0;
}

cJSON *
json_first_object(const char *text, size_t len)
{
	const char *brace;
	struct error err;
	size_t at = 0, end;
	cJSON *json;

	if (text == NULL)
		return NULL;
	while (at < len && (brace = memchr(text + at, '{', len - at)) != NULL) {
		at = (size_t)(brace - text);
		if (may_open_object(text, len, at) &&
		    (end = span_end(text, len, at)) != 0) {
			json = json_parse_strict(text + at, end - at, NULL,
			    &err);
			if (cJSON_IsObject(json))
				return json;
			cJSON_Delete(json);
			return NULL;
		}
		at++;
	}
	return NULL;
}

/*
 * Valid JSON needs no stack: brackets can only close in order, so a count
 * will do; on anything else the count still ends the scan.
 */
size_t
json_value_end(const char *text, size_t len, size_t at)
{
	size_t depth = 0;

	for (; at < len; at++) {
		switch (text[at]) {
		case '"':
			if ((at = json_lex_string_end(text, len, at)) == len)
				return 0;
			if (depth == 0)
				return at + 1;
			break;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return at;	/* the object around a number */
			if (--depth == 0)
				return at + 1;
			break;
		case ',':
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			if (depth == 0)
				return at;	/* after a number or a literal */
			break;
		}
	}
	return depth == 0 ? at : 0;
}

/* Whether the key text[at..end) (quotes included) names key. */
static bool
key_is(const char *text, size_t at, size_t end, const char *key)
{
	size_t length = strlen(key);
	struct error err;
	cJSON *name;
	bool same;

	if (memchr(text + at, '\\', end - at) == NULL)
		return end - at == length + 2 &&
		    memcmp(text + at + 1, key, length) == 0;
	/* An escaped key ("reviewer\u005fverdict") names what it decodes to. */
	name = json_parse_strict(text + at, end - at, NULL, &err);
	same = cJSON_IsString(name) && strcmp(name->valuestring, key) == 0;
	cJSON_Delete(name);
	return same;
}

bool
json_member_text(const char *text, size_t len, const char *key,
    size_t *start, size_t *length)
{
	size_t at, end;

	if (text == NULL)
		return false;
	at = json_lex_skip_space(text, len, 0);
	if (at >= len || text[at] != '{')
		return false;
	for (at = json_lex_skip_space(text, len, at + 1); at < len && text[at] == '"';
	    at = json_lex_skip_space(text, len, end + 1)) {
		if ((end = json_value_end(text, len, at)) == 0)
			return false;
		if (key_is(text, at, end, key)) {
			at = json_lex_skip_space(text, len, end);
			if (at >= len || text[at] != ':')
				return false;
			at = json_lex_skip_space(text, len, at + 1);
			if ((end = json_value_end(text, len, at)) == 0 ||
			    end == at)
				return false;
			*start = at;
			*length = end - at;
			return true;
		}
		/* Past the name, the colon, the value, to the comma or '}'. */
		at = json_lex_skip_space(text, len, end);
		if (at >= len || text[at] != ':')
			return false;
		at = json_lex_skip_space(text, len, at + 1);
		if ((end = json_value_end(text, len, at)) == 0)
			return false;
		end = json_lex_skip_space(text, len, end);
		if (end >= len || text[end] != ',')
			return false;
	}
	return false;
}
