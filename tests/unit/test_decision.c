/*
 * The gate (SPEC 5) and the decision record (SPEC 6), through
 * decision_record() on a real database: every refusal, its precedence,
 * that a refusal changes nothing, and what a recorded decision writes.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "error.h"
#include "sha256.h"
#include "store.h"
#include "timestamp.h"
#include "store_fixture.h"

static const struct operator_identity alice = { "alice", 1000 };
static const struct operator_identity bob = { "bob", 1001 };
static const struct operator_identity pm_lee = { "pm.lee", 1002 };

/* ---- Helpers ---- */

static struct decision_request
approve_req(const char *action_id)
{
	struct decision_request r;

	memset(&r, 0, sizeof r);
	r.action_id = action_id;
	r.decision = DECISION_APPROVE;
	return r;
}

static struct decision_request
reject_req(const char *action_id, const char *reason)
{
	struct decision_request r;

	memset(&r, 0, sizeof r);
	r.action_id = action_id;
	r.decision = DECISION_REJECT;
	r.reason = reason;
	return r;
}

/* Everything a decision could change. */
struct db_state {
	struct audit_head head;
	char *audit;
	char *actions;
	long long decisions;
};

static void
state_take(struct db_state *st)
{
	st->head = sf_head(fx.store);
	st->audit = sf_audit_dump(fx.path);
	st->actions = sf_sql_text(fx.path, "SELECT coalesce(group_concat("
	    "action_id || '=' || status, ','), '') FROM "
	    "(SELECT * FROM action ORDER BY action_id)");
	assert_non_null(st->actions);
	st->decisions = sf_sql_int(fx.path, "SELECT count(*) FROM decision");
}

static void
state_free(struct db_state *st)
{
	free(st->audit);
	free(st->actions);
}

static void
assert_state_unchanged(const struct db_state *before)
{
	struct db_state after;

	state_take(&after);
	assert_int_equal(after.head.seq, before->head.seq);
	assert_string_equal(after.head.hash, before->head.hash);
	assert_string_equal(after.audit, before->audit);
	assert_string_equal(after.actions, before->actions);
	assert_int_equal(after.decisions, before->decisions);
	state_free(&after);
}

/*
 * Runs a decision that must be refused with code; asserts that nothing in
 * the database changed (audit log and head, every action's status, the
 * decision rows) and that the action is still pending with no decision row
 * (unknown_action: still absent; already_decided: still decided once).
 * The outcome goes to *out.
 */
static void
expect_refusal_at(const struct decision_request *req,
    const struct operator_identity *op, long long now_ms, const char *code,
    struct decision_outcome *out)
{
	struct db_state before;
	struct error err;
	char *status;

	state_take(&before);
	error_clear(&err);
	if (decision_record(fx.store, req, op, now_ms, false, out, &err) != 0)
		fail_msg("decision_record failed: %s", err.message);
	if (out->recorded)
		fail_msg("%s was recorded, expected refusal %s", req->action_id,
		    code);
	assert_non_null(out->code);
	if (strcmp(out->code, code) != 0)
		fail_msg("refused with %s (%s), expected %s", out->code,
		    out->message, code);
	assert_true(out->message[0] != '\0');
	assert_string_equal(out->decision_id, "");
	assert_state_unchanged(&before);
	status = sf_action_status(fx.path, req->action_id);
	if (strcmp(code, "unknown_action") == 0)
		assert_null(status);
	else if (strcmp(code, "already_decided") == 0) {
		/* Still decided once, as before (the state compare above). */
		assert_non_null(status);
		assert_string_not_equal(status, "pending");
		assert_int_equal(sf_decision_rows(fx.path, req->action_id), 1);
	} else {
		assert_non_null(status);
		assert_string_equal(status, "pending");
		assert_int_equal(sf_decision_rows(fx.path, req->action_id), 0);
	}
	free(status);
	state_free(&before);
}

static void
expect_refusal(const struct decision_request *req,
    const struct operator_identity *op, const char *code,
    struct decision_outcome *out)
{
	expect_refusal_at(req, op, EX_NOW_MS, code, out);
}

/*
 * Runs a decision that must be recorded: one audit record more, one
 * decision row, the action's new status, a UUID v4.
 */
static void
expect_recorded_at(const struct decision_request *req,
    const struct operator_identity *op, long long now_ms,
    struct decision_outcome *out)
{
	struct audit_head before, after;
	struct decision_row row;
	struct error err;
	bool found;

	before = sf_head(fx.store);
	error_clear(&err);
	if (decision_record(fx.store, req, op, now_ms, false, out, &err) != 0)
		fail_msg("decision_record failed: %s", err.message);
	if (!out->recorded)
		fail_msg("%s refused: %s: %s", req->action_id,
		    out->code ? out->code : "(no code)", out->message);
	assert_null(out->code);
	assert_true(sf_is_uuid_v4(out->decision_id));
	after = sf_head(fx.store);
	assert_int_equal(after.seq, before.seq + 1);
	assert_int_equal(out->head.seq, after.seq);
	assert_string_equal(out->head.hash, after.hash);
	assert_string_not_equal(after.hash, before.hash);
	sf_assert_status(fx.path, req->action_id,
	    req->decision == DECISION_APPROVE ? "approved" : "rejected");
	assert_int_equal(sf_decision_rows(fx.path, req->action_id), 1);

	assert_int_equal(store_decision_get(fx.store, req->action_id, &row,
	    &found, &err), 0);
	assert_true(found);
	assert_string_equal(row.decision_id, out->decision_id);
	assert_string_equal(row.decision,
	    req->decision == DECISION_APPROVE ? "approve" : "reject");
	assert_string_equal(row.operator_login, op->login);
	assert_int_equal(row.operator_uid, op->uid);
	assert_int_equal(row.audit_seq, after.seq);
}

static void
expect_recorded(const struct decision_request *req,
    const struct operator_identity *op, struct decision_outcome *out)
{
	expect_recorded_at(req, op, EX_NOW_MS, out);
}

/* The action's decision record from the audit log, parsed. */
static cJSON *
decision_json(const char *action_id)
{
	struct error err;
	char *text = NULL;
	cJSON *json;

	error_clear(&err);
	assert_int_equal(store_decision_record(fx.store, action_id, &text,
	    &err), 0);
	if (text == NULL)
		fail_msg("no decision record for %s", action_id);
	json = cJSON_Parse(text);
	free(text);
	assert_non_null(json);
	assert_true(cJSON_IsObject(json));
	return json;
}

