/*
 * The SQLite backend of db.h: the one file of the store that speaks
 * SQLite's C API.  Its codes become the store's own here (lite_code), so
 * nothing above sees SQLite's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sqlite3.h>

#include "db.h"

struct lite_conn {
	sqlite3 *handle;
	/* Why a statement was refused here, not by SQLite; else "". */
	char refused[160];
};

static struct lite_conn *
lite_conn(struct db *db)
{
	return db->conn;
}

static sqlite3 *
lite(struct db *db)
{
	return lite_conn(db)->handle;
}

static sqlite3_stmt *
lite_stmt(db_stmt *st)
{
	return st->impl;
}

/* SQLite's result codes (extended ones included) as the store's. */
static int
lite_code(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return DB_OK;
	case SQLITE_ROW:
		return DB_ROW;
	case SQLITE_DONE:
		return DB_DONE;
	case SQLITE_NOMEM:
		return DB_NOMEM;
	case SQLITE_CONSTRAINT:
		return DB_CONSTRAINT;
	default:
		return DB_ERROR;
	}
}

/*
 * A statement prepared as a read that SQLite says writes is refused: on
 * PostgreSQL the same declaration would let a prefetched answer outlive
 * the write (db.h), and the store's statements are declared once for
 * both backends, so the tests on SQLite check them all.
 */
static int
lite_prepare(struct db *db, const char *sql, int use, void **impl)
{
	sqlite3_stmt *st = NULL;
	int rc;

	lite_conn(db)->refused[0] = '\0';
	rc = sqlite3_prepare_v3(lite(db), sql, -1,
	    (use & DB_KEEP) ? SQLITE_PREPARE_PERSISTENT : 0, &st, NULL);
	if (rc == SQLITE_OK && (use & (DB_WRITES | DB_MARKS)) == 0 &&
	    !sqlite3_stmt_readonly(st)) {
		snprintf(lite_conn(db)->refused, sizeof lite_conn(db)->refused,
		    "a statement prepared as a read writes: %.100s", sql);
		sqlite3_finalize(st);
		*impl = NULL;
		return DB_ERROR;
	}
	*impl = st;
	return lite_code(rc);
}

static int
lite_step(db_stmt *st)
{
	lite_conn(st->db)->refused[0] = '\0';
	return lite_code(sqlite3_step(lite_stmt(st)));
}

static int
lite_step_changing(db_stmt *st, int expected)
{
	int rc = lite_step(st);

	if (rc == DB_DONE && sqlite3_changes(lite(st->db)) != expected)
		return DB_MISMATCH;
	return rc;
}

static int
lite_reset(db_stmt *st)
{
	return lite_code(sqlite3_reset(lite_stmt(st)));
}

static int
lite_clear_bindings(db_stmt *st)
{
	return lite_code(sqlite3_clear_bindings(lite_stmt(st)));
}

static void
lite_finalize(db_stmt *st)
{
	sqlite3_finalize(lite_stmt(st));
}

static int
lite_bind_parameter_count(db_stmt *st)
{
	return sqlite3_bind_parameter_count(lite_stmt(st));
}

static int
lite_bind_text(db_stmt *st, int index, const char *text, int length,
    db_destructor destructor)
{
	/* db.h's two lifetimes are SQLite's two sentinels. */
	return lite_code(sqlite3_bind_text(lite_stmt(st), index, text, length,
	    destructor == DB_TRANSIENT ? SQLITE_TRANSIENT : destructor ==
	    DB_STATIC ? SQLITE_STATIC : destructor));
}

static int
lite_bind_int64(db_stmt *st, int index, long long value)
{
	return lite_code(sqlite3_bind_int64(lite_stmt(st), index, value));
}

static int
lite_bind_null(db_stmt *st, int index)
{
	return lite_code(sqlite3_bind_null(lite_stmt(st), index));
}

