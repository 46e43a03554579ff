/*
 * Unit tests for sanitize.c, the gate between packet text and the terminal.
 *
 * Besides the exact expected strings, the property tests run sanitize() and
 * json_escape_controls() over every single byte, every Unicode scalar value
 * and thousands of pseudo-random byte strings, and check each result with
 * a UTF-8 checker written independently of the decoder under test.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>

#include "sanitize.h"

#define FFFD		"\xef\xbf\xbd"
#define RANDOM_ROUNDS	5000
#define RANDOM_MAX_LEN	96

/* The literal's own length, so that embedded NULs are part of the input. */
#define CHECK(input, expected) \
	check_sanitized((input), sizeof(input) - 1, (expected))
#define CHECK_JSON(input, expected) \
	check_json((input), (expected))

static void
check_sanitized(const char *input, size_t len, const char *expected)
{
	char	*output;

	output = sanitize(input, len);
	assert_non_null(output);
	assert_string_equal(output, expected);
	free(output);
}

static void
check_json(const char *input, const char *expected)
{
	char	*output;

	output = json_escape_controls(input);
	assert_non_null(output);
	assert_string_equal(output, expected);
	free(output);
}

static void
check_width(const char *input, size_t expected)
{
	assert_int_equal(sanitized_width(input), expected);
}

/*
 * Independent checker.  Unlike sanitize.c, which narrows the allowed range
 * of the second byte, this decodes by the length the lead byte declares and
 * then rejects overlong values, surrogates and values above U+10FFFF.
 * Returns 0 when text is not valid UTF-8.
 */
