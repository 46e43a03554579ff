/*
 * The store's SQL run on PostgreSQL through libpq (SPEC v2 10, issue 20).
 * The store writes its queries once, with SQLite's numbered parameters
 * (?1); here they become $1 and every value travels as a parameter of
 * PQexecParams/PQexecPrepared, never inside the SQL text.  Values are
 * sent untyped, as text, so the server types them from their context as
 * SQLite's affinity does; rows come back as text.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "db.h"
#include "pg_internal.h"

/*
 * The one write lock every countersign on every host takes first in each
 * write transaction, held until it ends (db_begin_write): the audit head
 * is read and extended under it, so the chain stays one whatever runs at
 * once.  Since schema 20 (issue 35) it is cs_write_lock()'s row lock on
 * schema_version, which only the owner's functions may take: anyone who
 * can log in could take an advisory lock, and stall every host.  A schema
 * before 20 has no such function; its migration (the owner's) takes the
 * advisory lock every earlier countersign took, on WRITE_LOCK_KEY.
 */
#define WRITE_LOCK_KEY "7165213938137868135"
#define TAKE_WRITE_LOCK \
	"DO $$ BEGIN IF to_regprocedure('cs_write_lock()') IS NULL THEN" \
	" PERFORM pg_advisory_xact_lock(" WRITE_LOCK_KEY "); ELSE" \
	" PERFORM cs_write_lock(); END IF; END $$"

/*
 * SQLite's busy timeout (store.c): a lock is waited for this long, then
 * reported, so a writer that stalls cannot hold every host up forever.
 */
#define LOCK_TIMEOUT "10s"

/* Oids of the built-in types (catalog/pg_type.h is the server's). */
#define OID_BOOL 16
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_TEXT 25
#define OID_OID 26
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

static void
keep_message(struct pg_conn *c, const PGresult *res)
{
	const char *m = NULL;
	size_t n;

	if (res != NULL)
		m = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	if (m == NULL || *m == '\0')
		m = PQerrorMessage(c->conn);
	snprintf(c->message, sizeof c->message, "%s", m);
	/* libpq's second and third lines guess at why; the first says what. */
	c->message[strcspn(c->message, "\n")] = '\0';
	n = strlen(c->message);
	while (n > 0 && (c->message[n - 1] == '\n' || c->message[n - 1] == ' '))
		c->message[--n] = '\0';
	if (PQstatus(c->conn) == CONNECTION_BAD)
		snprintf(c->message + n, sizeof c->message - n,
		    "%s(the connection to the server is lost)",
		    n > 0 ? " " : "");
}

/* The store's code for an error a result reports. */
int
pg_result_code(struct pg_conn *c, PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) :
	    NULL;

	keep_message(c, res);
	if (state != NULL && strncmp(state, "23", 2) == 0)
		return DB_CONSTRAINT;
	return DB_ERROR;
}

/* Notices (IF NOT EXISTS skipping, say) are no officer's business. */
static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* One statement, no rows, on a connection not yet a store's. */
static int
pg_exec_one(struct pg_conn *c, const char *sql)
{
	PGresult *res = PQexec(c->conn, sql);
	int rc = PQresultStatus(res) == PGRES_COMMAND_OK ? 0 : -1;

	if (rc != 0)
		keep_message(c, res);
	PQclear(res);
	return rc;
}

/* What every connection, first or remade, starts with. */
static int
session_setup(struct pg_conn *c)
{
	/* A new connection owes nothing and holds no lock. */
	c->session++;
	c->piping = false;
	c->owed_first = c->owed_count = c->owed_asked = 0;
	c->failed = DB_OK;
	c->locked = false;
	c->batching = false;
	pg_changed(c);
	pg_drop_held(c);
	if (PQsetClientEncoding(c->conn, "UTF8") != 0) {
		keep_message(c, NULL);
		return -1;
	}
	/*
	 * The store's queries each touch a few rows by key; JIT compiling
	 * one whose row estimate runs high cost 270 ms a call.
	 */
	return pg_exec_one(c, "SET jit = off");
}

