/*
 * The append-only, hash-chained audit log (SPEC 6): appending inside the
 * caller's transaction, verifying the chain, and the decisions table that
 * answers "who decided this, and when" without scanning the log.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "exit_codes.h"
#include "json_strict.h"
#include "sha256.h"
#include "store_internal.h"
#include "timestamp.h"

int
store_audit_head(struct store *s, struct audit_head *head, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc;

	head->seq = 0;
	snprintf(head->hash, sizeof head->hash, "%s", AUDIT_GENESIS_HASH);
	if ((stmt = store_statement(s, SQL_AUDIT_HEAD, err)) == NULL)
		return err->status;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		head->seq = sqlite3_column_int64(stmt, 0);
		snprintf(head->hash, sizeof head->hash, "%s",
		    (const char *)sqlite3_column_text(stmt, 1));
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, err, "reading the audit log head");
	return 0;
}

int
store_audit_append(struct store *s, const char *record_json,
    struct audit_head *head, struct error *err)
{
	struct audit_head prev;
	sqlite3_stmt *stmt;
	char hash[SHA256_HEX_SIZE];
	int rc;

	/* Inside the writer's transaction, so the head cannot move under us. */
	if ((rc = store_audit_head(s, &prev, err)) != 0)
		return rc;
	if (sha256_chain(prev.hash, record_json, strlen(record_json),
	    hash) != 0)
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot compute SHA-256");
	if ((stmt = store_statement(s, SQL_AUDIT_INSERT, err)) == NULL)
		return err->status;
	sqlite3_bind_int64(stmt, 1, prev.seq + 1);
	sqlite3_bind_text(stmt, 2, record_json, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, prev.hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 4, hash, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE)
		return store_error(s, err, "appending to the audit log");
	head->seq = prev.seq + 1;
	snprintf(head->hash, sizeof head->hash, "%s", hash);
	return 0;
}

int
store_audit_each(struct store *s,
    int (*fn)(void *, long long, const char *, const char *, const char *),
    void *ctx, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT seq, record_json, prev_hash, hash"
	    " FROM audit_log ORDER BY seq", -1, &stmt, NULL) != SQLITE_OK)
		return store_error(s, err, "reading the audit log");
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *record = (const char *)sqlite3_column_text(stmt, 1);
		const char *prev = (const char *)sqlite3_column_text(stmt, 2);
		const char *hash = (const char *)sqlite3_column_text(stmt, 3);

		if ((rc = fn(ctx, sqlite3_column_int64(stmt, 0),
		    record ? record : "", prev ? prev : "",
		    hash ? hash : "")) != 0) {
			sqlite3_finalize(stmt);
			return rc;
		}
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return store_error(s, err, "reading the audit log");
	return 0;
}

/*
 * The walk checks each decision record against the decision table as it
 * goes: a decision row is written in the same transaction as its record,
 * so in rowid order the rows follow the decision records one for one.
 * Matching the two in step costs no JSON in SQL; only when they do not
 * match does check_decisions() run the slow query that says what is wrong.
 */
struct chain_walk {
	struct audit_report *report;
	struct audit_head last;
	long long checkpoint_seq;
	const char *checkpoint_hash;
	bool checkpoint_seen;
	sqlite3_stmt *decision_rows;	/* by rowid: audit_seq, action_id, ... */
	bool decisions_in_step;
};

/* The members of a record the walk reads. */
enum { FIELD_EVENT, FIELD_ACTION_ID, FIELD_DECISION, FIELD_DECISION_ID,
    FIELD_COUNT };

static bool
field_is(const struct json_wanted *field, const char *text)
{
	size_t len;

	if (field->value == NULL || text == NULL)
		return false;
	len = strlen(text);
	return field->length == len && memcmp(field->value, text, len) == 0;
}

/* Whether the next decision row is the one this decision record made. */
static bool
decision_row_in_step(struct chain_walk *walk, long long seq,
    const struct json_wanted *fields)
{
	sqlite3_stmt *rows = walk->decision_rows;

	if (sqlite3_step(rows) != SQLITE_ROW)
		return false;
	return sqlite3_column_int64(rows, 0) == seq &&
	    field_is(&fields[FIELD_ACTION_ID],
	    (const char *)sqlite3_column_text(rows, 1)) &&
	    field_is(&fields[FIELD_DECISION],
	    (const char *)sqlite3_column_text(rows, 2)) &&
	    field_is(&fields[FIELD_DECISION_ID],
	    (const char *)sqlite3_column_text(rows, 3));
}

