/*
 * The store's long reads on PostgreSQL, streamed (issue 34).  list,
 * check and audit export walk a whole table; run as one statement, libpq
 * would hold every row in one PGresult, so a client's memory would grow
 * with the queue.  A read marked with db_stream runs instead, outside the
 * write lock, as a cursor: its rows come a FETCH at a time, a few MiB
 * each, and db_step goes on to the next FETCH where a batch ends.
 *
 * A cursor, not libpq's single-row mode: the store runs other statements
 * on the same connection between two rows of such a read (the policy
 * loads of check and list, the packet of each record audit export
 * prints), and single-row mode keeps the connection busy until the last
 * row is read.  (libpq 17's chunked mode has the same limit.)
 *
 * A cursor lives in a transaction.  Outside the store's own one is begun
 * for it (READ COMMITTED: each statement in it sees what it would see on
 * its own) and ended when its last cursor closes; pg_in_transaction does
 * not count it.  Before anything that must not run inside it (a BEGIN,
 * any db_exec, a write, which would otherwise be committed only with it)
 * and before the store's own transaction ends (which ends its cursors),
 * pg_stream_yield reads the rows still to come whole, as every read was
 * read before: the read goes on from memory, never cut short.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_internal.h"

/* Bytes of rows a FETCH asks for, and its bounds in rows. */
#define STREAM_BYTES (2L << 20)
#define STREAM_FIRST 256
#define STREAM_FEWEST 16
#define STREAM_MOST 8192

struct pg_cursor {
	struct pg_conn *c;
	struct pg_stmt *st;
	struct pg_cursor *next;		/* the connection's open cursors */
	char name[24];
	unsigned long session;		/* the connection it was declared on */
	long fetch;			/* rows the next FETCH asks for */
	PGresult *rest;			/* the rows still to come, read whole */
	int failed;			/* or the error reading them met */
	bool yielded;			/* the server's cursor is gone */
};

/* The transaction begun for cursors, on this very connection. */
static bool
own_tx(const struct pg_conn *c)
{
	return c->cursor_tx && c->cursor_session == c->session;
}

/* Any cursor still open on the server. */
static bool
live(const struct pg_conn *c)
{
	const struct pg_cursor *cur;

	for (cur = c->cursors; cur != NULL; cur = cur->next)
		if (!cur->yielded && cur->session == c->session)
			return true;
	return false;
}

bool
pg_stream_own_tx(const struct pg_conn *c)
{
	return own_tx(c);
}

int
pg_stream_mark(struct pg_stmt *st)
{
	st->stream = st->kind == PG_READ;
	return DB_OK;
}

bool
pg_stream_wanted(const struct pg_conn *c, const struct pg_stmt *st)
{
	return st->stream && !c->locked && !c->piping;
}

/* One statement of the cursor's own, no rows; its error kept. */
static int
run(struct pg_conn *c, const char *sql)
{
	PGresult *res = PQexec(c->conn, sql);
	int rc = PQresultStatus(res) == PGRES_COMMAND_OK ? DB_OK :
	    pg_result_code(c, res);

	PQclear(res);
	return rc;
}

/*
 * The same, after an error perhaps: a CLOSE or COMMIT that fails then
 * (the transaction aborted) says nothing new, so the message stays the
 * first error's.
 */
static void
run_quietly(struct pg_conn *c, const char *sql)
{
	char message[sizeof c->message];

	memcpy(message, c->message, sizeof message);
	(void)run(c, sql);
	memcpy(c->message, message, sizeof message);
}

/* The transaction begun for cursors ends with its last one. */
static void
end_own_tx(struct pg_conn *c)
{
	if (!own_tx(c) || live(c))
		return;
	if (PQstatus(c->conn) == CONNECTION_OK)
		run_quietly(c, "COMMIT");
	c->cursor_tx = false;
}

/*
 * The cursor forgotten, and closed on the server unless it is gone
 * there already (read whole, or the connection made again since).
 */
static void
cursor_end(struct pg_cursor *cur)
{
	struct pg_conn *c = cur->c;
	struct pg_cursor **p;
	char sql[48];

	for (p = &c->cursors; *p != NULL; p = &(*p)->next)
		if (*p == cur) {
			*p = cur->next;
			break;
		}
	if (!cur->yielded && cur->session == c->session &&
	    PQstatus(c->conn) == CONNECTION_OK) {
		if (own_tx(c) && !live(c))
			end_own_tx(c);	/* the COMMIT closes it */
		else {
			snprintf(sql, sizeof sql, "CLOSE %s", cur->name);
			run_quietly(c, sql);
		}
	}
	PQclear(cur->rest);
	cur->st->cursor = NULL;
	free(cur);
}

