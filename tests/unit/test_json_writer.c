/*
 * Unit tests for src/domain/json_writer.c: the canonical form's bytes
 * fixed by golden tests (countersign-packets(5)), strings escaped as an
 * independent printer escapes them for every byte a packet could carry,
 * format 1 as the cJSON it was frozen from, and a document left
 * unbalanced is refused.
 */
#include "config.h"

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

#include "json_strict.h"
#include "json_writer.h"
#include "sanitize.h"

/*
 * Format 1 was frozen from cJSON 1.7.15's printer: built against that
 * cJSON, the two are held to each other for every tree.
 */
#if CJSON_VERSION_MAJOR == 1 && CJSON_VERSION_MINOR == 7 && \
    CJSON_VERSION_PATCH == 15
#define FORMAT1_IS_INSTALLED_CJSON 1
#else
#define FORMAT1_IS_INSTALLED_CJSON 0
#endif

/*
 * A tree written by a writer of format (0: display, json_print()'s), or
 * NULL when the writer failed.
 */
static char *
write_tree(const cJSON *tree, int format)
{
	struct json_writer w;

	if (format == 0)
		json_writer_init(&w);
	else
		json_writer_init_canonical(&w, format);
	json_writer_tree(&w, tree);
	return json_writer_finish(&w);
}

/*
 * Strings as an independent printer gives them: cJSON's escapes are the
 * canonical ones (in every cJSON release), json_escape_controls() goes
 * on top for display.  For trees with no numbers but 0..2^31.
 */
static void
assert_tree_written_as_printed(const cJSON *tree)
{
	char *text, *raw, *want;
	int format;

	raw = cJSON_PrintUnformatted(tree);
	assert_non_null(raw);
	for (format = 0; format <= JSON_FORMAT_CURRENT; format++) {
		text = write_tree(tree, format);
		want = format == 0 ? json_escape_controls(raw) : strdup(raw);
		assert_non_null(text);
		assert_non_null(want);
		assert_string_equal(text, want);
		free(text);
		free(want);
	}
	text = json_print(tree);
	want = write_tree(tree, 0);
	assert_string_equal(text, want);
	free(text);
	free(want);
	cJSON_free(raw);
}

/* Format 1 is what cJSON 1.7.15 prints (when that is the cJSON built with). */
static void
assert_format1_as_cjson_1_7_15(const cJSON *tree)
{
	char *text, *raw;

	if (!FORMAT1_IS_INSTALLED_CJSON)
		return;
	text = write_tree(tree, JSON_FORMAT_LEGACY);
	raw = cJSON_PrintUnformatted(tree);
	assert_non_null(text);
	assert_non_null(raw);
	assert_string_equal(text, raw);
	free(text);
	cJSON_free(raw);
}

/*
 * {"k":S,"list":[S,S]} written, and printed from a tree; and S as a
 * member's name, which only a tree walk writes (json_writer_key() takes
 * our own literal names).
 */
static void
assert_same_as_tree(const char *s)
{
	struct json_writer w;
	cJSON *tree, *list;
	char *written, *printed;

	json_writer_init(&w);
	json_writer_object(&w);
	json_writer_key(&w, "k");
	json_writer_string(&w, s);
	json_writer_key(&w, "list");
	json_writer_array(&w);
	json_writer_string(&w, s);
	json_writer_string(&w, s);
	json_writer_end(&w, ']');
	json_writer_end(&w, '}');
	written = json_writer_finish(&w);

	tree = cJSON_CreateObject();
	cJSON_AddStringToObject(tree, "k", s);
	list = cJSON_AddArrayToObject(tree, "list");
	cJSON_AddItemToArray(list, cJSON_CreateString(s));
	cJSON_AddItemToArray(list, cJSON_CreateString(s));
	printed = json_print(tree);

	assert_non_null(written);
	assert_non_null(printed);
	assert_string_equal(written, printed);
	free(written);
	free(printed);
	cJSON_AddStringToObject(tree, s, "v");
	assert_tree_written_as_printed(tree);
	cJSON_Delete(tree);
}

