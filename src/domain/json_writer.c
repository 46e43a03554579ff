/*
 * JSON written straight into a buffer: the one printer of the program,
 * for display and records and for the canonical form digests are taken
 * over (countersign-packets(5), CANONICAL JSON).  json_print() is this.
 */
#include "config.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_lex.h"
#include "json_strict.h"
#include "json_writer.h"
#include "sanitize.h"
#include "text.h"

void
json_writer_init(struct json_writer *w)
{
	memset(w, 0, sizeof *w);
}

void
json_writer_init_canonical(struct json_writer *w, int format)
{
	json_writer_init(w);
	w->canonical = true;
	w->format = format;
}

void
json_writer_init_cjson(struct json_writer *w)
{
	json_writer_init_canonical(w, JSON_FORMAT_CURRENT);
}

/* What reserve() does when the buffer must grow, or has failed. */
static bool
reserve_more(struct json_writer *w, size_t more)
{
	size_t size;
	char *text;

	if (w->failed)
		return false;
	/* A check line or an audit record fits at once, most of them. */
	size = w->size > 0 ? w->size : 4096;
	while (size - w->length <= more) {
		if (size > ((size_t)-1) / 2) {
			w->failed = true;
			return false;
		}
		size *= 2;
	}
	if ((text = realloc(w->text, size)) == NULL) {
		w->failed = true;
		return false;
	}
	w->text = text;
	w->size = size;
	return true;
}

/*
 * Room for more bytes and a NUL; false when out of memory.  Called for
 * every piece of every line, so the common case is kept inline.
 */
static inline bool
reserve(struct json_writer *w, size_t more)
{
	if (!w->failed && w->size - w->length > more)
		return true;
	return reserve_more(w, more);
}

static void
append(struct json_writer *w, const char *bytes, size_t length)
{
	if (!reserve(w, length))
		return;
	memcpy(w->text + w->length, bytes, length);
	w->length += length;
}

/* Terminates the text without counting the NUL; false when out of memory. */
static bool
terminate(struct json_writer *w)
{
	if (!reserve(w, 1))
		return false;
	w->text[w->length] = '\0';
	return true;
}

/* The comma a value or member needs before it, if any. */
static inline void
separate(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (!w->empty[w->depth - 1] && reserve(w, 1))
		w->text[w->length++] = ',';
	w->empty[w->depth - 1] = false;
}

static void
open_container(struct json_writer *w, char opening)
{
	separate(w);
	if (w->depth == JSON_WRITER_DEPTH) {
		w->failed = true;
		return;
	}
	w->empty[w->depth++] = true;
	append(w, &opening, 1);
}

void
json_writer_object(struct json_writer *w)
{
	open_container(w, '{');
}

void
json_writer_array(struct json_writer *w)
{
	open_container(w, '[');
}

void
json_writer_end(struct json_writer *w, char closing)
{
	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	w->depth--;
	append(w, &closing, 1);
}

/* The escapes of two characters: the byte, then the letter after '\\'. */
static const char short_escapes[][2] = {
	{ '"', '"' }, { '\\', '\\' }, { '\b', 'b' }, { '\f', 'f' },
	{ '\n', 'n' }, { '\r', 'r' }, { '\t', 't' },
};

/* The escape of one byte below 0x20, '"' or '\\'. */
static size_t
escape_byte(unsigned char c, char out[7])
{
	size_t i;

	for (i = 0; i < sizeof short_escapes / sizeof short_escapes[0]; i++) {
		if ((unsigned char)short_escapes[i][0] == c) {
			out[0] = '\\';
			out[1] = short_escapes[i][1];
			return 2;
		}
	}
	snprintf(out, 7, "\\u%04x", c);
	return 6;
}

/*
 * The quoted string with the canonical escapes.  Bytes from 0x7f up are
 * copied as they are; the caller decides what else they need.
 */
