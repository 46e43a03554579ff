/* One row of the queue: what an officer scans before opening an action. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_fields.h"
#include "lockout.h"
#include "json_strict.h"
#include "sanitize.h"
#include "sha256.h"
#include "text.h"
#include "timestamp.h"

/* A rule or overall result reads pass/FAIL; requires_human_approval yes/no. */
static const char *
shown(const char *what, const cJSON *value)
{
	bool verdict = strcmp(what, "requires_human_approval") != 0;

	if (cJSON_IsBool(value) && verdict)
		return cJSON_IsTrue(value) ? _("pass") : _("FAIL");
	/* L10N: whether a verdict requires human approval, in a note such
	   as "requires_human_approval: advisory no, local yes" */
	if (cJSON_IsBool(value))
		return cJSON_IsTrue(value) ? _("yes") : _("no");
	/* L10N: what the advisory verdict says about a rule it does not
	   have ("lacks it") or a value it has otherwise ("differs"), in a
	   note such as "allocation_band_direction: advisory lacks it, local
	   FAIL" */
	return value == NULL || cJSON_IsNull(value) ? _("lacks it") :
	    _("differs");
}

/* The advisory's own detail for a rule, which the officer must see escaped. */
static const char *
advisory_detail(const struct advisory *advisory, const char *rule_id)
{
	const cJSON *result, *id, *detail;

	cJSON_ArrayForEach(result, json_member(advisory->verdict,
	    "rule_results")) {
		id = json_member(result, "rule_id");
		detail = json_member(result, "detail");
		if (cJSON_IsString(id) && strcmp(id->valuestring, rule_id) == 0)
			return cJSON_IsString(detail) ? detail->valuestring :
			    NULL;
	}
	return NULL;
}

/* What the advisory said of a divergence's rule, or NULL. */
static const char *
divergence_said(const struct check_outcome *outcome, const cJSON *entry)
{
	if (outcome->advisory.state != ADVISORY_AVAILABLE)
		return NULL;
	return advisory_detail(&outcome->advisory,
	    json_member(entry, "what")->valuestring);
}

/*
 * "excluded_sector: advisory pass, local FAIL; advisory said: ...", of
 * a divergence entry (check.c) and what the advisory said (or NULL).
 */
static char *
divergence_note(const cJSON *entry, const char *said)
{
	const char *what = json_member(entry, "what")->valuestring;
	const cJSON *advisory = json_member(entry, "advisory");
	const cJSON *local = json_member(entry, "local");
	char *line, *safe;

	if (cJSON_IsBool(advisory) || cJSON_IsBool(local) ||
	    cJSON_IsNull(advisory))
		/* L10N: a divergence under its row in "countersign list":
		   %1$s a rule id (or overall_pass, requires_human_approval),
		   %2$s the advisory's result, %3$s the local one (pass, FAIL,
		   yes, no, lacks it), then "; advisory said: ..." or nothing */
		line = text_printf(_("%s: advisory %s, local %s%s%s"), what,
		    shown(what, advisory), shown(what, local), said ?
		    _("; advisory said: ") : "", said ? said : "");
	else
		/* The note is one of the program's own sentences (check.c). */
		line = text_printf("%s: %s", what,
		    _(json_member(entry, "note")->valuestring));
	if (line == NULL)
		return NULL;
	safe = sanitize_str(line);
	free(line);
	return safe;
}

int
queue_row_from_recheck(const struct recheck *r, const char *action_id,
    struct queue_row *row, long long now_ms, struct error *err)
{
	const struct rule_pack *pack = r->outcome.pack;
	const cJSON *action = r->data.input.action;
	const struct rule_result *lockout;
	const cJSON *entry;
	const char *who;
	char summary[512];
	size_t i = 0;

