/*
 * Unit tests for the divergence list (SPEC 4) of trade packets and for the
 * SPEC 3 line check_outcome_text() prints.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rule_pack.h"
#include "verdict.h"

#include "trade_fixture.h"


/* ---- helpers ----------------------------------------------------------- */

/* The entry about `what`; the test fails when there is none. */
static const cJSON *
entry_of(const struct trade_fixture *tf, const char *what)
{
	const cJSON *entry = tf_divergence_find(tf, what);

	if (entry == NULL)
		fail_msg("no divergence entry about %s", what);
	return entry;
}

static const cJSON *
side_of(const struct trade_fixture *tf, const char *what, const char *side)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(entry_of(tf, what),
	    side);

	if (item == NULL)
		fail_msg("divergence entry %s lacks %s", what, side);
	return item;
}

static void
assert_bool_side(const struct trade_fixture *tf, const char *what,
    const char *side, bool expected)
{
	const cJSON *item = side_of(tf, what, side);

	assert_true(cJSON_IsBool(item));
	assert_int_equal(cJSON_IsTrue(item), expected);
}

static void
assert_null_side(const struct trade_fixture *tf, const char *what,
    const char *side)
{
	assert_true(cJSON_IsNull(side_of(tf, what, side)));
}

static void
assert_ips_side(const struct trade_fixture *tf, const char *what,
    const char *side, const char *ips_id, double version)
{
	const cJSON *item = side_of(tf, what, side);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(item, "ips_id");
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(item, "version");

	assert_true(cJSON_IsObject(item));
	assert_true(cJSON_IsString(id));
	assert_string_equal(id->valuestring, ips_id);
	assert_true(cJSON_IsNumber(ver));
	assert_true(ver->valuedouble == version);
}

/* Exactly one entry, about `what`. */
static void
assert_only(const struct trade_fixture *tf, const char *what)
{
	assert_int_equal(tf_divergence_count(tf), 1);
	assert_string_equal(tf_divergence_what(tf, 0), what);
}

static void
assert_only_unavailable(const struct trade_fixture *tf)
{
	assert_only(tf, "advisory_verdict");
}

/* ---- the two examples -------------------------------------------------- */

static void
test_pass_example_has_no_divergence(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_int_equal(tf_divergence_count(tf), 0);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_AVAILABLE);
}

static void
test_divergent_example_lists_whats_in_order(void **state)
{
	static const char *const expected[] = {
		"excluded_sector", "allocation_band_direction",
		"ips_version_current", "overall_pass",
		"requires_human_approval", "ips_version_checked_against"
	};
	struct trade_fixture *tf = TF(state);
	int i;

	tf_run(tf);
	assert_int_equal(tf_divergence_count(tf), 6);
	for (i = 0; i < 6; i++)
		assert_string_equal(tf_divergence_what(tf, i), expected[i]);
}

static void
test_divergent_excluded_sector_values(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_bool_side(tf, "excluded_sector", "advisory", true);
	assert_bool_side(tf, "excluded_sector", "local", false);
}

static void
test_divergent_band_missing_from_advisory(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_null_side(tf, "allocation_band_direction", "advisory");
	assert_bool_side(tf, "allocation_band_direction", "local", false);
}

static void
test_divergent_ips_version_current_values(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_bool_side(tf, "ips_version_current", "advisory", true);
	assert_bool_side(tf, "ips_version_current", "local", false);
}

static void
test_divergent_overall_pass_values(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_bool_side(tf, "overall_pass", "advisory", true);
	assert_bool_side(tf, "overall_pass", "local", false);
}

static void
test_divergent_requires_human_approval_values(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_bool_side(tf, "requires_human_approval", "advisory", false);
	assert_bool_side(tf, "requires_human_approval", "local", true);
}

static void
test_divergent_ips_checked_values(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_ips_side(tf, "ips_version_checked_against", "advisory",
	    "ips-7f3a", 2);
	assert_ips_side(tf, "ips_version_checked_against", "local",
	    "ips-7f3a", 3);
}

