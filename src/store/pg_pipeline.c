/*
 * Round trips saved on PostgreSQL inside a write transaction (issue 20).
 * A decision sends some twenty statements; one after another, each a trip
 * to the server and back, they cost five times what the bare inserts of
 * the same records do (bench/README.md).  Two mechanisms, both only while
 * the connection holds the one write lock (pg_begin_write), when no other
 * connection can change a row, and both asked for by the store:
 *
 * - The pipeline, in a batch (db_batch_begin, as libpq's own pipeline
 *   tests send their sync points where the caller knows it has a
 *   batch): a write of the store's own (prepared DB_WRITES or DB_MARKS,
 *   and DB_KEEP) is sent and not waited for.  Its result is read at the
 *   next settling: the next read, exec, db_batch_end or COMMIT, which
 *   therefore reports any error a write met.  A failed write aborts the
 *   transaction on the server, so nothing after it, and no COMMIT,
 *   succeeds: the caller sees the error before anything is "recorded".
 *
 * - The prefetch: reads the store says it is about to make (db_prefetch)
 *   go to the server together, one trip for all, and each answer is kept
 *   on its statement.  The statement's next steps, bound to the same
 *   values, take a copy of it until anything may have changed a row:
 *   any write but a savepoint's, anything db_exec() runs, a failure,
 *   the end of the transaction (c->changed).  No read is answered from
 *   memory that the caller did not ask to prefetch, and no table or
 *   column name decides what is still true.
 *
 * What a statement does is what db_prepare() was told (db.h), never
 * read off its text.  A write through one of the owner's functions is
 * pipelined as a write is; it checks its own row counts, raising an
 * error where a count is not the one it needs.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_internal.h"

/*
 * Marks st, "INSERT INTO t (...) VALUES ($1, ..., $n)" as db_prepare_rows()
 * made it, as one whose rows may be held and sent PG_BATCH_ROWS to a
 * statement, after the rows of statements of a lower order (db.h).
 */
int
pg_rows(struct pg_stmt *st, int ncolumns, int order)
{
	char tuple[MAX_PARAMETERS * 6 + 3];
	size_t used = 0, length = strlen(st->sql);
	int i;

	if (ncolumns < 1 || ncolumns != st->nparams || ncolumns > MAX_PARAMETERS)
		return DB_ERROR;
	for (i = 1; i <= ncolumns; i++)
		used += (size_t)snprintf(tuple + used, sizeof tuple - used,
		    "%s$%d", i == 1 ? "(" : ", ", i);
	used += (size_t)snprintf(tuple + used, sizeof tuple - used, ")");
	/* The tuple db_prepare_rows() wrote is the statement's end. */
	if (used > length || strcmp(st->sql + length - used, tuple) != 0)
		return DB_ERROR;
	st->batchable = true;
	st->rank = order;
	st->tuple_at = length - used;
	st->tuple_end = length;
	return DB_OK;
}

bool
pg_pipelined(const struct pg_conn *c, const struct pg_stmt *st)
{
	return c->batching && st->persistent && st->kind != PG_READ;
}

void
pg_changed(struct pg_conn *c)
{
	c->changed++;
}

static void
answer_free(struct pg_answer *a, int nparams)
{
	int i;

	for (i = 0; a->values != NULL && i < nparams; i++)
		free(a->values[i]);
	free(a->values);
	free(a->lengths);
	PQclear(a->res);
	free(a);
}

void
pg_prefetched_free(struct pg_stmt *st)
{
	struct pg_answer *a, *next;

	for (a = st->prefetched; a != NULL; a = next) {
		next = a->next;
		answer_free(a, st->nparams);
	}
	st->prefetched = NULL;
}

/* st is bound now to the values answer a was asked with. */
static bool
bound_as(const struct pg_stmt *st, const struct pg_answer *a)
{
	int i;

	for (i = 0; i < st->nparams; i++) {
		const char *was = a->values[i];

		if ((was == NULL) != (st->values[i] == NULL))
			return false;
		if (was != NULL && (a->lengths[i] != st->lengths[i] ||
		    memcmp(was, st->values[i], (size_t)st->lengths[i]) != 0))
			return false;
	}
	return true;
}