/* The next batch of rows, in place of the one stepped through. */
static int
fetch(struct pg_cursor *cur)
{
	struct pg_conn *c = cur->c;
	struct pg_stmt *st = cur->st;
	char sql[64];
	PGresult *res;
	long n, asked = cur->fetch, bytes = 0, per;
	int i, k, rc;

	if (cur->session != c->session) {
		snprintf(c->message, sizeof c->message, "the connection to "
		    "the server was lost during a read");
		cursor_end(cur);
		return DB_ERROR;
	}
	snprintf(sql, sizeof sql, "FETCH %ld FROM %s", asked, cur->name);
	res = PQexec(c->conn, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_result_code(c, res);
		PQclear(res);
		cursor_end(cur);
		return rc;
	}
	n = PQntuples(res);
	/* The next asks for about STREAM_BYTES, as long as these rows were. */
	for (i = 0; i < n; i++)
		for (k = 0; k < PQnfields(res); k++)
			bytes += PQgetlength(res, i, k);
	if (n > 0) {
		per = bytes / n + 1;
		cur->fetch = STREAM_BYTES / per;
		if (cur->fetch < STREAM_FEWEST)
			cur->fetch = STREAM_FEWEST;
		if (cur->fetch > STREAM_MOST)
			cur->fetch = STREAM_MOST;
	}
	pg_drop_rows(st);
	/* Fewer than asked for: the last; the cursor is done with now. */
	if (n < asked)
		cursor_end(cur);
	return pg_take_rows(c, st, res);
}

int
pg_stream_open(struct pg_conn *c, struct pg_stmt *st)
{
	const char *const *values = (const char *const *)st->values;
	struct pg_cursor *cur;
	char *sql;
	PGresult *res;
	size_t n;
	int rc;

	if (!c->in_tx && !own_tx(c) &&
	    PQtransactionStatus(c->conn) == PQTRANS_IDLE) {
		if ((rc = run(c, "BEGIN ISOLATION LEVEL READ COMMITTED")) !=
		    DB_OK)
			return rc;
		c->cursor_tx = true;
		c->cursor_session = c->session;
	}
	n = strlen(st->sql) + 64;
	if ((cur = calloc(1, sizeof *cur)) == NULL ||
	    (sql = malloc(n)) == NULL) {
		free(cur);
		snprintf(c->message, sizeof c->message, "out of memory");
		end_own_tx(c);
		return DB_NOMEM;
	}
	cur->c = c;
	cur->st = st;
	cur->session = c->session;
	cur->fetch = STREAM_FIRST;
	snprintf(cur->name, sizeof cur->name, "cs_cursor%lu", ++c->statements);
	snprintf(sql, n, "DECLARE %s NO SCROLL CURSOR FOR %s", cur->name,
	    st->sql);
	res = PQexecParams(c->conn, sql, st->nparams, st->types, values,
	    st->lengths, NULL, 0);
	free(sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		rc = pg_result_code(c, res);
		PQclear(res);
		free(cur);
		end_own_tx(c);
		return rc;
	}
	PQclear(res);
	cur->next = c->cursors;
	c->cursors = cur;
	st->cursor = cur;
	return fetch(cur);
}

int
pg_stream_next(struct pg_stmt *st)
{
	struct pg_cursor *cur = st->cursor;
	struct pg_conn *c = cur->c;
	PGresult *res;
	int rc;

	if (!cur->yielded)
		return fetch(cur);
	/* Read whole already: the rest, then no more. */
	rc = cur->failed;
	res = cur->rest;
	cur->rest = NULL;
	cursor_end(cur);
	if (rc != DB_OK) {
		PQclear(res);
		return rc;
	}
	pg_drop_rows(st);
	return pg_take_rows(c, st, res);
}

void
pg_stream_close(struct pg_stmt *st)
{
	if (st->cursor != NULL)
		cursor_end(st->cursor);
}

int
pg_stream_yield(struct pg_conn *c)
{
	struct pg_cursor *cur;
	char sql[48];
	PGresult *res;

	for (cur = c->cursors; cur != NULL; cur = cur->next) {
		if (cur->yielded)
			continue;
		cur->yielded = true;
		if (cur->session != c->session) {
			snprintf(c->message, sizeof c->message, "the "
			    "connection to the server was lost during a read");
			cur->failed = DB_ERROR;
			continue;
		}
		snprintf(sql, sizeof sql, "FETCH ALL FROM %s", cur->name);
		res = PQexec(c->conn, sql);
		if (PQresultStatus(res) == PGRES_TUPLES_OK)
			cur->rest = res;
		else {
			cur->failed = pg_result_code(c, res);
			PQclear(res);
		}
	}
	if (own_tx(c) && PQstatus(c->conn) == CONNECTION_OK)
		run_quietly(c, "COMMIT");
	c->cursor_tx = false;
	return DB_OK;
}

void
pg_stream_forget(struct pg_conn *c)
{
	struct pg_cursor *cur;

	/* A statement may outlive its connection: it then holds no cursor. */
	while ((cur = c->cursors) != NULL) {
		c->cursors = cur->next;
		cur->st->cursor = NULL;
		PQclear(cur->rest);
		free(cur);
	}
	c->cursor_tx = false;
}
