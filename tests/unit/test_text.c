/*
 * Unit tests for src/domain/text.c: money and percentages read the same
 * in every locale, the printf-free rounding gives exactly what "%.2f"
 * would, and text_vformat() gives exactly what vsnprintf() gives.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "text.h"

static void
test_usd_known_values(void **state)
{
	char buf[64];

	(void)state;
	format_usd(buf, sizeof buf, 31000);
	assert_string_equal(buf, "$31,000.00");
	format_usd(buf, sizeof buf, 1234567.891);
	assert_string_equal(buf, "$1,234,567.89");
	format_usd(buf, sizeof buf, 0.125);	/* an exact tie: to even */
	assert_string_equal(buf, "$0.12");
	format_usd(buf, sizeof buf, 0.375);
	assert_string_equal(buf, "$0.38");
	format_usd(buf, sizeof buf, 1.005);	/* just below the tie */
	assert_string_equal(buf, "$1.00");
	format_usd(buf, sizeof buf, -42.5);
	assert_string_equal(buf, "-$42.50");
	format_usd(buf, sizeof buf, 0);
	assert_string_equal(buf, "$0.00");
	format_usd(buf, sizeof buf, 123456789012.345);
	assert_string_equal(buf, "$123,456,789,012.35");
}

static void
test_percent_known_values(void **state)
{
	char buf[64];

	(void)state;
	format_percent(buf, sizeof buf, 5.17);
	assert_string_equal(buf, "5.17%");
	format_percent(buf, sizeof buf, 25);
	assert_string_equal(buf, "25%");
	format_percent(buf, sizeof buf, 12.5);
	assert_string_equal(buf, "12.5%");
	format_percent(buf, sizeof buf, 0.004);
	assert_string_equal(buf, "0%");
	format_percent(buf, sizeof buf, -3.456);
	assert_string_equal(buf, "-3.46%");
	format_percent(buf, sizeof buf, 99.999);
	assert_string_equal(buf, "100%");
	/* Truncated like snprintf, and always terminated. */
	format_percent(buf, 4, 12.34);
	assert_string_equal(buf, "12.");
	/* printf fills the whole scratch buffer: the '%' must not overrun. */
	format_percent(buf, sizeof buf, 1e100);
	assert_int_equal(strlen(buf), sizeof buf - 1);
	assert_memory_equal(buf, "10000000000000000159", 20);
}

static void
test_percent_places(void **state)
{
	char a[64], b[64];
	int places;

	(void)state;
	assert_int_equal(percent_places(50.1666, 25), 2);
	assert_int_equal(percent_places(5.004, 5.001), 3);
	assert_int_equal(percent_places(7.0000001, 7), 7);
	assert_int_equal(percent_places(4.999, 5), 3);
	/* Equal figures never print apart. */
	assert_int_equal(percent_places(7, 7), PERCENT_PLACES_MAX);
	/* Whatever the places found, the two figures print differently. */
	places = percent_places(33.333333333333336, 33.33333333333333);
	format_percent_places(a, sizeof a, 33.333333333333336, places);
	format_percent_places(b, sizeof b, 33.33333333333333, places);
	assert_string_not_equal(a, b);
}

static void
test_percent_with_places(void **state)
{
	char buf[64];

	(void)state;
	format_percent_places(buf, sizeof buf, 7.0000001, 7);
	assert_string_equal(buf, "7.0000001%");
	format_percent_places(buf, sizeof buf, 7, 7);
	assert_string_equal(buf, "7%");
	format_percent_places(buf, sizeof buf, 12.5, 9);
	assert_string_equal(buf, "12.5%");
	format_percent_places(buf, sizeof buf, 5.17, 2);
	assert_string_equal(buf, "5.17%");
	format_percent_places(buf, sizeof buf, 4.9999996, 6);
	assert_string_equal(buf, "5%");
	/* Truncated, terminated, even for the largest double. */
	format_percent_places(buf, sizeof buf, 1.7976931348623157e308,
	    PERCENT_PLACES_MAX);
	assert_int_equal(strlen(buf), sizeof buf - 1);
}

/* The digits of format_usd, without '$', ',' or a sign. */
static void
usd_digits(char *out, const char *formatted)
{
	for (; *formatted != '\0'; formatted++) {
		if (*formatted != '$' && *formatted != ',' &&
		    *formatted != '-')
			*out++ = *formatted;
	}
	*out = '\0';
}

