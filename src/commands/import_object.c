/*
 * The objects of an import stored one by one in the file's transaction,
 * a policy object's audit record first (SPEC 6), and submit (SPEC 12),
 * which stores the lines a program sends the same way.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "import_object.h"
#include "json_strict.h"
#include "programs.h"
#include "sha256.h"
#include "timestamp.h"

/* SPEC 5 (v3): the importer, trusted as such only through the service. */
void
import_context_operator(struct import_context *ctx)
{
	operator_current(&ctx->op);
	ctx->importer.login = ctx->op.login;
	ctx->importer.uid = ctx->op.uid;
	ctx->importer.served = operator_served();
}

static bool
is_policy(enum object_type type)
{
	return type == OBJECT_IPS || type == OBJECT_SECURITY_MAP ||
	    type == OBJECT_STANDARDS_INDEX || type == OBJECT_ROSTER ||
	    type == OBJECT_HOLDINGS || type == OBJECT_APPROVAL_POLICY;
}

/*
 * SPEC 6: a new or changed policy object is recorded in the audit log in
 * the same transaction that stores it, so the log shows which policy was
 * in force when each later decision was taken.
 */
static int
record_policy(struct import_context *ctx, const struct loaded_object *o,
    const char *text, size_t len, size_t line, struct error *err)
{
	char digest[65], when[TIMESTAMP_SIZE], *json;
	cJSON *record = cJSON_CreateObject(), *item;
	int rc;

	if (record == NULL || sha256_hex(text, len, digest) != 0) {
		cJSON_Delete(record);
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	}
	timestamp_format(ctx->now_ms, when);
	cJSON_AddStringToObject(record, "event", "policy_import");
	cJSON_AddStringToObject(record, "type", object_type_name(o->type));
	if (o->type == OBJECT_IPS || o->type == OBJECT_APPROVAL_POLICY) {
		item = cJSON_AddObjectToObject(record, "identity");
		cJSON_AddStringToObject(item, o->type == OBJECT_IPS ?
		    "ips_id" : "policy_id", o->id);
		cJSON_AddNumberToObject(item, "version", (double)o->version);
	} else if (o->type == OBJECT_HOLDINGS) {
		item = cJSON_AddObjectToObject(record, "identity");
		cJSON_AddStringToObject(item, "snapshot_id", o->id);
		cJSON_AddStringToObject(item, "user_id", o->user_id);
	} else
		cJSON_AddNullToObject(record, "identity");
	cJSON_AddItemToObject(record, "object", cJSON_Duplicate(o->json, 1));
	cJSON_AddStringToObject(record, "object_sha256", digest);
	cJSON_AddStringToObject(record, "imported_at", when);
	item = cJSON_AddObjectToObject(record, "operator");
	cJSON_AddStringToObject(item, "login", ctx->op.login);
	cJSON_AddNumberToObject(item, "uid", (double)ctx->op.uid);
	item = cJSON_AddObjectToObject(record, "source");
	cJSON_AddStringToObject(item, "file", ctx->path);
	cJSON_AddNumberToObject(item, "line", (double)line);
	item = cJSON_AddObjectToObject(record, "program");
	cJSON_AddStringToObject(item, "name", "countersign");
	cJSON_AddStringToObject(item, "version", PACKAGE_VERSION);
	json = json_print(record);
	cJSON_Delete(record);
	if (json == NULL)
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	rc = store_audit_append(ctx->store, json, &ctx->head, err);
	free(json);
	return rc;
}

/*
 * The queue row of an action just stored, from the tree already parsed:
 * reading it back for the refresh after the import would parse it twice.
 * Its revisions indexed earlier saw no original yet, so they are marked
 * stale for that refresh.  A failure here (out of memory, or storage,
 * which SQLite may answer by rolling the transaction back) fails the
 * file: carrying on could store the rest outside any transaction.
 */
static int
index_new_action(struct import_context *ctx, const struct loaded_object *o,
    const char *text, size_t len, struct error *err)
{
	int rc;

	if ((rc = queue_index_stored(ctx->store, o, text, len, ctx->now_ms,
	    ctx->now_ms, ctx->epoch, err)) != 0)
		return rc;
	return store_queue_mark_revisions(ctx->store, o->id, err);
}

/* Imports one object starting at line; *error_offset locates a bad byte. */
int
import_object(struct import_context *ctx, const char *text, size_t len,
    size_t line, size_t *error_offset, struct error *err)
{
	struct loaded_object o;
	enum store_put_result result;
	int rc;

	*error_offset = 0;
	rc = object_load(text, len, &o, error_offset, err);
	if (ctx->json && import_results_add(&ctx->results, line, rc == 0 ?
	    object_type_name(o.type) : NULL, rc == 0 ? o.id : NULL, err) != 0) {
		object_free(&o);
		return EXIT_STORAGE;
	}
	ctx->results.last_failed = true;
	if (rc == 0)
		rc = object_check_clock(&o, ctx->now_ms, err);
	/*
	 * A policy object's record goes first, then its rows: on PostgreSQL
	 * the owner's functions store a policy row only as the audit head
	 * describes it (schema 20), so none is stored without its record.
	 */
	if (rc == 0 && is_policy(o.type)) {
		rc = store_put_check(ctx->store, &o, text, len, &result, err);
		if (rc == 0 && result != STORE_PUT_SAME)
			rc = record_policy(ctx, &o, text, len, line, err);
	}
	if (rc == 0 && (!is_policy(o.type) || result != STORE_PUT_SAME))
		rc = store_put(ctx->store, &o, text, len, ctx->now_ms,
		    &ctx->importer, &result, err);
	/*
	 * New policy or holdings change what the queue's flags say, of the
	 * actions they touch only: those rows, even ones indexed earlier in
	 * this file, read as stale, and the trees cached so far are dropped.
	 */
	if (rc == 0 && result != STORE_PUT_SAME && o.type != OBJECT_PACKET) {
		store_cache_policy(ctx->store, true);
		rc = store_queue_mark_touched(ctx->store, &o, err);
	}
	if (rc == 0 && result == STORE_PUT_NEW && o.type == OBJECT_PACKET)
		rc = index_new_action(ctx, &o, text, len, err);
	if (rc == 0 && ctx->seen != NULL) {
		ctx->seen->loaded = true;
		ctx->seen->type = o.type;
		ctx->seen->result = result;
		snprintf(ctx->seen->action_id, sizeof ctx->seen->action_id,
		    "%s", o.type == OBJECT_PACKET ? o.id : "");
	}
	object_free(&o);
	if (rc != 0)
		return rc;
	ctx->results.last_failed = false;
	if (ctx->json)
		ctx->results.items[ctx->results.count - 1].unchanged =
		    result == STORE_PUT_SAME;
	if (result == STORE_PUT_SAME)
		ctx->counts.unchanged++;
	else
		ctx->counts.added++;
	return 0;
}