static int
next_code_point(const unsigned char *text, size_t *offset, uint32_t *value)
{
	static const uint32_t	minimum[4] = { 0, 0x80, 0x800, 0x10000 };
	unsigned char		lead = text[*offset];
	uint32_t		v;
	int			extra, i;

	if ((lead & 0x80) == 0) {
		extra = 0;
		v = lead;
	} else if ((lead & 0xe0) == 0xc0) {
		extra = 1;
		v = lead & 0x1f;
	} else if ((lead & 0xf0) == 0xe0) {
		extra = 2;
		v = lead & 0x0f;
	} else if ((lead & 0xf8) == 0xf0) {
		extra = 3;
		v = lead & 0x07;
	} else
		return (0);
	for (i = 1; i <= extra; i++) {
		/* Stops at the terminating NUL, which is not 10xxxxxx. */
		if ((text[*offset + i] & 0xc0) != 0x80)
			return (0);
		v = (v << 6) | (text[*offset + i] & 0x3f);
	}
	if (v < minimum[extra] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return (0);
	*offset += extra + 1;
	*value = v;
	return (1);
}

/*
 * What the sanitizer must escape besides C0 controls, asked of ICU directly
 * (not of a second hand list, nor of the sanitizer's own wrapper): DEL,
 * C1 controls, and every default-ignorable, Cf, Zl, Zp or bidi control.
 */
static int
is_dangerous(uint32_t v)
{
	int8_t type = u_charType((UChar32)v);

	return (v == 0x7f || (v >= 0x80 && v <= 0x9f) ||
	    type == U_FORMAT_CHAR || type == U_LINE_SEPARATOR ||
	    type == U_PARAGRAPH_SEPARATOR ||
	    u_hasBinaryProperty((UChar32)v, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
	    u_hasBinaryProperty((UChar32)v, UCHAR_BIDI_CONTROL));
}

/* Valid UTF-8 holding no C0, DEL, C1, bidirectional or invisible character. */
static void
assert_terminal_safe(const char *output)
{
	const unsigned char	*text = (const unsigned char *)output;
	size_t			 offset = 0;
	uint32_t		 v;

	while (text[offset] != '\0') {
		if (!next_code_point(text, &offset, &v))
			fail_msg("invalid UTF-8 at byte %zu of \"%s\"", offset,
			    output);
		if (v < 0x20 || is_dangerous(v))
			fail_msg("U+%04X in \"%s\"", (unsigned int)v, output);
	}
}

/* The same for JSON, where cJSON's tab and newline indentation is fine. */
static void
assert_json_safe(const char *output)
{
	const unsigned char	*text = (const unsigned char *)output;
	size_t			 offset = 0;
	uint32_t		 v;

	while (text[offset] != '\0') {
		if (!next_code_point(text, &offset, &v))
			fail_msg("invalid UTF-8 at byte %zu", offset);
		if ((v < 0x20 && v != '\t' && v != '\n') || is_dangerous(v))
			fail_msg("U+%04X in JSON output", (unsigned int)v);
	}
}

/* Encodes one scalar value; returns its length. */
static size_t
encode_utf8(uint32_t v, char *out)
{
	if (v < 0x80) {
		out[0] = (char)v;
		return (1);
	}
	if (v < 0x800) {
		out[0] = (char)(0xc0 | (v >> 6));
		out[1] = (char)(0x80 | (v & 0x3f));
		return (2);
	}
	if (v < 0x10000) {
		out[0] = (char)(0xe0 | (v >> 12));
		out[1] = (char)(0x80 | ((v >> 6) & 0x3f));
		out[2] = (char)(0x80 | (v & 0x3f));
		return (3);
	}
	out[0] = (char)(0xf0 | (v >> 18));
	out[1] = (char)(0x80 | ((v >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((v >> 6) & 0x3f));
	out[3] = (char)(0x80 | (v & 0x3f));
	return (4);
}

/* xorshift32: the same sequence on every platform, unlike rand(). */
static uint32_t
next_random(uint32_t *state)
{
	uint32_t	x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return (x);
}

/*
 * Fills buffer with a string that mixes random bytes with the pieces an
 * attacker would actually use, whole or cut short, so that encoded C1 and
 * bidirectional characters turn up often.  Returns the length.
 */
static size_t
random_string(uint32_t *state, unsigned char *buffer, size_t size)
{
	static const char *const	pieces[] = {
		"\x1b[2J", "\x1b]52;c;", "\x07", "\r", "\b", "\x7f",
		"\xc2\x9b", "\xc2\x9d", "\xc2\x85", "\xe2\x80\xae",
		"\xe2\x81\xa6", "\xe2\x81\xa9", "\xe2\x80\x8b", "\xef\xbb\xbf",
		"\xd8\x9c", "\xe2\x80\xa8", "\xc3\xa9", "\xe6\x97\xa5",
		"\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xed\xa0\x80",
		"\xc0\xaf", "\xe0\x80\x80", "\xf4\x90\x80\x80", "\x9b",
		"\xf5", "\xff", FFFD,
	};
	const size_t			 piece_count =
	    sizeof pieces / sizeof pieces[0];
	size_t				 len = 0, target, piece_len;
	const char			*piece;
	uint32_t			 r;

	target = next_random(state) % size;
	while (len < target) {
		r = next_random(state);
		switch (r % 4) {
		case 0:
			buffer[len++] = (unsigned char)(r >> 8);
			break;
		case 1:
			buffer[len++] = (unsigned char)(0x20 + (r >> 8) % 95);
			break;
		default:
			piece = pieces[(r >> 8) % piece_count];
			piece_len = strlen(piece);
			/* Sometimes cut short, to make truncated sequences. */
			if ((r >> 20) % 4 == 0)
				piece_len = (r >> 24) % (piece_len + 1);
			if (piece_len > size - len)
				piece_len = size - len;
			memcpy(buffer + len, piece, piece_len);
			len += piece_len;
			break;
		}
	}
	return (len);
}

static void
test_escape_sequences(void **state)
{
	(void)state;
	CHECK("\x1b[2J", "\\e[2J");
	CHECK("\x1b[31mred\x1b[0m", "\\e[31mred\\e[0m");
	CHECK("\x1b]0;x\x07", "\\e]0;x^G");
	CHECK("\x1b]52;c;cm0gLXJmIH4K\x07", "\\e]52;c;cm0gLXJmIH4K^G");
	CHECK("\x1bPq#0;2;0;0;0\x1b\\", "\\ePq#0;2;0;0;0\\e\\");
	CHECK("\x1b", "\\e");
}

static void
test_c1_controls(void **state)
{
	(void)state;
	/* Encoded as UTF-8: C2 9B is CSI to a UTF-8 terminal. */
	CHECK("\xc2\x9b" "2J", "<U+009B>2J");
	CHECK("\xc2\x9d" "0;x\xc2\x9c", "<U+009D>0;x<U+009C>");
	CHECK("\xc2\x80", "<U+0080>");
	CHECK("\xc2\x85", "<U+0085>");
	CHECK("\xc2\x9f", "<U+009F>");
	/* Neighbours of the C1 range pass through. */
	CHECK("\xc2\xa0", "\xc2\xa0");
	CHECK("~", "~");
	/* Raw bytes: CSI to an 8-bit terminal, so never passed through. */
	CHECK("\x9b" "2J", FFFD "2J");
	CHECK("\x9d" "0;x\x07", FFFD "0;x^G");
	CHECK("\x80", FFFD);
}

static void
test_overwrite_controls(void **state)
{
	(void)state;
	CHECK("REJECT\rAPPROVE", "REJECT^MAPPROVE");
	CHECK("APPROVE\b\b\b\b\b\b\bREJECT", "APPROVE^H^H^H^H^H^H^HREJECT");
	CHECK("line\nnext\tcol\v\f", "line^Jnext^Icol^K^L");
	CHECK("\x7f", "^?");
	CHECK("a\x7f" "b", "a^?b");
}

static void
test_all_c0_controls(void **state)
{
	static const char	carets[] = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_";
	char			input, expected[3], *output;
	int			c;

	(void)state;
	for (c = 0; c < 0x20; c++) {
		input = (char)c;
		if (c == 0x1b)
			strcpy(expected, "\\e");
		else {
			expected[0] = '^';
			expected[1] = carets[c];
			expected[2] = '\0';
		}
		output = sanitize(&input, 1);
		assert_non_null(output);
		assert_string_equal(output, expected);
		free(output);
	}
}

static void
test_bidi_and_invisible(void **state)
{
	(void)state;
	CHECK("\xe2\x80\xae" "evil", "<U+202E>evil");
	CHECK("\xe2\x81\xa6" "x" "\xe2\x81\xa9", "<U+2066>x<U+2069>");
	CHECK("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
	    "<U+202A><U+202B><U+202C><U+202D>");
	CHECK("\xe2\x81\xa7\xe2\x81\xa8", "<U+2067><U+2068>");
	CHECK("\xd8\x9c", "<U+061C>");
	CHECK("\xe2\x80\x8e\xe2\x80\x8f", "<U+200E><U+200F>");
	CHECK("\xe2\x80\xa8\xe2\x80\xa9", "<U+2028><U+2029>");
	/* Zero-width characters. */
	CHECK("AP" "\xe2\x80\x8b" "PROVE", "AP<U+200B>PROVE");
	CHECK("\xe2\x80\x8c\xe2\x80\x8d", "<U+200C><U+200D>");
	CHECK("\xe2\x81\xa0", "<U+2060>");
	CHECK("\xef\xbb\xbf" "text", "<U+FEFF>text");
	/* Invisible yet carrying text: a hidden sentence in tag characters
	   ("Hi" as U+E0048 U+E0069), Hangul fillers, the Mongolian vowel
	   separator. */
	CHECK("ok" "\xf3\xa0\x81\x88\xf3\xa0\x81\xa9",
	    "ok<U+E0048><U+E0069>");
	CHECK("\xf3\xa0\x80\x80\xf3\xa0\x81\xbf", "<U+E0000><U+E007F>");
	CHECK("\xe3\x85\xa4\xef\xbe\xa0\xe1\xa0\x8e",
	    "<U+3164><U+FFA0><U+180E>");
	/* A soft hyphen, Hangul choseong and jungseong fillers, deprecated
	   format controls, interlinear annotation marks. */
	CHECK("AP" "\xc2\xad" "PROVE", "AP<U+00AD>PROVE");
	CHECK("\xe1\x85\x9f\xe1\x85\xa0", "<U+115F><U+1160>");
	CHECK("\xe2\x81\xaa\xe2\x81\xaf", "<U+206A><U+206F>");
	CHECK("\xef\xbf\xb9\xef\xbf\xbb", "<U+FFF9><U+FFFB>");
	/*
	 * What the old hand list missed and ICU knows: the combining
	 * grapheme joiner, Mongolian free variation selectors, variation
	 * selectors (VS16 makes "root" another name), their supplement.
	 */
	CHECK("ro\xcd\x8fot", "ro<U+034F>ot");
	CHECK("\xe1\xa0\x8b\xe1\xa0\x8d", "<U+180B><U+180D>");
	CHECK("root\xef\xb8\x8f", "root<U+FE0F>");
	CHECK("\xf3\xa0\x84\x80\xf3\xa0\x87\xaf", "<U+E0100><U+E01EF>");
	/* Unassigned, yet reserved default-ignorable (U+E0000-U+E0FFF). */
	CHECK("\xf3\xa0\x82\x80", "<U+E0080>");
	/* Just outside the ranges. */
	CHECK("\xe2\x80\x8a", "\xe2\x80\x8a");
	CHECK("\xe2\x80\xaf", "\xe2\x80\xaf");
	CHECK("\xe2\x81\xb0", "\xe2\x81\xb0");
	CHECK("\xef\xbf\xbc", "\xef\xbf\xbc");
	CHECK("\xc2\xae", "\xc2\xae");
}

static void
test_nul_and_length(void **state)
{
	(void)state;
	CHECK("a\0b", "a^@b");
	CHECK("\0", "^@");
	check_sanitized("abc", 2, "ab");
	check_sanitized("abc", 0, "");
	check_sanitized(NULL, 0, "");
	/* The length cuts a character short: truncated, hence U+FFFD. */
	check_sanitized("\xc3\xa9", 1, FFFD);
	/* A truncated sequence before a NUL does not swallow the NUL. */
	CHECK("\xe2\x82\0x", FFFD "^@x");
}

static void
test_invalid_utf8(void **state)
{
	(void)state;
	CHECK("\x80", FFFD);
	CHECK("a\xbf" "b", "a" FFFD "b");
	CHECK("\x80\x80", FFFD FFFD);
	/* Overlong '/' and overlong NUL. */
	CHECK("\xc0\xaf", FFFD FFFD);
	CHECK("\xc0\x80", FFFD FFFD);
	CHECK("\xc1\xbf", FFFD FFFD);
	CHECK("\xe0\x80\xaf", FFFD FFFD FFFD);
	CHECK("\xe0\x9f\xbf", FFFD FFFD FFFD);
	CHECK("\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD);
	CHECK("\xf0\x8f\xbf\xbf", FFFD FFFD FFFD FFFD);
	/* Surrogates. */
	CHECK("\xed\xa0\x80", FFFD FFFD FFFD);
	CHECK("\xed\xbf\xbf", FFFD FFFD FFFD);
	/* Above U+10FFFF. */
	CHECK("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);
	CHECK("\xf5", FFFD);
	CHECK("\xf5\x80\x80\x80", FFFD FFFD FFFD FFFD);
	CHECK("\xfe\xff", FFFD FFFD);
	/* Truncated: one U+FFFD for the whole maximal subpart. */
	CHECK("\xe2\x82", FFFD);
	CHECK("x\xe2\x82", "x" FFFD);
	CHECK("\xf0\x9f\x98", FFFD);
	CHECK("\xc3", FFFD);
	CHECK("\xe2\x82" "A", FFFD "A");
	/* The ESC after a broken sequence still shows. */
	CHECK("\xe2\x82\x1b[2J", FFFD "\\e[2J");
	CHECK("\xc2\x1b", FFFD "\\e");
	/* The example sequence of Unicode section 3.9, Table 3-8. */
	CHECK("\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64",
	    "a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d");
}

static void
test_valid_text_unchanged(void **state)
{
	(void)state;
	CHECK("plain ASCII text ~!@#$%^&*()", "plain ASCII text ~!@#$%^&*()");
	CHECK("caf\xc3\xa9", "caf\xc3\xa9");
	CHECK("\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac");
	CHECK("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80");
	CHECK("e\xcc\x81", "e\xcc\x81");
	/* Boundaries of the valid ranges. */
	CHECK("\xe0\xa0\x80", "\xe0\xa0\x80");
	CHECK("\xed\x9f\xbf", "\xed\x9f\xbf");
	CHECK("\xee\x80\x80", "\xee\x80\x80");
	CHECK("\xf0\x90\x80\x80", "\xf0\x90\x80\x80");
	CHECK("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");
	CHECK(FFFD, FFFD);
	/* Backslash and caret are shown as themselves. */
	CHECK("\\e ^M <U+202E>", "\\e ^M <U+202E>");
}

static void
test_sanitize_str(void **state)
{
	char	*output;

	(void)state;
	output = sanitize_str(NULL);
	assert_non_null(output);
	assert_string_equal(output, "");
	free(output);

	output = sanitize_str("");
	assert_non_null(output);
	assert_string_equal(output, "");
	free(output);

	output = sanitize_str("ok\x1b[H\xc2\x9b");
	assert_non_null(output);
	assert_string_equal(output, "ok\\e[H<U+009B>");
	free(output);
}

/* Worst-case growth must fit the buffer; AddressSanitizer checks this. */
static void
test_worst_case_expansion(void **state)
{
	const size_t	 count = 100000;
	char		*input, *output;
	size_t		 i;

	(void)state;
	input = malloc(2 * count);
	assert_non_null(input);

	memset(input, 0x9b, count);
	output = sanitize(input, count);
	assert_non_null(output);
	assert_int_equal(strlen(output), 3 * count);
	for (i = 0; i < count; i++)
		assert_memory_equal(output + 3 * i, FFFD, 3);
	free(output);

	for (i = 0; i < count; i++) {
		input[2 * i] = '\xc2';
		input[2 * i + 1] = '\x80';
	}
	output = sanitize(input, 2 * count);
	assert_non_null(output);
	assert_int_equal(strlen(output), 8 * count);
	for (i = 0; i < count; i++)
		assert_memory_equal(output + 8 * i, "<U+0080>", 8);
	free(output);

	memset(input, 0x7f, count);
	input[count] = '\0';
	output = json_escape_controls(input);
	assert_non_null(output);
	assert_int_equal(strlen(output), 6 * count);
	for (i = 0; i < count; i++)
		assert_memory_equal(output + 6 * i, "\\u007f", 6);
	free(output);

	free(input);
}

static void
test_widths(void **state)
{
	(void)state;
	check_width(NULL, 0);
	check_width("", 0);
	check_width("abc", 3);
	check_width("caf\xc3\xa9", 4);
	check_width("e\xcc\x81", 1);
	check_width("\xe6\x97\xa5\xe6\x9c\xac", 4);
	check_width("\xea\xb0\x80", 2);			/* U+AC00 */
	check_width("\xe3\x80\x80", 2);			/* U+3000 */
	check_width("\xe3\x80\xbf", 1);			/* U+303F */
	check_width("\xef\xbc\xa1", 2);			/* U+FF21 */
	check_width("\xef\xbd\xa1", 1);			/* U+FF61 */
	check_width("\xe1\x84\x80", 2);			/* U+1100 */
	check_width("\xf0\x9f\x98\x80", 2);		/* U+1F600 */
	check_width("\xf0\x9f\x99\x8f", 2);		/* U+1F64F */
	check_width("\xf0\x9f\x99\x90", 1);		/* U+1F650 */
	check_width("\xf0\x9f\xa4\x94", 2);		/* U+1F914 */
	check_width("\xf0\xa0\x80\x80", 2);		/* U+20000 */
	check_width("\xe2\x83\x90", 0);			/* U+20D0 */
	check_width("\xef\xb8\xa0", 0);			/* U+FE20 */
	/* East Asian Wide beyond the old hand table. */
	check_width("\xf0\x9f\x9a\x80", 2);		/* U+1F680 */
	check_width("\xf0\x9f\x8c\x80", 2);		/* U+1F300 */
	check_width("\xf0\xb0\x80\x80", 2);		/* U+30000 */
	check_width("\xe2\x8c\x9a", 2);			/* U+231A */
	check_width(FFFD, 1);
	check_width("\\e[2J", 5);
	check_width("<U+202E>", 8);
	check_width("^M", 2);
	/* Invalid bytes count one column each, like the U+FFFD shown. */
	check_width("\x9b" "a", 2);
}

static void
test_width_of_sanitized(void **state)
{
	char	*output;

	(void)state;
	output = sanitize_str("\xe6\x97\xa5\x1b[2J\xe2\x80\xae\x9b");
	assert_non_null(output);
	assert_string_equal(output, "\xe6\x97\xa5\\e[2J<U+202E>" FFFD);
	assert_int_equal(sanitized_width(output), 2 + 5 + 8 + 1);
	free(output);
}

static void
test_json_escape_controls(void **state)
{
	(void)state;
	CHECK_JSON("{\"a\":\"x\x7fy\"}", "{\"a\":\"x\\u007fy\"}");
	CHECK_JSON("{\"a\":\"\xc2\x9b" "2J\"}", "{\"a\":\"\\u009b2J\"}");
	CHECK_JSON("{\"a\":\"\xc2\x80\xc2\x9f\"}",
	    "{\"a\":\"\\u0080\\u009f\"}");
	CHECK_JSON("[\"\xe2\x80\xae" "evil\"]", "[\"\\u202eevil\"]");
	CHECK_JSON("[\"\xe2\x81\xa6\xe2\x81\xa9\"]", "[\"\\u2066\\u2069\"]");
	CHECK_JSON("[\"\xe2\x80\x8b\xef\xbb\xbf\xd8\x9c\"]",
	    "[\"\\u200b\\ufeff\\u061c\"]");
	/* Invalid UTF-8, which cJSON copies from the packet untouched. */
	CHECK_JSON("[\"\x9b" "2J\"]", "[\"\\ufffd2J\"]");
	CHECK_JSON("[\"\xed\xa0\x80\"]", "[\"\\ufffd\\ufffd\\ufffd\"]");
	CHECK_JSON("[\"\xc0\xaf\"]", "[\"\\ufffd\\ufffd\"]");
	CHECK_JSON("[\"\xe2\x82\"]", "[\"\\ufffd\"]");
	CHECK_JSON("[\"\xf5\"]", "[\"\\ufffd\"]");
	/* Valid text, cJSON's own escapes and its indentation are kept. */
	CHECK_JSON("{\n\t\"name\":\t\"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
	    "\xf0\x9f\x98\x80\"\n}",
	    "{\n\t\"name\":\t\"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
	    "\xf0\x9f\x98\x80\"\n}");
	CHECK_JSON("[\"\\u001b[2J\\r\\\\\"]", "[\"\\u001b[2J\\r\\\\\"]");
	CHECK_JSON("", "");
	CHECK_JSON(NULL, "");
	/* Never produced by cJSON, but escaped should anyone pass one. */
	CHECK_JSON("[\"\x1b[2J\r\"]", "[\"\\u001b[2J\\u000d\"]");
}

static void
test_every_single_byte(void **state)
{
	char	input, expected[8], *output;
	int	c;

	(void)state;
	for (c = 0; c < 256; c++) {
		input = (char)c;
		if (c == 0x1b)
			strcpy(expected, "\\e");
		else if (c < 0x20 || c == 0x7f)
			snprintf(expected, sizeof expected, "^%c", c ^ 0x40);
		else if (c < 0x7f)
			snprintf(expected, sizeof expected, "%c", c);
		else
			strcpy(expected, FFFD);

		output = sanitize(&input, 1);
		assert_non_null(output);
		assert_string_equal(output, expected);
		assert_terminal_safe(output);
		free(output);
	}
}

/*
 * Every scalar value: escaped exactly when it is dangerous, otherwise
 * copied byte for byte.  Surrogates cannot be valid UTF-8 and give one
 * U+FFFD per byte.
 */
static void
test_every_code_point(void **state)
{
	char		 input[5], expected[16], json[32], *output;
	size_t		 len;
	uint32_t	 v;

	(void)state;
	for (v = 0; v <= 0x10ffff; v++) {
		len = encode_utf8(v, input);
		if (v >= 0xd800 && v <= 0xdfff)
			strcpy(expected, FFFD FFFD FFFD);
		else if (v == 0x1b)
			strcpy(expected, "\\e");
		else if (v < 0x20 || v == 0x7f)
			snprintf(expected, sizeof expected, "^%c",
			    (int)(v ^ 0x40));
		else if (is_dangerous(v))
			snprintf(expected, sizeof expected, "<U+%04X>",
			    (unsigned int)v);
		else {
			memcpy(expected, input, len);
			expected[len] = '\0';
		}

		output = sanitize(input, len);
		if (output == NULL || strcmp(output, expected) != 0)
			fail_msg("U+%04X gave \"%s\", expected \"%s\"",
			    (unsigned int)v, output ? output : "(null)",
			    expected);
		free(output);

		/* NUL would end the string json_escape_controls() reads. */
		if (v == 0)
			continue;
		if (v >= 0xd800 && v <= 0xdfff)
			strcpy(json, "\\ufffd\\ufffd\\ufffd");
		else if (v == '\t' || v == '\n' ||
		    (v >= 0x20 && !is_dangerous(v))) {
			memcpy(json, input, len);
			json[len] = '\0';
		} else if (v > 0xffff)
			snprintf(json, sizeof json, "\\u%04x\\u%04x",
			    (unsigned int)(0xd800 + ((v - 0x10000) >> 10)),
			    (unsigned int)(0xdc00 + ((v - 0x10000) & 0x3ff)));
		else
			snprintf(json, sizeof json, "\\u%04x", (unsigned int)v);
		input[len] = '\0';
		output = json_escape_controls(input);
		if (output == NULL || strcmp(output, json) != 0)
			fail_msg("JSON U+%04X gave \"%s\", expected \"%s\"",
			    (unsigned int)v, output ? output : "(null)", json);
		free(output);
	}
}

static void
test_random_strings(void **state)
{
	unsigned char	 input[RANDOM_MAX_LEN + 1];
	char		*output, *again;
	uint32_t	 seed = 0x5a17a11e;
	size_t		 len, i;
	int		 round;

	(void)state;
	for (round = 0; round < RANDOM_ROUNDS; round++) {
		len = random_string(&seed, input, RANDOM_MAX_LEN);

		output = sanitize((const char *)input, len);
		assert_non_null(output);
		assert_terminal_safe(output);
		/* Safe output is a fixed point: nothing left to escape. */
		again = sanitize_str(output);
		assert_non_null(again);
		assert_string_equal(again, output);
		free(again);
		free(output);

		/* json_escape_controls() takes a NUL-terminated string. */
		for (i = 0; i < len; i++)
			if (input[i] == '\0')
				input[i] = ' ';
		input[len] = '\0';
		output = json_escape_controls((const char *)input);
		assert_non_null(output);
		assert_json_safe(output);
		free(output);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_c1_controls),
		cmocka_unit_test(test_overwrite_controls),
		cmocka_unit_test(test_all_c0_controls),
		cmocka_unit_test(test_bidi_and_invisible),
		cmocka_unit_test(test_nul_and_length),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_valid_text_unchanged),
		cmocka_unit_test(test_sanitize_str),
		cmocka_unit_test(test_worst_case_expansion),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_width_of_sanitized),
		cmocka_unit_test(test_json_escape_controls),
		cmocka_unit_test(test_every_single_byte),
		cmocka_unit_test(test_every_code_point),
		cmocka_unit_test(test_random_strings),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
