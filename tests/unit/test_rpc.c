/*
 * Unit tests for src/service/rpc.c: base64 of every length and byte
 * value comes back whole (the padding is not data), and what is not
 * base64 is refused rather than decoded into something else.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "service.h"

static void
test_round_trip(void **state)
{
	unsigned char bytes[300], *back;
	size_t len, n;
	char *text;

	(void)state;
	for (n = 0; n < sizeof bytes; n++)
		bytes[n] = (unsigned char)(n * 7 + 3);
	bytes[5] = 0;	/* a NUL is data too */
	for (len = 0; len <= sizeof bytes; len++) {
		text = rpc_base64(bytes, len);
		assert_non_null(text);
		assert_int_equal(strlen(text), (len + 2) / 3 * 4);
		assert_int_equal(rpc_unbase64(text, &back, &n), 0);
		assert_int_equal(n, len);
		assert_memory_equal(back, bytes, len);
		free(back);
		free(text);
	}
}

static void
test_known_values(void **state)
{
	unsigned char *back;
	size_t n;
	char *text = rpc_base64("foob", 4);

	(void)state;
	assert_string_equal(text, "Zm9vYg==");
	free(text);
	assert_int_equal(rpc_unbase64("Zm9vYmFy", &back, &n), 0);
	assert_int_equal(n, 6);
	assert_memory_equal(back, "foobar", 6);
	free(back);
}

static void
test_not_base64(void **state)
{
	static const char *const bad[] = { "Zm9", "Zm9v!A==", "Zm 9v",
	    "\xc3\xa9\xc3\xa9" };
	unsigned char *back;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(rpc_unbase64(bad[i], &back, &n), -1);
		assert_null(back);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_not_base64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