static const cJSON *
member(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	if (item == NULL)
		fail_msg("the record lacks \"%s\"", key);
	return item;
}

static const char *
member_string(const cJSON *object, const char *key)
{
	const cJSON *item = member(object, key);

	if (!cJSON_IsString(item))
		fail_msg("\"%s\" is not a string", key);
	return item->valuestring;
}

/* An array of strings holding exactly the given ones (any order). */
static void
assert_string_set(const cJSON *array, size_t count, ...)
{
	const cJSON *item;
	const char *want;
	bool seen;
	va_list ap;
	size_t i;

	assert_true(cJSON_IsArray(array));
	assert_int_equal(cJSON_GetArraySize(array), count);
	va_start(ap, count);
	for (i = 0; i < count; i++) {
		want = va_arg(ap, const char *);
		seen = false;
		cJSON_ArrayForEach(item, array) {
			if (cJSON_IsString(item) &&
			    strcmp(item->valuestring, want) == 0)
				seen = true;
		}
		if (!seen) {
			va_end(ap);
			fail_msg("\"%s\" is missing", want);
		}
	}
	va_end(ap);
}

/* The divergence entry with this `what`, or NULL. */
static const cJSON *
divergence_entry(const cJSON *divergence, const char *what)
{
	const cJSON *entry, *w;

	cJSON_ArrayForEach(entry, divergence) {
		w = cJSON_GetObjectItemCaseSensitive(entry, "what");
		if (cJSON_IsString(w) && strcmp(w->valuestring, what) == 0)
			return entry;
	}
	return NULL;
}

/* The reviewer_verdict member of a packet's JSON text (owned by *tree). */
static const cJSON *
packet_advisory(const char *packet_json, cJSON **tree)
{
	*tree = ex_parse(packet_json);
	return cJSON_GetObjectItemCaseSensitive(*tree, "reviewer_verdict");
}

static const char *const spec6_keys[] = {
	"event", "decision_id", "action_id", "kind", "decision", "reason",
	"operator", "decided_at", "advisory_verdict", "local_verdict",
	"divergence", "acknowledged", "requires_human_approval",
	"high_stakes_reasons", "routing", "po_judgments",
	"approved_artifact_sha256", "program", "notes",
};

/* The parts of a trade decision record that do not depend on the case. */
static void
assert_record_common(const cJSON *rec, const char *action_id,
    const char *decision, const struct decision_outcome *out,
    const struct operator_identity *op, long long now_ms)
{
	char when[TIMESTAMP_SIZE], *program;
	const cJSON *item, *inputs;
	long long parsed;
	size_t i;

	for (i = 0; i < sizeof spec6_keys / sizeof spec6_keys[0]; i++)
		(void)member(rec, spec6_keys[i]);
	assert_string_equal(member_string(rec, "event"), "decision");
	assert_string_equal(member_string(rec, "decision_id"),
	    out->decision_id);
	assert_string_equal(member_string(rec, "action_id"), action_id);
	assert_string_equal(member_string(rec, "kind"), "trade");
	assert_string_equal(member_string(rec, "decision"), decision);

	item = member(rec, "operator");
	assert_true(cJSON_IsObject(item));
	assert_string_equal(member_string(item, "login"), op->login);
	assert_true(cJSON_IsNumber(member(item, "uid")));
	assert_int_equal((long long)member(item, "uid")->valuedouble, op->uid);

	timestamp_format(now_ms, when);
	assert_string_equal(member_string(rec, "decided_at"), when);
	/* YYYY-MM-DDTHH:MM:SS.mmmZ */
	assert_int_equal(strlen(when), 24);
	assert_int_equal(when[10], 'T');
	assert_int_equal(when[19], '.');
	assert_int_equal(when[23], 'Z');
	assert_true(timestamp_parse(when, &parsed));
	assert_int_equal(parsed, now_ms);

	item = member(rec, "local_verdict");
	assert_true(cJSON_IsObject(item));
	assert_string_equal(member_string(item, "action_id"), action_id);
	assert_true(sf_is_uuid_v4(member_string(item, "verdict_id")));
	assert_true(cJSON_IsArray(member(item, "rule_results")));
	assert_int_equal(cJSON_GetArraySize(member(item, "rule_results")), 5);
	assert_string_equal(member_string(cJSON_GetArrayItem(
	    member(item, "rule_results"), 0), "rule_id"), "excluded_ticker");
	assert_string_equal(member_string(cJSON_GetArrayItem(
	    member(item, "rule_results"), 4), "rule_id"),
	    "ips_version_current");
	assert_true(cJSON_IsBool(member(item, "overall_pass")));
	assert_true(cJSON_IsBool(member(item, "requires_human_approval")));
	/* The record's own flag is the local one. */
	assert_int_equal(cJSON_IsTrue(member(rec, "requires_human_approval")),
	    cJSON_IsTrue(member(item, "requires_human_approval")));

	assert_true(cJSON_IsArray(member(rec, "divergence")));
	assert_true(cJSON_IsArray(member(rec, "acknowledged")));
	assert_true(cJSON_IsBool(member(rec, "requires_human_approval")));
	assert_true(cJSON_IsArray(member(rec, "high_stakes_reasons")));
	assert_int_equal(cJSON_GetArraySize(member(rec,
	    "high_stakes_reasons")) > 0,
	    cJSON_IsTrue(member(rec, "requires_human_approval")));
	/*
	 * (v3) The notes the officer judged by: a trade has at least the
	 * class share, the position share and the holdings' as_of (SPEC 3).
	 */
	item = member(rec, "notes");
	assert_true(cJSON_IsArray(item));
	assert_true(cJSON_GetArraySize(item) >= 3);
	assert_string_equal(member_string(cJSON_GetArrayItem(item, 0),
	    "what"), "class_share");
	assert_true(member_string(cJSON_GetArrayItem(item, 0),
	    "detail")[0] != '\0');
	/* A trade has no PO judgments and no approved artifact. */
	assert_true(cJSON_IsNull(member(rec, "po_judgments")));
	assert_true(cJSON_IsNull(member(rec, "approved_artifact_sha256")));

	item = member(rec, "program");
	assert_false(cJSON_IsNull(item));
	program = cJSON_PrintUnformatted(item);
	assert_non_null(program);
	assert_contains(program, "countersign");
	assert_contains(program, PACKAGE_VERSION);
	free(program);

	inputs = member(rec, "rule_inputs");
	assert_true(cJSON_IsObject(inputs));
	item = member(inputs, "ips");
	assert_string_equal(member_string(item, "ips_id"), EX_IPS_ID);
	assert_true(cJSON_IsNumber(member(item, "version")));
	assert_int_equal(member(item, "version")->valueint, 3);
	assert_string_equal(member_string(inputs, "holdings_snapshot_id"),
	    EX_SNAPSHOT_ID);
	assert_true(sf_is_hex(member_string(rec, "rule_inputs_sha256"), 64));
}