static void
test_strings_as_json_print_gives_them(void **state)
{
	static const char *const strings[] = {
		"", "plain ASCII, 1-2 safe", "a \"quoted\" word", "back\\slash",
		"\b\f\n\r\t", "\x01\x02\x1b[2J\x1f", "DEL\x7f", "caf\xc3\xa9",
		"\xe2\x9c\x93 check", "\xf0\x9f\x98\x80 emoji",
		"C1 \xc2\x85 NEL", "\xc2\x9b" "31m CSI", "LRM \xe2\x80\x8e",
		"LS \xe2\x80\xa8 PS \xe2\x80\xa9", "BOM \xef\xbb\xbf",
		"RLO \xe2\x80\xae", "lone \xff byte", "cut \xe2\x9c",
		"overlong \xc0\xaf", "surrogate \xed\xa0\x80",
		"\xe2\x9c\"", "\xc3", "\x1b]52;c;Y3VybA==\x07",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof strings / sizeof strings[0]; i++)
		assert_same_as_tree(strings[i]);
}

/* Every byte value, alone and between plain text. */
static void
test_every_byte_as_json_print_gives_it(void **state)
{
	char alone[2], inside[8];
	int c;

	(void)state;
	for (c = 1; c < 256; c++) {
		snprintf(alone, sizeof alone, "%c", c);
		assert_same_as_tree(alone);
		snprintf(inside, sizeof inside, "ab%ccd", c);
		assert_same_as_tree(inside);
	}
}

/* Random bytes, weighted to the ones that need care. */
static void
test_random_strings_as_json_print_gives_them(void **state)
{
	static const unsigned char interesting[] = {
		'a', 'Z', ' ', '"', '\\', '/', '\n', '\t', 0x01, 0x1b, 0x1f,
		0x7f, 0x80, 0x85, 0x9b, 0xbf, 0xc2, 0xc3, 0xe2, 0x80, 0x8e,
		0xa8, 0xed, 0xef, 0xf0, 0x9f, 0xf4, 0xf5, 0xff,
	};
	char s[24];
	unsigned seed = 12345;
	size_t length, i;
	int round;

	(void)state;
	for (round = 0; round < 5000; round++) {
		seed = seed * 1103515245u + 12345u;
		length = (seed >> 16) % (sizeof s - 1);
		for (i = 0; i < length; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = (char)interesting[(seed >> 16) %
			    sizeof interesting];
		}
		s[length] = '\0';
		assert_same_as_tree(s);
	}
}

static void
test_values_and_nesting(void **state)
{
	struct json_writer w;
	cJSON *tree;
	char *text;

	(void)state;
	tree = cJSON_Parse("{\"n\":1.5,\"s\":\"x\",\"a\":[]}");
	json_writer_init(&w);
	json_writer_array(&w);
	json_writer_object(&w);
	json_writer_end(&w, '}');
	json_writer_array(&w);
	json_writer_end(&w, ']');
	json_writer_bool(&w, true);
	json_writer_bool(&w, false);
	json_writer_null(&w);
	json_writer_string(&w, NULL);
	json_writer_integer(&w, -42);
	json_writer_integer(&w, 4294967294LL);
	json_writer_integer(&w, -9223372036854775807LL - 1);
	json_writer_tree(&w, tree);
	json_writer_tree(&w, NULL);
	json_writer_object(&w);
	json_writer_key(&w, "inner");
	json_writer_object(&w);
	json_writer_key(&w, "x");
	json_writer_integer(&w, 0);
	json_writer_end(&w, '}');
	json_writer_key(&w, "after");
	json_writer_raw(&w, "[1]", 3);
	json_writer_end(&w, '}');
	json_writer_end(&w, ']');
	text = json_writer_finish(&w);
	assert_non_null(text);
	assert_string_equal(text, "[{},[],true,false,null,null,-42,4294967294,"
	    "-9223372036854775808,"
	    "{\"n\":1.5,\"s\":\"x\",\"a\":[]},null,"
	    "{\"inner\":{\"x\":0},\"after\":[1]}]");
	free(text);
	cJSON_Delete(tree);
}