/* A copy of st's prefetched answer to its values while it holds, or NULL. */
PGresult *
pg_prefetched_find(struct pg_conn *c, const struct pg_stmt *st)
{
	const struct pg_answer *a;

	if (!c->locked)
		return NULL;
	for (a = st->prefetched; a != NULL; a = a->next)
		if (a->res != NULL && a->at == c->changed && bound_as(st, a))
			return PQcopyResult(a->res, PG_COPYRES_ATTRS |
			    PG_COPYRES_TUPLES);
	return NULL;
}

/*
 * A new answer of st, its values those st is bound to, as of now (a
 * write sent after it is a change); the answers that no longer hold
 * go.  NULL when out of memory.
 */
static struct pg_answer *
answer_new(const struct pg_conn *c, struct pg_stmt *st)
{
	struct pg_answer *a, **p;
	int i;

	for (p = &st->prefetched; *p != NULL;)
		if ((*p)->at != c->changed && !(*p)->coming) {
			a = *p;
			*p = a->next;
			answer_free(a, st->nparams);
		} else
			p = &(*p)->next;
	if ((a = calloc(1, sizeof *a)) == NULL)
		return NULL;
	a->at = c->changed;
	if (st->nparams > 0 && ((a->values = calloc((size_t)st->nparams,
	    sizeof *a->values)) == NULL || (a->lengths = calloc(
	    (size_t)st->nparams, sizeof *a->lengths)) == NULL))
		goto fail;
	for (i = 0; i < st->nparams; i++) {
		a->lengths[i] = st->lengths[i];
		if (st->values[i] == NULL)
			continue;
		if ((a->values[i] = malloc((size_t)st->lengths[i] + 1)) ==
		    NULL)
			goto fail;
		memcpy(a->values[i], st->values[i], (size_t)st->lengths[i] + 1);
	}
	a->next = st->prefetched;
	st->prefetched = a;
	return a;
fail:
	answer_free(a, st->nparams);
	return NULL;
}

int
pg_prepare_on_server(struct pg_conn *c, struct pg_stmt *st)
{
	PGresult *res;
	int rc;

	if (st->prepared && st->session != c->session)
		st->prepared = false;	/* the server forgot it on reconnecting */
	if (!st->persistent || st->prepared)
		return DB_OK;
	snprintf(st->name, sizeof st->name, "cs%lu", ++c->statements);
	if (c->piping) {
		if (!PQsendPrepare(c->conn, st->name, st->sql, st->nparams,
		    st->types))
			return pg_result_code(c, NULL);
		/*
		 * Taken as prepared at once, so that the statement can follow;
		 * a pipeline that fails before the server reaches it undoes
		 * that (take_result), or every later use would name a
		 * statement the server never made.
		 */
		c->owed[(c->owed_first + c->owed_count++) % PG_OWED_MAX] =
		    (struct pg_owed){ OWED_PREPARE, st, -1, NULL };
	} else {
		res = PQprepare(c->conn, st->name, st->sql, st->nparams,
		    st->types);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			rc = pg_result_code(c, res);
			PQclear(res);
			return rc;
		}
		PQclear(res);
	}
	st->prepared = true;
	st->session = c->session;
	return DB_OK;
}

void
pg_free_held(struct pg_stmt *st)
{
	int i;

	for (i = 0; st->held_values != NULL && i < st->held * st->nparams; i++)
		free(st->held_values[i]);
	st->held = 0;
}

/* Forgets the rows held, sent nowhere: the connection is new. */
void
pg_drop_held(struct pg_conn *c)
{
	int i;

	for (i = 0; i < c->nholding; i++)
		pg_free_held(c->holding[i]);
	c->nholding = 0;
}