/* ---- unknown_action ---- */

static void
test_unknown_action_is_refused(void **state)
{
	struct decision_request req = approve_req("no-such-action");
	struct decision_outcome out;

	req.reason = "looks fine";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &alice, "unknown_action", &out);
	assert_contains(out.message, "no-such-action");

	req = reject_req("no-such-action", "not wanted");
	expect_refusal(&req, &alice, "unknown_action", &out);
	assert_contains(out.message, "no-such-action");
}

/* ---- already_decided ---- */

static void
test_already_decided_names_who_and_when(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome first, out;
	struct decision_request rej;

	req.reason = "Within band; rebalancing.";
	expect_recorded(&req, &alice, &first);

	/* Later, by someone else: refused, naming alice and her time. */
	expect_refusal_at(&req, &bob, EX_NOW_MS + 3600000, "already_decided",
	    &out);
	assert_contains(out.message, "alice");
	assert_contains(out.message, EX_NOW_TEXT);

	/* A rejection of a decided action is refused the same way. */
	rej = reject_req(EX_PASS_ACTION_ID, "changed my mind");
	expect_refusal_at(&rej, &bob, EX_NOW_MS + 7200000, "already_decided",
	    &out);
	assert_contains(out.message, "alice");
	assert_contains(out.message, EX_NOW_TEXT);

	/* And by the same operator. */
	expect_refusal(&req, &alice, "already_decided", &out);
}

static void
test_already_decided_after_a_rejection(void **state)
{
	struct decision_request rej = reject_req(EX_DIVERGENT_ACTION_ID,
	    "Excluded sector; stale IPS.");
	struct decision_request req = approve_req(EX_DIVERGENT_ACTION_ID);
	struct decision_outcome out;

	expect_recorded_at(&rej, &bob, EX_NOW_MS + 1000, &out);
	req.reason = "override";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal_at(&req, &alice, EX_NOW_MS + 5000, "already_decided",
	    &out);
	assert_contains(out.message, "bob");
	assert_contains(out.message, "2026-11-29T08:15:05.123Z");
	/* SPEC 5: already_decided comes before rules_failed. */
	assert_not_contains(out.message, "local rules fail");
}

/* A second connection (another officer) sees the first one's decision. */
static void
test_second_connection_sees_the_decision(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	struct store *other = NULL;
	struct error err;

	error_clear(&err);
	assert_int_equal(store_open(fx.path, STORE_EXISTING, &other, &err), 0);
	expect_recorded(&req, &alice, &out);
	assert_int_equal(decision_record(other, &req, &bob, EX_NOW_MS + 10,
	    false, &out, &err), 0);
	assert_false(out.recorded);
	assert_string_equal(out.code, "already_decided");
	assert_contains(out.message, "alice");
	store_close(other);
	assert_int_equal(sf_decision_rows(fx.path, EX_PASS_ACTION_ID), 1);
	assert_int_equal(sf_head(fx.store).seq, SF_POLICY_RECORDS + 1);
}

/* ---- not_pending (SPEC 5, v2) ---- */

/* The pass example as action_id with proposed_action.status set. */
static void
import_with_status(const char *example, const char *action_id,
    const char *status)
{
	char quoted[64];
	char *base = sf_packet_as(example, action_id, NULL, NULL);

	sf_import_owned(fx.store, sf_edit(base, "proposed_action.status",
	    sf_quote(quoted, sizeof quoted, status), (const char *)NULL));
	free(base);
}

static void
test_not_pending_for_a_trade_decided_elsewhere(void **state)
{
	static const char *const decided[] = { "approved", "rejected",
	    "executed", "failed" };
	static const char *const pending[] = { "drafted", "reviewed_pass",
	    "reviewed_fail", "pending_approval" };
	struct decision_request req;
	struct decision_outcome out;
	char id[32];
	size_t i;

	for (i = 0; i < sizeof decided / sizeof decided[0]; i++) {
		snprintf(id, sizeof id, "st-%s", decided[i]);
		import_with_status(EX_PACKET_PASS_JSON, id, decided[i]);
		req = approve_req(id);
		expect_refusal(&req, &alice, "not_pending", &out);
		assert_contains(out.message, decided[i]);
		/* A rejection of it is still recorded. */
		req = reject_req(id, "already executed elsewhere");
		expect_recorded(&req, &alice, &out);
	}
	for (i = 0; i < sizeof pending / sizeof pending[0]; i++) {
		snprintf(id, sizeof id, "st-%s", pending[i]);
		import_with_status(EX_PACKET_PASS_JSON, id, pending[i]);
		req = approve_req(id);
		expect_recorded(&req, &alice, &out);
	}
}

/* SPEC 5 order: after already_decided, before rules_failed. */
static void
test_not_pending_comes_before_rules_failed(void **state)
{
	struct decision_request req;
	struct decision_outcome out;

	import_with_status(EX_PACKET_DIVERGENT_JSON, "st-div", "executed");
	req = approve_req("st-div");
	req.reason = "override";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &alice, "not_pending", &out);
	assert_contains(out.message, "also: rules_failed");
	req = reject_req("st-div", "stale");
	expect_recorded(&req, &bob, &out);
	req = approve_req("st-div");
	expect_refusal(&req, &alice, "already_decided", &out);
	assert_not_contains(out.message, "not_pending");
}

/* ---- rules_failed ---- */

static void
test_rules_failed_names_the_failing_rules(void **state)
{
	struct decision_request req = approve_req(EX_DIVERGENT_ACTION_ID);
	struct decision_outcome out;

	/* Everything acknowledged, a reason given: only the rules fail. */
	req.reason = "I accept the risk";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &alice, "rules_failed", &out);
	assert_contains(out.message, "excluded_sector");
	assert_contains(out.message, "allocation_band_direction");
	assert_contains(out.message, "ips_version_current");
	assert_not_contains(out.message, "excluded_ticker");
	assert_not_contains(out.message, "concentration_limit");
	assert_not_contains(out.message, "self_approval");
	assert_not_contains(out.message, "expired");
	assert_not_contains(out.message, "unacknowledged");
}

