/*
 * Helpers shared by the fuzz targets (tests/fuzz/fuzz_*.c): a NUL-terminated
 * copy of the input, and an independent oracle for "nothing here can control
 * a terminal" (SPEC 9, include/sanitize.h).  The oracle decodes UTF-8 itself
 * rather than through src/domain/utf8.c, so a bug there cannot hide a bug in
 * the sanitizer it serves.
 *
 * Include after config.h.
 */
#ifndef COUNTERSIGN_FUZZ_COMMON_H
#define COUNTERSIGN_FUZZ_COMMON_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <unicode/uchar.h>


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of data[0..size); aborts when out of memory. */
static inline char *
fuzz_copy(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);

	if (copy == NULL)
		abort();
	if (size > 0)
		memcpy(copy, data, size);
	copy[size] = '\0';
	return copy;
}

/* Prints what broke an invariant (with the offending text) and aborts. */
static inline void
fuzz_fail(const char *what, const char *text, size_t len, size_t at)
{
	size_t i, from = at > 32 ? at - 32 : 0, to = at + 32 < len ? at + 32 :
	    len;

	fprintf(stderr, "\n*** INVARIANT BROKEN: %s (byte %zu of %zu)\n",
	    what, at, len);
	fprintf(stderr, "*** bytes %zu..%zu:", from, to);
	for (i = from; i < to; i++)
		fprintf(stderr, " %02x", (unsigned char)text[i]);
	fprintf(stderr, "\n");
	abort();
}

/*
 * One code point from s[0..len) by RFC 3629 (no overlong forms, no
 * surrogates, nothing above U+10FFFF); returns its length, or 0 when the
 * bytes there are not well-formed UTF-8.
 */
static inline size_t
fuzz_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t need, i;
	uint32_t v;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		need = 1;
		v = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		need = 2;
		v = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		need = 3;
		v = s[0] & 0x07;
	} else
		return 0;
	if (need >= len)
		return 0;
	for (i = 1; i <= need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if ((need == 1 && v < 0x80) || (need == 2 && v < 0x800) ||
	    (need == 3 && v < 0x10000) || v > 0x10FFFF ||
	    (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return need + 1;
}

/*
 * Code points a terminal obeys or that reorder or hide text: C0 controls,
 * DEL, C1 controls (U+0080-U+009F: U+009B is CSI, U+009D is OSC), and,
 * asked of ICU directly rather than of a second hand list, every
 * default-ignorable code point, format character (Cf), line or paragraph
 * separator and bidi control (SPEC 9's U+202A-U+202E, U+2066-U+2069).
 */
static inline bool
fuzz_is_terminal_control(uint32_t cp)
{
	int8_t type;

	if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F))
		return true;
	type = u_charType((UChar32)cp);
	return type == U_FORMAT_CHAR || type == U_LINE_SEPARATOR ||
	    type == U_PARAGRAPH_SEPARATOR ||
	    u_hasBinaryProperty((UChar32)cp,
	    UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
	    u_hasBinaryProperty((UChar32)cp, UCHAR_BIDI_CONTROL);
}

/*
 * Aborts unless text[0..len) is well-formed UTF-8 holding no terminal
 * control; tab and newline are allowed when allow_tab_newline.  what names
 * the function whose output this is.
 */
static inline void
fuzz_assert_terminal_safe(const char *what, const char *text, size_t len,
    bool allow_tab_newline)
{
	const unsigned char *s = (const unsigned char *)text;
	char message[256];
	size_t at = 0, n;
	uint32_t cp;

	while (at < len) {
		n = fuzz_utf8_decode(s + at, len - at, &cp);
		if (n == 0) {
			snprintf(message, sizeof message,
			    "%s: output is not valid UTF-8", what);
			fuzz_fail(message, text, len, at);
		}
		if (fuzz_is_terminal_control(cp) && !(allow_tab_newline &&
		    (cp == '\t' || cp == '\n'))) {
			snprintf(message, sizeof message,
			    "%s: output holds terminal control U+%04X", what,
			    (unsigned)cp);
			fuzz_fail(message, text, len, at);
		}
		at += n;
	}
}

/*
 * a and b hold the same values with members in the same order (printing
 * and parsing keep the order).  Numbers are equal as cJSON's printer
 * promises: within DBL_EPSILON, relatively.  Not cJSON_Compare(): in
 * cJSON 1.7.15 it compares every object member twice, which costs 2^depth
 * on nested objects (tests/fuzz/crashes/README.md).
 */
static inline bool
fuzz_json_equal(const cJSON *a, const cJSON *b)
{
	double x, y;

	for (;;) {
		if (a == NULL || b == NULL)
			return a == b;
		if ((a->type & 0xFF) != (b->type & 0xFF))
			return false;
		if ((a->string == NULL) != (b->string == NULL) ||
		    (a->string != NULL && strcmp(a->string, b->string) != 0))
			return false;
		if (cJSON_IsNumber(a)) {
			x = a->valuedouble;
			y = b->valuedouble;
			if (fabs(x - y) > fmax(fabs(x), fabs(y)) * DBL_EPSILON)
				return false;
		}
		if (cJSON_IsString(a) && strcmp(a->valuestring,
		    b->valuestring) != 0)
			return false;
		if ((cJSON_IsArray(a) || cJSON_IsObject(a)) &&
		    !fuzz_json_equal(a->child, b->child))
			return false;
		a = a->next;
		b = b->next;
	}
}

#endif