static void
append_quoted(struct json_writer *w, const char *text)
{
	const unsigned char *p = (const unsigned char *)text, *run;
	char escaped[7];

	append(w, "\"", 1);
	while (*p != '\0') {
		run = p;
		while (*p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			append(w, (const char *)run, (size_t)(p - run));
		if (*p != '\0') {
			append(w, escaped, escape_byte(*p, escaped));
			p++;
		}
	}
	append(w, "\"", 1);
}

/*
 * Rare: a string with DEL or non-ASCII bytes for display or a record:
 * json_escape_controls() over the quoted string, as over a whole line.
 */
static void
append_escaped_controls(struct json_writer *w, const char *text)
{
	struct json_writer quoted;
	char *safe;

	json_writer_init(&quoted);
	append_quoted(&quoted, text);
	safe = terminate(&quoted) ? json_escape_controls(quoted.text) : NULL;
	json_writer_discard(&quoted);
	if (safe == NULL) {
		w->failed = true;
		return;
	}
	append(w, safe, strlen(safe));
	free(safe);
}

/* Bytes that go into a string as they are: printable ASCII but '"', '\\'. */
#define ROW_OF(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const bool plain_byte[256] = {
	ROW_OF(0), ROW_OF(0),				/* C0 controls */
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x22 '"' */
	ROW_OF(1), ROW_OF(1),
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,	/* 0x5c '\\' */
	ROW_OF(1),
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,	/* 0x7f DEL */
	/* 0x80 and up: zero, as the rest */
};
#undef ROW_OF

/* write_quoted() for a string that needs an escape: rare. */
static void
write_escaped(struct json_writer *w, const char *text, const char *after,
    size_t after_length)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p != '\0' && *p < 0x7f)
		p++;
	if (*p == '\0' || w->canonical)
		append_quoted(w, text);
	else
		append_escaped_controls(w, text);
	append(w, after, after_length);
}

/*
 * A quoted string, then after.  Nearly every
 * string needs no escape at all: one scan finds that out, one copy
 * writes it.  Inline: it is most of the calls a check line makes.
 */
static inline void
write_quoted(struct json_writer *w, const char *text, const char *after,
    size_t after_length)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t plain;
	char *out;

	while (plain_byte[*p])
		p++;
	if (*p != '\0') {
		write_escaped(w, text, after, after_length);
		return;
	}
	plain = (size_t)(p - (const unsigned char *)text);
	/* One reservation for the quotes, the text and what follows. */
	if (!reserve(w, plain + 2 + after_length))
		return;
	out = w->text + w->length;
	*out++ = '"';
	memcpy(out, text, plain);
	out += plain;
	*out++ = '"';
	memcpy(out, after, after_length);
	w->length += plain + 2 + after_length;
}

void
json_writer_name(struct json_writer *w, const char *name, size_t length)
{
	char *out;

	separate(w);
	w->after_key = true;
	if (!reserve(w, length + 3))
		return;
	out = w->text + w->length;
	out[0] = '"';
	memcpy(out + 1, name, length);
	out[length + 1] = '"';
	out[length + 2] = ':';
	w->length += length + 3;
}

void
json_writer_string(struct json_writer *w, const char *text)
{
	if (text == NULL) {
		json_writer_null(w);
		return;
	}
	separate(w);
	write_quoted(w, text, "", 0);
}

void
json_writer_bool(struct json_writer *w, bool value)
{
	separate(w);
	if (value)
		append(w, "true", 4);
	else
		append(w, "false", 5);
}

void
json_writer_null(struct json_writer *w)
{
	separate(w);
	append(w, "null", 4);
}

void
json_writer_integer(struct json_writer *w, long long value)
{
	char digits[TEXT_INTEGER_SIZE];

	separate(w);
	append(w, digits, text_integer(digits, value));
}

/*
 * Format 1, frozen: how numbers were printed in the digests of records
 * without a "format" (countersign-packets(5)).  15 significant digits
 * ("%1.15g") unless they do not read back within DBL_EPSILON of the
 * double, then 17; whole numbers below 10^15 as their digits, -0 as -0.
 * Kept only so that those records replay whatever else changes.
 */
static size_t
number_format1(double d, char digits[32])
{
	double back, larger;
	int length, i;
	char point;

	if (fabs(d) < 1e15 && d == (double)(long long)d) {
		if (d == 0 && signbit(d)) {
			memcpy(digits, "-0", 2);
			return 2;
		}
		return text_integer(digits, (long long)d);
	}
	length = snprintf(digits, 32, "%1.15g", d);
	back = strtod(digits, NULL);
	larger = fabs(back) > fabs(d) ? fabs(back) : fabs(d);
	if (!(fabs(back - d) <= larger * DBL_EPSILON))
		length = snprintf(digits, 32, "%1.17g", d);
	if (length <= 0 || length > 25)
		return 0;
	/* printf() writes the locale's decimal point; the form has '.'. */
	point = *localeconv()->decimal_point;
	for (i = 0; i < length; i++) {
		if (digits[i] == point)
			digits[i] = '.';
	}
	return (size_t)length;
}

