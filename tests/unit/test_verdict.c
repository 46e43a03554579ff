/*
 * Unit tests for src/domain/verdict.c: rules and reasons kept in order
 * however many a verdict gets, their details formatted in full, and a
 * failing rule never left without a detail (SPEC 2).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "verdict.h"

static void
test_many_rules_and_reasons_in_order(void **state)
{
	struct verdict v;
	char expected[64];
	size_t i;

	(void)state;
	assert_int_equal(verdict_init(&v, "a-1", 0), 0);
	/* Past every doubling of both arrays, twice over. */
	for (i = 0; i < 70; i++) {
		assert_int_equal(verdict_add_rule(&v, "R", "rule", i % 3 != 0,
		    "rule %zu of %d, %s", i, 70, i % 2 ? "odd" : "even"), 0);
		assert_int_equal(verdict_add_reason(&v, "above_usd",
		    "reason %zu", i), 0);
	}
	assert_int_equal(v.rule_count, 70);
	assert_int_equal(v.reason_count, 70);
	for (i = 0; i < 70; i++) {
		snprintf(expected, sizeof expected, "rule %zu of 70, %s", i,
		    i % 2 ? "odd" : "even");
		assert_string_equal(v.rules[i].detail, expected);
		assert_int_equal(v.rules[i].passed, i % 3 != 0);
		snprintf(expected, sizeof expected, "reason %zu", i);
		assert_string_equal(v.high_stakes_reasons[i].detail, expected);
		assert_string_equal(v.high_stakes_reasons[i].code, "above_usd");
	}
	verdict_free(&v);
}

static void
test_details_of_any_length(void **state)
{
	char long_text[1000], expected[1100];
	struct verdict v;

	(void)state;
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	snprintf(expected, sizeof expected, "<%s> %lld", long_text, -5LL);
	assert_int_equal(verdict_init(&v, "a-1", 0), 0);
	assert_int_equal(verdict_add_rule(&v, "R1", "one", true, "<%s> %lld",
	    long_text, -5LL), 0);
	assert_string_equal(v.rules[0].detail, expected);
	/* A failing rule says why, even when its caller did not. */
	assert_int_equal(verdict_add_rule(&v, "R2", "two", false, NULL), 0);
	assert_string_equal(v.rules[1].detail, "failed");
	assert_int_equal(verdict_add_rule(&v, "R3", "three", false, "%s", ""),
	    0);
	assert_string_equal(v.rules[2].detail, "failed");
	assert_int_equal(verdict_add_rule(&v, "R4", "four", true, NULL), 0);
	assert_null(v.rules[3].detail);
	verdict_free(&v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_rules_and_reasons_in_order),
		cmocka_unit_test(test_details_of_any_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
