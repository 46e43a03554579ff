/*
 * Verifying the audit log (SPEC 6): the chain walked record by record,
 * each decision, approval and judgment record checked against the row it
 * made, and the actions' statuses against their decisions.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_strict.h"
#include "sanitize.h"
#include "sha256.h"
#include "store_internal.h"
#include "store_log.h"
#include "timestamp.h"

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
	db_stmt *decision_rows;	/* by rowid: audit_seq, action_id, ... */
	bool decisions_in_step;
	db_stmt *decision_row;	/* by action_id: decision_columns */
	struct error *err;		/* a read of decision_row failed */
	int status;
	/*
	 * The first row found disagreeing with its record, reported once
	 * the walk and check_decisions() found nothing: a record missing
	 * from a rebuilt chain shifts the seq of every row after it, and
	 * the missing record is the news.
	 */
	long long column_bad_seq;
	char column_problem[512];
	struct record_rows *approvals;	/* SPEC 14 (approvals.c) */
	struct record_rows *judgments;	/* SPEC 2.3 (judgments.c) */
	struct audited_policy *policy;	/* issue 35 (policy_audited.c) */
};

/*
 * Every column of a decision row and where its record says the same
 * (SPEC v2 6): the gate, the lockout and the history read the row, so a
 * row that says another operator, time or routing than its record is a
 * broken log.  One more column is one more line here.
 */
enum column_kind {
	COLUMN_TEXT,		/* a string member, or NULL when absent or null */
	COLUMN_INTEGER,		/* a number member */
	COLUMN_FLAG,		/* 1 when the member is true or an object */
	COLUMN_SEQ		/* the record's own seq */
};

static const struct decision_column {
	const char *column;
	const char *path[3];	/* members from the record's top, NULL-ended */
	enum column_kind kind;
} decision_columns[] = {
	{ "audit_seq", { NULL }, COLUMN_SEQ },
	{ "action_id", { "action_id" }, COLUMN_TEXT },
	{ "decision_id", { "decision_id" }, COLUMN_TEXT },
	{ "decision", { "decision" }, COLUMN_TEXT },
	{ "operator_login", { "operator", "login" }, COLUMN_TEXT },
	{ "operator_uid", { "operator", "uid" }, COLUMN_INTEGER },
	{ "decided_at", { "decided_at" }, COLUMN_TEXT },
	{ "reassign_to", { "routing", "reassign_to" }, COLUMN_TEXT },
	{ "escalate", { "routing", "escalate" }, COLUMN_FLAG },
	{ "escalate_expertise", { "routing", "escalate", "expertise" },
	    COLUMN_TEXT },
	{ "blocked_on", { "routing", "blocked_on" }, COLUMN_TEXT },
};

#define DECISION_COLUMNS \
	(sizeof decision_columns / sizeof decision_columns[0])

/* The members of a record the walk reads. */
enum { FIELD_EVENT, FIELD_ACTION_ID, FIELD_DECISION, FIELD_DECISION_ID,
    FIELD_TYPE, FIELD_OBJECT_SHA256, FIELD_COUNT };

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
	db_stmt *rows = walk->decision_rows;

	if (db_step(rows) != DB_ROW)
		return false;
	return db_column_int64(rows, 0) == seq &&
	    field_is(&fields[FIELD_ACTION_ID],
	    (const char *)db_column_text(rows, 1)) &&
	    field_is(&fields[FIELD_DECISION],
	    (const char *)db_column_text(rows, 2)) &&
	    field_is(&fields[FIELD_DECISION_ID],
	    (const char *)db_column_text(rows, 3));
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

/* The statement reading one action's decision row, every column above. */
static int
prepare_decision_row(struct store *s, db_stmt **stmt, struct error *err)
{
	char sql[1024];
	size_t i, used;

	used = (size_t)snprintf(sql, sizeof sql, "SELECT ");
	for (i = 0; i < DECISION_COLUMNS && used < sizeof sql; i++)
		used += (size_t)snprintf(sql + used, sizeof sql - used, "%s%s",
		    i > 0 ? ", " : "", decision_columns[i].column);
	if (used < sizeof sql)
		used += (size_t)snprintf(sql + used, sizeof sql - used,
		    " FROM decision WHERE action_id = ?1");
	if (used >= sizeof sql || db_prepare(s->db, sql, DB_READS, stmt) != DB_OK)
		return store_error(s, err, "reading the decisions");
	return 0;
}