/*
 * The significant digits (no trailing zeros) of the shortest "%.*e" that
 * reads back as d, and the decimal exponent of the first: d is
 * 0.DIGITS * 10^point.  The point is found by skipping what is not a
 * digit, so the locale's decimal point does not matter.
 */
static size_t
shortest_digits(double d, char digits[20], int *point)
{
	char text[40], *p;
	size_t n = 0;
	int precision;

	for (precision = 0; precision < 17; precision++) {
		snprintf(text, sizeof text, "%.*e", precision, d);
		if (strtod(text, NULL) == d)
			break;
	}
	for (p = text; *p != 'e' && *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	}
	while (n > 1 && digits[n - 1] == '0')
		n--;
	*point = (*p == 'e' ? atoi(p + 1) : 0) + 1;
	return n;
}

/*
 * The number as countersign prints it (format 2 and every line it
 * shows): 0 for both zeros; whole numbers of magnitude below 2^53 as
 * their digits; anything else in the fewest significant digits that read
 * back as the same double, placed as ECMAScript's Number#toString places
 * them: plain from 10^-6 up to below 10^21, else d[.ddd]e+N / e-N.
 */
static size_t
number_format2(double d, char out[32])
{
	char digits[20];
	size_t n, length = 0;
	int point, i;

	if (d == 0) {
		out[0] = '0';
		return 1;
	}
	if (fabs(d) < 9007199254740992.0 && d == (double)(long long)d)
		return text_integer(out, (long long)d);
	if (d < 0)
		out[length++] = '-';
	n = shortest_digits(d, digits, &point);
	if ((int)n <= point && point <= 21) {
		memcpy(out + length, digits, n);
		length += n;
		for (i = (int)n; i < point; i++)
			out[length++] = '0';
	} else if (0 < point && point <= 21) {
		memcpy(out + length, digits, (size_t)point);
		length += (size_t)point;
		out[length++] = '.';
		memcpy(out + length, digits + point, n - (size_t)point);
		length += n - (size_t)point;
	} else if (-6 < point && point <= 0) {
		out[length++] = '0';
		out[length++] = '.';
		for (i = point; i < 0; i++)
			out[length++] = '0';
		memcpy(out + length, digits, n);
		length += n;
	} else {
		out[length++] = digits[0];
		if (n > 1) {
			out[length++] = '.';
			memcpy(out + length, digits + 1, n - 1);
			length += n - 1;
		}
		length += (size_t)snprintf(out + length, 32 - length, "e%c%d",
		    point - 1 < 0 ? '-' : '+', abs(point - 1));
	}
	return length;
}

/* NaN and the infinities, which no parser makes, as null. */
static void
write_number(struct json_writer *w, double d)
{
	char digits[32];
	size_t length;

	if (isnan(d) || isinf(d)) {
		append(w, "null", 4);
		return;
	}
	length = w->canonical && w->format == JSON_FORMAT_LEGACY ?
	    number_format1(d, digits) : number_format2(d, digits);
	if (length == 0)
		w->failed = true;
	else
		append(w, digits, length);
}

/* cJSON's parser nests no deeper; a deeper tree is not ours to print. */
#define TREE_DEPTH 1000

