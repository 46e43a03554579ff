/* The unit tests' support library: a real database (store_fixture.h). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exit_codes.h"
#include "sha256.h"
#include "store_fixture.h"
#include "examples.h"

struct sf_db fx;

char *
sf_edit(const char *json, ...)
{
	cJSON *tree = ex_parse(json);
	const char *path, *value;
	char *text;
	va_list ap;

	va_start(ap, json);
	while ((path = va_arg(ap, const char *)) != NULL) {
		value = va_arg(ap, const char *);
		ex_set(tree, path, value);
	}
	va_end(ap);
	text = cJSON_PrintUnformatted(tree);
	cJSON_Delete(tree);
	assert_non_null(text);
	return text;
}

const char *
sf_quote(char *buf, size_t size, const char *text)
{
	int n = snprintf(buf, size, "\"%s\"", text);

	assert_true(n > 0 && (size_t)n < size);
	return buf;
}

char *
sf_packet_as(const char *example, const char *action_id,
    const char *requested_by, const char *expires_at)
{
	char id[300], by[300], when[64];
	char *first, *second;

	sf_quote(id, sizeof id, action_id);
	first = sf_edit(example,
	    "proposed_action.action_id", id,
	    "reviewer_verdict.action_id", id,
	    "proposed_action.requested_by", requested_by == NULL ? NULL :
	    sf_quote(by, sizeof by, requested_by),
	    (const char *)NULL);
	if (expires_at == NULL)
		return first;
	second = sf_edit(first, "proposed_action.expires_at",
	    sf_quote(when, sizeof when, expires_at), (const char *)NULL);
	free(first);
	return second;
}

char *
sf_version(const char *id, const char *author, ...)
{
	char quoted_id[300], quoted_author[300], path[64];
	const char *key, *value;
	char *json, *next;
	va_list ap;

	json = sf_edit(EX_PACKET_PASS_JSON,
	    "proposed_action.action_id", sf_quote(quoted_id, sizeof quoted_id,
	    id),
	    "reviewer_verdict.action_id", quoted_id,
	    "proposed_action.author", sf_quote(quoted_author,
	    sizeof quoted_author, author),
	    "proposed_action.requested_by", (const char *)NULL,
	    (const char *)NULL);
	va_start(ap, author);
	while ((key = va_arg(ap, const char *)) != NULL) {
		value = va_arg(ap, const char *);
		snprintf(path, sizeof path, "proposed_action.%s", key);
		next = sf_edit(json, path, value, (const char *)NULL);
		free(json);
		json = next;
	}
	va_end(ap);
	return json;
}

char *
sf_change_by(const char *id, const char *author)
{
	char quoted_id[300], quoted_author[300];

	return sf_edit(EXAMPLE_PACKET_CHANGE, "proposed_action.action_id",
	    sf_quote(quoted_id, sizeof quoted_id, id),
	    "proposed_action.author", sf_quote(quoted_author,
	    sizeof quoted_author, author), (const char *)NULL);
}

char *
sf_packet_high_stakes_as(const char *action_id, const char *requested_by,
    const char *expires_at)
{
	char *base = sf_packet_pass_as(action_id, requested_by, expires_at);
	char *packet = sf_edit(base,
	    "proposed_action.quantity", "400",
	    "proposed_action.estimated_value_usd", "30000",
	    "reviewer_verdict.requires_human_approval", "true",
	    (const char *)NULL);

	free(base);
	return packet;
}

int
sf_create(struct sf_db *db)
{
	struct error err;

	memset(db, 0, sizeof *db);
	snprintf(db->dir, sizeof db->dir, "/tmp/cs-unit-XXXXXX");
	if (mkdtemp(db->dir) == NULL)
		return -1;
	snprintf(db->path, sizeof db->path, "%s/countersign.db", db->dir);
	error_clear(&err);
	if (store_open(db->path, STORE_CREATE, &db->store, &err) != 0) {
		fprintf(stderr, "store_open: %s\n", err.message);
		return -1;
	}
	return 0;
}

int
sf_destroy(struct sf_db *db)
{
	char cmd[160];

	store_close(db->store);
	db->store = NULL;
	if (db->dir[0] == '\0')
		return 0;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", db->dir);
	db->dir[0] = '\0';
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * What import records of a new or changed policy object (import_object.c):
 * audit verify holds the policy rows to these records (issue 35).
 */
static int
record_policy(struct store *s, const struct loaded_object *o,
    const char *json, struct error *err)
{
	struct audit_head head;
	char digest[65], *record;
	int rc;

	if (o->type == OBJECT_PACKET)
		return 0;
	if (sha256_hex(json, strlen(json), digest) != 0 ||
	    asprintf(&record, "{\"event\":\"policy_import\",\"type\":\"%s\","
	    "\"object\":%s,\"object_sha256\":\"%s\"}",
	    object_type_name(o->type), json, digest) < 0)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	rc = store_audit_append(s, record, &head, err);
	free(record);
	return rc;
}

int
sf_put(struct store *s, const char *json, long long now_ms,
    struct error *err)
{
	enum store_put_result result;
	struct loaded_object o;
	int rc;

	error_clear(err);
	rc = object_load(json, strlen(json), &o, NULL, err);
	/* The loader owns the tree even when it refuses it. */
	if (rc == 0)
		rc = store_put(s, &o, json, strlen(json), now_ms, NULL, &result,
		    err);
	if (rc == 0 && result != STORE_PUT_SAME)
		rc = record_policy(s, &o, json, err);
	object_free(&o);
	return rc;
}