/* The wanted members from a tree, for records the quick check left out. */
static void
fields_from_tree(const cJSON *json, struct json_wanted *fields)
{
	const cJSON *member;
	size_t i;

	for (i = 0; i < FIELD_COUNT; i++) {
		member = cJSON_GetObjectItemCaseSensitive(json, fields[i].key);
		fields[i].value = cJSON_IsString(member) ?
		    member->valuestring : NULL;
		fields[i].length = fields[i].value != NULL ?
		    strlen(fields[i].value) : 0;
	}
}

static int
walk_record(void *ctx, long long seq, const char *record, const char *prev,
    const char *hash)
{
	struct chain_walk *walk = ctx;
	struct audit_report *r = walk->report;
	char expected[SHA256_HEX_SIZE];
	struct json_wanted fields[FIELD_COUNT] = {
		[FIELD_EVENT] = { "event", NULL, 0 },
		[FIELD_ACTION_ID] = { "action_id", NULL, 0 },
		[FIELD_DECISION] = { "decision", NULL, 0 },
		[FIELD_DECISION_ID] = { "decision_id", NULL, 0 },
	};
	size_t record_len = strlen(record);
	struct error ignored;
	cJSON *json = NULL;

	if (r->bad_seq != 0)
		return 0;
	if (seq != walk->last.seq + 1) {
		r->bad_seq = walk->last.seq + 1;
		snprintf(r->problem, sizeof r->problem,
		    "record %lld is missing (the next is %lld)",
		    walk->last.seq + 1, seq);
		return 0;
	}
	if (strcmp(prev, walk->last.hash) != 0) {
		r->bad_seq = seq;
		snprintf(r->problem, sizeof r->problem,
		    "prev_hash does not match the hash of record %lld",
		    walk->last.seq);
		return 0;
	}
	if (sha256_chain(prev, record, record_len, expected) != 0 ||
	    strcmp(expected, hash) != 0) {
		r->bad_seq = seq;
		snprintf(r->problem, sizeof r->problem,
		    "hash does not match the record's contents");
		return 0;
	}
	/* Every record is re-parsed; the quick check vouches for most. */
	if (!json_object_quick(record, record_len, fields, FIELD_COUNT)) {
		json = json_parse_strict(record, record_len, NULL, &ignored);
		if (json != NULL)
			fields_from_tree(json, fields);
		/*
		 * Escapes, say "act\u0069on_id": cJSON reads them, SQLite's
		 * json_extract (before 3.45) does not, so only the query of
		 * check_decisions() can say how the log reads.
		 */
		walk->decisions_in_step = false;
	}
	if (fields[FIELD_EVENT].value == NULL) {
		r->bad_seq = seq;
		snprintf(r->problem, sizeof r->problem,
		    "the record is not a JSON object with an event");
		cJSON_Delete(json);
		return 0;
	}
	if (field_is(&fields[FIELD_EVENT], "decision")) {
		r->decisions++;
		if (walk->decisions_in_step &&
		    !decision_row_in_step(walk, seq, fields))
			walk->decisions_in_step = false;
	}
	cJSON_Delete(json);
	if (seq == walk->checkpoint_seq) {
		walk->checkpoint_seen = true;
		if (strcmp(hash, walk->checkpoint_hash) != 0) {
			r->bad_seq = seq;
			snprintf(r->problem, sizeof r->problem,
			    "the checkpoint's hash is no longer on the chain");
			return 0;
		}
	}
	r->records++;
	walk->last.seq = seq;
	/* Checked above: 64 hex digits, as long as the buffer less its NUL. */
	memcpy(walk->last.hash, hash, sizeof walk->last.hash);
	return 0;
}

/* The decision an action's status says it had. */
#define DECISION_OF_STATUS \
	"(CASE a.status WHEN 'approved' THEN 'approve' ELSE 'reject' END)"

/*
 * After a walk whose decision records matched the decision rows one for
 * one: whether every action's status agrees with its decision row.  With
 * the walk, that is all check_decisions() asks, without reading JSON.
 */
static int
statuses_agree(struct store *s, bool *agree, struct error *err)
{
	static const char sql[] =
	    "SELECT 1 FROM action a LEFT JOIN decision x"
	    "  ON x.action_id = a.action_id"
	    " WHERE (a.status = 'pending' AND x.action_id IS NOT NULL)"
	    "  OR (a.status <> 'pending' AND (x.action_id IS NULL"
	    "   OR x.decision IS NOT " DECISION_OF_STATUS "))"
	    " UNION ALL SELECT 1 FROM decision x"
	    "  WHERE x.action_id NOT IN (SELECT action_id FROM action)"
	    " LIMIT 1";
	sqlite3_stmt *stmt;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return store_error(s, err, "checking decisions");
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, err, "checking decisions");
	*agree = rc == SQLITE_DONE;
	return 0;
}

