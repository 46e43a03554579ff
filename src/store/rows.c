/*
 * The rows of one action read into an array that grows as they come, for
 * the store's lists of small records (approvals, judgments): the loop, the
 * growth and the release on failure once, and each list says only how a
 * row becomes one of its records.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

int
store_rows_read(struct store *s, const struct rows_spec *spec,
    const char *action_id, void **rows, size_t *count, struct error *err)
{
	size_t cap = 0;
	db_stmt *stmt;
	char *grown;
	int rc;

	*rows = NULL;
	*count = 0;
	if ((stmt = store_statement(s, spec->sql, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	while ((rc = db_step(stmt)) == DB_ROW) {
		if (*count == cap) {
			cap = cap == 0 ? 4 : cap * 2;
			if ((grown = realloc(*rows, cap * spec->size)) ==
			    NULL) {
				rc = DB_NOMEM;
				break;
			}
			*rows = grown;
		}
		grown = (char *)*rows + *count * spec->size;
		memset(grown, 0, spec->size);
		/* Counted first, so that a row half read is released too. */
		(*count)++;
		if (!spec->take(grown, stmt)) {
			rc = DB_NOMEM;
			break;
		}
	}
	db_reset(stmt);
	if (rc == DB_DONE)
		return 0;
	spec->release(*rows, *count);
	*rows = NULL;
	*count = 0;
	return rc == DB_NOMEM ? error_set(err, EXIT_STORAGE, NULL,
	    "out of memory") : store_error(s, err, spec->what);
}
