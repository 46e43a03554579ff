/*
 * Unit tests for src/domain/text.c: money and percentages read the same
 * in every locale, and the printf-free rounding gives exactly what
 * "%.2f" would.
 */
#include "config.h"

#include <math.h>
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usd_known_values),
		cmocka_unit_test(test_percent_known_values),
		cmocka_unit_test(test_usd_rounds_as_printf_does),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