/* The re-check reads the policy as it is at the moment of the decision. */
static void
test_rules_failed_against_the_policy_at_decision_time(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;

	sf_import(fx.store, SF_IPS_V4_JSON, (const char *)NULL);
	req.reason = "fine";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &alice, "rules_failed", &out);
	assert_contains(out.message, "ips_version_current");
	assert_not_contains(out.message, "excluded_sector");
}

/* ---- self_approval ---- */

static void
test_self_approval_is_refused(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;

	req.reason = "mine";
	expect_refusal(&req, &pm_lee, "self_approval", &out);
	assert_contains(out.message, "pm.lee");
	/* Acknowledging anything does not help. */
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &pm_lee, "self_approval", &out);

	/* A different operator may approve it. */
	expect_recorded(&req, &alice, &out);
}

/* Only the login counts, not the uid. */
static void
test_self_approval_matches_the_login(void **state)
{
	static const struct operator_identity lee_other_uid =
	    { "pm.lee", 4242 };
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;

	expect_refusal(&req, &lee_other_uid, "self_approval", &out);
	sf_import_owned(fx.store, sf_packet_pass_as("req-by-alice", "alice",
	    NULL));
	req = approve_req("req-by-alice");
	expect_refusal(&req, &alice, "self_approval", &out);
	expect_recorded(&req, &pm_lee, &out);
}

/*
 * requested_by as a reader sees it: another case, white space or an
 * invisible character does not make the requester someone else.
 */
static void
test_self_approval_is_not_dodged_by_spelling(void **state)
{
	static const char *const variants[] = {
		"PM.Lee", " pm.lee", "pm.lee\xc2\xa0", "pm.\xe2\x80\x8blee",
		"\xe2\x80\x8epm.lee"
	};
	struct decision_request req;
	struct decision_outcome out;
	char id[32];
	size_t i;

	for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		snprintf(id, sizeof id, "req-variant-%zu", i);
		sf_import_owned(fx.store, sf_packet_pass_as(id, variants[i],
		    NULL));
		req = approve_req(id);
		expect_refusal(&req, &pm_lee, "self_approval", &out);
	}
}

/* A reason of invisible characters is no reason (SPEC 5). */
static void
test_invisible_reason_is_no_reason(void **state)
{
	struct decision_request rej = reject_req(EX_PASS_ACTION_ID,
	    "\xe2\x80\x8b\xc2\xa0\xe3\x80\x80");
	struct decision_outcome out;

	expect_refusal(&rej, &alice, "reason_required", &out);
}

/* Reject is refused only for SPEC 5's reasons: self-rejection is allowed. */
static void
test_self_rejection_is_allowed(void **state)
{
	struct decision_request rej = reject_req(EX_PASS_ACTION_ID,
	    "withdrawn by the requester");
	struct decision_outcome out;

	expect_recorded(&rej, &pm_lee, &out);
}

/* ---- expired ---- */

static void
test_expired_is_refused(void **state)
{
	struct decision_request req = approve_req("expired-1");
	struct decision_outcome out;

	sf_import_owned(fx.store, sf_packet_pass_as("expired-1", NULL,
	    SF_PAST_TEXT));
	req.reason = "late";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &alice, "expired", &out);
	assert_not_contains(out.message, "self_approval");
}

static void
test_expired_can_still_be_rejected(void **state)
{
	struct decision_request rej = reject_req("expired-2", "too late");
	struct decision_outcome out;
	cJSON *rec;

	sf_import_owned(fx.store, sf_packet_pass_as("expired-2", NULL,
	    SF_PAST_TEXT));
	expect_recorded(&rej, &alice, &out);
	rec = decision_json("expired-2");
	assert_string_equal(member_string(rec, "decision"), "reject");
	assert_string_equal(member_string(rec, "reason"), "too late");
	cJSON_Delete(rec);
}

/*
 * .0009 into its millisecond, the deadline may have passed at any moment
 * of that millisecond: refused in it, recorded in the one before.
 */
static void
test_expiry_counts_its_own_millisecond_as_passed(void **state)
{
	struct decision_request req = approve_req("expires-within-ms");
	struct decision_outcome out;
	long long deadline_ms;

	assert_true(timestamp_parse("2026-12-01T00:00:00.0009Z",
	    &deadline_ms));
	sf_import_owned(fx.store, sf_packet_pass_as("expires-within-ms", NULL,
	    "2026-12-01T00:00:00.0009Z"));
	expect_refusal_at(&req, &alice, deadline_ms, "expired", &out);
	expect_recorded_at(&req, &alice, deadline_ms - 1, &out);
}

static void
test_unexpired_can_be_approved(void **state)
{
	struct decision_request req = approve_req("expires-later");
	struct decision_outcome out;

	sf_import_owned(fx.store, sf_packet_pass_as("expires-later", NULL,
	    SF_FUTURE_TEXT));
	/* Refused once the clock is past it, recorded before. */
	expect_refusal_at(&req, &alice, EX_NOW_MS + 30LL * 86400000,
	    "expired", &out);
	expect_recorded(&req, &alice, &out);
}

/* ---- high_stakes_unacknowledged and reason_required ---- */

static void
test_high_stakes_unacknowledged(void **state)
{
	struct decision_request req = approve_req("hs-1");
	struct decision_outcome out;

	sf_import_owned(fx.store, sf_packet_high_stakes_as("hs-1", NULL,
	    NULL));
	req.reason = "large but within policy";
	expect_refusal(&req, &alice, "high_stakes_unacknowledged", &out);
	/* The advisory agrees: nothing about divergence. */
	assert_not_contains(out.message, "divergence_unacknowledged");
	/* Acknowledging divergence is not acknowledging high stakes. */
	req.ack_divergence = true;
	expect_refusal(&req, &alice, "high_stakes_unacknowledged", &out);
}

static void
test_high_stakes_approval_needs_a_reason(void **state)
{
	struct decision_request req = approve_req("hs-2");
	struct decision_outcome out;

	sf_import_owned(fx.store, sf_packet_high_stakes_as("hs-2", NULL,
	    NULL));
	req.ack_high_stakes = true;
	req.reason = NULL;
	expect_refusal(&req, &alice, "reason_required", &out);
	req.reason = "";
	expect_refusal(&req, &alice, "reason_required", &out);
	req.reason = "  \t \r\n ";
	expect_refusal(&req, &alice, "reason_required", &out);
	/* Without the acknowledgement the ack comes first, naming the reason. */
	req.ack_high_stakes = false;
	expect_refusal(&req, &alice, "high_stakes_unacknowledged", &out);
	assert_contains(out.message, "reason_required");
}

