/*
 * An action's packet as stored, by id: what the CSV export adds to a
 * decision record (who asked, the trade's side, ticker and amount), which
 * the record itself does not repeat.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

int
store_action_packet(struct store *s, const char *action_id, char **raw,
    struct error *err)
{
	db_stmt *stmt;
	const char *text;
	int rc;

	*raw = NULL;
	/* Kept prepared: the CSV export asks once for each decision. */
	if ((stmt = store_statement(s, SQL_ACTION_PACKET, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW && (text = (const char *)db_column_text(stmt, 0)) !=
	    NULL && (*raw = strdup(text)) == NULL) {
		db_reset(stmt);
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	db_reset(stmt);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
	    store_error(s, err, "reading an action");
}