/* Whether column i of the row says what the record says. */
static bool
column_agrees(db_stmt *row, int i, const cJSON *record, long long seq)
{
	const struct decision_column *c = &decision_columns[i];
	const cJSON *value = record;
	const char *text;
	size_t k;
	int type = db_column_type(row, i);

	for (k = 0; k < 3 && c->path[k] != NULL; k++)
		value = cJSON_GetObjectItemCaseSensitive(value, c->path[k]);
	switch (c->kind) {
	case COLUMN_SEQ:
		return type == DB_INTEGER &&
		    db_column_int64(row, i) == seq;
	case COLUMN_INTEGER:
		return type == DB_INTEGER && cJSON_IsNumber(value) &&
		    (double)db_column_int64(row, i) == value->valuedouble;
	case COLUMN_FLAG:
		return type == DB_INTEGER && db_column_int64(row, i) ==
		    (cJSON_IsTrue(value) || cJSON_IsObject(value) ? 1 : 0);
	case COLUMN_TEXT:
		if (!cJSON_IsString(value))
			return type == DB_NULL;
		text = (const char *)db_column_text(row, i);
		return type == DB_TEXT && text != NULL &&
		    (size_t)db_column_bytes(row, i) ==
		    strlen(value->valuestring) &&
		    strcmp(text, value->valuestring) == 0;
	}
	return false;
}

/*
 * The decision row of a decision record, column by column.  A record
 * whose action has no row is left to check_decisions(), which says so.
 */
static void
decision_row_agrees(struct chain_walk *walk, long long seq,
    const cJSON *record)
{
	const cJSON *action_id = cJSON_GetObjectItemCaseSensitive(record,
	    "action_id");
	db_stmt *row = walk->decision_row;
	size_t i;
	int rc;

	if (!cJSON_IsString(action_id) || walk->column_bad_seq != 0)
		return;
	db_reset(row);
	db_bind_text(row, 1, action_id->valuestring, -1, DB_STATIC);
	rc = db_step(row);
	if (rc != DB_ROW) {
		if (rc != DB_DONE && walk->status == 0)
			walk->status = error_set(walk->err, EXIT_STORAGE, NULL,
			    "reading the decisions: %s",
			    db_errmsg(db_handle(row)));
		db_reset(row);
		return;
	}
	for (i = 0; i < DECISION_COLUMNS; i++) {
		if (column_agrees(row, (int)i, record, seq))
			continue;
		walk->column_bad_seq = seq;
		snprintf(walk->column_problem, sizeof walk->column_problem,
		    "the decision row of action %.200s does not match its "
		    "decision record (%s)", action_id->valuestring,
		    decision_columns[i].column);
		break;
	}
	db_reset(row);
}

/* An approval record's row, and a decision's earlier approvals. */
static void
approval_rows_agree(struct chain_walk *walk, long long seq,
    const struct json_wanted *event, const char *record, size_t record_len,
    cJSON **json)
{
	struct error ignored;

	bool judgment = field_is(event, "po_judgment");

	if (walk->column_bad_seq != 0 || (!field_is(event, "approval") &&
	    !field_is(event, "decision") && !judgment))
		return;
	if (*json == NULL)
		*json = json_parse_strict(record, record_len, NULL, &ignored);
	if (*json == NULL)
		return;
	if ((judgment ? store_judgment_check_record(walk->judgments, seq,
	    *json, walk->column_problem, sizeof walk->column_problem) :
	    store_approval_check_record(walk->approvals, seq, *json,
	    walk->column_problem, sizeof walk->column_problem)) != 0 &&
	    walk->status == 0)
		walk->status = error_set(walk->err, EXIT_STORAGE, NULL,
		    judgment ? "reading the judgments" :
		    "reading the approvals");
	else if (walk->column_problem[0] != '\0')
		walk->column_bad_seq = seq;
}

/*
 * The row as stored, every byte of it (SPEC v2 6): a record cut at a NUL
 * hashed only its first part, and one stored as a blob or a number is not
 * the text the chain vouches for.
 */
