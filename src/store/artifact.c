/*
 * The artifacts of SPEC 2.4, kept as the store writes versions (issue
 * 34), so that no question about one walks it.
 *
 * An artifact is a connected set of nodes: "v:" an action id (a version,
 * or an id some revision_of names), "a:" an artifact_id, "p:" a change's
 * pr_url.  A version is joined to the id it revises, its artifact_id and
 * its pull request.  Each node carries the label of its set (one of its
 * nodes); joining two sets relabels the smaller, so a node is relabelled
 * at most log2(n) times and an import pays per version, not per version
 * of the artifact.  A second labelling joins versions by revision_of
 * alone (the "tree"): a new version's own tree holds only versions that
 * revise it, so it closes a cycle exactly when the id it revises is in
 * its tree.  An action no link names has no node at all.
 *
 * Beside the sets: the locked-out people of each artifact by name key
 * (artifact_lock), written when a rejection is recorded or when a
 * rejected action first joins an artifact, and the rejected changes of
 * each pull request (artifact_pr).  What reads them for the lockout rule
 * is artifact_chain.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "lockout.h"
#include "store_internal.h"
#include "artifact_internal.h"
#include "text.h"

enum { LABEL_ARTIFACT = 0, LABEL_TREE = 1 };

/* The columns of a version as the lockout rule reads it (lockout.c). */
/*
 * "x IS NOT NULL" beside "x = ?1" where the index of x is partial: a
 * plan PostgreSQL makes for any ?1 may then use it (else it scans).
 */
