/*
 * One database connection, SQLite or PostgreSQL (SPEC v2 10, issue 20),
 * for the store's files only.  The calls are the few the store makes, so
 * that every query of the store is written once; each backend fills in
 * one struct db_ops (db_sqlite.c, pg_ops.c, as neomutt has a StoreOps per
 * backend) and db.c hands every call to it.  Neither backend's header is
 * included here: the codes, types and lifetimes below are the store's own.
 */
#ifndef COUNTERSIGN_DB_H
#define COUNTERSIGN_DB_H

#include <stdbool.h>
#include <stddef.h>

/* What every call that can fail returns, from either backend. */
enum {
	DB_OK = 0,
	DB_ERROR = 1,		/* anything else: db_errmsg() says what */
	DB_NOMEM = 2,
	DB_CONSTRAINT = 3,	/* a key, check or trigger refused a write */
	DB_MISMATCH = 4,	/* db_step_changing: another number of rows */
	DB_ROW = 100,		/* db_step: a row is there to read */
	DB_DONE = 101		/* db_step: no more rows */
};

/* A column's type in a row (db_column_type). */
enum { DB_INTEGER = 1, DB_FLOAT = 2, DB_TEXT = 3, DB_BLOB = 4, DB_NULL = 5 };

/*
 * How long bound text must live: DB_STATIC until the statement's next
 * step, or DB_TRANSIENT, copied at once.
 */
typedef void (*db_destructor)(void *);
#define DB_STATIC ((db_destructor)0)
#define DB_TRANSIENT ((db_destructor)-1)

/*
 * What a statement does, said where it is written (db_prepare) and never
 * read off its SQL (issue 38): the backend knows by this alone what it
 * may send without waiting (a write under the lock on PostgreSQL) and
 * what forgets the answers prefetched (any write).  SQLite refuses a
 * statement prepared as a read that would write, so every test on it
 * checks the declarations both backends use.
 */
enum {
	DB_READS = 0,		/* returns rows and changes none */
	DB_WRITES = 1,		/* changes rows, itself or through a function
				   of the schema's owner; returns none the
				   store reads */
	DB_MARKS = 2,		/* SAVEPOINT or RELEASE: changes no row */
	DB_KEEP = 4		/* the store's own: prepared once and kept
				   for the connection */
};

struct db_ops;

struct db {
	const struct db_ops *ops;	/* NULL until opened */
	void *conn;			/* the backend's connection */
};

typedef struct db_stmt {
	struct db *db;
	void *impl;			/* the backend's statement */
} db_stmt;

/*
 * One backend.  Each entry is the db_ call of its name; a backend that
 * has nothing to do for one (SQLite's prefetch, listen) still fills it.
 */
struct db_ops {
	const char *name;		/* "sqlite", "postgresql" */
	int (*prepare)(struct db *, const char *sql, int use, void **impl);
	int (*rows)(db_stmt *, int ncolumns, int order);
	int (*step)(db_stmt *);
	int (*step_changing)(db_stmt *, int expected);
	int (*reset)(db_stmt *);
	int (*clear_bindings)(db_stmt *);
	void (*finalize)(db_stmt *);
	int (*bind_parameter_count)(db_stmt *);
	int (*bind_text)(db_stmt *, int index, const char *text, int length,
	    db_destructor);
	int (*bind_int64)(db_stmt *, int index, long long value);
	int (*bind_null)(db_stmt *, int index);
	const unsigned char *(*column_text)(db_stmt *, int column);
	int (*column_bytes)(db_stmt *, int column);
	long long (*column_int64)(db_stmt *, int column);
	int (*column_type)(db_stmt *, int column);
	const void *(*column_blob)(db_stmt *, int column);
	int (*prefetch)(struct db *, db_stmt *const *stmts, int n);
	int (*prefetch_add)(struct db *, db_stmt *);
	int (*stream)(db_stmt *);
	int (*exec)(struct db *, const char *sql);
	const char *(*errmsg)(struct db *);
	bool (*in_transaction)(struct db *);
	int (*begin_write)(struct db *);
	int (*begin_read)(struct db *);
	int (*commit)(struct db *);
	int (*rollback)(struct db *);
	int (*batch_begin)(struct db *);
	int (*batch_end)(struct db *);
	int (*data_version)(struct db *, long long *version);
	void (*close)(struct db *);
	int (*listen)(struct db *, const char *channel);
	int (*notify)(struct db *, const char *channel);
	int (*watch_fd)(struct db *);
	int (*notified)(struct db *, bool *any);
};

/* postgresql:// or postgres://, libpq's URI forms. */
bool db_is_uri(const char *path);
/*
 * Opens a SQLite file (db_sqlite.c): WAL, durable commits, foreign keys,
 * busy_ms of waiting for the write lock.  With create, the file may be
 * new.  On failure message says why.
 */
int db_open_sqlite(struct db *, const char *path, bool create, int busy_ms,
    char *message, size_t size);
/* Sets up SQLite for a program of one thread; before any db_open_sqlite. */
void db_sqlite_library_init(void);
/*
 * Connects to a postgresql:// URI (pg_db.c); message is then the name the
 * messages give the database (without password), or on failure why.
 */
int db_open_postgresql(struct db *, const char *uri, char *message,
    size_t size);
/* Which backend: for the few statements written twice (see HACKING). */
bool db_is_postgresql(const struct db *);