/*
 * A connection lost between transactions is made again before the next
 * one (a service outlives a server restart); one lost inside a
 * transaction is that transaction's error, reported, never retried.
 */
static int
reconnect(struct pg_conn *c)
{
	if (PQstatus(c->conn) != CONNECTION_BAD)
		return 0;
	PQreset(c->conn);
	if (PQstatus(c->conn) != CONNECTION_OK) {
		keep_message(c, NULL);
		return -1;
	}
	return session_setup(c);
}

int
db_open_postgresql(struct db *db, const char *uri, char *message,
    size_t size)
{
	struct pg_conn *c;
	const char *host;

	if ((c = calloc(1, sizeof *c)) == NULL) {
		snprintf(message, size, "out of memory");
		return DB_NOMEM;
	}
	c->conn = PQconnectdb(uri);
	if (c->conn == NULL || PQstatus(c->conn) != CONNECTION_OK) {
		/* libpq's message names host and socket, never the password. */
		snprintf(message, size, "%s", c->conn ?
		    PQerrorMessage(c->conn) : "out of memory");
		message[strcspn(message, "\n")] = '\0';
		PQfinish(c->conn);
		free(c);
		return DB_ERROR;
	}
	PQsetNoticeProcessor(c->conn, quiet, NULL);
	if (session_setup(c) != 0) {
		snprintf(message, size, "%s", c->message);
		PQfinish(c->conn);
		free(c);
		return DB_ERROR;
	}
	host = PQhost(c->conn);
	/* The name messages give it: the URI without password or options. */
	snprintf(message, size, "postgresql://%s@%s/%s", PQuser(c->conn),
	    host != NULL && *host != '/' ? host : "", PQdb(c->conn));
	db->ops = &pg_ops;
	db->conn = c;
	return DB_OK;
}

void
pg_close(struct pg_conn *c)
{
	if (c == NULL)
		return;
	pg_stream_forget(c);
	PQfinish(c->conn);
	free(c);
}

/* The word at p, case-insensitively, followed by no letter. */
static bool
word_at(const char *p, const char *word)
{
	size_t n = strlen(word);

	return strncasecmp(p, word, n) == 0 &&
	    !isalnum((unsigned char)p[n]) && p[n] != '_';
}

/*
 * SQLite's "a IS NOT b" and "a IS b" compare as PostgreSQL's IS [NOT]
 * DISTINCT FROM does (NULL equal to NULL): *p at "IS", past the words
 * written; NULL when it is IS [NOT] NULL, TRUE or FALSE, left alone.
 */
static const char *
comparison(const char *p, char **o)
{
	const char *q = p + 2, *r;
	bool not;

	while (*q == ' ')
		q++;
	not = word_at(q, "NOT");
	r = q;
	if (not) {
		r += 3;
		while (*r == ' ')
			r++;
	}
	if (word_at(r, "NULL") || word_at(r, "TRUE") || word_at(r, "FALSE") ||
	    word_at(r, "DISTINCT"))
		return NULL;
	*o += sprintf(*o, not ? "IS DISTINCT FROM " :
	    "IS NOT DISTINCT FROM ");
	return r;
}

/* SQLite's INTEGER has 64 bits: CAST(x AS INTEGER) is AS BIGINT here. */
static const char *
integer_type(const char *p, char **o)
{
	const char *q = p + 2;

	while (*q == ' ')
		q++;
	if (!word_at(q, "INTEGER"))
		return NULL;
	*o += sprintf(*o, "AS BIGINT");
	return q + 7;
}

/*
 * ?N becomes $N, and a bare ? the next number, as SQLite numbers it;
 * quoted text and identifiers are left as they are.  Written for the
 * store's own SQL, which has no comments.
 */
