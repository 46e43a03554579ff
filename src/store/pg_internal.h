/*
 * The libpq backend's connection and statement (pg_db.c), shared with the
 * pipeline and the prefetch that save it round trips (pg_pipeline.c).
 */
#ifndef COUNTERSIGN_PG_INTERNAL_H
#define COUNTERSIGN_PG_INTERNAL_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "db.h"

/* What a statement does, as db_prepare() was told (db.h's DB_ uses). */
enum pg_kind {
	PG_READ,		/* rows, nothing changed */
	PG_WRITE,		/* changes rows; any rows it returns dropped */
	PG_MARK			/* SAVEPOINT or RELEASE: changes no row */
};

/* Rows an INSERT sends at once, and the statements that may hold rows. */
#define PG_BATCH_ROWS 64
#define PG_HOLDING_MAX 4
/* Results owed by the server before the pipeline is settled. */
#define PG_OWED_MAX 256

/*
 * What to do with a result owed: drop it (a write), keep it on its
 * statement (a prefetched read), hand it over (the read being settled),
 * or, for a statement's PREPARE, forget that it is prepared unless it
 * succeeded.
 */
enum pg_owed_use { OWED_DISCARD, OWED_PREFETCH, OWED_DELIVER, OWED_PREPARE };

/*
 * A prefetched read's answer (pg_prefetch), the values it was asked
 * with, and c->changed then: the statement's step takes a copy while it
 * is bound to the same values and nothing has changed since.  A
 * statement may hold several, one per set of values asked.
 */
struct pg_answer {
	PGresult *res;			/* NULL until it comes */
	bool coming;			/* owed: an owed entry points here */
	char **values;
	int *lengths;
	unsigned long at;
	struct pg_answer *next;
};

struct pg_owed {
	enum pg_owed_use use;
	struct pg_stmt *st;		/* all but OWED_DISCARD */
	int expected;			/* rows a write must change, or -1 */
	struct pg_answer *answer;	/* OWED_PREFETCH's */
};

struct pg_conn {
	PGconn *conn;
	char message[1024];
	int changes;
	unsigned long statements;	/* names the prepared ones */
	unsigned long session;		/* counts the connections made */
	/* LISTENed to (db_listen), again on each new connection, or "". */
	char listening[64];
	unsigned long listening_session;
	/*
	 * Between BEGIN and COMMIT or ROLLBACK, as the store sent them: a
	 * connection lost in there is never made again behind its back,
	 * or the rest of the transaction would run on its own, committed
	 * statement by statement.
	 */
	bool in_tx;
	/*
	 * Holding the write lock (pg_begin_write until COMMIT or ROLLBACK):
	 * no other connection changes a row meanwhile, so writes may be
	 * pipelined and prefetched answers used (pg_pipeline.c).
	 */
	bool locked;
	/*
	 * Between db_batch_begin() and db_batch_end() or the transaction's
	 * end, under the lock: kept writes are pipelined (pg_pipeline.c).
	 */
	bool batching;
	/*
	 * Counts what may have changed a row since the reads were
	 * prefetched: every write but a savepoint's, anything run at once,
	 * a failure, the end of a transaction.  A prefetched answer is good
	 * only while this is what it was when the answer came.
	 */
	unsigned long changed;
	bool piping;			/* in pipeline mode, results owed */
	int owed_first, owed_count;	/* a ring */
	/*
	 * How many of the oldest owed the server was asked to answer (a
	 * flush request sent after them): only their results can have come,
	 * so only then is a read worth its system call (take_ready).
	 */
	int owed_asked;
	struct pg_owed owed[PG_OWED_MAX];
	int failed;			/* the first error owed results met */
	struct pg_stmt *holding[PG_HOLDING_MAX];	/* statements holding rows */
	int nholding;
	/* Long reads' cursors (pg_stream.c), and the transaction begun for them. */
	struct pg_cursor *cursors;
	bool cursor_tx;
	unsigned long cursor_session;
};

/* More than any query of the store binds. */
#define MAX_PARAMETERS 64

