/*
 * Exact decimal arithmetic for the trade rules.
 *
 * A figure arrives as a double (cJSON parses every JSON number that way).  We
 * recover the shortest decimal text that reads back as the very same double,
 * which for any figure written with up to 15 significant digits is exactly
 * what the file said, and hold it as an integer count of 10^-18 units.  Sums
 * of such counts are then exact, so 0.1 + 0.2 is 0.3 and a figure sitting
 * exactly on a limit compares equal to it.
 *
 * Why 10^-18: a limit is often a quotient written out in full, such as
 * 33.333333333333336 (100/3 as a double prints so), and "compare products"
 * must then see 33.333333333333336 x 3 > 100.  Every double from 0.01 up has
 * a shortest form of at most 17 significant digits, so no figure a policy or
 * a portfolio could plausibly hold is rounded; only digits below 10^-18 are,
 * half to even.
 *
 * Range: inputs are below 2^53, so one figure is below 2^53 * 10^18 < 2^113
 * units.  An unsigned 128-bit count therefore holds the sum of 2^15 (32,768)
 * maximal figures, each some 9 * 10^15 dollars, before it could overflow;
 * decimal_add saturates rather than wraps should that ever be reached, so an
 * absurd total can never masquerade as a small one.
 */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"

#define DECIMAL_FRAC_DIGITS	18
#define UNITS_MAX		(~(unsigned __int128)0)

/* 256-bit unsigned value as four 64-bit limbs, least significant first. */
struct u256 {
	uint64_t	limb[4];
};

static unsigned __int128	pow10_u128(unsigned int);
static locale_t			c_locale(void);
static int			format_round_trip(double, char *, size_t);
static bool			short_decimal(double, unsigned __int128 *);
static bool			parse_decimal_text(const char *,
				    unsigned __int128 *);
static struct u256		mul_u128(unsigned __int128, unsigned __int128);
static int			compare_u256(const struct u256 *,
				    const struct u256 *);

/*
 * 10^n for n <= 38, the largest power of ten an unsigned __int128 holds.
 * Every figure of every check scales by up to 10^18: those come from a
 * table, not eighteen multiplications.
 */
static unsigned __int128
pow10_u128(unsigned int n)
{
	static const uint64_t	small[] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL
	};
	unsigned __int128	p;

	if (n < sizeof small / sizeof small[0])
		return (small[n]);
	p = small[sizeof small / sizeof small[0] - 1];
	for (n -= sizeof small / sizeof small[0] - 1; n > 0; n--)
		p *= 10;
	return (p);
}

/*
 * The program calls setlocale(LC_ALL, "") for curses, so the global locale
 * may well write and read "0,3".  Formatting and reading back both happen in
 * the same locale, so the round trip would hold either way, but doing it in
 * the "C" locale keeps the text predictable; parse_decimal_text still copes
 * with any decimal point in case newlocale is unavailable.  The object is
 * made once and kept: it is small and creating one per figure is wasteful.
 */
static locale_t
c_locale(void)
{
	static locale_t	loc = (locale_t)0;

	if (loc == (locale_t)0)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return (loc);
}

/*
 * Write into buf the shortest of %.15g, %.16g and %.17g that strtod reads
 * back as exactly d.  %.17g always round-trips a finite double, so this only
 * fails if the buffer is too small.  Returns 0 on success, -1 on failure.
 */
static int
format_round_trip(double d, char *buf, size_t len)
{
	static const int	 precision[] = { 15, 16, 17 };
	locale_t		 loc, old = (locale_t)0;
	size_t			 i;
	int			 n, found = -1;
	char			*end;

	loc = c_locale();
	if (loc != (locale_t)0)
		old = uselocale(loc);

	for (i = 0; i < sizeof precision / sizeof precision[0]; i++) {
		n = snprintf(buf, len, "%.*g", precision[i], d);
		if (n < 0 || (size_t)n >= len)
			break;
		if (strtod(buf, &end) == d && *end == '\0') {
			found = 0;
			break;
		}
	}

	if (loc != (locale_t)0 && old != (locale_t)0)
		uselocale(old);
	return (found);
}