static const char *const artifact_sql[ARTIFACT_STATEMENTS] = {
	[ART_NODE_GET] =
	    "SELECT artifact, tree FROM artifact_node WHERE node = ?1",
	[ART_NODE_PUT] =
	    "INSERT INTO artifact_node (node, artifact, tree)"
	    " VALUES (?1, ?2, ?3)",
	[ART_SIZE_GET] =
	    "SELECT size FROM artifact_size WHERE kind = ?1 AND label = ?2",
	[ART_SIZE_GROW] =
	    "INSERT INTO artifact_size (kind, label, size) VALUES (?1, ?2, ?3)"
	    " ON CONFLICT (kind, label) DO UPDATE"
	    " SET size = artifact_size.size + excluded.size",
	[ART_SIZE_DROP] =
	    "DELETE FROM artifact_size WHERE kind = ?1 AND label = ?2",
	[ART_RELABEL] =
	    "UPDATE artifact_node SET artifact = ?1 WHERE artifact = ?2",
	[ART_RELABEL_TREE] =
	    "UPDATE artifact_node SET tree = ?1 WHERE tree = ?2"
	    " AND tree IS NOT NULL",
	[ART_RELABEL_LOCKS] =
	    "UPDATE artifact_lock SET artifact = ?1 WHERE artifact = ?2",
	[ART_LOCK_PUT] =
	    "INSERT INTO artifact_lock (artifact, name_key, action_id)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
	[ART_LOCK_FIND] =
	    "SELECT action_id FROM artifact_lock WHERE artifact = ?1"
	    " AND name_key = ?2 AND action_id <> ?3 LIMIT 1",
	[ART_PEOPLE] =
	    "SELECT a.author, json_extract(a.raw_json,"
	    " '$.proposed_action.contributors'), a.status, d.blocked_on"
	    " FROM action a LEFT JOIN decision d ON d.action_id = a.action_id"
	    " WHERE a.action_id = ?1",
	[ART_PR_PUT] =
	    "INSERT INTO artifact_pr (action_id, pr_url, rejected)"
	    " VALUES (?1, ?2, 0) ON CONFLICT DO NOTHING",
	[ART_PR_REJECTED] =
	    "UPDATE artifact_pr SET rejected = 1 WHERE action_id = ?1",
	[ART_PR_FIND] =
	    "SELECT action_id FROM artifact_pr WHERE pr_url = ?1"
	    " AND rejected = 1 AND action_id <> ?2 LIMIT 1",
	[ART_SIBLING_APPROVED] =
	    "SELECT action_id FROM action WHERE revision_of = ?1"
	    " AND revision_of IS NOT NULL"
	    " AND status = 'approved' AND action_id <> ?2"
	    " ORDER BY imported_at_ms, rowid LIMIT 1",
	[ART_ARTIFACT_ID_REJECTED] =
	    "SELECT action_id FROM action WHERE artifact_id = ?1"
	    " AND artifact_id IS NOT NULL"
	    " AND status = 'rejected' AND action_id <> ?2 LIMIT 1",
	[ART_VERSION] =
	    "SELECT " VERSION_COLUMNS " FROM action a"
	    " LEFT JOIN decision d ON d.action_id = a.action_id"
	    " LEFT JOIN artifact_pr p ON p.action_id = a.action_id"
	    " WHERE a.action_id = ?1",
	/* The 'v:' nodes of the artifact are its versions (and dangling ids). */
	[ART_VERSIONS] =
	    "SELECT " VERSION_COLUMNS " FROM artifact_node n"
	    " JOIN action a ON a.action_id = substr(n.node, 3)"
	    " LEFT JOIN decision d ON d.action_id = a.action_id"
	    " LEFT JOIN artifact_pr p ON p.action_id = a.action_id"
	    " WHERE n.artifact = ?1 AND n.node >= 'v:' AND n.node < 'v;'"
	    " AND a.action_id <> ?2 ORDER BY a.imported_at_ms, a.rowid",
	/* Every version a rejection of which locks people out (artifact_lock). */
	[ART_LOCKING_VERSIONS] =
	    "SELECT " VERSION_COLUMNS " FROM action a"
	    " LEFT JOIN decision d ON d.action_id = a.action_id"
	    " LEFT JOIN artifact_pr p ON p.action_id = a.action_id"
	    " WHERE a.action_id IN (SELECT action_id FROM artifact_lock"
	    "  WHERE artifact = ?1)"
	    " AND a.action_id <> ?2 ORDER BY a.imported_at_ms, a.rowid",
	[ART_QUEUE_STALE] =
	    "UPDATE queue_index SET epoch = 0 WHERE action_id IN"
	    " (SELECT substr(node, 3) FROM artifact_node WHERE artifact = ?1"
	    "  AND node >= 'v:' AND node < 'v;') AND action_id <> ?2",
	[ART_LOCKS_ANY] =
	    "SELECT 1 FROM artifact_lock WHERE artifact = ?1 LIMIT 1",
	[ART_LOCKS_BY] =
	    "SELECT 1 FROM artifact_lock WHERE artifact = ?1"
	    " AND action_id = ?2 LIMIT 1",
	[ART_BUILT] =
	    "SELECT value FROM meta WHERE key = 'artifacts_built'",
	[ART_TO_BUILD] =
	    "SELECT action_id, revision_of, artifact_id, CASE WHEN kind ="
	    " 'change' THEN json_extract(raw_json, '$.proposed_action.pr_url')"
	    " END FROM action WHERE revision_of IS NOT NULL OR artifact_id IS"
	    " NOT NULL OR kind = 'change' ORDER BY imported_at_ms, rowid",
};

/* What each does (db.h): a read unless listed. */
const int artifact_statement_use[ARTIFACT_STATEMENTS] = {
	[ART_NODE_PUT] = DB_WRITES,
	[ART_SIZE_GROW] = DB_WRITES,
	[ART_SIZE_DROP] = DB_WRITES,
	[ART_RELABEL] = DB_WRITES,
	[ART_RELABEL_TREE] = DB_WRITES,
	[ART_RELABEL_LOCKS] = DB_WRITES,
	[ART_LOCK_PUT] = DB_WRITES,
	[ART_PR_PUT] = DB_WRITES,
	[ART_PR_REJECTED] = DB_WRITES,
	[ART_QUEUE_STALE] = DB_WRITES,
};

db_stmt *
artifact_statement(struct store *s, enum artifact_statement which,
    struct error *err)
{
	db_stmt *stmt = s->artifact_statements[which];
	const char *sql = artifact_sql[which];

