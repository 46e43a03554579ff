/*
 * Unit tests for src/domain/json_memory.c: with the free lists in place,
 * trees of every block size parse, print and delete over and over with
 * the same results, and a freed block is handed out again.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "json_memory.h"

/* As json_memory.c tells. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static void
test_trees_round_trip_many_times(void **state)
{
	char text[8192], *printed, *first = NULL;
	cJSON *json;
	int round, i;

	(void)state;
	/* Strings from empty to past the largest list (256 bytes). */
	strcpy(text, "{\"list\":[");
	for (i = 0; i < 20; i++) {
		size_t at = strlen(text);

		text[at++] = i == 0 ? '"' : ',';
		if (i != 0)
			text[at++] = '"';
		memset(text + at, 'a' + i, (size_t)i * 17);
		strcpy(text + at + (size_t)i * 17, "\"");
	}
	strcat(text, "],\"n\":1.5,\"t\":true,\"o\":{\"k\":null}}");
	for (round = 0; round < 1000; round++) {
		json = cJSON_Parse(text);
		assert_non_null(json);
		printed = cJSON_PrintUnformatted(json);
		assert_non_null(printed);
		if (first == NULL)
			first = strdup(printed);
		else
			assert_string_equal(printed, first);
		cJSON_free(printed);
		cJSON_Delete(json);
	}
	free(first);
}

static void
test_a_freed_block_is_reused(void **state)
{
	cJSON *a, *b;

	(void)state;
	a = cJSON_CreateObject();
	assert_non_null(a);
	cJSON_Delete(a);
	b = cJSON_CreateObject();
	assert_non_null(b);
#if !defined(UNDER_ASAN)
	/* Under ASan the lists are off and malloc decides. */
	assert_ptr_equal(a, b);
#endif
	cJSON_Delete(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees_round_trip_many_times),
		cmocka_unit_test(test_a_freed_block_is_reused),
	};

	json_memory_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
