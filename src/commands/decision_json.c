/*
 * The audit records the one decision path appends (SPEC 6, 14 and 2.3):
 * a decision's, an approval's short of its quorum, and a product owner's
 * judgment.  decide.c decides whether one may be recorded; this file only
 * says what the record holds, written directly with the JSON writer.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision_json.h"
#include "exit_codes.h"
#include "json_extract.h"
#include "json_fields.h"
#include "json_strict.h"
#include "json_writer.h"
#include "lockout.h"
#include "quorum.h"
#include "text.h"

static void
write_routing(struct json_writer *w, const struct decision_request *req)
{
	if (req->decision != DECISION_REJECT ||
	    (req->reassign_to == NULL && !req->escalate &&
	    req->blocked_on == NULL)) {
		json_writer_null(w);
		return;
	}
	json_writer_object(w);
	if (req->blocked_on != NULL) {
		json_writer_key(w, "blocked_on");
		json_writer_string(w, req->blocked_on);
	} else if (req->reassign_to != NULL) {
		json_writer_key(w, "reassign_to");
		json_writer_string(w, req->reassign_to);
	} else {
		json_writer_key(w, "escalate");
		if (req->escalate_expertise != NULL) {
			json_writer_object(w);
			json_writer_key(w, "expertise");
			json_writer_string(w, req->escalate_expertise);
			json_writer_end(w, '}');
		} else
			json_writer_bool(w, true);
	}
	json_writer_end(w, '}');
}

/* Who decided or judged: "operator": {"login", "uid"} (SPEC 6). */
static void
write_operator(struct json_writer *w, const struct operator_identity *op)
{
	json_writer_key(w, "operator");
	json_writer_object(w);
	json_writer_key(w, "login");
	json_writer_string(w, op->login);
	json_writer_key(w, "uid");
	json_writer_integer(w, (long long)op->uid);
	json_writer_end(w, '}');
}

/* "program": {"name", "version"}, the build that wrote the record. */
static void
write_program(struct json_writer *w)
{
	json_writer_key(w, "program");
	json_writer_object(w);
	json_writer_key(w, "name");
	json_writer_string(w, "countersign");
	json_writer_key(w, "version");
	json_writer_string(w, PACKAGE_VERSION);
	json_writer_end(w, '}');
}

/* What a replay needs to find the same inputs again (audit replay). */
static void
write_rule_inputs(struct json_writer *w, const struct check_data *d)
{
	const struct check_input *in = &d->input;

	json_writer_object(w);
	json_writer_key(w, "ips");
	if (in->ips != NULL) {
		json_writer_object(w);
		json_writer_key(w, "ips_id");
		json_writer_tree(w, json_member(in->ips, "ips_id"));
		json_writer_key(w, "version");
		json_writer_tree(w, json_member(in->ips, "version"));
		json_writer_end(w, '}');
	} else
		json_writer_null(w);
	json_writer_key(w, "holdings_snapshot_id");
	json_writer_tree(w, json_member(in->holdings, "snapshot_id"));
	/*
	 * Their digests too (issue 35): audit verify holds each to the one
	 * the import before the decision recorded.
	 */
	json_writer_key(w, "ips_sha256");
	json_writer_string(w, in->ips != NULL && d->ips_sha256[0] != '\0' ?
	    d->ips_sha256 : NULL);
	json_writer_key(w, "holdings_sha256");
	json_writer_string(w, in->holdings != NULL &&
	    d->holdings_sha256[0] != '\0' ? d->holdings_sha256 : NULL);
	json_writer_key(w, "securities");
	json_writer_tree(w, in->securities);
	/*
	 * Named, not copied (SPEC v2 6): a 64 MiB roster was once written
	 * into every record.  store_policy_objects_keep() stores them.
	 */
	json_writer_key(w, "standards_index_sha256");
	json_writer_string(w, d->standards_sha256[0] != '\0' ?
	    d->standards_sha256 : NULL);
	json_writer_key(w, "roster_sha256");
	json_writer_string(w, d->roster_sha256[0] != '\0' ?
	    d->roster_sha256 : NULL);
	json_writer_key(w, "revision_chain");
	json_writer_tree(w, in->revision_chain);
	json_writer_end(w, '}');
}

/*
 * The reviewer's verdict exactly as received (SPEC 6): its bytes in the
 * stored packet text, since the tree holds its numbers as doubles.  NULL
 * for a missing or null one.  The text passed the strict parse at import,
 * so the scan cannot go astray on it; its first byte is still held to the
 * tree's type, which costs nothing (a parse to compare cost a twentieth of
 * a batch decision).
 */
