/*
 * The PostgreSQL backend's table of operations (db.h): each entry hands
 * the store's call to pg_db.c or pg_pipeline.c, and does here the little
 * that libpq's text protocol needs and SQLite does not (integers bound
 * and read as text, NOTIFY as a statement).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_internal.h"

static int
ops_prepare(struct db *db, const char *sql, int use, void **impl)
{
	struct pg_stmt *st = NULL;
	int rc = pg_prepare(db, sql, use, &st);

	*impl = st;
	return rc;
}

static int
ops_reset(db_stmt *st)
{
	pg_reset(pg_stmt_of(st));
	return DB_OK;
}

static int
ops_clear_bindings(db_stmt *st)
{
	pg_clear_bindings(pg_stmt_of(st));
	return DB_OK;
}

static void
ops_finalize(db_stmt *st)
{
	pg_finalize(pg_stmt_of(st));
}

static int
ops_rows(db_stmt *st, int ncolumns, int order)
{
	return pg_rows(pg_stmt_of(st), ncolumns, order);
}

static int
ops_bind_parameter_count(db_stmt *st)
{
	return pg_parameter_count(pg_stmt_of(st));
}

/* libpq copies what it sends, so every lifetime is as good as another. */
static int
ops_bind_text(db_stmt *st, int index, const char *text, int length,
    db_destructor destructor)
{
	(void)destructor;
	if (text == NULL)
		return pg_bind(st->db, pg_stmt_of(st), index, NULL, 0);
	return pg_bind(st->db, pg_stmt_of(st), index, text,
	    length < 0 ? (int)strlen(text) : length);
}

static int
ops_bind_int64(db_stmt *st, int index, long long value)
{
	char text[24];
	int n = snprintf(text, sizeof text, "%lld", value);

	return pg_bind(st->db, pg_stmt_of(st), index, text, n);
}

static int
ops_bind_null(db_stmt *st, int index)
{
	return pg_bind(st->db, pg_stmt_of(st), index, NULL, 0);
}

static const unsigned char *
ops_column_text(db_stmt *st, int column)
{
	return (const unsigned char *)pg_column_text(pg_stmt_of(st), column);
}

static int
ops_column_bytes(db_stmt *st, int column)
{
	return pg_column_bytes(pg_stmt_of(st), column);
}

static long long
ops_column_int64(db_stmt *st, int column)
{
	const char *text = pg_column_text(pg_stmt_of(st), column);

	if (text == NULL)
		return 0;
	/* A comparison comes back as a boolean, where SQLite gives 1 or 0. */
	if (strcmp(text, "t") == 0)
		return 1;
	return strtoll(text, NULL, 10);
}

static int
ops_column_type(db_stmt *st, int column)
{
	return pg_column_type(pg_stmt_of(st), column);
}

static const void *
ops_column_blob(db_stmt *st, int column)
{
	return pg_column_blob(pg_stmt_of(st), column);
}

static int
ops_stream(db_stmt *st)
{
	return pg_stream_mark(pg_stmt_of(st));
}

static const char *
ops_errmsg(struct db *db)
{
	return pg_errmsg(pg_conn_of(db));
}

static bool
ops_in_transaction(struct db *db)
{
	return pg_in_transaction(pg_conn_of(db));
}

static void
ops_close(struct db *db)
{
	pg_close(pg_conn_of(db));
}

static int
ops_notify(struct db *db, const char *channel)
{
	char sql[128];

	snprintf(sql, sizeof sql, "NOTIFY %s", channel);
	return pg_exec(db, sql);
}

static int
ops_watch_fd(struct db *db)
{
	return pg_watch_fd(pg_conn_of(db));
}

static int
ops_notified(struct db *db, bool *any)
{
	return pg_notified(pg_conn_of(db), any);
}

const struct db_ops pg_ops = {
	.name = "postgresql",
	.prepare = ops_prepare,
	.rows = ops_rows,
	.step = pg_step,
	.step_changing = pg_step_changing,
	.reset = ops_reset,
	.clear_bindings = ops_clear_bindings,
	.finalize = ops_finalize,
	.bind_parameter_count = ops_bind_parameter_count,
	.bind_text = ops_bind_text,
	.bind_int64 = ops_bind_int64,
	.bind_null = ops_bind_null,
	.column_text = ops_column_text,
	.column_bytes = ops_column_bytes,
	.column_int64 = ops_column_int64,
	.column_type = ops_column_type,
	.column_blob = ops_column_blob,
	.prefetch = pg_prefetch,
	.prefetch_add = pg_prefetch_add,
	.stream = ops_stream,
	.exec = pg_exec,
	.errmsg = ops_errmsg,
	.in_transaction = ops_in_transaction,
	.begin_write = pg_begin_write,
	.begin_read = pg_begin_read,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.batch_begin = pg_batch_begin,
	.batch_end = pg_batch_end,
	.data_version = pg_data_version,
	.close = ops_close,
	.listen = pg_listen,
	.notify = ops_notify,
	.watch_fd = ops_watch_fd,
	.notified = ops_notified,
};
