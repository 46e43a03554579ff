/*
 * Approval quorums (SPEC 14): the active approval policies, and the
 * approvals an action has been given so far.  Read and written inside
 * the deciding transaction, under the one write lock, so that two
 * officers approving at once count each other.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

int
store_approval_policies(struct store *s, cJSON **policies, struct error *err)
{
	struct loaded_object o;
	db_stmt *stmt;
	cJSON *tree;
	int rc;

	if ((*policies = cJSON_CreateArray()) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if (db_prepare(s->db, "SELECT p.raw_json, p.policy_id FROM"
	    " approval_policy p WHERE p.version = (SELECT max(q.version)"
	    " FROM approval_policy q WHERE q.policy_id = p.policy_id)"
	    " ORDER BY p.policy_id", false, &stmt) != DB_OK) {
		rc = store_error(s, err, "reading the approval policies");
		goto fail;
	}
	while ((rc = db_step(stmt)) == DB_ROW) {
		tree = cJSON_Parse((const char *)db_column_text(stmt, 0));
		if (tree == NULL) {
			rc = error_set(err, EXIT_STORAGE, NULL, "%s: the stored "
			    "approval_policy %s is not valid JSON", s->path,
			    (const char *)db_column_text(stmt, 1));
			db_finalize(stmt);
			goto fail;
		}
		/* Held to what import accepted: the gate counts by it. */
		cJSON_AddItemToArray(*policies, tree);
		if ((rc = store_object_valid(s, tree, OBJECT_APPROVAL_POLICY,
		    (const char *)db_column_text(stmt, 1), &o, err)) != 0) {
			db_finalize(stmt);
			goto fail;
		}
	}
	db_finalize(stmt);
	if (rc != DB_DONE) {
		rc = store_error(s, err, "reading the approval policies");
		goto fail;
	}
	return 0;
fail:
	cJSON_Delete(*policies);
	*policies = NULL;
	return rc;
}

void
store_approvals_free(struct approval_row *rows, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(rows[i].reason);
	free(rows);
}

int
store_approvals_of(struct store *s, const char *action_id,
    struct approval_row **rows, size_t *count, struct error *err)
{
	struct approval_row *grown, *row;
	db_stmt *stmt;
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*count = 0;
	if (db_prepare(s->db, "SELECT approval_id, operator_login,"
	    " operator_uid, approved_at, reason, needed, have, audit_seq"
	    " FROM approval WHERE action_id = ?1 ORDER BY audit_seq", false,
	    &stmt) != DB_OK)
		return store_error(s, err, "reading the approvals");
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	while ((rc = db_step(stmt)) == DB_ROW) {
		if (*count == cap) {
			cap = cap == 0 ? 4 : cap * 2;
			if ((grown = realloc(*rows, cap * sizeof **rows)) ==
			    NULL) {
				rc = DB_NOMEM;
				break;
			}
			*rows = grown;
		}
		row = &(*rows)[(*count)++];
		memset(row, 0, sizeof *row);
		snprintf(row->approval_id, sizeof row->approval_id, "%s",
		    (const char *)db_column_text(stmt, 0));
		snprintf(row->operator_login, sizeof row->operator_login, "%s",
		    (const char *)db_column_text(stmt, 1));
		row->operator_uid = db_column_int64(stmt, 2);
		snprintf(row->approved_at, sizeof row->approved_at, "%s",
		    (const char *)db_column_text(stmt, 3));
		if (db_column_type(stmt, 4) == DB_TEXT &&
		    (row->reason = strdup((const char *)db_column_text(stmt,
		    4))) == NULL) {
			rc = DB_NOMEM;
			break;
		}
		row->needed = db_column_int64(stmt, 5);
		row->have = db_column_int64(stmt, 6);
		row->audit_seq = db_column_int64(stmt, 7);
	}
	db_finalize(stmt);
	if (rc != DB_DONE) {
		store_approvals_free(*rows, *count);
		*rows = NULL;
		*count = 0;
		return rc == DB_NOMEM ? error_set(err, EXIT_STORAGE, NULL,
		    "out of memory") : store_error(s, err,
		    "reading the approvals");
	}
	return 0;
}

int
store_approval_insert(struct store *s, const char *action_id,
    const struct approval_row *row, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (db_prepare(s->db, "INSERT INTO approval (approval_id, action_id,"
	    " operator_login, operator_uid, approved_at, reason, needed, have,"
	    " audit_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", false,
	    &stmt) != DB_OK)
		return store_error(s, err, "recording an approval");
	db_bind_text(stmt, 1, row->approval_id, -1, DB_STATIC);
	db_bind_text(stmt, 2, action_id, -1, DB_STATIC);
	db_bind_text(stmt, 3, row->operator_login, -1, DB_STATIC);
	db_bind_int64(stmt, 4, row->operator_uid);
	db_bind_text(stmt, 5, row->approved_at, -1, DB_STATIC);
	if (row->reason != NULL)
		db_bind_text(stmt, 6, row->reason, -1, DB_STATIC);
	else
		db_bind_null(stmt, 6);
	db_bind_int64(stmt, 7, row->needed);
	db_bind_int64(stmt, 8, row->have);
	db_bind_int64(stmt, 9, row->audit_seq);
	rc = db_step(stmt);
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, "recording an approval");
}
