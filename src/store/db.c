/*
 * The store's one connection: each call goes to SQLite, or to the libpq
 * backend in pg_db.c for a postgresql:// URI (SPEC v2 10, issue 20).
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

int
db_prepare(struct db *db, const char *sql, bool persistent, db_stmt **out)
{
	db_stmt *st;
	int rc;

	*out = NULL;
	if ((st = calloc(1, sizeof *st)) == NULL)
		return DB_NOMEM;
	st->db = db;
	if (db->pg != NULL)
		rc = pg_prepare(db, sql, persistent, &st->pg);
	else
		rc = sqlite3_prepare_v3(db->lite, sql, -1,
		    persistent ? SQLITE_PREPARE_PERSISTENT : 0, &st->lite,
		    NULL);
	if (rc != DB_OK) {
		free(st);
		return rc;
	}
	*out = st;
	return DB_OK;
}

int
db_prefetch(struct db *db, db_stmt *const *stmts, int n)
{
	/* SQLite: a read costs no trip to prefetch. */
	return db->pg != NULL ? pg_prefetch(db, stmts, n) : DB_OK;
}

int
db_step(db_stmt *st)
{
	return st->pg != NULL ? pg_step(st) : sqlite3_step(st->lite);
}

int
db_step_changing(db_stmt *st, int expected)
{
	int rc;

	if (st->pg != NULL)
		return pg_step_changing(st, expected);
	rc = sqlite3_step(st->lite);
	if (rc == DB_DONE && sqlite3_changes(st->db->lite) != expected)
		return DB_MISMATCH;
	return rc;
}

int
db_reset(db_stmt *st)
{
	if (st == NULL)
		return DB_OK;
	if (st->pg != NULL) {
		pg_reset(st->pg);
		return DB_OK;
	}
	return sqlite3_reset(st->lite);
}

int
db_clear_bindings(db_stmt *st)
{
	if (st->pg != NULL) {
		pg_clear_bindings(st->pg);
		return DB_OK;
	}
	return sqlite3_clear_bindings(st->lite);
}

void
db_finalize(db_stmt *st)
{
	if (st == NULL)
		return;
	if (st->pg != NULL)
		pg_finalize(st->pg);
	else
		sqlite3_finalize(st->lite);
	free(st);
}

int
db_bind_parameter_count(db_stmt *st)
{
	return st->pg != NULL ? pg_parameter_count(st->pg) :
	    sqlite3_bind_parameter_count(st->lite);
}

int
db_bind_text(db_stmt *st, int index, const char *text, int length,
    void (*destructor)(void *))
{
	if (st->pg != NULL)
		return text == NULL ? pg_bind(st->db, st->pg, index, NULL, 0) :
		    pg_bind(st->db, st->pg, index, text,
		    length < 0 ? (int)strlen(text) : length);
	return sqlite3_bind_text(st->lite, index, text, length, destructor);
}

int
db_bind_int64(db_stmt *st, int index, long long value)
{
	char text[24];
	int n;

	if (st->pg == NULL)
		return sqlite3_bind_int64(st->lite, index, value);
	n = snprintf(text, sizeof text, "%lld", value);
	return pg_bind(st->db, st->pg, index, text, n);
}

int
db_bind_int(db_stmt *st, int index, int value)
{
	return db_bind_int64(st, index, value);
}

int
db_bind_null(db_stmt *st, int index)
{
	return st->pg != NULL ? pg_bind(st->db, st->pg, index, NULL, 0) :
	    sqlite3_bind_null(st->lite, index);
}

const unsigned char *
db_column_text(db_stmt *st, int column)
{
	return st->pg != NULL ?
	    (const unsigned char *)pg_column_text(st->pg, column) :
	    sqlite3_column_text(st->lite, column);
}

int
db_column_bytes(db_stmt *st, int column)
{
	return st->pg != NULL ? pg_column_bytes(st->pg, column) :
	    sqlite3_column_bytes(st->lite, column);
}

long long
db_column_int64(db_stmt *st, int column)
{
	const char *text;

	if (st->pg == NULL)
		return sqlite3_column_int64(st->lite, column);
	text = pg_column_text(st->pg, column);
	if (text == NULL)
		return 0;
	/* A comparison comes back as a boolean, where SQLite gives 1 or 0. */
	if (strcmp(text, "t") == 0)
		return 1;
	return strtoll(text, NULL, 10);
}

int
db_column_int(db_stmt *st, int column)
{
	return (int)db_column_int64(st, column);
}

int
db_column_type(db_stmt *st, int column)
{
	return st->pg != NULL ? pg_column_type(st->pg, column) :
	    sqlite3_column_type(st->lite, column);
}

const void *
db_column_blob(db_stmt *st, int column)
{
	return st->pg != NULL ? pg_column_blob(st->pg, column) :
	    sqlite3_column_blob(st->lite, column);
}

struct db *
db_handle(db_stmt *st)
{
	return st->db;
}

int
db_exec(struct db *db, const char *sql)
{
	return db->pg != NULL ? pg_exec(db, sql) :
	    sqlite3_exec(db->lite, sql, NULL, NULL, NULL);
}

const char *
db_errmsg(struct db *db)
{
	return db->pg != NULL ? pg_errmsg(db->pg) : sqlite3_errmsg(db->lite);
}

bool
db_in_transaction(struct db *db)
{
	return db->pg != NULL ? pg_in_transaction(db->pg) :
	    sqlite3_get_autocommit(db->lite) == 0;
}

int
db_begin_write(struct db *db)
{
	/*
	 * IMMEDIATE takes the write lock up front: a deferred transaction
	 * that read first would get SQLITE_BUSY_SNAPSHOT at its first
	 * write, with no busy wait at all: SQLite skips the busy handler
	 * where waiting could deadlock.
	 */
	return db->pg != NULL ? pg_begin_write(db) :
	    sqlite3_exec(db->lite, "BEGIN IMMEDIATE", NULL, NULL, NULL);
}

int
db_begin_read(struct db *db)
{
	/* A deferred transaction reads one snapshot of the WAL. */
	return db->pg != NULL ? pg_begin_read(db) :
	    sqlite3_exec(db->lite, "BEGIN", NULL, NULL, NULL);
}

int
db_data_version(struct db *db, long long *version)
{
	sqlite3_stmt *st;
	int rc;

	if (db->pg != NULL)
		return pg_data_version(db, version);
	if ((rc = sqlite3_prepare_v2(db->lite, "PRAGMA data_version", -1, &st,
	    NULL)) != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

void
db_close(struct db *db)
{
	if (db->pg != NULL)
		pg_close(db->pg);
	else if (db->lite != NULL)
		sqlite3_close(db->lite);
	db->pg = NULL;
	db->lite = NULL;
}

int
db_listen(struct db *db, const char *channel)
{
	return db->pg != NULL ? pg_listen(db, channel) : DB_OK;
}

int
db_notify(struct db *db, const char *channel)
{
	char sql[128];

	if (db->pg == NULL)
		return DB_OK;
	snprintf(sql, sizeof sql, "NOTIFY %s", channel);
	return pg_exec(db, sql);
}

int
db_watch_fd(struct db *db)
{
	return db->pg != NULL ? pg_watch_fd(db->pg) : -1;
}

int
db_notified(struct db *db, bool *any)
{
	*any = false;
	return db->pg != NULL ? pg_notified(db->pg, any) : DB_OK;
}
