/*
 * The store's one connection: each call goes to the backend's table of
 * operations (db.h), filled in by db_sqlite.c for a file and by pg_ops.c
 * for a postgresql:// URI (SPEC v2 10, issue 20).  What both backends
 * share is here, so a backend holds only what is its own.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

bool
db_is_uri(const char *path)
{
	return strncmp(path, "postgresql://", 13) == 0 ||
	    strncmp(path, "postgres://", 11) == 0;
}

bool
db_is_postgresql(const struct db *db)
{
	return db->ops != NULL && strcmp(db->ops->name, "postgresql") == 0;
}

int
db_prepare_rows(struct db *db, const char *into, int ncolumns, int order,
    db_stmt **out)
{
	static const char head[] = "INSERT INTO ", values[] = " VALUES (";
	/* ", ?NNN" a column at most, and the rest. */
	size_t size = sizeof head + strlen(into) + sizeof values +
	    (size_t)ncolumns * 6 + 2;
	char *sql;
	size_t used;
	int i, rc;

	*out = NULL;
	if (ncolumns < 1 || ncolumns > 999)
		return DB_ERROR;
	if ((sql = malloc(size)) == NULL)
		return DB_NOMEM;
	used = (size_t)snprintf(sql, size, "%s%s%s", head, into, values);
	for (i = 1; i <= ncolumns; i++)
		used += (size_t)snprintf(sql + used, size - used, "%s?%d",
		    i > 1 ? ", " : "", i);
	snprintf(sql + used, size - used, ")");
	rc = db_prepare(db, sql, DB_WRITES | DB_KEEP, out);
	free(sql);
	if (rc == DB_OK && (rc = db->ops->rows(*out, ncolumns, order)) !=
	    DB_OK) {
		db_finalize(*out);
		*out = NULL;
	}
	return rc;
}

int
db_prepare(struct db *db, const char *sql, int use, db_stmt **out)
{
	db_stmt *st;
	int rc;

	*out = NULL;
	if ((st = calloc(1, sizeof *st)) == NULL)
		return DB_NOMEM;
	st->db = db;
	if ((rc = db->ops->prepare(db, sql, use, &st->impl)) != DB_OK) {
		free(st);
		return rc;
	}
	*out = st;
	return DB_OK;
}

int
db_prefetch_add(db_stmt *stmt)
{
	return stmt->db->ops->prefetch_add(stmt->db, stmt);
}

int
db_prefetch(struct db *db, db_stmt *const *stmts, int n)
{
	return db->ops->prefetch(db, stmts, n);
}

int
db_stream(db_stmt *st)
{
	return st->db->ops->stream(st);
}

int
db_step(db_stmt *st)
{
	return st->db->ops->step(st);
}

int
db_step_changing(db_stmt *st, int expected)
{
	return st->db->ops->step_changing(st, expected);
}

int
db_reset(db_stmt *st)
{
	return st == NULL ? DB_OK : st->db->ops->reset(st);
}

int
db_clear_bindings(db_stmt *st)
{
	return st->db->ops->clear_bindings(st);
}

void
db_finalize(db_stmt *st)
{
	if (st == NULL)
		return;
	st->db->ops->finalize(st);
	free(st);
}

int
db_bind_parameter_count(db_stmt *st)
{
	return st->db->ops->bind_parameter_count(st);
}

int
db_bind_text(db_stmt *st, int index, const char *text, int length,
    db_destructor destructor)
{
	return st->db->ops->bind_text(st, index, text, length, destructor);
}

int
db_bind_int64(db_stmt *st, int index, long long value)
{
	return st->db->ops->bind_int64(st, index, value);
}

int
db_bind_int(db_stmt *st, int index, int value)
{
	return db_bind_int64(st, index, value);
}

int
db_bind_null(db_stmt *st, int index)
{
	return st->db->ops->bind_null(st, index);
}

const unsigned char *
db_column_text(db_stmt *st, int column)
{
	return st->db->ops->column_text(st, column);
}

int
db_column_bytes(db_stmt *st, int column)
{
	return st->db->ops->column_bytes(st, column);
}

long long
db_column_int64(db_stmt *st, int column)
{
	return st->db->ops->column_int64(st, column);
}

int
db_column_int(db_stmt *st, int column)
{
	return (int)db_column_int64(st, column);
}

int
db_column_type(db_stmt *st, int column)
{
	return st->db->ops->column_type(st, column);
}

const void *
db_column_blob(db_stmt *st, int column)
{
	return st->db->ops->column_blob(st, column);
}

struct db *
db_handle(db_stmt *st)
{
	return st->db;
}

int
db_exec(struct db *db, const char *sql)
{
	return db->ops->exec(db, sql);
}

const char *
db_errmsg(struct db *db)
{
	return db->ops->errmsg(db);
}

bool
db_in_transaction(struct db *db)
{
	return db->ops->in_transaction(db);
}

int
db_begin_write(struct db *db)
{
	return db->ops->begin_write(db);
}

int
db_begin_read(struct db *db)
{
	return db->ops->begin_read(db);
}

int
db_commit(struct db *db)
{
	return db->ops->commit(db);
}

int
db_rollback(struct db *db)
{
	return db->ops->rollback(db);
}

int
db_batch_begin(struct db *db)
{
	return db->ops->batch_begin(db);
}

int
db_batch_end(struct db *db)
{
	return db->ops->batch_end(db);
}

int
db_data_version(struct db *db, long long *version)
{
	return db->ops->data_version(db, version);
}

void
db_close(struct db *db)
{
	/* A store whose open failed half way has no backend yet. */
	if (db->ops != NULL)
		db->ops->close(db);
	db->ops = NULL;
	db->conn = NULL;
}

int
db_listen(struct db *db, const char *channel)
{
	return db->ops->listen(db, channel);
}

int
db_notify(struct db *db, const char *channel)
{
	return db->ops->notify(db, channel);
}

int
db_watch_fd(struct db *db)
{
	return db->ops->watch_fd(db);
}

int
db_notified(struct db *db, bool *any)
{
	*any = false;
	return db->ops->notified(db, any);
}