/*
 * Every decided action has exactly one decision record agreeing with its
 * status, and every decision record is about a decided action.
 */
static int
check_decisions(struct store *s, struct audit_report *r, struct error *err)
{
	static const char sql[] =
	    "WITH d AS (SELECT json_extract(record_json, '$.action_id') AS id,"
	    "  min(json_extract(record_json, '$.decision')) AS decision,"
	    "  count(*) AS n, min(seq) AS seq FROM audit_log"
	    "  WHERE json_extract(record_json, '$.event') = 'decision'"
	    "  GROUP BY id)"
	    " SELECT a.action_id, a.status, d.n, d.decision, d.seq FROM action a"
	    " LEFT JOIN d ON d.id = a.action_id"
	    " WHERE (a.status = 'pending' AND d.n IS NOT NULL)"
	    "  OR (a.status <> 'pending' AND (d.n IS NULL OR d.n <> 1"
	    "   OR d.decision IS NOT " DECISION_OF_STATUS "))"
	    " UNION ALL SELECT d.id, NULL, d.n, d.decision, d.seq FROM d"
	    " WHERE d.id NOT IN (SELECT action_id FROM action)"
	    /* The decision table must say what the record says. */
	    " UNION ALL SELECT d.id, 'decided', -1, d.decision, d.seq FROM d"
	    " LEFT JOIN decision x ON x.action_id = d.id"
	    " WHERE x.action_id IS NULL OR x.audit_seq IS NOT d.seq"
	    "  OR x.decision IS NOT d.decision OR x.decision_id IS NOT"
	    "  (SELECT json_extract(record_json, '$.decision_id') FROM audit_log"
	    "   WHERE seq = d.seq)"
	    " LIMIT 1";
	sqlite3_stmt *stmt;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return store_error(s, err, "checking decisions");
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(stmt, 0);
		const char *status = (const char *)sqlite3_column_text(stmt, 1);
		long long n = sqlite3_column_int64(stmt, 2);

		r->bad_seq = sqlite3_column_type(stmt, 4) == SQLITE_NULL ?
		    r->head.seq : sqlite3_column_int64(stmt, 4);
		if (status == NULL)
			snprintf(r->problem, sizeof r->problem,
			    "a decision record names unknown action %.200s",
			    id ? id : "(none)");
		else if (n == -1)
			snprintf(r->problem, sizeof r->problem,
			    "the decision row of action %.200s does not match "
			    "its decision record", id);
		else if (n == 0)
			snprintf(r->problem, sizeof r->problem,
			    "action %.200s is %s but has no decision record",
			    id, status);
		else
			snprintf(r->problem, sizeof r->problem,
			    "action %.200s is %s but has %lld decision record(s)"
			    " that do not agree", id, status, n);
		if (r->bad_seq == 0)
			r->bad_seq = 1;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, err, "checking decisions");
	return 0;
}