struct pg_stmt {
	char *sql;			/* with $1, $2, ... */
	char name[24];			/* "" unless prepared on the server */
	bool persistent;
	bool prepared;
	unsigned long session;		/* the connection it was prepared on */
	int nparams;
	Oid *types;			/* text for a number the SQL skips */
	char **values;			/* owned copies, NULL for NULL */
	int *lengths;
	PGresult *res;
	int row;			/* the current row, -1 before the first */
	unsigned char **blobs;		/* bytea cells decoded, per column */
	size_t *blob_lengths;
	int ncolumns;
	enum pg_kind kind;
	struct pg_answer *prefetched;	/* newest first */
	/*
	 * An INSERT made by db_prepare_rows(), whose rows may be held and
	 * sent PG_BATCH_ROWS to a statement (pg_pipeline.c): its VALUES
	 * tuple, the rows held (their values moved here from values), and
	 * the many-row statement.
	 */
	bool batchable;
	size_t tuple_at, tuple_end;
	char **held_values;
	int *held_lengths;
	int held;
	int rank;			/* db_prepare_rows()'s order */
	struct pg_stmt *many;
	/* A long read (db_stream), and its cursor while one is open. */
	bool stream;
	struct pg_cursor *cursor;
};

/* pg_pipeline.c */
int pg_rows(struct pg_stmt *, int ncolumns, int order);
bool pg_pipelined(const struct pg_conn *, const struct pg_stmt *);
int pg_send(struct pg_conn *, struct pg_stmt *, int expected);
int pg_settle(struct pg_conn *, struct pg_stmt *, PGresult **);
int pg_take_rows(struct pg_conn *, struct pg_stmt *, PGresult *);
PGresult *pg_prefetched_find(struct pg_conn *, const struct pg_stmt *);
void pg_prefetched_free(struct pg_stmt *);
int pg_prefetch_add(struct db *, db_stmt *);
void pg_changed(struct pg_conn *);
void pg_drop_held(struct pg_conn *);
void pg_free_held(struct pg_stmt *);
int pg_prepare_on_server(struct pg_conn *, struct pg_stmt *);
int pg_result_code(struct pg_conn *, PGresult *);

/* pg_stream.c: long reads outside the write lock, a FETCH at a time. */
int pg_stream_mark(struct pg_stmt *);
bool pg_stream_wanted(const struct pg_conn *, const struct pg_stmt *);
int pg_stream_open(struct pg_conn *, struct pg_stmt *);
int pg_stream_next(struct pg_stmt *);
void pg_stream_close(struct pg_stmt *);
int pg_stream_yield(struct pg_conn *);
bool pg_stream_own_tx(const struct pg_conn *);
void pg_stream_forget(struct pg_conn *);

/* The connection and statement behind the store's handles (pg_ops.c). */
static inline struct pg_conn *
pg_conn_of(const struct db *db)
{
	return db->conn;
}

static inline struct pg_stmt *
pg_stmt_of(const db_stmt *st)
{
	return st->impl;
}

/* pg_db.c: what pg_ops.c hands the store's calls to. */
/*
 * The store's SQL as PostgreSQL takes it (newly allocated): ?N as $N,
 * "a IS [NOT] b" as IS [NOT] DISTINCT FROM, CAST(x AS INTEGER) as BIGINT;
 * *nparams the highest number, used[n - 1] set for each n it names
 * up to most.
 */
char *pg_translate(const char *sql, int *nparams, unsigned char used[],
    int most);
void pg_close(struct pg_conn *);
int pg_prepare(struct db *, const char *sql, int use, struct pg_stmt **);
int pg_step(db_stmt *);
void pg_drop_rows(struct pg_stmt *);
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
int pg_commit(struct db *);
int pg_rollback(struct db *);
int pg_batch_begin(struct db *);
int pg_batch_end(struct db *);
const char *pg_errmsg(struct pg_conn *);
bool pg_in_transaction(struct pg_conn *);
int pg_begin_write(struct db *);
int pg_begin_read(struct db *);
int pg_data_version(struct db *, long long *version);
int pg_prefetch(struct db *, db_stmt *const *stmts, int n);
int pg_listen(struct db *, const char *channel);
int pg_watch_fd(struct pg_conn *);
int pg_notified(struct pg_conn *, bool *any);


/* pg_ops.c */
extern const struct db_ops pg_ops;

#endif
