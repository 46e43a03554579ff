/*
 * Unit tests for src/domain/decimal.c: exact figures from doubles, limit
 * comparisons that must treat "exactly at the limit" as equal, and the
 * 256-bit product comparison.
 */

#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "decimal.h"

#define TWO_POW_53	9007199254740992.0

static struct decimal	dec(double);
static struct decimal	raw(unsigned __int128);
static void		assert_units(struct decimal, unsigned __int128);
static bool		use_comma_locale(void);
static unsigned __int128	units_of(unsigned long long, unsigned int);

/* A figure that must be accepted. */
static struct decimal
dec(double d)
{
	struct decimal	out;

	memset(&out, 0xa5, sizeof out);
	assert_true(decimal_from_double(d, &out));
	return (out);
}

static struct decimal
raw(unsigned __int128 units)
{
	struct decimal	d;

	d.units = units;
	return (d);
}

/* m x 10^-decimals, in the count's 10^-18 units. */
static unsigned __int128
units_of(unsigned long long m, unsigned int decimals)
{
	unsigned __int128	u = m;
	unsigned int		i;

	for (i = decimals; i < 18; i++)
		u *= 10;
	return (u);
}

/* cmocka's integer asserts are 64-bit wide; compare both halves. */
static void
assert_units(struct decimal d, unsigned __int128 want)
{
	assert_int_equal((uint64_t)(d.units >> 64), (uint64_t)(want >> 64));
	assert_int_equal((uint64_t)d.units, (uint64_t)want);
}

static void
test_point_one_plus_point_two(void **state)
{
	struct decimal	held, value, sum, hundred, limit, total;

	(void)state;
	held = dec(0.1);
	value = dec(0.2);
	sum = decimal_add(held, value);
	assert_units(sum, units_of(3, 1));
	assert_int_equal(decimal_compare(sum, dec(0.3)), 0);

	/* (held + value) * 100 vs limit * total: 30 == 30, within. */
	hundred = decimal_from_int(100);
	limit = dec(30);
	total = dec(1);
	assert_int_equal(decimal_compare_products(sum, hundred, limit, total),
	    0);

	/*
	 * A file that says 0.30000000000000004 (a double sum printed in
	 * full) means just that, 4 x 10^-17 over 0.3.
	 */
	assert_units(dec(0.1 + 0.2), units_of(30000000000000004ULL, 17));
}

static void
test_limit_edge_equal(void **state)
{
	struct decimal	hundred, limit, total;

	(void)state;
	hundred = decimal_from_int(100);
	limit = dec(25);
	total = dec(600000);

	assert_int_equal(decimal_compare_products(dec(150000), hundred,
	    limit, total), 0);
	/* Split across held and value, with cents that cancel. */
	assert_int_equal(decimal_compare_products(
	    decimal_add(dec(100000.10), dec(49999.90)), hundred, limit, total),
	    0);
}

static void
test_limit_just_above_below(void **state)
{
	struct decimal	hundred, limit, total;

	(void)state;
	hundred = decimal_from_int(100);
	limit = dec(25);
	total = dec(600000);

	assert_int_equal(decimal_compare_products(dec(150000.01), hundred,
	    limit, total), 1);
	assert_int_equal(decimal_compare_products(dec(149999.99), hundred,
	    limit, total), -1);
	assert_int_equal(decimal_compare_products(limit, total,
	    dec(150000.01), hundred), -1);
	/* One billionth over is still over, and so is 10^-18. */
	assert_int_equal(decimal_compare_products(dec(150000.000000001),
	    hundred, limit, total), 1);
	assert_int_equal(decimal_compare_products(decimal_add(dec(150000),
	    dec(1e-18)), hundred, limit, total), 1);
}

static void
test_cents(void **state)
{
	(void)state;
	assert_units(dec(100000.10), units_of(10000010, 2));
	assert_units(dec(0.07), units_of(7, 2));
	assert_units(dec(19.99), units_of(1999, 2));
	assert_units(decimal_add(dec(0.01), dec(0.02)), units_of(3, 2));
	assert_int_equal(decimal_compare(decimal_add(dec(100000.10),
	    dec(0.20)), dec(100000.30)), 0);
}