static const unsigned char *
lite_column_text(db_stmt *st, int column)
{
	return sqlite3_column_text(lite_stmt(st), column);
}

static int
lite_column_bytes(db_stmt *st, int column)
{
	return sqlite3_column_bytes(lite_stmt(st), column);
}

static long long
lite_column_int64(db_stmt *st, int column)
{
	return sqlite3_column_int64(lite_stmt(st), column);
}

static int
lite_column_type(db_stmt *st, int column)
{
	switch (sqlite3_column_type(lite_stmt(st), column)) {
	case SQLITE_INTEGER:
		return DB_INTEGER;
	case SQLITE_FLOAT:
		return DB_FLOAT;
	case SQLITE_TEXT:
		return DB_TEXT;
	case SQLITE_BLOB:
		return DB_BLOB;
	default:
		return DB_NULL;
	}
}

static const void *
lite_column_blob(db_stmt *st, int column)
{
	return sqlite3_column_blob(lite_stmt(st), column);
}

/* A read costs SQLite no trip to the server: nothing to gather. */
static int
lite_prefetch(struct db *db, db_stmt *const *stmts, int n)
{
	(void)db;
	(void)stmts;
	(void)n;
	return DB_OK;
}

static int
lite_prefetch_add(struct db *db, db_stmt *stmt)
{
	(void)db;
	(void)stmt;
	return DB_OK;
}

/* Each row is stepped at once: SQLite has no trip to save. */
static int
lite_rows(db_stmt *st, int ncolumns, int order)
{
	(void)st;
	(void)ncolumns;
	(void)order;
	return DB_OK;
}

/* SQLite reads a row at a time already. */
static int
lite_stream(db_stmt *st)
{
	(void)st;
	return DB_OK;
}

static int
lite_exec(struct db *db, const char *sql)
{
	lite_conn(db)->refused[0] = '\0';
	return lite_code(sqlite3_exec(lite(db), sql, NULL, NULL, NULL));
}

static const char *
lite_errmsg(struct db *db)
{
	return lite_conn(db)->refused[0] != '\0' ? lite_conn(db)->refused :
	    sqlite3_errmsg(lite(db));
}

static bool
lite_in_transaction(struct db *db)
{
	return sqlite3_get_autocommit(lite(db)) == 0;
}

static int
lite_begin_write(struct db *db)
{
	/*
	 * IMMEDIATE takes the write lock up front: a deferred transaction
	 * that read first would get SQLITE_BUSY_SNAPSHOT at its first
	 * write, with no busy wait at all: SQLite skips the busy handler
	 * where waiting could deadlock.
	 */
	return lite_exec(db, "BEGIN IMMEDIATE");
}

static int
lite_begin_read(struct db *db)
{
	/* A deferred transaction reads one snapshot of the WAL. */
	return lite_exec(db, "BEGIN");
}

static int
lite_commit(struct db *db)
{
	return lite_exec(db, "COMMIT");
}

static int
lite_rollback(struct db *db)
{
	return lite_exec(db, "ROLLBACK");
}

/* Each statement runs at once: SQLite has no trip to save. */
static int
lite_batch(struct db *db)
{
	(void)db;
	return DB_OK;
}

static int
lite_data_version(struct db *db, long long *version)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = sqlite3_prepare_v2(lite(db), "PRAGMA data_version", -1, &st,
	    NULL)) != SQLITE_OK)
		return lite_code(rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return lite_code(rc);
}

static void
lite_close(struct db *db)
{
	sqlite3_close(lite(db));
	free(lite_conn(db));
	db->conn = NULL;
}

/* SQLite has no channel: the caller compares data_version on a timer. */
static int
lite_listen(struct db *db, const char *channel)
{
	(void)db;
	(void)channel;
	return DB_OK;
}

static int
lite_watch_fd(struct db *db)
{
	(void)db;
	return -1;
}