/* Integers as cJSON prints the same numbers. */
static void
test_integers_as_cjson_prints_them(void **state)
{
	static const long long values[] = { 0, 1, -1, 65534, 2147483647LL,
	    2147483648LL, -2147483648LL, 4294967294LL, 100000000000000LL };
	struct json_writer w;
	cJSON *number;
	char *written, *printed;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		json_writer_init(&w);
		json_writer_integer(&w, values[i]);
		written = json_writer_finish(&w);
		number = cJSON_CreateNumber((double)values[i]);
		printed = json_print(number);
		assert_string_equal(written, printed);
		free(written);
		free(printed);
		cJSON_Delete(number);
	}
}

/* Parsed documents: every kind of value, nesting, empty containers. */
static void
test_trees_in_format1(void **state)
{
	static const char *const documents[] = {
		"{}", "[]", "null", "true", "false", "0", "\"\"", "\"caf\u00e9\"",
		"{\"a\":{},\"b\":[],\"c\":[{}],\"d\":[[[]]]}",
		"[1,-1,0.5,-0.0,1e300,-1e-300,2147483647,2147483648,"
		"-2147483648,-2147483649,123456789012345678,0.1,0.2,"
		"0.30000000000000004,3.141592653589793,100.5,-7.25,1e21,"
		"5e-324,1.7976931348623157e308,4294967294,7500,18.75,"
		"999999999999999,-999999999999999,1000000000000000,"
		"-1000000000000000,1000000000000001,9007199254740993]",
		"{\"\":1,\"k\\u0000x\":2,\"\\u001b[2J\":\"\\u2028\\u202e\",\"\u00ff\":null}",
		"{\"proposed_action\":{\"action_id\":\"t-1\",\"quantity\":100,"
		"\"estimated_value_usd\":7500.25,\"ips_version_referenced\":"
		"{\"ips_id\":\"ips-7f3a\",\"version\":3}},\"reviewer_verdict\":"
		"{\"rule_results\":[{\"rule_id\":\"x\",\"passed\":true,"
		"\"detail\":null}],\"overall_pass\":false}}",
	};
	cJSON *tree;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof documents / sizeof documents[0]; i++) {
		tree = cJSON_Parse(documents[i]);
		assert_non_null(tree);
		assert_format1_as_cjson_1_7_15(tree);
		cJSON_Delete(tree);
	}
}

/* Numbers no parser makes, items no parser makes, deep nesting. */
static void
test_unusual_items(void **state)
{
	cJSON *tree, *item, *deep;
	char *text;
	int i;

	(void)state;
	tree = cJSON_CreateArray();
	cJSON_AddItemToArray(tree, cJSON_CreateNumber(NAN));
	cJSON_AddItemToArray(tree, cJSON_CreateNumber(INFINITY));
	cJSON_AddItemToArray(tree, cJSON_CreateNumber(-INFINITY));
	/* A string item without its string prints as "". */
	item = cJSON_CreateString("gone");
	cJSON_free(item->valuestring);
	item->valuestring = NULL;
	cJSON_AddItemToArray(tree, item);
	/* Deep, but less than cJSON parses: the walk writes it all. */
	deep = cJSON_CreateString("bottom");
	for (i = 0; i < 200; i++) {
		item = i % 2 ? cJSON_CreateArray() : cJSON_CreateObject();
		if (i % 2)
			cJSON_AddItemToArray(item, deep);
		else
			cJSON_AddItemToObject(item, "\xc2\x85", deep);
		deep = item;
	}
	cJSON_AddItemToArray(tree, deep);
	assert_tree_written_as_printed(tree);
	text = write_tree(tree, JSON_FORMAT_CURRENT);
	assert_memory_equal(text, "[null,null,null,\"\",[{\"\xc2\x85\":[{", 25);
	free(text);
	/* Raw text is never the writer's to vouch for. */
	cJSON_AddItemToArray(tree, cJSON_CreateRaw("[1, 2]"));
	assert_null(write_tree(tree, 0));
	assert_null(write_tree(tree, JSON_FORMAT_CURRENT));
	assert_null(json_print(tree));
	cJSON_Delete(tree);
}

