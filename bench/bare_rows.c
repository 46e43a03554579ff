/*
 * The floor for import (issue 34): what an import cannot avoid.  Each
 * JSON line is read and parsed with cJSON, and the very rows countersign's
 * import wrote for those lines are inserted into countersign's own tables,
 * with their indexes, triggers and foreign keys, in one transaction with
 * the store's pragmas.  No validation, no rules, no questions asked.
 *
 *   bare_rows DB ROWS_DB FILE...
 *
 * DB holds countersign's empty schema; ROWS_DB one table per table the
 * import wrote, named alike, holding the rows it wrote in the order it
 * wrote them (bench/run makes both).  The rows are read into memory first
 * and that read is not timed: only floor_work() is, and it prints its own
 * wall-clock seconds (callgrind: --toggle-collect=floor_work).  The rows
 * of each table go in spread over the lines as the import spreads them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>

struct table {
	char *insert;             /* INSERT OR REPLACE INTO t (cols) VALUES (?...) */
	int columns;
	long rows, done;
	sqlite3_value **values;   /* rows * columns */
	sqlite3_stmt *stmt;
};

static int
fail(sqlite3 *db, const char *what)
{
	fprintf(stderr, "bare_rows: %s: %s\n", what, sqlite3_errmsg(db));
	return 1;
}

/* Every row of ROWS_DB's table NAME, in rowid order, as values. */
static int
load_table(sqlite3 *rows, const char *name, struct table *t)
{
	sqlite3_stmt *st = NULL;
	sqlite3_str *cols = sqlite3_str_new(NULL), *marks = sqlite3_str_new(NULL);
	char *sql, *c_text, *m_text;
	long n = 0, c;
	int rc = 1, i;

	sql = sqlite3_mprintf("SELECT * FROM \"%w\" ORDER BY rowid", name);
	if (sqlite3_prepare_v2(rows, sql, -1, &st, NULL) != SQLITE_OK)
		goto cleanup;
	t->columns = sqlite3_column_count(st);
	for (i = 0; i < t->columns; i++) {
		sqlite3_str_appendf(cols, "%s\"%w\"", i ? ", " : "",
		    sqlite3_column_name(st, i));
		sqlite3_str_appendall(marks, i ? ", ?" : "?");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((t->values = realloc(t->values, sizeof *t->values *
		    (size_t)((n + 1) * t->columns))) == NULL)
			goto cleanup;
		for (c = 0; c < t->columns; c++)
			t->values[n * t->columns + c] =
			    sqlite3_value_dup(sqlite3_column_value(st, (int)c));
		n++;
	}
	t->rows = n;
	rc = rc == SQLITE_DONE ? 0 : 1;
cleanup:
	c_text = sqlite3_str_finish(cols);
	m_text = sqlite3_str_finish(marks);
	/* OR REPLACE: a row the migration made (queue_totals') is rewritten. */
	t->insert = sqlite3_mprintf("INSERT OR REPLACE INTO \"%w\" (%s)"
	    " VALUES (%s)", name, c_text, m_text);
	sqlite3_free(c_text);
	sqlite3_free(m_text);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return rc;
}

static int
insert_upto(sqlite3 *db, struct table *t, long upto)
{
	int c;

	for (; t->done < upto; t->done++) {
		for (c = 0; c < t->columns; c++)
			sqlite3_bind_value(t->stmt, c + 1,
			    t->values[t->done * t->columns + c]);
		if (sqlite3_step(t->stmt) != SQLITE_DONE)
			return fail(db, t->insert);
		sqlite3_reset(t->stmt);
	}
	return 0;
}

/* The timed part: open, parse every line, insert every row, commit. */
__attribute__((noinline)) static int
floor_work(const char *path, struct table *tables, int ntables, long lines,
    char **files, int nfiles)
{
	sqlite3 *db = NULL;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	long i = 0;
	int rc = 1, f, k;
	FILE *in;

	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
	    "PRAGMA trusted_schema = OFF; PRAGMA temp_store = MEMORY;"
	    "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		fail(db, "open");
		goto cleanup;
	}
	for (k = 0; k < ntables; k++)
		if (sqlite3_prepare_v2(db, tables[k].insert, -1,
		    &tables[k].stmt, NULL) != SQLITE_OK) {
			fail(db, tables[k].insert);
			goto cleanup;
		}
	for (f = 0; f < nfiles; f++) {
		if ((in = fopen(files[f], "r")) == NULL)
			goto cleanup;
		while ((len = getline(&line, &size, in)) > 0) {
			cJSON *json = cJSON_ParseWithLength(line, (size_t)len);

			if (json == NULL) {
				fclose(in);
				goto cleanup;
			}
			cJSON_Delete(json);
			i++;
			for (k = 0; k < ntables; k++)
				if (insert_upto(db, &tables[k],
				    tables[k].rows * i / lines) != 0) {
					fclose(in);
					goto cleanup;
				}
		}
		fclose(in);
	}
	for (k = 0; k < ntables; k++)
		if (insert_upto(db, &tables[k], tables[k].rows) != 0)
			goto cleanup;
	for (k = 0; k < ntables; k++) {
		sqlite3_finalize(tables[k].stmt);
		tables[k].stmt = NULL;
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		fail(db, "commit");
		goto cleanup;
	}
	rc = 0;
cleanup:
	for (k = 0; k < ntables; k++)
		sqlite3_finalize(tables[k].stmt);
	sqlite3_close(db);
	free(line);
	return rc;
}

static long
count_lines(char **files, int nfiles)
{
	long n = 0;
	int f, ch;
	FILE *in;

	for (f = 0; f < nfiles; f++) {
		if ((in = fopen(files[f], "r")) == NULL)
			return -1;
		while ((ch = getc(in)) != EOF)
			n += ch == '\n';
		fclose(in);
	}
	return n;
}

int
main(int argc, char **argv)
{
	sqlite3 *rows = NULL;
	sqlite3_stmt *st = NULL;
	struct table *tables = NULL;
	struct timespec a, b;
	long lines, total = 0;
	int ntables = 0, rc = 1, k, c;

	if (argc < 4) {
		fprintf(stderr, "usage: bare_rows DB ROWS_DB FILE...\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[2], &rows, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK || sqlite3_prepare_v2(rows, "SELECT name FROM"
	    " sqlite_master WHERE type = 'table' ORDER BY rowid", -1, &st,
	    NULL) != SQLITE_OK)
		return fail(rows, argv[2]);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if ((tables = realloc(tables, sizeof *tables *
		    (size_t)(ntables + 1))) == NULL)
			goto cleanup;
		memset(&tables[ntables], 0, sizeof *tables);
		if (load_table(rows, (const char *)sqlite3_column_text(st, 0),
		    &tables[ntables]) != 0) {
			fail(rows, "reading the rows");
			goto cleanup;
		}
		total += tables[ntables++].rows;
	}
	if ((lines = count_lines(argv + 3, argc - 3)) <= 0)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (floor_work(argv[1], tables, ntables, lines, argv + 3, argc - 3) != 0)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.4f\n", (double)(b.tv_sec - a.tv_sec) +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	fprintf(stderr, "bare_rows: %ld lines, %ld rows in %d tables\n",
	    lines, total, ntables);
	rc = 0;
cleanup:
	for (k = 0; k < ntables; k++) {
		for (c = 0; c < tables[k].rows * tables[k].columns; c++)
			sqlite3_value_free(tables[k].values[c]);
		free(tables[k].values);
		sqlite3_free(tables[k].insert);
	}
	free(tables);
	sqlite3_finalize(st);
	sqlite3_close(rows);
	return rc;
}
