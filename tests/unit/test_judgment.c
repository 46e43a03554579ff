/*
 * SPEC 2.3 (v3): the product owner's judgment through decision_record.
 * A judgment is recorded (a po_judgment record and a row per criterion)
 * and decides nothing; rule 7 counts recorded judgments, read again in
 * the deciding transaction; the first judgment of a criterion stands;
 * bad requests name their field.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "commands.h"
#include "decision.h"
#include "store_fixture.h"

/* alice asked for the change; bob is another officer. */
static const struct operator_identity alice = { "alice", 1000 };
static const struct operator_identity bob = { "bob", 1001 };

#define CHANGE_ID "NB-412"

/* The contract's change, requested by alice, and the standards it cites. */
static int
setup(void **state)
{
	char *packet;

	if (sf_setup(state) != 0)
		return -1;
	packet = sf_edit(EXAMPLE_PACKET_CHANGE,
	    "proposed_action.requested_by", "\"alice\"", (const char *)NULL);
	sf_import(fx.store, EXAMPLE_STANDARDS_INDEX, packet, (const char *)NULL);
	free(packet);
	return 0;
}

static struct decision_request
judge_req(const char *action_id, const cJSON *judgments)
{
	struct decision_request r;

	memset(&r, 0, sizeof r);
	r.action_id = action_id;
	r.decision = DECISION_JUDGE;
	r.po_judgments = judgments;
	return r;
}

/* The approval of the change as an officer who has read it would send. */
static struct decision_request
approve_req(const cJSON *judgments)
{
	struct decision_request r;

	memset(&r, 0, sizeof r);
	r.action_id = CHANGE_ID;
	r.decision = DECISION_APPROVE;
	r.reason = "the docs read clearly";
	r.ack_high_stakes = r.ack_divergence = true;
	r.po_judgments = judgments;
	return r;
}

static void
decide(const struct decision_request *req, const struct operator_identity *op,
    struct decision_outcome *out)
{
	struct error err;

	assert_int_equal(decision_record(fx.store, req, op, EX_NOW_MS, false,
	    out, &err), 0);
}

/* A judgment by op of the change's AC-3; the outcome in *out. */
static void
judge(const struct operator_identity *op, const char *judgment,
    struct decision_outcome *out)
{
	char text[64];
	cJSON *j;
	struct decision_request req;

	snprintf(text, sizeof text, "{\"AC-3\":\"%s\"}", judgment);
	j = cJSON_Parse(text);
	req = judge_req(CHANGE_ID, j);
	decide(&req, op, out);
	cJSON_Delete(j);
}

static long long
judgment_rows(void)
{
	return sf_sql_int(fx.path, "SELECT count(*) FROM po_judgment");
}

/* Whether needs_po_judged passes in the re-check check and views run. */
static bool
rule_7_passes(const char *action_id, char *detail, size_t size)
{
	const struct rule_result *rule;
	struct recheck r;
	struct error err;
	bool passed;

	assert_int_equal(recheck_action(fx.store, action_id, EX_NOW_MS, NULL,
	    &r, &err), 0);
	rule = verdict_rule(&r.outcome.verdict, "needs_po_judged");
	assert_non_null(rule);
	passed = rule->passed;
	snprintf(detail, size, "%s", rule->detail != NULL ? rule->detail : "");
	recheck_free(&r);
	return passed;
}

/* The last audit record, parsed. */
static cJSON *
last_record(void)
{
	char *text = sf_sql_text(fx.path, "SELECT record_json FROM audit_log"
	    " ORDER BY seq DESC LIMIT 1");
	cJSON *record = cJSON_Parse(text);

	free(text);
	assert_non_null(record);
	return record;
}

static void
test_the_requester_judges_and_nothing_is_decided(void **state)
{
	struct decision_outcome out;
	long long seq = sf_head(fx.store).seq;
	cJSON *record;
	char *row;

	judge(&alice, "met", &out);
	assert_true(out.recorded);
	assert_true(out.judged);
	assert_false(out.partial);
	assert_string_equal(out.decision_id, "");
	assert_int_equal(strlen(out.judgment_id), 36);
	assert_int_equal(out.judgment_id[14], '4');
	sf_assert_status(fx.path, CHANGE_ID, "pending");
	assert_int_equal(sf_decision_rows(fx.path, CHANGE_ID), 0);
	assert_int_equal(out.head.seq, seq + 1);
	row = sf_sql_text(fx.path, "SELECT ac_id || ' ' || judgment || ' ' ||"
	    " operator_login || ' ' || operator_uid || ' ' || judged_at"
	    " FROM po_judgment");
	assert_string_equal(row, "AC-3 met alice 1000 " EX_NOW_TEXT);
	free(row);
	record = last_record();
	assert_string_equal(cJSON_GetObjectItem(record, "event")->valuestring,
	    "po_judgment");
	assert_string_equal(cJSON_GetObjectItem(record,
	    "judgment_id")->valuestring, out.judgment_id);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(record,
	    "operator"), "login")->valuestring, "alice");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(record,
	    "po_judgments"), "AC-3")->valuestring, "met");
	assert_null(cJSON_GetObjectItem(record, "decision_id"));
	cJSON_Delete(record);
}