/* One value of a tree. */
static void
write_value(struct json_writer *w, const cJSON *item, unsigned depth)
{
	const cJSON *child;
	bool object;

	switch (item->type & 0xFF) {
	case cJSON_False:
		append(w, "false", 5);
		return;
	case cJSON_True:
		append(w, "true", 4);
		return;
	case cJSON_NULL:
		append(w, "null", 4);
		return;
	case cJSON_Number:
		write_number(w, item->valuedouble);
		return;
	case cJSON_String:
		/* A string item without its string, as cJSON prints it. */
		write_quoted(w, item->valuestring != NULL ? item->valuestring :
		    "", "", 0);
		return;
	case cJSON_Array:
	case cJSON_Object:
		if (depth < TREE_DEPTH)
			break;
		/* FALLTHROUGH */
	default:
		/* Raw and invalid items, and nesting no parser gives. */
		w->failed = true;
		return;
	}
	object = (item->type & 0xFF) == cJSON_Object;
	append(w, object ? "{" : "[", 1);
	for (child = item->child; child != NULL; child = child->next) {
		if (child != item->child)
			append(w, ",", 1);
		if (object)
			write_quoted(w, child->string != NULL ? child->string :
			    "", ":", 1);
		write_value(w, child, depth + 1);
	}
	append(w, object ? "}" : "]", 1);
}

/*
 * Walked here, never printed by cJSON: what is hashed must not depend on
 * the cJSON installed, and a decision writes eleven trees into its
 * record (printing them through cJSON was a seventh of its time).
 */
void
json_writer_tree(struct json_writer *w, const cJSON *tree)
{
	if (tree == NULL) {
		json_writer_null(w);
		return;
	}
	separate(w);
	write_value(w, tree, 0);
}

void
json_writer_raw(struct json_writer *w, const char *text, size_t length)
{
	separate(w);
	append(w, text, length);
}

void
json_writer_verbatim(struct json_writer *w, const char *text, size_t length)
{
	bool ascii = true;
	char *compact, *safe;
	size_t i, n = 0, end, k;

	separate(w);
	if (w->failed)
		return;
	if ((compact = malloc(length + 1)) == NULL) {
		w->failed = true;
		return;
	}
	/* A pretty-printed packet's new lines would break the record's line. */
	for (i = 0; i < length; i++) {
		if (json_lex_is_space(text[i]))
			continue;
		/* A string, quotes included, as it is. */
		end = text[i] != '"' ? i + 1 :
		    json_lex_string_end(text, length, i) + 1;
		if (end > length)
			end = length;
		for (k = i; ascii && k < end; k++)
			ascii = (unsigned char)text[k] < 0x7f;
		memcpy(compact + n, text + i, end - i);
		n += end - i;
		i = end - 1;
	}
	compact[n] = '\0';
	/*
	 * DEL, C1 and bidi controls in its strings escaped, as in every other
	 * string of the record: the same characters, in bytes a terminal
	 * showing the record cannot act on.  Below DEL there are none.
	 */
	safe = w->canonical || ascii ? compact : json_escape_controls(compact);
	if (safe == NULL)
		w->failed = true;
	else
		append(w, safe, strlen(safe));
	if (safe != compact)
		free(safe);
	free(compact);
}

char *
json_writer_finish(struct json_writer *w)
{
	char *text;

	if (!terminate(w))
		w->failed = true;
	text = w->text;
	if (w->failed || w->depth != 0 || w->after_key || w->length == 0) {
		free(text);
		text = NULL;
	}
	memset(w, 0, sizeof *w);
	return text;
}

void
json_writer_discard(struct json_writer *w)
{
	free(w->text);
	memset(w, 0, sizeof *w);
}

const char *
json_writer_text(const struct json_writer *w, size_t *length)
{
	*length = 0;
	if (w->failed || w->depth != 0 || w->after_key || w->length == 0)
		return NULL;
	*length = w->length;
	return w->text;
}

void
json_writer_reset(struct json_writer *w)
{
	w->length = 0;
	w->failed = false;
	w->after_key = false;
	w->depth = 0;
}

char *
json_canonical(const cJSON *tree, int format)
{
	struct json_writer w;

	if (tree == NULL)
		return NULL;
	json_writer_init_canonical(&w, format);
	json_writer_tree(&w, tree);
	return json_writer_finish(&w);
}

/*
 * The walk of json_writer_tree(): as deep as cJSON parses (TREE_DEPTH),
 * not JSON_WRITER_DEPTH, which bounds only containers opened one by one.
 * The deepest message the service builds today is five levels (submit's
 * result.results[].error); one that relays a child's answer is no
 * deeper than cJSON parsed it.  Packets and records travel as strings.
 */
char *
json_message(const cJSON *message)
{
	return json_canonical(message, JSON_FORMAT_CURRENT);
}