static int send_one(struct pg_conn *, struct pg_stmt *, enum pg_owed_use,
    int, struct pg_answer *);
static int settle(struct pg_conn *, struct pg_stmt *, PGresult **, bool);

/* The statement inserting PG_BATCH_ROWS rows of st, made once. */
static struct pg_stmt *
many_rows(struct pg_stmt *st)
{
	size_t tuple = st->tuple_end - st->tuple_at, size;
	struct pg_stmt *m;
	char *o;
	const char *p;
	int r;

	if (st->many != NULL)
		return st->many;
	size = st->tuple_at + (size_t)PG_BATCH_ROWS * (tuple * 2 + 2) + 1;
	if ((m = calloc(1, sizeof *m)) == NULL || (m->sql = malloc(size)) ==
	    NULL || (m->types = calloc((size_t)PG_BATCH_ROWS *
	    (size_t)st->nparams, sizeof *m->types)) == NULL) {
		if (m != NULL)
			free(m->sql);
		free(m);
		return NULL;
	}
	memcpy(m->sql, st->sql, st->tuple_at);
	o = m->sql + st->tuple_at;
	for (r = 0; r < PG_BATCH_ROWS; r++) {
		if (r > 0) {
			*o++ = ',';
			*o++ = ' ';
		}
		/* The tuple again, each $k numbered on past the rows before. */
		for (p = st->sql + st->tuple_at; p < st->sql + st->tuple_end;) {
			if (*p == '$') {
				char *end;
				long k = strtol(p + 1, &end, 10);

				o += sprintf(o, "$%ld", (long)r * st->nparams + k);
				p = end;
			} else
				*o++ = *p++;
		}
	}
	*o = '\0';
	m->nparams = PG_BATCH_ROWS * st->nparams;
	m->persistent = true;
	m->kind = PG_WRITE;
	m->row = -1;
	st->many = m;
	return m;
}

/* Sends the rows st holds: PG_BATCH_ROWS at a time, the rest one by one. */
static int
send_held(struct pg_conn *c, struct pg_stmt *st)
{
	char **own_values = st->values;
	int *own_lengths = st->lengths;
	struct pg_stmt *m = NULL;
	int done = 0, rc = DB_OK;

	while (rc == DB_OK && done < st->held) {
		if (st->held - done >= PG_BATCH_ROWS && (m = many_rows(st)) !=
		    NULL) {
			m->values = st->held_values + done * st->nparams;
			m->lengths = st->held_lengths + done * st->nparams;
			rc = send_one(c, m, OWED_DISCARD, -1, NULL);
			m->values = NULL;
			m->lengths = NULL;
			done += PG_BATCH_ROWS;
		} else {
			st->values = st->held_values + done * st->nparams;
			st->lengths = st->held_lengths + done * st->nparams;
			rc = send_one(c, st, OWED_DISCARD, -1, NULL);
			done++;
		}
	}
	st->values = own_values;
	st->lengths = own_lengths;
	pg_free_held(st);
	return rc;
}

/*
 * Sends the rows held of the statements up to order `upto` (db_prepare_rows)
 * (all: INT_MAX), in that order: a full table's rows go with only the
 * rows they may depend on, and the others stay held to fill up.
 */
static int
send_held_upto(struct pg_conn *c, int upto)
{
	struct pg_stmt *holding[PG_HOLDING_MAX];
	int i, j, n = 0, rc = DB_OK;

	/* Taken off the list first: a settling on the way finds them gone. */
	for (i = j = 0; i < c->nholding; i++)
		if (c->holding[i]->rank <= upto)
			holding[n++] = c->holding[i];
		else
			c->holding[j++] = c->holding[i];
	c->nholding = j;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && holding[j - 1]->rank > holding[j]->rank;
		    j--) {
			struct pg_stmt *t = holding[j];

			holding[j] = holding[j - 1];
			holding[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		int sent = send_held(c, holding[i]);

		if (rc == DB_OK)
			rc = sent;
	}
	return rc;
}