/* Rule 7, pass: a recorded "met" is counted by every later re-check. */
static void
test_rule_7_counts_a_recorded_judgment(void **state)
{
	struct decision_outcome out;
	char detail[512];

	assert_false(rule_7_passes(CHANGE_ID, detail, sizeof detail));
	assert_contains(detail, "AC-3 is NEEDS-PO and awaits your judgment");
	judge(&alice, "met", &out);
	assert_true(out.judged);
	assert_true(rule_7_passes(CHANGE_ID, detail, sizeof detail));
}

/* Rule 7, fail: a recorded "unmet" stands against a later approval. */
static void
test_rule_7_fails_on_a_recorded_unmet(void **state)
{
	struct decision_request req = approve_req(NULL);
	struct decision_outcome out;
	char detail[512];

	judge(&alice, "unmet", &out);
	assert_true(out.judged);
	assert_false(rule_7_passes(CHANGE_ID, detail, sizeof detail));
	assert_contains(detail, "AC-3 was judged unmet");
	decide(&req, &bob, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "rules_failed");
	assert_contains(out.message, "needs_po_judged");
}

/*
 * Rule 7, fail-closed: a judgment counts for its own action only, and a
 * judgment that could not be recorded counts for nothing.
 */
static void
test_rule_7_fails_closed(void **state)
{
	struct decision_request req = approve_req(NULL);
	struct decision_outcome out;
	char *other, detail[512];

	other = sf_edit(EXAMPLE_PACKET_CHANGE, "proposed_action.action_id",
	    "\"NB-413\"", (const char *)NULL);
	sf_import_owned(fx.store, other);
	judge(&alice, "met", &out);
	assert_true(out.judged);
	assert_false(rule_7_passes("NB-413", detail, sizeof detail));
	assert_contains(detail, "AC-3 is NEEDS-PO and awaits your judgment");
	/* A refused judgment (a conflict) leaves nothing behind. */
	judge(&alice, "unmet", &out);
	assert_false(out.recorded);
	assert_true(rule_7_passes(CHANGE_ID, detail, sizeof detail));
	req.action_id = "NB-413";
	decide(&req, &bob, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "po_judgment_required");
}

/* The requester still may not approve; another officer needs no judging. */
static void
test_another_officer_approves_what_was_judged(void **state)
{
	struct decision_request req = approve_req(NULL);
	struct decision_outcome out;
	const cJSON *judgments;
	cJSON *record;

	judge(&alice, "met", &out);
	decide(&req, &alice, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "self_approval");
	decide(&req, &bob, &out);
	assert_true(out.recorded);
	assert_false(out.judged);
	sf_assert_status(fx.path, CHANGE_ID, "approved");
	record = last_record();
	assert_string_equal(cJSON_GetObjectItem(record, "event")->valuestring,
	    "decision");
	/* The record shows the judgment that counted: alice's. */
	judgments = cJSON_GetObjectItem(record, "po_judgments");
	assert_int_equal(cJSON_GetArraySize(judgments), 1);
	assert_string_equal(cJSON_GetObjectItem(judgments, "AC-3")->valuestring,
	    "met");
	cJSON_Delete(record);
	/* Decided: a judgment now is already_decided. */
	judge(&alice, "met", &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "already_decided");
}

static void
test_a_repeated_judgment_is_harmless(void **state)
{
	struct decision_outcome first, again;
	char *kept;

	judge(&alice, "met", &first);
	judge(&bob, "met", &again);
	assert_true(again.recorded);
	assert_true(again.judged);
	assert_string_not_equal(first.judgment_id, again.judgment_id);
	assert_int_equal(judgment_rows(), 1);
	kept = sf_sql_text(fx.path, "SELECT judgment_id || ' ' ||"
	    " operator_login FROM po_judgment");
	assert_non_null(strstr(kept, first.judgment_id));
	assert_contains(kept, "alice");
	free(kept);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM audit_log"
	    " WHERE record_json LIKE '%\"event\":\"po_judgment\"%'"), 2);
}