static void
test_divergent_entries_have_spec_shape(void **state)
{
	struct trade_fixture *tf = TF(state);
	const cJSON *entry, *note;

	tf_run(tf);
	cJSON_ArrayForEach(entry, tf_divergence(tf)) {
		assert_true(cJSON_IsObject(entry));
		assert_int_equal(cJSON_GetArraySize(entry), 4);
		assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
		    entry, "what")));
		assert_non_null(cJSON_GetObjectItemCaseSensitive(entry,
		    "advisory"));
		assert_non_null(cJSON_GetObjectItemCaseSensitive(entry,
		    "local"));
		note = cJSON_GetObjectItemCaseSensitive(entry, "note");
		assert_true(cJSON_IsString(note));
		assert_true(strlen(note->valuestring) > 0);
	}
}

static void
test_divergence_compute_matches_outcome(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *again;

	tf_run(tf);
	again = divergence_compute(tf->outcome.pack, &tf->outcome.advisory,
	    &tf->outcome.verdict);
	assert_non_null(again);
	assert_true(cJSON_Compare(again, tf->outcome.divergence, 1));
	cJSON_Delete(again);
}

/* ---- rule-by-rule comparison ------------------------------------------- */

static void
test_advisory_extra_rule_listed_with_local_null(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.5",
	    "{\"rule_id\": \"wash_sale\", \"passed\": true}");
	tf_run(tf);
	assert_only(tf, "wash_sale");
	assert_bool_side(tf, "wash_sale", "advisory", true);
	assert_null_side(tf, "wash_sale", "local");
}

static void
test_advisory_extra_failing_rule_listed_with_local_null(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.5",
	    "{\"rule_id\": \"wash_sale\", \"passed\": false}");
	tf_run(tf);
	assert_only(tf, "wash_sale");
	assert_bool_side(tf, "wash_sale", "advisory", false);
	assert_null_side(tf, "wash_sale", "local");
}

static void
test_advisory_lacking_a_rule_listed_with_advisory_null(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.2", NULL);	/* concentration_limit */
	tf_run(tf);
	assert_only(tf, "concentration_limit");
	assert_null_side(tf, "concentration_limit", "advisory");
	assert_bool_side(tf, "concentration_limit", "local", true);
}

static void
test_advisory_failing_a_passing_rule_listed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.0.passed", "false");
	tf_run(tf);
	assert_only(tf, "excluded_ticker");
	assert_bool_side(tf, "excluded_ticker", "advisory", false);
	assert_bool_side(tf, "excluded_ticker", "local", true);
}

static void
test_advisory_rule_order_does_not_matter(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results",
	    "[{\"rule_id\": \"ips_version_current\", \"passed\": true},"
	    " {\"rule_id\": \"allocation_band_direction\", \"passed\": true},"
	    " {\"rule_id\": \"concentration_limit\", \"passed\": true},"
	    " {\"rule_id\": \"excluded_sector\", \"passed\": true},"
	    " {\"rule_id\": \"excluded_ticker\", \"passed\": true}]");
	tf_run(tf);
	assert_int_equal(tf_divergence_count(tf), 0);
}

/*
 * A repeated id is not a new rule, and the advisory passes it only if
 * every entry does: a failing repeat behind a passing first entry is a
 * divergence from the passing local result, not hidden.
 */
static void
test_advisory_repeated_rule_failing_entry_counts(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.5",
	    "{\"rule_id\": \"excluded_ticker\", \"passed\": false}");
	tf_run(tf);
	assert_only(tf, "excluded_ticker");
	assert_bool_side(tf, "excluded_ticker", "advisory", false);
}

static void
test_advisory_repeated_rule_failing_first_entry_counts(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.0.passed", "false");
	tf_set_advisory(tf, "rule_results.5",
	    "{\"rule_id\": \"excluded_ticker\", \"passed\": true}");
	tf_run(tf);
	assert_only(tf, "excluded_ticker");
	assert_bool_side(tf, "excluded_ticker", "advisory", false);
}