char *
pg_translate(const char *sql, int *nparams, unsigned char used[], int most)
{
	size_t n = strlen(sql);
	char *out = malloc(n * 4 + 1), *o = out;
	const char *p = sql, *next;
	char quote = 0;
	int highest = 0, number;

	if (out == NULL)
		return NULL;
	while (*p != '\0') {
		if (quote != 0) {
			if (*p == quote)
				quote = 0;
			*o++ = *p++;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			*o++ = *p++;
		} else if (*p == '?') {
			p++;
			if (isdigit((unsigned char)*p)) {
				number = (int)strtol(p, (char **)&p, 10);
			} else
				number = highest + 1;
			if (number > highest)
				highest = number;
			if (number > 0 && number <= most)
				used[number - 1] = 1;
			o += sprintf(o, "$%d", number);
		} else if ((p == sql || !isalnum((unsigned char)p[-1])) &&
		    word_at(p, "AS") && (next = integer_type(p, &o)) != NULL) {
			p = next;
		} else if ((p == sql || !isalnum((unsigned char)p[-1])) &&
		    word_at(p, "IS") && (next = comparison(p, &o)) != NULL) {
			p = next;
		} else
			*o++ = *p++;
	}
	*o = '\0';
	*nparams = highest;
	return out;
}

int
pg_prepare(struct db *db, const char *sql, int use, struct pg_stmt **out)
{
	struct pg_stmt *st;

	*out = NULL;
	unsigned char used[MAX_PARAMETERS] = { 0 };
	int i;

	if ((st = calloc(1, sizeof *st)) == NULL ||
	    (st->sql = pg_translate(sql, &st->nparams, used,
	    MAX_PARAMETERS)) ==
	    NULL)
		goto nomem;
	if (st->nparams > MAX_PARAMETERS) {
		free(st->sql);
		free(st);
		snprintf(pg_conn_of(db)->message, sizeof pg_conn_of(db)->message,
		    "more than %d parameters", MAX_PARAMETERS);
		return DB_ERROR;
	}
	if (st->nparams > 0 &&
	    ((st->values = calloc((size_t)st->nparams, sizeof *st->values)) ==
	    NULL || (st->lengths = calloc((size_t)st->nparams,
	    sizeof *st->lengths)) == NULL || (st->types =
	    calloc((size_t)st->nparams, sizeof *st->types)) == NULL))
		goto nomem;
	/*
	 * SQLite lets a query skip a number (?1, ?3): the server must still
	 * give the skipped one a type, so it is text, and left NULL.
	 */
	for (i = 0; i < st->nparams; i++)
		st->types[i] = used[i] ? 0 : OID_TEXT;
	st->persistent = (use & DB_KEEP) != 0;
	st->kind = (use & DB_WRITES) ? PG_WRITE : (use & DB_MARKS) ? PG_MARK :
	    PG_READ;
	st->row = -1;
	*out = st;
	return DB_OK;
nomem:
	if (st != NULL) {
		free(st->sql);
		free(st->values);
		free(st->lengths);
		free(st->types);
	}
	free(st);
	snprintf(pg_conn_of(db)->message, sizeof pg_conn_of(db)->message, "out of memory");
	return DB_NOMEM;
}

static void
drop_result(struct pg_stmt *st)
{
	int i;

	for (i = 0; st->blobs != NULL && i < st->ncolumns; i++)
		PQfreemem(st->blobs[i]);
	free(st->blobs);
	free(st->blob_lengths);
	st->blobs = NULL;
	st->blob_lengths = NULL;
	PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	st->ncolumns = 0;
}

static void
drop_blobs(struct pg_stmt *st)
{
	int i;

	for (i = 0; st->blobs != NULL && i < st->ncolumns; i++) {
		PQfreemem(st->blobs[i]);
		st->blobs[i] = NULL;
	}
}

/* The rows a read holds, freed (a cursor's next batch takes their place). */
void
pg_drop_rows(struct pg_stmt *st)
{
	drop_result(st);
}

