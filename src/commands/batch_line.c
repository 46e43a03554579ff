/*
 * One line of countersign batch (SPEC 8): the request it makes, parsed
 * strictly; its decision, a prefix resolved first; and the JSON result
 * line that answers it.  How lines are run, one by one or --atomic, is
 * cmd_batch.c's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_line.h"
#include "commands.h"
#include "decision.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "json_strict.h"
#include "text.h"

/* SPEC 8; (v3) judge: the product owner's judgment (SPEC 2.3). */
static const char *const decisions[] = { "approve", "reject", "judge", NULL };
static const char *const known_keys[] = { "action_id", "decision", "reason",
    "acknowledge", "reassign_to", "escalate", "po_judgments", "blocked_on",
    "expect_sha256", NULL };
/* SPEC 5: what a rejection may wait for. */
static const char *const blocked_on_values[] = { "missing_standard", NULL };

static int
bad_request(struct batch_line *line, const struct error *err)
{
	line->code = "bad_request";
	if (err->field[0] != '\0')
		snprintf(line->message, sizeof line->message, "%s: %s",
		    err->field, err->message);
	else
		snprintf(line->message, sizeof line->message, "%s",
		    err->message);
	return -1;
}

/*
 * escalate (SPEC 8 v2): true or false, or {"expertise": text} naming who
 * is needed, which escalates.  Anything else is malformed.
 */
static int
parse_escalate(const cJSON *json, struct decision_request *req,
    struct error *err)
{
	const cJSON *escalate = json_member(json, "escalate"), *member;

	if (!cJSON_IsObject(escalate))
		return field_bool(json, "", "escalate", FIELD_OPTIONAL,
		    &req->escalate, NULL, err);
	cJSON_ArrayForEach(member, escalate) {
		if (strcmp(member->string, "expertise") != 0)
			return error_set(err, EXIT_DATA, "escalate",
			    "unknown field %.64s: an escalation is true or "
			    "{\"expertise\": text}", member->string);
	}
	if (field_string(escalate, "escalate", "expertise", FIELD_REQUIRED,
	    &req->escalate_expertise, err) != 0)
		return err->status;
	if (text_blank(req->escalate_expertise))
		return error_set(err, EXIT_DATA, "escalate.expertise",
		    "must name the expertise needed");
	req->escalate = true;
	return 0;
}