/* One number, as format writes it. */
static void
assert_number(int format, double d, const char *want)
{
	cJSON *number = cJSON_CreateNumber(d);
	char *text = write_tree(number, format);

	assert_non_null(text);
	assert_string_equal(text, want);
	free(text);
	cJSON_Delete(number);
}

/*
 * The bytes of the canonical form, fixed here: a change of any of them
 * is a new format (json_writer.h), never an edit of this test.
 */
static void
test_numbers_golden(void **state)
{
	static const struct {
		double d;
		const char *format2, *format1;
	} golden[] = {
		{ 0.0, "0", "0" },
		{ -0.0, "0", "-0" },
		{ 1, "1", "1" },
		{ -42, "-42", "-42" },
		{ 0.1, "0.1", "0.1" },
		{ 100.0 / 3.0, "33.333333333333336", "33.333333333333336" },
		/* Format 1 lost this: 0.3 and 0.1 + 0.2 hashed the same. */
		{ 0.1 + 0.2, "0.30000000000000004", "0.3" },
		{ -7.25, "-7.25", "-7.25" },
		{ 123456.789, "123456.789", "123456.789" },
		{ 1e15, "1000000000000000", "1e+15" },
		{ 999999999999999, "999999999999999", "999999999999999" },
		{ 9007199254740991.0, "9007199254740991",
		    "9.00719925474099e+15" },
		{ 9007199254740992.0, "9007199254740992",
		    "9.00719925474099e+15" },
		{ 123456789012345678.0, "123456789012345680",
		    "1.2345678901234568e+17" },
		{ 1e20, "100000000000000000000", "1e+20" },
		{ 1e21, "1e+21", "1e+21" },
		{ 1.5e300, "1.5e+300", "1.5e+300" },
		{ 1.7976931348623157e308, "1.7976931348623157e+308",
		    "1.79769313486232e+308" },
		{ 0.000001, "0.000001", "1e-06" },
		{ 0.0000012345, "0.0000012345", "1.2345e-06" },
		{ 1e-7, "1e-7", "1e-07" },
		{ -1.5e-300, "-1.5e-300", "-1.5e-300" },
		{ 5e-324, "5e-324", "4.94065645841247e-324" },
		{ NAN, "null", "null" },
		{ -INFINITY, "null", "null" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof golden / sizeof golden[0]; i++) {
		assert_number(JSON_FORMAT_CURRENT, golden[i].d,
		    golden[i].format2);
		assert_number(0, golden[i].d, golden[i].format2);
		assert_number(JSON_FORMAT_LEGACY, golden[i].d,
		    golden[i].format1);
	}
}

/* Strings and a whole tree in the canonical form, byte for byte. */
static void
test_canonical_golden(void **state)
{
	cJSON *tree;
	char *text;

	(void)state;
	tree = cJSON_Parse("{\"z\":[1,-0,0.1,1E21,1e-7,true,null,"
	    "\"q\\\"b\\\\s\\n\\t\\u0001\\u001f\x7f/\"],"
	    "\"caf\xc3\xa9\":\"\xe2\x80\xa8\xe2\x80\xae\\u00e9\","
	    "\"a\":{}}");
	assert_non_null(tree);
	text = json_canonical(tree, JSON_FORMAT_CURRENT);
	assert_non_null(text);
	assert_string_equal(text, "{\"z\":[1,0,0.1,1e+21,1e-7,true,null,"
	    "\"q\\\"b\\\\s\\n\\t\\u0001\\u001f\x7f/\"],"
	    "\"caf\xc3\xa9\":\"\xe2\x80\xa8\xe2\x80\xae\xc3\xa9\",\"a\":{}}");
	free(text);
	text = json_canonical(tree, JSON_FORMAT_LEGACY);
	assert_string_equal(text, "{\"z\":[1,-0,0.1,1e+21,1e-07,true,null,"
	    "\"q\\\"b\\\\s\\n\\t\\u0001\\u001f\x7f/\"],"
	    "\"caf\xc3\xa9\":\"\xe2\x80\xa8\xe2\x80\xae\xc3\xa9\",\"a\":{}}");
	free(text);
	/* For display, DEL and the format controls are escaped too. */
	text = json_print(tree);
	assert_string_equal(text, "{\"z\":[1,0,0.1,1e+21,1e-7,true,null,"
	    "\"q\\\"b\\\\s\\n\\t\\u0001\\u001f\\u007f/\"],"
	    "\"caf\xc3\xa9\":\"\\u2028\\u202e\xc3\xa9\",\"a\":{}}");
	free(text);
	assert_null(json_canonical(NULL, JSON_FORMAT_CURRENT));
	cJSON_Delete(tree);
}

/*
 * Random doubles, from bit patterns and from short decimals: format 2
 * reads back as the same double in no more digits than needed, and
 * format 1 is cJSON 1.7.15's text.
 */
static void
test_random_numbers(void **state)
{
	uint64_t seed = 88172645463325252ULL, bits;
	cJSON *number;
	double d;
	char *text, shorter[40];
	size_t digits;
	const char *p;
	int round;

	(void)state;
	for (round = 0; round < 20000; round++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		if (round % 2) {
			bits = seed;
			memcpy(&d, &bits, sizeof d);
		} else
			d = (double)(int64_t)(seed % 2000000001ULL - 1000000000) /
			    (double)(1ULL << (seed >> 58) % 12) / 100.0;
		number = cJSON_CreateNumber(d);
		assert_format1_as_cjson_1_7_15(number);
		text = write_tree(number, JSON_FORMAT_CURRENT);
		assert_non_null(text);
		if (isnan(d) || isinf(d)) {
			assert_string_equal(text, "null");
		} else {
			assert_true(strtod(text, NULL) == d);
			/* Significant digits, then one fewer must not do. */
			digits = 0;
			for (p = text; *p == '-' || *p == '0' || *p == '.'; p++)
				;
			for (; *p != '\0' && *p != 'e'; p++)
				digits += *p >= '0' && *p <= '9';
			if (digits > 1 && strchr(text, '.') != NULL) {
				snprintf(shorter, sizeof shorter, "%.*e",
				    (int)digits - 2, d);
				assert_true(strtod(shorter, NULL) != d);
			}
		}
		free(text);
		cJSON_Delete(number);
	}
}

static void
test_unbalanced_is_refused(void **state)
{
	struct json_writer w;
	int i;

	(void)state;
	json_writer_init(&w);
	json_writer_object(&w);
	assert_null(json_writer_finish(&w));	/* never closed */

	json_writer_init(&w);
	json_writer_object(&w);
	json_writer_key(&w, "k");
	json_writer_end(&w, '}');
	assert_null(json_writer_finish(&w));	/* a name without a value */

	json_writer_init(&w);
	json_writer_end(&w, ']');
	assert_null(json_writer_finish(&w));	/* closed before opened */

	json_writer_init(&w);
	assert_null(json_writer_finish(&w));	/* nothing at all */

	json_writer_init(&w);
	for (i = 0; i <= JSON_WRITER_DEPTH; i++)
		json_writer_array(&w);
	for (i = 0; i <= JSON_WRITER_DEPTH; i++)
		json_writer_end(&w, ']');
	assert_null(json_writer_finish(&w));	/* deeper than it keeps */
}

static void
assert_verbatim(bool as_cjson, const char *value, const char *want)
{
	struct json_writer w;
	char *text;

	if (as_cjson)
		json_writer_init_cjson(&w);
	else
		json_writer_init(&w);
	json_writer_array(&w);
	json_writer_integer(&w, 1);
	json_writer_verbatim(&w, value, strlen(value));
	json_writer_end(&w, ']');
	text = json_writer_finish(&w);
	assert_non_null(text);
	assert_string_equal(text, want);
	free(text);
}

/*
 * A value from input keeps its numbers and strings byte for byte; only
 * white space between tokens goes, and controls a terminal would act on
 * are escaped as json_print() escapes them.
 */
static void
test_verbatim(void **state)
{
	(void)state;
	assert_verbatim(false, "{\"g\":9007199254740993,\"n\":"
	    "12345678901234567890123,\"e\":1E2,\"f\":1.0,\"z\":-0}",
	    "[1,{\"g\":9007199254740993,\"n\":12345678901234567890123,"
	    "\"e\":1E2,\"f\":1.0,\"z\":-0}]");
	assert_verbatim(false, "{\r\n  \"a b\" : [ 1 ,\t\"c \\\" d\" ]\n}",
	    "[1,{\"a b\":[1,\"c \\\" d\"]}]");
	assert_verbatim(false, "\"caf\\u00e9 \\/ \xc3\xa9\"",
	    "[1,\"caf\\u00e9 \\/ \xc3\xa9\"]");
	/* DEL, U+009B and U+202E: escaped, but not for cJSON's own bytes. */
	assert_verbatim(false, "\"\x7f\xc2\x9b\xe2\x80\xae\"",
	    "[1,\"\\u007f\\u009b\\u202e\"]");
	assert_verbatim(true, "\"\x7f\xc2\x9b\xe2\x80\xae\"",
	    "[1,\"\x7f\xc2\x9b\xe2\x80\xae\"]");
}

/*
 * audit export's shortcut: an object json_object_quick_compact() calls
 * compact is written by json_writer_verbatim() exactly as it is (the
 * converse need not hold: verbatim keeps most non-ASCII text); white
 * space between tokens, DEL and anything from 0x80 are not compact, and
 * what is not certain is not compact either.  A reset writer writes the
 * next line into the same buffer.
 */
static void
test_compact_is_verbatim(void **state)
{
	static const struct {
		const char *text;
		bool certain, compact;
	} cases[] = {
		{ "{\"a\":[1,\"b c\",{\"d\":null}],\"e\":\"0123456789abcdef"
		    "0123456789\",\"f\":\"\\\"x\\u00e9\"}", true, true },
		{ "{\"a\": 1}", true, false },
		{ " {\"a\":1}", true, false },
		{ "{\"a\":1}\n", true, false },
		{ "{\"a\":\"caf\xc3\xa9\"}", true, false },
		{ "{\"a\":\"x\x7fy\"}", true, false },
		{ "{\"a\":\"0123456789\x7f\"}", true, false },
		{ "{\"a\":\"0123456789abc\x01\"}", false, false },
		{ "{\"a\":\"0123456789abcdef\xff\"}", false, false },
		{ "{\"a\":\"0123456789abcdefgh\\\"\"}", true, true },
		{ "{\"a\":\"0123456789abcdefghij", false, false },
		{ "{\"a\":1,\"a\":2}", false, false },
		{ "{\"a\":\"tab\there\"}", false, false },
		{ "[1]", false, false },
	};
	struct json_writer w;
	const char *text;
	size_t i, length;
	bool compact;

	(void)state;
	json_writer_init(&w);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		compact = true;
		assert_int_equal(json_object_quick_compact(cases[i].text,
		    strlen(cases[i].text), &compact), cases[i].certain);
		assert_int_equal(compact, cases[i].compact);
		if (!cases[i].compact)
			continue;
		json_writer_reset(&w);
		json_writer_verbatim(&w, cases[i].text, strlen(cases[i].text));
		text = json_writer_text(&w, &length);
		assert_non_null(text);
		assert_int_equal(length, strlen(cases[i].text));
		assert_memory_equal(text, cases[i].text, length);
	}
	json_writer_discard(&w);
}

