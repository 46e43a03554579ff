/*
 * The append-only, hash-chained audit log (SPEC 6): appending inside the
 * caller's transaction, and the decisions table that answers "who
 * decided this, and when" without scanning the log.  Verifying the chain
 * is audit_verify.c; telling the world the head (syslog, the checkpoint
 * file, the alarm) is audit_announce.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_strict.h"
#include "sha256.h"
#include "store_internal.h"
#include "store_log.h"

int
store_audit_head(struct store *s, struct audit_head *head, struct error *err)
{
	db_stmt *stmt;
	int rc;

	head->seq = 0;
	snprintf(head->hash, sizeof head->hash, "%s", AUDIT_GENESIS_HASH);
	if ((stmt = store_statement(s, SQL_AUDIT_HEAD, err)) == NULL)
		return err->status;
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		head->seq = db_column_int64(stmt, 0);
		snprintf(head->hash, sizeof head->hash, "%s",
		    (const char *)db_column_text(stmt, 1));
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the audit log head");
	return 0;
}

/*
 * The next record's place on the chain (prev, inside the writer's
 * transaction, so the head cannot move under us) and its hash; the tree
 * of SPEC 13 is told first.
 */
static int
append_begin(struct store *s, const char *record_json,
    struct audit_head *prev, char hash[SHA256_HEX_SIZE], struct error *err)
{
	int rc;

	if ((rc = store_audit_head(s, prev, err)) != 0)
		return rc;
	if (sha256_chain(prev->hash, record_json, strlen(record_json),
	    hash) != 0)
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot compute SHA-256");
	return store_log_before_append(s, prev->seq + 1, err);
}

/* ?1 to ?4 of SQL_AUDIT_INSERT and SQL_DECISION_APPEND. */
static void
bind_audit_row(db_stmt *stmt, const struct audit_head *prev,
    const char *record_json, const char *hash)
{
	db_bind_int64(stmt, 1, prev->seq + 1);
	db_bind_text(stmt, 2, record_json, -1, DB_STATIC);
	db_bind_text(stmt, 3, prev->hash, -1, DB_TRANSIENT);
	db_bind_text(stmt, 4, hash, -1, DB_TRANSIENT);
}

/* The record is in: the tree grows in the same transaction. */
static int
append_end(struct store *s, const struct audit_head *prev,
    const char *record_json, const char *hash, struct audit_head *head,
    struct error *err)
{
	int rc;

	if ((rc = store_log_after_append(s, prev->seq + 1, record_json,
	    err)) != 0)
		return rc;
	head->seq = prev->seq + 1;
	snprintf(head->hash, sizeof head->hash, "%s", hash);
	s->audit_appended = true;
	return 0;
}

/* A decision row as SQL_DECISION_INSERT's eleven parameters, from ?first. */
static void
bind_decision_row(db_stmt *stmt, int first, const char *action_id,
    const struct decision_row *row)
{
	db_bind_text(stmt, first, action_id, -1, DB_STATIC);
	db_bind_text(stmt, first + 1, row->decision_id, -1, DB_STATIC);
	db_bind_text(stmt, first + 2, row->decision, -1, DB_STATIC);
	db_bind_text(stmt, first + 3, row->operator_login, -1, DB_STATIC);
	db_bind_int64(stmt, first + 4, row->operator_uid);
	db_bind_text(stmt, first + 5, row->decided_at, -1, DB_STATIC);
	db_bind_int64(stmt, first + 6, row->audit_seq);
	if (row->reassign_to != NULL)
		db_bind_text(stmt, first + 7, row->reassign_to, -1, DB_STATIC);
	db_bind_int(stmt, first + 8, row->escalate);
	if (row->blocked_on != NULL)
		db_bind_text(stmt, first + 9, row->blocked_on, -1, DB_STATIC);
	if (row->escalate_expertise != NULL)
		db_bind_text(stmt, first + 10, row->escalate_expertise, -1,
		    DB_STATIC);
}

/*
 * Appends record_json after the head with statement which; with row (a
 * decision's, row->audit_seq set here) PostgreSQL's statement writes the
 * row too (SQL_DECISION_APPEND), SQLite's only the record.
 */
static int
append(struct store *s, enum statement which, const char *record_json,
    const char *action_id, struct decision_row *row, struct audit_head *head,
    struct error *err)
{
	struct audit_head prev;
	db_stmt *stmt;
	char hash[SHA256_HEX_SIZE];
	int rc;

	if ((rc = append_begin(s, record_json, &prev, hash, err)) != 0)
		return rc;
	if ((stmt = store_statement(s, which, err)) == NULL)
		return err->status;
	bind_audit_row(stmt, &prev, record_json, hash);
	if (row != NULL) {
		row->audit_seq = prev.seq + 1;
		if (db_is_postgresql(s->db))
			bind_decision_row(stmt, 5, action_id, row);
	}
	rc = db_step(stmt);
	db_reset(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, row != NULL ?
		    "recording a decision" : "appending to the audit log");
	return append_end(s, &prev, record_json, hash, head, err);
}

