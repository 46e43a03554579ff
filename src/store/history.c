/*
 * The history of decisions: their audit records, newest first, a page
 * at a time from the whole log, and searched in the store, so that the
 * review screens neither hold the log nor search only what they hold.
 */
#include "config.h"

#include <string.h>

#include "store_internal.h"

/*
 * A decision's record joined to its row: the decision table has one row
 * per decision record (audit verify holds them to it), and partial
 * approvals under a quorum are not decisions.
 */
#define HISTORY_FROM " FROM decision d JOIN audit_log a ON a.seq = d.audit_seq"
/* A search may test the decided action's packet too (the limit's user, ticker, value). */
#define SEARCH_FROM HISTORY_FROM " JOIN action x ON x.action_id = d.action_id"

static int
count_all(struct store *s, long *total, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (db_prepare(s->db, "SELECT count(*) FROM decision", DB_READS,
	    &stmt) != DB_OK)
		return store_error(s, err, "counting the decisions");
	rc = db_step(stmt);
	if (rc == DB_ROW)
		*total = (long)db_column_int64(stmt, 0);
	db_finalize(stmt);
	return rc == DB_ROW ? 0 : store_error(s, err,
	    "counting the decisions");
}

/*
 * The text narrows in SQL only where it must appear in the record's JSON
 * as typed: not across fields (a space) nor where JSON escapes it.
 */
static bool
narrows_in_sql(const char *text)
{
	return text != NULL && *text != '\0' && strpbrk(text, " \"\\") == NULL;
}

int
store_history_page(struct store *s, const char *text, long offset,
    long limit, bool (*keep)(void *ctx, const char *record,
    const char *packet),
    int (*fn)(void *ctx, long long seq, const char *record,
    const char *hash), void *ctx, long *total, struct error *err)
{
	bool searching = keep != NULL;
	const char *record, *hash, *packet;
	db_stmt *stmt;
	long shown = 0;
	int rc;

	*total = 0;
	if (!searching && (rc = count_all(s, total, err)) != 0)
		return rc;
	if (db_prepare(s->db, !searching ?
	    "SELECT a.seq, a.record_json, a.hash" HISTORY_FROM
	    " ORDER BY d.audit_seq DESC LIMIT ?1 OFFSET ?2" :
	    narrows_in_sql(text) ?
	    "SELECT a.seq, a.record_json, a.hash, x.raw_json" SEARCH_FROM
	    " WHERE instr(lower(a.record_json), lower(?1)) > 0"
	    " ORDER BY d.audit_seq DESC" :
	    "SELECT a.seq, a.record_json, a.hash, x.raw_json" SEARCH_FROM
	    " ORDER BY d.audit_seq DESC", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading the history");
	if (!searching) {
		db_bind_int64(stmt, 1, limit);
		db_bind_int64(stmt, 2, offset);
	} else if (narrows_in_sql(text))
		db_bind_text(stmt, 1, text, -1, DB_STATIC);
	while ((rc = db_step(stmt)) == DB_ROW) {
		record = (const char *)db_column_text(stmt, 1);
		hash = (const char *)db_column_text(stmt, 2);
		if (record == NULL)
			record = "";
		if (searching) {
			/* Every match is counted; those in the page shown. */
			packet = (const char *)db_column_text(stmt, 3);
			if (!keep(ctx, record, packet != NULL ? packet : ""))
				continue;
			if ((*total)++ < offset || shown >= limit)
				continue;
		}
		shown++;
		if ((rc = fn(ctx, db_column_int64(stmt, 0), record,
		    hash != NULL ? hash : "")) != 0) {
			db_finalize(stmt);
			return rc;
		}
	}
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, "reading the history");
}