static void
test_advisory_repeated_extra_rule_listed_once(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.5",
	    "{\"rule_id\": \"wash_sale\", \"passed\": false}");
	tf_set_advisory(tf, "rule_results.6",
	    "{\"rule_id\": \"wash_sale\", \"passed\": true}");
	tf_run(tf);
	assert_only(tf, "wash_sale");
	assert_bool_side(tf, "wash_sale", "advisory", false);
}

static void
test_advisory_overall_pass_alone_differs(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "overall_pass", "false");
	tf_run(tf);
	assert_only(tf, "overall_pass");
	assert_bool_side(tf, "overall_pass", "advisory", false);
	assert_bool_side(tf, "overall_pass", "local", true);
}

/* ---- requires_human_approval and ips_version_checked_against ----------- */

static void
test_advisory_requires_human_approval_differs(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "requires_human_approval", "true");
	tf_run(tf);
	assert_only(tf, "requires_human_approval");
	assert_bool_side(tf, "requires_human_approval", "advisory", true);
	assert_bool_side(tf, "requires_human_approval", "local", false);
}

static void
test_local_requires_human_approval_differs(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 25000.01 > 25000: locally a human must approve; all rules agree. */
	tf_set_action(tf, "estimated_value_usd", "25000.01");
	tf_run(tf);
	assert_only(tf, "requires_human_approval");
	assert_bool_side(tf, "requires_human_approval", "advisory", false);
	assert_bool_side(tf, "requires_human_approval", "local", true);
}

static const char *
note_of(const struct trade_fixture *tf, const char *what)
{
	const cJSON *note = side_of(tf, what, "note");

	assert_true(cJSON_IsString(note));
	return note->valuestring;
}

/* An advisory that does not say is not one that requires approval. */
static void
test_advisory_without_requires_human_approval_is_noted(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "requires_human_approval", NULL);
	tf_run(tf);
	assert_only(tf, "requires_human_approval");
	assert_null_side(tf, "requires_human_approval", "advisory");
	assert_bool_side(tf, "requires_human_approval", "local", false);
	assert_string_equal(note_of(tf, "requires_human_approval"),
	    "the advisory does not say whether human approval is required");
}

static void
test_requires_human_approval_notes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "requires_human_approval", "true");
	tf_run(tf);
	assert_string_equal(note_of(tf, "requires_human_approval"),
	    "the advisory requires human approval");
}

static void
test_advisory_ips_version_differs(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "ips_version_checked_against.version", "2");
	tf_run(tf);
	assert_only(tf, "ips_version_checked_against");
	assert_ips_side(tf, "ips_version_checked_against", "advisory",
	    "ips-7f3a", 2);
	assert_ips_side(tf, "ips_version_checked_against", "local",
	    "ips-7f3a", 3);
}

static void
test_advisory_ips_id_differs(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "ips_version_checked_against.ips_id",
	    "\"ips-0000\"");
	tf_run(tf);
	assert_only(tf, "ips_version_checked_against");
	assert_ips_side(tf, "ips_version_checked_against", "advisory",
	    "ips-0000", 3);
}

static void
test_advisory_ips_null_differs_from_local(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "ips_version_checked_against", "null");
	tf_run(tf);
	assert_only(tf, "ips_version_checked_against");
	assert_null_side(tf, "ips_version_checked_against", "advisory");
	assert_ips_side(tf, "ips_version_checked_against", "local",
	    "ips-7f3a", 3);
}

static void
test_local_ips_null_differs_from_advisory(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_run(tf);
	assert_ips_side(tf, "ips_version_checked_against", "advisory",
	    "ips-7f3a", 3);
	assert_null_side(tf, "ips_version_checked_against", "local");
}

static void
test_both_ips_null_agree(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_set_advisory(tf, "ips_version_checked_against", "null");
	tf_run(tf);
	assert_null(tf_divergence_find(tf, "ips_version_checked_against"));
}