static bool
record_stored_whole(struct audit_report *r, long long seq, int type,
    const char *record, size_t length)
{
	if (type != DB_TEXT) {
		r->bad_seq = seq;
		snprintf(r->problem, sizeof r->problem, "the record is stored "
		    "as %s, not as text", type == DB_BLOB ? "a blob" :
		    type == DB_NULL ? "NULL" : "a number");
		return false;
	}
	if (memchr(record, '\0', length) != NULL) {
		r->bad_seq = seq;
		snprintf(r->problem, sizeof r->problem,
		    "the record holds a NUL byte");
		return false;
	}
	return true;
}

static int
walk_record(struct chain_walk *walk, long long seq, int type,
    const char *record, size_t record_len, const char *prev,
    const char *hash)
{
	struct audit_report *r = walk->report;
	char expected[SHA256_HEX_SIZE];
	struct json_wanted fields[FIELD_COUNT] = {
		[FIELD_EVENT] = { "event", NULL, 0 },
		[FIELD_ACTION_ID] = { "action_id", NULL, 0 },
		[FIELD_DECISION] = { "decision", NULL, 0 },
		[FIELD_DECISION_ID] = { "decision_id", NULL, 0 },
		/* A policy import's, which a roster's needs alone. */
		[FIELD_TYPE] = { "type", NULL, 0 },
		[FIELD_OBJECT_SHA256] = { "object_sha256", NULL, 0 },
	};
	struct error ignored;
	cJSON *json = NULL;
	int rc;

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
	if (!record_stored_whole(r, seq, type, record, record_len))
		return 0;
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
		/* Its row, every column: parsed whole only for this. */
		if (json == NULL)
			json = json_parse_strict(record, record_len, NULL,
			    &ignored);
		decision_row_agrees(walk, seq, json);
	}
	approval_rows_agree(walk, seq, &fields[FIELD_EVENT], record,
	    record_len, &json);
	/* The policy a decision used is the one the imports before it set. */
	rc = audited_policy_record(walk->policy, seq,
	    field_is(&fields[FIELD_EVENT], "policy_import"),
	    walk->column_bad_seq == 0 && (field_is(&fields[FIELD_EVENT],
	    "decision") || field_is(&fields[FIELD_EVENT], "approval")),
	    &fields[FIELD_TYPE], &fields[FIELD_OBJECT_SHA256],
	    record, record_len, &json, walk->column_problem,
	    sizeof walk->column_problem);
	if (rc > 0)
		walk->column_bad_seq = seq;
	else if (rc < 0 && walk->status == 0)
		walk->status = error_set(walk->err, EXIT_STORAGE, NULL,
		    "out of memory");
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

