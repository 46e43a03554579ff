/*
 * A one-pass, non-allocating check for the plain JSON objects countersign
 * writes itself (audit records), so that `audit verify` need not build a
 * cJSON tree for each of a million records.
 *
 * It is a filter in front of json_parse_strict(), never a replacement:
 * it answers "certainly accepted" or "not certain", and anything unusual
 * (an escape in a key, a number with an exponent, a surrogate escape,
 * deep nesting, a wide object) is "not certain", so that the strict
 * parser, with its exact messages, decides.  Every rule below is one of
 * json_parse_strict()'s, only narrower; the fuzz target fuzz_json_strict
 * checks that nothing accepted here is refused there.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "json_lex.h"
#include "json_strict.h"
#include "utf8.h"

/* Far below cJSON's limit of 1000; audit records nest four levels. */
#define QUICK_DEPTH_MAX 32
/* Keys are compared pairwise: beyond this many, let the strict parser. */
#define QUICK_KEYS_MAX 32
/* cJSON reads a number through a 64-byte buffer: longer ones fail there. */
#define QUICK_NUMBER_MAX 63

struct scan {
	const unsigned char *text;
	size_t len;
	size_t at;
	bool loose;		/* white space between tokens, or a byte from DEL up */
};

struct span {
	const unsigned char *start;
	size_t len;
};

/*
 * Printable ASCII that stands for itself inside a string.  DEL stands for
 * itself too, but is taken on the slower path, which notes it (loose).
 */
static bool plain_byte[256];

static void
plain_bytes_init(void)
{
	int c;

	for (c = 0x20; c < 0x7f; c++)
		plain_byte[c] = c != '"' && c != '\\';
}

/*
 * Whether the eight bytes at p are all plain_byte[]s, tested at once: most
 * of a record is the text of long strings (digests, reasons, a packet's
 * own), which a byte at a time took a third of an export.  Each term is
 * exact about whether some byte has its property: a byte below 0x20, one
 * from DEL up (a carry out of 0xff only comes from a byte that has it),
 * a '"', a '\\'.
 */
static inline bool
plain_word(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
	uint64_t x, quote, slash;

	memcpy(&x, p, sizeof x);
	quote = x ^ (ones * '"');
	slash = x ^ (ones * '\\');
	return ((((x - ones * 0x20) & ~x) | (x + ones) | x |
	    ((quote - ones) & ~quote) | ((slash - ones) & ~slash)) &
	    highs) == 0;
}

/* Every token of every record passes here: kept inline, in place. */
static inline void
skip_space(struct scan *sc)
{
	if (sc->at >= sc->len || !json_lex_is_space((char)sc->text[sc->at]))
		return;
	sc->loose = true;
	do
		sc->at++;
	while (sc->at < sc->len && json_lex_is_space((char)sc->text[sc->at]));
}

/* A \uXXXX escape at sc->at, which is the 'u'. */
static bool
scan_unicode_escape(struct scan *sc)
{
	int value;

	if (sc->len - sc->at < 5 || (value = json_lex_hex4((const char *)
	    sc->text + sc->at + 1)) < 0)
		return false;
	/* \u0000 is refused; surrogate pairs are left to the strict parser. */
	if (value == 0 || (value >= 0xd800 && value <= 0xdfff))
		return false;
	sc->at += 5;
	return true;
}

/* A run of plain bytes from at: the index of the first other, or len. */
static inline size_t
plain_run(const unsigned char *text, size_t len, size_t at)
{
	while (len - at >= 8 && plain_word(text + at))
		at += 8;
	while (at < len && plain_byte[text[at]])
		at++;
	return at;
}

/*
 * The rest of scan_string() from text[at], a byte that is not plain: an
 * escape, DEL, non-ASCII text or the end.  Apart, so that the call for a
 * plain string, nearly every one, stays small.
 */
