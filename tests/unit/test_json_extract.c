/*
 * Unit tests for json_first_object() (src/domain/json_extract.c): the
 * first complete JSON object in raw model output, wherever it sits, and
 * nothing when there is none; hostile text ends quickly and safely.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>

#include "json_extract.h"

static cJSON *
extract(const char *text)
{
	return json_first_object(text, strlen(text));
}

/* The compact form of the object found in text, for exact comparison. */
static void
assert_extracts(const char *text, const char *want)
{
	cJSON *json = extract(text);
	char *printed;

	if (json == NULL)
		fail_msg("no object found in: %s", text);
	assert_true(cJSON_IsObject(json));
	printed = cJSON_PrintUnformatted(json);
	assert_non_null(printed);
	assert_string_equal(printed, want);
	cJSON_free(printed);
	cJSON_Delete(json);
}

static void
assert_none(const char *text, size_t len)
{
	cJSON *json = json_first_object(text, len);

	if (json != NULL) {
		char *printed = cJSON_PrintUnformatted(json);

		print_error("unexpected object: %s\n", printed ? printed : "?");
		cJSON_free(printed);
		cJSON_Delete(json);
	}
	assert_null(json);
}

static void
assert_none_text(const char *text)
{
	assert_none(text, strlen(text));
}

static double
seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	    (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void
test_fenced_block(void **state)
{
	(void)state;
	assert_extracts("Here is my review.\n```json\n{\"review_pass\": true, "
	    "\"n\": [1, 2]}\n```\nLet me know.",
	    "{\"review_pass\":true,\"n\":[1,2]}");
}

static void
test_bare_object_with_prose(void **state)
{
	(void)state;
	assert_extracts("I reviewed it: {\"a\": \"b\"} -- that is all.",
	    "{\"a\":\"b\"}");
	assert_extracts("{\"only\": null}", "{\"only\":null}");
	assert_extracts("{}", "{}");
}

static void
test_first_of_two_objects_wins(void **state)
{
	(void)state;
	assert_extracts("{\"first\": 1}\nand then {\"second\": 2}",
	    "{\"first\":1}");
}

static void
test_braces_inside_strings(void **state)
{
	(void)state;
	assert_extracts("x {\"text\": \"a } b { c }}\", \"k\": {\"n\": 1}} y",
	    "{\"text\":\"a } b { c }}\",\"k\":{\"n\":1}}");
}

static void
test_escaped_quotes_inside_strings(void **state)
{
	cJSON *json;

	(void)state;
	/* The \" does not end the string, so the } after it is still text. */
	json = extract("prose {\"text\": \"he said \\\"}\\\" twice\\\\\", "
	    "\"n\": 2} tail");
	assert_non_null(json);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(json,
	    "text")->valuestring, "he said \"}\" twice\\");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(json,
	    "n")->valueint, 2);
	cJSON_Delete(json);
}

static void
test_no_object(void **state)
{
	(void)state;
	assert_none_text("");
	assert_none_text("I could not review this document.");
	assert_none_text("```json\n```");
	assert_none(NULL, 0);
}

static void
test_truncated_object(void **state)
{
	const char *text = "```json\n{\"review_pass\": true, "
	    "\"blocking_issues\": [";

	(void)state;
	assert_none(text, strlen(text));
	/* Cut short by len, not by the NUL. */
	assert_none("{\"a\": 1}", 7);
}

static void
test_non_object_json(void **state)
{
	(void)state;
	assert_none_text("[1, 2, 3]");
	assert_none_text("42");
	assert_none_text("\"{not an object}\"");
	assert_none_text("true");
}

static void
test_object_inside_array_is_found(void **state)
{
	(void)state;
	/* The first complete object, even when an array holds it. */
	assert_extracts("[{\"a\": 1}, {\"b\": 2}]", "{\"a\":1}");
}