/* Rows of a read now st's to step through; res is st's to free. */
int
pg_take_rows(struct pg_conn *c, struct pg_stmt *st, PGresult *res)
{
	st->res = res;
	st->ncolumns = PQnfields(res);
	st->blobs = calloc((size_t)st->ncolumns + 1, sizeof *st->blobs);
	st->blob_lengths = calloc((size_t)st->ncolumns + 1,
	    sizeof *st->blob_lengths);
	if (st->blobs == NULL || st->blob_lengths == NULL) {
		drop_result(st);
		snprintf(c->message, sizeof c->message, "out of memory");
		return DB_NOMEM;
	}
	st->row = 0;
	return PQntuples(res) > 0 ? DB_ROW : DB_DONE;
}

static int
execute(struct pg_conn *c, struct pg_stmt *st, int expected)
{
	const char *const *values = (const char *const *)st->values;
	PGresult *res;
	int rc;

	if (!c->in_tx && reconnect(c) != 0)
		return DB_ERROR;
	/* A long read outside the lock: a cursor (pg_stream.c). */
	if (pg_stream_wanted(c, st))
		return pg_stream_open(c, st);
	/* A write never runs in a cursor's transaction. */
	if (st->kind != PG_READ && c->cursors != NULL)
		(void)pg_stream_yield(c);
	/* Under the write lock: pipelined, or answered as prefetched. */
	if (pg_pipelined(c, st)) {
		st->row = 0;
		return pg_send(c, st, expected);
	}
	if ((res = pg_prefetched_find(c, st)) != NULL)
		return pg_take_rows(c, st, res);
	if (c->piping) {
		/* The read rides the pipeline: one trip for it and the writes. */
		if (st->persistent && st->kind == PG_READ) {
			if ((rc = pg_settle(c, st, &res)) != DB_OK)
				return rc;
		} else {
			if ((rc = pg_settle(c, NULL, NULL)) != DB_OK)
				return rc;
			res = NULL;
		}
	} else
		res = NULL;
	if (res == NULL) {
		if ((rc = pg_prepare_on_server(c, st)) != DB_OK)
			return rc;
		res = st->prepared ? PQexecPrepared(c->conn, st->name,
		    st->nparams, values, st->lengths, NULL, 0) :
		    PQexecParams(c->conn, st->sql, st->nparams, st->types,
		    values, st->lengths, NULL, 0);
	}
	switch (PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
		c->changes = atoi(PQcmdTuples(res));
		PQclear(res);
		st->row = 0;
		/* A write run at once may have changed what was read. */
		if (st->kind == PG_WRITE)
			pg_changed(c);
		/*
		 * A read returns rows, even none: this one changed some, so
		 * was declared wrongly (db.h), and a prefetched answer may
		 * already have outlived what it wrote.
		 */
		if (st->kind == PG_READ) {
			pg_changed(c);
			snprintf(c->message, sizeof c->message, "a statement "
			    "prepared as a read wrote: %.100s", st->sql);
			return DB_ERROR;
		}
		return expected >= 0 && c->changes != expected ? DB_MISMATCH :
		    DB_DONE;
	case PGRES_TUPLES_OK:
		if (st->kind == PG_READ)
			return pg_take_rows(c, st, res);
		/* A write's rows (the owner's function's void) are not read. */
		pg_changed(c);
		PQclear(res);
		st->row = 0;
		return DB_DONE;
	default:
		rc = pg_result_code(c, res);
		PQclear(res);
		pg_changed(c);
		return rc;
	}
}

int
pg_step(db_stmt *s)
{
	struct pg_stmt *st = pg_stmt_of(s);

	if (st->row < 0)
		return execute(pg_conn_of(s->db), st, -1);
	if (st->res == NULL)
		return DB_DONE;
	drop_blobs(st);
	if (st->row < PQntuples(st->res))
		st->row++;
	if (st->row >= PQntuples(st->res) && st->cursor != NULL)
		return pg_stream_next(st);
	return st->row < PQntuples(st->res) ? DB_ROW : DB_DONE;
}

int
pg_step_changing(db_stmt *s, int expected)
{
	return execute(pg_conn_of(s->db), pg_stmt_of(s), expected);
}

