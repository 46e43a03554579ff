/*
 * Action ids named by a unique prefix (SPEC 7): the screens show ids cut
 * short, and an officer who types what they see must reach that action
 * and no other.  An exact id always wins, so an id that happens to be the
 * prefix of another still names itself.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "sanitize.h"
#include "store_internal.h"

/* How many matches an ambiguity message lists. */
enum { PREFIX_MATCHES_SHOWN = 5 };

/* The usage error that lists the matches, each as a reader may see it. */
static int
ambiguous(char *const *matches, int count, struct error *err)
{
	char listed[sizeof err->message] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < count && i < PREFIX_MATCHES_SHOWN; i++) {
		char *shown = sanitize_str(matches[i]);

		if (used < sizeof listed)
			used += (size_t)snprintf(listed + used,
			    sizeof listed - used, "%s%s", i > 0 ? ", " : "",
			    shown != NULL ? shown : "?");
		free(shown);
	}
	return error_set(err, EXIT_USAGE, NULL, "the id prefix is ambiguous: "
	    "it matches %s%s", listed, count > PREFIX_MATCHES_SHOWN ?
	    ", and more" : "");
}

/* Up to limit ids the statement finds for ?1 (and ?2); an exit code on error. */
static int
ids_where(struct store *s, enum statement which, const char *a,
    const char *b, char **matches, int limit, int *count, struct error *err)
{
	db_stmt *stmt;
	int rc = DB_DONE;

	*count = 0;
	if ((stmt = store_statement(s, which, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, a, -1, DB_STATIC);
	if (b != NULL)
		db_bind_text(stmt, 2, b, -1, DB_STATIC);
	while (*count < limit && (rc = db_step(stmt)) == DB_ROW) {
		matches[*count] = strdup((const char *)db_column_text(stmt,
		    0));
		if (matches[*count] == NULL) {
			rc = DB_NOMEM;
			break;
		}
		(*count)++;
	}
	if (*count == limit)
		rc = DB_DONE;
	db_reset(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err,
	    "looking up an action id");
}

int
store_resolve_action_id(struct store *s, const char *given, char **full,
    struct error *err)
{
	char *matches[PREFIX_MATCHES_SHOWN + 1], *upper = NULL;
	size_t len = strlen(given);
	int count = 0, i, status = 0;

	*full = NULL;
	/*
	 * The exact id first, by its key: every batch line names one, and a
	 * scan per decision would cost a batch the square of the queue.
	 */
	if ((status = ids_where(s, SQL_ACTION_EXACT_ID, given, NULL, matches, 1,
	    &count, err)) != 0)
		return status;
	/*
	 * Else the ids that start with it: the key's range from the prefix
	 * to the prefix and a 0xFF byte, which no UTF-8 id holds, so every
	 * id with the prefix sorts inside it.  A range, not LIKE or GLOB: a
	 * prefix holding % _ * ? [ is the bytes it is.
	 */
	if (count == 0 && len > 0) {
		if ((upper = malloc(len + 2)) == NULL)
			return error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
		memcpy(upper, given, len);
		upper[len] = (char)0xff;
		upper[len + 1] = '\0';
		status = ids_where(s, SQL_ACTION_ID_RANGE, given, upper, matches,
		    PREFIX_MATCHES_SHOWN + 1, &count, err);
		free(upper);
	}
	if (status != 0)
		;
	else if (count == 0)
		/* Unknown: the caller refuses it in its own words. */
		*full = strdup(given);
	else if (count == 1) {
		*full = matches[0];
		matches[0] = NULL;
	} else
		status = ambiguous(matches, count, err);
	if (status == 0 && *full == NULL)
		status = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	for (i = 0; i < count; i++)
		free(matches[i]);
	return status;
}

/* Bytes a and b share at their start, never ending inside a character. */
static size_t
common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] != '\0' && a[n] == b[n])
		n++;
	while (n > 0 && ((unsigned char)a[n] & 0xC0) == 0x80)
		n--;
	return n;
}

int
store_unique_prefix(struct store *s, const char *id, size_t *length,
    struct error *err)
{
	/* Its neighbours in byte order share the longest prefixes with it. */
	static const char *const sql[2] = {
		"SELECT action_id FROM action WHERE action_id < ?1"
		    " ORDER BY action_id DESC LIMIT 1",
		"SELECT action_id FROM action WHERE action_id > ?1"
		    " ORDER BY action_id LIMIT 1",
	};
	db_stmt *stmt;
	size_t shared = 0, n;
	int i, rc;

	for (i = 0; i < 2; i++) {
		if (db_prepare(s->db, sql[i], DB_READS, &stmt) != DB_OK)
			return store_error(s, err, "looking up an action id");
		db_bind_text(stmt, 1, id, -1, DB_STATIC);
		rc = db_step(stmt);
		if (rc == DB_ROW) {
			n = common_prefix(id, (const char *)
			    db_column_text(stmt, 0));
			if (n > shared)
				shared = n;
		}
		db_finalize(stmt);
		if (rc != DB_ROW && rc != DB_DONE)
			return store_error(s, err, "looking up an action id");
	}
	/* One character more than it shares, whole. */
	n = shared;
	if (id[n] != '\0')
		n++;
	while (id[n] != '\0' && ((unsigned char)id[n] & 0xC0) == 0x80)
		n++;
	*length = n;
	return 0;
}