/*
 * Any decimal of at most 15 significant digits and 18 decimals, as strtod
 * reads it from a file, comes back as exactly that decimal: this is the
 * printf-free path.  Seeded, so a failure repeats.
 */
static void
test_short_decimals_exact(void **state)
{
	static const unsigned long long	 limit[] = {
		10ULL, 1000ULL, 1000000ULL, 1000000000ULL,
		1000000000000ULL, 1000000000000000ULL
	};
	unsigned long long		 m, pow10;
	char				 text[64];
	unsigned long long		 seed = 20261129;
	unsigned int			 k, i;
	int				 j;

	(void)state;
	for (i = 0; i < 200000; i++) {
		/* xorshift64 */
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		m = seed % limit[i % 6];
		k = (i / 6) % 19;
		snprintf(text, sizeof text, "%llue-%u", m, k);
		pow10 = 1;
		for (j = 0; j < (int)(18 - k); j++)
			pow10 *= 10;
		assert_units(dec(strtod(text, NULL)),
		    (unsigned __int128)m * pow10);
	}
}

static void
test_large_values(void **state)
{
	struct decimal	max, below;

	(void)state;
	max = dec(9007199254740991.0);
	assert_units(max, (unsigned __int128)9007199254740991ULL *
	    DECIMAL_SCALE);
	below = dec(9007199254740990.0);
	assert_int_equal(decimal_compare(below, max), -1);
	assert_int_equal(decimal_compare(max, below), 1);
	assert_int_equal(decimal_compare_products(max, max, below, max), 1);
	/* 2^52 - 0.5 is a double; its half survives. */
	assert_units(dec(4503599627370495.5),
	    (unsigned __int128)4503599627370495ULL * DECIMAL_SCALE +
	    DECIMAL_SCALE / 2);
	/* Exponent form: %.15g writes 1e+15. */
	assert_units(dec(1e15), (unsigned __int128)1000000000000000ULL *
	    DECIMAL_SCALE);
	assert_units(decimal_from_int(9007199254740991ULL),
	    (unsigned __int128)9007199254740991ULL * DECIMAL_SCALE);
}

static void
test_rejections(void **state)
{
	static const double	bad[] = {
		-1.0, -0.0, -1e-300, TWO_POW_53, 1e20, 1e70
	};
	struct decimal		out;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		out.units = 42;
		assert_false(decimal_from_double(bad[i], &out));
		assert_units(out, 42);
	}
	out.units = 42;
	assert_false(decimal_from_double(NAN, &out));
	assert_false(decimal_from_double(INFINITY, &out));
	assert_false(decimal_from_double(-INFINITY, &out));
	assert_false(decimal_from_double(DECIMAL_MAX_INPUT, &out));
	assert_units(out, 42);

	/* Plain zero is fine. */
	assert_true(decimal_from_double(0.0, &out));
	assert_true(decimal_is_zero(out));
}

static void
test_rounding(void **state)
{
	(void)state;
	assert_units(dec(1e-19), 0);
	assert_units(dec(5e-19), 0);		/* tie, even 0 */
	assert_units(dec(6e-19), 1);
	assert_units(dec(1e-18), 1);
	assert_units(dec(1.5e-18), 2);		/* tie, even 2 */
	assert_units(dec(2.5e-18), 2);		/* tie, even 2 */
	assert_units(dec(3.5e-18), 4);		/* tie, even 4 */
	assert_units(dec(1.5e-16), 150);
	assert_units(dec(1.2345e-15), 1234);	/* 1234.5: tie, even */
	assert_units(dec(1.2355e-15), 1236);	/* 1235.5: tie, even */
	assert_units(dec(1.23456e-15), 1235);
	assert_units(dec(5e-324), 0);		/* smallest subnormal */
	assert_true(decimal_is_zero(dec(1e-19)));
	assert_false(decimal_is_zero(dec(1e-18)));
	/* Ten decimals and more are kept, not rounded to the ninth. */
	assert_units(dec(1e-10), units_of(1, 10));
	assert_units(dec(0.1234567894), units_of(1234567894, 10));
}

