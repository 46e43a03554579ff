/* SPEC 14: the approval_policy object's quorum entries and their matching. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "exit_codes.h"
#include "object.h"
#include "quorum.h"

#define POLICY(quorum) \
	"{\"type\":\"approval_policy\",\"policy_id\":\"p\",\"version\":1," \
	"\"quorum\":" quorum "}"

/* Loads text as an object; returns the status, the field in err. */
static int
load(const char *text, struct loaded_object *o, struct error *err)
{
	error_clear(err);
	return object_load(text, strlen(text), o, NULL, err);
}

static void
test_a_good_policy_loads_with_its_identity(void **state)
{
	struct loaded_object o;
	struct error err;

	(void)state;
	assert_int_equal(load(POLICY("[{\"kind\":\"trade\",\"when\":"
	    "{\"above_usd\":1000000},\"approvals\":2},{\"kind\":\"*\","
	    "\"when\":\"high_stakes\",\"approvals\":5},{\"kind\":\"change\","
	    "\"when\":\"always\",\"approvals\":3}]"), &o, &err), 0);
	assert_int_equal(o.type, OBJECT_APPROVAL_POLICY);
	assert_string_equal(o.id, "p");
	assert_int_equal(o.version, 1);
	object_free(&o);
}

/* Each bad entry is refused naming its field. */
static void
test_bad_entries_are_refused_naming_the_field(void **state)
{
	static const struct {
		const char *text;
		const char *field;
	} bad[] = {
		{ POLICY("[{\"kind\":\"trade\",\"when\":\"always\","
		    "\"approvals\":1}]"), "quorum[0].approvals" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":\"always\","
		    "\"approvals\":6}]"), "quorum[0].approvals" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":\"always\","
		    "\"approvals\":\"2\"}]"), "quorum[0].approvals" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":\"always\","
		    "\"approvals\":2},{\"kind\":\"loan\",\"when\":\"always\","
		    "\"approvals\":2}]"), "quorum[1].kind" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":\"weekends\","
		    "\"approvals\":2}]"), "quorum[0].when" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":{\"below_usd\":5},"
		    "\"approvals\":2}]"), "quorum[0].when" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":{\"above_usd\":-1},"
		    "\"approvals\":2}]"), "quorum[0].when.above_usd" },
		{ POLICY("[{\"kind\":\"trade\",\"when\":5,\"approvals\":2}]"),
		    "quorum[0].when" },
		{ POLICY("[\"trade\"]"), "quorum[0]" },
		{ POLICY("{}"), "quorum" },
		{ "{\"type\":\"approval_policy\",\"policy_id\":\"p\","
		    "\"version\":0,\"quorum\":[]}", "version" },
		{ "{\"type\":\"approval_policy\",\"version\":1,\"quorum\":[]}",
		    "policy_id" },
	};
	struct loaded_object o;
	struct error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(load(bad[i].text, &o, &err), EXIT_DATA);
		assert_string_equal(err.field, bad[i].field);
		object_free(&o);
	}
}

static cJSON *
policies(const char *json)
{
	cJSON *tree = cJSON_Parse(json);

	assert_non_null(tree);
	return tree;
}

static int
needed(const char *policy_json, const char *kind, double value,
    bool high_stakes)
{
	cJSON *p = policies(policy_json), *action = cJSON_CreateObject();
	int n;

	cJSON_AddNumberToObject(action, "estimated_value_usd", value);
	n = quorum_needed(p, kind, action, high_stakes);
	cJSON_Delete(action);
	cJSON_Delete(p);
	return n;
}

static void
test_no_matching_entry_needs_one(void **state)
{
	(void)state;
	assert_int_equal(quorum_needed(NULL, "trade", NULL, true), 1);
	assert_int_equal(needed("[]", "trade", 1e9, true), 1);
	assert_int_equal(needed("[{\"quorum\":[{\"kind\":\"change\","
	    "\"when\":\"always\",\"approvals\":2}]}]", "trade", 1e9, true), 1);
}

/* above_usd: strictly above, and only a trade's value. */
static void
test_above_usd_is_strictly_above_and_trades_only(void **state)
{
	const char *p = "[{\"quorum\":[{\"kind\":\"*\",\"when\":"
	    "{\"above_usd\":10000},\"approvals\":2}]}]";

	(void)state;
	assert_int_equal(needed(p, "trade", 10000, false), 1);
	assert_int_equal(needed(p, "trade", 10000.01, false), 2);
	assert_int_equal(needed(p, "legal_draft", 1e9, false), 1);
}

static void
test_high_stakes_follows_the_verdict(void **state)
{
	const char *p = "[{\"quorum\":[{\"kind\":\"legal_draft\",\"when\":"
	    "\"high_stakes\",\"approvals\":3}]}]";

	(void)state;
	assert_int_equal(needed(p, "legal_draft", 0, true), 3);
	assert_int_equal(needed(p, "legal_draft", 0, false), 1);
}

/* The largest of the matching entries, across every active policy. */
static void
test_the_largest_match_applies(void **state)
{
	const char *p = "[{\"quorum\":[{\"kind\":\"trade\",\"when\":"
	    "\"always\",\"approvals\":2},{\"kind\":\"trade\",\"when\":"
	    "{\"above_usd\":100},\"approvals\":4}]},{\"quorum\":[{\"kind\":"
	    "\"*\",\"when\":\"high_stakes\",\"approvals\":3}]}]";

	(void)state;
	assert_int_equal(needed(p, "trade", 50, false), 2);
	assert_int_equal(needed(p, "trade", 50, true), 3);
	assert_int_equal(needed(p, "trade", 500, true), 4);
	assert_int_equal(needed(p, "change", 500, true), 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_good_policy_loads_with_its_identity),
		cmocka_unit_test(test_bad_entries_are_refused_naming_the_field),
		cmocka_unit_test(test_no_matching_entry_needs_one),
		cmocka_unit_test(test_above_usd_is_strictly_above_and_trades_only),
		cmocka_unit_test(test_high_stakes_follows_the_verdict),
		cmocka_unit_test(test_the_largest_match_applies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
