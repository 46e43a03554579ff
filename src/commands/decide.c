/*
 * The one decision path (SPEC 5 and 6).  Everything that decides whether
 * an approval may be recorded runs inside the same write transaction that
 * records it: the re-check, the divergence, the refusals, the audit record.
 */
#include "config.h"

#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "decision.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "json_strict.h"
#include "lockout.h"
#include "text.h"
#include "uuid_random.h"

void
operator_current(struct operator_identity *op)
{
	/* Not getlogin(), USER or LOGNAME: those a user can set. */
	uid_t uid = getuid();
	struct passwd *pw = getpwuid(uid);

	op->uid = (long long)uid;
	if (pw != NULL && pw->pw_name != NULL)
		snprintf(op->login, sizeof op->login, "%s", pw->pw_name);
	else
		snprintf(op->login, sizeof op->login, "#%lld", op->uid);
}

/* The refusals that apply, in SPEC 5 order; the first is the code. */
struct refusals {
	const char *codes[8];
	char first_message[768];
	size_t count;
};

static void
refuse(struct refusals *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
refuse(struct refusals *r, const char *code, const char *fmt, ...)
{
	va_list ap;

	if (r->count == 0) {
		va_start(ap, fmt);
		vsnprintf(r->first_message, sizeof r->first_message, fmt, ap);
		va_end(ap);
	}
	if (r->count < sizeof r->codes / sizeof r->codes[0])
		r->codes[r->count++] = code;
}

/* True when rule_id is the one and only failing rule. */
static bool
only_failing(const struct verdict *v, const char *rule_id)
{
	size_t i;
	bool seen = false;

	for (i = 0; i < v->rule_count; i++) {
		if (v->rules[i].passed)
			continue;
		if (strcmp(v->rules[i].rule_id, rule_id) != 0)
			return false;
		seen = true;
	}
	return seen;
}

static void
approve_refusals(const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    long long now_ms, struct refusals *r)
{
	const struct verdict *v = &rc->outcome.verdict;
	const cJSON *requested_by = json_member(rc->data.input.action,
	    "requested_by");
	char *failing, when[TIMESTAMP_SIZE];
	int unjudged;

	/*
	 * An unjudged NEEDS-PO criterion is its own refusal only when it is
	 * all that fails: otherwise the failing rules are the news.
	 */
	unjudged = rc->outcome.pack->unjudged_criteria != NULL ?
	    rc->outcome.pack->unjudged_criteria(&rc->data.input,
	    &rc->outcome.advisory) : 0;
	if (unjudged > 0 && only_failing(v, "needs_po_judged"))
		refuse(r, "po_judgment_required", "%d NEEDS-PO criteri%s "
		    "await%s your judgment (met or unmet)", unjudged,
		    unjudged == 1 ? "on" : "a", unjudged == 1 ? "s" : "");
	else if (!v->overall_pass) {
		failing = verdict_failing_rules(v);
		refuse(r, "rules_failed", "local rules fail: %s",
		    failing ? failing : "");
		free(failing);
	}
	if (cJSON_IsString(requested_by) &&
	    strcmp(requested_by->valuestring, op->login) == 0)
		refuse(r, "self_approval", "%s requested this action and "
		    "cannot approve it", op->login);
	if (rc->data.has_expiry && rc->data.expires_at_ms < now_ms) {
		timestamp_format(rc->data.expires_at_ms, when);
		refuse(r, "expired", "the action expired at %s", when);
	}
	if (v->requires_human_approval && !req->ack_high_stakes)
		refuse(r, "high_stakes_unacknowledged", "the action is high "
		    "stakes (%zu reason(s)); acknowledge high_stakes",
		    v->reason_count);
	if (cJSON_GetArraySize(rc->outcome.divergence) > 0 &&
	    !req->ack_divergence)
		refuse(r, "divergence_unacknowledged", "the advisory verdict "
		    "diverges in %d place(s); acknowledge divergence",
		    cJSON_GetArraySize(rc->outcome.divergence));
	if (v->requires_human_approval && text_blank(req->reason))
		refuse(r, "reason_required", "approving a high-stakes action "
		    "needs a reason");
}

static void
reject_refusals(const struct decision_request *req, const struct recheck *rc,
    struct refusals *r)
{
	const char *why = NULL;

	if (text_blank(req->reason))
		refuse(r, "reason_required", "a rejection needs a reason");
	if (req->reassign_to != NULL &&
	    !lockout_may_reassign(&rc->data.input, req->reassign_to, &why))
		refuse(r, "reassignee_locked_out", "%s %s%s", req->reassign_to,
		    why, lockout_deadlocked(&rc->data.input) ? "; every "
		    "roster author is locked out, so the revision can only be "
		    "escalated" : "");
}

static cJSON *
routing_json(const struct decision_request *req)
{
	cJSON *routing;

	if (req->decision != DECISION_REJECT ||
	    (req->reassign_to == NULL && !req->escalate))
		return cJSON_CreateNull();
	routing = cJSON_CreateObject();
	if (routing == NULL)
		return NULL;
	if (req->reassign_to != NULL)
		cJSON_AddStringToObject(routing, "reassign_to", req->reassign_to);
	else
		cJSON_AddBoolToObject(routing, "escalate", true);
	return routing;
}

static cJSON *
copy_or_null(const cJSON *item)
{
	return item != NULL ? cJSON_Duplicate(item, 1) : cJSON_CreateNull();
}

/* What a replay needs to find the same inputs again (audit replay). */
static cJSON *
rule_inputs_json(const struct check_input *in)
{
	cJSON *inputs = cJSON_CreateObject(), *ips;

	if (inputs == NULL)
		return NULL;
	if (in->ips != NULL) {
		ips = cJSON_AddObjectToObject(inputs, "ips");
		cJSON_AddItemToObject(ips, "ips_id", copy_or_null(
		    json_member(in->ips, "ips_id")));
		cJSON_AddItemToObject(ips, "version", copy_or_null(
		    json_member(in->ips, "version")));
	} else
		cJSON_AddNullToObject(inputs, "ips");
	cJSON_AddItemToObject(inputs, "holdings_snapshot_id", copy_or_null(
	    json_member(in->holdings, "snapshot_id")));
	cJSON_AddItemToObject(inputs, "securities",
	    copy_or_null(in->securities));
	cJSON_AddItemToObject(inputs, "standards_index",
	    copy_or_null(in->standards));
	cJSON_AddItemToObject(inputs, "roster", copy_or_null(in->roster));
	cJSON_AddItemToObject(inputs, "revision_chain",
	    copy_or_null(in->revision_chain));
	return inputs;
}

static char *
decision_record_json(const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    const char *decision_id, const char *decided_at)
{
	const struct check_outcome *out = &rc->outcome;
	cJSON *record = cJSON_CreateObject(), *item;
	char digest[65];
	char *text = NULL;
	size_t i;

	if (record == NULL)
		return NULL;
	cJSON_AddStringToObject(record, "event", "decision");
	cJSON_AddStringToObject(record, "decision_id", decision_id);
	cJSON_AddStringToObject(record, "action_id", req->action_id);
	cJSON_AddStringToObject(record, "kind", out->pack->kind);
	cJSON_AddStringToObject(record, "decision",
	    req->decision == DECISION_APPROVE ? "approve" : "reject");
	if (text_blank(req->reason))
		cJSON_AddNullToObject(record, "reason");
	else
		cJSON_AddStringToObject(record, "reason", req->reason);
	item = cJSON_AddObjectToObject(record, "operator");
	cJSON_AddStringToObject(item, "login", op->login);
	cJSON_AddNumberToObject(item, "uid", (double)op->uid);
	cJSON_AddStringToObject(record, "decided_at", decided_at);
	/* Exactly as received: the packet's own value, or null. */
	cJSON_AddItemToObject(record, "advisory_verdict", copy_or_null(
	    json_member(rc->data.packet, "reviewer_verdict")));
	cJSON_AddItemToObject(record, "local_verdict",
	    verdict_to_json(&out->verdict));
	cJSON_AddItemToObject(record, "divergence",
	    cJSON_Duplicate(out->divergence, 1));
	item = cJSON_AddArrayToObject(record, "acknowledged");
	if (req->ack_high_stakes)
		cJSON_AddItemToArray(item, cJSON_CreateString("high_stakes"));
	if (req->ack_divergence)
		cJSON_AddItemToArray(item, cJSON_CreateString("divergence"));
	cJSON_AddBoolToObject(record, "requires_human_approval",
	    out->verdict.requires_human_approval);
	item = cJSON_AddArrayToObject(record, "high_stakes_reasons");
	for (i = 0; i < out->verdict.reason_count; i++)
		cJSON_AddItemToArray(item, cJSON_CreateString(
		    out->verdict.high_stakes_reasons[i]));
	cJSON_AddItemToObject(record, "routing", routing_json(req));
	/* Who may write the next version, as this decision leaves it. */
	item = cJSON_AddObjectToObject(record, "lockout");
	cJSON_AddItemToObject(item, "locked_out", lockout_authors(
	    &rc->data.input, req->decision == DECISION_REJECT));
	cJSON_AddBoolToObject(item, "deadlocked",
	    lockout_deadlocked(&rc->data.input));
	cJSON_AddItemToObject(record, "po_judgments",
	    copy_or_null(req->po_judgments));
	if (req->decision == DECISION_APPROVE &&
	    out->pack->approved_artifact != NULL &&
	    out->pack->approved_artifact(&rc->data.input, &out->advisory,
	    digest))
		cJSON_AddStringToObject(record, "approved_artifact_sha256",
		    digest);
	else
		cJSON_AddNullToObject(record, "approved_artifact_sha256");
	item = cJSON_AddObjectToObject(record, "program");
	cJSON_AddStringToObject(item, "name", "countersign");
	cJSON_AddStringToObject(item, "version", PACKAGE_VERSION);
	cJSON_AddItemToObject(record, "rule_inputs",
	    rule_inputs_json(&rc->data.input));
	if (check_inputs_sha256(&rc->data.input, digest) == 0)
		cJSON_AddStringToObject(record, "rule_inputs_sha256", digest);
	text = json_print(record);
	cJSON_Delete(record);
	return text;
}

static int
record(struct store *store, const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    long long now_ms, struct decision_outcome *out, struct error *err)
{
	struct decision_row row;
	char *json;
	int status;

	memset(&row, 0, sizeof row);
	uuid_random(row.decision_id);
	timestamp_format(now_ms, row.decided_at);
	snprintf(row.decision, sizeof row.decision, "%s",
	    req->decision == DECISION_APPROVE ? "approve" : "reject");
	snprintf(row.operator_login, sizeof row.operator_login, "%s",
	    op->login);
	row.operator_uid = op->uid;
	row.reassign_to = req->decision == DECISION_REJECT ?
	    req->reassign_to : NULL;
	row.escalate = req->decision == DECISION_REJECT && req->escalate;
	json = decision_record_json(req, op, rc, row.decision_id,
	    row.decided_at);
	if (json == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	status = store_audit_append(store, json, &out->head, err);
	free(json);
	if (status != 0)
		return status;
	row.audit_seq = out->head.seq;
	if ((status = store_decision_insert(store, req->action_id, &row,
	    err)) != 0)
		return status;
	/* Its revisions' lockout changed with it. */
	if ((status = store_queue_mark_revisions(store, req->action_id,
	    err)) != 0)
		return status;
	snprintf(out->decision_id, sizeof out->decision_id, "%s",
	    row.decision_id);
	return 0;
}

/* Fills the outcome of a refusal, naming the other codes that applied. */
static void
refused(struct decision_outcome *out, const struct refusals *r)
{
	size_t i, len;

	out->code = r->codes[0];
	snprintf(out->message, sizeof out->message, "%s", r->first_message);
	for (i = 1; i < r->count; i++) {
		len = strlen(out->message);
		snprintf(out->message + len, sizeof out->message - len,
		    "%s%s%s", i == 1 ? " (also: " : ", ", r->codes[i],
		    i + 1 == r->count ? ")" : "");
	}
}

int
decision_record(struct store *store, const struct decision_request *req,
    const struct operator_identity *op, long long now_ms,
    bool in_transaction, struct decision_outcome *out, struct error *err)
{
	struct refusals refusals;
	struct decision_row previous;
	struct recheck rc;
	bool decided, checked = false;
	int status;

	memset(out, 0, sizeof *out);
	memset(&refusals, 0, sizeof refusals);
	error_clear(err);
	status = in_transaction ? store_savepoint(store, err) :
	    store_begin(store, err);
	if (status != 0)
		return status;

	status = recheck_action(store, req->action_id, now_ms,
	    req->po_judgments, &rc, err);
	if (status == EXIT_REFUSED) {
		refuse(&refusals, "unknown_action", "unknown action %s",
		    req->action_id);
		status = 0;
		goto done;
	}
	if (status != 0)
		goto done;
	checked = true;
	if ((status = store_decision_get(store, req->action_id, &previous,
	    &decided, err)) != 0)
		goto done;
	if (decided) {
		refuse(&refusals, "already_decided", "already %s by %s at %s",
		    strcmp(previous.decision, "approve") == 0 ? "approved" :
		    "rejected", previous.operator_login, previous.decided_at);
		goto done;
	}
	if (req->decision == DECISION_APPROVE)
		approve_refusals(req, op, &rc, now_ms, &refusals);
	else
		reject_refusals(req, &rc, &refusals);
	if (refusals.count == 0)
		status = record(store, req, op, &rc, now_ms, out, err);
done:
	if (checked)
		recheck_free(&rc);
	if (status == 0 && refusals.count == 0) {
		status = in_transaction ? store_release(store, err) :
		    store_commit(store, err);
		if (status == 0) {
			out->recorded = true;
			if (!in_transaction)
				store_audit_announce(store, &out->head);
			return 0;
		}
	}
	/* A refusal or an error: nothing of this decision stays. */
	if (in_transaction)
		store_rollback_savepoint(store);
	else
		store_rollback(store);
	if (status == 0)
		refused(out, &refusals);
	return status;
}