/* One line's result of submit (SPEC 12), error NULL when imported. */
static cJSON *
submit_result(size_t index, const struct import_seen *seen, const char *text,
    size_t len, const char *status, const struct error *err)
{
	cJSON *r = cJSON_CreateObject(), *e;
	char digest[65];
	bool packet = seen->loaded && seen->type == OBJECT_PACKET;

	cJSON_AddNumberToObject(r, "index", (double)index);
	if (seen->loaded)
		cJSON_AddStringToObject(r, "type", object_type_name(seen->type));
	else
		cJSON_AddNullToObject(r, "type");
	if (packet)
		cJSON_AddStringToObject(r, "action_id", seen->action_id);
	else
		cJSON_AddNullToObject(r, "action_id");
	cJSON_AddStringToObject(r, "status", status);
	/* The stored packet is the string sent: its digest is the string's. */
	if (packet && sha256_hex(text, len, digest) == 0)
		cJSON_AddStringToObject(r, "packet_sha256", digest);
	else
		cJSON_AddNullToObject(r, "packet_sha256");
	if (err == NULL)
		cJSON_AddNullToObject(r, "error");
	else {
		e = cJSON_AddObjectToObject(r, "error");
		cJSON_AddStringToObject(e, "code", "bad_request");
		cJSON_AddStringToObject(e, "field", err->field);
		cJSON_AddStringToObject(e, "message", err->message);
	}
	return r;
}

int
program_submit(struct store *store, const cJSON *lines, cJSON **result,
    struct program_error *perr)
{
	struct import_context ctx;
	struct import_seen *seen = NULL;
	struct error err;
	const cJSON *line;
	cJSON *results;
	size_t n, i, bad = 0, offset;
	int rc = 0;

	*result = NULL;
	memset(perr, 0, sizeof *perr);
	if (!cJSON_IsArray(lines)) {
		perr->code = "bad_request";
		snprintf(perr->message, sizeof perr->message, "submit: lines "
		    "must be an array of strings");
		return -1;
	}
	n = (size_t)cJSON_GetArraySize(lines);
	cJSON_ArrayForEach(line, lines)
		if (!cJSON_IsString(line)) {
			perr->code = "bad_request";
			snprintf(perr->message, sizeof perr->message, "submit: "
			    "lines must be an array of strings");
			return -1;
		}
	error_clear(&err);
	memset(&ctx, 0, sizeof ctx);
	ctx.store = store;
	ctx.path = "submit";
	ctx.now_ms = timestamp_now();
	import_context_operator(&ctx);
	if ((seen = calloc(n + 1, sizeof *seen)) == NULL) {
		rc = error_set(&err, EXIT_STORAGE, NULL, "out of memory");
		goto storage;
	}
	/* An import: its writes are one batch (store.h). */
	if ((rc = store_begin_batch(store, &err)) != 0)
		goto storage;
	store_cache_policy(store, true);
	rc = store_policy_epoch(store, &ctx.epoch, &err);
	i = 0;
	cJSON_ArrayForEach(line, lines) {
		if (rc != 0)
			break;
		ctx.seen = &seen[i];
		rc = import_object(&ctx, line->valuestring,
		    strlen(line->valuestring), i + 1, &offset, &err);
		bad = i++;
	}
	store_cache_policy(store, false);
	if (rc == 0)
		rc = store_commit(store, &err);
	else
		store_rollback(store);
	if (rc == EXIT_STORAGE)
		goto storage;
	if (rc == 0) {
		announce_head(store, &ctx.head);
		if (queue_refresh(store, timestamp_now(), &(long){ 0 }, &err) !=
		    0)
			goto storage;
	}
	*result = cJSON_CreateObject();
	results = cJSON_AddArrayToObject(*result, "results");
	i = 0;
	cJSON_ArrayForEach(line, lines) {
		const char *status = rc != 0 ? "refused" :
		    seen[i].result == STORE_PUT_SAME ? "unchanged" : "imported";

		cJSON_AddItemToArray(results, submit_result(i, &seen[i],
		    line->valuestring, strlen(line->valuestring), status,
		    rc != 0 && i == bad ? &err : NULL));
		i++;
	}
	free(seen);
	return 0;
storage:
	free(seen);
	perr->code = "storage";
	snprintf(perr->message, sizeof perr->message, "%.400s", err.message);
	return -1;
}
