/*
 * Approval quorums (SPEC 14): the active approval policies, and the
 * approvals an action has been given so far.  Read and written inside
 * the deciding transaction, under the one write lock, so that two
 * officers approving at once count each other.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

int
store_approval_policies(struct store *s, cJSON **policies, struct error *err)
{
	struct loaded_object o;
	db_stmt *stmt;
	cJSON *tree;
	int rc;

	/* What the write transaction read already (policy_held.c). */
	if (store_held_approval_policies(s) != NULL) {
		*policies = cJSON_Duplicate(store_held_approval_policies(s),
		    true);
		return *policies != NULL ? 0 : error_set(err, EXIT_STORAGE,
		    NULL, "out of memory");
	}
	if ((*policies = cJSON_CreateArray()) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if ((stmt = store_statement(s, SQL_APPROVAL_POLICIES, err)) == NULL) {
		rc = err->status;
		goto fail;
	}
	while ((rc = db_step(stmt)) == DB_ROW) {
		tree = cJSON_Parse((const char *)db_column_text(stmt, 0));
		if (tree == NULL) {
			rc = error_set(err, EXIT_STORAGE, NULL, "%s: the stored "
			    "approval_policy %s is not valid JSON", s->path,
			    (const char *)db_column_text(stmt, 1));
			db_reset(stmt);
			goto fail;
		}
		/* Held to what import accepted: the gate counts by it. */
		cJSON_AddItemToArray(*policies, tree);
		if ((rc = store_object_valid(s, tree, OBJECT_APPROVAL_POLICY,
		    (const char *)db_column_text(stmt, 1), &o, err)) != 0) {
			db_reset(stmt);
			goto fail;
		}
	}
	db_reset(stmt);
	if (rc != DB_DONE) {
		rc = store_error(s, err, "reading the approval policies");
		goto fail;
	}
	store_hold_approval_policies(s, *policies);
	return 0;
fail:
	cJSON_Delete(*policies);
	*policies = NULL;
	return rc;
}

void
store_approvals_free(struct approval_row *rows, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(rows[i].reason);
	free(rows);
}

static bool
approval_take(void *record, db_stmt *stmt)
{
	struct approval_row *row = record;

	snprintf(row->approval_id, sizeof row->approval_id, "%s",
	    (const char *)db_column_text(stmt, 0));
	snprintf(row->operator_login, sizeof row->operator_login, "%s",
	    (const char *)db_column_text(stmt, 1));
	row->operator_uid = db_column_int64(stmt, 2);
	snprintf(row->approved_at, sizeof row->approved_at, "%s",
	    (const char *)db_column_text(stmt, 3));
	row->needed = db_column_int64(stmt, 5);
	row->have = db_column_int64(stmt, 6);
	row->audit_seq = db_column_int64(stmt, 7);
	return db_column_type(stmt, 4) != DB_TEXT || (row->reason =
	    strdup((const char *)db_column_text(stmt, 4))) != NULL;
}

static void
approvals_release(void *records, size_t count)
{
	store_approvals_free(records, count);
}

int
store_approvals_of(struct store *s, const char *action_id,
    struct approval_row **rows, size_t *count, struct error *err)
{
	static const struct rows_spec spec = { SQL_APPROVALS_OF,
	    sizeof(struct approval_row), approval_take, approvals_release,
	    "reading the approvals" };
	void *read;
	int rc;

	rc = store_rows_read(s, &spec, action_id, &read, count, err);
	*rows = read;
	return rc;
}

int
store_approval_insert(struct store *s, const char *action_id,
    const struct approval_row *row, struct error *err)
{
	db_stmt *stmt;
	int rc;

	/* PostgreSQL: the owner's function, which checks the record (20). */
	if (db_prepare(s->db, db_is_postgresql(s->db) ?
	    "SELECT cs_approval_insert(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)" :
	    "INSERT INTO approval (approval_id, action_id,"
	    " operator_login, operator_uid, approved_at, reason, needed, have,"
	    " audit_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", DB_WRITES,
	    &stmt) != DB_OK)
		return store_error(s, err, "recording an approval");
	db_bind_text(stmt, 1, row->approval_id, -1, DB_STATIC);
	db_bind_text(stmt, 2, action_id, -1, DB_STATIC);
	db_bind_text(stmt, 3, row->operator_login, -1, DB_STATIC);
	db_bind_int64(stmt, 4, row->operator_uid);
	db_bind_text(stmt, 5, row->approved_at, -1, DB_STATIC);
	if (row->reason != NULL)
		db_bind_text(stmt, 6, row->reason, -1, DB_STATIC);
	else
		db_bind_null(stmt, 6);
	db_bind_int64(stmt, 7, row->needed);
	db_bind_int64(stmt, 8, row->have);
	db_bind_int64(stmt, 9, row->audit_seq);
	rc = db_step(stmt);
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, "recording an approval");
}