/*
 * SPEC 2.1: compare products.  A limit written as the double nearest 100/3
 * is 33.333333333333336, and 1 x 100 is below 33.333333333333336 x 3, so a
 * buy of 1 against a total of 3 is within it; a count rounded to a few
 * decimals would put the limit under 100/3 and fail the buy.
 */
static void
test_full_double_limit(void **state)
{
	struct decimal	limit;

	(void)state;
	limit = dec(100.0 / 3.0);
	assert_units(limit, units_of(33333333333333336ULL, 15));
	assert_int_equal(decimal_compare_products(decimal_from_int(1),
	    decimal_from_int(100), limit, decimal_from_int(3)), -1);
	/* 17 significant digits with the point anywhere stay exact. */
	assert_units(dec(0.12345678901234568), units_of(12345678901234568ULL,
	    17));
	assert_units(dec(1234567.8901234567), units_of(12345678901234567ULL,
	    10));
}

static void
test_products_256_bit(void **state)
{
	unsigned __int128	x, max;

	(void)state;
	x = (unsigned __int128)1 << 100;
	max = ~(unsigned __int128)0;

	/* (x+1)^2 = x^2+2x+1 vs (x+2)x = x^2+2x: differ in the last bit. */
	assert_int_equal(decimal_compare_products(raw(x + 1), raw(x + 1),
	    raw(x + 2), raw(x)), 1);
	assert_int_equal(decimal_compare_products(raw(x + 2), raw(x),
	    raw(x + 1), raw(x + 1)), -1);
	assert_int_equal(decimal_compare_products(raw(x + 1), raw(x),
	    raw(x), raw(x + 1)), 0);

	/* 2^200 is 0 modulo 2^128; it must still beat 1. */
	assert_int_equal(decimal_compare_products(raw(x), raw(x),
	    raw(1), raw(1)), 1);
	/* Same value split differently: 2^100 * 2^100 == 2^127 * 2^73. */
	assert_int_equal(decimal_compare_products(raw(x), raw(x),
	    raw((unsigned __int128)1 << 127), raw((unsigned __int128)1 << 73)),
	    0);
	/* Differ only in the top limb: 2^192 vs 2^193. */
	assert_int_equal(decimal_compare_products(
	    raw((unsigned __int128)1 << 96), raw((unsigned __int128)1 << 96),
	    raw((unsigned __int128)1 << 97), raw((unsigned __int128)1 << 96)),
	    -1);

	/* Carries across limbs: (2^64+1)^2 = 2^128+2^65+1 vs 2^128+2^65. */
	assert_int_equal(decimal_compare_products(
	    raw(((unsigned __int128)1 << 64) + 1),
	    raw(((unsigned __int128)1 << 64) + 1),
	    raw(((unsigned __int128)1 << 64) + 2),
	    raw((unsigned __int128)1 << 64)), 1);

	/* The largest operands: max*max vs max*(max-1), (max-1)^2. */
	assert_int_equal(decimal_compare_products(raw(max), raw(max),
	    raw(max), raw(max - 1)), 1);
	assert_int_equal(decimal_compare_products(raw(max - 1), raw(max),
	    raw(max), raw(max - 1)), 0);
	assert_int_equal(decimal_compare_products(raw(max - 1), raw(max - 1),
	    raw(max), raw(max - 2)), 1);
	assert_int_equal(decimal_compare_products(raw(max), raw(max),
	    raw(max), raw(max)), 0);
	/* Zero on either side. */
	assert_int_equal(decimal_compare_products(raw(0), raw(max),
	    raw(1), raw(1)), -1);
}