void
sf_import(struct store *s, ...)
{
	const char *json;
	struct error err;
	va_list ap;

	error_clear(&err);
	assert_int_equal(store_begin(s, &err), 0);
	va_start(ap, s);
	while ((json = va_arg(ap, const char *)) != NULL) {
		if (sf_put(s, json, EX_NOW_MS - 60000, &err) != 0) {
			va_end(ap);
			store_rollback(s);
			fail_msg("import failed: %s: %s (%.60s)", err.field,
			    err.message, json);
		}
	}
	va_end(ap);
	assert_int_equal(store_commit(s, &err), 0);
}

void
sf_import_policy(struct store *s)
{
	sf_import(s, EX_SECURITY_MAP_JSON, EX_IPS_JSON, EX_HOLDINGS_JSON,
	    (const char *)NULL);
}

void
sf_import_owned(struct store *s, char *json)
{
	sf_import(s, json, (const char *)NULL);
	free(json);
}

int
sf_setup(void **state)
{
	(void)state;
	if (sf_create(&fx) != 0)
		return -1;
	sf_import_policy(fx.store);
	sf_import(fx.store, EX_PACKET_PASS_JSON, EX_PACKET_DIVERGENT_JSON,
	    (const char *)NULL);
	return 0;
}

int
sf_setup_bare(void **state)
{
	(void)state;
	return sf_create(&fx);
}

int
sf_teardown(void **state)
{
	(void)state;
	return sf_destroy(&fx);
}

struct audit_head
sf_head(struct store *s)
{
	struct audit_head head;
	struct error err;

	error_clear(&err);
	if (store_audit_head(s, &head, &err) != 0)
		fail_msg("store_audit_head: %s", err.message);
	return head;
}

struct audit_head
sf_append(struct store *s, ...)
{
	struct audit_head head;
	const char *json;
	struct error err;
	va_list ap;

	error_clear(&err);
	memset(&head, 0, sizeof head);
	assert_int_equal(store_begin(s, &err), 0);
	va_start(ap, s);
	while ((json = va_arg(ap, const char *)) != NULL) {
		if (store_audit_append(s, json, &head, &err) != 0) {
			va_end(ap);
			store_rollback(s);
			fail_msg("store_audit_append: %s", err.message);
		}
	}
	va_end(ap);
	assert_int_equal(store_commit(s, &err), 0);
	return head;
}

sqlite3 *
sf_raw_open(const char *path)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		fail_msg("cannot open %s", path);
	}
	sqlite3_busy_timeout(db, 5000);
	return db;
}

int
sf_sql_try(const char *path, const char *sql, char *errmsg, size_t size)
{
	sqlite3 *db = sf_raw_open(path);
	char *msg = NULL;
	int rc;

	rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (errmsg != NULL && size > 0)
		snprintf(errmsg, size, "%s", msg ? msg : "");
	sqlite3_free(msg);
	sqlite3_close(db);
	return rc;
}

void
sf_sql(const char *path, const char *sql)
{
	char msg[512];

	if (sf_sql_try(path, sql, msg, sizeof msg) != SQLITE_OK)
		fail_msg("SQL failed: %s: %s", sql, msg);
}

long long
sf_sql_int(const char *path, const char *sql)
{
	sqlite3 *db = sf_raw_open(path);
	sqlite3_stmt *stmt;
	long long value = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		fail_msg("SQL does not prepare: %s", sql);
	}
	if (sqlite3_step(stmt) == SQLITE_ROW)
		value = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return value;
}

char *
sf_sql_text(const char *path, const char *sql)
{
	sqlite3 *db = sf_raw_open(path);
	sqlite3_stmt *stmt;
	const unsigned char *text;
	char *value = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		fail_msg("SQL does not prepare: %s", sql);
	}
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    (text = sqlite3_column_text(stmt, 0)) != NULL) {
		value = strdup((const char *)text);
		assert_non_null(value);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return value;
}

char *
sf_audit_dump(const char *path)
{
	char *dump = sf_sql_text(path, "SELECT coalesce(group_concat("
	    "seq || '|' || prev_hash || '|' || hash || '|' || record_json,"
	    " char(10)), '') FROM (SELECT * FROM audit_log ORDER BY seq)");

	assert_non_null(dump);
	return dump;
}

char *
sf_action_status(const char *path, const char *action_id)
{
	char sql[512];

	snprintf(sql, sizeof sql, "SELECT status FROM action WHERE "
	    "action_id = '%s'", action_id);
	return sf_sql_text(path, sql);
}

long long
sf_decision_rows(const char *path, const char *action_id)
{
	char sql[512];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM decision WHERE "
	    "action_id = '%s'", action_id);
	return sf_sql_int(path, sql);
}

void
sf_assert_status(const char *path, const char *action_id,
    const char *expected)
{
	char *status = sf_action_status(path, action_id);

	if (status == NULL)
		fail_msg("no action %s", action_id);
	if (strcmp(status, expected) != 0) {
		char copy[32];

		snprintf(copy, sizeof copy, "%s", status);
		free(status);
		fail_msg("action %s is %s, expected %s", action_id, copy,
		    expected);
	}
	free(status);
}

bool
sf_is_hex(const char *s, size_t n)
{
	size_t i;

	if (s == NULL || strlen(s) != n)
		return false;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return true;
}

bool
sf_is_uuid_v4(const char *s)
{
	size_t i;

	if (s == NULL || strlen(s) != 36)
		return false;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return s[14] == '4' && strchr("89ab", s[19]) != NULL;
}
