/*
 * The store's statements that PostgreSQL needs written otherwise than the
 * one text both backends run (issue 20), kept in the backend's own file
 * (issue 38): store.c and artifact.c take these in place of their own
 * when the connection is PostgreSQL's.
 */
#include "config.h"

#include <stddef.h>

#include "store_internal.h"

/* The statements PostgreSQL needs written otherwise (issue 20). */
const char *const pg_store_sql[SQL_STATEMENT_COUNT] = {
	/*
	 * What the service's role may not write itself (issue 35): each a
	 * function of the schema's owner (pg_schema.c, 20), called with the
	 * same parameters.  SQL_ACTION_SET_STATUS is never run here: the
	 * decision's function sets the status with its row.
	 */
	[SQL_AUDIT_INSERT] = "SELECT cs_audit_append(?1, ?2, ?3, ?4)",
	/* The record and the decision's row in one call (schema 23). */
	[SQL_DECISION_APPEND] =
	    "SELECT cs_decision_append(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10, ?11, ?12, ?13, ?14, ?15)",
	[SQL_DECISION_INSERT] =
	    "SELECT cs_decision_insert(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10, ?11)",
	[SQL_IPS_INSERT] = "SELECT cs_ips_put(?1, ?2, ?3, ?4, ?5)",
	[SQL_HOLDINGS_INSERT] =
	    "SELECT cs_holdings_put(?1, ?2, ?3, ?4, ?5, ?6)",
	[SQL_SECURITY_PUT] = "SELECT cs_security_put(?1, ?2, ?3, ?4, ?5, ?6)",
	[SQL_DOCUMENT_PUT] = "SELECT cs_document_put(?1, ?2, ?3)",
	[SQL_QUEUE_REMOVE] = "SELECT cs_queue_remove(?1)",
	[SQL_QUEUE_TOTALS_ADD] = "SELECT cs_queue_totals_add(?1, ?2, ?3)",
	[SQL_QUEUE_MARK_STALE] = "SELECT cs_queue_mark_stale(?1)",
	[SQL_QUEUE_PUT] =
	    "SELECT cs_queue_put(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
	    " ?12, ?13, ?14, ?15)",
	/*
	 * PostgreSQL refuses the 0xff byte that bounds SQLite's range (text
	 * must be UTF-8): starts_with() there, in byte order.  ?2 unused.
	 */
	[SQL_ACTION_ID_RANGE] =
	    "SELECT action_id FROM action WHERE starts_with(action_id, ?1)"
	    " ORDER BY action_id COLLATE \"C\"",
	/*
	 * OFFSET 0 keeps each EXISTS a probe of its index: hashed instead,
	 * as a plan made while the table was small chose, each run read
	 * the whole action table, 20 ms a chunk by the end of an import.
	 */
	[SQL_IDS_KNOWN] =
	    "SELECT j.value FROM json_array_elements_text(CAST(?1 AS json))"
	    " AS j(value) WHERE EXISTS (SELECT 1 FROM action WHERE"
	    " action_id = j.value OFFSET 0) OR EXISTS (SELECT 1 FROM action"
	    " WHERE revision_of = j.value OFFSET 0)",
};

/*
 * PostgreSQL planned the walk this replaced as a hash of the whole action
 * table for each new action: each row by its key, OFFSET 0 keeping the
 * lookups from being folded back into a join.
 */
const char *const pg_artifact_sql[ARTIFACT_STATEMENTS] = {
	/* Functions of the owner's, as the store's writes above (issue 35). */
	[ART_SIZE_GROW] = "SELECT cs_artifact_size_grow(?1, ?2, ?3)",
	[ART_SIZE_DROP] = "SELECT cs_artifact_size_drop(?1, ?2)",
	[ART_RELABEL] = "SELECT cs_artifact_relabel(?1, ?2)",
	[ART_RELABEL_TREE] = "SELECT cs_artifact_relabel_tree(?1, ?2)",
	[ART_RELABEL_LOCKS] = "SELECT cs_artifact_relabel_locks(?1, ?2)",
	[ART_PR_REJECTED] = "SELECT cs_artifact_pr_rejected(?1)",
	[ART_VERSIONS] =
	    "SELECT " VERSION_COLUMNS " FROM artifact_node n"
	    " CROSS JOIN LATERAL (SELECT * FROM action x"
	    "  WHERE x.action_id = substr(n.node, 3) OFFSET 0) a"
	    " LEFT JOIN LATERAL (SELECT * FROM decision y"
	    "  WHERE y.action_id = a.action_id OFFSET 0) d ON TRUE"
	    " LEFT JOIN LATERAL (SELECT * FROM artifact_pr z"
	    "  WHERE z.action_id = a.action_id OFFSET 0) p ON TRUE"
	    " WHERE n.artifact = ?1 AND n.node >= 'v:' AND n.node < 'v;'"
	    " AND a.action_id <> ?2 ORDER BY a.imported_at_ms, a.rowid",
	[ART_LOCKING_VERSIONS] =
	    "SELECT " VERSION_COLUMNS " FROM (SELECT DISTINCT action_id"
	    "  FROM artifact_lock WHERE artifact = ?1) l"
	    " CROSS JOIN LATERAL (SELECT * FROM action x"
	    "  WHERE x.action_id = l.action_id OFFSET 0) a"
	    " LEFT JOIN LATERAL (SELECT * FROM decision y"
	    "  WHERE y.action_id = a.action_id OFFSET 0) d ON TRUE"
	    " LEFT JOIN LATERAL (SELECT * FROM artifact_pr z"
	    "  WHERE z.action_id = a.action_id OFFSET 0) p ON TRUE"
	    " WHERE a.action_id <> ?2 ORDER BY a.imported_at_ms, a.rowid",
	/* The walk by ARRAY, as before, inside the function. */
	[ART_QUEUE_STALE] = "SELECT cs_artifact_queue_stale(?1, ?2)",
};