	if (stmt == NULL) {
		if (db_is_postgresql(s->db) && pg_artifact_sql[which] != NULL)
			sql = pg_artifact_sql[which];
		if (db_prepare(s->db, sql, artifact_statement_use[which] | DB_KEEP,
		    &stmt) != DB_OK) {
			store_error(s, err, "preparing a statement");
			return NULL;
		}
		s->artifact_statements[which] = stmt;
	}
	db_reset(stmt);
	db_clear_bindings(stmt);
	return stmt;
}

void
store_artifact_statements_close(struct store *s)
{
	size_t i;

	for (i = 0; i < ARTIFACT_STATEMENTS; i++) {
		db_finalize(s->artifact_statements[i]);
		s->artifact_statements[i] = NULL;
	}
}

/* "v:" and the id, say: a node's name; NULL when out of memory. */
static char *
node_name(char prefix, const char *value)
{
	size_t n = strlen(value);
	char *node = malloc(n + 3);

	if (node != NULL) {
		node[0] = prefix;
		node[1] = ':';
		memcpy(node + 2, value, n + 1);
	}
	return node;
}

/* The text of column i, copied, or NULL (then *failed if out of memory). */
static char *
column_copy(db_stmt *stmt, int i, bool *failed)
{
	const char *text = (const char *)db_column_text(stmt, i);
	char *copy;

	if (text == NULL)
		return NULL;
	if ((copy = text_copy(text)) == NULL)
		*failed = true;
	return copy;
}

/*
 * The labels of node (*artifact NULL: no node); each the caller's.
 */
static int
node_get(struct store *s, const char *node, char **artifact, char **tree,
    struct error *err)
{
	db_stmt *stmt;
	bool failed = false;
	int rc;