static void
test_invalid_candidate_then_valid(void **state)
{
	(void)state;
	/* A stray brace in prose, then the verdict. */
	assert_extracts("Use {placeholders} as needed. {\"ok\": true}",
	    "{\"ok\":true}");
	/* One that never closes is skipped too. */
	assert_extracts("{ \"unfinished\": [1, 2 ... {\"ok\": true}",
	    "{\"ok\":true}");
	/*
	 * The first complete object is the verdict: when it does not parse,
	 * there is none, whatever is inside it or after it.
	 */
	assert_none_text("{\"a\": 1 \"b\": {\"c\": 2}}");
	assert_none_text("{\"a\": 1 \"b\": {\"c\": 2}} {\"d\": 3}");
	assert_none_text("{\"k\": 1, \"k\": [{\"c\": 2}]}");
	assert_none_text("{\"k\": 1e999, \"l\": [{\"c\": 2}]}");
	assert_none_text("{\"k\": \"\\ud800\", \"l\": [{\"c\": 2}]}");
	assert_none_text("{\"k\": 1, \"k\": 2} {\"k\": 3}");
	assert_none_text("{\"a\": 1,} {\"a\": 2}");
	assert_none_text("{\"k\": 1 2} \" {\"v\": 1}");
}

static void
test_strictness_is_kept(void **state)
{
	(void)state;
	/* \u0000 would truncate silently in cJSON; the strict parse refuses. */
	assert_none_text("{\"a\": \"x\\u0000y\"}");
	/* A raw newline inside a string is not JSON. */
	assert_none_text("{\"a\": \"x\ny\"}");
	/* Invalid UTF-8. */
	assert_none_text("{\"a\": \"\xc3\x28\"}");
}

static void
test_hostile_open_braces(void **state)
{
	size_t len = 100000;
	char *text = malloc(len + 32);
	struct timespec start;
	cJSON *json;

	(void)state;
	assert_non_null(text);
	memset(text, '{', len);
	clock_gettime(CLOCK_MONOTONIC, &start);
	assert_none(text, len);
	/* A valid object after them is still found. */
	memcpy(text + len, "{\"ok\": 1}", 9);
	json = json_first_object(text, len + 9);
	assert_non_null(json);
	assert_true(cJSON_IsObject(json));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(json, "ok")->valueint,
	    1);
	cJSON_Delete(json);
	assert_true(seconds_since(&start) < 2.0);
	free(text);
}

static void
test_hostile_deep_nesting(void **state)
{
	static const char level[] = "{\"a\":";
	size_t levels = 200000, i, len = levels * 5;
	char *text = malloc(len + 1);
	struct timespec start;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < levels; i++)
		memcpy(text + i * 5, level, 5);
	text[len] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* Never closed, and far deeper than any verdict. */
	assert_none(text, len);
	assert_true(seconds_since(&start) < 5.0);
	free(text);
}

static void
test_hostile_unterminated_string(void **state)
{
	size_t len = 1 << 20, i;
	char *text = malloc(len);
	struct timespec start;

	(void)state;
	assert_non_null(text);
	/* {"{"{"{"... : every other brace is inside a string that never ends */
	for (i = 0; i < len; i++)
		text[i] = i % 2 == 0 ? '{' : '"';
	clock_gettime(CLOCK_MONOTONIC, &start);
	assert_none(text, len);
	assert_true(seconds_since(&start) < 5.0);
	free(text);
}

/* levels nested objects {"a":{"a":...1...}} into text. */
static void
nested(char *text, size_t size, size_t levels)
{
	size_t i, used = 0;

	for (i = 0; i < levels; i++)
		used += (size_t)snprintf(text + used, size - used, "{\"a\":");
	used += (size_t)snprintf(text + used, size - used, "1");
	for (i = 0; i < levels; i++)
		text[used++] = '}';
	text[used] = '\0';
}

static void
test_deep_but_reasonable_nesting_is_found(void **state)
{
	char text[1024];
	cJSON *json, *item;
	size_t i;

	(void)state;
	nested(text, sizeof text, 30);
	json = extract(text);
	assert_non_null(json);
	for (item = json, i = 0; i < 30; i++)
		item = cJSON_GetObjectItemCaseSensitive(item, "a");
	assert_true(cJSON_IsNumber(item));
	cJSON_Delete(json);
}

