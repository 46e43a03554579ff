/*
 * Unit tests for src/domain/timestamp.c: ISO-8601 UTC timestamps (SPEC 1),
 * parsed into milliseconds since the epoch and formatted back.  Expected
 * epochs were computed by hand and checked with `date -u -d ... +%s`.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "timestamp.h"

/* Preset into the output so a parse that "succeeds" without writing shows. */
#define SENTINEL	(-123456789LL)

static long long
parse_ok(const char *text)
{
	long long ms = SENTINEL;

	if (!timestamp_parse(text, &ms))
		print_error("timestamp_parse refused \"%s\"\n", text);
	assert_true(timestamp_parse(text, &ms));
	return ms;
}

static void
assert_refused(const char *text)
{
	long long ms = SENTINEL;

	if (timestamp_parse(text, &ms))
		print_error("timestamp_parse accepted \"%s\" as %lld\n", text,
		    ms);
	assert_false(timestamp_parse(text, &ms));
}

/* Known epochs. */

static void
test_epoch_zero(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("1970-01-01T00:00:00Z"), 0);
}

static void
test_leap_day_2000_with_half_second(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("2000-02-29T12:00:00.5Z"), 951825600500LL);
}

static void
test_spec_example_2026_11_29(void **state)
{
	(void)state;
	/* 20786 days * 86400 s + 8 h 15 min = 1795940100 s. */
	assert_int_equal(parse_ok("2026-11-29T08:15:00Z"), 1795940100000LL);
}

static void
test_last_second_of_day(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("1970-01-01T23:59:59Z"), 86399000LL);
}

static void
test_before_epoch_is_negative(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("1969-12-31T23:59:59Z"), -1000LL);
}

/* Leap years. */

static void
test_leap_day_2024_accepted(void **state)
{
	(void)state;
	/* 2024-02-29 is 19782 days after the epoch, 2024-03-01 19783. */
	assert_int_equal(parse_ok("2024-02-29T00:00:00Z"),
	    19782LL * 86400000LL);
	assert_int_equal(parse_ok("2024-03-01T00:00:00Z"),
	    19783LL * 86400000LL);
}

static void
test_leap_day_2100_refused(void **state)
{
	(void)state;
	assert_refused("2100-02-29T00:00:00Z");
}

static void
test_leap_day_2000_accepted(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("2000-02-29T00:00:00Z"), 951782400000LL);
}

static void
test_leap_day_in_common_year_refused(void **state)
{
	(void)state;
	assert_refused("2026-02-29T00:00:00Z");
}

static void
test_day_past_end_of_month_refused(void **state)
{
	(void)state;
	assert_refused("2026-02-30T00:00:00Z");
	assert_refused("2026-04-31T00:00:00Z");
	assert_refused("2026-12-32T00:00:00Z");
	assert_refused("2026-01-00T00:00:00Z");
}

static void
test_month_out_of_range_refused(void **state)
{
	(void)state;
	assert_refused("2026-00-10T00:00:00Z");
	assert_refused("2026-13-10T00:00:00Z");
}

static void
test_time_out_of_range_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29T24:00:00Z");
	assert_refused("2026-11-29T23:60:00Z");
	assert_refused("2026-11-29T23:59:60Z");
}

/* Fractions. */

static void
test_fraction_milliseconds(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("1970-01-01T00:00:00.123Z"), 123);
	assert_int_equal(parse_ok("1970-01-01T00:00:00.05Z"), 50);
}

static void
test_fraction_truncated_beyond_ms(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("1970-01-01T00:00:00.123456Z"), 123);
	assert_int_equal(parse_ok("1970-01-01T00:00:00.9999999Z"), 999);
	assert_int_equal(parse_ok("1970-01-01T00:00:00.0009Z"), 0);
}

static void
test_empty_fraction_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29T08:15:00.Z");
}

/* Offsets and letters. */

static void
test_plus_zero_offset_accepted(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("2026-11-29T08:15:00+00:00"),
	    1795940100000LL);
	assert_int_equal(parse_ok("2026-11-29T08:15:00.250+00:00"),
	    1795940100250LL);
}

static void
test_other_offsets_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29T08:15:00+02:00");
	assert_refused("2026-11-29T08:15:00-00:00");
	assert_refused("2026-11-29T08:15:00+0000");
}

static void
test_lowercase_t_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29t08:15:00Z");
}

static void
test_lowercase_z_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29T08:15:00z");
}

static void
test_missing_zone_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29T08:15:00");
}

static void
test_space_separator_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-29 08:15:00Z");
	assert_refused("2026-11-28 21:00:00");
}

static void
test_date_only_refused(void **state)
{
	(void)state;
	assert_refused("2026-11-28");
}

static void
test_garbage_refused(void **state)
{
	(void)state;
	assert_refused("");
	assert_refused("now");
	assert_refused("2026-11-29T08:15:00Z ");
	assert_refused(" 2026-11-29T08:15:00Z");
	assert_refused("2026-11-29T08:15:00ZZ");
	assert_refused("2026-1-29T08:15:00.000Z");
	assert_refused("+2026-11-29T08:15:00Z");
	assert_refused("2026-11-29T08:15:00.12aZ");
}

static void
test_null_refused(void **state)
{
	long long ms = SENTINEL;

	(void)state;
	assert_false(timestamp_parse(NULL, &ms));
}

/* Formatting. */

static void
test_format_epoch(void **state)
{
	char buf[TIMESTAMP_SIZE];

	(void)state;
	timestamp_format(0, buf);
	assert_string_equal(buf, "1970-01-01T00:00:00.000Z");
}