void
pg_reset(struct pg_stmt *st)
{
	pg_stream_close(st);
	drop_result(st);
}

void
pg_clear_bindings(struct pg_stmt *st)
{
	int i;

	for (i = 0; i < st->nparams; i++) {
		free(st->values[i]);
		st->values[i] = NULL;
		st->lengths[i] = 0;
	}
}

void
pg_finalize(struct pg_stmt *st)
{
	if (st == NULL)
		return;
	pg_stream_close(st);
	drop_result(st);
	pg_clear_bindings(st);
	pg_free_held(st);
	pg_prefetched_free(st);
	free(st->held_values);
	free(st->held_lengths);
	if (st->many != NULL) {
		free(st->many->sql);
		free(st->many->types);
		free(st->many);
	}
	/*
	 * A prepared statement lives as long as its connection: only the
	 * store's own, prepared once per connection, are prepared at all.
	 */
	free(st->values);
	free(st->lengths);
	free(st->types);
	free(st->sql);
	free(st);
}

int
pg_parameter_count(struct pg_stmt *st)
{
	return st->nparams;
}

int
pg_bind(struct db *db, struct pg_stmt *st, int index, const char *text,
    int length)
{
	char *copy = NULL;

	if (index < 1 || index > st->nparams) {
		snprintf(pg_conn_of(db)->message, sizeof pg_conn_of(db)->message,
		    "parameter %d out of range", index);
		return DB_ERROR;
	}
	if (text != NULL) {
		if ((copy = malloc((size_t)length + 1)) == NULL)
			return DB_NOMEM;
		memcpy(copy, text, (size_t)length);
		copy[length] = '\0';
	}
	free(st->values[index - 1]);
	st->values[index - 1] = copy;
	st->lengths[index - 1] = length;
	return DB_OK;
}

static bool
has_cell(const struct pg_stmt *st, int column)
{
	return st->res != NULL && column >= 0 && column < st->ncolumns &&
	    st->row >= 0 && st->row < PQntuples(st->res) &&
	    !PQgetisnull(st->res, st->row, column);
}

const char *
pg_column_text(struct pg_stmt *st, int column)
{
	if (!has_cell(st, column))
		return NULL;
	if (PQftype(st->res, column) == OID_BYTEA)
		return pg_column_blob(st, column);
	return PQgetvalue(st->res, st->row, column);
}

const void *
pg_column_blob(struct pg_stmt *st, int column)
{
	size_t n;

	if (!has_cell(st, column))
		return NULL;
	if (PQftype(st->res, column) != OID_BYTEA)
		return PQgetvalue(st->res, st->row, column);
	if (st->blobs[column] == NULL) {
		st->blobs[column] = PQunescapeBytea((const unsigned char *)
		    PQgetvalue(st->res, st->row, column), &n);
		st->blob_lengths[column] = n;
	}
	return st->blobs[column];
}

int
pg_column_bytes(struct pg_stmt *st, int column)
{
	if (!has_cell(st, column))
		return 0;
	if (PQftype(st->res, column) == OID_BYTEA)
		return pg_column_blob(st, column) != NULL ?
		    (int)st->blob_lengths[column] : 0;
	return PQgetlength(st->res, st->row, column);
}

int
pg_column_type(struct pg_stmt *st, int column)
{
	if (!has_cell(st, column))
		return DB_NULL;
	switch (PQftype(st->res, column)) {
	case OID_BOOL: case OID_INT2: case OID_INT4: case OID_INT8:
	case OID_OID:
		return DB_INTEGER;
	case OID_FLOAT4: case OID_FLOAT8: case OID_NUMERIC:
		return DB_FLOAT;
	case OID_BYTEA:
		return DB_BLOB;
	default:
		return DB_TEXT;
	}
}

/* What a statement run by run() does to the transaction, as its caller says. */
enum run_use { RUN_PLAIN, RUN_BEGIN, RUN_COMMIT, RUN_ROLLBACK };