/*
 * audit verify (SPEC 14, as SPEC v2 6 for decision rows): the approval
 * row of an approval record says what the record says, column by
 * column, and a decision's "approvals" are approvals of its action.
 */
int
store_approval_check_open(struct store *s, struct record_rows **out,
    struct error *err)
{
	return record_rows_open(s, "SELECT action_id, operator_login,"
	    " operator_uid, approved_at, reason, needed, have, audit_seq"
	    " FROM approval WHERE approval_id = ?1", "reading the approvals",
	    out, err);
}

/* The row of approval_id; which column disagrees, or NULL when none. */
static const char *
row_disagrees(struct record_rows *c, const char *approval_id,
    const char *action_id, long long seq, const cJSON *record, bool whole,
    int *status)
{
	const cJSON *quorum = cJSON_GetObjectItemCaseSensitive(record,
	    "quorum");
	db_stmt *row = c->by_id;
	const char *bad = NULL;
	int rc;

	db_reset(row);
	db_bind_text(row, 1, approval_id, -1, DB_TRANSIENT);
	rc = db_step(row);
	if (rc != DB_ROW) {
		if (rc != DB_DONE)
			*status = EXIT_STORAGE;
		db_reset(row);
		return "no approval row";
	}
	if (!row_text_is(row, 0, action_id))
		bad = "action_id";
	else if (whole && !row_text_is(row, 1, record_text(record, "operator",
	    "login")))
		bad = "operator_login";
	else if (whole && !row_number_is(row, 2, cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(record, "operator"), "uid")))
		bad = "operator_uid";
	else if (whole && !row_text_is(row, 3, record_text(record,
	    "decided_at", NULL)))
		bad = "approved_at";
	else if (whole && !row_text_is(row, 4, record_text(record, "reason",
	    NULL)))
		bad = "reason";
	else if (whole && (!row_number_is(row, 5,
	    cJSON_GetObjectItemCaseSensitive(quorum, "needed")) ||
	    !row_number_is(row, 6, cJSON_GetObjectItemCaseSensitive(quorum,
	    "have"))))
		bad = "quorum";
	else if (whole ? db_column_int64(row, 7) != seq :
	    db_column_int64(row, 7) >= seq)
		bad = "audit_seq";
	db_reset(row);
	return bad;
}

int
store_approval_check_record(struct record_rows *c, long long seq,
    const cJSON *record, char *problem, size_t size)
{
	const char *event = record_text(record, "event", NULL);
	const char *action_id = record_text(record, "action_id", NULL);
	const char *id, *bad;
	const cJSON *approvals, *item;
	int status = 0;

	problem[0] = '\0';
	if (event == NULL || action_id == NULL)
		return 0;
	if (strcmp(event, "approval") == 0) {
		c->seen++;
		id = record_text(record, "approval_id", NULL);
		bad = id == NULL ? "approval_id" : row_disagrees(c, id,
		    action_id, seq, record, true, &status);
		if (bad != NULL)
			snprintf(problem, size, "the approval row of action "
			    "%.200s does not match its approval record (%s)",
			    action_id, bad);
		return status;
	}
	approvals = cJSON_GetObjectItemCaseSensitive(record, "approvals");
	if (strcmp(event, "decision") != 0 || approvals == NULL)
		return 0;
	/* Earlier approvals of the same action, each recorded before it. */
	cJSON_ArrayForEach(item, approvals) {
		bad = !cJSON_IsString(item) ? "approvals" :
		    row_disagrees(c, item->valuestring, action_id, seq, record,
		    false, &status);
		if (bad != NULL) {
			snprintf(problem, size, "the decision record of action "
			    "%.200s names an approval that is not one of its "
			    "earlier approvals (%s)", action_id, bad);
			break;
		}
	}
	return status;
}

int
store_approval_check_finish(struct store *s, struct record_rows *c,
    char *problem, size_t size, struct error *err)
{
	long long rows;
	int rc;

	problem[0] = '\0';
	if ((rc = record_rows_count(s, "SELECT count(*) FROM approval",
	    "counting the approvals", &rows, err)) != 0)
		return rc;
	if (rows != c->seen)
		snprintf(problem, size, "%lld approval row(s) but %lld approval "
		    "record(s)", rows, c->seen);
	return 0;
}

int
store_approval_record(struct store *s, const char *approval_id,
    char **record_json, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*record_json = NULL;
	if (db_prepare(s->db, "SELECT l.record_json FROM approval p"
	    " JOIN audit_log l ON l.seq = p.audit_seq"
	    " WHERE p.approval_id = ?1", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading an approval record");
	db_bind_text(stmt, 1, approval_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW && db_column_type(stmt, 0) == DB_TEXT &&
	    (*record_json = strdup((const char *)db_column_text(stmt,
	    0))) == NULL)
		rc = DB_NOMEM;
	db_finalize(stmt);
	if (rc == DB_NOMEM)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading an approval record");
	return 0;
}