static int
send_all_held(struct pg_conn *c)
{
	return send_held_upto(c, INT_MAX);
}

/* Holds st's row, its values moved out of st; false when it cannot. */
static bool
hold(struct pg_conn *c, struct pg_stmt *st)
{
	int i;

	if (st->held == 0 && c->nholding == PG_HOLDING_MAX)
		return false;
	if (st->held_values == NULL && ((st->held_values = calloc(
	    (size_t)PG_BATCH_ROWS * (size_t)st->nparams,
	    sizeof *st->held_values)) == NULL || (st->held_lengths = calloc(
	    (size_t)PG_BATCH_ROWS * (size_t)st->nparams,
	    sizeof *st->held_lengths)) == NULL))
		return false;
	if (st->held == 0)
		c->holding[c->nholding++] = st;
	for (i = 0; i < st->nparams; i++) {
		st->held_values[st->held * st->nparams + i] = st->values[i];
		st->held_lengths[st->held * st->nparams + i] = st->lengths[i];
		st->values[i] = NULL;
	}
	st->held++;
	return true;
}

static struct pg_owed *
owed_head(struct pg_conn *c)
{
	return &c->owed[c->owed_first];
}

static void
owed_pop(struct pg_conn *c)
{
	c->owed_first = (c->owed_first + 1) % PG_OWED_MAX;
	c->owed_count--;
	if (c->owed_asked > 0)
		c->owed_asked--;
}

/* Sends what is owed with a request for its results (take_ready). */
static bool
ask_owed(struct pg_conn *c)
{
	if (!PQsendFlushRequest(c->conn) || PQflush(c->conn) != 0)
		return false;
	c->owed_asked = c->owed_count;
	return true;
}

static void
written_earlier(struct pg_conn *c)
{
	static const char said[] = "a write sent earlier in this transaction "
	    "failed: ";
	size_t n = strlen(c->message);

	/* The server's words after ours, cut if they must be. */
	if (n > sizeof c->message - sizeof said)
		n = sizeof c->message - sizeof said;
	memmove(c->message + sizeof said - 1, c->message, n);
	memcpy(c->message, said, sizeof said - 1);
	c->message[sizeof said - 1 + n] = '\0';
}

/*
 * One result of the oldest statement owed: a write's count checked, a
 * read's rows remembered or handed over in *out; the first error kept in
 * c->failed (its message in c->message).
 */
static void
take_result(struct pg_conn *c, PGresult *res, PGresult **out)
{
	struct pg_owed *e = owed_head(c);
	ExecStatusType status = PQresultStatus(res);

	if (e->use == OWED_PREPARE && status != PGRES_COMMAND_OK)
		e->st->prepared = false;
	if (e->use == OWED_PREFETCH)
		e->answer->coming = false;
	if (e->use == OWED_PREPARE && status == PGRES_COMMAND_OK) {
		/* prepared, as taken */
	} else if (status == PGRES_COMMAND_OK && e->use == OWED_DISCARD) {
		c->changes = atoi(PQcmdTuples(res));
		if (e->expected >= 0 && c->failed == DB_OK &&
		    c->changes != e->expected) {
			snprintf(c->message, sizeof c->message, "a write "
			    "changed %d rows where %d were expected",
			    c->changes, e->expected);
			c->failed = DB_ERROR;
		}
	} else if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
		if (e->use == OWED_PREFETCH && c->failed == DB_OK) {
			e->answer->res = res;
			return;
		}
		if (e->use == OWED_DELIVER && c->failed == DB_OK &&
		    out != NULL && *out == NULL) {
			*out = res;
			return;
		}
	} else if (c->failed == DB_OK) {
		/* PIPELINE_ABORTED follows an error already kept. */
		c->failed = pg_result_code(c, res);
		if (c->failed == DB_OK)
			c->failed = DB_ERROR;
		/*
		 * Met now, sent before: say so, or the message would blame
		 * whatever read or commit happened to bring it back.
		 */
		if (e->use == OWED_DISCARD)
			written_earlier(c);
	}
	PQclear(res);
}