int
advisory_text(const struct check_data *d, const char *action_id,
    const char **text, size_t *length, struct error *err)
{
	const cJSON *tree = json_member(d->packet, "reviewer_verdict");
	size_t start;
	bool same;
	char first;

	*text = NULL;
	*length = 0;
	if (tree == NULL || cJSON_IsNull(tree))
		return 0;
	if (d->packet_text == NULL || !json_member_text(d->packet_text,
	    d->packet_length, "reviewer_verdict", &start, length))
		same = false;
	else {
		first = d->packet_text[start];
		same = cJSON_IsObject(tree) ? first == '{' :
		    cJSON_IsArray(tree) ? first == '[' :
		    cJSON_IsString(tree) ? first == '"' :
		    cJSON_IsTrue(tree) ? first == 't' :
		    cJSON_IsFalse(tree) ? first == 'f' :
		    cJSON_IsNumber(tree) && (first == '-' ||
		    (first >= '0' && first <= '9'));
	}
	if (!same)
		return error_set(err, EXIT_STORAGE, NULL, "action %s: the "
		    "advisory verdict cannot be copied from the stored packet",
		    action_id);
	*text = d->packet_text + start;
	return 0;
}

static void
write_quorum(struct json_writer *w, const struct quorum_record *q)
{
	size_t i;

	if (q->approval_id == NULL && q->view->needed <= 1 &&
	    q->view->count == 0)
		return;
	if (q->approval_id == NULL) {
		json_writer_key(w, "approvals");
		json_writer_array(w);
		for (i = 0; i < q->view->count; i++)
			json_writer_string(w, q->view->approvals[i].approval_id);
		json_writer_end(w, ']');
	}
	json_writer_key(w, "quorum");
	json_writer_object(w);
	json_writer_key(w, "needed");
	json_writer_integer(w, q->view->needed);
	json_writer_key(w, "have");
	json_writer_integer(w, q->have);
	json_writer_end(w, '}');
}

/*
 * The audit record (SPEC 6), written directly: it is the largest thing a
 * decision produces, and a tree of copies only to print it cost more than
 * the re-check.  An approval short of its quorum has the same fields but
 * decision_id, and its own approval_id (SPEC 14).
 */