/*
 * A protocol message: cJSON's escapes and no others, so its size is what
 * cJSON printed (the 1 MiB limit); and a tree as deep as cJSON parses is
 * written whole, far past JSON_WRITER_DEPTH, one deeper is refused.
 */
static void
test_protocol_message(void **state)
{
	const char *odd = "\x01\x7f\xc2\x85\xe2\x80\xae\xff\"\\/";
	cJSON *m, *result, *deep;
	char *text, *raw, *nested;
	size_t i;

	(void)state;
	m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "jsonrpc", "2.0");
	cJSON_AddNumberToObject(m, "id", 7);
	result = cJSON_AddObjectToObject(m, "result");
	cJSON_AddStringToObject(result, "text", odd);
	cJSON_AddNumberToObject(result, "code", -32600);
	text = json_message(m);
	assert_non_null(text);
	assert_string_equal(text, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":"
	    "{\"text\":\"\\u0001\x7f\xc2\x85\xe2\x80\xae\xff\\\"\\\\/\","
	    "\"code\":-32600}}");
	raw = cJSON_PrintUnformatted(m);
	assert_non_null(raw);
	assert_string_equal(text, raw);
	cJSON_free(raw);
	free(text);
	/* A seq near 2^53 exact: cJSON 1.7.15 gave 9.00719925474099e+15. */
	cJSON_AddNumberToObject(result, "seq", 9007199254740991.0);
	text = json_message(m);
	assert_non_null(text);
	assert_non_null(strstr(text, ",\"seq\":9007199254740991}}"));
	free(text);
	cJSON_Delete(m);

	/* 999 arrays under the message's object: 1000, cJSON's limit. */
	assert_true(JSON_WRITER_DEPTH < 999);
	nested = malloc(2 * 999 + 1);
	assert_non_null(nested);
	for (i = 0; i < 999; i++) {
		nested[i] = '[';
		nested[2 * 999 - 1 - i] = ']';
	}
	nested[2 * 999] = '\0';
	deep = cJSON_Parse(nested);
	assert_non_null(deep);
	m = cJSON_CreateObject();
	cJSON_AddItemToObject(m, "result", deep);
	text = json_message(m);
	assert_non_null(text);
	assert_int_equal(strlen(text), strlen("{\"result\":}") + 2 * 999);
	assert_memory_equal(text + strlen("{\"result\":"), nested, 2 * 999);
	free(text);
	/* One more level than any parse gives: not the writer's to print. */
	result = cJSON_CreateArray();
	cJSON_AddItemToArray(result, m);
	assert_null(json_message(result));
	assert_null(json_message(NULL));
	cJSON_Delete(result);
	free(nested);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_as_json_print_gives_them),
		cmocka_unit_test(test_every_byte_as_json_print_gives_it),
		cmocka_unit_test(test_random_strings_as_json_print_gives_them),
		cmocka_unit_test(test_values_and_nesting),
		cmocka_unit_test(test_integers_as_cjson_prints_them),
		cmocka_unit_test(test_trees_in_format1),
		cmocka_unit_test(test_unusual_items),
		cmocka_unit_test(test_numbers_golden),
		cmocka_unit_test(test_canonical_golden),
		cmocka_unit_test(test_random_numbers),
		cmocka_unit_test(test_unbalanced_is_refused),
		cmocka_unit_test(test_verbatim),
		cmocka_unit_test(test_compact_is_verbatim),
		cmocka_unit_test(test_protocol_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
