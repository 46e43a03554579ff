/*
 * What audit verify needs to hold a kind of record to the rows it wrote
 * (approvals.c for SPEC 14's approvals, judgments.c for SPEC 2.3's PO
 * judgments, as SPEC v2 6 does for decision rows): the gate reads those
 * rows, so each must say what its record says, and every row must come
 * from a record.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

int
record_rows_open(struct store *s, const char *by_id_sql, const char *what,
    struct record_rows **out, struct error *err)
{
	struct record_rows *c = calloc(1, sizeof *c);

	*out = NULL;
	if (c == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if (db_prepare(s->db, by_id_sql, DB_READS, &c->by_id) != DB_OK) {
		free(c);
		return store_error(s, err, what);
	}
	*out = c;
	return 0;
}

void
record_rows_close(struct record_rows *c)
{
	if (c == NULL)
		return;
	db_finalize(c->by_id);
	free(c);
}

int
record_rows_count(struct store *s, const char *count_sql, const char *what,
    long long *rows, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*rows = 0;
	if (db_prepare(s->db, count_sql, DB_READS, &stmt) != DB_OK)
		return store_error(s, err, what);
	rc = db_step(stmt);
	if (rc == DB_ROW)
		*rows = db_column_int64(stmt, 0);
	db_finalize(stmt);
	return rc == DB_ROW ? 0 : store_error(s, err, what);
}

const char *
record_text(const cJSON *object, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(object, a);

	if (b != NULL)
		v = cJSON_GetObjectItemCaseSensitive(v, b);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool
row_text_is(db_stmt *row, int i, const char *want)
{
	const char *got = (const char *)db_column_text(row, i);

	if (want == NULL)
		return db_column_type(row, i) == DB_NULL;
	return db_column_type(row, i) == DB_TEXT && got != NULL &&
	    strcmp(got, want) == 0;
}

bool
row_number_is(db_stmt *row, int i, const cJSON *want)
{
	return db_column_type(row, i) == DB_INTEGER && cJSON_IsNumber(want) &&
	    (double)db_column_int64(row, i) == want->valuedouble;
}