/*
 * Read the output of %g (digits, an optional decimal point, an optional
 * exponent such as "e+20" or "e-07") into a count of 10^-18 units, rounding
 * half to even beyond eighteen decimals.  Any byte that is not a digit, a sign
 * or an 'e' before the exponent is taken to be the decimal point, so a
 * locale's "," (or a multi-byte point) does no harm.  Negative values never
 * get here; a leading '-' is refused anyway.
 */
static bool
parse_decimal_text(const char *s, unsigned __int128 *units)
{
	unsigned __int128	 mantissa = 0, q, r, p;
	int			 frac_digits = 0, exponent = 0, exp_sign = 1;
	int			 scale, ndigits = 0, seen_point = 0;
	const char		*c = s;

	if (*c == '+')
		c++;
	for (; *c != '\0' && *c != 'e' && *c != 'E'; c++) {
		if (*c >= '0' && *c <= '9') {
			/* %.17g gives at most 17 significant digits. */
			if (mantissa != 0 || *c != '0')
				ndigits++;
			if (ndigits > 38)
				return (false);
			mantissa = mantissa * 10 + (unsigned)(*c - '0');
			if (seen_point)
				frac_digits++;
		} else if (*c == '-' || *c == '+')
			return (false);
		else
			seen_point = 1;
	}
	if (*c == 'e' || *c == 'E') {
		c++;
		if (*c == '-' || *c == '+') {
			if (*c == '-')
				exp_sign = -1;
			c++;
		}
		if (*c < '0' || *c > '9')
			return (false);
		for (; *c >= '0' && *c <= '9'; c++) {
			/* Doubles never need more than three digits here. */
			if (exponent > 10000)
				return (false);
			exponent = exponent * 10 + (*c - '0');
		}
		if (*c != '\0')
			return (false);
	}

	/* value = mantissa * 10^(exponent - frac_digits); units = value * 10^18 */
	scale = exp_sign * exponent - frac_digits + DECIMAL_FRAC_DIGITS;
	if (mantissa == 0) {
		*units = 0;
		return (true);
	}
	if (scale >= 0) {
		/* The caller's 2^53 bound keeps this below 2^113. */
		if (scale + ndigits > 38)
			return (false);
		*units = mantissa * pow10_u128((unsigned int)scale);
		return (true);
	}

	/*
	 * More than eighteen decimals: divide and round half to even, so a
	 * digit pattern exactly halfway never drifts consistently upward.
	 * Past 38 digits of shift the mantissa (< 10^38) is far below half
	 * a unit and the result is plainly zero.
	 */
	if (-scale > 38) {
		*units = 0;
		return (true);
	}
	p = pow10_u128((unsigned int)-scale);
	q = mantissa / p;
	r = mantissa % p;
	if (r > p - r || (r == p - r && (q & 1) != 0))
		q++;
	*units = q;
	return (true);
}

/*
 * The common case without printf: d is m / 10^k for an integer m below
 * 10^15 and k <= 18.  m and 10^k are exact doubles and IEEE division
 * rounds correctly, so m / 10^k == d says strtod reads "m e-k" back as d;
 * and a decimal of at most 15 significant digits is the only one that
 * reads back as d (DBL_DIG), so it is what %.15g writes.  The answer is
 * the one format_round_trip() would give, some fifty times faster; this
 * matters because every figure of every check comes through here.
 */
static bool
short_decimal(double d, unsigned __int128 *units)
{
	double		scale = 1, scaled, m;
	unsigned int	k;

	for (k = 0; k <= DECIMAL_FRAC_DIGITS; k++, scale *= 10) {
		scaled = d * scale;
		if (scaled >= 1e15)
			return (false);
		m = nearbyint(scaled);
		if (m / scale == d) {
			*units = (unsigned __int128)(uint64_t)m *
			    pow10_u128(DECIMAL_FRAC_DIGITS - k);
			return (true);
		}
	}
	return (false);
}