static bool
scan_string_rest(struct scan *sc, struct span *raw, bool *escaped,
    size_t at)
{
	const unsigned char *text = sc->text;
	size_t len = sc->len;
	uint32_t cp;
	int n;

	for (;; at = plain_run(text, len, at)) {
		if (at >= len)
			return false;
		if (text[at] == '"')
			break;
		if (text[at] == '\\') {
			*escaped = true;
			if (at + 1 >= len)
				return false;
			if (text[at + 1] == 'u') {
				sc->at = at + 1;
				if (!scan_unicode_escape(sc))
					return false;
				at = sc->at;
			} else if (strchr("\"\\/bfnrt", text[at + 1]) != NULL &&
			    text[at + 1] != '\0')
				at += 2;
			else
				return false;
			continue;
		}
		sc->loose = true;
		if (text[at] == 0x7f) {
			at++;
			continue;
		}
		if (text[at] < 0x80)
			return false;	/* a raw control character */
		if ((n = utf8_next(text + at, len - at, &cp)) < 0)
			return false;
		at += (size_t)n;
	}
	raw->len = (size_t)(text + at - raw->start);
	sc->at = at + 1;
	return true;
}

/*
 * The string starting at the '"' at sc->at; *escaped says whether it held
 * an escape, so that its raw bytes are not its value.
 */
static inline bool
scan_string(struct scan *sc, struct span *raw, bool *escaped)
{
	size_t at = plain_run(sc->text, sc->len, sc->at + 1);

	*escaped = false;
	raw->start = sc->text + sc->at + 1;
	if (at < sc->len && sc->text[at] == '"') {
		raw->len = (size_t)(sc->text + at - raw->start);
		sc->at = at + 1;
		return true;
	}
	return scan_string_rest(sc, raw, escaped, at);
}

/* An RFC 8259 number without an exponent (those may not be finite). */
static bool
scan_number(struct scan *sc)
{
	size_t end = json_number_end((const char *)sc->text, sc->len, sc->at),
	    i;

	if (end == 0 || end - sc->at > QUICK_NUMBER_MAX)
		return false;
	for (i = sc->at; i < end; i++) {
		if (sc->text[i] == 'e' || sc->text[i] == 'E')
			return false;
	}
	sc->at = end;
	return true;
}

static bool
scan_literal(struct scan *sc, const char *word)
{
	size_t n = strlen(word);

	if (sc->len - sc->at < n || memcmp(sc->text + sc->at, word, n) != 0)
		return false;
	sc->at += n;
	return true;
}

/*
 * Spelt exactly alike, as json_parse_strict() compares keys.  Inline:
 * most keys differ in length or in their first byte, and a call to
 * memcmp() per pair cost more than the comparison.
 */
static bool
same_key(const struct span *a, const struct span *b)
{
	size_t i;

	if (a->len != b->len)
		return false;
	for (i = 0; i < a->len; i++) {
		if (a->start[i] != b->start[i])
			return false;
	}
	return true;
}

/* Steps over '{' or '['; true if closer follows at once. */
static bool
opens_empty(struct scan *sc, char closer)
{
	sc->at++;
	skip_space(sc);
	if (sc->at < sc->len && sc->text[sc->at] == (unsigned char)closer) {
		sc->at++;
		return true;
	}
	return false;
}

/* After a member or element: 1 the closer, 0 a ',' and more, -1 neither. */
static int
after_member(struct scan *sc, char closer)
{
	skip_space(sc);
	if (sc->at >= sc->len)
		return -1;
	if (sc->text[sc->at] == (unsigned char)closer) {
		sc->at++;
		return 1;
	}
	if (sc->text[sc->at] != ',')
		return -1;
	sc->at++;
	skip_space(sc);
	return 0;
}

static bool scan_value(struct scan *, int depth, struct span *string,
    bool *is_string);

/*
 * The object at sc->at.  At the top (wanted != NULL) the wanted members'
 * string values are noted.
 */
