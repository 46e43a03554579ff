/*
 * Unit tests for src/domain/json_memory.c: with the free lists in place,
 * trees of every block size parse, print and delete over and over with
 * the same results, and a freed block is handed out again; scratch trees
 * read as parsed ones, one at a time, and free what did not fit.
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

/* The scratch parse of a NUL-terminated text. */
#define scratch_parse(text) json_scratch_parse((text), strlen(text))

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

/* A document of COUNT strings of 40 bytes: 256 KiB is about 2,600. */
static char *
document(int count)
{
	size_t size = (size_t)count * 48 + 16, at;
	char *text = malloc(size);
	int i;

	assert_non_null(text);
	at = (size_t)snprintf(text, size, "{\"list\":[");
	for (i = 0; i < count; i++)
		at += (size_t)snprintf(text + at, size - at, "%s\"%038d\"",
		    i == 0 ? "" : ",", i);
	snprintf(text + at, size - at, "]}");
	return text;
}

/* A scratch tree reads as cJSON_Parse()'s, small or past the region. */
static void
test_scratch_trees_read_as_parsed(void **state)
{
	static const int counts[] = { 0, 1, 100, 2000, 6000, 20000 };
	char *text, *expected, *printed;
	cJSON *tree;
	size_t i;
	int round;

	(void)state;
	for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		text = document(counts[i]);
		tree = cJSON_Parse(text);
		expected = cJSON_PrintUnformatted(tree);
		cJSON_Delete(tree);
		for (round = 0; round < 3; round++) {
			tree = scratch_parse(text);
			assert_non_null(tree);
			printed = cJSON_PrintUnformatted(tree);
			assert_string_equal(printed, expected);
			cJSON_free(printed);
			json_scratch_free(tree);
		}
		cJSON_free(expected);
		free(text);
	}
	assert_null(scratch_parse("{\"a\":"));
	json_scratch_free(NULL);
}

/* The length given is what is parsed: no NUL needed, nothing past it. */
static void
test_scratch_parses_the_length_given(void **state)
{
	static const char text[] = "{\"a\":1}{\"b\":2}";
	cJSON *tree;
	char *printed;

	(void)state;
	tree = json_scratch_parse(text, 7);
	assert_non_null(tree);
	printed = cJSON_PrintUnformatted(tree);
	assert_string_equal(printed, "{\"a\":1}");
	cJSON_free(printed);
	json_scratch_free(tree);
	assert_null(json_scratch_parse(text, 6));	/* cut short */
	assert_null(json_scratch_parse(text, 0));
	assert_null(json_scratch_parse(NULL, 0));
}

/* While one scratch tree lives, the next is an ordinary one. */
static void
test_scratch_one_tree_at_a_time(void **state)
{
	cJSON *first, *second, *again, *object;
	char *printed;

	(void)state;
	first = scratch_parse("{\"a\":[1,2,3]}");
	second = scratch_parse("{\"b\":\"x\"}");
	assert_non_null(first);
	assert_non_null(second);
	assert_ptr_not_equal(first, second);
	/* Freeing the second first must not let the region go. */
	json_scratch_free(second);
	printed = cJSON_PrintUnformatted(first);
	assert_string_equal(printed, "{\"a\":[1,2,3]}");
	cJSON_free(printed);
	json_scratch_free(first);
	/* Now the region is free again, and its first block is the root. */
	again = scratch_parse("{\"c\":null}");
	assert_non_null(again);
#if !defined(UNDER_ASAN)
	assert_ptr_equal(again, first);
	/* The second tree went back to the lists, root last. */
	object = cJSON_CreateObject();
	assert_ptr_equal(object, second);
	cJSON_Delete(object);
#else
	(void)object;
#endif
	json_scratch_free(again);
}

#if defined(__GLIBC__) && !defined(UNDER_ASAN)
#include <malloc.h>

/* A tree past the region frees what did not fit: memory stays level. */
static void
test_scratch_spill_is_freed(void **state)
{
	char *text = document(20000);
	size_t in_use = 0;
	cJSON *tree;
	int round;

	(void)state;
	for (round = 0; round < 50; round++) {
		tree = scratch_parse(text);
		assert_non_null(tree);
		json_scratch_free(tree);
		if (round == 1)
			in_use = mallinfo2().uordblks;
	}
	assert_true(mallinfo2().uordblks == in_use);
	free(text);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees_round_trip_many_times),
		cmocka_unit_test(test_a_freed_block_is_reused),
		cmocka_unit_test(test_scratch_trees_read_as_parsed),
		cmocka_unit_test(test_scratch_parses_the_length_given),
		cmocka_unit_test(test_scratch_one_tree_at_a_time),
#if defined(__GLIBC__) && !defined(UNDER_ASAN)
		cmocka_unit_test(test_scratch_spill_is_freed),
#endif
	};

	json_memory_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