static void
test_add_and_compare(void **state)
{
	struct decimal	max;

	(void)state;
	assert_units(decimal_add(decimal_from_int(2), dec(0.5)), units_of(25, 1));
	assert_int_equal(decimal_compare(dec(1), decimal_from_int(1)), 0);
	assert_int_equal(decimal_compare(dec(1), dec(2)), -1);
	assert_true(decimal_is_zero(decimal_from_int(0)));

	/* 30,000 maximal figures still sum exactly. */
	max = dec(9007199254740991.0);
	{
		struct decimal	sum = raw(0);
		int		i;

		for (i = 0; i < 30000; i++)
			sum = decimal_add(sum, max);
		assert_units(sum, (unsigned __int128)9007199254740991ULL *
		    DECIMAL_SCALE * 30000u);
	}

	/* Overflow saturates instead of wrapping to something small. */
	assert_units(decimal_add(raw(~(unsigned __int128)0), raw(1)),
	    ~(unsigned __int128)0);
}

static void
test_percent_and_to_double(void **state)
{
	(void)state;
	assert_true(decimal_percent(dec(150000), dec(600000)) == 25.0);
	assert_true(decimal_percent(dec(0.3), dec(1)) == 30.0);
	assert_true(fabs(decimal_percent(dec(1), dec(3)) - 100.0 / 3.0) <
	    1e-12);
	assert_true(decimal_percent(dec(5), dec(0)) == 0.0);
	assert_true(decimal_percent(dec(0), dec(5)) == 0.0);
	assert_true(decimal_percent(dec(600000), dec(600000)) == 100.0);

	assert_true(decimal_to_double(dec(0.1)) == 0.1);
	assert_true(decimal_to_double(dec(100000.10)) == 100000.10);
	assert_true(decimal_to_double(dec(9007199254740991.0)) ==
	    9007199254740991.0);
	assert_true(decimal_to_double(raw(0)) == 0.0);
}

/*
 * Switch to a locale whose decimal point is a comma: the environment's (so
 * LC_ALL=de_DE.UTF-8 is honoured) or one of a few common names.
 */
static bool
use_comma_locale(void)
{
	static const char	*names[] = {
		"", "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
		"nl_NL.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8", "ru_RU.UTF-8",
		"de_DE", "fr_FR"
	};
	size_t			 i;
	struct lconv		*lc;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (setlocale(LC_ALL, names[i]) == NULL)
			continue;
		lc = localeconv();
		if (lc != NULL && strcmp(lc->decimal_point, ",") == 0)
			return (true);
	}
	setlocale(LC_ALL, "C");
	return (false);
}

static void
test_comma_locale(void **state)
{
	struct decimal	sum;

	(void)state;
	if (!use_comma_locale()) {
		skip();
		return;
	}
	sum = decimal_add(dec(0.1), dec(0.2));
	assert_units(sum, units_of(3, 1));
	assert_units(dec(0.1 + 0.2), units_of(30000000000000004ULL, 17));
	assert_units(dec(100000.10), units_of(10000010, 2));
	assert_units(dec(1.5e-18), 2);
	assert_units(dec(1.5e-16), 150);
	assert_units(dec(9007199254740991.0), (unsigned __int128)
	    9007199254740991ULL * DECIMAL_SCALE);
	assert_int_equal(decimal_compare_products(sum, decimal_from_int(100),
	    dec(30), dec(1)), 0);
	setlocale(LC_ALL, "C");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_one_plus_point_two),
		cmocka_unit_test(test_short_decimals_exact),
		cmocka_unit_test(test_limit_edge_equal),
		cmocka_unit_test(test_limit_just_above_below),
		cmocka_unit_test(test_cents),
		cmocka_unit_test(test_full_double_limit),
		cmocka_unit_test(test_large_values),
		cmocka_unit_test(test_rejections),
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_products_256_bit),
		cmocka_unit_test(test_add_and_compare),
		cmocka_unit_test(test_percent_and_to_double),
		cmocka_unit_test(test_comma_locale),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