/* A routine approval (not high stakes) needs no reason. */
static void
test_routine_approval_needs_no_reason(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	const cJSON *reason;
	cJSON *rec;

	expect_recorded(&req, &alice, &out);
	rec = decision_json(EX_PASS_ACTION_ID);
	reason = member(rec, "reason");
	assert_true(cJSON_IsNull(reason) || (cJSON_IsString(reason) &&
	    reason->valuestring[0] == '\0'));
	cJSON_Delete(rec);
}

static void
test_high_stakes_acknowledged_with_reason_is_recorded(void **state)
{
	struct decision_request req = approve_req("hs-3");
	struct decision_outcome out;
	const cJSON *reasons;
	cJSON *rec, *packet;
	char *json = sf_packet_high_stakes_as("hs-3", NULL, NULL);

	sf_import(fx.store, json, (const char *)NULL);
	req.ack_high_stakes = true;
	req.reason = "Large but within every limit.";
	expect_recorded(&req, &alice, &out);

	rec = decision_json("hs-3");
	assert_record_common(rec, "hs-3", "approve", &out, &alice, EX_NOW_MS);
	assert_string_equal(member_string(rec, "reason"),
	    "Large but within every limit.");
	assert_true(cJSON_IsTrue(member(rec, "requires_human_approval")));
	reasons = member(rec, "high_stakes_reasons");
	/* $30,000 beyond the threshold, and (v3) beyond the $20,000 cash. */
	assert_int_equal(cJSON_GetArraySize(reasons), 2);
	assert_string_equal(member_string(cJSON_GetArrayItem(reasons, 0),
	    "code"), "above_usd");
	assert_string_equal(member_string(cJSON_GetArrayItem(reasons, 1),
	    "code"), "exceeds_cash");
	assert_true(member_string(cJSON_GetArrayItem(reasons, 0),
	    "detail")[0] != '\0');
	assert_true(cJSON_IsTrue(member(member(rec, "local_verdict"),
	    "overall_pass")));
	assert_int_equal(cJSON_GetArraySize(member(rec, "divergence")), 0);
	assert_string_set(member(rec, "acknowledged"), 1, "high_stakes");
	assert_true(cJSON_IsNull(member(rec, "routing")));
	assert_true(cJSON_Compare(member(rec, "advisory_verdict"),
	    packet_advisory(json, &packet), true));
	cJSON_Delete(packet);
	cJSON_Delete(rec);
	free(json);
}

/* ---- divergence_unacknowledged ---- */

static void
test_divergence_unacknowledged(void **state)
{
	struct decision_request req = approve_req("div-1");
	struct decision_outcome out;
	char *base = sf_packet_pass_as("div-1", NULL, NULL);

	/* The advisory lacks allocation_band_direction; locally all pass. */
	sf_import_owned(fx.store, sf_edit(base,
	    "reviewer_verdict.rule_results.3", (const char *)NULL,
	    (const char *)NULL));
	free(base);
	expect_refusal(&req, &alice, "divergence_unacknowledged", &out);
	assert_not_contains(out.message, "high_stakes");
	/* Acknowledging high stakes is not acknowledging divergence. */
	req.ack_high_stakes = true;
	req.reason = "checked by hand";
	expect_refusal(&req, &alice, "divergence_unacknowledged", &out);
}

static void
test_divergence_acknowledged_is_recorded(void **state)
{
	struct decision_request req = approve_req("div-2");
	struct decision_outcome out;
	const cJSON *entry;
	cJSON *rec, *packet;
	char *base = sf_packet_pass_as("div-2", NULL, NULL);
	char *json = sf_edit(base, "reviewer_verdict.rule_results.3",
	    (const char *)NULL, (const char *)NULL);

	free(base);
	sf_import(fx.store, json, (const char *)NULL);
	req.ack_divergence = true;
	expect_recorded(&req, &alice, &out);

	rec = decision_json("div-2");
	assert_record_common(rec, "div-2", "approve", &out, &alice, EX_NOW_MS);
	assert_false(cJSON_IsTrue(member(rec, "requires_human_approval")));
	assert_int_equal(cJSON_GetArraySize(member(rec,
	    "high_stakes_reasons")), 0);
	assert_int_equal(cJSON_GetArraySize(member(rec, "divergence")), 1);
	entry = divergence_entry(member(rec, "divergence"),
	    "allocation_band_direction");
	assert_non_null(entry);
	assert_string_set(member(rec, "acknowledged"), 1, "divergence");
	/* Exactly as received: the edited advisory, four rules. */
	assert_true(cJSON_Compare(member(rec, "advisory_verdict"),
	    packet_advisory(json, &packet), true));
	assert_int_equal(cJSON_GetArraySize(member(member(rec,
	    "advisory_verdict"), "rule_results")), 4);
	cJSON_Delete(packet);
	cJSON_Delete(rec);
	free(json);
}

/* No advisory at all: a divergence; the record says null. */
static void
test_missing_advisory_is_recorded_as_null(void **state)
{
	struct decision_request req = approve_req("no-adv");
	struct decision_outcome out;
	cJSON *rec;
	char *base = sf_packet_pass_as("no-adv", NULL, NULL);

	sf_import_owned(fx.store, sf_edit(base, "reviewer_verdict",
	    (const char *)NULL, (const char *)NULL));
	free(base);
	expect_refusal(&req, &alice, "divergence_unacknowledged", &out);
	req.ack_divergence = true;
	expect_recorded(&req, &alice, &out);
	rec = decision_json("no-adv");
	assert_true(cJSON_IsNull(member(rec, "advisory_verdict")));
	assert_int_equal(cJSON_GetArraySize(member(rec, "divergence")), 1);
	assert_non_null(divergence_entry(member(rec, "divergence"),
	    "advisory_verdict"));
	cJSON_Delete(rec);

	/* An explicit null is recorded as null too. */
	base = sf_packet_pass_as("null-adv", NULL, NULL);
	sf_import_owned(fx.store, sf_edit(base, "reviewer_verdict", "null",
	    (const char *)NULL));
	free(base);
	req = approve_req("null-adv");
	req.ack_divergence = true;
	expect_recorded(&req, &alice, &out);
	rec = decision_json("null-adv");
	assert_true(cJSON_IsNull(member(rec, "advisory_verdict")));
	assert_non_null(divergence_entry(member(rec, "divergence"),
	    "advisory_verdict"));
	cJSON_Delete(rec);
}

