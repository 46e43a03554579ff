/*
 * The one decision path (SPEC 5 and 6).  Everything that decides whether
 * an approval may be recorded runs inside the same write transaction that
 * records it: the re-check, the divergence, the refusals, the audit record.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands.h"
#include "decision.h"
#include "decision_json.h"
#include "exit_codes.h"
#include "json_extract.h"
#include "json_fields.h"
#include "lockout.h"
#include "quorum.h"
#include "text.h"
#include "uuid_random.h"

/* The refusals that apply, in SPEC 5 order; the first is the code. */
struct refusals {
	const char *codes[10];
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

/* The operator is the action's author or one of its contributors (v2). */
static bool
own_work(const cJSON *action, const char *login)
{
	const cJSON *author = json_member(action, "author"), *contributor;

	if (cJSON_IsString(author) && text_same_name(author->valuestring,
	    login))
		return true;
	cJSON_ArrayForEach(contributor, json_member(action, "contributors")) {
		if (cJSON_IsString(contributor) &&
		    text_same_name(contributor->valuestring, login))
			return true;
	}
	return false;
}

/*
 * SPEC 5 (v3): through the service, the operator is the account that
 * imported the action through it.  Only identities the service vouched
 * for are compared: a local import's login is whatever the importing
 * process ran as, and locally the operator proves nothing either.
 */
bool
decision_imported_by(const struct check_data *d,
    const struct operator_identity *op)
{
	if (!operator_served() || !d->importer_served)
		return false;
	return d->importer_uid == op->uid ||
	    text_same_name(d->importer_login, op->login);
}

/*
 * SPEC 2.3 (v3): a criterion judged twice keeps its first judgment; a
 * different one later, in a judgment or an approval, is refused.
 */
static void
judgment_conflicts(const struct decision_request *req,
    const struct recheck *rc, struct refusals *r)
{
	const cJSON *given, *first;

	cJSON_ArrayForEach(given, req->po_judgments) {
		first = json_member(rc->data.judgments, given->string);
		if (cJSON_IsString(first) && cJSON_IsString(given) &&
		    strcmp(first->valuestring, given->valuestring) != 0) {
			refuse(r, "po_judgment_conflict", "po_judgments.%s: "
			    "%s was already judged %s, and the first judgment "
			    "stands", given->string, given->string,
			    first->valuestring);
			return;
		}
	}
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
	const char *status;
	int unjudged;

	/* SPEC 5 (v2): decided, executed or failed elsewhere. */
	status = rc->outcome.pack->not_pending != NULL ?
	    rc->outcome.pack->not_pending(rc->data.input.action) : NULL;
	if (status != NULL)
		refuse(r, "not_pending", "the action's status is %s: only a "
		    "drafted, reviewed or pending action may be approved",
		    status);
	/* SPEC 2.3 (v3): the first judgment of a criterion stands. */
	judgment_conflicts(req, rc, r);
	/*
	 * An unjudged NEEDS-PO criterion is its own refusal only when it is
	 * all that fails: otherwise the failing rules are the news.
	 */
	unjudged = rc->outcome.pack->unjudged_criteria != NULL ?
	    rc->outcome.pack->unjudged_criteria(&rc->data.input,
	    &rc->outcome.advisory) : 0;
	if (unjudged > 0 && verdict_fails_only(v, "needs_po_judged"))
		refuse(r, "po_judgment_required", "%d NEEDS-PO criteri%s "
		    "await%s your judgment (met or unmet)", unjudged,
		    unjudged == 1 ? "on" : "a", unjudged == 1 ? "s" : "");
	else if (!v->overall_pass) {
		failing = verdict_failing_rules(v);
		refuse(r, "rules_failed", "local rules fail: %s",
		    failing ? failing : "");
		free(failing);
	}
	/*
	 * As a reader would compare them: "Root", " root" or root with a
	 * zero-width space is the same officer asking and approving.
	 */
	if (cJSON_IsString(requested_by) &&
	    text_same_name(requested_by->valuestring, op->login))
		refuse(r, "self_approval", "%s requested this action and "
		    "cannot approve it", op->login);
	else if (own_work(rc->data.input.action, op->login))
		refuse(r, "self_approval", "%s wrote or contributed to this "
		    "action and cannot approve it", op->login);
	else if (decision_imported_by(&rc->data, op))
		refuse(r, "self_approval", "%s imported this action and "
		    "cannot approve it", op->login);
	/*
	 * Both sides are whole milliseconds, cut down; within the same one
	 * the deadline may already have passed, so it counts as passed: an
	 * approval refused a millisecond early, never recorded one late.
	 */
	if (rc->data.has_expiry && now_ms >= rc->data.expires_at_ms) {
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

/*
 * blocked_on holds a change until a standard exists: only a change that
 * the gate itself finds blocked (no_block fails) may be held so.  Any
 * other rejection is a send-back, and its authors are locked out.
 */
bool
decision_may_block(const struct recheck *rc)
{
	const struct rule_result *no_block = verdict_rule(&rc->outcome.verdict,
	    "no_block");

	return strcmp(rc->outcome.pack->kind, "change") == 0 &&
	    no_block != NULL && !no_block->passed;
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
		    why, lockout_deadlocked(&rc->data.input, true) ? "; every "
		    "roster author is locked out, so the revision can only be "
		    "escalated" : "");
	/*
	 * SPEC 2.4 and 5 (v2): once every roster author is out, the
	 * coordinator escalates to a person rather than re-admit anyone.
	 * A rejection held for a standard locks out nobody, so it leaves
	 * the artifact as it was.
	 */
	if (req->reassign_to == NULL && !req->escalate &&
	    lockout_deadlocked(&rc->data.input,
	    req->blocked_on == NULL))
		refuse(r, "escalation_required", "rejecting this leaves every "
		    "roster author locked out of the artifact: the rejection "
		    "must escalate");
	if (req->blocked_on != NULL && !decision_may_block(rc))
		refuse(r, "bad_routing", "blocked_on %s is for a change that "
		    "no_block fails; this one is not blocked: reject it "
		    "without blocked_on", req->blocked_on);
}

bool
decision_blocked(const cJSON *record, cJSON **gaps)
{
	const cJSON *gap, *class, *text;

	*gaps = NULL;
	if (!cJSON_IsString(json_member(json_member(record, "routing"),
	    "blocked_on")))
		return false;
	if ((*gaps = cJSON_CreateArray()) == NULL)
		return true;
	cJSON_ArrayForEach(gap, json_member(json_member(record,
	    "advisory_verdict"), "gaps")) {
		class = json_member(gap, "class");
		text = json_member(gap, "text");
		if (cJSON_IsString(class) && cJSON_IsString(text) &&
		    strcmp(class->valuestring, "missing_standard") == 0)
			cJSON_AddItemToArray(*gaps,
			    cJSON_CreateString(text->valuestring));
	}
	return true;
}

/*
 * The record of a decision or of an approval short of its quorum, on the
 * chain, with the policy objects it names stored beside it (once each);
 * in out, the head it made and the quorum it counts.  A decision's row
 * (given with before) is recorded with it, store_decision_append().
 */
static int
append_record(struct store *store, const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    const char *decision_id, const struct quorum_record *q, const char *at,
    struct decision_row *row, const struct store_decided *before,
    struct decision_outcome *out, struct error *err)
{
	const char *advisory;
	size_t advisory_length;
	char *json;
	int status;

	if ((status = advisory_text(&rc->data, req->action_id, &advisory,
	    &advisory_length, err)) != 0)
		return status;
	json = decision_record_json(req, op, rc, decision_id, q, at, advisory,
	    advisory_length);
	if (json == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	status = store_policy_objects_keep(store, &rc->data, err);
	if (status == 0 && row != NULL)
		status = store_decision_append(store, json, &out->head,
		    req->action_id, row, before, err);
	else if (status == 0)
		status = store_audit_append(store, json, &out->head, err);
	free(json);
	/* The outcome says what the record says. */
	out->quorum_needed = q->view->needed;
	out->quorum_have = q->have;
	return status;
}

/*
 * An approval short of its quorum (SPEC 14): its audit record and its
 * row, in the deciding transaction; the action stays pending.
 */
static int
record_approval(struct store *store, const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    long long now_ms, const struct quorum_view *view,
    struct decision_outcome *out, struct error *err)
{
	struct quorum_record q = { view, NULL, (int)view->count + 1 };
	struct approval_row row;
	int status;

	memset(&row, 0, sizeof row);
	uuid_random(row.approval_id);
	q.approval_id = row.approval_id;
	timestamp_format(now_ms, row.approved_at);
	snprintf(row.operator_login, sizeof row.operator_login, "%s",
	    op->login);
	row.operator_uid = op->uid;
	row.reason = text_blank(req->reason) ? NULL : (char *)req->reason;
	row.needed = view->needed;
	row.have = q.have;
	if ((status = append_record(store, req, op, rc, NULL, &q,
	    row.approved_at, NULL, NULL, out, err)) != 0)
		return status;
	row.audit_seq = out->head.seq;
	if ((status = store_approval_insert(store, req->action_id, &row,
	    err)) != 0)
		return status;
	out->partial = true;
	snprintf(out->approval_id, sizeof out->approval_id, "%s",
	    row.approval_id);
	return 0;
}

static int
record(struct store *store, const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    long long now_ms, const struct quorum_view *view,
    struct decision_outcome *out, struct error *err)
{
	struct quorum_record q = { view, NULL, (int)view->count +
	    (req->decision == DECISION_APPROVE ? 1 : 0) };
	struct decision_row row;
	struct store_decided before;
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
	row.blocked_on = req->decision == DECISION_REJECT ?
	    req->blocked_on : NULL;
	row.escalate_expertise = row.escalate ? req->escalate_expertise : NULL;
	/* What the writes need, read before the first (store.h). */
	if ((status = store_decided_read(store, req->action_id, &before,
	    err)) != 0)
		return status;
	status = append_record(store, req, op, rc, row.decision_id, &q,
	    row.decided_at, &row, &before, out, err);
	store_decided_free(&before);
	if (status != 0)
		return status;
	snprintf(out->decision_id, sizeof out->decision_id, "%s",
	    row.decision_id);
	return 0;
}

/*
 * What a judgment may name (SPEC 2.3 v3, bad_request): the NEEDS-PO
 * criteria of a change, each met or unmet, at least one.  An exit_code
 * only when memory runs out.
 */
static int
judge_refusals(const struct decision_request *req, const struct recheck *rc,
    struct refusals *r, struct error *err)
{
	const struct rule_pack *pack = rc->outcome.pack;
	struct check_input all = rc->data.input;
	const cJSON *given, *criterion;
	cJSON *asked;
	bool known;

	if (pack->judgment_criteria == NULL) {
		refuse(r, "bad_request", "decision: a judgment is for a change; "
		    "action %s is a %s", req->action_id, pack->kind);
		return 0;
	}
	if (cJSON_GetArraySize(req->po_judgments) == 0) {
		refuse(r, "bad_request", "po_judgments: a judgment names at "
		    "least one NEEDS-PO criterion, met or unmet");
		return 0;
	}
	/* Every NEEDS-PO criterion, those judged already included. */
	all.po_judgments = NULL;
	if ((asked = pack->judgment_criteria(&all, &rc->outcome.advisory)) ==
	    NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if (cJSON_GetArraySize(asked) == 0)
		refuse(r, "bad_request", "action_id: change %s has no NEEDS-PO "
		    "criterion to judge", req->action_id);
	cJSON_ArrayForEach(given, req->po_judgments) {
		if (r->count > 0)
			break;
		known = false;
		cJSON_ArrayForEach(criterion, asked) {
			if (strcmp(cJSON_GetStringValue(json_member(criterion,
			    "id")), given->string) == 0)
				known = true;
		}
		if (!known)
			refuse(r, "bad_request", "po_judgments.%s: not a "
			    "NEEDS-PO criterion of this change", given->string);
		else if (!cJSON_IsString(given) || (strcmp(given->valuestring,
		    "met") != 0 && strcmp(given->valuestring, "unmet") != 0))
			refuse(r, "bad_request", "po_judgments.%s: must be "
			    "\"met\" or \"unmet\"", given->string);
	}
	cJSON_Delete(asked);
	if (r->count == 0)
		judgment_conflicts(req, rc, r);
	return 0;
}

/*
 * A product owner's judgment (SPEC 2.3 v3): its po_judgment record and a
 * row for each criterion judged for the first time, in the deciding
 * transaction.  A judgment repeated records the event again, and no row.
 */
static int
record_judgment(struct store *store, const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    long long now_ms, struct decision_outcome *out, struct error *err)
{
	struct judgment_row row;
	const cJSON *given;
	char *json;
	int status;

	memset(&row, 0, sizeof row);
	uuid_random(row.judgment_id);
	timestamp_format(now_ms, row.judged_at);
	snprintf(row.operator_login, sizeof row.operator_login, "%s",
	    op->login);
	row.operator_uid = op->uid;
	json = judgment_record_json(req, op, rc, row.judgment_id,
	    row.judged_at);
	if (json == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	status = store_audit_append(store, json, &out->head, err);
	free(json);
	if (status != 0)
		return status;
	row.audit_seq = out->head.seq;
	cJSON_ArrayForEach(given, req->po_judgments) {
		if (json_member(rc->data.judgments, given->string) != NULL)
			continue;
		row.ac_id = given->string;
		snprintf(row.judgment, sizeof row.judgment, "%s",
		    given->valuestring);
		if ((status = store_judgment_insert(store, req->action_id,
		    &row, err)) != 0)
			return status;
	}
	/* Rule 7 reads differently now: the queue's row is re-checked. */
	if ((status = store_queue_mark_stale(store, req->action_id,
	    err)) != 0)
		return status;
	out->judged = true;
	snprintf(out->judgment_id, sizeof out->judgment_id, "%s",
	    row.judgment_id);
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
	struct quorum_view quorum;
	const struct approval_row *mine;
	struct recheck rc;
	bool decided, checked = false;
	int status, more;
	char why[512];

	memset(out, 0, sizeof *out);
	memset(&refusals, 0, sizeof refusals);
	memset(&quorum, 0, sizeof quorum);
	error_clear(err);
	/* Before the write lock: a group lookup may be slow (SPEC 10, v3). */
	if (!operator_may_decide(op, why, sizeof why)) {
		refuse(&refusals, "forbidden", "%s", why);
		refused(out, &refusals);
		return 0;
	}
	/* A decision's writes are one batch, ended by its commit. */
	status = in_transaction ? store_savepoint(store, err) :
	    store_begin_batch(store, err);
	if (status != 0)
		return status;
	if (now_ms == DECISION_NOW)
		now_ms = timestamp_now();	/* the lock is ours: now is now */

	status = recheck_for_decision(store, req->action_id, now_ms,
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
	/* Approve or reject, never a packet other than the one shown. */
	if (req->expect_sha256 != NULL && (rc.data.packet_sha256[0] == '\0' ||
	    strcasecmp(req->expect_sha256, rc.data.packet_sha256) != 0)) {
		refuse(&refusals, "changed", "the packet of action %s changed "
		    "since it was shown (its SHA-256 is now %.64s)",
		    req->action_id, rc.data.packet_sha256[0] != '\0' ?
		    rc.data.packet_sha256 : "unknown");
		goto done;
	}
	/* A judgment decides nothing: no quorum, no gate of SPEC 5. */
	if (req->decision == DECISION_JUDGE) {
		status = judge_refusals(req, &rc, &refusals, err);
		if (status == 0 && refusals.count == 0)
			status = record_judgment(store, req, op, &rc, now_ms,
			    out, err);
		goto done;
	}
	/*
	 * The quorum and the approvals so far, read under the write lock
	 * that records this one: two officers at once count each other.
	 */
	if ((status = quorum_view_load(store, req->action_id, &rc, &quorum,
	    err)) != 0)
		goto done;
	if (req->decision == DECISION_APPROVE) {
		approve_refusals(req, op, &rc, now_ms, &refusals);
		/* SPEC 14: one approval per officer, names as in 2.4. */
		more = quorum.needed - (int)quorum.count;
		if ((mine = quorum_view_by(&quorum, op->login)) != NULL)
			refuse(&refusals, "duplicate_approver", "%s already "
			    "approved this action at %s; %d more approval(s) "
			    "by other officers are needed", op->login,
			    mine->approved_at, more > 1 ? more : 1);
	} else
		reject_refusals(req, &rc, &refusals);
	if (refusals.count == 0 && req->decision == DECISION_APPROVE &&
	    (int)quorum.count + 1 < quorum.needed)
		status = record_approval(store, req, op, &rc, now_ms, &quorum,
		    out, err);
	else if (refusals.count == 0)
		status = record(store, req, op, &rc, now_ms, &quorum, out,
		    err);
done:
	quorum_view_free(&quorum);
	if (checked)
		recheck_free(&rc);
	if (status == 0 && refusals.count == 0) {
		status = in_transaction ? store_release(store, err) :
		    store_commit(store, err);
		if (status == 0) {
			out->recorded = true;
			if (!in_transaction)
				out->head_unsunk = announce_head(store,
				    &out->head);
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