static int
run(struct db *db, const char *sql, enum run_use use)
{
	struct pg_conn *c = pg_conn_of(db);
	bool end = use == RUN_COMMIT || use == RUN_ROLLBACK;
	ExecStatusType status;
	PGresult *res;
	int rc = DB_OK;

	/* Long reads' cursors end with their transaction, or stay out of ours. */
	if (c->cursors != NULL && (end || pg_stream_own_tx(c)))
		(void)pg_stream_yield(c);
	/*
	 * What the pipeline owes first: a write that failed there fails the
	 * COMMIT, which is then never sent (the server would answer an
	 * aborted transaction's COMMIT with a ROLLBACK that reads as done).
	 */
	if (c->piping && (rc = pg_settle(c, NULL, NULL)) != DB_OK && !end)
		return rc;
	if (end) {
		c->in_tx = false;
		c->locked = false;
		c->batching = false;
		pg_changed(c);
		if (use == RUN_COMMIT && rc != DB_OK)
			return rc;	/* never sent: the caller rolls back */
		rc = DB_OK;
	} else if (use != RUN_BEGIN && !c->in_tx && reconnect(c) != 0)
		return DB_ERROR;
	res = PQexec(c->conn, sql);
	if (use == RUN_BEGIN)
		c->in_tx = PQtransactionStatus(c->conn) != PQTRANS_IDLE;
	status = PQresultStatus(res);
	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
		rc = pg_result_code(c, res);
	else if (use == RUN_COMMIT && strcmp(PQcmdStatus(res), "COMMIT") != 0) {
		snprintf(c->message, sizeof c->message, "the server rolled the "
		    "transaction back instead of committing it");
		rc = DB_ERROR;
	} else
		c->changes = atoi(PQcmdTuples(res));
	PQclear(res);
	if (use == RUN_PLAIN)
		pg_changed(c);	/* whatever it was, it may have written */
	return rc;
}

int
pg_exec(struct db *db, const char *sql)
{
	return run(db, sql, RUN_PLAIN);
}

int
pg_commit(struct db *db)
{
	return run(db, "COMMIT", RUN_COMMIT);
}

int
pg_rollback(struct db *db)
{
	return run(db, "ROLLBACK", RUN_ROLLBACK);
}

/* A batch needs the lock: only then may writes go unwaited for. */
int
pg_batch_begin(struct db *db)
{
	struct pg_conn *c = pg_conn_of(db);

	if (!c->locked) {
		snprintf(c->message, sizeof c->message, "a batch of writes "
		    "begun outside a write transaction");
		return DB_ERROR;
	}
	c->batching = true;
	return DB_OK;
}

int
pg_batch_end(struct db *db)
{
	struct pg_conn *c = pg_conn_of(db);

	c->batching = false;
	return c->piping ? pg_settle(c, NULL, NULL) : DB_OK;
}

const char *
pg_errmsg(struct pg_conn *c)
{
	return c->message;
}

bool
pg_in_transaction(struct pg_conn *c)
{
	PGTransactionStatusType t = PQtransactionStatus(c->conn);

	/* Not the one a long read's cursor runs in: the store's own. */
	if (!c->in_tx && pg_stream_own_tx(c))
		return false;
	return c->in_tx || t == PQTRANS_INTRANS || t == PQTRANS_INERROR ||
	    t == PQTRANS_ACTIVE;
}

/*
 * A transaction that failed to start is no transaction: whoever failed
 * to begin does not roll back, so this does, keeping the message.
 */
static int
begun(struct db *db, int rc)
{
	char message[sizeof pg_conn_of(db)->message];
	PGresult *res;

	if (rc == DB_OK)
		return rc;
	memcpy(message, pg_conn_of(db)->message, sizeof message);
	if (PQstatus(pg_conn_of(db)->conn) == CONNECTION_OK) {
		res = PQexec(pg_conn_of(db)->conn, "ROLLBACK");
		PQclear(res);
	}
	pg_conn_of(db)->in_tx = false;
	pg_conn_of(db)->locked = false;
	pg_conn_of(db)->batching = false;
	memcpy(pg_conn_of(db)->message, message, sizeof message);
	return rc;
}