/* Every row in order, its record with its storage class and length. */
static int
walk_rows(struct store *s, struct chain_walk *walk, struct error *err)
{
	db_stmt *stmt;
	const char *record, *prev, *hash;
	int rc, type;

	if (db_prepare(s->db, "SELECT seq, record_json, prev_hash, hash"
	    " FROM audit_log ORDER BY seq", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading the audit log");
	db_stream(stmt);	/* the whole log, a batch at a time */
	while ((rc = db_step(stmt)) == DB_ROW) {
		type = db_column_type(stmt, 1);
		record = type == DB_BLOB ?
		    (const char *)db_column_blob(stmt, 1) :
		    (const char *)db_column_text(stmt, 1);
		prev = (const char *)db_column_text(stmt, 2);
		hash = (const char *)db_column_text(stmt, 3);
		walk_record(walk, db_column_int64(stmt, 0), type,
		    record != NULL ? record : "",
		    (size_t)db_column_bytes(stmt, 1),
		    prev != NULL ? prev : "", hash != NULL ? hash : "");
	}
	db_finalize(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, "reading the audit log");
	return 0;
}

/* The decision an action's status says it had. */
#define DECISION_OF_STATUS \
	"(CASE a.status WHEN 'approved' THEN 'approve' ELSE 'reject' END)"

/*
 * After a walk whose decision records matched the decision rows one for
 * one: any action whose status disagrees with its decision row.  With the
 * walk, that is all DECISIONS_SQL asks, without reading JSON.
 */
static const char STATUSES_SQL[] =
    "SELECT 1 FROM action a LEFT JOIN decision x"
    "  ON x.action_id = a.action_id"
    " WHERE (a.status = 'pending' AND x.action_id IS NOT NULL)"
    "  OR (a.status <> 'pending' AND (x.action_id IS NULL"
    "   OR x.decision IS NOT " DECISION_OF_STATUS "))"
    " UNION ALL SELECT 1 FROM decision x"
    "  WHERE x.action_id NOT IN (SELECT action_id FROM action)"
    " LIMIT 1";

/*
 * Every decided action has exactly one decision record agreeing with its
 * status, and every decision record is about a decided action: the first
 * action or record that breaks it.
 */
static const char DECISIONS_SQL[] =
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

/* What DECISIONS_SQL's row says is wrong, into r. */
static void
describe_disagreement(db_stmt *stmt, struct audit_report *r)
{
	const char *id = (const char *)db_column_text(stmt, 0);
	const char *status = (const char *)db_column_text(stmt, 1);
	long long n = db_column_int64(stmt, 2);

	r->bad_seq = db_column_type(stmt, 4) == DB_NULL ?
	    r->head.seq : db_column_int64(stmt, 4);
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

/*
 * Runs STATUSES_SQL or DECISIONS_SQL: a row is a disagreement (*agree
 * false), which with r is described there.
 */
static int
check_decisions(struct store *s, const char *sql, struct audit_report *r,
    bool *agree, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (db_prepare(s->db, sql, DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "checking decisions");
	rc = db_step(stmt);
	*agree = rc != DB_ROW;
	if (rc == DB_ROW && r != NULL)
		describe_disagreement(stmt, r);
	db_finalize(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
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
	if (db_begin_read(s->db) != DB_OK)
		return store_error(s, err, "starting to read");
	if (db_prepare(s->db, "SELECT audit_seq, action_id, decision,"
	    " decision_id FROM decision ORDER BY rowid", DB_READS,
	    &walk.decision_rows) != DB_OK) {
		rc = store_error(s, err, "reading the decisions");
		goto done;
	}
	db_stream(walk.decision_rows);
	walk.err = err;
	if ((walk.policy = audited_policy_new()) == NULL) {
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
		goto done;
	}
	if ((rc = prepare_decision_row(s, &walk.decision_row, err)) != 0 ||
	    (rc = store_approval_check_open(s, &walk.approvals, err)) != 0 ||
	    (rc = store_judgment_check_open(s, &walk.judgments, err)) != 0)
		goto done;
	rc = walk_rows(s, &walk, err);
	if (rc == 0)
		rc = walk.status;
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
	    db_step(walk.decision_rows) != DB_DONE)
		walk.decisions_in_step = false;
	if (walk.decisions_in_step && (rc = check_decisions(s, STATUSES_SQL,
	    NULL, &agree, err)) != 0)
		goto done;
	if (!agree)
		rc = check_decisions(s, DECISIONS_SQL, r, &agree, err);
	/* An approval row without its record (SPEC 14). */
	if (rc == 0 && r->bad_seq == 0 && walk.column_bad_seq == 0 &&
	    (rc = store_approval_check_finish(s, walk.approvals,
	    walk.column_problem, sizeof walk.column_problem, err)) == 0 &&
	    walk.column_problem[0] != '\0')
		walk.column_bad_seq = walk.last.seq > 0 ? walk.last.seq : 1;
	/* A judgment row without its record (SPEC 2.3). */
	if (rc == 0 && r->bad_seq == 0 && walk.column_bad_seq == 0 &&
	    (rc = store_judgment_check_finish(s, walk.judgments,
	    walk.column_problem, sizeof walk.column_problem, err)) == 0 &&
	    walk.column_problem[0] != '\0')
		walk.column_bad_seq = walk.last.seq > 0 ? walk.last.seq : 1;
	if (rc == 0 && r->bad_seq == 0 && walk.column_bad_seq != 0) {
		r->bad_seq = walk.column_bad_seq;
		snprintf(r->problem, sizeof r->problem, "%s",
		    walk.column_problem);
	}
	/* The policy rows the gate reads, held to the imports (issue 35). */
	if (rc == 0 && r->bad_seq == 0)
		rc = audited_policy_check_tables(s, walk.policy, r, err);
done:
	audited_policy_free(walk.policy);
	record_rows_close(walk.approvals);
	record_rows_close(walk.judgments);
	db_finalize(walk.decision_rows);
	db_finalize(walk.decision_row);
	db_commit(s->db);
	return rc;
}