/* ---- agreement --------------------------------------------------------- */

static void
test_failing_advisory_that_agrees_has_no_divergence(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* The divergent trade, with an advisory that matches the local check. */
	tf_set_advisory(tf, "rule_results",
	    "[{\"rule_id\": \"excluded_ticker\", \"passed\": true},"
	    " {\"rule_id\": \"excluded_sector\", \"passed\": false},"
	    " {\"rule_id\": \"concentration_limit\", \"passed\": true},"
	    " {\"rule_id\": \"allocation_band_direction\", \"passed\": false},"
	    " {\"rule_id\": \"ips_version_current\", \"passed\": false}]");
	tf_set_advisory(tf, "overall_pass", "false");
	tf_set_advisory(tf, "requires_human_approval", "true");
	tf_set_advisory(tf, "ips_version_checked_against.version", "3");
	tf_run(tf);
	assert_int_equal(tf_divergence_count(tf), 0);
}

/* ---- unavailable advisory verdicts ------------------------------------- */

static void
test_missing_advisory_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	cJSON_DeleteItemFromObjectCaseSensitive(tf->packet, "reviewer_verdict");
	tf_run(tf);
	assert_only_unavailable(tf);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_MISSING);
}

static void
test_null_advisory_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	ex_set(tf->packet, "reviewer_verdict", "null");
	tf_run(tf);
	assert_only_unavailable(tf);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_MISSING);
}

static void
test_missing_advisory_with_failing_local_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* The divergent trade fails three rules; still a single entry. */
	ex_set(tf->packet, "reviewer_verdict", "null");
	tf_run(tf);
	assert_false(tf_verdict(tf)->overall_pass);
	assert_only_unavailable(tf);
}

static void
test_string_advisory_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	ex_set(tf->packet, "reviewer_verdict", "\"overall_pass: true\"");
	tf_run(tf);
	assert_only_unavailable(tf);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_UNPARSEABLE);
}

static void
test_array_advisory_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	ex_set(tf->packet, "reviewer_verdict", "[true]");
	tf_run(tf);
	assert_only_unavailable(tf);
}

static void
test_advisory_without_overall_pass_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "overall_pass", NULL);
	tf_run(tf);
	assert_only_unavailable(tf);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_UNPARSEABLE);
}

static void
test_advisory_with_string_overall_pass_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "overall_pass", "\"true\"");
	tf_run(tf);
	assert_only_unavailable(tf);
}

static void
test_advisory_without_rule_results_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results", NULL);
	tf_run(tf);
	assert_only_unavailable(tf);
}

static void
test_advisory_without_action_id_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "action_id", NULL);
	tf_run(tf);
	assert_only_unavailable(tf);
}

static void
test_advisory_rule_with_string_passed_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.1.passed", "\"yes\"");
	tf_run(tf);
	assert_only_unavailable(tf);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_UNPARSEABLE);
}

static void
test_advisory_rule_with_null_passed_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.4.passed", "null");
	tf_run(tf);
	assert_only_unavailable(tf);
}

static void
test_advisory_rule_without_rule_id_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "rule_results.0.rule_id", NULL);
	tf_run(tf);
	assert_only_unavailable(tf);
}

static void
test_unavailable_entry_has_spec_shape(void **state)
{
	struct trade_fixture *tf = TF(state);
	const cJSON *note;

	ex_set(tf->packet, "reviewer_verdict", "null");
	tf_run(tf);
	assert_only_unavailable(tf);
	note = cJSON_GetObjectItemCaseSensitive(entry_of(tf,
	    "advisory_verdict"), "note");
	assert_true(cJSON_IsString(note));
	assert_true(strlen(note->valuestring) > 0);
	assert_non_null(side_of(tf, "advisory_verdict", "advisory"));
	assert_non_null(side_of(tf, "advisory_verdict", "local"));
}