/* A different judgment later: refused, in a judgment and an approval. */
static void
test_a_different_judgment_is_a_conflict(void **state)
{
	struct decision_outcome out;
	struct decision_request req;
	long long seq;
	cJSON *unmet = cJSON_Parse("{\"AC-3\":\"unmet\"}");

	judge(&alice, "met", &out);
	seq = sf_head(fx.store).seq;
	judge(&bob, "unmet", &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "po_judgment_conflict");
	assert_contains(out.message, "po_judgments.AC-3");
	assert_contains(out.message, "already judged met");
	req = approve_req(unmet);
	decide(&req, &bob, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "po_judgment_conflict");
	assert_int_equal(sf_head(fx.store).seq, seq);
	assert_int_equal(judgment_rows(), 1);
	assert_int_equal(sf_decision_rows(fx.path, CHANGE_ID), 0);
	cJSON_Delete(unmet);
}

/* An approval's own judgment of what is recorded, the same: recorded. */
static void
test_an_approval_repeating_the_judgment_is_recorded(void **state)
{
	struct decision_outcome out;
	struct decision_request req;
	cJSON *met = cJSON_Parse("{\"AC-3\":\"met\"}");

	judge(&alice, "met", &out);
	req = approve_req(met);
	decide(&req, &bob, &out);
	assert_true(out.recorded);
	cJSON_Delete(met);
}

static void
expect_bad_request(const char *action_id, const char *judgments_json,
    const char *field)
{
	cJSON *j = judgments_json != NULL ? cJSON_Parse(judgments_json) : NULL;
	struct decision_request req = judge_req(action_id, j);
	struct decision_outcome out;
	long long seq = sf_head(fx.store).seq;
	char prefix[64];

	decide(&req, &alice, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "bad_request");
	snprintf(prefix, sizeof prefix, "%s:", field);
	if (strncmp(out.message, prefix, strlen(prefix)) != 0)
		fail_msg("\"%s\" does not name %s", out.message, field);
	assert_int_equal(sf_head(fx.store).seq, seq);
	assert_int_equal(judgment_rows(), 0);
	cJSON_Delete(j);
}

static void
test_bad_requests_name_the_field(void **state)
{
	char *accepted;

	expect_bad_request(EX_PASS_ACTION_ID, "{\"AC-3\":\"met\"}", "decision");
	expect_bad_request(CHANGE_ID, "{\"AC-1\":\"met\"}", "po_judgments.AC-1");
	expect_bad_request(CHANGE_ID, "{\"AC-9\":\"met\"}", "po_judgments.AC-9");
	expect_bad_request(CHANGE_ID, "{\"AC-3\":\"maybe\"}",
	    "po_judgments.AC-3");
	expect_bad_request(CHANGE_ID, "{\"AC-3\":1}", "po_judgments.AC-3");
	expect_bad_request(CHANGE_ID, "{}", "po_judgments");
	expect_bad_request(CHANGE_ID, NULL, "po_judgments");
	accepted = sf_edit(EXAMPLE_PACKET_CHANGE,
	    "proposed_action.action_id", "\"NB-500\"",
	    "reviewer_verdict.outcome", "\"accepted\"",
	    "reviewer_verdict.ac_results.2.state", "\"MET\"",
	    "reviewer_verdict.ac_results.2.evidence",
	    "{\"file\":\"docs/gate.md\"}", (const char *)NULL);
	sf_import_owned(fx.store, accepted);
	expect_bad_request("NB-500", "{\"AC-3\":\"met\"}", "action_id");
}

static void
test_unknown_and_changed(void **state)
{
	cJSON *j = cJSON_Parse("{\"AC-3\":\"met\"}");
	struct decision_request req = judge_req("NB-999", j);
	struct decision_outcome out;

	decide(&req, &alice, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "unknown_action");
	req = judge_req(CHANGE_ID, j);
	req.expect_sha256 = "0000000000000000000000000000000000000000000000"
	    "000000000000000000";
	decide(&req, &alice, &out);
	assert_false(out.recorded);
	assert_string_equal(out.code, "changed");
	assert_int_equal(judgment_rows(), 0);
	cJSON_Delete(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, sf_teardown)
		T(test_the_requester_judges_and_nothing_is_decided),
		T(test_rule_7_counts_a_recorded_judgment),
		T(test_rule_7_fails_on_a_recorded_unmet),
		T(test_rule_7_fails_closed),
		T(test_another_officer_approves_what_was_judged),
		T(test_a_repeated_judgment_is_harmless),
		T(test_a_different_judgment_is_a_conflict),
		T(test_an_approval_repeating_the_judgment_is_recorded),
		T(test_bad_requests_name_the_field),
		T(test_unknown_and_changed),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
