/* The store's SQL as PostgreSQL takes it (src/store/pg_db.c, issue 20). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../src/store/db.h"
#include "../../src/store/pg_internal.h"
#include "../../src/store/store_internal.h"

static void
expect_translation(const char *sql, const char *want, int want_params)
{
	unsigned char used[8] = { 0 };
	int n = -1;
	char *got = pg_translate(sql, &n, used, 8);

	assert_non_null(got);
	assert_string_equal(got, want);
	assert_int_equal(n, want_params);
	free(got);
}

static void
numbered_parameters(void **state)
{
	(void)state;
	expect_translation("SELECT a FROM t WHERE b = ?1 AND c = ?12",
	    "SELECT a FROM t WHERE b = $1 AND c = $12", 12);
	/* A bare ? is the next number after the highest so far. */
	expect_translation("VALUES (?, ?3, ?)", "VALUES ($1, $3, $4)", 4);
}

static void
quoted_text_is_left_alone(void **state)
{
	(void)state;
	expect_translation("SELECT '?1 IS NOT x', \"is ?\" FROM t WHERE"
	    " a = 'it''s ?2' AND b = ?1",
	    "SELECT '?1 IS NOT x', \"is ?\" FROM t WHERE"
	    " a = 'it''s ?2' AND b = $1", 1);
}

static void
null_safe_comparisons(void **state)
{
	(void)state;
	expect_translation("WHERE a IS NOT b OR c IS d",
	    "WHERE a IS DISTINCT FROM b OR c IS NOT DISTINCT FROM d", 0);
	expect_translation("WHERE a IS NULL AND b IS NOT NULL AND c IS TRUE",
	    "WHERE a IS NULL AND b IS NOT NULL AND c IS TRUE", 0);
	/* Only the word IS: THIS and ISO stay as they are. */
	expect_translation("SELECT this, iso FROM t",
	    "SELECT this, iso FROM t", 0);
}

static void
integers_are_64_bits(void **state)
{
	(void)state;
	expect_translation("SELECT CAST(x * 1000 AS INTEGER) AS integral",
	    "SELECT CAST(x * 1000 AS BIGINT) AS integral", 0);
}

static void
skipped_numbers_are_reported(void **state)
{
	unsigned char used[8] = { 0 };
	int n;
	char *got = pg_translate("LIMIT ?3 OFFSET ?4 WHERE ?1", &n, used, 8);

	(void)state;
	assert_non_null(got);
	assert_int_equal(n, 4);
	assert_int_equal(used[0], 1);
	assert_int_equal(used[1], 0);
	assert_int_equal(used[2], 1);
	assert_int_equal(used[3], 1);
	free(got);
}

/* A statement as pg_prepare() makes it, told what it does (db.h). */
static struct pg_stmt *
prepared(const char *sql, int use)
{
	static struct pg_conn c;
	struct db db = { &pg_ops, &c };
	struct pg_stmt *st = NULL;

	assert_int_equal(pg_prepare(&db, sql, use, &st), DB_OK);
	assert_non_null(st);
	return st;
}

/*
 * What the pipeline takes a statement to do is what it was told, never
 * its text (issue 38): a mistake here is a prefetched answer used after
 * a write, or a lost order.  Only a kept write is sent without waiting,
 * and only in a batch, which only the lock's holder may begin.
 */
static void
statements_do_what_they_are_told(void **state)
{
	struct pg_conn locked, unlocked;
	struct db db = { &pg_ops, &unlocked };
	struct pg_stmt *st;

	(void)state;
	memset(&locked, 0, sizeof locked);
	memset(&unlocked, 0, sizeof unlocked);
	assert_int_equal(pg_batch_begin(&db), DB_ERROR);
	assert_false(unlocked.batching);
	locked.locked = true;
	db.conn = &locked;
	/* An owner's function reads as a SELECT; told it writes, it does. */
	st = prepared("SELECT cs_decision_insert(?1, ?2)", DB_WRITES | DB_KEEP);
	assert_int_equal(st->kind, PG_WRITE);
	/* Under the lock but in no batch: run at once. */
	assert_false(pg_pipelined(&locked, st));
	assert_int_equal(pg_batch_begin(&db), DB_OK);
	assert_true(pg_pipelined(&locked, st));
	assert_false(pg_pipelined(&unlocked, st));
	pg_finalize(st);
	/* The same text told it reads: a read, whatever its name says. */
	st = prepared("SELECT cs_decision_insert(?1, ?2)", DB_READS | DB_KEEP);
	assert_int_equal(st->kind, PG_READ);
	assert_false(pg_pipelined(&locked, st));
	pg_finalize(st);
	/* A write made for one use runs at once. */
	st = prepared("DELETE FROM queue_index WHERE action_id = ?1",
	    DB_WRITES);
	assert_int_equal(st->kind, PG_WRITE);
	assert_false(st->persistent);
	assert_false(pg_pipelined(&locked, st));
	pg_finalize(st);
	st = prepared("SAVEPOINT decision", DB_MARKS | DB_KEEP);
	assert_int_equal(st->kind, PG_MARK);
	assert_true(pg_pipelined(&locked, st));
	/* The batch's end: nothing was sent, so nothing is owed. */
	assert_int_equal(pg_batch_end(&db), DB_OK);
	assert_false(pg_pipelined(&locked, st));
	pg_finalize(st);
}

