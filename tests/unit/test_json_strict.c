/*
 * Unit tests for src/domain/json_strict.c: json_parse_strict() must refuse
 * everything cJSON 1.7.15 lets through (include/json_strict.h) and that
 * SPEC section 1 calls bad input, with an EXIT_DATA error; json_print()
 * must escape terminal controls and still print JSON that reads back the same.
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
#include <strings.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "exit_codes.h"
#include "json_strict.h"

/* The literal's own length: embedded NUL bytes are part of the input. */
#define LEN(literal)	(sizeof(literal) - 1)
#define REFUSED(literal, field) \
	assert_refused((literal), LEN(literal), (field))
#define ACCEPTED(literal) \
	parse_ok((literal), LEN(literal))

/* Any field: the test only requires a refusal with a message. */
#define ANY_FIELD	NULL

/*
 * Prints input text in a failure message with every byte outside printable
 * ASCII as \xNN: the inputs hold ESC sequences that must not reach the
 * terminal running the tests.
 */
static void
print_input(const char *what, const char *text, size_t len)
{
	char shown[512];
	size_t i, used = 0;

	for (i = 0; i < len && used + 5 < sizeof shown; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c >= 0x20 && c < 0x7f)
			shown[used++] = (char)c;
		else
			used += (size_t)snprintf(shown + used,
			    sizeof shown - used, "\\x%02x", c);
	}
	shown[used] = '\0';
	print_error("%s: %s%s\n", what, shown, i < len ? "..." : "");
}

static void
error_poison(struct error *err)
{
	err->status = -1;
	strcpy(err->field, "poison");
	strcpy(err->message, "poison");
}

static cJSON *
parse_ok(const char *text, size_t len)
{
	struct error err;
	size_t offset = 12345;
	cJSON *json;

	error_poison(&err);
	json = json_parse_strict(text, len, &offset, &err);
	if (json == NULL) {
		print_input("refused", text, len);
		print_error("  -> status %d field \"%s\": %s\n", err.status,
		    err.field, err.message);
	}
	assert_non_null(json);
	return json;
}

/*
 * A refusal: NULL, EXIT_DATA, a real message, and the field when one is
 * expected.  Returns the error offset.
 */
static size_t
assert_refused(const char *text, size_t len, const char *field)
{
	struct error err, full_err;
	size_t offset = 12345;
	cJSON *json;

	error_poison(&err);
	json = json_parse_strict(text, len, &offset, &err);
	if (json != NULL) {
		print_input("accepted", text, len);
		cJSON_Delete(json);
		fail();
	}
	/* Neither the quick check nor the full checks may accept it. */
	error_clear(&full_err);
	if (json_object_quick(text, len, NULL, 0) ||
	    (json = json_parse_strict_full(text, len, NULL,
	    &full_err)) != NULL) {
		print_input("accepted by the quick or the full checks", text,
		    len);
		fail();
	}
	assert_int_equal(err.status, EXIT_DATA);
	assert_string_not_equal(err.message, "poison");
	assert_true(strlen(err.message) > 5);
	if (field != NULL)
		assert_string_equal(err.field, field);
	assert_true(offset <= len);
	return offset;
}

static char *
nested_arrays(size_t depth)
{
	char *text = malloc(2 * depth + 1);

	assert_non_null(text);
	memset(text, '[', depth);
	memset(text + depth, ']', depth);
	text[2 * depth] = '\0';
	return text;
}

/* "{"a":{"a":...{"a":1}...}}" with depth objects. */
static char *
nested_objects(size_t depth)
{
	char *text = malloc(6 * depth + 2), *p;
	size_t i;

	assert_non_null(text);
	p = text;
	for (i = 0; i < depth; i++) {
		memcpy(p, "{\"a\":", 5);
		p += 5;
	}
	*p++ = '1';
	memset(p, '}', depth);
	p[depth] = '\0';
	return text;
}

/* Lower-cased copy, so \u escapes compare whatever the hex case. */
static char *
lowered(const char *text)
{
	char *copy = strdup(text), *p;

	assert_non_null(copy);
	for (p = copy; *p != '\0'; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	}
	return copy;
}

/* Prints a one-string document and checks the exact (case-folded) output. */
static char *
print_string(const char *value, const char *expected_lower)
{
	cJSON *json = cJSON_CreateString(value);
	char *printed, *lower;

	assert_non_null(json);
	printed = json_print(json);
	cJSON_Delete(json);
	assert_non_null(printed);
	lower = lowered(printed);
	assert_string_equal(lower, expected_lower);
	free(lower);
	return printed;
}

/* Accepted input. */

static void
test_accepts_object_with_surrounding_whitespace(void **state)
{
	static const char text[] =
	    " \t\r\n{\"a\": 1, \"b\": [true, null, \"x\"]}\n\t \r\n";
	cJSON *json = ACCEPTED(text);

	(void)state;
	assert_true(cJSON_IsObject(json));
	assert_int_equal(
	    (int)cJSON_GetObjectItemCaseSensitive(json, "a")->valuedouble, 1);
	assert_int_equal(cJSON_GetArraySize(
	    cJSON_GetObjectItemCaseSensitive(json, "b")), 3);
	cJSON_Delete(json);
}

