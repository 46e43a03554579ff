/*
 * The product owner's judgments (SPEC 2.3 v3): one row per NEEDS-PO
 * criterion judged, the first judgment of a criterion being the one kept.
 * Read and written inside the deciding transaction, so rule 7 counts the
 * judgments recorded before it under the same write lock.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

void
store_judgments_free(struct judgment_row *rows, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(rows[i].ac_id);
	free(rows);
}

static bool
judgment_take(void *record, db_stmt *stmt)
{
	struct judgment_row *row = record;

	if ((row->ac_id = strdup((const char *)db_column_text(stmt, 0))) ==
	    NULL)
		return false;
	snprintf(row->judgment, sizeof row->judgment, "%s",
	    (const char *)db_column_text(stmt, 1));
	snprintf(row->judgment_id, sizeof row->judgment_id, "%s",
	    (const char *)db_column_text(stmt, 2));
	snprintf(row->operator_login, sizeof row->operator_login, "%s",
	    (const char *)db_column_text(stmt, 3));
	row->operator_uid = db_column_int64(stmt, 4);
	snprintf(row->judged_at, sizeof row->judged_at, "%s",
	    (const char *)db_column_text(stmt, 5));
	row->audit_seq = db_column_int64(stmt, 6);
	return true;
}

static void
judgments_release(void *records, size_t count)
{
	store_judgments_free(records, count);
}

int
store_judgments_of(struct store *s, const char *action_id,
    struct judgment_row **rows, size_t *count, struct error *err)
{
	static const struct rows_spec spec = { SQL_JUDGMENTS_OF,
	    sizeof(struct judgment_row), judgment_take, judgments_release,
	    "reading the judgments" };
	void *read;
	int rc;

	rc = store_rows_read(s, &spec, action_id, &read, count, err);
	*rows = read;
	return rc;
}

int
store_judgments_load(struct store *s, const char *action_id, cJSON **out,
    struct error *err)
{
	struct judgment_row *rows;
	size_t count, i;
	int rc;

	*out = NULL;
	if ((rc = store_judgments_of(s, action_id, &rows, &count, err)) != 0)
		return rc;
	if (count > 0 && (*out = cJSON_CreateObject()) == NULL)
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	for (i = 0; rc == 0 && i < count; i++) {
		if (cJSON_AddStringToObject(*out, rows[i].ac_id,
		    rows[i].judgment) == NULL)
			rc = error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
	}
	store_judgments_free(rows, count);
	if (rc != 0) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	return rc;
}

int
store_judgment_insert(struct store *s, const char *action_id,
    const struct judgment_row *row, struct error *err)
{
	db_stmt *stmt;
	int rc;

	/* PostgreSQL: the owner's function, which checks the record (20). */
	if (db_prepare(s->db, db_is_postgresql(s->db) ?
	    "SELECT cs_judgment_insert(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)" :
	    "INSERT INTO po_judgment (action_id, ac_id,"
	    " judgment, judgment_id, operator_login, operator_uid, judged_at,"
	    " audit_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", DB_WRITES,
	    &stmt) != DB_OK)
		return store_error(s, err, "recording a judgment");
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	db_bind_text(stmt, 2, row->ac_id, -1, DB_STATIC);
	db_bind_text(stmt, 3, row->judgment, -1, DB_STATIC);
	db_bind_text(stmt, 4, row->judgment_id, -1, DB_STATIC);
	db_bind_text(stmt, 5, row->operator_login, -1, DB_STATIC);
	db_bind_int64(stmt, 6, row->operator_uid);
	db_bind_text(stmt, 7, row->judged_at, -1, DB_STATIC);
	db_bind_int64(stmt, 8, row->audit_seq);
	rc = db_step(stmt);
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, "recording a judgment");
}

/*
 * audit verify (as SPEC v2 6 for decision rows): the gate reads these
 * rows, so each must say what its po_judgment record says, and every row
 * must come from one.
 */
int
store_judgment_check_open(struct store *s, struct record_rows **out,
    struct error *err)
{
	return record_rows_open(s, "SELECT action_id, ac_id, judgment,"
	    " operator_login, operator_uid, judged_at, audit_seq"
	    " FROM po_judgment WHERE judgment_id = ?1",
	    "reading the judgments", out, err);
}

/* Which column of a row disagrees with its record, or NULL. */
static const char *
judgment_row_disagrees(db_stmt *row, const cJSON *record, long long seq)
{
	const cJSON *judgments = cJSON_GetObjectItemCaseSensitive(record,
	    "po_judgments");
	const cJSON *uid = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(record, "operator"), "uid");
	const char *ac_id = (const char *)db_column_text(row, 1);

	if (!row_text_is(row, 0, record_text(record, "action_id", NULL)))
		return "action_id";
	if (ac_id == NULL || !row_text_is(row, 2, record_text(judgments, ac_id,
	    NULL)))
		return "judgment";
	if (!row_text_is(row, 3, record_text(record, "operator", "login")))
		return "operator_login";
	if (!row_number_is(row, 4, uid))
		return "operator_uid";
	if (!row_text_is(row, 5, record_text(record, "judged_at", NULL)))
		return "judged_at";
	if (db_column_int64(row, 6) != seq)
		return "audit_seq";
	return NULL;
}

int
store_judgment_check_record(struct record_rows *c, long long seq,
    const cJSON *record, char *problem, size_t size)
{
	const char *event = record_text(record, "event", NULL);
	const char *id = record_text(record, "judgment_id", NULL);
	const char *bad = NULL;
	int rc, status = 0;

	problem[0] = '\0';
	if (event == NULL || strcmp(event, "po_judgment") != 0)
		return 0;
	if (id == NULL) {
		snprintf(problem, size, "a po_judgment record has no "
		    "judgment_id");
		return 0;
	}
	db_reset(c->by_id);
	db_bind_text(c->by_id, 1, id, -1, DB_TRANSIENT);
	while (bad == NULL && (rc = db_step(c->by_id)) == DB_ROW) {
		c->seen++;
		bad = judgment_row_disagrees(c->by_id, record, seq);
	}
	if (bad == NULL && rc != DB_DONE)
		status = EXIT_STORAGE;
	db_reset(c->by_id);
	if (bad != NULL)
		snprintf(problem, size, "a judgment row of action %.200s does "
		    "not match its po_judgment record (%s)",
		    record_text(record, "action_id", NULL) != NULL ?
		    record_text(record, "action_id", NULL) : "?", bad);
	return status;
}

int
store_judgment_check_finish(struct store *s, struct record_rows *c,
    char *problem, size_t size, struct error *err)
{
	long long rows;
	int rc;

	problem[0] = '\0';
	if ((rc = record_rows_count(s, "SELECT count(*) FROM po_judgment",
	    "counting the judgments", &rows, err)) != 0)
		return rc;
	if (rows != c->seen)
		snprintf(problem, size, "%lld judgment row(s) but %lld of them "
		    "in po_judgment records", rows, c->seen);
	return 0;
}
