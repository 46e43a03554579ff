/*
 * The queue index: one row per checked action with its flags and the
 * sanitized text the queue shows, so that a queue of 100,000 opens by
 * reading one screenful.  Rows are a cache of the re-check, never a
 * substitute for it: opening or deciding an action re-checks it.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"
#include "text.h"

enum queue_flag {
	FLAG_HIGH_STAKES = 1,
	FLAG_LOCAL_FAIL = 2,
	FLAG_DIVERGENT = 4,
	FLAG_LOCKED_OUT = 8,
	FLAG_DEADLOCKED = 16,
	/* What the header and the needs-care filter call needing care. */
	FLAG_NEEDS_CARE = FLAG_LOCAL_FAIL | FLAG_DIVERGENT
};

int
store_policy_epoch(struct store *s, long long *epoch, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*epoch = 0;
	if ((stmt = store_statement(s, SQL_POLICY_EPOCH, err)) == NULL)
		return err->status;
	rc = db_step(stmt);
	if (rc == DB_ROW)
		*epoch = db_column_int64(stmt, 0);
	db_reset(stmt);
	return rc == DB_ROW ? 0 : store_error(s, err,
	    "reading the policy epoch");
}

int
store_queue_mark_touched(struct store *s, const struct loaded_object *o,
    struct error *err)
{
	const char *sql;
	db_stmt *stmt;
	bool pg = db_is_postgresql(s->db);
	int rc;

	/* PostgreSQL: one function of the owner's does each (pg_schema.c, 20). */
	switch (o->type) {
	case OBJECT_IPS:
	case OBJECT_HOLDINGS:
		sql = pg ? "SELECT cs_queue_mark_touched('user', ?1)" :
		    "UPDATE queue_index SET epoch = 0 WHERE action_id IN"
		    " (SELECT action_id FROM action WHERE user_id = ?1"
		    "  AND kind = 'trade')";
		break;
	case OBJECT_SECURITY_MAP:
		sql = pg ? "SELECT cs_queue_mark_touched('trade', NULL)" :
		    "UPDATE queue_index SET epoch = 0 WHERE kind = 'trade'";
		break;
	case OBJECT_STANDARDS_INDEX:
		sql = pg ? "SELECT cs_queue_mark_touched('change', NULL)" :
		    "UPDATE queue_index SET epoch = 0 WHERE kind = 'change'";
		break;
	case OBJECT_ROSTER:
		sql = pg ? "SELECT cs_queue_mark_touched('all', NULL)" :
		    "UPDATE queue_index SET epoch = 0";
		break;
	default:
		return 0;
	}
	if (db_prepare(s->db, sql, DB_WRITES, &stmt) != DB_OK)
		return store_error(s, err, "marking queue rows stale");
	if (db_bind_parameter_count(stmt) > 0)
		db_bind_text(stmt, 1, o->user_id, -1, DB_STATIC);
	rc = db_step(stmt);
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err,
	    "marking queue rows stale");
}

int
store_queue_mark_stale(struct store *s, const char *action_id,
    struct error *err)
{
	db_stmt *mark;
	int rc;

	if ((mark = store_statement(s, SQL_QUEUE_MARK_STALE, err)) == NULL)
		return err->status;
	db_bind_text(mark, 1, action_id, -1, DB_STATIC);
	rc = db_step(mark);
	db_reset(mark);
	return rc == DB_DONE ? 0 : store_error(s, err, "marking a queue row");
}

void
store_decided_free(struct store_decided *d)
{
	size_t i;

	free(d->label);
	for (i = 0; i < d->revision_count; i++)
		free(d->revisions[i]);
	free(d->revisions);
	memset(d, 0, sizeof *d);
}

/* The actions naming action_id revision_of, into d. */
static int
read_revisions(struct store *s, const char *action_id,
    struct store_decided *d, struct error *err)
{
	db_stmt *stmt;
	char **more, *id;
	size_t room = 0;
	int rc;