int
store_audit_append(struct store *s, const char *record_json,
    struct audit_head *head, struct error *err)
{
	return append(s, SQL_AUDIT_INSERT, record_json, NULL, NULL, head, err);
}

int
store_audit_each(struct store *s,
    int (*fn)(void *, long long, const char *, const char *, const char *),
    void *ctx, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (db_prepare(s->db, "SELECT seq, record_json, prev_hash, hash"
	    " FROM audit_log ORDER BY seq", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading the audit log");
	/* The whole log: a batch at a time, never all at once (issue 34). */
	db_stream(stmt);
	while ((rc = db_step(stmt)) == DB_ROW) {
		const char *record = (const char *)db_column_text(stmt, 1);
		const char *prev = (const char *)db_column_text(stmt, 2);
		const char *hash = (const char *)db_column_text(stmt, 3);

		if ((rc = fn(ctx, db_column_int64(stmt, 0),
		    record ? record : "", prev ? prev : "",
		    hash ? hash : "")) != 0) {
			db_finalize(stmt);
			return rc;
		}
	}
	db_finalize(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, "reading the audit log");
	return 0;
}

int
store_decision_get(struct store *s, const char *action_id,
    struct decision_row *row, bool *found, struct error *err)
{
	db_stmt *stmt;
	int rc;

	memset(row, 0, sizeof *row);
	*found = false;
	if ((stmt = store_statement(s, SQL_DECISION_GET, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		*found = true;
		snprintf(row->decision_id, sizeof row->decision_id, "%s",
		    (const char *)db_column_text(stmt, 0));
		snprintf(row->decision, sizeof row->decision, "%s",
		    (const char *)db_column_text(stmt, 1));
		snprintf(row->operator_login, sizeof row->operator_login, "%s",
		    (const char *)db_column_text(stmt, 2));
		row->operator_uid = db_column_int64(stmt, 3);
		snprintf(row->decided_at, sizeof row->decided_at, "%s",
		    (const char *)db_column_text(stmt, 4));
		row->audit_seq = db_column_int64(stmt, 5);
		row->escalate = db_column_int(stmt, 6) != 0;
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading a decision");
	return 0;
}

/* SQLite's decision row and status, which PostgreSQL's append wrote. */
static int
decision_row_insert(struct store *s, const char *action_id,
    const struct decision_row *row, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if ((stmt = store_statement(s, SQL_DECISION_INSERT, err)) == NULL)
		return err->status;
	bind_decision_row(stmt, 1, action_id, row);
	rc = db_step(stmt);
	db_reset(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, "recording a decision");
	if ((stmt = store_statement(s, SQL_ACTION_SET_STATUS, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	db_bind_text(stmt, 2, strcmp(row->decision, "approve") == 0 ?
	    "approved" : "rejected", -1, DB_STATIC);
	rc = db_step_changing(stmt, 1);
	db_reset(stmt);
	if (rc != DB_DONE)
		return rc != DB_MISMATCH ? store_error(s, err,
		    "recording a decision") : error_set(err, EXIT_STORAGE,
		    NULL, "action %s was not pending", action_id);
	return 0;
}

int
store_decision_append(struct store *s, const char *record_json,
    struct audit_head *head, const char *action_id, struct decision_row *row,
    const struct store_decided *before, struct error *err)
{
	int rc;

	/*
	 * On PostgreSQL one call of the owner's function appends the record,
	 * writes the row and status it describes and takes the action out
	 * of the queue (pg_schema.c, 23): the service's role has no UPDATE,
	 * and the function checks the row against the record as given.
	 */
	if ((rc = append(s, SQL_DECISION_APPEND, record_json, action_id, row,
	    head, err)) != 0 || (!db_is_postgresql(s->db) &&
	    (rc = decision_row_insert(s, action_id, row, err)) != 0))
		return rc;
	if ((rc = store_artifact_decided(s, action_id, before->label,
	    strcmp(row->decision, "reject") == 0, row->blocked_on != NULL,
	    err)) != 0)
		return rc;
	/* Decided: out of the queue, in the same transaction. */
	if ((rc = store_queue_remove(s, action_id, before, err)) != 0)
		return rc;
	/* Its revisions' lockout changed with it. */
	return store_queue_mark_each(s, before, err);
}

int
store_decision_record(struct store *s, const char *action_id,
    char **record_json, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*record_json = NULL;
	if ((stmt = store_statement(s, SQL_DECISION_RECORD, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW && db_column_type(stmt, 0) != DB_TEXT) {
		/* A NULL record crashed replay: the log is broken, say so. */
		db_reset(stmt);
		return error_set(err, EXIT_STORAGE, NULL, "%s: the decision "
		    "record of action %s is not stored as text; run countersign "
		    "audit verify", s->path, action_id);
	}
	if (rc == DB_ROW) {
		*record_json = strdup((const char *)db_column_text(stmt, 0));
		if (*record_json == NULL)
			rc = DB_NOMEM;
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading a decision record");
	return 0;
}
