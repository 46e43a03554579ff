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
	[ART_QUEUE_STALE] =
	    "UPDATE queue_index SET epoch = 0 WHERE action_id = ANY (ARRAY("
	    " SELECT substr(node, 3) FROM artifact_node WHERE artifact = ?1"
	    "  AND node >= 'v:' AND node < 'v;')) AND action_id <> ?2",
};
