/* The store's SQL as PostgreSQL takes it (src/store/pg_db.c, issue 20). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../src/store/db.h"

static void
expect_translation(const char *sql, const char *want, int want_params)
{
	unsigned char used[8] = { 0 };
	int n = -1;
	char *got = pg_translate(sql, &n, used, 8);

	assert_non_null(got);
	assert_string_equal(got, want);
	assert_int_equal(n, want_params);
	free(got);
}

static void
numbered_parameters(void **state)
{
	(void)state;
	expect_translation("SELECT a FROM t WHERE b = ?1 AND c = ?12",
	    "SELECT a FROM t WHERE b = $1 AND c = $12", 12);
	/* A bare ? is the next number after the highest so far. */
	expect_translation("VALUES (?, ?3, ?)", "VALUES ($1, $3, $4)", 4);
}

static void
quoted_text_is_left_alone(void **state)
{
	(void)state;
	expect_translation("SELECT '?1 IS NOT x', \"is ?\" FROM t WHERE"
	    " a = 'it''s ?2' AND b = ?1",
	    "SELECT '?1 IS NOT x', \"is ?\" FROM t WHERE"
	    " a = 'it''s ?2' AND b = $1", 1);
}

static void
null_safe_comparisons(void **state)
{
	(void)state;
	expect_translation("WHERE a IS NOT b OR c IS d",
	    "WHERE a IS DISTINCT FROM b OR c IS NOT DISTINCT FROM d", 0);
	expect_translation("WHERE a IS NULL AND b IS NOT NULL AND c IS TRUE",
	    "WHERE a IS NULL AND b IS NOT NULL AND c IS TRUE", 0);
	/* Only the word IS: THIS and ISO stay as they are. */
	expect_translation("SELECT this, iso FROM t",
	    "SELECT this, iso FROM t", 0);
}

static void
integers_are_64_bits(void **state)
{
	(void)state;
	expect_translation("SELECT CAST(x * 1000 AS INTEGER) AS integral",
	    "SELECT CAST(x * 1000 AS BIGINT) AS integral", 0);
}

static void
skipped_numbers_are_reported(void **state)
{
	unsigned char used[8] = { 0 };
	int n;
	char *got = pg_translate("LIMIT ?3 OFFSET ?4 WHERE ?1", &n, used, 8);

	(void)state;
	assert_non_null(got);
	assert_int_equal(n, 4);
	assert_int_equal(used[0], 1);
	assert_int_equal(used[1], 0);
	assert_int_equal(used[2], 1);
	assert_int_equal(used[3], 1);
	free(got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbered_parameters),
		cmocka_unit_test(quoted_text_is_left_alone),
		cmocka_unit_test(null_safe_comparisons),
		cmocka_unit_test(integers_are_64_bits),
		cmocka_unit_test(skipped_numbers_are_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
