/*
 * Rejections escalated to a person that no new version has answered yet
 * (issue 21): the queue keeps a deadlocked artifact in view until one
 * arrives.  A new version is a revision of the rejected action, a sibling
 * (another revision of what it revised) or an action sharing its
 * artifact_id, imported after the decision.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"
#include "text.h"

int
store_escalated_candidates(struct store *s, size_t max, char ***ids,
    size_t *count, struct error *err)
{
	db_stmt *stmt = NULL;
	char **list;
	int rc;

	*count = 0;
	if ((*ids = list = calloc(max + 1, sizeof *list)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if (db_prepare(s->db, "WITH e AS (SELECT d.action_id AS id,"
	    " d.audit_seq AS seq, a.revision_of AS of, a.artifact_id AS art,"
	    " CAST((julianday(d.decided_at) - 2440587.5) * 86400000 AS INTEGER)"
	    " AS at FROM decision d JOIN action a ON a.action_id = d.action_id"
	    " WHERE d.escalate = 1 AND d.decision = 'reject')"
	    " SELECT id FROM e WHERE"
	    " NOT EXISTS (SELECT 1 FROM action c WHERE c.revision_of = e.id)"
	    " AND NOT EXISTS (SELECT 1 FROM action c WHERE e.of IS NOT NULL"
	    "  AND c.revision_of = e.of AND c.imported_at_ms > e.at)"
	    " AND NOT EXISTS (SELECT 1 FROM action c WHERE e.art IS NOT NULL"
	    "  AND c.artifact_id = e.art AND c.imported_at_ms > e.at)"
	    " ORDER BY seq DESC LIMIT ?1", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "looking for escalated artifacts");
	db_bind_int64(stmt, 1, (long long)max);
	while ((rc = db_step(stmt)) == DB_ROW && *count < max) {
		if ((list[*count] = text_copy((const char *)
		    db_column_text(stmt, 0))) == NULL) {
			rc = DB_NOMEM;
			break;
		}
		(*count)++;
	}
	db_finalize(stmt);
	if (rc != DB_DONE && rc != DB_ROW)
		return store_error(s, err, "looking for escalated artifacts");
	return 0;
}