static void
test_accepts_nested_values(void **state)
{
	static const char text[] =
	    "{\"a\": {\"b\": {\"c\": \"deep\"}}, \"n\": -12.5e1}";
	cJSON *json = ACCEPTED(text), *c;

	(void)state;
	c = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(json, "a"), "b"), "c");
	assert_true(cJSON_IsString(c));
	assert_string_equal(c->valuestring, "deep");
	assert_true(cJSON_GetObjectItemCaseSensitive(json, "n")->valuedouble ==
	    -125.0);
	cJSON_Delete(json);
}

static void
test_accepts_same_key_in_sibling_objects(void **state)
{
	static const char text[] = "{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}}";
	cJSON *json = ACCEPTED(text);

	(void)state;
	assert_int_equal(cJSON_GetArraySize(json), 2);
	cJSON_Delete(json);
}

static void
test_accepts_valid_multibyte_utf8(void **state)
{
	static const char text[] =
	    "{\"caf\xc3\xa9\": \"\xe2\x82\xac \xf0\x9f\x98\x80 \xed\x9f\xbf\"}";
	cJSON *json = ACCEPTED(text), *item;

	(void)state;
	item = cJSON_GetObjectItemCaseSensitive(json, "caf\xc3\xa9");
	assert_true(cJSON_IsString(item));
	assert_string_equal(item->valuestring,
	    "\xe2\x82\xac \xf0\x9f\x98\x80 \xed\x9f\xbf");
	cJSON_Delete(json);
}

static void
test_accepts_text_without_terminating_nul(void **state)
{
	/* Only the first len bytes count: "{}" followed by bytes never read. */
	static const char text[] = "{\"a\":2}garbage";
	cJSON *json = parse_ok(text, 7);

	(void)state;
	assert_int_equal(
	    (int)cJSON_GetObjectItemCaseSensitive(json, "a")->valuedouble, 2);
	cJSON_Delete(json);
}

static void
test_accepts_null_error_offset(void **state)
{
	struct error err;
	cJSON *json;

	(void)state;
	json = json_parse_strict("{\"a\":1}", 7, NULL, &err);
	assert_non_null(json);
	cJSON_Delete(json);
	assert_null(json_parse_strict("{\"a\":", 5, NULL, &err));
	assert_int_equal(err.status, EXIT_DATA);
}

/* Malformed and incomplete input. */

static void
test_refuses_truncated_object(void **state)
{
	(void)state;
	REFUSED("{\"a\": 1", ANY_FIELD);
	REFUSED("{\"a\":", ANY_FIELD);
	REFUSED("{\"a\"", ANY_FIELD);
	REFUSED("{", ANY_FIELD);
}

static void
test_refuses_truncated_string(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"abc", ANY_FIELD);
	REFUSED("{\"a\": \"abc\\", ANY_FIELD);
}

static void
test_refuses_truncated_array(void **state)
{
	(void)state;
	REFUSED("[1, 2", ANY_FIELD);
}

static void
test_refuses_trailing_word(void **state)
{
	size_t offset;

	(void)state;
	offset = REFUSED("{} x", ANY_FIELD);
	assert_int_equal(offset, 3);
}

static void
test_refuses_two_objects(void **state)
{
	size_t offset;

	(void)state;
	offset = REFUSED("{}{}", ANY_FIELD);
	assert_int_equal(offset, 2);
	REFUSED("{\"a\":1}\n{\"b\":2}\n", ANY_FIELD);
}

static void
test_refuses_trailing_punctuation(void **state)
{
	(void)state;
	REFUSED("{}]", ANY_FIELD);
	REFUSED("{},", ANY_FIELD);
	REFUSED("{\"a\":1,}", ANY_FIELD);
	REFUSED("[1,]", ANY_FIELD);
}

static void
test_refuses_empty_input(void **state)
{
	(void)state;
	REFUSED("", ANY_FIELD);
}

static void
test_refuses_whitespace_only(void **state)
{
	(void)state;
	REFUSED(" \t\r\n  \n", ANY_FIELD);
}

static void
test_refuses_non_json_text(void **state)
{
	(void)state;
	REFUSED("approve", ANY_FIELD);
	REFUSED("hello world", ANY_FIELD);
	REFUSED("<packet/>", ANY_FIELD);
	REFUSED("{'a': 1}", ANY_FIELD);
	REFUSED("{a: 1}", ANY_FIELD);
	REFUSED("{\"a\" 1}", ANY_FIELD);
	REFUSED("{\"a\": \"\\x41\"}", ANY_FIELD);
	REFUSED("{\"a\": NaN}", ANY_FIELD);
	REFUSED("{\"a\": Infinity}", ANY_FIELD);
}

static void
test_error_offset_points_into_second_line(void **state)
{
	static const char text[] = "{\"a\": 1,\n  \"b\": ?}";
	const char *newline = strchr(text, '\n');
	size_t offset;

	(void)state;
	offset = REFUSED(text, ANY_FIELD);
	assert_true(offset > (size_t)(newline - text));
	assert_true(offset < LEN(text));
	assert_true(offset <= (size_t)(strchr(text, '?') - text));
}

static void
test_error_offset_names_bad_utf8_byte(void **state)
{
	static const char text[] = "{\"a\": 1,\n \"b\": \"x\x80\"}";
	size_t offset;

	(void)state;
	offset = REFUSED(text, ANY_FIELD);
	assert_int_equal(offset, (size_t)(strchr(text, '\x80') - text));
}

/* Duplicate and case-variant keys. */

