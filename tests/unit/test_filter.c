/*
 * Unit tests for src/domain/filter.c: every field and operator of the
 * SPEC 7 filter, terms combined, and each kind of usage error naming the
 * term that caused it.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "exit_codes.h"
#include "filter.h"

#define NOW 1000000000000LL
#define HOUR (3600LL * 1000)

/* A pending trade of $5,500, expiring in three hours. */
static struct filter_subject
trade(void)
{
	struct filter_subject s;

	memset(&s, 0, sizeof s);
	s.text[FILTER_ID] = "T-0042-abc";
	s.text[FILTER_KIND] = "trade";
	s.text[FILTER_USER] = "u-1001";
	s.text[FILTER_TICKER] = "XOM";
	s.text[FILTER_REQUESTER] = "Alice Example";
	s.text[FILTER_AUTHOR] = "agent-7";
	s.text[FILTER_SUMMARY] = "BUY XOM x50 $5,500.00";
	s.flags = "Hx";
	s.has_value = true;
	s.value_usd = 5500;
	s.pending = true;
	s.has_expiry = true;
	s.expires_at_ms = NOW + 3 * HOUR;
	return s;
}

/* A legal draft: no user, ticker or value; no expiry. */
static struct filter_subject
draft(void)
{
	struct filter_subject s;

	memset(&s, 0, sizeof s);
	s.text[FILTER_ID] = "L-7";
	s.text[FILTER_KIND] = "legal_draft";
	s.text[FILTER_REQUESTER] = "Bob";
	s.text[FILTER_AUTHOR] = "drafter";
	s.text[FILTER_SUMMARY] = "NDA with Acme";
	s.flags = "";
	s.pending = true;
	return s;
}

/* Whether expression, which must parse, matches s. */
static bool
matches(const char *expression, struct filter_subject s)
{
	struct filter f;
	struct error err;
	bool result;

	error_clear(&err);
	assert_int_equal(filter_parse(expression, &f, &err), 0);
	result = filter_matches(&f, &s, NOW);
	filter_free(&f);
	return result;
}

/* The usage error expression gives: its message must name the term. */
static void
assert_usage_error(const char *expression, const char *term)
{
	struct filter f;
	struct error err;

	error_clear(&err);
	assert_int_equal(filter_parse(expression, &f, &err), EXIT_USAGE);
	assert_non_null(strstr(err.message, term));
	filter_free(&f);
}

static void
test_empty_matches_everything(void **state)
{
	(void)state;
	assert_true(matches("", trade()));
	assert_true(matches("   ", draft()));
}

static void
test_each_text_field(void **state)
{
	static const struct { const char *hit, *miss; } cases[] = {
		{ "id:0042", "id:L-7" },
		{ "kind:trade", "kind:legal" },
		{ "user:u-1001", "user:u-2002" },
		{ "ticker:xom", "ticker:AAPL" },
		{ "requester:alice", "requester:bob" },
		{ "author:AGENT", "author:drafter" },
		{ "summary:$5,500", "summary:NDA" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_true(matches(cases[i].hit, trade()));
		assert_false(matches(cases[i].miss, trade()));
	}
	/* A field a kind does not have never matches. */
	assert_false(matches("ticker:x", draft()));
	assert_false(matches("user:u", draft()));
	/* Only the field named: XOM is in the summary, not the author. */
	assert_false(matches("author:XOM", trade()));
}

static void
test_bare_word_any_field(void **state)
{
	(void)state;
	assert_true(matches("acme", draft()));
	assert_true(matches("ALICE", trade()));
	assert_true(matches("u-1001", trade()));
	assert_false(matches("acme", trade()));
}

static void
test_flags(void **state)
{
	(void)state;
	assert_true(matches("flag:H", trade()));
	assert_true(matches("flag:x", trade()));
	assert_false(matches("flag:!", trade()));
	assert_false(matches("flag:E", trade()));
	assert_false(matches("flag:H", draft()));
}

static void
test_value_bounds(void **state)
{
	(void)state;
	assert_true(matches("value>5000", trade()));
	assert_false(matches("value>5500", trade()));	/* strictly above */
	assert_true(matches("value<5500.01", trade()));
	assert_false(matches("value<5500", trade()));
	assert_true(matches("value>100 value<10000", trade()));
	/* Other kinds never match either bound. */
	assert_false(matches("value>0", draft()));
	assert_false(matches("value<1000000", draft()));
}

static void
test_expires_within(void **state)
{
	struct filter_subject s = trade();

	(void)state;
	assert_true(matches("expires<4h", s));
	assert_false(matches("expires<3h", s));		/* strictly within */
	assert_false(matches("expires<30m", s));
	assert_true(matches("expires<1d", s));
	assert_true(matches("expires<181m", s));
	assert_false(matches("expires<1d", draft()));	/* no expiry */
	s.expires_at_ms = NOW;				/* already expired */
	assert_false(matches("expires<1d", s));
	s = trade();
	s.pending = false;				/* decided */
	assert_false(matches("expires<1d", s));
}

static void
test_all_terms_must_hold(void **state)
{
	(void)state;
	assert_true(matches("kind:trade flag:H value>1000 xom", trade()));
	assert_false(matches("kind:trade flag:H value>10000", trade()));
	assert_false(matches("acme kind:trade", draft()));
}

static void
test_usage_errors_name_the_term(void **state)
{
	(void)state;
	assert_usage_error("kind:trade colour:red", "colour:red");
	assert_usage_error("tick:XOM", "tick:XOM");
	assert_usage_error("user:", "user:");
	assert_usage_error("user>5", "user>5");
	assert_usage_error("flag:Z", "flag:Z");
	assert_usage_error("flag:HE", "flag:HE");
	assert_usage_error("flag:", "flag:");
	assert_usage_error("value>", "value>");
	assert_usage_error("value>ten", "value>ten");
	assert_usage_error("value:5", "value:5");
	assert_usage_error("value>1.", "value>1.");
	assert_usage_error("value>-5", "value>-5");
	assert_usage_error("expires<", "expires<");
	assert_usage_error("expires<2", "expires<2");
	assert_usage_error("expires<2w", "expires<2w");
	assert_usage_error("expires<1dd", "expires<1dd");
	assert_usage_error("expires>1d", "expires>1d");
	assert_usage_error("expires:1d", "expires:1d");
	assert_usage_error(":x", ":x");
}

/* Whether expression, which must parse, needs the action's packet. */
static bool
needs_action(const char *expression)
{
	struct filter f;
	struct error err;
	bool result;

	error_clear(&err);
	assert_int_equal(filter_parse(expression, &f, &err), 0);
	result = filter_needs_action(&f);
	filter_free(&f);
	return result;
}

/* Only user, ticker, value and bare words read beyond the queue row. */
static void
test_needs_action(void **state)
{
	(void)state;
	assert_false(needs_action(""));
	assert_false(needs_action("id:T kind:trade requester:a author:b"));
	assert_false(needs_action("summary:XOM flag:H expires<1d"));
	assert_true(needs_action("user:u-1"));
	assert_true(needs_action("flag:H ticker:XOM"));
	assert_true(needs_action("value>100"));
	assert_true(needs_action("value<100"));
	assert_true(needs_action("XOM"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_matches_everything),
		cmocka_unit_test(test_each_text_field),
		cmocka_unit_test(test_bare_word_any_field),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_value_bounds),
		cmocka_unit_test(test_expires_within),
		cmocka_unit_test(test_all_terms_must_hold),
		cmocka_unit_test(test_usage_errors_name_the_term),
		cmocka_unit_test(test_needs_action),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