bool
decimal_from_double(double d, struct decimal *out)
{
	char			buf[64];
	unsigned __int128	units;

	/* signbit catches -0.0, which compares equal to 0.0. */
	if (!isfinite(d) || signbit(d) || d >= DECIMAL_MAX_INPUT)
		return (false);
	if (short_decimal(d, &units)) {
		out->units = units;
		return (true);
	}
	if (format_round_trip(d, buf, sizeof buf) != 0)
		return (false);
	if (!parse_decimal_text(buf, &units))
		return (false);
	out->units = units;
	return (true);
}

struct decimal
decimal_add(struct decimal a, struct decimal b)
{
	struct decimal	sum;

	/* Saturate: see the range note at the top of this file. */
	if (a.units > UNITS_MAX - b.units)
		sum.units = UNITS_MAX;
	else
		sum.units = a.units + b.units;
	return (sum);
}

struct decimal
decimal_sub_floor(struct decimal a, struct decimal b)
{
	struct decimal	difference;

	difference.units = a.units > b.units ? a.units - b.units : 0;
	return (difference);
}

struct decimal
decimal_from_int(unsigned long long n)
{
	struct decimal	d;

	/* At most 2^64 * 10^18 < 2^124: no overflow. */
	d.units = (unsigned __int128)n * DECIMAL_SCALE;
	return (d);
}

/*
 * Schoolbook multiply on 64-bit limbs.  Each partial step is at most
 * (2^64-1)^2 + 2(2^64-1) = 2^128 - 1, so it fits in an unsigned __int128
 * with its carry.
 */
static struct u256
mul_u128(unsigned __int128 a, unsigned __int128 b)
{
	struct u256		 r;
	uint64_t		 x[2], y[2], carry;
	unsigned __int128	 t;
	int			 i, j;

	x[0] = (uint64_t)a;
	x[1] = (uint64_t)(a >> 64);
	y[0] = (uint64_t)b;
	y[1] = (uint64_t)(b >> 64);
	memset(&r, 0, sizeof r);

	for (i = 0; i < 2; i++) {
		carry = 0;
		for (j = 0; j < 2; j++) {
			t = (unsigned __int128)x[i] * y[j] + r.limb[i + j] +
			    carry;
			r.limb[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		r.limb[i + 2] = carry;
	}
	return (r);
}

static int
compare_u256(const struct u256 *a, const struct u256 *b)
{
	int	i;

	for (i = 3; i >= 0; i--) {
		if (a->limb[i] != b->limb[i])
			return (a->limb[i] < b->limb[i] ? -1 : 1);
	}
	return (0);
}

/*
 * Each operand is in 10^-18 units, so each product is in 10^-36 units.  Both
 * sides carry the same scale, so comparing the raw products compares the
 * true values and no rescaling (or rounding) is needed.  A product of two
 * counts may reach 2^256 - 2^129 + 1 (after saturating adds), hence the
 * 256-bit arithmetic.
 */
int
decimal_compare_products(struct decimal a, struct decimal b,
    struct decimal c, struct decimal d)
{
	struct u256	left, right;

	left = mul_u128(a.units, b.units);
	right = mul_u128(c.units, d.units);
	return (compare_u256(&left, &right));
}

int
decimal_compare(struct decimal a, struct decimal b)
{
	if (a.units < b.units)
		return (-1);
	if (a.units > b.units)
		return (1);
	return (0);
}

bool
decimal_is_zero(struct decimal a)
{
	return (a.units == 0);
}

double
decimal_percent(struct decimal a, struct decimal b)
{
	if (b.units == 0)
		return (0.0);
	/* The scales cancel in the ratio; long double keeps more digits. */
	return ((double)((long double)a.units / (long double)b.units * 100.0L));
}

double
decimal_to_double(struct decimal a)
{
	return ((double)((long double)a.units / (long double)DECIMAL_SCALE));
}