static void
test_refuses_duplicate_top_level_key(void **state)
{
	(void)state;
	REFUSED("{\"a\": 1, \"a\": 2}", "a");
	REFUSED("{\"type\": \"ips\", \"x\": 0, \"type\": \"packet\"}", "type");
}

static void
test_refuses_duplicate_nested_key(void **state)
{
	(void)state;
	REFUSED("{\"a\": {\"b\": 1, \"b\": 2}}", "a.b");
	REFUSED("{\"x\": 1, \"a\": {\"c\": {\"d\": true, \"d\": false}}}",
	    "a.c.d");
}

static void
test_refuses_duplicate_key_inside_array(void **state)
{
	(void)state;
	REFUSED("{\"a\": [{\"k\": 1}, {\"k\": 1, \"k\": 2}]}", "a[1].k");
}

static void
test_refuses_duplicate_key_among_many(void **state)
{
	/* More than 16 keys: the duplicate is found beyond a small buffer. */
	static const char text[] =
	    "{\"k01\":1,\"k02\":1,\"k03\":1,\"k04\":1,\"k05\":1,\"k06\":1,"
	    "\"k07\":1,\"k08\":1,\"k09\":1,\"k10\":1,\"k11\":1,\"k12\":1,"
	    "\"k13\":1,\"k14\":1,\"k15\":1,\"k16\":1,\"k17\":1,\"k18\":1,"
	    "\"k19\":1,\"k20\":1,\"k07\":2}";

	(void)state;
	REFUSED(text, "k07");
}

/*
 * Keys that differ only in case are distinct (SPEC 1 refuses only
 * duplicate keys; every lookup compares names with their case), by the
 * quick check and the full checks alike.
 */
static void
test_accepts_case_variant_keys(void **state)
{
	static const char text[] =
	    "{\"type\": \"roster\", \"authors\": [\"a\"], \"Authors\": [\"b\"]}";
	static const char nested[] =
	    "{\"proposed_action\": {\"Side\": \"sell\", \"side\": \"buy\"}}";
	struct error err;
	cJSON *json;

	(void)state;
	json = ACCEPTED(text);
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
	    json, "authors"), 0)->valuestring, "a");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
	    json, "Authors"), 0)->valuestring, "b");
	cJSON_Delete(json);
	assert_true(json_object_quick(text, LEN(text), NULL, 0));
	error_clear(&err);
	json = json_parse_strict_full(nested, LEN(nested), NULL, &err);
	assert_non_null(json);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(json, "proposed_action"),
	    "side")->valuestring, "buy");
	cJSON_Delete(json);
}

/* An exact duplicate beside a case variant is still a duplicate. */
static void
test_refuses_duplicate_beside_case_variant(void **state)
{
	(void)state;
	REFUSED("{\"a\": 1, \"A\": 2, \"a\": 3}", "a");
}

/*
 * A bad byte, escape or number is refused by checks that do not follow
 * the structure; the error still names the field that holds it (SPEC 1:
 * "file, line and field"), found again only once there is an error.
 */
static void
refused_in(const char *text, size_t len, const char *field, bool in_key)
{
	struct error err;
	const char *tail = " (in a key)";
	size_t tail_len = strlen(tail), message_len;

	error_poison(&err);
	assert_null(json_parse_strict(text, len, NULL, &err));
	assert_int_equal(err.status, EXIT_DATA);
	if (strcmp(err.field, field) != 0) {
		print_input("input", text, len);
		print_error("  -> field \"%s\", wanted \"%s\"\n", err.field,
		    field);
		fail();
	}
	message_len = strlen(err.message);
	assert_int_equal(message_len > tail_len &&
	    strcmp(err.message + message_len - tail_len, tail) == 0, in_key);
}

#define REFUSED_IN(literal, field) \
	refused_in((literal), LEN(literal), (field), false)
#define REFUSED_IN_KEY(literal, object) \
	refused_in((literal), LEN(literal), (object), true)

static void
test_bad_bytes_name_their_field(void **state)
{
	(void)state;
	REFUSED_IN("{\"decision\": \"approved\\u0000 rejected\"}", "decision");
	REFUSED_IN("{\"type\":\"roster\",\"authors\":[\"a\\u0000b\"]}",
	    "authors[0]");
	REFUSED_IN("{\"a\":\"x\0y\"}", "a");
	REFUSED_IN("{\"a\": {\"b\": [1, \"\x80\"]}}", "a.b[1]");
	REFUSED_IN("{\"a\": [\"x\", \"y\tz\"]}", "a[1]");
	REFUSED_IN("{\"a\": [01]}", "a[0]");
	/* Brackets, quotes and commas inside strings are only text. */
	REFUSED_IN("{\"x\":[{\"y\":\"}\\\",[\"},\"]\"],\"z\":{\"w\":\"\\u0000\"}}",
	    "z.w");
	/* Keys are named as decoded, as every other error names them. */
	REFUSED_IN("{\"caf\\u00e9\": {\"x\\\"y\": \"\xff\"}}",
	    "caf\xc3\xa9.x\"y");
	REFUSED_IN("{\"\\ud83d\\ude00\": \"\\u0000\"}", "\xf0\x9f\x98\x80");
	/* Pretty-printed, over several lines. */
	REFUSED_IN("{\n \"type\": \"ips\",\n \"constraints\": {\n"
	    "  \"excluded_sectors\": [\"Tobacco\", \"Gam\x01ing\"]}\n}\n",
	    "constraints.excluded_sectors[1]");
}

