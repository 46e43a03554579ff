/*
 * What a single re-check under the write lock is about to read, asked for
 * on PostgreSQL in one trip each time what it depends on is known
 * (db_prefetch_add, issue 38): with the packet, the user's IPS and
 * holdings, the documents and the action's artifact; with the holdings,
 * every security the check wants.  Each read of store_queries.c's
 * load_policy() then finds its answer: a decision makes two trips for its
 * policy, not one a read.  Nothing happens on SQLite, nor outside a
 * transaction, where nothing is prefetched.
 */
#include "config.h"

#include "exit_codes.h"
#include "json_fields.h"
#include "store_internal.h"
#include "text.h"

/* Binds stmt's one parameter and sends it to be prefetched (db.h). */
static int
prefetch_text(struct store *s, db_stmt *stmt, const char *value,
    struct error *err)
{
	if (stmt == NULL)
		return err->status;
	db_bind_text(stmt, 1, value, -1, DB_TRANSIENT);
	return db_prefetch_add(stmt) == DB_OK ? 0 :
	    store_error(s, err, "reading");
}

static bool
prefetching(struct store *s)
{
	return db_is_postgresql(s->db) && db_in_transaction(s->db);
}

int
store_prefetch_policy(struct store *s, const struct rule_pack *pack,
    const char *user_id, const struct check_input *in, struct error *err)
{
	const cJSON *id = json_member(in->action, "action_id");
	bool users = user_id != NULL &&
	    (pack->needs & (NEEDS_IPS | NEEDS_HOLDINGS));
	int rc;

	if (!prefetching(s))
		return 0;
	/* What the transaction holds is not read again (policy_held.c). */
	if (users && !store_memo_held(s, &s->memo[DOCUMENT_IPS], user_id) &&
	    (rc = prefetch_text(s, store_statement(s, SQL_IPS_ACTIVE, err),
	    user_id, err)) != 0)
		return rc;
	if (users && !store_memo_held(s, &s->memo[DOCUMENT_HOLDINGS],
	    user_id) && (rc = prefetch_text(s, store_statement(s,
	    SQL_HOLDINGS_CURRENT, err), user_id, err)) != 0)
		return rc;
	if (!store_memo_held(s, &s->memo[DOCUMENT_ROSTER], "roster") &&
	    (rc = prefetch_text(s, store_statement(s, SQL_DOCUMENT_GET, err),
	    "roster", err)) != 0)
		return rc;
	if ((pack->needs & NEEDS_STANDARDS) && !store_memo_held(s,
	    &s->memo[DOCUMENT_STANDARDS], "standards_index") &&
	    (rc = prefetch_text(s, store_statement(s, SQL_DOCUMENT_GET, err),
	    "standards_index", err)) != 0)
		return rc;
	if (cJSON_IsString(id) && (rc = store_artifact_prefetch(s,
	    id->valuestring, err)) != 0)
		return rc;
	return db_prefetch(s->db, NULL, 0) == DB_OK ? 0 :
	    store_error(s, err, "reading");
}

struct wanted {
	struct store *store;
	struct error *err;
	int rc;
};

/* A security the check wants, by the key load_policy() reads it by. */
static void
want(void *ctx, const char *ticker)
{
	struct wanted *w = ctx;
	struct security_cache *held;
	char key[ID_MAX_BYTES + 1];

	if (w->rc != 0)
		return;
	text_upper(key, sizeof key, ticker);
	if ((held = store_held_securities(w->store)) != NULL &&
	    security_cache_find(held, key) != NULL)
		return;
	w->rc = prefetch_text(w->store, store_statement(w->store,
	    SQL_SECURITY_GET, w->err), key, w->err);
}

int
store_prefetch_securities(struct store *s, const struct rule_pack *pack,
    const struct check_input *in, const cJSON *holdings, struct error *err)
{
	struct check_input with = *in;
	struct wanted w = { s, err, 0 };

	if (!prefetching(s) || !(pack->needs & NEEDS_SECURITIES) ||
	    pack->securities_wanted == NULL)
		return 0;
	with.holdings = holdings;
	pack->securities_wanted(&with, want, &w);
	if (w.rc != 0)
		return w.rc;
	return db_prefetch(s->db, NULL, 0) == DB_OK ? 0 :
	    store_error(s, err, "reading");
}