static bool
scan_object(struct scan *sc, int depth, struct json_wanted *wanted,
    size_t wanted_count)
{
	struct span keys[QUICK_KEYS_MAX], value;
	size_t count = 0, i;
	bool escaped, is_string;
	int next;

	if (opens_empty(sc, '}'))
		return true;
	for (;;) {
		if (sc->at >= sc->len || sc->text[sc->at] != '"' ||
		    count == QUICK_KEYS_MAX)
			return false;
		if (!scan_string(sc, &keys[count], &escaped) || escaped)
			return false;
		for (i = 0; i < count; i++)
			if (same_key(&keys[i], &keys[count]))
				return false;
		skip_space(sc);
		if (sc->at >= sc->len || sc->text[sc->at] != ':')
			return false;
		sc->at++;
		skip_space(sc);
		if (!scan_value(sc, depth + 1, &value, &is_string))
			return false;
		for (i = 0; i < wanted_count; i++) {
			if (strncmp(wanted[i].key, (const char *)
			    keys[count].start, keys[count].len) != 0 ||
			    wanted[i].key[keys[count].len] != '\0')
				continue;
			/* An escaped value is not its raw bytes. */
			if (is_string && value.start == NULL)
				return false;
			if (is_string) {
				wanted[i].value = (const char *)value.start;
				wanted[i].length = value.len;
			}
		}
		count++;
		if ((next = after_member(sc, '}')) != 0)
			return next > 0;
	}
}

static bool
scan_array(struct scan *sc, int depth)
{
	struct span ignored;
	bool is_string;
	int next;

	if (opens_empty(sc, ']'))
		return true;
	for (;;) {
		if (!scan_value(sc, depth + 1, &ignored, &is_string))
			return false;
		if ((next = after_member(sc, ']')) != 0)
			return next > 0;
	}
}

/*
 * The value at sc->at.  For a string, *string is its raw bytes, or has a
 * NULL start when it held an escape.
 */
static bool
scan_value(struct scan *sc, int depth, struct span *string, bool *is_string)
{
	bool escaped;

	*is_string = false;
	if (sc->at >= sc->len || depth > QUICK_DEPTH_MAX)
		return false;
	switch (sc->text[sc->at]) {
	case '"':
		*is_string = true;
		if (!scan_string(sc, string, &escaped))
			return false;
		if (escaped)
			string->start = NULL;
		return true;
	case '{':
		return scan_object(sc, depth, NULL, 0);
	case '[':
		return scan_array(sc, depth);
	case 't':
		return scan_literal(sc, "true");
	case 'f':
		return scan_literal(sc, "false");
	case 'n':
		return scan_literal(sc, "null");
	default:
		return scan_number(sc);
	}
}

/* json_object_quick(), and whether the text was loose (struct scan). */
static bool
object_quick(const char *text, size_t len, struct json_wanted *wanted,
    size_t wanted_count, bool *loose)
{
	struct scan sc = { (const unsigned char *)text, len, 0, false };
	size_t i;

	if (!plain_byte['a'])
		plain_bytes_init();
	for (i = 0; i < wanted_count; i++) {
		wanted[i].value = NULL;
		wanted[i].length = 0;
	}
	skip_space(&sc);
	if (sc.at < len && sc.text[sc.at] == '{' &&
	    scan_object(&sc, 0, wanted, wanted_count)) {
		skip_space(&sc);
		*loose = sc.loose;
		if (sc.at == len)
			return true;
	}
	/* Nothing found in text that may not be JSON at all. */
	for (i = 0; i < wanted_count; i++) {
		wanted[i].value = NULL;
		wanted[i].length = 0;
	}
	return false;
}

bool
json_object_quick(const char *text, size_t len, struct json_wanted *wanted,
    size_t wanted_count)
{
	bool loose;

	return object_quick(text, len, wanted, wanted_count, &loose);
}

bool
json_object_quick_compact(const char *text, size_t len, bool *compact)
{
	bool loose = true;
	bool certain = object_quick(text, len, NULL, 0, &loose);

	*compact = certain && !loose;
	return certain;
}