static int
lite_notified(struct db *db, bool *any)
{
	(void)db;
	*any = false;
	return DB_OK;
}

static const struct db_ops lite_ops = {
	.name = "sqlite",
	.prepare = lite_prepare,
	.step = lite_step,
	.step_changing = lite_step_changing,
	.reset = lite_reset,
	.clear_bindings = lite_clear_bindings,
	.finalize = lite_finalize,
	.bind_parameter_count = lite_bind_parameter_count,
	.bind_text = lite_bind_text,
	.bind_int64 = lite_bind_int64,
	.bind_null = lite_bind_null,
	.column_text = lite_column_text,
	.column_bytes = lite_column_bytes,
	.column_int64 = lite_column_int64,
	.column_type = lite_column_type,
	.column_blob = lite_column_blob,
	.prefetch = lite_prefetch,
	.prefetch_add = lite_prefetch_add,
	.rows = lite_rows,
	.stream = lite_stream,
	.exec = lite_exec,
	.errmsg = lite_errmsg,
	.in_transaction = lite_in_transaction,
	.begin_write = lite_begin_write,
	.begin_read = lite_begin_read,
	.commit = lite_commit,
	.rollback = lite_rollback,
	.batch_begin = lite_batch,
	.batch_end = lite_batch,
	.data_version = lite_data_version,
	.close = lite_close,
	.listen = lite_listen,
	.notify = lite_listen,
	.watch_fd = lite_watch_fd,
	.notified = lite_notified,
};

/*
 * countersign speaks to SQLite from its one thread, so SQLite's mutexes
 * (taken on every call, every allocation and every page fetched) guard
 * nothing; nor does anything read SQLite's memory statistics, whose
 * bookkeeping runs on every allocation.  Without both, a batch decision
 * runs 6% fewer instructions and an import 4% (bench/README.md).
 * sqlite3_config() refuses once SQLite is initialised, which only a
 * second call could have done; the defaults are correct, only slower.
 */
void
db_sqlite_library_init(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int
db_open_sqlite(struct db *db, const char *path, bool create, int busy_ms,
    char *message, size_t size)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	struct lite_conn *c;
	sqlite3 *handle = NULL;
	int rc;

	if ((c = calloc(1, sizeof *c)) == NULL) {
		snprintf(message, size, "out of memory");
		return DB_NOMEM;
	}
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	rc = sqlite3_open_v2(path, &handle, flags, NULL);
	if (rc != SQLITE_OK) {
		snprintf(message, size, "%s", handle != NULL ?
		    sqlite3_errmsg(handle) : sqlite3_errstr(rc));
		sqlite3_close(handle);
		free(c);
		return lite_code(rc);
	}
	sqlite3_extended_result_codes(handle, 1);
	sqlite3_busy_timeout(handle, busy_ms);
	c->handle = handle;
	db->ops = &lite_ops;
	db->conn = c;
	/*
	 * WAL lets officers read while one writes; FULL makes each commit
	 * durable on power loss, which a recorded decision must be.
	 * Statement and savepoint journals stay in memory: past 64 KiB
	 * SQLite writes them to a temporary file, four small writes per
	 * page, which was most of an import's system calls.  Each holds
	 * one statement's or one decision's pages, so memory stays small.
	 * A 4 MiB page cache holds a batch's group of 512 decisions (about
	 * 750 pages): SQLite's 2 MB default spilled them into the WAL before
	 * the commit, and a spilled page written again makes the commit
	 * read back every later frame to sum it again, 12,600 reads and
	 * writes in a batch of 10,000 (bench/README.md, 2026-12-04).
	 */
	rc = lite_exec(db, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
	    "PRAGMA trusted_schema = OFF; PRAGMA temp_store = MEMORY;"
	    "PRAGMA cache_size = -4096;");
	if (rc != DB_OK)
		snprintf(message, size, "setting up the connection: %s",
		    sqlite3_errmsg(handle));
	return rc;
}