static void
test_bad_bytes_in_keys_name_their_object(void **state)
{
	(void)state;
	REFUSED_IN_KEY("{\"a\": {\"b\\u0000\": 1}}", "a");
	REFUSED_IN_KEY("{\"p\": [{\"\xc0\xaf\": 1}]}", "p[0]");
	/* A key of the top-level object: no field, but said so. */
	REFUSED_IN_KEY("{\"a\\u0000b\": 1}", "");
}

static void
test_bad_bytes_between_tokens_name_no_field(void **state)
{
	(void)state;
	REFUSED_IN("{\"a\":1,\0\"b\":2}", "");
	REFUSED_IN("\xff{\"a\":1}", "");
	REFUSED_IN("\"\\u0000\"", "");
}

/* json_locate(): where the value a field path names starts. */
static void
locates(const char *text, const char *path, const char *at)
{
	size_t offset = 12345;

	if (!json_locate(text, strlen(text), path, &offset)) {
		print_error("%s not found in %s\n", path, text);
		fail();
	}
	if (offset != (size_t)(strstr(text, at) - text)) {
		print_error("%s found at %zu in %s, wanted %zu\n", path, offset,
		    text, (size_t)(strstr(text, at) - text));
		fail();
	}
}

static void
test_locate_finds_values(void **state)
{
	static const char pretty[] =
	    "{\n \"a\": 1,\n \"b\": {\"c\": [10,\n  20]},\n \"ab\": 3}\n";

	(void)state;
	locates(pretty, "a", "1,");
	locates(pretty, "b", "{\"c\"");
	locates(pretty, "b.c", "[10");
	locates(pretty, "b.c[1]", "20");
	locates(pretty, "ab", "3}");
	/* Keys that hold dots, escapes; brackets inside strings. */
	locates("{\"securities\": {\"BRK.B\": {\"sector\": 7}}}",
	    "securities.BRK.B.sector", "7");
	locates("{\"caf\\u00e9\": {\"a\\\"b\": 5}}", "caf\xc3\xa9.a\"b", "5");
	locates("{\"x\": \"]}\\\"{\", \"y\": [[], {\"z\": 9}]}", "y[1].z", "9");
	/* Of two equal keys, the later: the one a duplicate error names. */
	locates("{\"a\": 1, \"a\": 2}", "a", "2");
	/* A key spelt "" at the top adds nothing to a path. */
	locates("{\"\": {\"x\": 4}}", "x", "4");
}

static void
test_locate_misses(void **state)
{
	static const char text[] = "{\"a\": {\"b\": [1, 2]}, \"ab\": 3}";
	size_t offset = 77;

	(void)state;
	assert_false(json_locate(text, LEN(text), "b", &offset));
	assert_false(json_locate(text, LEN(text), "a.b[2]", &offset));
	assert_false(json_locate(text, LEN(text), "a.c", &offset));
	assert_false(json_locate(text, LEN(text), "a.", &offset));
	assert_false(json_locate(text, LEN(text), "", &offset));
	assert_int_equal(offset, 77);
}

/* A deep, wide text is searched in one pass, not once per level. */
static void
test_locate_is_linear(void **state)
{
	size_t depth = 900, width = 200000, i, offset = 0;
	char *text = malloc(depth * 6 + width * 2 + 64), *p = text;

	(void)state;
	assert_non_null(text);
	p += sprintf(p, "{\"k\":");
	for (i = 0; i < depth; i++)
		p += sprintf(p, "{\"a\":");
	*p++ = '[';
	for (i = 0; i < width; i++)
		p += sprintf(p, "%s1", i > 0 ? "," : "");
	*p++ = ']';
	for (i = 0; i < depth; i++)
		*p++ = '}';
	p += sprintf(p, ",\"z\":5}");
	locates(text, "z", "5}");
	assert_false(json_locate(text, (size_t)(p - text), "k.a.a.b",
	    &offset));
	free(text);
}

/* NUL, as an escape and as a raw byte. */

static void
test_refuses_nul_escape_in_string(void **state)
{
	(void)state;
	REFUSED("{\"decision\": \"approved\\u0000 rejected\"}", ANY_FIELD);
	REFUSED("{\"a\": \"\\u0000\"}", ANY_FIELD);
}

/*
 * cJSON reads a \u without four hex digits as U+0000, which would end the
 * string there ("ok\uZZZZevil" read as "ok"), as \u0000 would.
 */
static void
test_refuses_u_escape_without_four_hex_digits(void **state)
{
	(void)state;
	REFUSED_IN("{\"a\": \"ok\\uZZZZevil\"}", "a");
	REFUSED_IN("{\"a\": [\"\\u12\"]}", "a[0]");
	REFUSED_IN("{\"a\": \"\\u00g0\"}", "a");
	REFUSED_IN_KEY("{\"3i1mu009b2a31m\\u009;on\":\"reject\"}", "");
	REFUSED("{\"a\": \"\\u", ANY_FIELD);
}

static void
test_refuses_nul_escape_in_key(void **state)
{
	(void)state;
	REFUSED("{\"a\\u0000b\": 1}", ANY_FIELD);
}

