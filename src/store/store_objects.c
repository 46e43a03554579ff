/*
 * Storing imported objects with SPEC 1's identity rules: immutable
 * identities refuse a different object, the same object again is a no-op,
 * and the security map, standards index and roster are replaced by later
 * imports.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "json_strict.h"
#include "lockout.h"
#include "store_internal.h"
#include "text.h"

static void
bind_text(db_stmt *stmt, int index, const char *text)
{
	if (text == NULL)
		db_bind_null(stmt, index);
	else
		db_bind_text(stmt, index, text, -1, DB_STATIC);
}

/*
 * Compares the stored text of an identity with the new tree.  Equal JSON
 * (whatever the spacing or key order) is the same object.
 */
static int
compare_existing(struct store *s, db_stmt *stmt, int column,
    const struct loaded_object *o, const char *field, const char *identity,
    bool *exists, struct error *err)
{
	const char *noun = o->type == OBJECT_PACKET ? "action" :
	    object_type_name(o->type);
	cJSON *stored;
	int rc = db_step(stmt);
	bool same;

	*exists = false;
	if (rc == DB_DONE)
		return 0;
	if (rc != DB_ROW)
		return store_error(s, err, "looking up an identity");
	*exists = true;
	stored = cJSON_Parse((const char *)db_column_text(stmt, column));
	same = stored != NULL && json_equal(stored, o->json);
	cJSON_Delete(stored);
	db_reset(stmt);
	if (!same)
		return error_set(err, EXIT_DATA, field,
		    "conflict: %s %s was already imported with different "
		    "content; an imported %s is immutable", noun, identity,
		    noun);
	return 0;
}

static int
put_ips(struct store *s, const struct loaded_object *o, const char *raw,
    size_t raw_len, long long now_ms, bool write, enum store_put_result *result,
    struct error *err)
{
	db_stmt *stmt;
	char identity[ID_MAX_BYTES + 32];
	bool exists;
	int rc;