/*
 * Starts a transaction.  A server that went away since the last one is
 * often only found out here (its farewell waits unread on the socket):
 * nothing was begun, so one new connection and one more try are safe.
 */
static int
begin(struct db *db, const char *sql)
{
	int rc;

	if (reconnect(pg_conn_of(db)) != 0)
		return DB_ERROR;
	rc = begun(db, run(db, sql, RUN_BEGIN));
	if (rc != DB_OK && PQstatus(pg_conn_of(db)->conn) == CONNECTION_BAD &&
	    reconnect(pg_conn_of(db)) == 0)
		rc = begun(db, run(db, sql, RUN_BEGIN));
	return rc;
}

/*
 * READ COMMITTED under the one write lock: every statement after the
 * lock sees every transaction committed before it, as SQLite's BEGIN
 * IMMEDIATE does, so the gate re-reads the decision and the audit head
 * as they are, and no two writers ever race for them.  No serialization
 * failure can arise, so there is nothing to retry and nothing decided
 * twice; the lock is waited for as SQLite's busy timeout waits.
 */
int
pg_begin_write(struct db *db)
{
	int rc = begin(db, "BEGIN ISOLATION LEVEL READ COMMITTED;"
	    " SET LOCAL lock_timeout = '" LOCK_TIMEOUT "'; " TAKE_WRITE_LOCK);

	/* The lock is ours: pipeline and prefetch may run (pg_pipeline.c). */
	pg_conn_of(db)->locked = rc == DB_OK;
	return rc;
}

/* One snapshot for a whole reading (audit verify). */
int
pg_begin_read(struct db *db)
{
	return begin(db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

/*
 * The write-ahead log's position moves with every commit on the server
 * (and a little more often), so a screen that compares it refreshes after
 * any other officer's decision, as PRAGMA data_version makes it do.
 */
int
pg_data_version(struct db *db, long long *version)
{
	PGresult *res;
	int rc = DB_OK;

	if (pg_conn_of(db)->piping && (rc = pg_settle(pg_conn_of(db), NULL, NULL)) != DB_OK)
		return rc;
	res = PQexec(pg_conn_of(db)->conn,
	    "SELECT (pg_current_wal_lsn() - '0/0')::bigint");

	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		*version = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	else
		rc = pg_result_code(pg_conn_of(db), res);
	PQclear(res);
	return rc;
}

int
pg_listen(struct db *db, const char *channel)
{
	char sql[96];
	int rc;

	snprintf(sql, sizeof sql, "LISTEN %s", channel);
	if ((rc = pg_exec(db, sql)) != DB_OK)
		return rc;
	snprintf(pg_conn_of(db)->listening, sizeof pg_conn_of(db)->listening, "%s", channel);
	pg_conn_of(db)->listening_session = pg_conn_of(db)->session;
	return DB_OK;
}

int
pg_watch_fd(struct pg_conn *c)
{
	return PQsocket(c->conn);
}

/* What the server sent meanwhile, read without waiting. */
int
pg_notified(struct pg_conn *c, bool *any)
{
	PGnotify *n;
	struct db db = { NULL, c };

	/*
	 * A connection made again has forgotten the LISTEN: it listens
	 * anew, and whatever was sent in between counts as heard.
	 */
	if (PQstatus(c->conn) == CONNECTION_BAD && reconnect(c) != 0)
		return DB_ERROR;
	if (c->listening[0] != '\0' && c->listening_session != c->session) {
		*any = true;
		return pg_listen(&db, c->listening);
	}
	if (PQconsumeInput(c->conn) == 0) {
		keep_message(c, NULL);
		return DB_ERROR;
	}
	while ((n = PQnotifies(c->conn)) != NULL) {
		*any = true;
		PQfreemem(n);
	}
	return DB_OK;
}