/* use: DB_READS, DB_WRITES or DB_MARKS, with DB_KEEP or not. */
int db_prepare(struct db *, const char *sql, int use, db_stmt **);
/*
 * "INSERT INTO <into> VALUES (?1, ..., ?ncolumns)", into being "table
 * (column, ...)", made here, DB_WRITES | DB_KEEP: the one kind of statement
 * whose rows a backend may send many to a statement.  PostgreSQL, in a
 * batch (db_batch_begin), holds a step's row (db_step_changing's are sent
 * at once) and sends PG_BATCH_ROWS of them in one INSERT; the rows of every
 * such statement go before anything else reaches the server, those of a
 * lower order first, so a row may depend only on rows of lower orders.
 * A row's error comes at the next settling, as a pipelined write's.
 * Only for a table with no trigger that reads the table itself: rows of
 * one statement do not see each other.  SQLite runs each row at once.
 */
int db_prepare_rows(struct db *, const char *into, int ncolumns, int order,
    db_stmt **);
int db_step(db_stmt *);
int db_reset(db_stmt *);
int db_clear_bindings(db_stmt *);
void db_finalize(db_stmt *);
int db_bind_parameter_count(db_stmt *);
/* text must stay as it is until the statement's next step (DB_STATIC). */
int db_bind_text(db_stmt *, int index, const char *text, int length,
    db_destructor);
int db_bind_int64(db_stmt *, int index, long long value);
int db_bind_int(db_stmt *, int index, int value);
int db_bind_null(db_stmt *, int index);
const unsigned char *db_column_text(db_stmt *, int column);
int db_column_bytes(db_stmt *, int column);
long long db_column_int64(db_stmt *, int column);
int db_column_int(db_stmt *, int column);
int db_column_type(db_stmt *, int column);
const void *db_column_blob(db_stmt *, int column);
struct db *db_handle(db_stmt *);

/*
 * Reads the store is about to make, each bound: on PostgreSQL inside a
 * write transaction, in a batch or not, they go to the server together,
 * and each statement's next steps with the same values take its answer
 * until any write but a savepoint's (pg_pipeline.c); elsewhere nothing
 * happens.  db_prefetch_add() sends one as it is bound now, so that one
 * statement may be asked with several values, and the next db_prefetch()
 * (stmts may be none) waits for every answer in the same trip.
 */
int db_prefetch(struct db *, db_stmt *const *stmts, int n);
int db_prefetch_add(db_stmt *);

/*
 * Marks a read that may return the whole of a table (list, check, audit
 * export), before its first step: on PostgreSQL outside the write lock
 * its rows then come from the server a batch at a time (pg_stream.c), so
 * memory stays flat however many there are; SQLite steps row by row
 * anyway.  Stepping, columns and reset mean what they did.
 */
int db_stream(db_stmt *);

/*
 * Statements without parameters or rows, several separated by ';',
 * never BEGIN, COMMIT or ROLLBACK: taken as writes.
 */
int db_exec(struct db *, const char *sql);
/*
 * Steps a write that must change exactly `expected` rows: DB_DONE, or
 * DB_MISMATCH when it changed another number.  In a batch on PostgreSQL
 * the count is checked when its result is read: a mismatch then fails
 * the batch, so the transaction can still never be committed.
 */
int db_step_changing(db_stmt *, int expected);
const char *db_errmsg(struct db *);
bool db_in_transaction(struct db *);
/*
 * Starts a write transaction holding the database's one write lock until
 * it ends: SQLite's BEGIN IMMEDIATE, PostgreSQL's transaction-level
 * advisory lock (pg_db.c), waited for as long as the busy timeout.
 */
int db_begin_write(struct db *);
/* A read-only transaction seeing one snapshot throughout (audit verify). */
int db_begin_read(struct db *);
/*
 * End the transaction, and any batch in it.  db_commit() fails, and the
 * caller rolls back, when anything of the transaction failed, a write of
 * a batch included.  No transaction ends through db_exec().
 */
int db_commit(struct db *);
int db_rollback(struct db *);
/*
 * A batch of writes, said where the caller knows it has one (issue 38):
 * from db_batch_begin(), inside db_begin_write()'s transaction, to
 * db_batch_end() or the transaction's end.  On PostgreSQL each step of
 * a kept write (DB_WRITES or DB_MARKS, with DB_KEEP) is added to one
 * pipeline and not waited for, its DB_DONE saying only that it was
 * added; db_prepare_rows()'s rows are held and sent many to a
 * statement.  A read in the batch, db_exec() or db_batch_end() sends
 * the sync point and reads each result in the order the writes were
 * added: the first error any met is theirs, its message saying a
 * write sent earlier failed, and the transaction is then aborted, so
 * it can never be committed.  A row count that matters is
 * db_step_changing()'s, checked when its result is read.  Outside a
 * batch every statement runs at once; SQLite runs each at once anyway.
 */
int db_batch_begin(struct db *);
int db_batch_end(struct db *);
/* Changes whenever another connection commits (the TUI's refresh). */
int db_data_version(struct db *, long long *version);
void db_close(struct db *);
/*
 * Change notification (SPEC 12): on PostgreSQL the connection LISTENs on
 * channel and db_notify sends to it (delivered at COMMIT); db_watch_fd is
 * the socket to poll for what arrives, db_notified whether anything has
 * (consuming it).  SQLite has no channel: -1, and the caller compares
 * db_data_version on a timer instead.
 */
int db_listen(struct db *, const char *channel);
int db_notify(struct db *, const char *channel);
int db_watch_fd(struct db *);
int db_notified(struct db *, bool *any);

#endif