char *
decision_record_json(const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    const char *decision_id, const struct quorum_record *q,
    const char *decided_at, const char *advisory, size_t advisory_length)
{
	const struct check_outcome *out = &rc->outcome;
	struct json_writer w;
	cJSON *locked_out;
	bool locks_out;
	char digest[65];

	json_writer_init(&w);
	json_writer_object(&w);
	json_writer_key(&w, "event");
	json_writer_string(&w, q->approval_id != NULL ? "approval" :
	    "decision");
	/* The canonical form its digests are in (issue 27). */
	json_writer_key(&w, "format");
	json_writer_integer(&w, JSON_FORMAT_CURRENT);
	if (q->approval_id != NULL) {
		json_writer_key(&w, "approval_id");
		json_writer_string(&w, q->approval_id);
	} else {
		json_writer_key(&w, "decision_id");
		json_writer_string(&w, decision_id);
	}
	json_writer_key(&w, "action_id");
	json_writer_string(&w, req->action_id);
	json_writer_key(&w, "kind");
	json_writer_string(&w, out->pack->kind);
	json_writer_key(&w, "decision");
	json_writer_string(&w, req->decision == DECISION_APPROVE ? "approve" :
	    "reject");
	json_writer_key(&w, "reason");
	json_writer_string(&w, text_blank(req->reason) ? NULL : req->reason);
	write_operator(&w, op);
	json_writer_key(&w, "decided_at");
	json_writer_string(&w, decided_at);
	/* Exactly as received: the packet's own value, or null. */
	json_writer_key(&w, "advisory_verdict");
	if (advisory != NULL)
		json_writer_verbatim(&w, advisory, advisory_length);
	else
		json_writer_null(&w);
	json_writer_key(&w, "local_verdict");
	verdict_write(&w, &out->verdict);
	json_writer_key(&w, "divergence");
	json_writer_tree(&w, out->divergence);
	json_writer_key(&w, "acknowledged");
	json_writer_array(&w);
	if (req->ack_high_stakes)
		json_writer_string(&w, "high_stakes");
	if (req->ack_divergence)
		json_writer_string(&w, "divergence");
	json_writer_end(&w, ']');
	json_writer_key(&w, "requires_human_approval");
	json_writer_bool(&w, out->verdict.requires_human_approval);
	json_writer_key(&w, "high_stakes_reasons");
	verdict_write_reasons(&w, &out->verdict);
	/* (v3) What the officer judged by (SPEC 3 notes, SPEC 6). */
	json_writer_key(&w, "notes");
	verdict_write_notes(&w, &out->verdict);
	json_writer_key(&w, "routing");
	write_routing(&w, req);
	/*
	 * Who may write the next version, as this decision leaves it: a
	 * rejection locks its people out, unless it holds the change for a
	 * standard (SPEC 2.4).
	 */
	locks_out = req->decision == DECISION_REJECT && req->blocked_on == NULL;
	json_writer_key(&w, "lockout");
	json_writer_object(&w);
	json_writer_key(&w, "locked_out");
	locked_out = lockout_authors(&rc->data.input, locks_out);
	if (locked_out == NULL)
		w.failed = true;
	json_writer_tree(&w, locked_out);
	cJSON_Delete(locked_out);
	json_writer_key(&w, "deadlocked");
	json_writer_bool(&w, lockout_deadlocked(&rc->data.input, locks_out));
	json_writer_end(&w, '}');
	/* The judgments rule 7 counted: recorded ones, then the line's. */
	json_writer_key(&w, "po_judgments");
	json_writer_tree(&w, rc->data.input.po_judgments);
	json_writer_key(&w, "approved_artifact_sha256");
	if (req->decision == DECISION_APPROVE &&
	    out->pack->approved_artifact != NULL &&
	    out->pack->approved_artifact(&rc->data.input, &out->advisory,
	    digest))
		json_writer_string(&w, digest);
	else
		json_writer_null(&w);
	/* The commit reviewed is the commit approved (SPEC 6). */
	json_writer_key(&w, "approved_commit");
	json_writer_string(&w, req->decision == DECISION_APPROVE &&
	    out->pack->approved_commit != NULL ?
	    out->pack->approved_commit(&rc->data.input) : NULL);
	json_writer_key(&w, "packet_sha256");
	json_writer_string(&w, rc->data.packet_sha256[0] != '\0' ?
	    rc->data.packet_sha256 : NULL);
	write_quorum(&w, q);
	/* One of several decided together: "bulk": {"id", "count"}. */
	if (req->bulk != NULL) {
		json_writer_key(&w, "bulk");
		json_writer_object(&w);
		json_writer_key(&w, "id");
		json_writer_string(&w, req->bulk->id);
		json_writer_key(&w, "count");
		json_writer_integer(&w, req->bulk->count);
		json_writer_end(&w, '}');
	}
	write_program(&w);
	json_writer_key(&w, "rule_inputs");
	write_rule_inputs(&w, &rc->data);
	if (check_inputs_sha256(&rc->data.input, digest) == 0) {
		json_writer_key(&w, "rule_inputs_sha256");
		json_writer_string(&w, digest);
	}
	json_writer_end(&w, '}');
	return json_writer_finish(&w);
}

char *
judgment_record_json(const struct decision_request *req,
    const struct operator_identity *op, const struct recheck *rc,
    const char *judgment_id, const char *judged_at)
{
	struct json_writer w;

	json_writer_init(&w);
	json_writer_object(&w);
	json_writer_key(&w, "event");
	json_writer_string(&w, "po_judgment");
	json_writer_key(&w, "format");
	json_writer_integer(&w, JSON_FORMAT_CURRENT);
	json_writer_key(&w, "judgment_id");
	json_writer_string(&w, judgment_id);
	json_writer_key(&w, "action_id");
	json_writer_string(&w, req->action_id);
	json_writer_key(&w, "kind");
	json_writer_string(&w, rc->outcome.pack->kind);
	write_operator(&w, op);
	json_writer_key(&w, "judged_at");
	json_writer_string(&w, judged_at);
	json_writer_key(&w, "reason");
	json_writer_string(&w, text_blank(req->reason) ? NULL : req->reason);
	json_writer_key(&w, "po_judgments");
	json_writer_tree(&w, req->po_judgments);
	json_writer_key(&w, "packet_sha256");
	json_writer_string(&w, rc->data.packet_sha256[0] != '\0' ?
	    rc->data.packet_sha256 : NULL);
	write_program(&w);
	json_writer_end(&w, '}');
	return json_writer_finish(&w);
}