	memset(row, 0, sizeof *row);
	snprintf(row->action_id, sizeof row->action_id, "%s", action_id);
	snprintf(row->kind, sizeof row->kind, "%s", pack->kind);
	snprintf(row->status, sizeof row->status, "%s", r->data.status);
	who = pack->who(action);
	if (who == NULL && cJSON_IsString(json_member(action, "author")))
		who = json_member(action, "author")->valuestring;
	pack->summarize(action, summary, sizeof summary);
	row->who = sanitize_str(who ? who : "");
	row->requester = sanitize_str(cJSON_GetStringValue(
	    json_member(action, "requested_by")));
	row->author = sanitize_str(cJSON_GetStringValue(
	    json_member(action, "author")));
	row->has_drafted = cJSON_IsString(json_member(action, "drafted_at")) &&
	    timestamp_parse(json_member(action, "drafted_at")->valuestring,
	    &row->drafted_at_ms);
	row->summary = sanitize_str(summary);
	row->high_stakes = r->outcome.verdict.requires_human_approval;
	row->local_fail = !r->outcome.verdict.overall_pass;
	row->divergence_count = (size_t)cJSON_GetArraySize(
	    r->outcome.divergence);
	row->divergent = row->divergence_count > 0;
	lockout = verdict_rule(&r->outcome.verdict, "author_lockout");
	row->locked_out = lockout != NULL && !lockout->passed;
	/*
	 * SPEC 2.4: the queue shows a chain every roster author is out of,
	 * as it stands: a rejected action's own author is out of it too
	 * (list --all shows the rejected tip of a deadlocked chain).
	 */
	row->deadlocked = lockout_deadlocked(&r->data.input,
	    strcmp(r->data.status, "rejected") == 0);
	row->has_expiry = r->data.has_expiry;
	row->expires_at_ms = r->data.expires_at_ms;
	/* As the gate counts it (decide.c): the same millisecond has passed. */
	row->expired = r->data.has_expiry && now_ms >= r->data.expires_at_ms;
	/* An expired action was not rejected, but it is no longer pending. */
	if (row->expired && strcmp(row->status, "pending") == 0)
		snprintf(row->status, sizeof row->status, "expired");
	/* L10N: the advisory's overall verdict in the 4-column ADV cell of
	   the queue: "n/a" when there is no readable advisory */
	row->advisory = r->outcome.advisory.state != ADVISORY_AVAILABLE ?
	    N_("n/a") : r->outcome.advisory.overall_pass ? N_("pass") :
	    N_("fail");
	row->imported_at_ms = r->data.imported_at_ms;
	row->notes = calloc(row->divergence_count + 1, sizeof *row->notes);
	if (row->notes != NULL) {
		cJSON_ArrayForEach(entry, r->outcome.divergence)
			row->notes[i++] = divergence_note(entry,
			    divergence_said(&r->outcome, entry));
	}
	if (row->who == NULL || row->summary == NULL || row->notes == NULL ||
	    row->requester == NULL || row->author == NULL) {
		queue_row_free(row);
		return error_set(err, 4, NULL, _("out of memory"));
	}
	return 0;
}

cJSON *
queue_reasons_json(const struct verdict *v)
{
	cJSON *reasons = cJSON_CreateArray(), *reason;
	size_t i;

	for (i = 0; reasons != NULL && i < v->reason_count; i++) {
		if ((reason = cJSON_CreateObject()) == NULL ||
		    cJSON_AddStringToObject(reason, "code",
		    v->high_stakes_reasons[i].code) == NULL ||
		    cJSON_AddStringToObject(reason, "detail",
		    v->high_stakes_reasons[i].detail) == NULL) {
			cJSON_Delete(reason);
			cJSON_Delete(reasons);
			return NULL;
		}
		cJSON_AddItemToArray(reasons, reason);
	}
	return reasons;
}

/*
 * The divergences as list keeps them: each entry as check.c made it,
 * untranslated (the note is made in the reader's language when read),
 * with what the advisory said of the rule as "said".
 */
static cJSON *
divergences_kept(const struct check_outcome *outcome)
{
	cJSON *kept = cJSON_CreateArray(), *copy;
	const cJSON *entry;
	const char *said;

	cJSON_ArrayForEach(entry, outcome->divergence) {
		if (kept == NULL)
			break;
		said = divergence_said(outcome, entry);
		if ((copy = cJSON_Duplicate(entry, 1)) == NULL ||
		    !cJSON_AddItemToArray(kept, copy) || (said != NULL &&
		    cJSON_AddStringToObject(copy, "said", said) == NULL)) {
			cJSON_Delete(kept);
			kept = NULL;
		}
	}
	return kept;
}

int
queue_row_listed(const struct recheck *r, const char *packet_sha256,
    struct queue_row *row, struct error *err)
{
	cJSON *listed = cJSON_CreateObject(), *reasons, *kept;
	const char *sha = packet_sha256 != NULL ? packet_sha256 :
	    r->data.packet_sha256;

	free(row->listed);
	row->listed = NULL;
	reasons = queue_reasons_json(&r->outcome.verdict);
	kept = divergences_kept(&r->outcome);
	if (listed != NULL && reasons != NULL && kept != NULL &&
	    (sha[0] != '\0' ? cJSON_AddStringToObject(listed,
	    "packet_sha256", sha) != NULL : cJSON_AddNullToObject(listed,
	    "packet_sha256") != NULL) &&
	    cJSON_AddItemToObject(listed, "high_stakes_reasons", reasons)) {
		reasons = NULL;
		if (cJSON_AddItemToObject(listed, "divergence", kept)) {
			kept = NULL;
			row->listed = json_print(listed);
		}
	}
	cJSON_Delete(listed);
	cJSON_Delete(reasons);
	cJSON_Delete(kept);
	return row->listed != NULL ? 0 : error_set(err, EXIT_STORAGE, NULL,
	    _("out of memory"));
}

int
queue_row_notes_listed(struct queue_row *row, const cJSON *kept,
    struct error *err)
{
	const cJSON *entry;
	size_t i = 0;