static void
lost(struct pg_conn *c)
{
	if (c->failed == DB_OK && (c->failed = pg_result_code(c, NULL)) ==
	    DB_OK)
		c->failed = DB_ERROR;
}

/*
 * Reads the results already come of the oldest statements owed, without
 * waiting, so that the server and this process work at once; with
 * `wait` (the pipeline is full), first waits until half of it is read.
 * After an error nothing more is read here: the settling reads the rest.
 */
static void
take_ready(struct pg_conn *c, bool wait)
{
	PGresult *res;

	if (wait && !ask_owed(c))
		lost(c);
	while (c->owed_count > 0 && c->failed == DB_OK) {
		if (!wait && c->owed_asked == 0)
			break;		/* nothing can have come yet */
		if (!wait || c->owed_count <= PG_OWED_MAX / 2) {
			if (!PQconsumeInput(c->conn)) {
				lost(c);
				break;
			}
			if (PQisBusy(c->conn))
				break;
		}
		if ((res = PQgetResult(c->conn)) == NULL)
			owed_pop(c);
		else
			take_result(c, res, NULL);
		if (PQstatus(c->conn) == CONNECTION_BAD)
			lost(c);
	}
}

/* Queues st in the pipeline; its result is read later (take_ready, settle). */
static int
send_one(struct pg_conn *c, struct pg_stmt *st, enum pg_owed_use use,
    int expected, struct pg_answer *answer)
{
	int rc;

	if (c->piping) {
		/* Room for st and its PREPARE, else wait for the server. */
		take_ready(c, c->owed_count + 2 > PG_OWED_MAX);
		if (c->failed != DB_OK)
			return c->failed;
	} else {
		if (!PQenterPipelineMode(c->conn))
			return pg_result_code(c, NULL);
		c->piping = true;
	}
	if ((rc = pg_prepare_on_server(c, st)) != DB_OK)
		return rc;
	if (!PQsendQueryPrepared(c->conn, st->name, st->nparams,
	    (const char *const *)st->values, st->lengths, NULL, 0))
		return pg_result_code(c, NULL);
	c->owed[(c->owed_first + c->owed_count++) % PG_OWED_MAX] =
	    (struct pg_owed){ use, st, expected, answer };
	/* Results come back as they are made, not only at the next sync. */
	if (c->owed_count > PG_OWED_MAX / 8 && !ask_owed(c))
		return pg_result_code(c, NULL);
	return DB_OK;
}

/*
 * Sends a write without waiting for it.  Now and then the pipeline is
 * settled, so that neither side's buffers fill with the other's unread
 * data.
 */
int
pg_send(struct pg_conn *c, struct pg_stmt *st, int expected)
{
	int rc;

	if (st->kind != PG_MARK)
		pg_changed(c);
	c->changes = -1;		/* known at the settling */
	if (st->batchable && expected < 0) {
		/* In pipeline mode: every way to the server settles first. */
		if (!c->piping) {
			if (!PQenterPipelineMode(c->conn))
				return pg_result_code(c, NULL);
			c->piping = true;
		}
		if (hold(c, st)) {
			if (st->held == PG_BATCH_ROWS &&
			    (rc = send_held_upto(c, st->rank)) != DB_OK)
				return rc;
			return DB_DONE;
		}
	}
	/* Anything else goes after the rows held, in order. */
	if ((rc = send_all_held(c)) != DB_OK)
		return rc;
	if ((rc = send_one(c, st, OWED_DISCARD, expected, NULL)) != DB_OK)
		return rc;
	return DB_DONE;
}

/*
 * Reads every owed result, and, with st, first sends st and hands its
 * result back in *out.  The first error any of them met is returned,
 * its message kept; the pipeline is left, whatever happened.
 */
