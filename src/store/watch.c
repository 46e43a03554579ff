/*
 * What programs that wait on the gate read (SPEC 12): an action's state
 * with its decision, the audit records after a cursor, and word of other
 * writers' commits, so that no client has to poll the database.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

/* PostgreSQL's channel: every transaction that appends a record says so. */
#define AUDIT_CHANNEL "countersign_audit"

static char *
column_copy(db_stmt *stmt, int column, size_t *length)
{
	const unsigned char *text = db_column_text(stmt, column);
	size_t n = (size_t)db_column_bytes(stmt, column);
	char *copy;

	if (text == NULL || (copy = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(copy, text, n);
	copy[n] = '\0';
	if (length != NULL)
		*length = n;
	return copy;
}

static void
column_into(db_stmt *stmt, int column, char *buf, size_t size)
{
	const unsigned char *text = db_column_text(stmt, column);

	snprintf(buf, size, "%s", text != NULL ? (const char *)text : "");
}

int
store_action_status(struct store *s, const char *action_id,
    struct action_status *st, bool *found, struct error *err)
{
	db_stmt *stmt = NULL;
	int rc;

	memset(st, 0, sizeof *st);
	*found = false;
	if (db_prepare(s->db, "SELECT a.kind, a.status, a.raw_json,"
	    " a.expires_at_ms, d.decision_id, d.decision, d.operator_login,"
	    " d.operator_uid, d.decided_at, d.audit_seq, l.hash, l.record_json"
	    " FROM action a LEFT JOIN decision d ON d.action_id = a.action_id"
	    " LEFT JOIN audit_log l ON l.seq = d.audit_seq"
	    " WHERE a.action_id = ?1", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading an action's status");
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		*found = true;
		snprintf(st->action_id, sizeof st->action_id, "%s", action_id);
		column_into(stmt, 0, st->kind, sizeof st->kind);
		column_into(stmt, 1, st->status, sizeof st->status);
		st->raw_json = column_copy(stmt, 2, &st->raw_length);
		st->has_expiry = db_column_type(stmt, 3) != DB_NULL;
		st->expires_at_ms = db_column_int64(stmt, 3);
		st->decided = db_column_type(stmt, 4) != DB_NULL;
		if (st->decided) {
			column_into(stmt, 4, st->decision.decision_id,
			    sizeof st->decision.decision_id);
			column_into(stmt, 5, st->decision.decision,
			    sizeof st->decision.decision);
			column_into(stmt, 6, st->decision.operator_login,
			    sizeof st->decision.operator_login);
			st->decision.operator_uid = db_column_int64(stmt, 7);
			column_into(stmt, 8, st->decision.decided_at,
			    sizeof st->decision.decided_at);
			st->decision.audit_seq = db_column_int64(stmt, 9);
			column_into(stmt, 10, st->hash, sizeof st->hash);
			st->record_json = column_copy(stmt, 11, NULL);
		}
		if (st->raw_json == NULL || (st->decided &&
		    st->record_json == NULL))
			rc = DB_NOMEM;
	}
	db_finalize(stmt);
	if (rc != DB_ROW && rc != DB_DONE) {
		action_status_free(st);
		*found = false;
		return store_error(s, err, "reading an action's status");
	}
	return 0;
}

void
action_status_free(struct action_status *st)
{
	free(st->raw_json);
	free(st->record_json);
	st->raw_json = st->record_json = NULL;
}

int
store_action_matches(struct store *s, const char *prefix, char **ids,
    int limit, int *count, struct error *err)
{
	size_t len = strlen(prefix);
	db_stmt *stmt;
	char *upper;
	int rc;

	*count = 0;
	/* The key's range (each backend's own), as prefixes resolve. */
	if ((upper = malloc(len + 2)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	memcpy(upper, prefix, len);
	upper[len] = (char)0xff;
	upper[len + 1] = '\0';
	if ((stmt = store_statement(s, SQL_ACTION_ID_RANGE, err)) == NULL) {
		free(upper);
		return err->status;
	}
	db_bind_text(stmt, 1, prefix, -1, DB_STATIC);
	db_bind_text(stmt, 2, upper, -1, DB_STATIC);
	while (*count <= limit && (rc = db_step(stmt)) == DB_ROW) {
		if ((ids[*count] = column_copy(stmt, 0, NULL)) == NULL) {
			rc = DB_NOMEM;
			break;
		}
		(*count)++;
	}
	if (*count > limit)
		rc = DB_DONE;
	db_reset(stmt);
	free(upper);
	if (rc != DB_DONE) {
		while (*count > 0)
			free(ids[--*count]);
		return store_error(s, err, "looking up an action id");
	}
	return 0;
}

int
store_audit_after(struct store *s, long long after_seq, int limit,
    int (*fn)(void *, long long, const char *, const char *), void *ctx,
    struct error *err)
{
	db_stmt *stmt = NULL;
	int rc, stop = 0;

	if (db_prepare(s->db, "SELECT seq, record_json, hash FROM audit_log"
	    " WHERE seq > ?1 ORDER BY seq LIMIT ?2", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading the audit log");
	db_bind_int64(stmt, 1, after_seq);
	db_bind_int(stmt, 2, limit);
	while (stop == 0 && (rc = db_step(stmt)) == DB_ROW)
		stop = fn(ctx, db_column_int64(stmt, 0),
		    (const char *)db_column_text(stmt, 1),
		    (const char *)db_column_text(stmt, 2));
	db_finalize(stmt);
	if (stop != 0)
		return stop;
	if (rc != DB_DONE)
		return store_error(s, err, "reading the audit log");
	return 0;
}

int
store_watch_start(struct store *s, struct error *err)
{
	if (db_listen(s->db, AUDIT_CHANNEL) != DB_OK)
		return store_error(s, err, "listening for new records");
	return store_data_version(s, &s->watched_version, err);
}

int
store_watch_fd(struct store *s)
{
	return db_watch_fd(s->db);
}

int
store_watch_changed(struct store *s, bool *changed, struct error *err)
{
	long long version;

	*changed = false;
	if (db_is_postgresql(s->db))
		return db_notified(s->db, changed) == DB_OK ? 0 :
		    store_error(s, err, "listening for new records");
	if (store_data_version(s, &version, err) != 0)
		return err->status;
	*changed = version != s->watched_version;
	s->watched_version = version;
	return 0;
}

int
store_watch_notify(struct store *s, struct error *err)
{
	return db_notify(s->db, AUDIT_CHANNEL) == DB_OK ? 0 :
	    store_error(s, err, "announcing a new record");
}