int
batch_line_parse(const char *text, size_t len, struct batch_line *line)
{
	const cJSON *member, *item, *acknowledge = NULL, *judgments = NULL;
	struct decision_request *req = &line->request;
	const char *decision = NULL;
	struct error err;
	size_t i;

	error_clear(&err);
	/* Only its first LINE_MAX_BYTES + 1 bytes were kept (batch_input). */
	if (len > LINE_MAX_BYTES) {
		error_set(&err, EXIT_DATA, NULL, "the line is over 1 MiB");
		return bad_request(line, &err);
	}
	/* One result per input line (SPEC 8): a blank one is malformed too. */
	if (text_json_blank(text, len)) {
		error_set(&err, EXIT_DATA, NULL, "a blank line is not a request");
		return bad_request(line, &err);
	}
	line->json = json_parse_strict(text, len, NULL, &err);
	if (line->json == NULL)
		return bad_request(line, &err);
	if (!cJSON_IsObject(line->json)) {
		error_set(&err, EXIT_DATA, NULL, "a request must be an object");
		return bad_request(line, &err);
	}
	member = json_member(line->json, "action_id");
	if (cJSON_IsString(member))
		line->action_id = member->valuestring;
	cJSON_ArrayForEach(member, line->json) {
		for (i = 0; known_keys[i] != NULL; i++) {
			if (strcmp(member->string, known_keys[i]) == 0)
				break;
		}
		if (known_keys[i] == NULL) {
			error_set(&err, EXIT_DATA, member->string,
			    "unknown field");
			return bad_request(line, &err);
		}
	}
	if (field_id(line->json, "", "action_id", FIELD_REQUIRED,
	    &req->action_id, &err) != 0 ||
	    field_choice(line->json, "", "decision", FIELD_REQUIRED, decisions,
	    &decision, &err) != 0 ||
	    field_string(line->json, "", "reason", FIELD_OPTIONAL, &req->reason,
	    &err) != 0 ||
	    field_array(line->json, "", "acknowledge", FIELD_OPTIONAL,
	    &acknowledge, &err) != 0 ||
	    field_id(line->json, "", "reassign_to", FIELD_OPTIONAL,
	    &req->reassign_to, &err) != 0 ||
	    parse_escalate(line->json, req, &err) != 0 ||
	    field_object(line->json, "", "po_judgments", FIELD_OPTIONAL,
	    &judgments, &err) != 0 ||
	    field_choice(line->json, "", "blocked_on", FIELD_OPTIONAL,
	    blocked_on_values, &req->blocked_on, &err) != 0 ||
	    field_string(line->json, "", "expect_sha256", FIELD_OPTIONAL,
	    &req->expect_sha256, &err) != 0)
		return bad_request(line, &err);
	if (req->expect_sha256 != NULL && !text_is_sha256(req->expect_sha256)) {
		error_set(&err, EXIT_DATA, "expect_sha256", "must be 64 "
		    "hexadecimal digits (packet_sha256 of list --json or check)");
		return bad_request(line, &err);
	}
	req->decision = strcmp(decision, "approve") == 0 ? DECISION_APPROVE :
	    strcmp(decision, "judge") == 0 ? DECISION_JUDGE : DECISION_REJECT;
	cJSON_ArrayForEach(item, acknowledge) {
		if (cJSON_IsString(item) &&
		    strcmp(item->valuestring, "high_stakes") == 0)
			req->ack_high_stakes = true;
		else if (cJSON_IsString(item) &&
		    strcmp(item->valuestring, "divergence") == 0)
			req->ack_divergence = true;
		else {
			error_set(&err, EXIT_DATA, "acknowledge", "must hold only "
			    "\"high_stakes\" and \"divergence\"");
			return bad_request(line, &err);
		}
	}
	cJSON_ArrayForEach(item, judgments) {
		if (!cJSON_IsString(item) || (strcmp(item->valuestring, "met") !=
		    0 && strcmp(item->valuestring, "unmet") != 0)) {
			error_set(&err, EXIT_DATA, "po_judgments", "%s must be "
			    "\"met\" or \"unmet\"", item->string);
			/* The field is the criterion's: po_judgments.AC-3. */
			snprintf(err.field, sizeof err.field, "po_judgments.%s",
			    item->string);
			return bad_request(line, &err);
		}
	}
	req->po_judgments = judgments;
	/* A judgment decides nothing: nothing to acknowledge or route. */
	if (req->decision == DECISION_JUDGE && (acknowledge != NULL ||
	    req->reassign_to != NULL || req->escalate ||
	    req->blocked_on != NULL)) {
		error_set(&err, EXIT_DATA, acknowledge != NULL ? "acknowledge" :
		    req->blocked_on != NULL ? "blocked_on" :
		    req->escalate ? "escalate" : "reassign_to",
		    "does not belong to a judgment");
		return bad_request(line, &err);
	}
	if (req->decision == DECISION_APPROVE &&
	    (req->reassign_to != NULL || req->escalate)) {
		error_set(&err, EXIT_DATA, NULL, "reassign_to and escalate "
		    "belong to a rejection");
		return bad_request(line, &err);
	}
	if (req->reassign_to != NULL && req->escalate) {
		error_set(&err, EXIT_DATA, NULL, "a rejection either reassigns "
		    "or escalates, not both");
		return bad_request(line, &err);
	}
	/* A held change goes back to nobody: it waits for a standard. */
	if (req->blocked_on != NULL && (req->decision == DECISION_APPROVE ||
	    req->reassign_to != NULL || req->escalate)) {
		error_set(&err, EXIT_DATA, "blocked_on", "belongs to a "
		    "rejection with no other routing");
		return bad_request(line, &err);
	}
	return 0;
}