	if (store_fresh_unnamed(s, action_id))
		return 0;
	if ((stmt = store_statement(s, SQL_REVISIONS_OF, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	while ((rc = db_step(stmt)) == DB_ROW) {
		/* Room doubles, not grows by one (10,000 siblings). */
		if (d->revision_count == room) {
			room = room == 0 ? 4 : room * 2;
			if ((more = realloc(d->revisions, room *
			    sizeof *more)) == NULL)
				break;
			d->revisions = more;
		}
		if ((id = text_copy((const char *)db_column_text(stmt,
		    0))) == NULL)
			break;
		d->revisions[d->revision_count++] = id;
	}
	if (rc == DB_ROW) {
		db_reset(stmt);
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	db_reset(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, "reading revisions");
}

int
store_queue_mark_revisions(struct store *s, const char *action_id,
    struct error *err)
{
	struct store_decided d;
	int rc;

	memset(&d, 0, sizeof d);
	if ((rc = read_revisions(s, action_id, &d, err)) == 0)
		rc = store_queue_mark_each(s, &d, err);
	store_decided_free(&d);
	return rc;
}

int
store_queue_mark_each(struct store *s, const struct store_decided *d,
    struct error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < d->revision_count; i++)
		rc = store_queue_mark_stale(s, d->revisions[i], err);
	return rc;
}

int
store_queue_each_stale(struct store *s, long long now_ms,
    int (*fn)(void *ctx, const char *action_id), void *ctx, struct error *err)
{
	db_stmt *stmt;
	char **ids = NULL, **grown;
	size_t count = 0, i;
	int rc = 0;

	/*
	 * Both halves use an index: rows checked under an older policy, and
	 * rows whose expiry has passed since they were checked.  Collected
	 * first: fn writes rows, which must not disturb the scan.  "epoch <>"
	 * would scan the whole table; two ranges each use the index.
	 */
	if (db_prepare(s->db, "WITH e AS (SELECT value FROM meta"
	    " WHERE key = 'policy_epoch') SELECT action_id FROM queue_index"
	    " WHERE epoch < (SELECT value FROM e) OR epoch > (SELECT value"
	    " FROM e) UNION SELECT action_id FROM queue_index WHERE expires_at_ms"
	    " IS NOT NULL AND expires_at_ms <= ?1 AND care >= 0", DB_READS,
	    &stmt) != DB_OK)
		return store_error(s, err, "finding stale queue rows");
	db_bind_int64(stmt, 1, now_ms);
	while ((rc = db_step(stmt)) == DB_ROW) {
		grown = realloc(ids, (count + 1) * sizeof *ids);
		if (grown == NULL)
			break;
		ids = grown;
		if ((ids[count] = text_copy((const char *)
		    db_column_text(stmt, 0))) == NULL)
			break;
		count++;
	}
	db_finalize(stmt);
	if (rc != DB_DONE)
		rc = rc == DB_ROW ? error_set(err, EXIT_STORAGE, NULL,
		    "out of memory") : store_error(s, err,
		    "finding stale queue rows");
	else
		rc = 0;
	for (i = 0; i < count; i++) {
		if (rc == 0)
			rc = fn(ctx, ids[i]);
		free(ids[i]);
	}
	free(ids);
	return rc;
}

/*
 * Moves the header's totals (schema 5) by one row's change: present is -1
 * for a row removed, 0 for one rewritten, 1 for one added.  Inside a
 * transaction the change is kept until its commit writes it.
 */
static int
totals_add(struct store *s, int present, unsigned old_flags,
    unsigned new_flags, struct error *err)
{
	struct queue_totals_change *c = &s->totals_change;

	c->pending += present;
	c->high_stakes += ((new_flags & FLAG_HIGH_STAKES) != 0) -
	    ((old_flags & FLAG_HIGH_STAKES) != 0);
	c->needs_care += ((new_flags & FLAG_NEEDS_CARE) != 0) -
	    ((old_flags & FLAG_NEEDS_CARE) != 0);
	return s->in_transaction ? 0 : store_queue_totals_flush(s, err);
}

int
store_queue_totals_flush(struct store *s, struct error *err)
{
	struct queue_totals_change *c = &s->totals_change;
	db_stmt *stmt;
	int rc;

	if (c->pending == 0 && c->high_stakes == 0 && c->needs_care == 0)
		return 0;
	if ((stmt = store_statement(s, SQL_QUEUE_TOTALS_ADD, err)) == NULL)
		return err->status;
	db_bind_int64(stmt, 1, c->pending);
	db_bind_int64(stmt, 2, c->high_stakes);
	db_bind_int64(stmt, 3, c->needs_care);
	rc = db_step(stmt);
	db_reset(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, "counting the queue");
	memset(c, 0, sizeof *c);
	return 0;
}

/* Whether the action has a queue row, and its flags if so. */
static int
row_flags(struct store *s, const char *action_id, bool *present,
    unsigned *flags, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*present = false;
	*flags = 0;
	if (store_fresh_unqueued(s, action_id))
		return 0;
	if ((stmt = store_statement(s, SQL_QUEUE_FLAGS, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		*present = true;
		*flags = (unsigned)db_column_int(stmt, 0);
	}
	db_reset(stmt);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
	    store_error(s, err, "reading the queue");
}

int
store_queue_put(struct store *s, const struct queue_row *row, long long epoch,
    struct error *err)
{
	db_stmt *stmt;
	unsigned flags = (row->high_stakes ? FLAG_HIGH_STAKES : 0) |
	    (row->local_fail ? FLAG_LOCAL_FAIL : 0) |
	    (row->divergent ? FLAG_DIVERGENT : 0) |
	    (row->locked_out ? FLAG_LOCKED_OUT : 0) |
	    (row->deadlocked ? FLAG_DEADLOCKED : 0), old_flags;
	/* Expired actions sink below everything; they cannot be approved. */
	int care = row->expired ? -1 : row->local_fail || row->divergent ? 2 :
	    row->high_stakes ? 1 : 0, rc;
	bool existed;

	if ((rc = row_flags(s, row->action_id, &existed, &old_flags, err)) != 0)
		return rc;
	if ((stmt = store_statement(s, existed ? SQL_QUEUE_PUT :
	    SQL_QUEUE_INSERT, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, row->action_id, -1, DB_STATIC);
	db_bind_int64(stmt, 2, epoch);
	db_bind_int(stmt, 3, care);
	db_bind_int(stmt, 4, (int)flags);
	db_bind_text(stmt, 5, row->who, -1, DB_STATIC);
	db_bind_text(stmt, 6, row->summary, -1, DB_STATIC);
	db_bind_text(stmt, 7, row->advisory, -1, DB_STATIC);
	db_bind_int64(stmt, 8, (long long)row->divergence_count);
	db_bind_text(stmt, 9, row->kind, -1, DB_STATIC);
	db_bind_int64(stmt, 10, row->imported_at_ms);
	if (row->has_expiry)
		db_bind_int64(stmt, 11, row->expires_at_ms);
	db_bind_text(stmt, 12, row->requester ? row->requester : "", -1,
	    DB_STATIC);
	db_bind_text(stmt, 13, row->author ? row->author : "", -1,
	    DB_STATIC);
	if (row->has_drafted)
		db_bind_int64(stmt, 14, row->drafted_at_ms);
	/* NULL (a row list checks again) when the caller built none. */
	if (row->listed != NULL)
		db_bind_text(stmt, 15, row->listed, -1, DB_STATIC);
	rc = db_step(stmt);
	db_reset(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, "indexing the queue");
	store_fresh_queued(s, row->action_id);
	return totals_add(s, existed ? 0 : 1, old_flags, flags, err);
}

/*
 * A decision changes what the lockout rule says of the other versions
 * of the action (SPEC 2.4): their rows are checked again, as after a
 * policy import, by the next refresh.  before is what the decision read
 * first (store_decided_read()).
 */
int
store_queue_remove(struct store *s, const char *action_id,
    const struct store_decided *before, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (!before->queued)
		return 0;
	/* On PostgreSQL the decision's own function took it out (23). */
	if (!db_is_postgresql(s->db)) {
		if ((stmt = store_statement(s, SQL_QUEUE_REMOVE, err)) == NULL)
			return err->status;
		db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
		rc = db_step(stmt);
		db_reset(stmt);
		if (rc != DB_DONE)
			return store_error(s, err,
			    "taking an action out of the queue");
	}
	if ((rc = store_artifact_mark_stale(s, action_id, before->label,
	    err)) != 0)
		return rc;
	return totals_add(s, -1, before->flags, 0, err);
}

int
store_decided_read(struct store *s, const char *action_id,
    struct store_decided *d, struct error *err)
{
	int rc;

	memset(d, 0, sizeof *d);
	if ((rc = row_flags(s, action_id, &d->queued, &d->flags, err)) != 0 ||
	    (rc = store_artifact_label(s, action_id, &d->label, err)) != 0 ||
	    (rc = read_revisions(s, action_id, d, err)) != 0)
		store_decided_free(d);
	return rc;
}

/* An action past its expires_at (?1 is now). */
/* As the gate counts it (decide.c): its own millisecond has passed. */
#define EXPIRED_SQL "(q.expires_at_ms IS NOT NULL AND q.expires_at_ms <= ?1)"

/*
 * The query's text: ?1 now, ?2 the search (only when there is one), and
 * for a page ?3 LIMIT and ?4 OFFSET (tail NULL); a count passes tail "".
 * Every order has an index, so a page of a long queue reads a page of rows.
 */
static void
query_sql(const struct queue_query *q, const char *select, const char *tail,
    char *buf, size_t size)
{
	static const char *const filters[QUEUE_FILTER_COUNT] = {
		[QUEUE_ALL] = "",
		[QUEUE_NEEDS_CARE] = " AND (q.flags & 6) <> 0",
		[QUEUE_ADVISORY_PASS_LOCAL_FAIL] =
		    " AND q.advisory = 'pass' AND (q.flags & 2) <> 0",
		[QUEUE_HIGH_STAKES] = " AND (q.flags & 1) <> 0",
		[QUEUE_CLEAN] = " AND (q.flags & 7) = 0 AND NOT " EXPIRED_SQL,
	};
	static const char *const orders[QUEUE_SORT_COUNT] = {
		[QUEUE_BY_CARE] = " ORDER BY q.care DESC, q.imported_at_ms",
		[QUEUE_OLDEST] = " ORDER BY q.imported_at_ms",
		[QUEUE_NEWEST] = " ORDER BY q.imported_at_ms DESC",
		[QUEUE_BY_KIND] = " ORDER BY q.kind, q.action_id",
	};

	/*
	 * Without a search the rows' text is not read at all, so a count
	 * can use an index instead of the table's wide rows.
	 */
	snprintf(buf, size, "%s FROM queue_index q WHERE %s%s%s", select,
	    q->search != NULL && *q->search != '\0' ?
	    "instr(lower(q.action_id || ' ' || q.who || ' ' || q.requester ||"
	    " ' ' || q.author || ' ' || q.kind || ' ' || q.summary),"
	    " lower(?2)) > 0" : "TRUE", filters[q->filter],
	    tail != NULL ? tail : orders[q->sort]);
	if (tail == NULL)
		snprintf(buf + strlen(buf), size - strlen(buf),
		    " LIMIT ?3 OFFSET ?4");
}

static int
prepare(struct store *s, const struct queue_query *q, const char *select,
    const char *tail, db_stmt **stmt, struct error *err)
{
	char sql[1536];

	query_sql(q, select, tail, sql, sizeof sql);
	if (db_prepare(s->db, sql, DB_READS, stmt) != DB_OK)
		return store_error(s, err, "reading the queue");
	db_bind_int64(*stmt, 1, q->now_ms);
	if (q->search != NULL && *q->search != '\0')
		db_bind_text(*stmt, 2, q->search, -1, DB_STATIC);
	return 0;
}

int
store_queue_count(struct store *s, const struct queue_query *q, long *count,
    struct error *err)
{
	db_stmt *stmt;
	int rc;

	*count = 0;
	if ((rc = prepare(s, q, "SELECT count(*)", "", &stmt, err)) != 0)
		return rc;
	rc = db_step(stmt);
	if (rc == DB_ROW)
		*count = (long)db_column_int64(stmt, 0);
	db_finalize(stmt);
	return rc == DB_ROW ? 0 : store_error(s, err, "counting the queue");
}

/*
 * Three figures from a statement's first row: the totals, counted or
 * kept; *found false when it has none (the kept row deleted by hand).
 */
static int
totals_from(struct store *s, const char *sql, struct queue_totals_change *t,
    bool *found, struct error *err)
{
	db_stmt *stmt;
	int rc;

	memset(t, 0, sizeof *t);
	*found = false;
	if (db_prepare(s->db, sql, DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "counting the queue");
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		*found = true;
		t->pending = (long)db_column_int64(stmt, 0);
		t->high_stakes = (long)db_column_int64(stmt, 1);
		t->needs_care = (long)db_column_int64(stmt, 2);
	}
	db_finalize(stmt);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
	    store_error(s, err, "counting the queue");
}

#define KEPT_SQL "SELECT pending, high_stakes, needs_care FROM queue_totals"
#define COUNTED_SQL "SELECT count(*), coalesce(sum((flags & 1) <> 0), 0)," \
	" coalesce(sum((flags & 6) <> 0), 0) FROM queue_index"

int
store_queue_totals(struct store *s, long *pending, long *high_stakes,
    long *needs_care, struct error *err)
{
	struct queue_totals_change t;
	bool found;
	int rc;

	*pending = *high_stakes = *needs_care = 0;
	/* Kept as rows change (schema 5): as quick at 100 pending as 100,000. */
	if ((rc = totals_from(s, KEPT_SQL, &t, &found, err)) != 0)
		return rc;
	if (!found) {
		if ((rc = totals_from(s, COUNTED_SQL, &t, &found, err)) != 0)
			return rc;
	} else {
		/* With what this connection's open transaction changed. */
		t.pending += s->totals_change.pending;
		t.high_stakes += s->totals_change.high_stakes;
		t.needs_care += s->totals_change.needs_care;
	}
	*pending = t.pending;
	*high_stakes = t.high_stakes;
	*needs_care = t.needs_care;
	return 0;
}

static bool
totals_equal(const struct queue_totals_change *a,
    const struct queue_totals_change *b)
{
	return a->pending == b->pending && a->high_stakes == b->high_stakes &&
	    a->needs_care == b->needs_care;
}

/*
 * Kept totals drift only when rows change behind store_queue_put() and
 * store_queue_remove(): a countersign from before schema 5 still running
 * on a database another one migrated, or a hand at the sqlite3 prompt.
 * Counting is what the kept totals save the first screen, so the review
 * screens ask for this once the first screen is up.
 */
int
store_queue_totals_repair(struct store *s, bool *repaired, struct error *err)
{
	struct queue_totals_change kept, counted;
	bool found, counted_found;
	db_stmt *stmt;
	int rc;

	*repaired = false;
	if ((rc = totals_from(s, KEPT_SQL, &kept, &found, err)) != 0 ||
	    (rc = totals_from(s, COUNTED_SQL, &counted, &counted_found,
	    err)) != 0)
		return rc;
	if (found && totals_equal(&kept, &counted))
		return 0;
	/* Counted again under the write lock: no decision lands between. */
	if ((rc = store_begin(s, err)) != 0)
		return rc;
	if ((rc = totals_from(s, COUNTED_SQL, &counted, &counted_found,
	    err)) != 0)
		goto fail;
	if (db_prepare(s->db, db_is_postgresql(s->db) ?
	    "SELECT cs_queue_totals_set(?1, ?2, ?3)" :
	    "INSERT INTO queue_totals VALUES"
	    " (1, ?1, ?2, ?3) ON CONFLICT (id) DO UPDATE SET"
	    " pending = excluded.pending, high_stakes = excluded.high_stakes,"
	    " needs_care = excluded.needs_care", DB_WRITES, &stmt) !=
	    DB_OK) {
		rc = store_error(s, err, "counting the queue");
		goto fail;
	}
	db_bind_int64(stmt, 1, counted.pending);
	db_bind_int64(stmt, 2, counted.high_stakes);
	db_bind_int64(stmt, 3, counted.needs_care);
	rc = db_step(stmt);
	db_finalize(stmt);
	if (rc != DB_DONE) {
		rc = store_error(s, err, "counting the queue");
		goto fail;
	}
	if ((rc = store_commit(s, err)) != 0)
		return rc;
	*repaired = true;
	return 0;
fail:
	store_rollback(s);
	return rc;
}

int
store_queue_page(struct store *s, const struct queue_query *q, long offset,
    long limit, struct queue_row *rows, long *got, struct error *err)
{
	db_stmt *stmt;
	struct queue_row *row;
	unsigned flags;
	int rc;

	*got = 0;
	if ((rc = prepare(s, q, "SELECT q.action_id, q.kind, q.flags, q.who,"
	    " q.summary, q.advisory, q.divergence_count, q.imported_at_ms,"
	    " q.expires_at_ms, q.requester, q.author, q.drafted_at_ms,"
	    " (SELECT count(*) FROM approval p WHERE p.action_id = q.action_id),"
	    " (SELECT max(p.needed) FROM approval p"
	    "  WHERE p.action_id = q.action_id)", NULL,
	    &stmt, err)) != 0)
		return rc;
	db_bind_int64(stmt, 3, limit);
	db_bind_int64(stmt, 4, offset);
	while (*got < limit && (rc = db_step(stmt)) == DB_ROW) {
		row = &rows[*got];
		memset(row, 0, sizeof *row);
		snprintf(row->action_id, sizeof row->action_id, "%s",
		    (const char *)db_column_text(stmt, 0));
		snprintf(row->kind, sizeof row->kind, "%s",
		    (const char *)db_column_text(stmt, 1));
		snprintf(row->status, sizeof row->status, "pending");
		flags = (unsigned)db_column_int(stmt, 2);
		row->high_stakes = flags & FLAG_HIGH_STAKES;
		row->local_fail = flags & FLAG_LOCAL_FAIL;
		row->divergent = flags & FLAG_DIVERGENT;
		row->locked_out = flags & FLAG_LOCKED_OUT;
		row->deadlocked = flags & FLAG_DEADLOCKED;
		row->who = text_copy((const char *)db_column_text(stmt, 3));
		row->summary = text_copy((const char *)
		    db_column_text(stmt, 4));
		row->advisory = strcmp((const char *)db_column_text(stmt,
		    5), "pass") == 0 ? "pass" : strcmp((const char *)
		    db_column_text(stmt, 5), "fail") == 0 ? "fail" : "n/a";
		row->divergence_count = (size_t)db_column_int64(stmt, 6);
		row->imported_at_ms = db_column_int64(stmt, 7);
		row->has_expiry = db_column_type(stmt, 8) != DB_NULL;
		row->expires_at_ms = db_column_int64(stmt, 8);
		row->expired = row->has_expiry && q->now_ms >= row->expires_at_ms;
		row->requester = text_copy((const char *)
		    db_column_text(stmt, 9));
		row->author = text_copy((const char *)
		    db_column_text(stmt, 10));
		row->has_drafted = db_column_type(stmt, 11) != DB_NULL;
		row->drafted_at_ms = db_column_int64(stmt, 11);
		row->approvals = db_column_int(stmt, 12);
		row->quorum_needed = db_column_int(stmt, 13);
		if (row->expired)
			snprintf(row->status, sizeof row->status, "expired");
		(*got)++;
	}
	db_finalize(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the queue");
	return 0;
}

/* The index's text of a row, owned; "" for NULL. */
static char *
column_text(db_stmt *stmt, int i, bool *failed)
{
	const char *text = (const char *)db_column_text(stmt, i);
	char *copy = text_copy(text != NULL ? text : "");

	if (copy == NULL)
		*failed = true;
	return copy;
}

/* The index's columns of a row read by store_each_listed(), from 9 on. */
static bool
listed_indexed(db_stmt *stmt, struct queue_row *row)
{
	const char *advisory = (const char *)db_column_text(stmt, 12);
	unsigned flags = (unsigned)db_column_int(stmt, 9);
	bool failed = false;

	row->high_stakes = flags & FLAG_HIGH_STAKES;
	row->local_fail = flags & FLAG_LOCAL_FAIL;
	row->divergent = flags & FLAG_DIVERGENT;
	row->locked_out = flags & FLAG_LOCKED_OUT;
	row->deadlocked = flags & FLAG_DEADLOCKED;
	row->who = column_text(stmt, 10, &failed);
	row->summary = column_text(stmt, 11, &failed);
	row->advisory = advisory == NULL ? "n/a" :
	    strcmp(advisory, "pass") == 0 ? "pass" :
	    strcmp(advisory, "fail") == 0 ? "fail" : "n/a";
	row->divergence_count = (size_t)db_column_int64(stmt, 13);
	row->requester = column_text(stmt, 14, &failed);
	row->author = column_text(stmt, 15, &failed);
	row->has_drafted = db_column_type(stmt, 16) != DB_NULL;
	row->drafted_at_ms = db_column_int64(stmt, 16);
	row->listed = column_text(stmt, 17, &failed);
	return !failed;
}

/* A text column into buf, "" for NULL: list copies five a row. */
static void
column_copy(db_stmt *stmt, int column, char *buf, size_t size)
{
	const char *text = (const char *)db_column_text(stmt, column);

	text_copy_bounded(buf, size, text != NULL ? text : "");
}

#define LISTED_SQL "SELECT a.action_id, a.kind, a.status," \
	" a.imported_at_ms, a.expires_at_ms, a.importer_login," \
	" a.importer_uid, a.importer_via, CASE WHEN q.listed IS NOT NULL" \
	" AND a.status = 'pending' AND q.epoch = (SELECT value FROM meta" \
	" WHERE key = 'policy_epoch') THEN 1 ELSE 0 END, q.flags, q.who," \
	" q.summary, q.advisory, q.divergence_count, q.requester," \
	" q.author, q.drafted_at_ms, q.listed, q.kind, a.raw_json" \
	" FROM action a" \
	" LEFT JOIN queue_index q ON q.action_id = a.action_id"

int
store_each_listed(struct store *s, bool all,
    int (*fn)(void *ctx, struct listed_action *a), void *ctx,
    struct error *err)
{
	struct listed_action a;
	const char *text;
	db_stmt *stmt;
	int rc;

	/*
	 * The action table in store_each_check()'s order, each with its
	 * queue row when that is of the policy epoch in force and has what
	 * list prints (rows indexed before schema 21 have not).  A decided
	 * action has no queue row.  Our own statement: a row checked again
	 * runs other queries on this connection meanwhile.
	 */
	if (db_prepare(s->db, all ? LISTED_SQL " ORDER BY a.imported_at_ms,"
	    " a.rowid" : LISTED_SQL " WHERE a.status = 'pending'"
	    " ORDER BY a.imported_at_ms, a.rowid", DB_READS, &stmt) != DB_OK ||
	    db_stream(stmt) != DB_OK) {
		db_finalize(stmt);
		return store_error(s, err, "listing actions");
	}
	while ((rc = db_step(stmt)) == DB_ROW) {
		memset(&a, 0, sizeof a);
		column_copy(stmt, 0, a.row.action_id, sizeof a.row.action_id);
		column_copy(stmt, 1, a.row.kind, sizeof a.row.kind);
		column_copy(stmt, 2, a.row.status, sizeof a.row.status);
		a.row.imported_at_ms = db_column_int64(stmt, 3);
		a.row.has_expiry = db_column_type(stmt, 4) != DB_NULL;
		a.row.expires_at_ms = db_column_int64(stmt, 4);
		if (db_column_type(stmt, 5) != DB_NULL) {
			column_copy(stmt, 5, a.importer_login,
			    sizeof a.importer_login);
			a.importer_uid = db_column_int64(stmt, 6);
			text = (const char *)db_column_text(stmt, 7);
			a.importer_served = text != NULL &&
			    strcmp(text, "service") == 0;
		}
		a.indexed = db_column_int(stmt, 8) != 0;
		/*
		 * What list holds the index's row to: the kind it was
		 * checked as, and the packet's bytes (their digest is in
		 * the listed part), so that a row changed under the index
		 * is checked again and its fault named (stored_rows.sh).
		 */
		column_copy(stmt, 18, a.indexed_kind, sizeof a.indexed_kind);
		a.packet = (const char *)db_column_text(stmt, 19);
		a.packet_length = a.packet != NULL ?
		    (size_t)db_column_bytes(stmt, 19) : 0;
		if (a.indexed && !listed_indexed(stmt, &a.row)) {
			queue_row_free(&a.row);
			rc = error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
			goto done;
		}
		rc = fn(ctx, &a);
		queue_row_free(&a.row);
		if (rc != 0)
			goto done;
	}
	rc = rc == DB_DONE ? 0 : store_error(s, err, "listing actions");
done:
	db_finalize(stmt);
	return rc;
}

int
store_data_version(struct store *s, long long *version, struct error *err)
{
	*version = 0;
	return db_data_version(s->db, version) == DB_OK ? 0 :
	    store_error(s, err, "reading the data version");
}