int
store_audit_verify(struct store *s, long long checkpoint_seq,
    const char *checkpoint_hash, struct audit_report *r, struct error *err)
{
	struct chain_walk walk;
	bool agree = false;
	int rc;

	memset(r, 0, sizeof *r);
	memset(&walk, 0, sizeof walk);
	walk.report = r;
	walk.checkpoint_seq = checkpoint_seq;
	walk.checkpoint_hash = checkpoint_hash;
	walk.decisions_in_step = true;
	snprintf(walk.last.hash, sizeof walk.last.hash, "%s",
	    AUDIT_GENESIS_HASH);
	/* One read transaction: the chain and the decisions seen together. */
	if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return store_error(s, err, "starting to read");
	if (sqlite3_prepare_v2(s->db, "SELECT audit_seq, action_id, decision,"
	    " decision_id FROM decision ORDER BY rowid", -1,
	    &walk.decision_rows, NULL) != SQLITE_OK) {
		rc = store_error(s, err, "reading the decisions");
		goto done;
	}
	rc = store_audit_each(s, walk_record, &walk, err);
	r->head = walk.last;
	if (rc == 0 && r->bad_seq == 0 && checkpoint_seq > 0 &&
	    !walk.checkpoint_seen) {
		r->bad_seq = checkpoint_seq;
		snprintf(r->problem, sizeof r->problem,
		    "the checkpoint's record is no longer on the chain "
		    "(the log ends at %lld)", walk.last.seq);
	}
	if (rc != 0 || r->bad_seq != 0)
		goto done;
	/* A row left over has no decision record. */
	if (walk.decisions_in_step &&
	    sqlite3_step(walk.decision_rows) != SQLITE_DONE)
		walk.decisions_in_step = false;
	if (walk.decisions_in_step && (rc = statuses_agree(s, &agree,
	    err)) != 0)
		goto done;
	if (!agree)
		rc = check_decisions(s, r, err);
done:
	sqlite3_finalize(walk.decision_rows);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

int
store_decision_get(struct store *s, const char *action_id,
    struct decision_row *row, bool *found, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc;

	memset(row, 0, sizeof *row);
	*found = false;
	if ((stmt = store_statement(s, SQL_DECISION_GET, err)) == NULL)
		return err->status;
	sqlite3_bind_text(stmt, 1, action_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*found = true;
		snprintf(row->decision_id, sizeof row->decision_id, "%s",
		    (const char *)sqlite3_column_text(stmt, 0));
		snprintf(row->decision, sizeof row->decision, "%s",
		    (const char *)sqlite3_column_text(stmt, 1));
		snprintf(row->operator_login, sizeof row->operator_login, "%s",
		    (const char *)sqlite3_column_text(stmt, 2));
		row->operator_uid = sqlite3_column_int64(stmt, 3);
		snprintf(row->decided_at, sizeof row->decided_at, "%s",
		    (const char *)sqlite3_column_text(stmt, 4));
		row->audit_seq = sqlite3_column_int64(stmt, 5);
		row->escalate = sqlite3_column_int(stmt, 6) != 0;
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, err, "reading a decision");
	return 0;
}

int
store_decision_insert(struct store *s, const char *action_id,
    const struct decision_row *row, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc;

	if ((stmt = store_statement(s, SQL_DECISION_INSERT, err)) == NULL)
		return err->status;
	sqlite3_bind_text(stmt, 1, action_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, row->decision_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, row->decision, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, row->operator_login, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 5, row->operator_uid);
	sqlite3_bind_text(stmt, 6, row->decided_at, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 7, row->audit_seq);
	if (row->reassign_to != NULL)
		sqlite3_bind_text(stmt, 8, row->reassign_to, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 9, row->escalate);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE)
		return store_error(s, err, "recording a decision");
	if ((stmt = store_statement(s, SQL_ACTION_SET_STATUS, err)) == NULL)
		return err->status;
	sqlite3_bind_text(stmt, 1, action_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, strcmp(row->decision, "approve") == 0 ?
	    "approved" : "rejected", -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE || sqlite3_changes(s->db) != 1)
		return rc != SQLITE_DONE ? store_error(s, err,
		    "recording a decision") : error_set(err, EXIT_STORAGE,
		    NULL, "action %s was not pending", action_id);
	/* Decided: out of the queue, in the same transaction. */
	return store_queue_remove(s, action_id, err);
}

int
store_decision_record(struct store *s, const char *action_id,
    char **record_json, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc;

	*record_json = NULL;
	if ((stmt = store_statement(s, SQL_DECISION_RECORD, err)) == NULL)
		return err->status;
	sqlite3_bind_text(stmt, 1, action_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*record_json = strdup((const char *)sqlite3_column_text(stmt, 0));
		if (*record_json == NULL)
			rc = SQLITE_NOMEM;
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, err, "reading a decision record");
	return 0;
}

/*
 * An outside copy of the head: whoever can write the database can rewrite
 * the whole chain, but not the lines syslog already shipped.
 */
static const char *checkpoint_path;

void
store_checkpoint_file(const char *path)
{
	checkpoint_path = path;
}

/* One line, one write(2) on an O_APPEND file: lines never interleave. */
static void
checkpoint_append(const struct audit_head *head)
{
	char line[160], when[TIMESTAMP_SIZE];
	int fd, len;

	timestamp_format(timestamp_now(), when);
	len = snprintf(line, sizeof line, "%lld %s %s\n", head->seq,
	    head->hash, when);
	fd = open(checkpoint_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (fd < 0 || write(fd, line, (size_t)len) != len)
		fprintf(stderr, "countersign: the audit head seq %lld was not "
		    "written to the checkpoint file %s: %s\n", head->seq,
		    checkpoint_path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

void
store_audit_announce(const struct store *s, const struct audit_head *head)
{
	if (head->seq == 0)
		return;
	if (checkpoint_path != NULL)
		checkpoint_append(head);
	openlog("countersign", LOG_PID, LOG_AUTHPRIV);
	syslog(LOG_INFO, "audit head seq=%lld hash=%s db=%s", head->seq,
	    head->hash, s->path);
	closelog();
}