static void
add_partial(cJSON *result, const struct decision_outcome *outcome)
{
	cJSON *quorum;

	cJSON_AddStringToObject(result, "approval_id", outcome->approval_id);
	if ((quorum = cJSON_AddObjectToObject(result, "quorum")) == NULL)
		return;
	cJSON_AddNumberToObject(quorum, "needed", outcome->quorum_needed);
	cJSON_AddNumberToObject(quorum, "have", outcome->quorum_have);
}

static const char *
recorded_status(const struct decision_outcome *outcome)
{
	return outcome->partial ? "partial" : outcome->judged ? "judged" :
	    "recorded";
}

void
batch_line_print(FILE *out, const struct batch_line *line, bool recorded)
{
	cJSON *result = cJSON_CreateObject();
	char *text;

	if (result == NULL)
		return;
	cJSON_AddNumberToObject(result, "line", (double)line->number);
	if (line->action_id != NULL)
		cJSON_AddStringToObject(result, "action_id", line->action_id);
	else
		cJSON_AddNullToObject(result, "action_id");
	cJSON_AddStringToObject(result, "status", !recorded ? "refused" :
	    recorded_status(&line->outcome));
	if (recorded && !line->outcome.partial && !line->outcome.judged)
		cJSON_AddStringToObject(result, "decision_id",
		    line->outcome.decision_id);
	else
		cJSON_AddNullToObject(result, "decision_id");
	/* SPEC 14: an approval short of its quorum, and how far it is. */
	if (recorded && line->outcome.partial)
		add_partial(result, &line->outcome);
	/* SPEC 2.3 (v3): a judgment, which decides nothing. */
	if (recorded && line->outcome.judged)
		cJSON_AddStringToObject(result, "judgment_id",
		    line->outcome.judgment_id);
	if (recorded) {
		cJSON_AddNullToObject(result, "code");
		cJSON_AddNullToObject(result, "message");
	} else {
		cJSON_AddStringToObject(result, "code", line->code);
		cJSON_AddStringToObject(result, "message", line->message);
	}
	text = json_print(result);
	if (text != NULL && out != NULL)
		fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(result);
}

int
batch_line_decide(struct store *store, const struct operator_identity *op,
    bool atomic, struct batch_line *line, struct error *err)
{
	int rc;

	/*
	 * A unique prefix names its action (SPEC 7), and the result names
	 * the whole id decided; an ambiguous one decides nothing.
	 */
	rc = store_prefetch_decision(store, line->request.action_id, err);
	if (rc == 0)
		rc = store_resolve_action_id(store, line->request.action_id,
		    &line->resolved_id, err);
	if (rc == EXIT_USAGE) {
		bad_request(line, err);
		error_clear(err);
		return 0;
	}
	if (rc == 0) {
		line->request.action_id = line->resolved_id;
		line->action_id = line->resolved_id;
		rc = decision_record(store, &line->request, op, DECISION_NOW,
		    atomic, &line->outcome, err);
	}
	if (rc != 0) {
		line->code = "storage_error";
		snprintf(line->message, sizeof line->message, "%s",
		    err->message);
		return rc;
	}
	if (!line->outcome.recorded) {
		line->code = line->outcome.code;
		snprintf(line->message, sizeof line->message, "%s",
		    line->outcome.message);
	}
	return 0;
}

void
batch_line_free(struct batch_line *line)
{
	cJSON_Delete(line->json);
	free(line->resolved_id);
	memset(line, 0, sizeof *line);
}

int
batch_parse_request(const char *text, size_t len, char *message, size_t size)
{
	struct batch_line line;
	int rc;

	memset(&line, 0, sizeof line);
	rc = batch_line_parse(text, len, &line);
	if (rc != 0 && message != NULL)
		snprintf(message, size, "%s", line.message);
	batch_line_free(&line);
	return rc;
}