static void
test_refuses_nul_escape_after_escaped_backslash(void **state)
{
	/* JSON "\\\u0000": a literal backslash, then a real NUL escape. */
	(void)state;
	REFUSED("{\"a\": \"\\\\\\u0000\"}", ANY_FIELD);
}

static void
test_accepts_escaped_backslash_before_u0000_text(void **state)
{
	/* JSON "\\u0000" is a backslash followed by the text u0000. */
	static const char text[] = "{\"a\": \"\\\\u0000\"}";
	cJSON *json = ACCEPTED(text), *a;

	(void)state;
	a = cJSON_GetObjectItemCaseSensitive(json, "a");
	assert_true(cJSON_IsString(a));
	assert_string_equal(a->valuestring, "\\u0000");
	assert_int_equal(strlen(a->valuestring), 6);
	cJSON_Delete(json);
}

static void
test_accepts_other_u_escapes(void **state)
{
	static const char text[] = "{\"a\": \"\\u0041\\u00e9\\u0001\"}";
	cJSON *json = ACCEPTED(text), *a;

	(void)state;
	a = cJSON_GetObjectItemCaseSensitive(json, "a");
	assert_string_equal(a->valuestring, "A\xc3\xa9\x01");
	cJSON_Delete(json);
}

static void
test_refuses_raw_nul_byte_in_string(void **state)
{
	static const char text[] = "{\"a\":\"x\0y\"}";
	size_t offset;

	(void)state;
	offset = REFUSED(text, ANY_FIELD);
	assert_int_equal(offset, 7);
}

static void
test_refuses_raw_nul_byte_after_value(void **state)
{
	size_t offset;

	(void)state;
	offset = REFUSED("{}\0", ANY_FIELD);
	assert_int_equal(offset, 2);
	REFUSED("{\"a\":1}\0{\"a\":2}", ANY_FIELD);
}

/* Invalid UTF-8. */

static void
test_refuses_lone_continuation_byte(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"\x80\"}", ANY_FIELD);
}

static void
test_refuses_overlong_slash(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"\xc0\xaf\"}", ANY_FIELD);
	REFUSED("{\"a\": \"\xe0\x80\xaf\"}", ANY_FIELD);
}

static void
test_refuses_encoded_surrogate(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"\xed\xa0\x80\"}", ANY_FIELD);
}

static void
test_refuses_f5_byte(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"\xf5\x80\x80\x80\"}", ANY_FIELD);
	REFUSED("{\"a\": \"\xf5\"}", ANY_FIELD);
}

static void
test_refuses_truncated_sequence(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"\xe2\x82\"}", ANY_FIELD);
	/* At the very end of the input, too. */
	REFUSED("\"\xe2\x82", ANY_FIELD);
}

static void
test_refuses_invalid_utf8_in_key(void **state)
{
	(void)state;
	REFUSED("{\"\xff\": 1}", ANY_FIELD);
}

static void
test_refuses_lone_surrogate_escape(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"\\ud800\"}", ANY_FIELD);
	REFUSED("{\"a\": \"\\udc00x\"}", ANY_FIELD);
}

/* Numbers. */

static void
test_refuses_infinite_number(void **state)
{
	(void)state;
	REFUSED("{\"a\": 1e400}", "a");
	REFUSED("{\"a\": {\"b\": [1, -1e400]}}", "a.b[1]");
}

/*
 * -0 is 0 and is accepted in every spelling; a negative number too small
 * for a double reads as -0 too, and is refused rather than taken for 0.
 * Other numbers, strings and keys holding digits do not confuse the two.
 */
static void
test_negative_zero_and_negative_underflow(void **state)
{
	static const char zeros[] =
	    "{\"a\": -0, \"b\": [-0.0, -0e5, -0.000E-400], \"c\": -0.0e+0}";
	cJSON *json;

	(void)state;
	json = ACCEPTED(zeros);
	cJSON_Delete(json);
	REFUSED("{\"a\": -1e-400}", "a");
	REFUSED("{\"a\": -0, \"b\": [1, \"-9\", -0.0, -0.5e-999]}", "b[3]");
	REFUSED("{\"1-0\": -0, \"x\": {\"-2\": -0.1e-330}}", "x.-2");
	/* Positive underflow reads as 0, and 0 is what it is nearest. */
	json = ACCEPTED("{\"a\": 1e-400}");
	cJSON_Delete(json);
}

static void
test_accepts_large_finite_number(void **state)
{
	static const char text[] = "{\"a\": 1e300}";
	cJSON *json = ACCEPTED(text);

	(void)state;
	assert_true(cJSON_GetObjectItemCaseSensitive(json, "a")->valuedouble ==
	    1e300);
	cJSON_Delete(json);
}

/* Nesting depth. */

static void
test_refuses_nesting_1001_arrays(void **state)
{
	char *text = nested_arrays(1001);

	(void)state;
	assert_refused(text, strlen(text), ANY_FIELD);
	free(text);
}

static void
test_accepts_nesting_999_arrays(void **state)
{
	char *text = nested_arrays(999);
	cJSON *json;

	(void)state;
	json = parse_ok(text, strlen(text));
	assert_true(cJSON_IsArray(json));
	cJSON_Delete(json);
	free(text);
}

static void
test_refuses_nesting_1001_objects(void **state)
{
	char *text = nested_objects(1001);

	(void)state;
	assert_refused(text, strlen(text), ANY_FIELD);
	free(text);
}