/*
 * Every statement PostgreSQL runs as a function of the schema's owner
 * (pg_statements.c) is declared a write: SQLite's refusal of a read that
 * writes checks the declarations through SQLite's own texts, and this
 * the texts only PostgreSQL runs.
 */
static void
owner_functions_are_declared_writes(void **state)
{
	int i, calls = 0;

	(void)state;
	for (i = 0; i < SQL_STATEMENT_COUNT; i++)
		if (pg_store_sql[i] != NULL &&
		    strncmp(pg_store_sql[i], "SELECT cs_", 10) == 0) {
			assert_int_equal(store_statement_use[i], DB_WRITES);
			calls++;
		}
	for (i = 0; i < ARTIFACT_STATEMENTS; i++)
		if (pg_artifact_sql[i] != NULL &&
		    strncmp(pg_artifact_sql[i], "SELECT cs_", 10) == 0) {
			assert_int_equal(artifact_statement_use[i], DB_WRITES);
			calls++;
		}
	assert_true(calls >= 10);
}

/* An answer of st to value, as of c->changed, put before st's others. */
static void
give_answer(struct pg_conn *c, struct pg_stmt *st, const char *value)
{
	struct pg_answer *a = calloc(1, sizeof *a);

	assert_non_null(a);
	assert_non_null(a->values = calloc(1, sizeof *a->values));
	assert_non_null(a->lengths = calloc(1, sizeof *a->lengths));
	assert_non_null(a->values[0] = strdup(value));
	a->lengths[0] = (int)strlen(value);
	a->res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
	a->at = c->changed;
	a->next = st->prefetched;
	st->prefetched = a;
}

/*
 * A prefetched answer (pg_prefetched_find) is taken only under the lock,
 * bound to the very values it was asked with, and only until something
 * may have changed a row (pg_changed); one statement may hold answers to
 * several values (db_prefetch_add).
 */
static void
prefetched_answers_hold_until_a_change(void **state)
{
	struct pg_conn c;
	struct pg_stmt st;
	char *values[1];
	int lengths[1] = { 3 };
	PGresult *got;

	(void)state;
	memset(&c, 0, sizeof c);
	memset(&st, 0, sizeof st);
	c.locked = true;
	st.nparams = 1;
	st.values = values;
	st.lengths = lengths;
	give_answer(&c, &st, "t-1");
	give_answer(&c, &st, "t-3");
	values[0] = "t-1";

	assert_non_null(got = pg_prefetched_find(&c, &st));
	PQclear(got);
	values[0] = "t-3";		/* the other value asked */
	assert_non_null(got = pg_prefetched_find(&c, &st));
	PQclear(got);
	values[0] = "t-2";		/* another action's read */
	assert_null(pg_prefetched_find(&c, &st));
	values[0] = NULL;		/* NULL is not "t-1" */
	assert_null(pg_prefetched_find(&c, &st));
	values[0] = "t-1";
	c.locked = false;		/* others may write */
	assert_null(pg_prefetched_find(&c, &st));
	c.locked = true;
	assert_non_null(got = pg_prefetched_find(&c, &st));
	PQclear(got);
	pg_changed(&c);			/* a write sent, of any table */
	assert_null(pg_prefetched_find(&c, &st));
	values[0] = "t-3";
	assert_null(pg_prefetched_find(&c, &st));
	pg_prefetched_free(&st);
	assert_null(st.prefetched);
}

/*
 * Only db_prepare_rows()'s statements hold rows, as marked by pg_rows():
 * no INSERT is batched for its text, and the tuple pg_rows() finds is
 * the one that statement ends in.
 */
static void
inserts_batched_only_as_asked(void **state)
{
	struct pg_stmt *st;

	(void)state;
	st = prepared("INSERT INTO action (a, b) VALUES (?1, ?2)",
	    DB_WRITES | DB_KEEP);
	assert_false(st->batchable);
	pg_finalize(st);
	st = prepared("INSERT INTO queue_index (a, b) VALUES (?1, ?2)",
	    DB_WRITES | DB_KEEP);
	assert_int_equal(pg_rows(st, 2, 1), DB_OK);
	assert_true(st->batchable);
	assert_int_equal(st->rank, 1);
	assert_string_equal(st->sql + st->tuple_at, "($1, $2)");
	assert_int_equal(st->tuple_end, strlen(st->sql));
	pg_finalize(st);
	/* Not the statement db_prepare_rows() makes: refused, not held. */
	st = prepared("INSERT INTO action (a, b) VALUES (?2, ?1)",
	    DB_WRITES | DB_KEEP);
	assert_int_equal(pg_rows(st, 2, 0), DB_ERROR);
	assert_false(st->batchable);
	pg_finalize(st);
	st = prepared("INSERT INTO action (a, b) VALUES (?1, ?2) ON CONFLICT"
	    " (a) DO NOTHING", DB_WRITES | DB_KEEP);
	assert_int_equal(pg_rows(st, 2, 0), DB_ERROR);
	assert_false(st->batchable);
	pg_finalize(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbered_parameters),
		cmocka_unit_test(quoted_text_is_left_alone),
		cmocka_unit_test(null_safe_comparisons),
		cmocka_unit_test(integers_are_64_bits),
		cmocka_unit_test(skipped_numbers_are_reported),
		cmocka_unit_test(statements_do_what_they_are_told),
		cmocka_unit_test(owner_functions_are_declared_writes),
		cmocka_unit_test(inserts_batched_only_as_asked),
		cmocka_unit_test(prefetched_answers_hold_until_a_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
