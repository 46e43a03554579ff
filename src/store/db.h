/*
 * One database connection, SQLite or PostgreSQL (SPEC v2 10, issue 20),
 * for the store's files only.  The calls mirror the few of SQLite's C API
 * the store uses, with the same return codes, so that every query of the
 * store is written once: db.c passes them to SQLite, pg_db.c runs the
 * same SQL through libpq, every value a bound parameter.
 */
#ifndef COUNTERSIGN_DB_H
#define COUNTERSIGN_DB_H

#include <stdbool.h>
#include <sqlite3.h>

struct pg_conn;
struct pg_stmt;

struct db {
	sqlite3 *lite;			/* one of the two */
	struct pg_conn *pg;
};

typedef struct db_stmt {
	struct db *db;
	sqlite3_stmt *lite;
	struct pg_stmt *pg;
} db_stmt;

/* SQLite's own codes and constants, which both backends return. */
#define DB_OK SQLITE_OK
#define DB_ROW SQLITE_ROW
#define DB_DONE SQLITE_DONE
#define DB_ERROR SQLITE_ERROR
#define DB_NOMEM SQLITE_NOMEM
#define DB_TEXT SQLITE_TEXT
#define DB_NULL SQLITE_NULL
#define DB_INTEGER SQLITE_INTEGER
#define DB_BLOB SQLITE_BLOB
#define DB_STATIC SQLITE_STATIC
#define DB_TRANSIENT SQLITE_TRANSIENT

/* postgresql:// or postgres://, libpq's URI forms. */
bool db_is_uri(const char *path);

int db_prepare(struct db *, const char *sql, bool persistent, db_stmt **);
int db_step(db_stmt *);
int db_reset(db_stmt *);
int db_clear_bindings(db_stmt *);
void db_finalize(db_stmt *);
int db_bind_parameter_count(db_stmt *);
/* text must stay as it is until the statement's next step (SQLite's STATIC). */
int db_bind_text(db_stmt *, int index, const char *text, int length,
    void (*destructor)(void *));
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
 * write transaction they go to the server together and their answers are
 * remembered (pg_pipeline.c); elsewhere nothing happens.
 */
int db_prefetch(struct db *, db_stmt *const *stmts, int n);

/* Statements without parameters or rows, several separated by ';'. */
int db_exec(struct db *, const char *sql);
/*
 * Steps a write that must change exactly `expected` rows: DB_DONE, or
 * DB_MISMATCH when it changed another number.  On PostgreSQL under the
 * write lock the write is pipelined and the count checked when its
 * result comes: a mismatch then fails the transaction at its next read
 * or COMMIT, so it can still never be committed.
 */
#define DB_MISMATCH SQLITE_NOTFOUND
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

/* pg_db.c */
/*
 * The store's SQL as PostgreSQL takes it (newly allocated): ?N as $N,
 * "a IS [NOT] b" as IS [NOT] DISTINCT FROM, CAST(x AS INTEGER) as BIGINT;
 * *nparams the highest number, used[n - 1] set for each n it names
 * up to most.
 */
char *pg_translate(const char *sql, int *nparams, unsigned char used[],
    int most);
int pg_open(const char *uri, struct db *, char *message, size_t size);
void pg_close(struct pg_conn *);
int pg_prepare(struct db *, const char *sql, bool persistent,
    struct pg_stmt **);
int pg_step(db_stmt *);
int pg_step_changing(db_stmt *, int expected);
void pg_reset(struct pg_stmt *);
void pg_clear_bindings(struct pg_stmt *);
void pg_finalize(struct pg_stmt *);
int pg_parameter_count(struct pg_stmt *);
int pg_bind(struct db *, struct pg_stmt *, int index, const char *text,
    int length);
const char *pg_column_text(struct pg_stmt *, int column);
int pg_column_bytes(struct pg_stmt *, int column);
int pg_column_type(struct pg_stmt *, int column);
const void *pg_column_blob(struct pg_stmt *, int column);
int pg_exec(struct db *, const char *sql);
const char *pg_errmsg(struct pg_conn *);
bool pg_in_transaction(struct pg_conn *);
int pg_begin_write(struct db *);
int pg_begin_read(struct db *);
int pg_data_version(struct db *, long long *version);
int pg_prefetch(struct db *, db_stmt *const *stmts, int n);
int pg_listen(struct db *, const char *channel);
int pg_watch_fd(struct pg_conn *);
int pg_notified(struct pg_conn *, bool *any);

#endif