int
pg_settle(struct pg_conn *c, struct pg_stmt *st, PGresult **out)
{
	return settle(c, st, out, true);
}

/*
 * With send_held false (the pipeline is full while rows are still held,
 * perhaps half sent): only what is owed is read, the rows held stay held
 * and the connection stays in pipeline mode for them.
 */
static int
settle(struct pg_conn *c, struct pg_stmt *st, PGresult **out,
    bool send_held)
{
	PGresult *res;
	int rc = DB_OK;

	if (out != NULL)
		*out = NULL;
	if (send_held && (rc = send_all_held(c)) != DB_OK && c->failed == DB_OK)
		c->failed = rc;
	if (c->failed == DB_OK && st != NULL &&
	    (rc = send_one(c, st, OWED_DELIVER, -1, NULL)) != DB_OK &&
	    c->failed == DB_OK)
		c->failed = rc;
	if (!c->piping)
		goto done;
	if (!PQpipelineSync(c->conn))
		lost(c);
	while (c->owed_count > 0) {
		if ((res = PQgetResult(c->conn)) == NULL)
			owed_pop(c);
		else
			take_result(c, res, out);
		if (PQstatus(c->conn) == CONNECTION_BAD) {
			lost(c);
			c->owed_count = 0;
		}
	}
	c->owed_first = c->owed_asked = 0;
	/* The sync point's own result, unless the connection is gone. */
	while (PQstatus(c->conn) != CONNECTION_BAD &&
	    (res = PQgetResult(c->conn)) != NULL) {
		bool sync = PQresultStatus(res) == PGRES_PIPELINE_SYNC;

		PQclear(res);
		if (sync)
			break;
	}
	if (c->nholding == 0 && !PQexitPipelineMode(c->conn))
		lost(c);
	c->piping = PQpipelineStatus(c->conn) != PQ_PIPELINE_OFF;
	if (PQstatus(c->conn) == CONNECTION_BAD)
		lost(c);
done:
	rc = c->failed;
	c->failed = DB_OK;
	if (rc != DB_OK) {
		if (out != NULL) {
			PQclear(*out);
			*out = NULL;
		}
		/* The transaction is aborted: nothing prefetched holds. */
		pg_changed(c);
	}
	return rc;
}

/* Sends st's read as it is bound, its answer to be kept (pg_prefetch). */
static int
prefetch_one(struct pg_conn *c, struct pg_stmt *st)
{
	struct pg_answer *a;
	PGresult *res;
	int rc;

	if (!st->persistent || st->kind != PG_READ)
		return DB_OK;
	if ((res = pg_prefetched_find(c, st)) != NULL) {
		PQclear(res);
		return DB_OK;
	}
	/* Not kept costs a trip later, nothing more. */
	if ((a = answer_new(c, st)) == NULL)
		return DB_OK;
	if ((rc = send_one(c, st, OWED_PREFETCH, -1, a)) == DB_OK)
		a->coming = true;
	return rc;
}

int
pg_prefetch_add(struct db *db, db_stmt *stmt)
{
	struct pg_conn *c = pg_conn_of(db);
	int rc;

	if (!c->locked)
		return DB_OK;
	/* Rows held go first: the reads must see them. */
	if ((rc = send_all_held(c)) != DB_OK ||
	    (rc = prefetch_one(c, pg_stmt_of(stmt))) != DB_OK) {
		if (c->failed == DB_OK)
			c->failed = rc;
		return pg_settle(c, NULL, NULL);
	}
	return DB_OK;
}

int
pg_prefetch(struct db *db, db_stmt *const *stmts, int n)
{
	struct pg_conn *c = pg_conn_of(db);
	int i, rc;

	if (!c->locked)
		return DB_OK;
	for (i = 0; i < n; i++)
		if ((rc = pg_prefetch_add(db, stmts[i])) != DB_OK)
			return rc;
	return c->piping ? pg_settle(c, NULL, NULL) : DB_OK;
}