/* ---- reason_required on reject ---- */

static void
test_reject_requires_a_reason(void **state)
{
	struct decision_request rej = reject_req(EX_DIVERGENT_ACTION_ID, NULL);
	struct decision_outcome out;

	expect_refusal(&rej, &alice, "reason_required", &out);
	rej.reason = "";
	expect_refusal(&rej, &alice, "reason_required", &out);
	rej.reason = "   ";
	expect_refusal(&rej, &alice, "reason_required", &out);
	rej.reason = "\t\r\n \n";
	expect_refusal(&rej, &alice, "reason_required", &out);
	/* Routing does not replace a reason. */
	rej.reason = " ";
	rej.reassign_to = "action-drafting-b";
	expect_refusal(&rej, &alice, "reason_required", &out);
	rej.reassign_to = NULL;
	rej.escalate = true;
	expect_refusal(&rej, &alice, "reason_required", &out);
}

/* Vertical tab and form feed are whitespace too (isspace). */
static void
test_reject_reason_of_vertical_whitespace_only(void **state)
{
	struct decision_request rej = reject_req(EX_DIVERGENT_ACTION_ID,
	    " \v\f ");
	struct decision_outcome out;

	expect_refusal(&rej, &alice, "reason_required", &out);
}

/* ---- Precedence ---- */

static void
test_precedence_rules_failed_first(void **state)
{
	struct decision_request req = approve_req("all-wrong");
	struct decision_outcome out;

	/* Failing rules, requested by alice, expired, high stakes, divergent. */
	sf_import_owned(fx.store, sf_packet_divergent_as("all-wrong",
	    "alice", SF_PAST_TEXT));
	expect_refusal(&req, &alice, "rules_failed", &out);
	assert_contains(out.message, "excluded_sector");
	assert_contains(out.message, "self_approval");
	assert_contains(out.message, "expired");
	assert_contains(out.message, "high_stakes_unacknowledged");
	assert_contains(out.message, "divergence_unacknowledged");

	/* With everything acknowledged and a reason, still rules_failed. */
	req.reason = "please";
	req.ack_high_stakes = req.ack_divergence = true;
	expect_refusal(&req, &alice, "rules_failed", &out);
	assert_contains(out.message, "self_approval");
	assert_contains(out.message, "expired");
	assert_not_contains(out.message, "unacknowledged");

	/* Rejecting it is still possible. */
	req = reject_req("all-wrong", "everything is wrong");
	expect_recorded(&req, &alice, &out);
}

static void
test_precedence_self_approval_before_expired(void **state)
{
	struct decision_request req = approve_req("self-expired");
	struct decision_outcome out;

	sf_import_owned(fx.store, sf_packet_high_stakes_as("self-expired",
	    "alice", SF_PAST_TEXT));
	expect_refusal(&req, &alice, "self_approval", &out);
	assert_contains(out.message, "expired");
	assert_contains(out.message, "high_stakes_unacknowledged");
	assert_not_contains(out.message, "rules_failed");
	/* Another operator: expired is next. */
	expect_refusal(&req, &bob, "expired", &out);
	assert_contains(out.message, "high_stakes_unacknowledged");
	assert_not_contains(out.message, "self_approval");
}

static void
test_precedence_high_stakes_before_divergence(void **state)
{
	struct decision_request req = approve_req("hs-div");
	struct decision_outcome out;
	char *base = sf_packet_high_stakes_as("hs-div", NULL, NULL);

	/* The advisory says no human is needed: a divergence. */
	sf_import_owned(fx.store, sf_edit(base,
	    "reviewer_verdict.requires_human_approval", "false",
	    (const char *)NULL));
	free(base);
	req.reason = "big";
	expect_refusal(&req, &alice, "high_stakes_unacknowledged", &out);
	assert_contains(out.message, "divergence_unacknowledged");
	req.ack_high_stakes = true;
	expect_refusal(&req, &alice, "divergence_unacknowledged", &out);
	assert_not_contains(out.message, "high_stakes_unacknowledged");
	req.ack_divergence = true;
	req.reason = NULL;
	expect_refusal(&req, &alice, "reason_required", &out);
}

/* ---- What a recorded decision writes ---- */

static void
test_approve_record_has_every_spec6_key(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	const cJSON *local;
	cJSON *rec, *packet;
	struct audit_report report;
	struct error err;

	req.reason = "Within band; rebalancing.";
	expect_recorded(&req, &alice, &out);
	rec = decision_json(EX_PASS_ACTION_ID);
	assert_record_common(rec, EX_PASS_ACTION_ID, "approve", &out, &alice,
	    EX_NOW_MS);
	assert_string_equal(member_string(rec, "decided_at"), EX_NOW_TEXT);
	assert_string_equal(member_string(rec, "reason"),
	    "Within band; rebalancing.");
	assert_true(cJSON_Compare(member(rec, "advisory_verdict"),
	    packet_advisory(EX_PACKET_PASS_JSON, &packet), true));
	cJSON_Delete(packet);
	local = member(rec, "local_verdict");
	assert_true(cJSON_IsTrue(member(local, "overall_pass")));
	assert_true(cJSON_IsFalse(member(local, "requires_human_approval")));
	assert_true(cJSON_IsFalse(member(rec, "requires_human_approval")));
	assert_int_equal(cJSON_GetArraySize(member(rec, "divergence")), 0);
	assert_int_equal(cJSON_GetArraySize(member(rec, "acknowledged")), 0);
	assert_int_equal(cJSON_GetArraySize(member(rec,
	    "high_stakes_reasons")), 0);
	assert_true(cJSON_IsNull(member(rec, "routing")));
	cJSON_Delete(rec);

	/* The decision row's time is the record's. */
	{
		struct decision_row row;
		bool found;

		error_clear(&err);
		assert_int_equal(store_decision_get(fx.store,
		    EX_PASS_ACTION_ID, &row, &found, &err), 0);
		assert_true(found);
		assert_string_equal(row.decided_at, EX_NOW_TEXT);
	}

	/* The log stays intact and counts the decision. */
	error_clear(&err);
	assert_int_equal(store_audit_verify(fx.store, 0, NULL, &report, &err),
	    0);
	assert_int_equal(report.bad_seq, 0);
	assert_int_equal(report.records, SF_POLICY_RECORDS + 1);
	assert_int_equal(report.decisions, 1);
	assert_int_equal(report.head.seq, out.head.seq);
	assert_string_equal(report.head.hash, out.head.hash);
}