static void
test_accepts_nesting_999_objects(void **state)
{
	char *text = nested_objects(999);
	cJSON *json;

	(void)state;
	json = parse_ok(text, strlen(text));
	assert_true(cJSON_IsObject(json));
	cJSON_Delete(json);
	free(text);
}

/*
 * RFC 8259 strictness beyond cJSON: white space is only space, tab, LF and
 * CR; control characters inside strings must be escaped; numbers have no
 * leading zeros.  SPEC 1 refuses malformed JSON.
 */

static void
test_refuses_control_byte_before_value(void **state)
{
	(void)state;
	REFUSED("\x0c{\"a\": 1}", ANY_FIELD);
}

static void
test_refuses_escape_byte_between_tokens(void **state)
{
	(void)state;
	REFUSED("{\"a\":\x1b 1}", ANY_FIELD);
}

static void
test_refuses_control_byte_after_value(void **state)
{
	(void)state;
	REFUSED("{\"a\": 1}\x0b", ANY_FIELD);
}

static void
test_refuses_raw_escape_byte_in_string(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"x\x1b[2Jy\"}", ANY_FIELD);
}

static void
test_refuses_raw_newline_in_string(void **state)
{
	(void)state;
	REFUSED("{\"a\": \"line\nbreak\"}", ANY_FIELD);
}

static void
test_refuses_number_with_leading_zero(void **state)
{
	(void)state;
	REFUSED("{\"a\": 01}", ANY_FIELD);
}

static void
test_refuses_number_with_trailing_dot(void **state)
{
	(void)state;
	REFUSED("{\"a\": 1.}", ANY_FIELD);
}

/* json_print. */

static void
test_print_plain_object_exactly(void **state)
{
	static const char text[] = "{ \"a\" : 1, \"b\" : [\"x\", true, null] }";
	cJSON *json = ACCEPTED(text);
	char *printed;

	(void)state;
	printed = json_print(json);
	assert_non_null(printed);
	assert_string_equal(printed, "{\"a\":1,\"b\":[\"x\",true,null]}");
	free(printed);
	cJSON_Delete(json);
}

static void
test_print_escapes_right_to_left_override(void **state)
{
	char *printed;

	(void)state;
	printed = print_string("abc\xe2\x80\xae" "def", "\"abc\\u202edef\"");
	assert_null(strstr(printed, "\xe2\x80\xae"));
	free(printed);
}

static void
test_print_escapes_c1_csi(void **state)
{
	char *printed;

	(void)state;
	printed = print_string("\xc2\x9b" "31mred", "\"\\u009b31mred\"");
	assert_null(strstr(printed, "\xc2\x9b"));
	free(printed);
}

static void
test_print_escapes_esc_and_del(void **state)
{
	char *printed;

	(void)state;
	printed = print_string("\x1b]0;x\x07\x7f",
	    "\"\\u001b]0;x\\u0007\\u007f\"");
	free(printed);
}

static void
test_print_keeps_ordinary_non_ascii(void **state)
{
	char *printed;

	(void)state;
	printed = print_string("caf\xc3\xa9 \xe2\x82\xac",
	    "\"caf\xc3\xa9 \xe2\x82\xac\"");
	free(printed);
}

static void
test_print_escapes_controls_in_keys(void **state)
{
	cJSON *json = cJSON_CreateObject(), *back;
	char *printed, *lower;
	struct error err;

	(void)state;
	assert_non_null(cJSON_AddNumberToObject(json, "k\xe2\x80\xae", 1));
	printed = json_print(json);
	assert_non_null(printed);
	lower = lowered(printed);
	assert_string_equal(lower, "{\"k\\u202e\":1}");
	back = json_parse_strict(printed, strlen(printed), NULL, &err);
	assert_non_null(back);
	assert_non_null(
	    cJSON_GetObjectItemCaseSensitive(back, "k\xe2\x80\xae"));
	cJSON_Delete(back);
	free(lower);
	free(printed);
	cJSON_Delete(json);
}

static void
test_print_round_trips_through_strict_parse(void **state)
{
	static const char value[] = "ok\xe2\x80\xae\xc2\x9b\xc2\x9d\x1b[0m"
	    "\xe2\x80\x8b\xef\xbb\xbf\x7f \"q\" \\ \xf0\x9f\x98\x80";
	cJSON *json = cJSON_CreateObject(), *back, *item;
	char *printed;
	struct error err;

	(void)state;
	assert_non_null(cJSON_AddStringToObject(json, "detail", value));
	printed = json_print(json);
	assert_non_null(printed);
	back = json_parse_strict(printed, strlen(printed), NULL, &err);
	if (back == NULL)
		print_error("json_print output refused: %s (%s)\n", printed,
		    err.message);
	assert_non_null(back);
	item = cJSON_GetObjectItemCaseSensitive(back, "detail");
	assert_true(cJSON_IsString(item));
	assert_string_equal(item->valuestring, value);
	cJSON_Delete(back);
	free(printed);
	cJSON_Delete(json);
}

static void
test_print_output_is_printable_ascii(void **state)
{
	static const char value[] = "\xe2\x80\xae\xc2\x9b\xc2\x85\xe2\x81\xa6";
	char *printed;
	const unsigned char *p;

	(void)state;
	printed = print_string(value,
	    "\"\\u202e\\u009b\\u0085\\u2066\"");
	for (p = (const unsigned char *)printed; *p != '\0'; p++)
		assert_true(*p >= 0x20 && *p < 0x7f);
	free(printed);
}