/* ---- an advisory about another action ---------------------------------- */

static void
test_other_action_advisory_is_one_entry(void **state)
{
	struct trade_fixture *tf = TF(state);
	const cJSON *advisory, *local;

	tf_set_advisory(tf, "action_id", "\"" EX_DIVERGENT_ACTION_ID "\"");
	tf_run(tf);
	assert_only(tf, "action_id");
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_OTHER_ACTION);
	advisory = side_of(tf, "action_id", "advisory");
	local = side_of(tf, "action_id", "local");
	assert_true(cJSON_IsString(advisory));
	assert_string_equal(advisory->valuestring, EX_DIVERGENT_ACTION_ID);
	assert_true(cJSON_IsString(local));
	assert_string_equal(local->valuestring, EX_PASS_ACTION_ID);
}

/*
 * SPEC 4: "what is action_id when the verdict names another action",
 * whatever else is wrong with it, so action_id is asked first.
 */
static void
test_other_action_with_bad_rule_is_other_action(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "action_id", "\"" EX_DIVERGENT_ACTION_ID "\"");
	tf_set_advisory(tf, "rule_results.1.passed", "\"yes\"");
	tf_set_advisory(tf, "overall_pass", "\"yes\"");
	tf_run(tf);
	assert_only(tf, "action_id");
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_OTHER_ACTION);
	assert_string_equal(side_of(tf, "action_id", "advisory")->valuestring,
	    EX_DIVERGENT_ACTION_ID);
}

/* An action_id that is not a string names no action: unparseable. */
static void
test_numeric_action_id_is_unparseable(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_advisory(tf, "action_id", "7");
	tf_run(tf);
	assert_only_unavailable(tf);
	assert_int_equal(tf->outcome.advisory.state, ADVISORY_UNPARSEABLE);
}

static void
test_other_action_hides_every_other_difference(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* The divergent example differs in six ways; only action_id is listed. */
	tf_set_advisory(tf, "action_id", "\"" EX_PASS_ACTION_ID "\"");
	tf_run(tf);
	assert_only(tf, "action_id");
}

/* ---- the SPEC 3 line --------------------------------------------------- */

static void
test_outcome_json_has_exactly_spec_keys(void **state)
{
	static const char *const keys[] = {
		"action_id", "kind", "local_verdict", "divergence",
		"high_stakes_reasons", "notes", "packet_sha256"
	};
	struct trade_fixture *tf = TF(state);
	cJSON *line;
	size_t i;

	tf_run(tf);
	line = tf_outcome_json(tf);
	assert_true(cJSON_IsObject(line));
	assert_int_equal(cJSON_GetArraySize(line),
	    (int)(sizeof keys / sizeof keys[0]));
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (cJSON_GetObjectItemCaseSensitive(line, keys[i]) == NULL)
			fail_msg("check line lacks %s", keys[i]);
	cJSON_Delete(line);
}

static void
test_outcome_json_values(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *line, *item;

	tf_run(tf);
	line = tf_outcome_json(tf);
	item = cJSON_GetObjectItemCaseSensitive(line, "action_id");
	assert_true(cJSON_IsString(item));
	assert_string_equal(item->valuestring, EX_DIVERGENT_ACTION_ID);
	item = cJSON_GetObjectItemCaseSensitive(line, "kind");
	assert_true(cJSON_IsString(item));
	assert_string_equal(item->valuestring, "trade");
	assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(line,
	    "local_verdict")));
	item = cJSON_GetObjectItemCaseSensitive(line, "divergence");
	assert_true(cJSON_IsArray(item));
	assert_true(cJSON_Compare(item, tf->outcome.divergence, 1));
	/* Rules, USD, percent, and (v3) no reference price and the cash. */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    line, "high_stakes_reasons")), 5);
	cJSON_Delete(line);
}

