/*
 * Exact comparisons for the trade rules.  SPEC 2.1 wants "(held + value) x 100
 * > limit x total" decided exactly, with a figure at a limit being within it;
 * binary doubles cannot promise that for sums such as 0.1 + 0.2.  Each input
 * number is turned back into the shortest decimal that reads as the same
 * double (what the file said, for any figure of up to 15 significant digits,
 * and for the shortest form of any other double) and held as an integer count
 * of 10^-18 units.
 */
#ifndef COUNTERSIGN_DECIMAL_H
#define COUNTERSIGN_DECIMAL_H

#include <stdbool.h>

/* A non-negative decimal: value / 10^18. */
struct decimal {
	unsigned __int128 units;
};

#define DECIMAL_SCALE 1000000000000000000ull

/* Largest magnitude the loaders accept for any figure (2^53). */
#define DECIMAL_MAX_INPUT 9007199254740992.0

/* false when d is negative, not finite or >= DECIMAL_MAX_INPUT. */
bool decimal_from_double(double d, struct decimal *out);
struct decimal decimal_add(struct decimal a, struct decimal b);
struct decimal decimal_from_int(unsigned long long n);
/* a - b, or 0 when b > a (decimals are never negative). */
struct decimal decimal_sub_floor(struct decimal a, struct decimal b);
/* Sign of a*b - c*d: -1, 0 or 1, computed exactly. */
int decimal_compare_products(struct decimal a, struct decimal b,
    struct decimal c, struct decimal d);
/* Sign of a - b. */
int decimal_compare(struct decimal a, struct decimal b);
bool decimal_is_zero(struct decimal a);
/* a / b * 100 as a double, for display only; 0 when b is zero. */
double decimal_percent(struct decimal a, struct decimal b);
double decimal_to_double(struct decimal a);

#endif
