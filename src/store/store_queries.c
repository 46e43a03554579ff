/* Reading the queue and the policy objects a re-check needs. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "json_writer.h"
#include "sha256.h"
#include "store_internal.h"
#include "text.h"

/*
 * A stored object is held to what import required of it (SPEC 1): the
 * rules read it as the loader vouched, and a row written behind
 * countersign's back ({"constraints": 5} for an IPS) crashed every
 * command.  A shape error is the database's, not the input's: EXIT_STORAGE,
 * naming the row.  tree stays the caller's, and o points into it.
 */
int
store_object_valid(struct store *s, cJSON *tree, enum object_type want,
    const char *key, struct loaded_object *o, struct error *err)
{
	struct error why;

	error_clear(&why);
	if (object_load_tree(tree, o, &why) == 0 && o->type == want)
		return 0;
	if (why.message[0] == '\0')
		error_set(&why, EXIT_DATA, "type", "not a %s",
		    object_type_name(want));
	return error_set(err, EXIT_STORAGE, NULL, "%s: the stored %s (%s) is "
	    "not one import would accept (%s%s%s); the database was changed "
	    "outside countersign", s->path, object_type_name(want),
	    key != NULL ? key : "?", why.field, why.field[0] != '\0' ? ": " :
	    "", why.message);
}

/*
 * Parses the first column of the statement's next row, held to the
 * shape of want (key names the row); NULL when no row.
 */
static int
row_json(struct store *s, db_stmt *stmt, int column,
    enum object_type want, const char *key, cJSON **out, struct error *err)
{
	struct loaded_object o;
	int rc = db_step(stmt);

	*out = NULL;
	if (rc == DB_DONE)
		return 0;
	if (rc != DB_ROW)
		return store_error(s, err, "reading");
	*out = cJSON_Parse((const char *)db_column_text(stmt, column));
	db_reset(stmt);
	if (*out == NULL)
		return error_set(err, EXIT_STORAGE, NULL,
		    "%s: the stored %s (%s) is not valid JSON", s->path,
		    object_type_name(want), key != NULL ? key : "?");
	if ((rc = store_object_valid(s, *out, want, key, &o, err)) != 0) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	return rc;
}

/* printed NULL: a cached pass, which needs no printed form. */
static int
load_by_user(struct store *s, enum statement which, const char *user_id,
    cJSON **out, struct document_memo *memo, char **printed,
    struct error *err)
{
	enum object_type want;
	db_stmt *stmt;

