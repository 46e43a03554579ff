/*
 * The status object, the event notifications and id resolution of SPEC
 * 12, shared by the service's methods for programs and by the status,
 * wait and events commands in local mode.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "exit_codes.h"
#include "programs.h"
#include "sha256.h"
#include "store.h"
#include "utf8.h"

/* How many of an ambiguous prefix's matches a refusal lists. */
#define MATCHES_LISTED 10

void
program_error_free(struct program_error *perr)
{
	cJSON_Delete(perr->matches);
	perr->matches = NULL;
}

static int refuse(struct program_error *, const char *code, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static int
refuse(struct program_error *perr, const char *code, const char *fmt, ...)
{
	va_list ap;

	perr->code = code;
	va_start(ap, fmt);
	vsnprintf(perr->message, sizeof perr->message, fmt, ap);
	va_end(ap);
	return -1;
}

int
program_resolve(struct store *store, const char *given, char **full,
    struct program_error *perr)
{
	char *ids[MATCHES_LISTED + 1];
	struct error err;
	bool found;
	struct action_status st;
	int count = 0, i;

	*full = NULL;
	memset(perr, 0, sizeof *perr);
	error_clear(&err);
	/* An exact id names itself, even when it prefixes another. */
	if (store_action_status(store, given, &st, &found, &err) != 0)
		return refuse(perr, "storage", "%.400s", err.message);
	action_status_free(&st);
	if (found)
		return (*full = strdup(given)) != NULL ? 0 :
		    refuse(perr, "storage", "%s", "out of memory");
	if (*given == '\0')
		return refuse(perr, "unknown_action", "no action '%s'", given);
	if (store_action_matches(store, given, ids, MATCHES_LISTED, &count,
	    &err) != 0)
		return refuse(perr, "storage", "%.400s", err.message);
	if (count == 1) {
		*full = ids[0];
		return 0;
	}
	if (count == 0)
		return refuse(perr, "unknown_action", "no action '%.*s'",
		    (int)utf8_prefix(given, 200), given);
	perr->matches = cJSON_CreateArray();
	for (i = 0; i < count; i++) {
		if (i < MATCHES_LISTED)
			cJSON_AddItemToArray(perr->matches,
			    cJSON_CreateString(ids[i]));
		free(ids[i]);
	}
	return refuse(perr, "ambiguous_id", "the id prefix '%.*s' is "
	    "ambiguous", (int)utf8_prefix(given, 200), given);
}

/* A string member of a record, or NULL. */
static const char *
member_text(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void
add_text_or_null(cJSON *o, const char *name, const char *text)
{
	if (text != NULL)
		cJSON_AddStringToObject(o, name, text);
	else
		cJSON_AddNullToObject(o, name);
}

/*
 * The approvals so far under a quorum (SPEC 14), in order, and the
 * quorum the last of them counted (1 when there is none).
 */
static void
add_approvals(struct store *store, const char *action_id, cJSON *o)
{
	struct approval_row *rows = NULL;
	struct error err;
	cJSON *list = cJSON_AddArrayToObject(o, "approvals"), *a;
	size_t count = 0, i;

	error_clear(&err);
	if (store_approvals_of(store, action_id, &rows, &count, &err) != 0)
		count = 0;
	for (i = 0; i < count && list != NULL; i++) {
		a = cJSON_CreateObject();
		cJSON_AddStringToObject(a, "approval_id", rows[i].approval_id);
		cJSON_AddStringToObject(a, "operator", rows[i].operator_login);
		cJSON_AddStringToObject(a, "at", rows[i].approved_at);
		add_text_or_null(a, "reason", rows[i].reason);
		cJSON_AddNumberToObject(a, "seq", (double)rows[i].audit_seq);
		cJSON_AddItemToArray(list, a);
	}
	cJSON_AddNumberToObject(o, "approvals_needed", count > 0 ?
	    (double)rows[count - 1].needed : 1);
	store_approvals_free(rows, count);
}

int
program_status(struct store *store, const char *action_id, long long now_ms,
    cJSON **status, long long *expires_at_ms, struct program_error *perr)
{
	struct action_status st;
	struct error err;
	bool found;
	char digest[65];
	const char *state;
	cJSON *o, *d, *record;

	*status = NULL;
	*expires_at_ms = -1;
	memset(perr, 0, sizeof *perr);
	error_clear(&err);
	if (store_action_status(store, action_id, &st, &found, &err) != 0)
		return refuse(perr, "storage", "%.400s", err.message);
	if (!found)
		return refuse(perr, "unknown_action", "no action '%.*s'",
		    (int)utf8_prefix(action_id, 200), action_id);
	if (sha256_hex(st.raw_json, st.raw_length, digest) != 0) {
		action_status_free(&st);
		return refuse(perr, "storage", "%s", "cannot compute SHA-256");
	}
	state = st.status;
	if (strcmp(st.status, "pending") == 0 && st.has_expiry) {
		/* decide.c refuses from expires_at on: expired from then. */
		if (now_ms >= st.expires_at_ms)
			state = "expired";
		else
			*expires_at_ms = st.expires_at_ms;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "action_id", st.action_id);
	cJSON_AddStringToObject(o, "kind", st.kind);
	cJSON_AddStringToObject(o, "state", state);
	cJSON_AddStringToObject(o, "packet_sha256", digest);
	add_approvals(store, action_id, o);
	if (!st.decided)
		cJSON_AddNullToObject(o, "decision");
	else {
		record = cJSON_Parse(st.record_json);
		d = cJSON_AddObjectToObject(o, "decision");
		cJSON_AddStringToObject(d, "decision_id",
		    st.decision.decision_id);
		cJSON_AddStringToObject(d, "decision", st.decision.decision);
		cJSON_AddStringToObject(d, "operator",
		    st.decision.operator_login);
		cJSON_AddStringToObject(d, "decided_at",
		    st.decision.decided_at);
		add_text_or_null(d, "reason", member_text(record, "reason"));
		cJSON_AddNumberToObject(d, "seq",
		    (double)st.decision.audit_seq);
		cJSON_AddStringToObject(d, "hash", st.hash);
		cJSON_Delete(record);
	}
	action_status_free(&st);
	*status = o;
	return 0;
}

const char *
program_state(const cJSON *status)
{
	const char *state = member_text(status, "state");

	return state != NULL ? state : "pending";
}

cJSON *
program_event(long long seq, const char *hash, const char *record_json)
{
	cJSON *record = cJSON_Parse(record_json), *p = cJSON_CreateObject();
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(record, "operator");
	const char *at = member_text(record, "decided_at");

	if (p == NULL) {
		cJSON_Delete(record);
		return NULL;
	}
	/* (v3) A product owner's judgment (SPEC 2.3) has its own time. */
	if (at == NULL)
		at = member_text(record, "judged_at");
	if (at == NULL)
		at = member_text(record, "imported_at");
	if (at == NULL)
		at = member_text(record, "at");
	cJSON_AddNumberToObject(p, "seq", (double)seq);
	cJSON_AddStringToObject(p, "hash", hash);
	add_text_or_null(p, "event", member_text(record, "event"));
	add_text_or_null(p, "action_id", member_text(record, "action_id"));
	add_text_or_null(p, "kind", member_text(record, "kind"));
	add_text_or_null(p, "decision", member_text(record, "decision"));
	add_text_or_null(p, "decision_id", member_text(record,
	    "decision_id"));
	add_text_or_null(p, "operator", member_text(op, "login"));
	add_text_or_null(p, "at", at);
	cJSON_Delete(record);
	return p;
}
