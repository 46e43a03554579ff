/*
 * Unit tests for src/service/rpc.c: base64 of every length and byte
 * value comes back whole (the padding is not data), and what is not
 * base64 is refused rather than decoded into something else; requests
 * with invalid UTF-8 or a NUL are refused (issue 35, point 7), and the
 * text of an answer never holds half a character.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "service.h"
#include "utf8.h"

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

/* What the service reads as a request, and what it refuses as which. */
static void
test_parse_request(void **state)
{
	static const struct { const char *text; int code; } cases[] = {
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\"}", 0 },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"upload\"}", 0 },
		{ "{\"jsonrpc\":\"2.0\",\"id\":\"\xc3\xa9\",\"method\":\"x\"}", 0 },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\"",
		    RPC_PARSE_ERROR },
		{ "[1]", RPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"list\"}",
		    RPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":\"list\"}",
		    RPC_INVALID_REQUEST },
		/* A raw invalid byte, in the method, a params key, a value. */
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"li\xffst\"}",
		    RPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\","
		    "\"params\":{\"js\xc3on\":true}}", RPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\","
		    "\"params\":{\"filter\":\"\xed\xa0\x80\"}}",
		    RPC_INVALID_REQUEST },
		/* A NUL, which cJSON would end the name at. */
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\\u0000x\"}",
		    RPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\","
		    "\"params\":{\"json\\u0000x\":true}}", RPC_INVALID_REQUEST },
		/* Two methods: which one would run? */
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list\","
		    "\"method\":\"batch\"}", RPC_INVALID_REQUEST },
	};
	const char *why;
	size_t i;
	int code;
	cJSON *msg;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		msg = rpc_parse_request(cases[i].text, strlen(cases[i].text),
		    &code, &why);
		assert_int_equal(code, cases[i].code);
		if (cases[i].code == 0) {
			assert_non_null(msg);
		} else {
			assert_null(msg);
			/* A fixed sentence: nothing of the message in it. */
			assert_null(strchr(why, '\xff'));
			assert_null(strstr(why, "list"));
		}
		cJSON_Delete(msg);
	}
}

/* A 256-byte string id is taken, a longer one refused. */
static void
test_id_bound(void **state)
{
	char text[600];
	const char *why;
	int code;
	cJSON *msg;

	(void)state;
	snprintf(text, sizeof text, "{\"jsonrpc\":\"2.0\",\"method\":\"x\","
	    "\"id\":\"%0256d\"}", 0);
	msg = rpc_parse_request(text, strlen(text), &code, &why);
	assert_non_null(msg);
	cJSON_Delete(msg);
	snprintf(text, sizeof text, "{\"jsonrpc\":\"2.0\",\"method\":\"x\","
	    "\"id\":\"%0257d\"}", 0);
	assert_null(rpc_parse_request(text, strlen(text), &code, &why));
	assert_int_equal(code, RPC_INVALID_REQUEST);
}

/* A prefix ends on a character: "a" then two-byte "é"s, cut at 4. */
static void
test_utf8_prefix(void **state)
{
	(void)state;
	assert_int_equal(utf8_prefix("a\xc3\xa9\xc3\xa9", 4), 3);
	assert_int_equal(utf8_prefix("a\xc3\xa9\xc3\xa9", 5), 5);
	assert_int_equal(utf8_prefix("a\xc3\xa9\xc3\xa9", 64), 5);
	assert_int_equal(utf8_prefix("\xf0\x9f\x98\x80", 3), 0);
	assert_int_equal(utf8_prefix("abc", 2), 2);
}

/* Invalid bytes become '?', a character cut at the end goes. */
static void
test_utf8_repair(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain", "plain" },
		{ "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9" },
		{ "li\xffst", "li?st" },
		{ "a\xed\xa0\x80z", "a???z" },
		{ "cut \xe2\x82", "cut " },
		{ "cut \xf0\x9f\x98", "cut " },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(buf, sizeof buf, "%s", cases[i].in);
		rpc_utf8_repair(buf);
		assert_string_equal(buf, cases[i].out);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_not_base64),
		cmocka_unit_test(test_parse_request),
		cmocka_unit_test(test_id_bound),
		cmocka_unit_test(test_utf8_prefix),
		cmocka_unit_test(test_utf8_repair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