static void
test_outcome_json_pass_example_divergence_empty(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *line, *item;

	tf_run(tf);
	line = tf_outcome_json(tf);
	item = cJSON_GetObjectItemCaseSensitive(line, "divergence");
	assert_true(cJSON_IsArray(item));
	assert_int_equal(cJSON_GetArraySize(item), 0);
	cJSON_Delete(line);
}

/* ---- main -------------------------------------------------------------- */

#define PASS_TEST(f) cmocka_unit_test_setup_teardown(f, setup_pass, teardown)
#define DIV_TEST(f) cmocka_unit_test_setup_teardown(f, setup_divergent, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		PASS_TEST(test_pass_example_has_no_divergence),
		DIV_TEST(test_divergent_example_lists_whats_in_order),
		DIV_TEST(test_divergent_excluded_sector_values),
		DIV_TEST(test_divergent_band_missing_from_advisory),
		DIV_TEST(test_divergent_ips_version_current_values),
		DIV_TEST(test_divergent_overall_pass_values),
		DIV_TEST(test_divergent_requires_human_approval_values),
		DIV_TEST(test_divergent_ips_checked_values),
		DIV_TEST(test_divergent_entries_have_spec_shape),
		DIV_TEST(test_divergence_compute_matches_outcome),

		PASS_TEST(test_advisory_extra_rule_listed_with_local_null),
		PASS_TEST(test_advisory_extra_failing_rule_listed_with_local_null),
		PASS_TEST(test_advisory_lacking_a_rule_listed_with_advisory_null),
		PASS_TEST(test_advisory_failing_a_passing_rule_listed),
		PASS_TEST(test_advisory_rule_order_does_not_matter),
		PASS_TEST(test_advisory_repeated_rule_failing_entry_counts),
		PASS_TEST(test_advisory_repeated_rule_failing_first_entry_counts),
		PASS_TEST(test_advisory_repeated_extra_rule_listed_once),
		PASS_TEST(test_advisory_overall_pass_alone_differs),

		PASS_TEST(test_advisory_requires_human_approval_differs),
		PASS_TEST(test_local_requires_human_approval_differs),
		PASS_TEST(test_advisory_without_requires_human_approval_is_noted),
		PASS_TEST(test_requires_human_approval_notes),
		PASS_TEST(test_advisory_ips_version_differs),
		PASS_TEST(test_advisory_ips_id_differs),
		PASS_TEST(test_advisory_ips_null_differs_from_local),
		PASS_TEST(test_local_ips_null_differs_from_advisory),
		PASS_TEST(test_both_ips_null_agree),

		DIV_TEST(test_failing_advisory_that_agrees_has_no_divergence),

		PASS_TEST(test_missing_advisory_is_one_entry),
		PASS_TEST(test_null_advisory_is_one_entry),
		DIV_TEST(test_missing_advisory_with_failing_local_is_one_entry),
		PASS_TEST(test_string_advisory_is_one_entry),
		PASS_TEST(test_array_advisory_is_one_entry),
		PASS_TEST(test_advisory_without_overall_pass_is_one_entry),
		PASS_TEST(test_advisory_with_string_overall_pass_is_one_entry),
		PASS_TEST(test_advisory_without_rule_results_is_one_entry),
		PASS_TEST(test_advisory_without_action_id_is_one_entry),
		PASS_TEST(test_advisory_rule_with_string_passed_is_one_entry),
		PASS_TEST(test_advisory_rule_with_null_passed_is_one_entry),
		PASS_TEST(test_advisory_rule_without_rule_id_is_one_entry),
		PASS_TEST(test_unavailable_entry_has_spec_shape),

		PASS_TEST(test_other_action_advisory_is_one_entry),
		PASS_TEST(test_other_action_with_bad_rule_is_other_action),
		PASS_TEST(test_numeric_action_id_is_unparseable),
		DIV_TEST(test_other_action_hides_every_other_difference),

		DIV_TEST(test_outcome_json_has_exactly_spec_keys),
		DIV_TEST(test_outcome_json_values),
		PASS_TEST(test_outcome_json_pass_example_divergence_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