	row->divergence_count = (size_t)cJSON_GetArraySize(kept);
	if ((row->notes = calloc(row->divergence_count + 1,
	    sizeof *row->notes)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	cJSON_ArrayForEach(entry, kept)
		row->notes[i++] = divergence_note(entry, cJSON_GetStringValue(
		    json_member(entry, "said")));
	return 0;
}

int
queue_row_build(struct store *store, const char *action_id, long long now_ms,
    struct queue_row *row, struct error *err)
{
	struct recheck r;
	int rc;

	memset(row, 0, sizeof *row);
	if ((rc = recheck_action(store, action_id, now_ms, NULL, &r, err)) != 0)
		return rc;
	rc = queue_row_from_recheck(&r, action_id, row, now_ms, err);
	recheck_free(&r);
	return rc;
}

int
queue_escalated(struct store *store, long long now_ms, struct queue_row *rows,
    size_t max, size_t *count, struct error *err)
{
	char **ids = NULL;
	size_t found = 0, i;
	int rc;

	*count = 0;
	if ((rc = store_escalated_candidates(store, max, &ids, &found,
	    err)) != 0)
		goto done;
	for (i = 0; i < found && *count < max; i++) {
		if ((rc = queue_row_build(store, ids[i], now_ms, &rows[*count],
		    err)) != 0)
			break;
		/* Escalated by choice, with an author still free: not held. */
		if (!rows[*count].deadlocked) {
			queue_row_free(&rows[*count]);
			continue;
		}
		(*count)++;
	}
done:
	for (i = 0; ids != NULL && ids[i] != NULL; i++)
		free(ids[i]);
	free(ids);
	return rc;
}

int
queue_index_stored(struct store *store, const struct loaded_object *o,
    const char *raw, size_t raw_len, long long imported_at_ms,
    long long now_ms, long long epoch, struct error *err)
{
	struct queue_row row;
	struct recheck r;
	char sha[65];
	int rc;

	memset(&r, 0, sizeof r);
	if ((rc = store_load_check_stored(store, o, imported_at_ms, now_ms,
	    &r.data, err)) != 0)
		return rc;
	if ((rc = check_run(&r.data.input, &r.outcome, err)) != 0) {
		check_data_free(&r.data);
		return rc;
	}
	/* The digest load_action() takes of the row's text (SPEC 5 changed). */
	if (sha256_hex(raw, raw_len, sha) != 0)
		sha[0] = '\0';
	if ((rc = queue_row_from_recheck(&r, o->id, &row, now_ms, err)) == 0)
		rc = queue_row_listed(&r, sha, &row, err);
	recheck_free(&r);
	if (rc != 0) {
		queue_row_free(&row);
		return rc;
	}
	rc = store_queue_put(store, &row, epoch, err);
	queue_row_free(&row);
	return rc;
}

void
queue_row_free(struct queue_row *row)
{
	size_t i;

	for (i = 0; row->notes != NULL && i < row->divergence_count; i++)
		free(row->notes[i]);
	free(row->notes);
	free(row->who);
	free(row->summary);
	free(row->requester);
	free(row->author);
	free(row->listed);
	row->who = row->summary = row->requester = row->author = NULL;
	row->listed = NULL;
	row->notes = NULL;
}

struct refresh {
	struct store *store;
	long long now_ms;
	long long epoch;
	long count;
	struct error *err;
};

static int
refresh_one(void *ctx, const char *action_id)
{
	struct refresh *r = ctx;
	struct queue_row row;
	struct recheck check;
	int rc;

	memset(&row, 0, sizeof row);
	if ((rc = recheck_action(r->store, action_id, r->now_ms, NULL, &check,
	    r->err)) != 0)
		return rc;
	if ((rc = queue_row_from_recheck(&check, action_id, &row, r->now_ms,
	    r->err)) == 0 && (rc = queue_row_listed(&check, NULL, &row,
	    r->err)) == 0)
		rc = store_queue_put(r->store, &row, r->epoch, r->err);
	recheck_free(&check);
	queue_row_free(&row);
	r->count++;
	return rc;
}

int
queue_refresh(struct store *store, long long now_ms, long *refreshed,
    struct error *err)
{
	struct refresh r = { store, now_ms, 0, 0, err };
	int rc;

	/* Each stale row written again: one batch of writes. */
	if ((rc = store_begin_batch(store, err)) != 0)
		return rc;
	/* Inside the write transaction the policy cannot change under us. */
	store_cache_policy(store, true);
	if ((rc = store_policy_epoch(store, &r.epoch, err)) == 0)
		rc = store_queue_each_stale(store, now_ms, refresh_one, &r,
		    err);
	store_cache_policy(store, false);
	if (rc == 0)
		rc = store_commit(store, err);
	else
		store_rollback(store);
	if (refreshed != NULL)
		*refreshed = r.count;
	return rc;
}