/* Levels of {"a": ...} above the number at the bottom of json. */
static size_t
depth_of(const cJSON *json)
{
	size_t depth = 0;

	while (cJSON_IsObject(json)) {
		json = cJSON_GetObjectItemCaseSensitive(json, "a");
		depth++;
	}
	assert_true(cJSON_IsNumber(json));
	return depth;
}

static void
test_nesting_beyond_the_cap(void **state)
{
	char text[1024];
	cJSON *json;

	(void)state;
	/*
	 * 40 levels: past the 32 the extractor allows (json_extract.c), so
	 * the outer candidates are given up and the first complete object
	 * within the cap, 32 levels deep, is the one found.
	 */
	nested(text, sizeof text, 40);
	json = extract(text);
	assert_non_null(json);
	assert_int_equal(depth_of(json), 32);
	cJSON_Delete(json);
}

/* The text of key's value in text, or NULL when there is none. */
static char *
member_text(const char *text, const char *key)
{
	size_t start, length;
	char *value;

	if (!json_member_text(text, strlen(text), key, &start, &length))
		return NULL;
	value = strndup(text + start, length);
	assert_non_null(value);
	return value;
}

static void
assert_member_text(const char *text, const char *key, const char *want)
{
	char *got = member_text(text, key);

	if (got == NULL)
		fail_msg("no %s in: %s", key, text);
	assert_string_equal(got, want);
	free(got);
}

/*
 * The bytes of a member's value as written: numbers a parse into doubles
 * would change, every kind of value, wherever the member sits, with the
 * white space around it left out and inside it kept.
 */
static void
test_member_text(void **state)
{
	const char *packet = "{\"type\":\"packet\",\"v\":{\"g\":"
	    "9007199254740993,\"n\":12345678901234567890123,\"e\":1E2,"
	    "\"f\":1.0,\"s\":\"a}\\\"],\"},\"last\":-0}";

	(void)state;
	assert_member_text(packet, "v", "{\"g\":9007199254740993,"
	    "\"n\":12345678901234567890123,\"e\":1E2,\"f\":1.0,"
	    "\"s\":\"a}\\\"],\"}");
	assert_member_text(packet, "type", "\"packet\"");
	assert_member_text(packet, "last", "-0");
	assert_member_text(" {\r\n \"a\" : [ 1 , { \"b\" : [] } ] ,\n"
	    " \"v\" :\t1.50e+3\n}\n", "v", "1.50e+3");
	assert_member_text("{\"a\":[1,{\"b\":[]}],\"v\":[ 1 ,\n2 ]}", "v",
	    "[ 1 ,\n2 ]");
	assert_member_text("{\"v\":null}", "v", "null");
	assert_member_text("{\"v\":true,\"w\":false}", "w", "false");
	/* A key written with an escape names what it decodes to. */
	assert_member_text("{\"re\\u0076iewer\":\"x\"}", "reviewer",
	    "\"x\"");
	/* Only top-level members count. */
	assert_null(member_text("{\"a\":{\"v\":1}}", "v"));
	assert_null(member_text("{\"a\":\"\\\"v\\\":1\"}", "v"));
	assert_null(member_text("{}", "v"));
	assert_null(member_text("[\"v\",1]", "v"));
	assert_null(member_text("{\"vv\":1,\"V\":2}", "v"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fenced_block),
		cmocka_unit_test(test_bare_object_with_prose),
		cmocka_unit_test(test_first_of_two_objects_wins),
		cmocka_unit_test(test_braces_inside_strings),
		cmocka_unit_test(test_escaped_quotes_inside_strings),
		cmocka_unit_test(test_no_object),
		cmocka_unit_test(test_truncated_object),
		cmocka_unit_test(test_non_object_json),
		cmocka_unit_test(test_object_inside_array_is_found),
		cmocka_unit_test(test_invalid_candidate_then_valid),
		cmocka_unit_test(test_strictness_is_kept),
		cmocka_unit_test(test_hostile_open_braces),
		cmocka_unit_test(test_hostile_deep_nesting),
		cmocka_unit_test(test_hostile_unterminated_string),
		cmocka_unit_test(test_deep_but_reasonable_nesting_is_found),
		cmocka_unit_test(test_nesting_beyond_the_cap),
		cmocka_unit_test(test_member_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