	*artifact = NULL;
	if (tree != NULL)
		*tree = NULL;
	if ((stmt = artifact_statement(s, ART_NODE_GET, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, node, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		*artifact = column_copy(stmt, 0, &failed);
		if (tree != NULL)
			*tree = column_copy(stmt, 1, &failed);
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading an artifact");
	if (failed) {
		free(*artifact);
		*artifact = NULL;
		if (tree != NULL) {
			free(*tree);
			*tree = NULL;
		}
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	return 0;
}

/* The set labelled label (of kind) has grown by count nodes. */
static int
size_grow(struct store *s, int kind, const char *label, long long count,
    struct error *err)
{
	db_stmt *stmt;

	if ((stmt = artifact_statement(s, ART_SIZE_GROW, err)) == NULL)
		return err->status;
	db_bind_int(stmt, 1, kind);
	db_bind_text(stmt, 2, label, -1, DB_STATIC);
	db_bind_int64(stmt, 3, count);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "writing an artifact");
	return 0;
}

static int
size_get(struct store *s, int kind, const char *label, long long *size,
    struct error *err)
{
	db_stmt *stmt;
	int rc;

	*size = 1;
	if ((stmt = artifact_statement(s, ART_SIZE_GET, err)) == NULL)
		return err->status;
	db_bind_int(stmt, 1, kind);
	db_bind_text(stmt, 2, label, -1, DB_STATIC);
	if ((rc = db_step(stmt)) == DB_ROW)
		*size = db_column_int64(stmt, 0);
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading an artifact");
	return 0;
}

/* One statement of two labels (?1 the new, ?2 the old). */
static int
relabel(struct store *s, enum artifact_statement which, const char *to,
    const char *from, struct error *err)
{
	db_stmt *stmt;

	if ((stmt = artifact_statement(s, which, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, to, -1, DB_STATIC);
	db_bind_text(stmt, 2, from, -1, DB_STATIC);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "joining two artifacts");
	return 0;
}

/*
 * Whether the artifact labelled so locks anybody out: by action_id's
 * rejection, or (action_id NULL) by any.
 */
static int
has_locks(struct store *s, const char *label, const char *action_id,
    bool *locks, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if ((stmt = artifact_statement(s, action_id != NULL ? ART_LOCKS_BY :
	    ART_LOCKS_ANY, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, label, -1, DB_STATIC);
	if (action_id != NULL)
		db_bind_text(stmt, 2, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	*locks = rc == DB_ROW;
	db_reset(stmt);
	return rc == DB_ROW || rc == DB_DONE ? 0 : store_error(s, err,
	    "reading an artifact");
}

/* Marks the queue rows of the versions labelled so for a re-check. */
static int
stale_versions(struct store *s, const char *label, struct error *err)
{
	db_stmt *stmt;

	if ((stmt = artifact_statement(s, ART_QUEUE_STALE, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, label, -1, DB_STATIC);
	db_bind_text(stmt, 2, "", -1, DB_STATIC);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "marking revisions for a re-check");
	return 0;
}

/*
 * Joins the sets labelled *a and b (of kind): the smaller takes the
 * larger's label, which *a is afterwards (b is left to the caller).
 * Each set's versions now answer to the other's rejections (SPEC 2.4:
 * lockout, deadlock), so a set that gains some has its queue rows
 * checked again: the larger only when the smaller brings rejections,
 * which each decision can do once, so the marking stays bounded.
 */
static int
join(struct store *s, int kind, char **a, const char *b, struct error *err)
{
	long long size_a, size_b;
	const char *big, *small;
	bool big_locks = false, small_locks = false;
	db_stmt *stmt;
	char *kept;
	int rc;

	if (strcmp(*a, b) == 0)
		return 0;
	if ((rc = size_get(s, kind, *a, &size_a, err)) != 0 ||
	    (rc = size_get(s, kind, b, &size_b, err)) != 0)
		return rc;
	big = size_a >= size_b ? *a : b;
	small = size_a >= size_b ? b : *a;
	if (kind == LABEL_ARTIFACT && ((rc = has_locks(s, big, NULL,
	    &big_locks, err)) != 0 || (rc = has_locks(s, small, NULL,
	    &small_locks, err)) != 0))
		return rc;
	if (big_locks && !small_locks && (rc = stale_versions(s, small,
	    err)) != 0)
		return rc;
	if (kind == LABEL_TREE)
		rc = relabel(s, ART_RELABEL_TREE, big, small, err);
	else if ((rc = relabel(s, ART_RELABEL, big, small, err)) == 0)
		rc = relabel(s, ART_RELABEL_LOCKS, big, small, err);
	if (rc == 0 && small_locks)
		rc = stale_versions(s, big, err);
	if (rc == 0)
		rc = size_grow(s, kind, big, size_a >= size_b ? size_b : size_a,
		    err);
	if (rc == 0) {
		if ((stmt = artifact_statement(s, ART_SIZE_DROP, err)) == NULL)
			return err->status;
		db_bind_int(stmt, 1, kind);
		db_bind_text(stmt, 2, small, -1, DB_STATIC);
		if (db_step(stmt) != DB_DONE)
			return store_error(s, err, "joining two artifacts");
	}
	if (rc != 0 || big == *a)
		return rc;
	if ((kept = text_copy(b)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	free(*a);
	*a = kept;
	return 0;
}

/* Locks the people of action_id out of artifact, if its rejection does. */
static int
lock_people(struct store *s, const char *artifact, const char *action_id,
    bool known_rejected, struct error *err)
{
	db_stmt *stmt, *put;
	cJSON *contributors = NULL;
	const cJSON *name;
	char *author = NULL, *key;
	bool failed = false, locks;
	const char *text;
	int rc;

	if ((stmt = artifact_statement(s, ART_PEOPLE, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	if ((rc = db_step(stmt)) == DB_ROW) {
		text = (const char *)db_column_text(stmt, 2);
		locks = db_column_text(stmt, 3) == NULL && (known_rejected ||
		    (text != NULL && strcmp(text, "rejected") == 0));
		if (locks) {
			author = column_copy(stmt, 0, &failed);
			text = (const char *)db_column_text(stmt, 1);
			contributors = text != NULL ? cJSON_Parse(text) : NULL;
		}
	} else
		locks = false;
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the people of a version");
	rc = failed ? error_set(err, EXIT_STORAGE, NULL, "out of memory") : 0;
	/* The author first, then each contributor: the people of SPEC 2.4. */
	name = NULL;
	text = author;
	while (rc == 0 && locks) {
		if (text != NULL) {
			if ((key = lockout_name_key(text)) == NULL) {
				rc = error_set(err, EXIT_STORAGE, NULL,
				    "out of memory");
				break;
			}
			if ((put = artifact_statement(s, ART_LOCK_PUT, err)) == NULL) {
				free(key);
				rc = err->status;
				break;
			}
			db_bind_text(put, 1, artifact, -1, DB_STATIC);
			db_bind_text(put, 2, key, -1, DB_TRANSIENT);
			db_bind_text(put, 3, action_id, -1, DB_STATIC);
			free(key);
			if (db_step(put) != DB_DONE)
				rc = store_error(s, err, "locking out people");
		}
		name = name == NULL && cJSON_IsArray(contributors) ?
		    contributors->child : name != NULL ? name->next : NULL;
		if (name == NULL)
			break;
		text = cJSON_IsString(name) ? name->valuestring : NULL;
	}
	free(author);
	cJSON_Delete(contributors);
	return rc;
}

/* A node artifact_add() joins, with the labels it had (NULL: new). */
struct joined {
	char *node;
	char *artifact, *tree;
};

/* Writes the node, new, into the sets labelled artifact and tree. */
static int
node_put(struct store *s, const char *node, const char *artifact,
    const char *tree, struct error *err)
{
	db_stmt *stmt;

	if ((stmt = artifact_statement(s, ART_NODE_PUT, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, node, -1, DB_STATIC);
	db_bind_text(stmt, 2, artifact, -1, DB_STATIC);
	if (tree != NULL)
		db_bind_text(stmt, 3, tree, -1, DB_STATIC);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "writing an artifact");
	return 0;
}

/* *label, or a copy of the first label given when it is NULL. */
static int
take_label(char **label, const char *a, const char *b, struct error *err)
{
	const char *first = a != NULL ? a : b;

	if (*label != NULL || first == NULL)
		return 0;
	if ((*label = text_copy(first)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	return 0;
}

/*
 * Joins the version id to what it names: the id it revises, its
 * artifact_id, its pull request.  The largest set already there takes the
 * others, and a node new to the store is written with its label at once.
 * fresh: id was stored just now (nothing of it decided yet), and a
 * revision_of that closes a cycle is refused (SPEC 2.4).
 */
static int
artifact_add(struct store *s, const char *id, const char *revision_of,
    const char *artifact_id, const char *pr_url, bool fresh,
    struct error *err)
{
	struct joined n[4];
	char *label = NULL, *tree = NULL;
	long long added = 0, added_tree = 0;
	size_t count = 0, i;
	db_stmt *stmt;
	bool locks;
	int rc = 0;

	memset(n, 0, sizeof n);
	n[count++].node = node_name('v', id);
	if (revision_of != NULL)
		n[count++].node = node_name('v', revision_of);
	if (artifact_id != NULL)
		n[count++].node = node_name('a', artifact_id);
	if (pr_url != NULL)
		n[count++].node = node_name('p', pr_url);
	for (i = 0; i < count && rc == 0; i++) {
		if (n[i].node == NULL)
			rc = error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
		else
			rc = node_get(s, n[i].node, &n[i].artifact,
			    i < 2 ? &n[i].tree : NULL, err);
	}
	if (rc != 0)
		goto cleanup;
	/* The new version is the root of its tree: see the top. */
	if (fresh && revision_of != NULL && n[0].tree != NULL &&
	    n[1].tree != NULL && strcmp(n[0].tree, n[1].tree) == 0) {
		rc = error_set(err, EXIT_DATA, "proposed_action.revision_of",
		    "revision_of %.64s leads back to action %.64s: a cycle of "
		    "revisions", revision_of, id);
		goto cleanup;
	}
	for (i = 0; i < count && rc == 0; i++) {
		if (n[i].artifact == NULL)
			continue;
		if (label == NULL)
			rc = take_label(&label, n[i].artifact, NULL, err);
		else
			rc = join(s, LABEL_ARTIFACT, &label, n[i].artifact,
			    err);
	}
	if (rc == 0 && revision_of != NULL && n[0].tree != NULL &&
	    n[1].tree != NULL && (rc = take_label(&tree, n[0].tree, NULL,
	    err)) == 0)
		rc = join(s, LABEL_TREE, &tree, n[1].tree, err);
	if (rc != 0 || (rc = take_label(&label, n[0].node, NULL, err)) != 0 ||
	    (rc = take_label(&tree, n[0].tree, revision_of != NULL ?
	    n[1].tree : NULL, err)) != 0 ||
	    (rc = take_label(&tree, n[0].node, NULL, err)) != 0)
		goto cleanup;
	for (i = 0; i < count && rc == 0; i++) {
		if (n[i].artifact != NULL)
			continue;
		rc = node_put(s, n[i].node, label, i < 2 ? tree : NULL, err);
		added++;
		added_tree += i < 2;
	}
	if (rc == 0 && added > 0)
		rc = size_grow(s, LABEL_ARTIFACT, label, added, err);
	if (rc == 0 && added_tree > 0)
		rc = size_grow(s, LABEL_TREE, tree, added_tree, err);
	/*
	 * A stored version new to the sets brings its rejection's lockout,
	 * to the versions already there too (join()'s reason).
	 */
	for (i = 0; i < 2 && i < count && rc == 0; i++) {
		if (n[i].artifact == NULL && !(fresh && i == 0) &&
		    !(i == 1 && revision_of == NULL) &&
		    (rc = lock_people(s, label, n[i].node + 2, false,
		    err)) == 0 && (rc = has_locks(s, label, n[i].node + 2,
		    &locks, err)) == 0 && locks)
			rc = stale_versions(s, label, err);
	}
	if (rc == 0 && pr_url != NULL) {
		if ((stmt = artifact_statement(s, ART_PR_PUT, err)) == NULL)
			rc = err->status;
		else {
			db_bind_text(stmt, 1, id, -1, DB_STATIC);
			db_bind_text(stmt, 2, pr_url, -1, DB_STATIC);
			if (db_step(stmt) != DB_DONE)
				rc = store_error(s, err,
				    "writing an artifact");
		}
	}
cleanup:
	for (i = 0; i < count; i++) {
		free(n[i].node);
		free(n[i].artifact);
		free(n[i].tree);
	}
	free(label);
	free(tree);
	return rc;
}

int
store_artifact_stored(struct store *s, const struct loaded_object *o,
    struct error *err)
{
	const char *pr_url = lockout_pr_url(o->json);

	if (o->revision_of != NULL && strcmp(o->revision_of, o->id) == 0)
		return error_set(err, EXIT_DATA, "proposed_action.revision_of",
		    "action %.64s names itself as the version it revises",
		    o->id);
	/*
	 * Naming nothing, it joins nothing, and closes no cycle: a version
	 * that revises it made its node already (the common case: none).
	 */
	if (o->revision_of == NULL && o->artifact_id == NULL && pr_url == NULL)
		return 0;
	return artifact_add(s, o->id, o->revision_of, o->artifact_id, pr_url,
	    true, err);
}

int
store_artifact_prefetch(struct store *s, const char *action_id,
    struct error *err)
{
	char *node = node_name('v', action_id);
	db_stmt *stmt;
	int rc = 0;

	if (node == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if ((stmt = artifact_statement(s, ART_NODE_GET, err)) == NULL)
		rc = err->status;
	else {
		db_bind_text(stmt, 1, node, -1, DB_TRANSIENT);
		if (db_prefetch_add(stmt) != DB_OK)
			rc = store_error(s, err, "reading an artifact");
	}
	free(node);
	return rc;
}

int
artifact_label_of(struct store *s, const char *action_id, char **label,
    struct error *err)
{
	char *node = node_name('v', action_id);
	int rc;

	*label = NULL;
	if (node == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	rc = node_get(s, node, label, NULL, err);
	free(node);
	return rc;
}

int
store_artifact_label(struct store *s, const char *action_id, char **label,
    struct error *err)
{
	*label = NULL;
	return store_fresh_alone(s, action_id) ? 0 :
	    artifact_label_of(s, action_id, label, err);
}

int
store_artifact_decided(struct store *s, const char *action_id,
    const char *label, bool rejected, bool blocked, struct error *err)
{
	db_stmt *stmt;
	int rc = 0;

	if (!rejected || label == NULL)
		return 0;
	if ((stmt = artifact_statement(s, ART_PR_REJECTED, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	if (db_step(stmt) != DB_DONE)
		rc = store_error(s, err, "writing an artifact");
	if (rc == 0 && !blocked)
		rc = lock_people(s, label, action_id, true, err);
	return rc;
}

int
store_artifact_mark_stale(struct store *s, const char *action_id,
    const char *label, struct error *err)
{
	db_stmt *stmt;

	if (label == NULL)
		return 0;
	if ((stmt = artifact_statement(s, ART_QUEUE_STALE, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, label, -1, DB_STATIC);
	db_bind_text(stmt, 2, action_id, -1, DB_STATIC);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "marking revisions for a re-check");
	return 0;
}

int
store_artifacts_build(struct store *s, struct error *err)
{
	struct build_row {
		char *id, *revision_of, *artifact_id, *pr_url;
	} *rows = NULL, *grown;
	size_t count = 0, i;
	db_stmt *stmt;
	bool failed = false, built;
	int rc;

	if ((stmt = artifact_statement(s, ART_BUILT, err)) == NULL)
		return err->status;
	rc = db_step(stmt);
	built = rc != DB_ROW || db_column_int64(stmt, 0) != 0;
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the schema");
	if (built)
		return 0;
	/* Read first, written after: the writes must not disturb the scan. */
	if ((stmt = artifact_statement(s, ART_TO_BUILD, err)) == NULL)
		return err->status;
	while (!failed && (rc = db_step(stmt)) == DB_ROW) {
		if ((grown = realloc(rows, (count + 1) * sizeof *rows)) ==
		    NULL) {
			failed = true;
			break;
		}
		rows = grown;
		rows[count].id = column_copy(stmt, 0, &failed);
		rows[count].revision_of = column_copy(stmt, 1, &failed);
		rows[count].artifact_id = column_copy(stmt, 2, &failed);
		rows[count].pr_url = column_copy(stmt, 3, &failed);
		count++;
	}
	db_reset(stmt);
	if (failed)
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	else if (rc != DB_DONE)
		rc = store_error(s, err, "reading the artifacts");
	else
		rc = 0;
	for (i = 0; rc == 0 && i < count; i++) {
		if (rows[i].id == NULL)
			continue;
		if (rows[i].pr_url != NULL && rows[i].pr_url[0] == '\0') {
			free(rows[i].pr_url);
			rows[i].pr_url = NULL;
		}
		if (rows[i].revision_of != NULL &&
		    strcmp(rows[i].revision_of, rows[i].id) == 0) {
			free(rows[i].revision_of);
			rows[i].revision_of = NULL;
		}
		if (rows[i].revision_of == NULL && rows[i].artifact_id ==
		    NULL && rows[i].pr_url == NULL)
			continue;
		rc = artifact_add(s, rows[i].id, rows[i].revision_of,
		    rows[i].artifact_id, rows[i].pr_url, false, err);
	}
	for (i = 0; i < count; i++) {
		free(rows[i].id);
		free(rows[i].revision_of);
		free(rows[i].artifact_id);
		free(rows[i].pr_url);
	}
	free(rows);
	if (rc == 0 && db_exec(s->db, "UPDATE artifact_pr SET rejected = 1"
	    " WHERE action_id IN (SELECT action_id FROM action"
	    " WHERE status = 'rejected')") != DB_OK)
		rc = store_error(s, err, "building the artifacts");
	if (rc == 0 && db_exec(s->db, "UPDATE meta SET value = 1"
	    " WHERE key = 'artifacts_built'") != DB_OK)
		rc = store_error(s, err, "building the artifacts");
	return rc;
}