static void
test_format_known_value(void **state)
{
	char buf[TIMESTAMP_SIZE];

	(void)state;
	timestamp_format(951825600500LL, buf);
	assert_string_equal(buf, "2000-02-29T12:00:00.500Z");
}

static void
test_format_before_epoch(void **state)
{
	char buf[TIMESTAMP_SIZE];

	(void)state;
	timestamp_format(-1, buf);
	assert_string_equal(buf, "1969-12-31T23:59:59.999Z");
	timestamp_format(-1000, buf);
	assert_string_equal(buf, "1969-12-31T23:59:59.000Z");
}

static void
test_round_trip_format_of_parse(void **state)
{
	static const char *const inputs[] = {
		"1970-01-01T00:00:00.000Z",
		"2000-02-29T12:00:00.500Z",
		"2024-02-29T23:59:59.999Z",
		"2026-11-29T08:15:00.123Z",
		"9999-12-31T23:59:59.999Z",
	};
	char buf[TIMESTAMP_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		timestamp_format(parse_ok(inputs[i]), buf);
		assert_string_equal(buf, inputs[i]);
	}
}

static void
test_round_trip_normalises_to_milliseconds(void **state)
{
	char buf[TIMESTAMP_SIZE];

	(void)state;
	timestamp_format(parse_ok("2026-11-29T08:15:00Z"), buf);
	assert_string_equal(buf, "2026-11-29T08:15:00.000Z");
	timestamp_format(parse_ok("2026-11-29T08:15:00.123456+00:00"), buf);
	assert_string_equal(buf, "2026-11-29T08:15:00.123Z");
}

static void
test_round_trip_parse_of_format(void **state)
{
	static const long long values[] = {
		0, 1, 999, 1000, 86399999LL, 951825600500LL,
		1795940100000LL, 1795940100123LL, 253402300799999LL,
	};
	char buf[TIMESTAMP_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		timestamp_format(values[i], buf);
		assert_int_equal(parse_ok(buf), values[i]);
	}
}

static void
test_now_is_after_2024(void **state)
{
	(void)state;
	assert_true(timestamp_now() > parse_ok("2024-01-01T00:00:00Z"));
}

/* SPEC 7 audit export --since/--until: any offset names one instant. */
static void
test_zoned_offsets(void **state)
{
	long long utc, zoned;

	(void)state;
	assert_true(timestamp_parse("2026-12-01T09:00:00Z", &utc));
	assert_true(timestamp_parse_zoned("2026-12-01T10:00:00+01:00", &zoned));
	assert_int_equal(zoned, utc);
	assert_true(timestamp_parse_zoned("2026-12-01T03:30:00.000-05:30",
	    &zoned));
	assert_int_equal(zoned, utc);
	assert_true(timestamp_parse_zoned("2026-12-01T09:00:00Z", &zoned));
	assert_int_equal(zoned, utc);
	/* Across midnight, and a day back. */
	assert_true(timestamp_parse_zoned("2026-12-02T00:00:00+15:00", &zoned));
	assert_int_equal(zoned, utc);
	assert_false(timestamp_parse_zoned("2026-12-01T09:00:00", &zoned));
	assert_false(timestamp_parse_zoned("2026-12-01T09:00:00+1:00", &zoned));
	assert_false(timestamp_parse_zoned("2026-12-01T09:00:00+24:00", &zoned));
	assert_false(timestamp_parse_zoned("2026-12-01T09:00:00+01:60", &zoned));
	assert_false(timestamp_parse_zoned("2026-12-01T09:00+01:00", &zoned));
	assert_false(timestamp_parse_zoned("yesterday", &zoned));
	assert_false(timestamp_parse_zoned(NULL, &zoned));
	/* The records' own parser still takes UTC only. */
	assert_false(timestamp_parse("2026-12-01T10:00:00+01:00", &zoned));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epoch_zero),
		cmocka_unit_test(test_zoned_offsets),
		cmocka_unit_test(test_leap_day_2000_with_half_second),
		cmocka_unit_test(test_spec_example_2026_11_29),
		cmocka_unit_test(test_last_second_of_day),
		cmocka_unit_test(test_before_epoch_is_negative),
		cmocka_unit_test(test_leap_day_2024_accepted),
		cmocka_unit_test(test_leap_day_2100_refused),
		cmocka_unit_test(test_leap_day_2000_accepted),
		cmocka_unit_test(test_leap_day_in_common_year_refused),
		cmocka_unit_test(test_day_past_end_of_month_refused),
		cmocka_unit_test(test_month_out_of_range_refused),
		cmocka_unit_test(test_time_out_of_range_refused),
		cmocka_unit_test(test_fraction_milliseconds),
		cmocka_unit_test(test_fraction_truncated_beyond_ms),
		cmocka_unit_test(test_empty_fraction_refused),
		cmocka_unit_test(test_plus_zero_offset_accepted),
		cmocka_unit_test(test_other_offsets_refused),
		cmocka_unit_test(test_lowercase_t_refused),
		cmocka_unit_test(test_lowercase_z_refused),
		cmocka_unit_test(test_missing_zone_refused),
		cmocka_unit_test(test_space_separator_refused),
		cmocka_unit_test(test_date_only_refused),
		cmocka_unit_test(test_garbage_refused),
		cmocka_unit_test(test_null_refused),
		cmocka_unit_test(test_format_epoch),
		cmocka_unit_test(test_format_known_value),
		cmocka_unit_test(test_format_before_epoch),
		cmocka_unit_test(test_round_trip_format_of_parse),
		cmocka_unit_test(test_round_trip_normalises_to_milliseconds),
		cmocka_unit_test(test_round_trip_parse_of_format),
		cmocka_unit_test(test_now_is_after_2024),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
