/*
 * Unit tests for src/domain/json_lex.c, the one scanner of strings,
 * escapes and white space: each function beside the byte-by-byte
 * definition it stands for, on fixed and random text.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "json_lex.h"

/* The definitions, byte by byte. */
static size_t
reference_end(const char *text, size_t len, size_t at, bool clean)
{
	size_t i;

	for (i = at + 1; i < len && text[i] != '"'; i++) {
		if (text[i] == '\\')
			i++;
		else if (clean && (unsigned char)text[i] < 0x20)
			return len;
	}
	return i < len ? i : len;
}

static void
assert_ends(const char *text, size_t want, size_t want_clean)
{
	size_t len = strlen(text);

	assert_int_equal(json_lex_string_end(text, len, 0), want);
	assert_int_equal(json_lex_string_end_clean(text, len, 0), want_clean);
}

static void
test_string_end(void **state)
{
	(void)state;
	assert_ends("\"\"", 1, 1);
	assert_ends("\"abc\" x", 4, 4);
	assert_ends("\"a\\\"b\"", 5, 5);
	assert_ends("\"a\\\\\"b\"", 4, 4);
	assert_ends("\"\\u0022\"", 7, 7);
	assert_ends("\"unterminated", 13, 13);
	assert_ends("\"ends in a backslash\\", 21, 21);
	assert_ends("\"escaped quote last\\\"", 21, 21);
	assert_ends("\"tab\there\"", 9, 10);
	assert_ends("\"escaped\\\ttab\"", 13, 13);
}

static void
test_string_end_random(void **state)
{
	static const char alphabet[] = "ab\"\\\t\n ";
	char text[16];
	unsigned seed = 2026;
	size_t len, i;
	int round;

	(void)state;
	for (round = 0; round < 50000; round++) {
		seed = seed * 1103515245u + 12345u;
		len = 1 + (seed >> 16) % (sizeof text - 1);
		text[0] = '"';
		for (i = 1; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			text[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		assert_int_equal(json_lex_string_end(text, len, 0),
		    reference_end(text, len, 0, false));
		assert_int_equal(json_lex_string_end_clean(text, len, 0),
		    reference_end(text, len, 0, true));
	}
}

static void
test_hex4_and_space(void **state)
{
	(void)state;
	assert_int_equal(json_lex_hex4("0000"), 0);
	assert_int_equal(json_lex_hex4("00e9"), 0xe9);
	assert_int_equal(json_lex_hex4("FFfF"), 0xffff);
	assert_int_equal(json_lex_hex4("D83d"), 0xd83d);
	assert_int_equal(json_lex_hex4("12g4"), -1);
	assert_int_equal(json_lex_hex4("12\0" "4"), -1);
	assert_int_equal(json_lex_skip_space(" \t\r\n x", 6, 0), 5);
	assert_int_equal(json_lex_skip_space("   ", 3, 1), 3);
	/* Form feed and vertical tab are not JSON's white space. */
	assert_int_equal(json_lex_skip_space("\f", 1, 0), 0);
	assert_false(json_lex_is_space('\v'));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_string_end),
		cmocka_unit_test(test_string_end_random),
		cmocka_unit_test(test_hex4_and_space),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