	*out = NULL;
	if (user_id == NULL)
		return 0;
	if (printed != NULL && store_memo_held(s, memo, user_id))
		return store_memo_give(memo, out, printed, err);
	if ((stmt = store_statement(s, which, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, user_id, -1, DB_STATIC);
	want = which == SQL_IPS_ACTIVE ? OBJECT_IPS : OBJECT_HOLDINGS;
	if (printed != NULL)
		return store_row_json_memo(s, stmt, memo, want, user_id,
		    out, printed, err);
	return row_json(s, stmt, 0, want, user_id, out, err);
}

static int
load_document(struct store *s, const char *type, cJSON **out,
    struct document_memo *memo, char **printed, struct error *err)
{
	enum object_type want;
	db_stmt *stmt;

	*out = NULL;
	if (printed != NULL && store_memo_held(s, memo, type))
		return store_memo_give(memo, out, printed, err);
	if ((stmt = store_statement(s, SQL_DOCUMENT_GET, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, type, -1, DB_STATIC);
	want = strcmp(type, "roster") == 0 ? OBJECT_ROSTER :
	    OBJECT_STANDARDS_INDEX;
	if (printed != NULL)
		return store_row_json_memo(s, stmt, memo, want, type, out,
		    printed, err);
	return row_json(s, stmt, 0, want, type, out, err);
}

struct securities_load {
	struct store *store;
	cJSON *map;			/* the action's own */
	struct security_cache *cache;	/* a cached pass's, or NULL */
	struct error *err;
	int rc;
};

/* M[key] from the table: *entry NULL when the map has no such ticker. */
static int
read_security(struct securities_load *load, const char *key, cJSON **entry)
{
	db_stmt *stmt;
	int rc;

	*entry = NULL;
	if ((stmt = store_statement(load->store, SQL_SECURITY_GET,
	    load->err)) == NULL)
		return load->err->status;
	db_bind_text(stmt, 1, key, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		if ((*entry = cJSON_CreateObject()) == NULL ||
		    cJSON_AddStringToObject(*entry, "sector",
		    (const char *)db_column_text(stmt, 1)) == NULL ||
		    cJSON_AddStringToObject(*entry, "asset_class",
		    (const char *)db_column_text(stmt, 2)) == NULL ||
		    (db_column_text(stmt, 3) != NULL &&
		    cJSON_AddNumberToObject(*entry, "price_usd", strtod(
		    (const char *)db_column_text(stmt, 3), NULL)) == NULL)) {
			db_reset(stmt);
			cJSON_Delete(*entry);
			*entry = NULL;
			return error_set(load->err, EXIT_STORAGE, NULL,
			    "out of memory");
		}
	} else if (rc != DB_DONE) {
		db_reset(stmt);
		return store_error(load->store, load->err,
		    "reading the security map");
	}
	db_reset(stmt);
	return 0;
}

/*
 * A single re-check's M[key] inside a write transaction: read from the
 * table once, then held (policy_held.c); the map gets a copy of its own.
 */
static void
held_security(struct securities_load *load, struct security_cache *held,
    const char *key)
{
	struct security_cached *cached = security_cache_find(held, key);
	cJSON *entry = NULL;

	if (cached == NULL) {
		if ((load->rc = read_security(load, key, &entry)) != 0)
			return;
		if ((cached = security_cache_add(held, key, entry)) == NULL)
			goto nomem;
	}
	if (cached->entry == NULL)
		return;
	if ((entry = cJSON_Duplicate(cached->entry, true)) == NULL ||
	    !cJSON_AddItemToObject(load->map, key, entry))
		goto nomem;
	return;
nomem:
	cJSON_Delete(entry);
	load->rc = error_set(load->err, EXIT_STORAGE, NULL, "out of memory");
}

/*
 * Adds M[ticker] to the action's map, once.  A cached pass reads each
 * ticker from the table once and lends the entry to every action that
 * names it; a single re-check reads what it needs and owns it.
 */
static void
want_security(void *ctx, const char *ticker)
{
	struct securities_load *load = ctx;
	struct security_cached *cached = NULL;
	struct security_cache *held;
	char key[ID_MAX_BYTES + 1];
	cJSON *entry, *lent;

	if (load->rc != 0)
		return;
	text_upper(key, sizeof key, ticker);
	/*
	 * Once in the map: a single re-check asks the map, a cached pass its
	 * entry, which remembers the last load that wanted it (a portfolio
	 * of hundreds of positions would otherwise ask the map hundreds of
	 * times, each a walk of it).
	 */
	if (load->cache == NULL) {
		if (cJSON_GetObjectItemCaseSensitive(load->map, key) != NULL)
			return;
		if ((held = store_held_securities(load->store)) != NULL) {
			held_security(load, held, key);
			return;
		}
	} else if ((cached = security_cache_find(load->cache, key)) != NULL) {
		if (cached->wanted_by == load->cache->loads)
			return;
		cached->wanted_by = load->cache->loads;
	}
	if (cached == NULL) {
		if ((load->rc = read_security(load, key, &entry)) != 0)
			return;
		if (load->cache == NULL) {
			if (entry != NULL &&
			    !cJSON_AddItemToObject(load->map, key, entry)) {
				cJSON_Delete(entry);
				goto nomem;
			}
			return;
		}
		if ((cached = security_cache_add(load->cache, key,
		    entry)) == NULL) {
			cJSON_Delete(entry);
			goto nomem;
		}
		cached->wanted_by = load->cache->loads;
	}
	if (cached->entry == NULL)
		return;
	/*
	 * An object that refers to the entry's members (its child, as
	 * cJSON_CreateObjectReference() wants): deleting the action's map
	 * leaves them alone.
	 */
	if ((lent = cJSON_CreateObjectReference(cached->entry->child)) == NULL)
		goto nomem;
	if (!cJSON_AddItemToObjectCS(load->map, cached->key, lent)) {
		cJSON_Delete(lent);
		goto nomem;
	}
	return;
nomem:
	load->rc = error_set(load->err, EXIT_STORAGE, NULL, "out of memory");
}

/*
 * A stored packet as import accepted it, and about the row it is in: its
 * kind is the row's (the rule pack is chosen by the row) and its id the
 * row's (else a packet is decided under another's id).
 */
static int
stored_packet_valid(struct store *s, db_stmt *stmt,
    const char *action_id, cJSON *packet, struct error *err)
{
	const char *kind = (const char *)db_column_text(stmt, 0);
	struct loaded_object o;
	int rc;

	if ((rc = store_object_valid(s, packet, OBJECT_PACKET, action_id, &o,
	    err)) != 0)
		return rc;
	if (kind == NULL || strcmp(o.kind, kind) != 0 || action_id == NULL ||
	    strcmp(o.id, action_id) != 0)
		return error_set(err, EXIT_STORAGE, NULL, "%s: the stored "
		    "packet %s is about %s %s, not its row's; the database was "
		    "changed outside countersign", s->path, action_id != NULL ?
		    action_id : "?", o.kind, o.id);
	return 0;
}

/*
 * The action from a row of (kind, raw_json, status, imported_at_ms,
 * expires_at_ms, importer_login, importer_uid, importer_via); the policy
 * trees are left to the caller.
 */
static int
action_from_row(struct store *s, db_stmt *stmt, const char *action_id,
    long long now_ms, struct check_data *d, const struct rule_pack **pack,
    struct error *err)
{
	bool packet_is_text = db_column_type(stmt, 1) == DB_TEXT;
	const char *importer, *via;
	int rc;

	memset(d, 0, sizeof *d);
	*pack = rule_pack_find((const char *)db_column_text(stmt, 0));
	/*
	 * Stored text that passed SPEC 1 at import; read, then dropped.  Its
	 * length is known: no strlen() over every packet (2.5% of a check).
	 */
	d->packet = cJSON_ParseWithLength(
	    (const char *)db_column_text(stmt, 1),
	    (size_t)db_column_bytes(stmt, 1));
	/* What the officer is shown is what an approval may be about. */
	if (packet_is_text && sha256_hex(db_column_text(stmt, 1),
	    (size_t)db_column_bytes(stmt, 1), d->packet_sha256) == 0)
		d->input.packet_sha256 = d->packet_sha256;
	d->status = text_copy((const char *)db_column_text(stmt, 2));
	d->imported_at_ms = db_column_int64(stmt, 3);
	d->has_expiry = db_column_type(stmt, 4) != DB_NULL;
	d->expires_at_ms = db_column_int64(stmt, 4);
	importer = (const char *)db_column_text(stmt, 5);
	if (importer != NULL) {
		text_copy_bounded(d->importer_login,
		    sizeof d->importer_login, importer);
		d->importer_uid = db_column_int64(stmt, 6);
		via = (const char *)db_column_text(stmt, 7);
		d->importer_served = via != NULL && strcmp(via, "service") == 0;
	}
	if (*pack == NULL || d->packet == NULL || d->status == NULL) {
		check_data_free(d);
		return error_set(err, EXIT_STORAGE, NULL,
		    "%s: action %s cannot be read back", s->path,
		    action_id != NULL ? action_id : "?");
	}
	if ((rc = stored_packet_valid(s, stmt, action_id, d->packet,
	    err)) != 0) {
		check_data_free(d);
		return rc;
	}
	d->input.packet = d->packet;
	d->input.action = json_member(d->packet, "proposed_action");
	d->input.now_ms = now_ms;
	return 0;
}

/*
 * A decision records the advisory exactly as received (SPEC 6): the bytes
 * of the packet's text, which the tree, its numbers doubles, does not keep.
 */
static int
keep_packet_text(db_stmt *stmt, struct check_data *d, struct error *err)
{
	const unsigned char *text = db_column_text(stmt, 1);

	d->packet_length = (size_t)db_column_bytes(stmt, 1);
	if (text == NULL || (d->packet_text = malloc(d->packet_length + 1)) ==
	    NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	memcpy(d->packet_text, text, d->packet_length);
	d->packet_text[d->packet_length] = '\0';
	return 0;
}

static int
load_action(struct store *s, const char *action_id, long long now_ms,
    struct check_data *d, const struct rule_pack **pack, struct error *err)
{
	db_stmt *stmt;
	int rc;

	memset(d, 0, sizeof *d);
	if ((stmt = store_statement(s, SQL_ACTION_GET, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, action_id, -1, DB_STATIC);
	rc = db_step(stmt);
	if (rc == DB_DONE)
		return error_set(err, EXIT_REFUSED, NULL, "unknown action %s",
		    action_id);
	if (rc != DB_ROW)
		return store_error(s, err, "reading an action");
	rc = action_from_row(s, stmt, action_id, now_ms, d, pack, err);
	if (rc == 0 && (rc = keep_packet_text(stmt, d, err)) != 0)
		check_data_free(d);
	db_reset(stmt);
	return rc;
}

/* Points the check input at the loaded trees. */
static void
link_input(struct check_data *d)
{
	d->input.ips = d->ips;
	d->input.holdings = d->holdings;
	d->input.securities = d->securities;
	d->input.standards = d->standards;
	d->input.roster = d->roster;
	d->input.revision_chain = d->revision_chain;
	d->input.ips_printed = d->ips_printed;
	d->input.holdings_printed = d->holdings_printed;
	d->input.standards_printed = d->standards_printed;
	d->input.roster_printed = d->roster_printed;
}

static void
user_policy_clear(struct user_policy *u)
{
	free(u->user_id);
	cJSON_Delete(u->ips);
	cJSON_Delete(u->holdings);
	memset(u, 0, sizeof *u);
}

/* FNV-1a: users spread over the slots whatever their ids look like. */
static size_t
user_slot(const char *user_id)
{
	uint32_t hash = 2166136261u;

	for (; *user_id != '\0'; user_id++)
		hash = (hash ^ (unsigned char)*user_id) * 16777619u;
	return hash % POLICY_USERS;
}

static void
cache_clear(struct policy_cache *c)
{
	size_t i;

	for (i = 0; i < POLICY_USERS; i++)
		user_policy_clear(&c->users[i]);
	cJSON_Delete(c->roster);
	cJSON_Delete(c->standards);
	security_cache_clear(&c->securities);
	memset(c, 0, sizeof *c);
}

void
store_cache_policy(struct store *s, bool on)
{
	cache_clear(&s->cache);
	s->cache.enabled = on;
}

/*
 * The policy trees an action's check reads, loaded into c (a cache that
 * outlives the call, or one for this call alone) and pointed at from d.
 * Only what c does not hold yet is read.
 */
static int
load_policy(struct store *s, const struct rule_pack *pack,
    const char *user_id, struct policy_cache *c, bool for_decision,
    struct check_data *d, struct error *err)
{
	struct securities_load load;
	struct user_policy *user = NULL;
	/* A single re-check keeps the printed forms; a cached pass does not. */
	bool single = c != &s->cache;
	int rc;

	if (user_id != NULL && (pack->needs & (NEEDS_IPS | NEEDS_HOLDINGS))) {
		/* A single re-check reads one user: the first slot will do. */
		user = &c->users[single ? 0 : user_slot(user_id)];
		if (user->user_id != NULL && strcmp(user->user_id, user_id) != 0)
			user_policy_clear(user);
	}
	if (single && (rc = store_prefetch_policy(s, pack, user_id, &d->input,
	    err)) != 0)
		return rc;
	if (user != NULL && user->user_id == NULL) {
		if ((user->user_id = text_copy(user_id)) == NULL)
			return error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
		if ((rc = load_by_user(s, SQL_IPS_ACTIVE, user_id, &user->ips,
		    &s->memo[DOCUMENT_IPS], single ? &d->ips_printed : NULL,
		    err)) != 0 || (rc = load_by_user(s, SQL_HOLDINGS_CURRENT,
		    user_id, &user->holdings, &s->memo[DOCUMENT_HOLDINGS],
		    single ? &d->holdings_printed : NULL, err)) != 0)
			return rc;
	}
	if (single && (rc = store_prefetch_securities(s, pack, &d->input,
	    user != NULL ? user->holdings : NULL, err)) != 0)
		return rc;
	/* The lockout of SPEC 2.4 applies to every kind. */
	if (!c->roster_loaded && (rc = load_document(s, "roster", &c->roster,
	    &s->memo[DOCUMENT_ROSTER], single ? &d->roster_printed : NULL,
	    err)) != 0)
		return rc;
	c->roster_loaded = true;
	if ((pack->needs & NEEDS_STANDARDS) && !c->standards_loaded) {
		if ((rc = load_document(s, "standards_index", &c->standards,
		    &s->memo[DOCUMENT_STANDARDS], single ?
		    &d->standards_printed : NULL, err)) != 0)
			return rc;
		c->standards_loaded = true;
	}
	/* What a decision names the roster and the index by (SPEC v2 6). */
	if (single && c->roster != NULL)
		memcpy(d->roster_sha256, s->memo[DOCUMENT_ROSTER].sha256,
		    sizeof d->roster_sha256);
	if (single && c->standards != NULL)
		memcpy(d->standards_sha256, s->memo[DOCUMENT_STANDARDS].sha256,
		    sizeof d->standards_sha256);
	/* And the IPS and holdings, each by the digest its import recorded. */
	if (single && user != NULL && user->ips != NULL)
		memcpy(d->ips_sha256, s->memo[DOCUMENT_IPS].sha256,
		    sizeof d->ips_sha256);
	if (single && user != NULL && user->holdings != NULL)
		memcpy(d->holdings_sha256, s->memo[DOCUMENT_HOLDINGS].sha256,
		    sizeof d->holdings_sha256);
	if (user != NULL && (pack->needs & NEEDS_IPS))
		d->ips = user->ips;
	if (user != NULL && (pack->needs & NEEDS_HOLDINGS))
		d->holdings = user->holdings;
	if (pack->needs & NEEDS_STANDARDS)
		d->standards = c->standards;
	d->roster = c->roster;
	/*
	 * Every action may be a version of an artifact (SPEC 2.4 v2): a
	 * single check reads every other version, a decision and a pass
	 * over the queue those their answers depend on (artifact_chain.c).
	 */
	if ((rc = store_artifact_chain(s, d->input.packet, d->status,
	    !single ? ARTIFACT_FOR_PASS : for_decision ?
	    ARTIFACT_FOR_DECISION : ARTIFACT_EVERY_VERSION, c->roster,
	    &d->revision_chain, err)) != 0)
		return rc;
	link_input(d);
	if ((pack->needs & NEEDS_SECURITIES) && pack->securities_wanted) {
		/* The action's own map, even in a cached pass: see above. */
		if ((d->securities = cJSON_CreateObject()) == NULL)
			return error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
		d->input.securities = d->securities;
		load = (struct securities_load){ s, d->securities,
		    single ? NULL : &c->securities, err, 0 };
		c->securities.loads++;
		pack->securities_wanted(&d->input, want_security, &load);
		if ((rc = load.rc) != 0)
			return rc;
	}
	return 0;
}

/* Deletes what c holds that d does not point at; d keeps the rest. */
static void
hand_over(struct policy_cache *c, const struct check_data *d)
{
	struct user_policy *user = &c->users[0];	/* the only one used */

	if (user->ips != d->ips)
		cJSON_Delete(user->ips);
	if (user->holdings != d->holdings)
		cJSON_Delete(user->holdings);
	if (c->roster != d->roster)
		cJSON_Delete(c->roster);
	if (c->standards != d->standards)
		cJSON_Delete(c->standards);
	free(user->user_id);
	memset(c, 0, sizeof *c);
}

/* The policy half of a check, once d holds the packet. */
static int
load_check_policy(struct store *s, const struct rule_pack *pack,
    bool for_decision, struct check_data *d, struct error *err)
{
	struct policy_cache own;
	const cJSON *user = json_member(d->input.action, "user_id");
	int rc;

	if (s->cache.enabled) {
		/* Lent, not given: check_data_free() leaves them alone. */
		d->policy_borrowed = true;
		rc = load_policy(s, pack, cJSON_IsString(user) ?
		    user->valuestring : NULL, &s->cache, for_decision, d, err);
		if (rc != 0) {
			/* A half-filled cache would be wrong next time. */
			cache_clear(&s->cache);
			s->cache.enabled = true;
			check_data_free(d);
		}
		return rc;
	}
	memset(&own, 0, sizeof own);
	rc = load_policy(s, pack, cJSON_IsString(user) ? user->valuestring :
	    NULL, &own, for_decision, d, err);
	if (rc != 0)
		d->ips = d->holdings = d->roster = d->standards = NULL;
	hand_over(&own, d);
	if (rc != 0)
		check_data_free(d);
	return rc;
}

/*
 * A change's judgments recorded so far (SPEC 2.3 v3): rule 7 counts
 * them, in check as in the deciding transaction.
 */
static int
load_judgments(struct store *s, const struct rule_pack *pack,
    const char *action_id, struct check_data *d, struct error *err)
{
	int rc;

	if (strcmp(pack->kind, "change") != 0 || action_id == NULL)
		return 0;
	if ((rc = store_judgments_load(s, action_id, &d->judgments,
	    err)) != 0) {
		check_data_free(d);
		return rc;
	}
	d->input.po_judgments = d->judgments;
	return 0;
}

/* An action and its inputs, the artifact read for a decision or whole. */
static int
load_check(struct store *s, const char *action_id, long long now_ms,
    bool for_decision, struct check_data *d, struct error *err)
{
	const struct rule_pack *pack;
	int rc;

	if ((rc = load_action(s, action_id, now_ms, d, &pack, err)) != 0 ||
	    (rc = load_check_policy(s, pack, for_decision, d, err)) != 0)
		return rc;
	return load_judgments(s, pack, action_id, d, err);
}

int
store_load_check(struct store *s, const char *action_id, long long now_ms,
    struct check_data *d, struct error *err)
{
	return load_check(s, action_id, now_ms, false, d, err);
}

int
store_load_decision_check(struct store *s, const char *action_id,
    long long now_ms, struct check_data *d, struct error *err)
{
	return load_check(s, action_id, now_ms, true, d, err);
}

int
store_load_check_stored(struct store *s, const struct loaded_object *o,
    long long imported_at_ms, long long now_ms, struct check_data *d,
    struct error *err)
{
	const struct rule_pack *pack = rule_pack_find(o->kind);

	memset(d, 0, sizeof *d);
	if (pack == NULL)
		return error_set(err, EXIT_STORAGE, NULL,
		    "%s: action %s has no rule pack", s->path, o->id);
	/* What load_action() would read back from the row just written. */
	d->packet = o->json;
	d->packet_borrowed = true;
	if ((d->status = text_copy("pending")) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	d->imported_at_ms = imported_at_ms;
	d->has_expiry = o->has_expiry;
	d->expires_at_ms = o->expires_at_ms;
	d->input.packet = d->packet;
	d->input.action = json_member(d->packet, "proposed_action");
	d->input.now_ms = now_ms;
	return load_check_policy(s, pack, false, d, err);
}

static int
load_by_key(struct store *s, enum statement which, const char *key,
    long long number, cJSON **out, struct error *err)
{
	db_stmt *stmt;

	*out = NULL;
	if (key == NULL)
		return 0;
	if ((stmt = store_statement(s, which, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, key, -1, DB_STATIC);
	if (which == SQL_IPS_GET)
		db_bind_int64(stmt, 2, number);
	return row_json(s, stmt, 0, which == SQL_IPS_GET ? OBJECT_IPS :
	    OBJECT_HOLDINGS, key, out, err);
}

static cJSON *
copy_member(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return item == NULL || cJSON_IsNull(item) ? NULL :
	    cJSON_Duplicate(item, 1);
}

/*
 * A policy object a decision record used: by "<name>_sha256" when it
 * names one, else the copy older records kept under name.
 */
static int
recorded_object(struct store *s, const cJSON *inputs, const char *name,
    enum object_type type, cJSON **out, struct error *err)
{
	char key[64];
	const cJSON *named;

	snprintf(key, sizeof key, "%s_sha256", name);
	named = json_member(inputs, key);
	*out = NULL;
	if (cJSON_IsString(named))
		return store_policy_object_load(s, named->valuestring, type,
		    out, err);
	*out = copy_member(inputs, name);
	return 0;
}

int
store_load_recorded(struct store *s, const char *action_id,
    const cJSON *inputs, long long now_ms, struct check_data *d,
    struct error *err)
{
	const struct rule_pack *pack;
	const cJSON *ips = json_member(inputs, "ips");
	const cJSON *ips_id = json_member(ips, "ips_id");
	const cJSON *version = json_member(ips, "version");
	const cJSON *snapshot = json_member(inputs, "holdings_snapshot_id");
	int rc;

	if ((rc = load_action(s, action_id, now_ms, d, &pack, err)) != 0)
		return rc;
	/* IPS versions and snapshots are immutable: the store still has them. */
	if ((rc = load_by_key(s, SQL_IPS_GET, cJSON_IsString(ips_id) ?
	    ips_id->valuestring : NULL, cJSON_IsNumber(version) ?
	    (long long)version->valuedouble : 0, &d->ips, err)) != 0 ||
	    (rc = load_by_key(s, SQL_HOLDINGS_GET, cJSON_IsString(snapshot) ?
	    snapshot->valuestring : NULL, 0, &d->holdings, err)) != 0)
		goto fail;
	/*
	 * The security map, standards and roster change: the record kept the
	 * map's entries it read, and names the standards and roster by their
	 * SHA-256 (SPEC v2 6); records before that copied them whole.
	 */
	d->securities = copy_member(inputs, "securities");
	d->revision_chain = copy_member(inputs, "revision_chain");
	if ((rc = recorded_object(s, inputs, "standards_index",
	    OBJECT_STANDARDS_INDEX, &d->standards, err)) != 0 ||
	    (rc = recorded_object(s, inputs, "roster", OBJECT_ROSTER,
	    &d->roster, err)) != 0)
		goto fail;
	link_input(d);
	return 0;
fail:
	check_data_free(d);
	return rc;
}

void
check_data_free(struct check_data *d)
{
	if (!d->packet_borrowed)
		cJSON_Delete(d->packet);
	if (!d->policy_borrowed) {
		cJSON_Delete(d->ips);
		cJSON_Delete(d->holdings);
		cJSON_Delete(d->standards);
		cJSON_Delete(d->roster);
	}
	/* The action's own map: what it lends stays in the cache. */
	cJSON_Delete(d->securities);
	cJSON_Delete(d->revision_chain);
	cJSON_Delete(d->judgments);
	free(d->ips_printed);
	free(d->holdings_printed);
	free(d->standards_printed);
	free(d->roster_printed);
	free(d->packet_text);
	free(d->status);
	memset(d, 0, sizeof *d);
}

int
store_each_check(struct store *s, bool all, long long now_ms,
    int (*fn)(void *ctx, struct check_data *), void *ctx, struct error *err)
{
	const struct rule_pack *pack;
	struct check_data d;
	db_stmt *stmt;
	int rc;

	/*
	 * One pass over the table, each row read where it lies, rather than
	 * a list of ids each looked up again through the id index.  The
	 * statement is our own (not the shared prepared one): the policy
	 * loads run other queries on this connection meanwhile.
	 */
	rc = db_prepare(s->db, all ?
	    "SELECT kind, raw_json, status, imported_at_ms, expires_at_ms,"
	    " importer_login, importer_uid, importer_via,"
	    " action_id FROM action ORDER BY imported_at_ms, rowid" :
	    "SELECT kind, raw_json, status, imported_at_ms, expires_at_ms,"
	    " importer_login, importer_uid, importer_via,"
	    " action_id FROM action WHERE status = 'pending'"
	    " ORDER BY imported_at_ms, rowid", DB_READS, &stmt);
	if (rc != DB_OK)
		return store_error(s, err, "listing actions");
	/* The whole queue: a batch at a time, never all at once (issue 34). */
	db_stream(stmt);
	while ((rc = db_step(stmt)) == DB_ROW) {
		if ((rc = action_from_row(s, stmt,
		    (const char *)db_column_text(stmt, 8), now_ms, &d,
		    &pack, err)) != 0 ||
		    (rc = load_check_policy(s, pack, false, &d, err)) != 0 ||
		    (rc = load_judgments(s, pack,
		    (const char *)db_column_text(stmt, 8), &d, err)) != 0)
			goto done;
		rc = fn(ctx, &d);
		check_data_free(&d);
		if (rc != 0)
			goto done;
	}
	rc = rc == DB_DONE ? 0 : store_error(s, err, "listing actions");
done:
	db_finalize(stmt);
	return rc;
}