/* Seeded: values of every magnitude, ties and near-ties among them. */
static void
test_usd_rounds_as_printf_does(void **state)
{
	unsigned long long seed = 20261129;
	char buf[96], digits[96], expected[96];
	double value, scale;
	int i;

	(void)state;
	for (i = 0; i < 300000; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		scale = pow(10, (double)(i % 14) - 3);
		value = (double)(seed % 1000000007ULL) / 1000000007.0 * scale;
		if (i % 3 == 0)	/* on a half cent, as written in a file */
			value = (double)(seed % 100000000ULL) / 1000.0 + 0.005;
		format_usd(buf, sizeof buf, value);
		usd_digits(digits, buf);
		snprintf(expected, sizeof expected, "%.2f", value);
		if (strcmp(digits, expected) != 0)
			fail_msg("%.17g: %s, printf says %s", value, buf,
			    expected);
	}
}

/* text_vformat() and vsnprintf() into buffers of size, compared. */
static void
same_as_vsnprintf(size_t size, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
same_as_vsnprintf(size_t size, const char *fmt, ...)
{
	char ours[512], theirs[512];
	va_list ap;
	int ours_length, their_length;

	assert_true(size <= sizeof ours);
	memset(ours, 'x', sizeof ours);
	memset(theirs, 'x', sizeof theirs);
	va_start(ap, fmt);
	ours_length = text_vformat(size > 0 ? ours : NULL, size, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	their_length = vsnprintf(size > 0 ? theirs : NULL, size, fmt, ap);
	va_end(ap);
	if (ours_length != their_length)
		fail_msg("\"%s\" into %zu: length %d, vsnprintf says %d", fmt,
		    size, ours_length, their_length);
	/* The whole buffer: nothing written past what vsnprintf writes. */
	if (memcmp(ours, theirs, sizeof ours) != 0)
		fail_msg("\"%s\" into %zu: \"%.*s\", vsnprintf says \"%.*s\"",
		    fmt, size, (int)size, ours, (int)size, theirs);
}

static void
test_format_as_vsnprintf(void **state)
{
	/* Hidden from the compiler's own format checks. */
	const char *volatile null_text = NULL;
	size_t size;

	(void)state;
	for (size = 0; size < 70; size++) {
		same_as_vsnprintf(size, "plain text, no conversion");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-zero-length"
		same_as_vsnprintf(size, "");
#pragma GCC diagnostic pop
		same_as_vsnprintf(size, "ticker %s is excluded by IPS %s v%lld",
		    "AAPL", "ips-u-1001", 3LL);
		same_as_vsnprintf(size, "%s", "");
		same_as_vsnprintf(size, "%d%d%d", 0, -1, INT_MIN);
		same_as_vsnprintf(size, "[%d] [%lld] [%lld]", INT_MAX,
		    LLONG_MIN, LLONG_MAX);
		same_as_vsnprintf(size, "%zu of %zu, %zu", (size_t)0,
		    SIZE_MAX, (size_t)1234567);
		same_as_vsnprintf(size, "100%% of %s%%", "it");
		same_as_vsnprintf(size, "%s%s%s", "a", "", "bc");
		/* Left to vsnprintf itself, whole. */
		same_as_vsnprintf(size, "%s then %5s and %-3d|", "x", "y", 7);
		same_as_vsnprintf(size, "%s %.2f", "pi", 3.14159);
		same_as_vsnprintf(size, "%s %.*s", "cut", 3, "abcdef");
		same_as_vsnprintf(size, "%s %x %c", "hex", 255u, 'q');
		same_as_vsnprintf(size, "%s and %s", "given", null_text);
		same_as_vsnprintf(size, "%ld %hd %u", 5L, (short)-2, 9u);
	}
}

/* Seeded: random formats of the fast conversions and random arguments. */
static void
test_format_random(void **state)
{
	static const char *const texts[] = { "", "a", "AAPL", "a long"
	    " detail that says what the rule saw, in words",
	    "caf\xc3\xa9 \x01\x7f", "%d" };
	unsigned long long seed = 20261130;
	long long big;
	int i, k;

	(void)state;
	for (i = 0; i < 20000; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		k = (int)(seed % 6);
		big = (long long)(seed * 2654435761ULL);
		same_as_vsnprintf(seed % 97, "%s=%d;%lld%%%zu %s", texts[k],
		    (int)(seed >> 11), big, (size_t)(seed >> 3),
		    texts[(k + 1) % 6]);
	}
}

static void
test_integer_digits(void **state)
{
	char digits[TEXT_INTEGER_SIZE], expected[32];
	const long long values[] = { 0, 7, -7, 10, -10, 9999999999LL,
	    LLONG_MAX, LLONG_MIN, LLONG_MIN + 1 };
	size_t i, length;

	(void)state;
	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		length = text_integer(digits, values[i]);
		snprintf(expected, sizeof expected, "%lld", values[i]);
		assert_int_equal(length, strlen(expected));
		assert_memory_equal(digits, expected, length);
	}
	length = text_unsigned(digits, ULLONG_MAX);
	assert_int_equal(length, 20);
	assert_memory_equal(digits, "18446744073709551615", 20);
}

/* Blank as read: no-break, zero-width and other invisible spaces too. */
static void
test_blank_as_read(void **state)
{
	(void)state;
	assert_true(text_blank(NULL));
	assert_true(text_blank(""));
	assert_true(text_blank(" \t\r\n"));
	assert_true(text_blank("\xc2\xa0"));			/* U+00A0 */
	assert_true(text_blank("\xe2\x80\x8b\xe2\x80\x83"));	/* ZWSP, em space */
	assert_true(text_blank("\xe3\x80\x80\xef\xbb\xbf"));	/* ideographic, BOM */
	assert_true(text_blank("\xc2\xad \xe2\x81\xa0"));	/* soft hyphen, WJ */
	assert_false(text_blank("ok"));
	assert_false(text_blank("\xc2\xa0x"));
	assert_false(text_blank("\xff"));		/* shows as U+FFFD */
}

/* Names a reader cannot tell apart compare equal. */
static void
test_same_name_as_read(void **state)
{
	(void)state;
	assert_true(text_same_name("root", "root"));
	assert_true(text_same_name("Root", "root"));
	assert_true(text_same_name(" root ", "root"));
	assert_true(text_same_name("ro\xe2\x80\x8bot", "root"));	/* ZWSP */
	assert_true(text_same_name("root\xc2\xa0", "ROOT"));	/* NBSP */
	assert_true(text_same_name("pm.lee\xe2\x80\x8e", "pm.lee"));	/* LRM */
	assert_false(text_same_name("root", "roots"));
	/* A mark is dropped (issue 35): ö is o; a letter is not. */
	assert_true(text_same_name("r\xc3\xb6ot", "root"));	/* o umlaut */
	assert_false(text_same_name("r\xc3\xa6ot", "root"));	/* ae */
	assert_false(text_same_name(NULL, "root"));
	assert_false(text_same_name("", "root"));
}

/* The queue's countdown: minutes kept under a day, nothing beyond it. */
static void
test_countdown(void **state)
{
	char buf[16];

	(void)state;
	format_countdown(buf, sizeof buf, (3 * 60 + 12) * 60000LL + 59000);
	assert_string_equal(buf, "3h12m");
	format_countdown(buf, sizeof buf, (23 * 60 + 59) * 60000LL);
	assert_string_equal(buf, "23h59m");
	format_countdown(buf, sizeof buf, 60 * 60000LL);
	assert_string_equal(buf, "1h00m");
	format_countdown(buf, sizeof buf, 45 * 60000LL);
	assert_string_equal(buf, "45m");
	format_countdown(buf, sizeof buf, 59000);
	assert_string_equal(buf, "<1m");
	format_countdown(buf, sizeof buf, 86400000LL);
	assert_string_equal(buf, "");
	format_countdown(buf, sizeof buf, 0);
	assert_string_equal(buf, "");
	format_countdown(buf, sizeof buf, -5000);
	assert_string_equal(buf, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usd_known_values),
		cmocka_unit_test(test_blank_as_read),
		cmocka_unit_test(test_same_name_as_read),
		cmocka_unit_test(test_percent_known_values),
		cmocka_unit_test(test_percent_places),
		cmocka_unit_test(test_percent_with_places),
		cmocka_unit_test(test_usd_rounds_as_printf_does),
		cmocka_unit_test(test_format_as_vsnprintf),
		cmocka_unit_test(test_format_random),
		cmocka_unit_test(test_integer_digits),
		cmocka_unit_test(test_countdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