/* json_object_quick(): certain only where json_parse_strict() accepts. */

#define QUICK(literal) quick((literal), LEN(literal))

/* The quick answer; a "yes" must be one the strict parse shares. */
static bool
quick(const char *text, size_t len)
{
	bool certain = json_object_quick(text, len, NULL, 0);
	struct error err;
	cJSON *json;

	if (certain) {
		error_clear(&err);
		json = json_parse_strict_full(text, len, NULL, &err);
		if (json == NULL)
			fail_msg("vouched for what the full checks refuse: %s",
			    err.message);
		cJSON_Delete(json);
	}
	return certain;
}

static void
test_quick_vouches_for_plain_objects(void **state)
{
	(void)state;
	assert_true(QUICK("{}"));
	assert_true(QUICK(" {\"a\": 1}\r\n"));
	assert_true(QUICK("{\"event\":\"policy_import\",\"identity\":null,"
	    "\"object\":{\"authors\":[\"a\",\"b\"],\"n\":-0.25,\"ok\":true,"
	    "\"no\":false,\"e\":[],\"o\":{}},\"uid\":1000}"));
	/* Escapes and UTF-8 inside values, DEL too: all strict JSON. */
	assert_true(QUICK("{\"r\":\"tab\\there \\\"q\\\" \\u00e9 \\/ \\\\\"}"));
	assert_true(QUICK("{\"r\":\"caf\xc3\xa9 \xe2\x82\xac "
	    "\xf0\x9f\x98\x80\x7f\"}"));
	/* The same key in sibling objects is no duplicate. */
	assert_true(QUICK("{\"a\":{\"k\":1},\"b\":{\"k\":2}}"));
	/* Nor are keys that differ only in case. */
	assert_true(QUICK("{\"a\":1,\"A\":2}"));
}

static void
test_quick_leaves_the_unusual_to_the_strict_parse(void **state)
{
	char *deep;

	(void)state;
	/* Strict JSON, but not something the quick check decides. */
	assert_false(QUICK("[1]"));
	assert_false(QUICK("\"text\""));
	assert_false(QUICK("{\"n\":1e5}"));
	assert_false(QUICK("{\"k\\u0061\":1}"));
	assert_false(QUICK("{\"s\":\"\\ud83d\\ude00\"}"));
	assert_false(QUICK("{\"n\":1234567890123456789012345678901234567890"
	    "123456789012345678901234}"));
	deep = nested_objects(40);
	assert_false(quick(deep, strlen(deep)));
	free(deep);
	/* Not JSON, or not strict: never vouched for. */
	assert_false(QUICK("{\"a\":1,\"a\":2}"));
	assert_false(QUICK("{\"o\":{\"k\":1,\"k\":2}}"));
	assert_false(QUICK("{\"s\":\"a\\u0000b\"}"));
	assert_false(QUICK("{\"s\":\"\xc0\xaf\"}"));
	assert_false(QUICK("{\"s\":\"raw\ttab\"}"));
	assert_false(QUICK("{\"a\":01}"));
	assert_false(QUICK("{\"a\":1.}"));
	assert_false(QUICK("{\"a\":1} x"));
	assert_false(QUICK("{\"a\":1}{}"));
	assert_false(QUICK("{\"a\":1,}"));
	assert_false(QUICK("{\"a\" 1}"));
	assert_false(QUICK("{\"a\":tru}"));
	assert_false(QUICK("{\"a\":[1,]}"));
	assert_false(QUICK("{\"a\":\"open"));
	assert_false(QUICK("{\"a\":\"x\\q\"}"));
	assert_false(QUICK("{\"a\":\x01 1}"));
	assert_false(quick("{\"a\":\"x\0y\"}", 11));
	assert_false(QUICK(""));
}

static void
test_quick_finds_top_level_strings(void **state)
{
	struct json_wanted wanted[] = {
		{ "event", NULL, 0 }, { "action_id", NULL, 0 },
		{ "decision", NULL, 0 }, { "Event", NULL, 0 },
	};
	static const char record[] = "{\"object\":{\"event\":\"inner\"},"
	    "\"decision\":7,\"event\":\"decision\",\"action_id\":\"a-1\"}";

	(void)state;
	assert_true(json_object_quick(record, LEN(record), wanted, 4));
	assert_non_null(wanted[0].value);
	assert_int_equal(wanted[0].length, 8);
	assert_memory_equal(wanted[0].value, "decision", 8);
	assert_int_equal(wanted[1].length, 3);
	assert_memory_equal(wanted[1].value, "a-1", 3);
	/* Not a string, and names are matched with their case. */
	assert_null(wanted[2].value);
	assert_null(wanted[3].value);
}

/* A wanted value with an escape is not its raw bytes: not certain. */
static void
test_quick_declines_an_escaped_wanted_value(void **state)
{
	struct json_wanted wanted[] = { { "event", NULL, 0 } };
	static const char escaped[] = "{\"event\":\"decisio\\u006e\"}";
	static const char other[] = "{\"event\":\"decision\",\"x\":\"\\n\"}";

	(void)state;
	assert_false(json_object_quick(escaped, LEN(escaped), wanted, 1));
	assert_null(wanted[0].value);
	assert_true(json_object_quick(other, LEN(other), wanted, 1));
	assert_int_equal(wanted[0].length, 8);
}

