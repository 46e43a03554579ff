/*
 * Policy objects stored once by SHA-256 (SPEC v2 6).  A decision record
 * once copied the roster and the standards index it read: 59.5 MB per
 * record, and 1.5 GB of memory per decision, for a 64 MiB roster.  It now
 * names them by the SHA-256 of their stored JSON, the same digest the
 * policy_import record gives as object_sha256, and audit replay finds
 * them here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "sha256.h"
#include "store_internal.h"

/* Stores one memo's text under its digest unless it is there already. */
static int
keep_one(struct store *s, const char *named, const struct document_memo *m,
    const char *type, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (named[0] == '\0')
		return 0;
	/* Loaded in this transaction, so the memo holds what d names. */
	if (m->raw == NULL || strcmp(m->sha256, named) != 0)
		return error_set(err, EXIT_STORAGE, NULL, "%s: the %s read for "
		    "this decision is no longer at hand", s->path, type);
	if (db_prepare(s->db, "INSERT INTO policy_object (sha256,"
	    " type, json) SELECT ?1, ?2, ?3 WHERE NOT EXISTS (SELECT 1 FROM"
	    " policy_object WHERE sha256 = ?1)", DB_WRITES, &stmt) != DB_OK)
		return store_error(s, err, "storing a policy object");
	db_bind_text(stmt, 1, named, -1, DB_STATIC);
	db_bind_text(stmt, 2, type, -1, DB_STATIC);
	db_bind_text(stmt, 3, m->raw, (int)m->length, DB_STATIC);
	rc = db_step(stmt);
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err,
	    "storing a policy object");
}

int
store_policy_objects_keep(struct store *s, const struct check_data *d,
    struct error *err)
{
	int rc;

	if ((rc = keep_one(s, d->roster_sha256, &s->memo[DOCUMENT_ROSTER],
	    "roster", err)) != 0)
		return rc;
	return keep_one(s, d->standards_sha256, &s->memo[DOCUMENT_STANDARDS],
	    "standards_index", err);
}

int
store_policy_object_load(struct store *s, const char *sha256,
    enum object_type type, cJSON **out, struct error *err)
{
	struct loaded_object o;
	db_stmt *stmt;
	char digest[SHA256_HEX_SIZE];
	const char *text;
	size_t length;
	int rc;

	*out = NULL;
	if (db_prepare(s->db, "SELECT json FROM policy_object"
	    " WHERE sha256 = ?1", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "reading a policy object");
	db_bind_text(stmt, 1, sha256, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc != DB_ROW) {
		db_finalize(stmt);
		return rc != DB_DONE ? store_error(s, err,
		    "reading a policy object") : error_set(err, EXIT_STORAGE,
		    NULL, "%s: the %s %s named by the decision record is not "
		    "stored", s->path, object_type_name(type), sha256);
	}
	text = (const char *)db_column_text(stmt, 0);
	length = (size_t)db_column_bytes(stmt, 0);
	/* Named by its digest: it must still have it, every byte. */
	if (text == NULL || db_column_type(stmt, 0) != DB_TEXT ||
	    sha256_hex(text, length, digest) != 0 ||
	    strcmp(digest, sha256) != 0) {
		db_finalize(stmt);
		return error_set(err, EXIT_STORAGE, NULL, "%s: the stored %s "
		    "%s no longer has that SHA-256", s->path,
		    object_type_name(type), sha256);
	}
	*out = cJSON_ParseWithLength(text, length);
	db_finalize(stmt);
	if (*out == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "%s: the stored %s %s "
		    "is not valid JSON", s->path, object_type_name(type),
		    sha256);
	if ((rc = store_object_valid(s, *out, type, sha256, &o, err)) != 0) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	return rc;
}