static void
test_reject_record_with_reassign_to(void **state)
{
	struct decision_request rej = reject_req(EX_DIVERGENT_ACTION_ID,
	    "Excluded sector; stale IPS.");
	struct decision_outcome out;
	const cJSON *routing, *divergence, *local;
	cJSON *rec, *packet;

	rej.reassign_to = "action-drafting-b";
	expect_recorded(&rej, &bob, &out);
	rec = decision_json(EX_DIVERGENT_ACTION_ID);
	assert_record_common(rec, EX_DIVERGENT_ACTION_ID, "reject", &out, &bob,
	    EX_NOW_MS);
	assert_string_equal(member_string(rec, "reason"),
	    "Excluded sector; stale IPS.");
	routing = member(rec, "routing");
	assert_true(cJSON_IsObject(routing));
	assert_int_equal(cJSON_GetArraySize(routing), 1);
	assert_string_equal(member_string(routing, "reassign_to"),
	    "action-drafting-b");

	/* Both verdicts and every divergence are in the record. */
	assert_true(cJSON_Compare(member(rec, "advisory_verdict"),
	    packet_advisory(EX_PACKET_DIVERGENT_JSON, &packet), true));
	cJSON_Delete(packet);
	local = member(rec, "local_verdict");
	assert_true(cJSON_IsFalse(member(local, "overall_pass")));
	assert_true(cJSON_IsTrue(member(rec, "requires_human_approval")));
	assert_true(cJSON_GetArraySize(member(rec, "high_stakes_reasons")) >
	    0);
	divergence = member(rec, "divergence");
	assert_non_null(divergence_entry(divergence, "excluded_sector"));
	assert_non_null(divergence_entry(divergence,
	    "allocation_band_direction"));
	assert_non_null(divergence_entry(divergence, "ips_version_current"));
	assert_non_null(divergence_entry(divergence, "overall_pass"));
	assert_non_null(divergence_entry(divergence,
	    "requires_human_approval"));
	assert_non_null(divergence_entry(divergence,
	    "ips_version_checked_against"));
	assert_int_equal(cJSON_GetArraySize(member(rec, "acknowledged")), 0);
	cJSON_Delete(rec);
}

static void
test_reject_record_with_escalate(void **state)
{
	struct decision_request rej = reject_req(EX_PASS_ACTION_ID,
	    "needs the committee");
	struct decision_outcome out;
	const cJSON *routing;
	cJSON *rec;

	rej.escalate = true;
	expect_recorded(&rej, &alice, &out);
	rec = decision_json(EX_PASS_ACTION_ID);
	assert_record_common(rec, EX_PASS_ACTION_ID, "reject", &out, &alice,
	    EX_NOW_MS);
	routing = member(rec, "routing");
	assert_true(cJSON_IsObject(routing));
	assert_int_equal(cJSON_GetArraySize(routing), 1);
	assert_true(cJSON_IsTrue(member(routing, "escalate")));
	cJSON_Delete(rec);
}

/* A reject without routing has routing null; an approve ignores routing. */
static void
test_routing_null_without_routing(void **state)
{
	struct decision_request rej = reject_req(EX_DIVERGENT_ACTION_ID, "no");
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	cJSON *rec;

	expect_recorded(&rej, &alice, &out);
	rec = decision_json(EX_DIVERGENT_ACTION_ID);
	assert_true(cJSON_IsNull(member(rec, "routing")));
	cJSON_Delete(rec);

	req.reassign_to = "someone";
	req.escalate = true;
	expect_recorded(&req, &alice, &out);
	rec = decision_json(EX_PASS_ACTION_ID);
	assert_true(cJSON_IsNull(member(rec, "routing")));
	cJSON_Delete(rec);
}

static void
test_acknowledged_high_stakes_divergent_approval(void **state)
{
	struct decision_request req = approve_req("hs-div-ok");
	struct decision_outcome out;
	cJSON *rec;
	char *base = sf_packet_high_stakes_as("hs-div-ok", NULL, NULL);

	sf_import_owned(fx.store, sf_edit(base,
	    "reviewer_verdict.rule_results.3", (const char *)NULL,
	    (const char *)NULL));
	free(base);
	req.ack_high_stakes = req.ack_divergence = true;
	req.reason = "Reviewed every rule myself.";
	expect_recorded(&req, &alice, &out);
	rec = decision_json("hs-div-ok");
	assert_record_common(rec, "hs-div-ok", "approve", &out, &alice,
	    EX_NOW_MS);
	assert_string_set(member(rec, "acknowledged"), 2, "high_stakes",
	    "divergence");
	assert_true(cJSON_IsTrue(member(rec, "requires_human_approval")));
	assert_non_null(divergence_entry(member(rec, "divergence"),
	    "allocation_band_direction"));
	assert_string_equal(member_string(rec, "reason"),
	    "Reviewed every rule myself.");
	cJSON_Delete(rec);
}

/* The head's hash chains the record the decision wrote. */
static void
test_decision_extends_the_chain(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_request rej = reject_req(EX_DIVERGENT_ACTION_ID, "no");
	struct decision_outcome first, second;
	char hash[SHA256_HEX_SIZE], *record;
	struct error err;

	expect_recorded(&req, &alice, &first);
	expect_recorded_at(&rej, &bob, EX_NOW_MS + 1, &second);
	assert_int_equal(first.head.seq, SF_POLICY_RECORDS + 1);
	assert_int_equal(second.head.seq, SF_POLICY_RECORDS + 2);
	error_clear(&err);
	assert_int_equal(store_decision_record(fx.store, EX_DIVERGENT_ACTION_ID,
	    &record, &err), 0);
	assert_non_null(record);
	assert_int_equal(sha256_chain(first.head.hash, record,
	    strlen(record), hash), 0);
	assert_string_equal(hash, second.head.hash);
	free(record);
	assert_string_not_equal(first.decision_id, second.decision_id);
}

/* ---- In the caller's transaction (batch --atomic) ---- */