	snprintf(identity, sizeof identity, "%s version %lld", o->id,
	    o->version);
	if ((stmt = store_statement(s, SQL_IPS_GET, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, o->id);
	db_bind_int64(stmt, 2, o->version);
	if ((rc = compare_existing(s, stmt, 0, o, "version", identity, &exists,
	    err)) != 0)
		return rc;
	*result = exists ? STORE_PUT_SAME : STORE_PUT_NEW;
	if (exists || !write)
		return 0;
	if ((stmt = store_statement(s, SQL_IPS_INSERT, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, o->id);
	db_bind_int64(stmt, 2, o->version);
	bind_text(stmt, 3, o->user_id);
	db_bind_text(stmt, 4, raw, (int)raw_len, DB_STATIC);
	db_bind_int64(stmt, 5, now_ms);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "storing an IPS");
	return 0;
}

/* SPEC 14: (policy_id, version) is immutable, as an IPS version is. */
static int
put_approval_policy(struct store *s, const struct loaded_object *o,
    const char *raw, size_t raw_len, long long now_ms, bool write,
    enum store_put_result *result, struct error *err)
{
	db_stmt *stmt = NULL;
	char identity[ID_MAX_BYTES + 32];
	bool exists;
	int rc;

	snprintf(identity, sizeof identity, "%s version %lld", o->id,
	    o->version);
	if (db_prepare(s->db, "SELECT raw_json FROM approval_policy"
	    " WHERE policy_id = ?1 AND version = ?2", DB_READS, &stmt) != DB_OK)
		return store_error(s, err, "looking up an approval policy");
	bind_text(stmt, 1, o->id);
	db_bind_int64(stmt, 2, o->version);
	rc = compare_existing(s, stmt, 0, o, "version", identity, &exists,
	    err);
	db_finalize(stmt);
	if (rc != 0)
		return rc;
	*result = exists ? STORE_PUT_SAME : STORE_PUT_NEW;
	if (exists || !write)
		return 0;
	/* PostgreSQL: the owner's function, held to the record (schema 20). */
	if (db_prepare(s->db, db_is_postgresql(s->db) ?
	    "SELECT cs_approval_policy_put(?1, ?2, ?3, ?4)" :
	    "INSERT INTO approval_policy (policy_id,"
	    " version, raw_json, imported_at_ms) VALUES (?1, ?2, ?3, ?4)",
	    DB_WRITES, &stmt) != DB_OK)
		return store_error(s, err, "storing an approval policy");
	bind_text(stmt, 1, o->id);
	db_bind_int64(stmt, 2, o->version);
	db_bind_text(stmt, 3, raw, (int)raw_len, DB_STATIC);
	db_bind_int64(stmt, 4, now_ms);
	rc = db_step(stmt);
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err,
	    "storing an approval policy");
}

static int
put_holdings(struct store *s, const struct loaded_object *o, const char *raw,
    size_t raw_len, long long now_ms, bool write, enum store_put_result *result,
    struct error *err)
{
	db_stmt *stmt;
	bool exists;
	int rc;

	if ((stmt = store_statement(s, SQL_HOLDINGS_GET, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, o->id);
	if ((rc = compare_existing(s, stmt, 0, o, "snapshot_id", o->id,
	    &exists, err)) != 0)
		return rc;
	*result = exists ? STORE_PUT_SAME : STORE_PUT_NEW;
	if (exists || !write)
		return 0;
	if ((stmt = store_statement(s, SQL_HOLDINGS_INSERT, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, o->id);
	bind_text(stmt, 2, o->user_id);
	db_bind_int64(stmt, 3, o->as_of_ms);
	db_bind_text(stmt, 4, raw, (int)raw_len, DB_STATIC);
	db_bind_int64(stmt, 5, now_ms);
	db_bind_text(stmt, 6, o->as_of_beyond_ms,
	    (int)o->as_of_beyond_ms_length, DB_STATIC);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "storing holdings");
	return 0;
}

static int
put_packet(struct store *s, const struct loaded_object *o, const char *raw,
    size_t raw_len, long long now_ms, const struct store_importer *by,
    bool write, enum store_put_result *result, struct error *err)
{
	db_stmt *stmt;
	bool exists;
	int rc;

	exists = false;
	if (!store_fresh_absent(s, o->id)) {
		if ((stmt = store_statement(s, SQL_ACTION_GET, err)) == NULL)
			return err->status;
		bind_text(stmt, 1, o->id);
		/* column 1 of SQL_ACTION_GET is the packet's text */
		if ((rc = compare_existing(s, stmt, 1, o,
		    "proposed_action.action_id", o->id, &exists, err)) != 0)
			return rc;
	}
	*result = exists ? STORE_PUT_SAME : STORE_PUT_NEW;
	if (exists || !write)
		return 0;
	if ((stmt = store_statement(s, SQL_ACTION_INSERT, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, o->id);
	bind_text(stmt, 2, o->kind);
	bind_text(stmt, 3, o->user_id);
	bind_text(stmt, 4, o->author);
	bind_text(stmt, 5, o->revision_of);
	bind_text(stmt, 6, o->requested_by);
	if (o->has_expiry)
		db_bind_int64(stmt, 7, o->expires_at_ms);
	db_bind_text(stmt, 8, raw, (int)raw_len, DB_STATIC);
	db_bind_int64(stmt, 9, now_ms);
	bind_text(stmt, 10, o->artifact_id);
	if (by != NULL && by->login != NULL) {
		bind_text(stmt, 11, by->login);
		db_bind_int64(stmt, 12, by->uid);
		bind_text(stmt, 13, by->served ? "service" : "local");
	}
	/*
	 * No queue row yet: the caller writes it, checked, in the same
	 * transaction (import's queue_index_stored()).
	 */
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "storing an action");
	/* A pull request links a version as an artifact_id does (SPEC 2.4). */
	store_fresh_inserted(s, o->id, o->revision_of, o->artifact_id != NULL ?
	    o->artifact_id : lockout_pr_url(o->json));
	return store_artifact_stored(s, o, err);
}

static int
put_security_map(struct store *s, const struct loaded_object *o,
    long long now_ms, bool write, enum store_put_result *result,
    struct error *err)
{
	const cJSON *entry;
	db_stmt *stmt;
	char key[ID_MAX_BYTES + 1];
	const char *sector, *asset_class, *stored_price;
	const cJSON *price;
	char price_text[32];
	bool changed = false;

	cJSON_ArrayForEach(entry, json_member(o->json, "securities")) {
		text_upper(key, sizeof key, entry->string);
		sector = json_member(entry, "sector")->valuestring;
		asset_class = json_member(entry, "asset_class")->valuestring;
		/* %.17g reads back to the very double (store_queries.c). */
		price = json_member(entry, "price_usd");
		if (cJSON_IsNumber(price))
			snprintf(price_text, sizeof price_text, "%.17g",
			    price->valuedouble);
		if ((stmt = store_statement(s, SQL_SECURITY_GET, err)) == NULL)
			return err->status;
		bind_text(stmt, 1, key);
		if (db_step(stmt) == DB_ROW &&
		    strcmp((const char *)db_column_text(stmt, 0),
		    entry->string) == 0 &&
		    strcmp((const char *)db_column_text(stmt, 1),
		    sector) == 0 &&
		    strcmp((const char *)db_column_text(stmt, 2),
		    asset_class) == 0 &&
		    ((stored_price = (const char *)db_column_text(stmt, 3)) ==
		    NULL ? !cJSON_IsNumber(price) : cJSON_IsNumber(price) &&
		    strcmp(stored_price, price_text) == 0)) {
			db_reset(stmt);
			continue;
		}
		db_reset(stmt);
		changed = true;
		if (!write)
			break;
		if ((stmt = store_statement(s, SQL_SECURITY_PUT, err)) == NULL)
			return err->status;
		bind_text(stmt, 1, key);
		bind_text(stmt, 2, entry->string);
		bind_text(stmt, 3, sector);
		bind_text(stmt, 4, asset_class);
		db_bind_int64(stmt, 5, now_ms);
		bind_text(stmt, 6, cJSON_IsNumber(price) ? price_text : NULL);
		if (db_step(stmt) != DB_DONE)
			return store_error(s, err, "storing the security map");
	}
	*result = changed ? STORE_PUT_CHANGED : STORE_PUT_SAME;
	return 0;
}

static int
put_document(struct store *s, const struct loaded_object *o, const char *raw,
    size_t raw_len, long long now_ms, bool write, enum store_put_result *result,
    struct error *err)
{
	const char *type = object_type_name(o->type);
	db_stmt *stmt;
	cJSON *stored = NULL;
	bool same = false, exists = false;
	int rc;

	if ((stmt = store_statement(s, SQL_DOCUMENT_GET, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, type);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		exists = true;
		stored = cJSON_Parse((const char *)db_column_text(stmt, 0));
		same = stored != NULL && json_equal(stored, o->json);
		cJSON_Delete(stored);
	} else if (rc != DB_DONE)
		return store_error(s, err, "looking up a policy document");
	db_reset(stmt);
	if (same) {
		*result = STORE_PUT_SAME;
		return 0;
	}
	*result = exists ? STORE_PUT_CHANGED : STORE_PUT_NEW;
	if (!write)
		return 0;
	if ((stmt = store_statement(s, SQL_DOCUMENT_PUT, err)) == NULL)
		return err->status;
	bind_text(stmt, 1, type);
	db_bind_text(stmt, 2, raw, (int)raw_len, DB_STATIC);
	db_bind_int64(stmt, 3, now_ms);
	if (db_step(stmt) != DB_DONE)
		return store_error(s, err, "storing a policy document");
	return 0;
}

/* store_put(), or with write false only what it would find (put_check). */
static int
put(struct store *s, const struct loaded_object *o, const char *raw,
    size_t raw_len, long long now_ms, const struct store_importer *by,
    bool write, enum store_put_result *result, struct error *err)
{
	/* A policy object written: what the transaction held may not be. */
	if (write && o->type != OBJECT_PACKET)
		store_policy_unhold(s);
	switch (o->type) {
	case OBJECT_IPS:
		return put_ips(s, o, raw, raw_len, now_ms, write, result, err);
	case OBJECT_HOLDINGS:
		return put_holdings(s, o, raw, raw_len, now_ms, write, result,
		    err);
	case OBJECT_PACKET:
		return put_packet(s, o, raw, raw_len, now_ms, by, write,
		    result, err);
	case OBJECT_SECURITY_MAP:
		return put_security_map(s, o, now_ms, write, result, err);
	case OBJECT_APPROVAL_POLICY:
		return put_approval_policy(s, o, raw, raw_len, now_ms, write,
		    result, err);
	case OBJECT_STANDARDS_INDEX:
	case OBJECT_ROSTER:
		return put_document(s, o, raw, raw_len, now_ms, write, result,
		    err);
	}
	return error_set(err, EXIT_DATA, "type", "unknown object type");
}

int
store_put(struct store *s, const struct loaded_object *o, const char *raw,
    size_t raw_len, long long now_ms, const struct store_importer *by,
    enum store_put_result *result, struct error *err)
{
	return put(s, o, raw, raw_len, now_ms, by, true, result, err);
}

int
store_put_check(struct store *s, const struct loaded_object *o,
    const char *raw, size_t raw_len, enum store_put_result *result,
    struct error *err)
{
	return put(s, o, raw, raw_len, 0, NULL, false, result, err);
}