/* On "not certain" nothing found so far is reported. */
static void
test_quick_reports_nothing_when_not_certain(void **state)
{
	struct json_wanted wanted[] = { { "event", NULL, 0 } };
	static const char broken[] = "{\"event\":\"decision\",";

	(void)state;
	assert_false(json_object_quick(broken, LEN(broken), wanted, 1));
	assert_null(wanted[0].value);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts_object_with_surrounding_whitespace),
		cmocka_unit_test(test_quick_vouches_for_plain_objects),
		cmocka_unit_test(test_quick_leaves_the_unusual_to_the_strict_parse),
		cmocka_unit_test(test_quick_finds_top_level_strings),
		cmocka_unit_test(test_quick_declines_an_escaped_wanted_value),
		cmocka_unit_test(test_quick_reports_nothing_when_not_certain),
		cmocka_unit_test(test_accepts_nested_values),
		cmocka_unit_test(test_accepts_same_key_in_sibling_objects),
		cmocka_unit_test(test_accepts_valid_multibyte_utf8),
		cmocka_unit_test(test_accepts_text_without_terminating_nul),
		cmocka_unit_test(test_accepts_null_error_offset),
		cmocka_unit_test(test_refuses_truncated_object),
		cmocka_unit_test(test_refuses_truncated_string),
		cmocka_unit_test(test_refuses_truncated_array),
		cmocka_unit_test(test_refuses_trailing_word),
		cmocka_unit_test(test_refuses_two_objects),
		cmocka_unit_test(test_refuses_trailing_punctuation),
		cmocka_unit_test(test_refuses_empty_input),
		cmocka_unit_test(test_refuses_whitespace_only),
		cmocka_unit_test(test_refuses_non_json_text),
		cmocka_unit_test(test_error_offset_points_into_second_line),
		cmocka_unit_test(test_error_offset_names_bad_utf8_byte),
		cmocka_unit_test(test_refuses_duplicate_top_level_key),
		cmocka_unit_test(test_refuses_duplicate_nested_key),
		cmocka_unit_test(test_refuses_duplicate_key_inside_array),
		cmocka_unit_test(test_refuses_duplicate_key_among_many),
		cmocka_unit_test(test_accepts_case_variant_keys),
		cmocka_unit_test(test_refuses_duplicate_beside_case_variant),
		cmocka_unit_test(test_bad_bytes_name_their_field),
		cmocka_unit_test(test_bad_bytes_in_keys_name_their_object),
		cmocka_unit_test(test_bad_bytes_between_tokens_name_no_field),
		cmocka_unit_test(test_locate_finds_values),
		cmocka_unit_test(test_locate_misses),
		cmocka_unit_test(test_locate_is_linear),
		cmocka_unit_test(test_refuses_nul_escape_in_string),
		cmocka_unit_test(test_refuses_nul_escape_in_key),
		cmocka_unit_test(test_refuses_u_escape_without_four_hex_digits),
		cmocka_unit_test(test_refuses_nul_escape_after_escaped_backslash),
		cmocka_unit_test(test_accepts_escaped_backslash_before_u0000_text),
		cmocka_unit_test(test_accepts_other_u_escapes),
		cmocka_unit_test(test_refuses_raw_nul_byte_in_string),
		cmocka_unit_test(test_refuses_raw_nul_byte_after_value),
		cmocka_unit_test(test_refuses_lone_continuation_byte),
		cmocka_unit_test(test_refuses_overlong_slash),
		cmocka_unit_test(test_refuses_encoded_surrogate),
		cmocka_unit_test(test_refuses_f5_byte),
		cmocka_unit_test(test_refuses_truncated_sequence),
		cmocka_unit_test(test_refuses_invalid_utf8_in_key),
		cmocka_unit_test(test_refuses_lone_surrogate_escape),
		cmocka_unit_test(test_refuses_infinite_number),
		cmocka_unit_test(test_accepts_large_finite_number),
		cmocka_unit_test(test_negative_zero_and_negative_underflow),
		cmocka_unit_test(test_refuses_nesting_1001_arrays),
		cmocka_unit_test(test_accepts_nesting_999_arrays),
		cmocka_unit_test(test_refuses_nesting_1001_objects),
		cmocka_unit_test(test_accepts_nesting_999_objects),
		cmocka_unit_test(test_refuses_control_byte_before_value),
		cmocka_unit_test(test_refuses_escape_byte_between_tokens),
		cmocka_unit_test(test_refuses_control_byte_after_value),
		cmocka_unit_test(test_refuses_raw_escape_byte_in_string),
		cmocka_unit_test(test_refuses_raw_newline_in_string),
		cmocka_unit_test(test_refuses_number_with_leading_zero),
		cmocka_unit_test(test_refuses_number_with_trailing_dot),
		cmocka_unit_test(test_print_plain_object_exactly),
		cmocka_unit_test(test_print_escapes_right_to_left_override),
		cmocka_unit_test(test_print_escapes_c1_csi),
		cmocka_unit_test(test_print_escapes_esc_and_del),
		cmocka_unit_test(test_print_keeps_ordinary_non_ascii),
		cmocka_unit_test(test_print_escapes_controls_in_keys),
		cmocka_unit_test(test_print_round_trips_through_strict_parse),
		cmocka_unit_test(test_print_output_is_printable_ascii),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