static void
test_in_transaction_refusal_keeps_earlier_work(void **state)
{
	struct decision_request bad = approve_req(EX_DIVERGENT_ACTION_ID);
	struct decision_request good = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	struct audit_head head;
	struct check_data data;
	struct error err;
	char *packet = sf_packet_pass_as("in-txn", NULL, NULL);

	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	/* Earlier work in the same transaction: an import and a record. */
	assert_int_equal(sf_put(fx.store, packet, EX_NOW_MS, &err), 0);
	assert_int_equal(store_audit_append(fx.store,
	    "{\"event\":\"note\",\"n\":1}", &head, &err), 0);
	assert_int_equal(head.seq, SF_POLICY_RECORDS + 1);

	assert_int_equal(decision_record(fx.store, &bad, &alice, EX_NOW_MS,
	    true, &out, &err), 0);
	assert_false(out.recorded);
	assert_string_equal(out.code, "rules_failed");
	/* The earlier work is still there, in the open transaction. */
	assert_int_equal(sf_head(fx.store).seq, SF_POLICY_RECORDS + 1);
	assert_string_equal(sf_head(fx.store).hash, head.hash);
	assert_int_equal(store_load_check(fx.store, "in-txn", EX_NOW_MS, &data,
	    &err), 0);
	check_data_free(&data);

	assert_int_equal(decision_record(fx.store, &good, &alice, EX_NOW_MS,
	    true, &out, &err), 0);
	assert_true(out.recorded);
	assert_true(sf_is_uuid_v4(out.decision_id));
	assert_int_equal(out.head.seq, SF_POLICY_RECORDS + 2);
	/* Not visible to anyone else before the commit. */
	sf_assert_status(fx.path, EX_PASS_ACTION_ID, "pending");
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM audit_log"),
	    SF_POLICY_RECORDS);

	assert_int_equal(store_commit(fx.store, &err), 0);
	sf_assert_status(fx.path, EX_PASS_ACTION_ID, "approved");
	sf_assert_status(fx.path, EX_DIVERGENT_ACTION_ID, "pending");
	sf_assert_status(fx.path, "in-txn", "pending");
	assert_int_equal(sf_decision_rows(fx.path, EX_PASS_ACTION_ID), 1);
	assert_int_equal(sf_decision_rows(fx.path, EX_DIVERGENT_ACTION_ID), 0);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM audit_log"),
	    SF_POLICY_RECORDS + 2);
	assert_int_equal(sf_head(fx.store).seq, SF_POLICY_RECORDS + 2);
	assert_string_equal(sf_head(fx.store).hash, out.head.hash);
	free(packet);
}

static void
test_in_transaction_rollback_discards_the_decision(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	struct db_state before;
	struct error err;

	state_take(&before);
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(decision_record(fx.store, &req, &alice, EX_NOW_MS,
	    true, &out, &err), 0);
	assert_true(out.recorded);
	assert_int_equal(out.head.seq, SF_POLICY_RECORDS + 1);
	store_rollback(fx.store);

	assert_state_unchanged(&before);
	sf_assert_status(fx.path, EX_PASS_ACTION_ID, "pending");
	assert_int_equal(sf_decision_rows(fx.path, EX_PASS_ACTION_ID), 0);
	state_free(&before);
	/* It can be decided afresh. */
	expect_recorded(&req, &bob, &out);
}

/* ---- bulk (issue 25): one of several decided together ---- */

static void
test_bulk_decision_names_its_bulk(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_bulk bulk = { "0f6c1a52-9e2d-4b1f-8a3c-5d7e9f1a2b3c", 3 };
	struct decision_outcome out;
	const cJSON *b;
	cJSON *json;

	req.bulk = &bulk;
	expect_recorded(&req, &alice, &out);
	json = decision_json(EX_PASS_ACTION_ID);
	b = member(json, "bulk");
	assert_string_equal(member_string(b, "id"), bulk.id);
	assert_true(cJSON_IsNumber(member(b, "count")));
	assert_int_equal(member(b, "count")->valueint, 3);
	cJSON_Delete(json);
}

static void
test_single_decision_has_no_bulk(void **state)
{
	struct decision_request req = approve_req(EX_PASS_ACTION_ID);
	struct decision_outcome out;
	cJSON *json;

	expect_recorded(&req, &alice, &out);
	json = decision_json(EX_PASS_ACTION_ID);
	assert_null(cJSON_GetObjectItemCaseSensitive(json, "bulk"));
	cJSON_Delete(json);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, sf_setup, sf_teardown)
		T(test_unknown_action_is_refused),
		T(test_already_decided_names_who_and_when),
		T(test_already_decided_after_a_rejection),
		T(test_second_connection_sees_the_decision),
		T(test_not_pending_for_a_trade_decided_elsewhere),
		T(test_not_pending_comes_before_rules_failed),
		T(test_rules_failed_names_the_failing_rules),
		T(test_rules_failed_against_the_policy_at_decision_time),
		T(test_self_approval_is_refused),
		T(test_self_approval_matches_the_login),
		T(test_self_rejection_is_allowed),
		T(test_self_approval_is_not_dodged_by_spelling),
		T(test_invisible_reason_is_no_reason),
		T(test_expired_is_refused),
		T(test_expired_can_still_be_rejected),
		T(test_expiry_counts_its_own_millisecond_as_passed),
		T(test_unexpired_can_be_approved),
		T(test_high_stakes_unacknowledged),
		T(test_high_stakes_approval_needs_a_reason),
		T(test_routine_approval_needs_no_reason),
		T(test_high_stakes_acknowledged_with_reason_is_recorded),
		T(test_divergence_unacknowledged),
		T(test_divergence_acknowledged_is_recorded),
		T(test_missing_advisory_is_recorded_as_null),
		T(test_reject_requires_a_reason),
		T(test_reject_reason_of_vertical_whitespace_only),
		T(test_precedence_rules_failed_first),
		T(test_precedence_self_approval_before_expired),
		T(test_precedence_high_stakes_before_divergence),
		T(test_approve_record_has_every_spec6_key),
		T(test_reject_record_with_reassign_to),
		T(test_reject_record_with_escalate),
		T(test_routing_null_without_routing),
		T(test_acknowledged_high_stakes_divergent_approval),
		T(test_decision_extends_the_chain),
		T(test_in_transaction_refusal_keeps_earlier_work),
		T(test_in_transaction_rollback_discards_the_decision),
		T(test_bulk_decision_names_its_bulk),
		T(test_single_decision_has_no_bulk),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
