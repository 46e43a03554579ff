/* The store: schema and migrations, identity rules, and the check loads. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "store.h"
#include "../../src/store/artifact_internal.h"
#include "../../src/store/store_internal.h"
#include "../../src/store/store_log_internal.h"

static char dir[64];
static char db_path[128];

static int
setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/cs-store-XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(db_path, sizeof db_path, "%s/sub/dir/test.db", dir);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[160];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct store *
open_new(void)
{
	struct store *s = NULL;
	struct error err;

	error_clear(&err);
	assert_int_equal(store_open(db_path, STORE_CREATE, &s, &err), 0);
	assert_non_null(s);
	return s;
}

/* Imports one object in its own transaction; returns the status. */
static int
put(struct store *s, const char *json, enum store_put_result *result,
    struct error *err)
{
	struct loaded_object o;
	int rc;

	error_clear(err);
	rc = object_load(json, strlen(json), &o, NULL, err);
	assert_int_equal(rc, 0);
	assert_int_equal(store_begin(s, err), 0);
	rc = store_put(s, &o, json, strlen(json), 1000, NULL, result, err);
	if (rc == 0)
		assert_int_equal(store_commit(s, err), 0);
	else
		store_rollback(s);
	object_free(&o);
	return rc;
}

static int
sql_int(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	int value = -1;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		value = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return value;
}

static void
sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

#define IPS_V3 "{\"type\":\"ips\",\"ips_id\":\"ips-1\",\"user_id\":\"u-1\"," \
	"\"version\":3,\"constraints\":{},\"target_allocation\":{}}"
#define IPS_V2 "{\"type\":\"ips\",\"ips_id\":\"ips-1\",\"user_id\":\"u-1\"," \
	"\"version\":2,\"constraints\":{},\"target_allocation\":{}}"
#define HOLDINGS(id, as_of, cash) "{\"type\":\"holdings\",\"user_id\":\"u-1\"," \
	"\"snapshot_id\":\"" id "\",\"as_of\":\"" as_of "\",\"cash_usd\":" cash \
	",\"positions\":[]}"
#define PACKET(id, ticker) "{\"type\":\"packet\",\"kind\":\"trade\"," \
	"\"proposed_action\":{\"action_id\":\"" id "\",\"user_id\":\"u-1\"," \
	"\"ticker\":\"" ticker "\",\"side\":\"buy\",\"quantity\":1," \
	"\"estimated_value_usd\":10,\"ips_version_referenced\":" \
	"{\"ips_id\":\"ips-1\",\"version\":3}}}"

/* The version the migrations bring every database to. */
#define SCHEMA_LATEST 23

static void
test_create_makes_directories_and_schema(void **state)
{
	struct store *s = open_new();

	store_close(s);
	assert_int_equal(sql_int("SELECT version FROM schema_version"),
	    SCHEMA_LATEST);
	assert_int_equal(access(db_path, R_OK | W_OK), 0);
}

/*
 * Back to schema 7: before blocked_on (8), artifacts and expertise (9)
 * and the queue's requester, author and drafting time (11), the signed
 * log's tables (15), a security's price_usd (17), the product
 * owner's judgments (18), an action's importer (19) and the queue row's
 * listed part (21); 10 and 16 (issues
 * 24, 33) only add what is missing, so they run again unharmed.
 */
#define UNDO_TO_SCHEMA_7 \
	"ALTER TABLE queue_index DROP COLUMN listed;" \
	"ALTER TABLE action DROP COLUMN importer_login;" \
	"ALTER TABLE action DROP COLUMN importer_uid;" \
	"ALTER TABLE action DROP COLUMN importer_via;" \
	"DROP TABLE po_judgment;" \
	"ALTER TABLE security DROP COLUMN price_usd;" \
	"DROP INDEX action_by_artifact;" \
	"ALTER TABLE action DROP COLUMN artifact_id;" \
	"ALTER TABLE decision DROP COLUMN blocked_on;" \
	"ALTER TABLE decision DROP COLUMN escalate_expertise;" \
	"ALTER TABLE queue_index DROP COLUMN requester;" \
	"ALTER TABLE queue_index DROP COLUMN author;" \
	"ALTER TABLE queue_index DROP COLUMN drafted_at_ms;" \
	"DROP TABLE merkle_node; DROP TABLE log_checkpoint; DROP TABLE log_name;"

/* Actions stored before schema 9 get their artifact_id from the packet. */
static void
test_artifact_id_filled_in_by_migration(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, "{\"type\":\"packet\",\"kind\":\"trade\","
	    "\"proposed_action\":{\"action_id\":\"c-1\",\"user_id\":\"u-1\","
	    "\"ticker\":\"X\",\"side\":\"buy\",\"quantity\":1,"
	    "\"estimated_value_usd\":10,\"ips_version_referenced\":"
	    "{\"ips_id\":\"ips-1\",\"version\":3},"
	    "\"artifact_id\":\"art-9\"}}", &result, &err), 0);
	store_close(s);
	sql_exec(db_path, UNDO_TO_SCHEMA_7 "UPDATE schema_version SET version = 7");
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err), 0);
	store_close(s);
	assert_int_equal(sql_int("SELECT version FROM schema_version"),
	    SCHEMA_LATEST);
	assert_int_equal(sql_int("SELECT count(*) FROM action"
	    " WHERE artifact_id = 'art-9'"), 1);
}

/* A version 1 database (before the audit log) is migrated, data kept. */
static void
test_version_1_is_migrated_forward(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	store_close(s);
	sql_exec(db_path, UNDO_TO_SCHEMA_7 "DROP TABLE decision; DROP TABLE audit_log;"
	    "DROP TRIGGER action_decided_once; DROP TRIGGER action_immutable;"
	    "DROP TABLE queue_index; DROP TABLE meta; DROP TABLE queue_totals;"
	    "DROP INDEX holdings_by_user;"
	    "ALTER TABLE holdings DROP COLUMN as_of_beyond_ms;"
	    "CREATE INDEX holdings_by_user ON holdings (user_id, as_of_ms);"
	    "UPDATE schema_version SET version = 1");
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err), 0);
	store_close(s);
	assert_int_equal(sql_int("SELECT version FROM schema_version"),
	    SCHEMA_LATEST);
	assert_int_equal(sql_int("SELECT count(*) FROM ips"), 1);
	/* 4: the header's totals read flags from the epoch index. */
	assert_int_equal(sql_int("SELECT group_concat(name) = 'epoch,flags'"
	    " FROM pragma_index_info('queue_by_epoch')"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM sqlite_master "
	    "WHERE name IN ('audit_log', 'decision')"), 2);
	/* 6: the packet guarded against updates, not inserts. */
	assert_int_equal(sql_int("SELECT count(*) FROM sqlite_master"
	    " WHERE name = 'action_no_replace'"), 0);
	assert_int_equal(sql_int("SELECT count(*) FROM sqlite_master"
	    " WHERE name = 'action_immutable'"), 1);
	/* 5: the totals, counted from the queue as it was. */
	assert_int_equal(sql_int("SELECT count(*) FROM queue_totals"
	    " WHERE pending = 0 AND high_stakes = 0 AND needs_care = 0"), 1);
}

/*
 * 7: the digits of as_of below the millisecond, filled in for snapshots
 * stored before it, "+00:00" and trailing zeros included.
 */
static void
test_version_6_gets_the_digits_below_the_millisecond(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, HOLDINGS("h-a", "2026-11-28T21:00:00.0009Z",
	    "1"), &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-b",
	    "2026-11-28T21:00:00.123450+00:00", "1"), &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-c", "2026-11-28T21:00:00.5Z", "1"),
	    &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-d", "2026-11-28T21:00:00Z", "1"),
	    &result, &err), 0);
	store_close(s);
	sql_exec(db_path, UNDO_TO_SCHEMA_7 "DROP INDEX holdings_by_user;"
	    "ALTER TABLE holdings DROP COLUMN as_of_beyond_ms;"
	    "CREATE INDEX holdings_by_user ON holdings (user_id, as_of_ms);"
	    /* issue 25's columns, which came after */
	    "UPDATE schema_version SET version = 6");
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err), 0);
	store_close(s);
	assert_int_equal(sql_int("SELECT version FROM schema_version"),
	    SCHEMA_LATEST);
	assert_int_equal(sql_int("SELECT group_concat(as_of_beyond_ms, '|') ="
	    " '9|45||' FROM (SELECT as_of_beyond_ms FROM holdings"
	    " ORDER BY snapshot_id)"), 1);
	assert_int_equal(sql_int("SELECT group_concat(name) ="
	    " 'user_id,as_of_ms,as_of_beyond_ms'"
	    " FROM pragma_index_info('holdings_by_user')"), 1);
}

/* put() with the importer given (SPEC 5 v3). */
static void
put_by(struct store *s, const char *json, const struct store_importer *by)
{
	enum store_put_result result;
	struct loaded_object o;
	struct error err;

	error_clear(&err);
	assert_int_equal(object_load(json, strlen(json), &o, NULL, &err), 0);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_put(s, &o, json, strlen(json), 1000, by,
	    &result, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	object_free(&o);
}

/* The importer id's load gives back: login (or ""), uid, served. */
static void
assert_importer(struct store *s, const char *id, const char *login,
    long long uid, bool served)
{
	struct check_data d;
	struct error err;

	assert_int_equal(store_load_check(s, id, 5, &d, &err), 0);
	assert_string_equal(d.importer_login, login);
	if (login[0] != '\0')
		assert_int_equal(d.importer_uid, uid);
	assert_int_equal(d.importer_served, served);
	check_data_free(&d);
}

/*
 * Schema 19 (issue 35): the importer is stored with each new action and
 * read back with it; a re-import keeps the first; actions stored before
 * the column have none.
 */
static void
test_importer_stored_with_the_action(void **state)
{
	const struct store_importer served = { "ana", 1001, true };
	const struct store_importer local = { "bo", 1002, false };
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;
	sqlite3 *db;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	put_by(s, PACKET("a-1", "mo"), &served);
	put_by(s, PACKET("a-2", "mo"), &local);
	put_by(s, PACKET("a-3", "mo"), NULL);
	put_by(s, PACKET("a-1", "mo"), &local);		/* the same packet */
	assert_importer(s, "a-1", "ana", 1001, true);
	assert_importer(s, "a-2", "bo", 1002, false);
	assert_importer(s, "a-3", "", 0, false);
	assert_int_equal(sql_int("SELECT count(*) FROM action WHERE"
	    " importer_via = 'service' AND importer_uid = 1001"), 1);
	store_close(s);
	/* Back to 18, then forward: the rows stored before know nobody. */
	sql_exec(db_path, "ALTER TABLE action DROP COLUMN importer_login;"
	    "ALTER TABLE action DROP COLUMN importer_uid;"
	    "ALTER TABLE action DROP COLUMN importer_via;"
	    "ALTER TABLE queue_index DROP COLUMN listed;"
	    "UPDATE schema_version SET version = 18");
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err), 0);
	assert_int_equal(sql_int("SELECT version FROM schema_version"),
	    SCHEMA_LATEST);
	assert_importer(s, "a-1", "", 0, false);
	put_by(s, PACKET("a-4", "mo"), &served);
	assert_importer(s, "a-4", "ana", 1001, true);
	store_close(s);
	/* Only the two ways in are stored. */
	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "INSERT INTO action (action_id,"
	    " kind, raw_json, imported_at_ms, importer_via) VALUES ('z-1',"
	    " 'trade', '{}', 1, 'forged')", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO action (action_id,"
	    " kind, raw_json, imported_at_ms, importer_via) VALUES ('z-2',"
	    " 'trade', '{}', 1, 'local')", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* Loads a-1's inputs and says whether its holdings are snapshot_id. */
static void
assert_current_holdings(struct store *s, const char *snapshot_id)
{
	struct check_data d;
	struct error err;

	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_string_equal(json_member(d.holdings, "snapshot_id")->valuestring,
	    snapshot_id);
	check_data_free(&d);
}

/* SPEC 1: the latest as_of is current, to the last digit it gives. */
static void
test_current_holdings_below_the_millisecond(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-1", "mo"), &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-later", "2026-11-28T21:00:00.0009Z",
	    "1"), &result, &err), 0);
	/* Imported last, but 0.8 microseconds earlier. */
	assert_int_equal(put(s, HOLDINGS("h-earlier",
	    "2026-11-28T21:00:00.0001Z", "2"), &result, &err), 0);
	assert_current_holdings(s, "h-later");
	/* .00095 is later than .0009, and .00090001 too: digits, not length. */
	assert_int_equal(put(s, HOLDINGS("h-95", "2026-11-28T21:00:00.00095Z",
	    "3"), &result, &err), 0);
	assert_current_holdings(s, "h-95");
	assert_int_equal(put(s, HOLDINGS("h-9", "2026-11-28T21:00:00.000900Z",
	    "4"), &result, &err), 0);
	assert_current_holdings(s, "h-95");
	/* The same instant written longer: the later import wins the tie. */
	assert_int_equal(put(s, HOLDINGS("h-95b",
	    "2026-11-28T21:00:00.000950000+00:00", "5"), &result, &err), 0);
	assert_current_holdings(s, "h-95b");
	store_close(s);
}

static void
test_existing_mode_refuses_a_missing_database(void **state)
{
	struct store *s = NULL;
	struct error err;

	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err),
	    EXIT_STORAGE);
	assert_null(s);
	assert_int_equal(access(db_path, F_OK), -1);
	assert_non_null(strstr(err.message, "no database"));
}

static void
test_reopen_keeps_data(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	store_close(s);
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err), 0);
	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(result, STORE_PUT_SAME);
	store_close(s);
}

/*
 * Every statement of the store prepares as it is declared (db.h): SQLite
 * refuses one declared a read that writes, so no write of the store is
 * missing from its table of uses, and the refusal says what it is.
 */
static void
test_statements_are_declared_as_they_are(void **state)
{
	struct store *s = open_new();
	struct error err;
	db_stmt *stmt = NULL;
	int i;

	error_clear(&err);
	for (i = 0; i < SQL_STATEMENT_COUNT; i++)
		assert_non_null(store_statement(s, (enum statement)i, &err));
	for (i = 0; i < ARTIFACT_STATEMENTS; i++)
		assert_non_null(artifact_statement(s,
		    (enum artifact_statement)i, &err));
	for (i = 0; i < LOG_SQL_COUNT; i++)
		assert_non_null(log_stmt(s, (enum log_sql)i, &err));
	assert_int_equal(db_prepare(s->db, "UPDATE meta SET value = value",
	    DB_READS, &stmt), DB_ERROR);
	assert_null(stmt);
	assert_non_null(strstr(db_errmsg(s->db), "prepared as a read writes"));
	assert_int_equal(db_prepare(s->db, "UPDATE meta SET value = value",
	    DB_WRITES, &stmt), DB_OK);
	db_finalize(stmt);
	store_close(s);
}

static void
test_newer_schema_is_refused(void **state)
{
	struct store *s = open_new();
	struct error err;

	store_close(s);
	sql_exec(db_path, "UPDATE schema_version SET version = 99");
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err),
	    EXIT_STORAGE);
	assert_non_null(strstr(err.message, "newer"));
}

static void
test_not_a_database_is_refused(void **state)
{
	char path[160];
	struct store *s = NULL;
	struct error err;
	FILE *f;

	snprintf(path, sizeof path, "%s/garbage.db", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not an SQLite database, just some text that is long "
	    "enough to have a header of its own ......................", f);
	fclose(f);
	assert_int_equal(store_open(path, STORE_EXISTING, &s, &err),
	    EXIT_STORAGE);
	assert_null(s);
}

static void
test_foreign_sqlite_database_is_refused(void **state)
{
	char path[160];
	struct store *s = NULL;
	struct error err;

	snprintf(path, sizeof path, "%s/other.db", dir);
	sql_exec(path, "CREATE TABLE t (x)");
	assert_int_equal(store_open(path, STORE_CREATE, &s, &err),
	    EXIT_STORAGE);
	assert_non_null(strstr(err.message, "not a countersign"));
}

static void
test_identical_reimport_is_a_no_op(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;
	/* The same object, other key order and spacing. */
	const char *reordered = "{ \"version\": 3, \"type\": \"ips\", "
	    "\"user_id\": \"u-1\", \"ips_id\": \"ips-1\", "
	    "\"target_allocation\": {}, \"constraints\": {} }";

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(result, STORE_PUT_NEW);
	assert_int_equal(put(s, reordered, &result, &err), 0);
	assert_int_equal(result, STORE_PUT_SAME);
	assert_int_equal(put(s, PACKET("a-1", "MO"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-1", "MO"), &result, &err), 0);
	assert_int_equal(result, STORE_PUT_SAME);
	store_close(s);
	assert_int_equal(sql_int("SELECT count(*) FROM ips"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM action"), 1);
}

static void
test_conflicts_are_refused(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(put(s, "{\"type\":\"ips\",\"ips_id\":\"ips-1\","
	    "\"user_id\":\"u-1\",\"version\":3,\"constraints\":"
	    "{\"excluded_tickers\":[\"XOM\"]},\"target_allocation\":{}}",
	    &result, &err), EXIT_DATA);
	assert_non_null(strstr(err.message, "conflict"));
	assert_int_equal(put(s, HOLDINGS("h-1", "2026-11-28T21:00:00Z", "5"),
	    &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-1", "2026-11-28T21:00:00Z", "6"),
	    &result, &err), EXIT_DATA);
	assert_string_equal(err.field, "snapshot_id");
	assert_int_equal(put(s, PACKET("a-1", "MO"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-1", "BND"), &result, &err), EXIT_DATA);
	assert_string_equal(err.field, "proposed_action.action_id");
	store_close(s);
	assert_int_equal(sql_int("SELECT count(*) FROM holdings"), 1);
}

static void
test_check_loads_active_ips_and_current_holdings(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct check_data d;
	struct error err;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(put(s, IPS_V2, &result, &err), 0);	/* older, later */
	/* .5 s later sorts after the whole second, unlike the strings. */
	assert_int_equal(put(s, HOLDINGS("h-late", "2026-11-28T21:00:00.5Z",
	    "2"), &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-early", "2026-11-28T21:00:00Z",
	    "1"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-1", "mo"), &result, &err), 0);
	assert_int_equal(put(s, "{\"type\":\"security_map\",\"securities\":"
	    "{\"MO\":{\"sector\":\"Tobacco\",\"asset_class\":\"us_equity\"}}}",
	    &result, &err), 0);
	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_int_equal(json_member(d.ips, "version")->valuedouble, 3);
	assert_string_equal(json_member(d.holdings, "snapshot_id")->valuestring,
	    "h-late");
	assert_string_equal(d.status, "pending");
	assert_string_equal(json_member(json_member(d.securities, "MO"),
	    "sector")->valuestring, "Tobacco");
	assert_ptr_equal(d.input.ips, d.ips);
	assert_int_equal(d.input.now_ms, 5);
	check_data_free(&d);
	store_close(s);
}

#define IPS_V4 "{\"type\":\"ips\",\"ips_id\":\"ips-1\",\"user_id\":\"u-1\"," \
	"\"version\":4,\"constraints\":{\"max_single_position_pct\":12.5}," \
	"\"target_allocation\":{}}"

static void
assert_printed(const char *printed, const cJSON *tree)
{
	char *expected = cJSON_PrintUnformatted(tree);

	assert_non_null(printed);
	assert_string_equal(printed, expected);
	cJSON_free(expected);
}

/*
 * A single re-check keeps each policy document parsed and printed, and
 * reuses them only for the same bytes: a newer IPS stored by another
 * connection between two re-checks is the one the second one reads.
 */
static void
test_single_check_memo_follows_the_stored_bytes(void **state)
{
	enum store_put_result result;
	struct store *s = open_new(), *other;
	struct check_data d;
	struct error err;

	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-1", "2026-11-28T21:00:00Z", "2"),
	    &result, &err), 0);
	assert_int_equal(put(s, "{\"type\":\"roster\",\"authors\":[\"a\"]}",
	    &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-1", "MO"), &result, &err), 0);
	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_printed(d.ips_printed, d.ips);
	assert_printed(d.holdings_printed, d.holdings);
	assert_printed(d.roster_printed, d.roster);
	assert_ptr_equal(d.input.ips_printed, d.ips_printed);
	check_data_free(&d);

	/* The same bytes again: the same trees and printed forms. */
	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_int_equal(json_member(d.ips, "version")->valuedouble, 3);
	assert_printed(d.ips_printed, d.ips);
	check_data_free(&d);

	assert_int_equal(store_open(db_path, STORE_EXISTING, &other, &err), 0);
	assert_int_equal(put(other, IPS_V4, &result, &err), 0);
	store_close(other);
	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_int_equal(json_member(d.ips, "version")->valuedouble, 4);
	assert_printed(d.ips_printed, d.ips);
	assert_non_null(strstr(d.ips_printed, "12.5"));
	check_data_free(&d);

	/* A cached pass keeps no printed forms. */
	store_cache_policy(s, true);
	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_null(d.ips_printed);
	assert_null(d.input.ips_printed);
	check_data_free(&d);
	store_close(s);
}

/*
 * A cached pass reads each ticker from the table once, but every action
 * still gets a map of just the entries it wants, as a single re-check
 * gives it: the same map and the same inputs digest, in any order, and
 * none of another action's tickers.
 */
static void
test_cached_pass_gives_each_action_its_own_securities(void **state)
{
	static const char *const ids[] = { "a-1", "a-2", "a-3", "a-4" };
	enum { ACTIONS = sizeof ids / sizeof ids[0] };
	static const char *const maps[ACTIONS] = {
		"{\"MO\":{\"sector\":\"Tobacco\",\"asset_class\":\"us_equity\"}}",
		"{\"XOM\":{\"sector\":\"Energy\",\"asset_class\":\"us_equity\"}}",
		"{}",			/* not in the map */
		"{\"MO\":{\"sector\":\"Tobacco\",\"asset_class\":\"us_equity\"}}",
	};
	char single[ACTIONS][65], digest[65], *printed;
	enum store_put_result result;
	struct store *s = open_new();
	struct check_data d;
	struct error err;
	int pass, i, k;

	(void)state;
	assert_int_equal(put(s, IPS_V3, &result, &err), 0);
	assert_int_equal(put(s, HOLDINGS("h-1", "2026-11-28T21:00:00Z", "2"),
	    &result, &err), 0);
	assert_int_equal(put(s, "{\"type\":\"security_map\",\"securities\":"
	    "{\"MO\":{\"sector\":\"Tobacco\",\"asset_class\":\"us_equity\"},"
	    "\"XOM\":{\"sector\":\"Energy\",\"asset_class\":\"us_equity\"}}}",
	    &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-1", "mo"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-2", "XOM"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-3", "ZZZ"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-4", "Mo"), &result, &err), 0);
	for (i = 0; i < ACTIONS; i++) {
		assert_int_equal(store_load_check(s, ids[i], 5, &d, &err), 0);
		printed = cJSON_PrintUnformatted(d.securities);
		assert_string_equal(printed, maps[i]);
		cJSON_free(printed);
		assert_int_equal(check_inputs_sha256(&d.input, single[i]), 0);
		check_data_free(&d);
	}
	/* Twice through, the second time backwards: from the cache. */
	store_cache_policy(s, true);
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < ACTIONS; k++) {
			i = pass == 0 ? k : ACTIONS - 1 - k;
			assert_int_equal(store_load_check(s, ids[i], 5, &d,
			    &err), 0);
			assert_true(d.policy_borrowed);
			printed = cJSON_PrintUnformatted(d.securities);
			assert_string_equal(printed, maps[i]);
			cJSON_free(printed);
			assert_int_equal(check_inputs_sha256(&d.input, digest),
			    0);
			assert_string_equal(digest, single[i]);
			check_data_free(&d);
		}
	}
	store_cache_policy(s, false);
	store_close(s);
}

/* Puts user's IPS (at version), holdings and one trade named after it. */
static void
put_user(struct store *s, int user, int version)
{
	enum store_put_result result;
	struct error err;
	char json[512];

	snprintf(json, sizeof json, "{\"type\":\"ips\",\"ips_id\":\"ips-%d\","
	    "\"user_id\":\"u-%d\",\"version\":%d,\"constraints\":{},"
	    "\"target_allocation\":{}}", user, user, version);
	assert_int_equal(put(s, json, &result, &err), 0);
	if (version > 1)
		return;
	snprintf(json, sizeof json, "{\"type\":\"holdings\",\"user_id\":"
	    "\"u-%d\",\"snapshot_id\":\"h-%d\",\"as_of\":"
	    "\"2026-11-28T21:00:00Z\",\"cash_usd\":%d,\"positions\":[]}",
	    user, user, user + 1);
	assert_int_equal(put(s, json, &result, &err), 0);
	snprintf(json, sizeof json, "{\"type\":\"packet\",\"kind\":\"trade\","
	    "\"proposed_action\":{\"action_id\":\"p-%d\",\"user_id\":"
	    "\"u-%d\",\"ticker\":\"MO\",\"side\":\"buy\",\"quantity\":1,"
	    "\"estimated_value_usd\":10,\"ips_version_referenced\":"
	    "{\"ips_id\":\"ips-%d\",\"version\":1}}}", user, user, user);
	assert_int_equal(put(s, json, &result, &err), 0);
}

/* Loads p-<user> and checks that it got that user's IPS and holdings. */
static int
load_user(struct store *s, int user)
{
	struct check_data d;
	struct error err;
	char id[32], want[32];
	int version;

	snprintf(id, sizeof id, "p-%d", user);
	assert_int_equal(store_load_check(s, id, 5, &d, &err), 0);
	snprintf(want, sizeof want, "u-%d", user);
	assert_string_equal(json_member(d.ips, "user_id")->valuestring, want);
	assert_string_equal(json_member(d.holdings, "user_id")->valuestring,
	    want);
	assert_int_equal(json_member(d.holdings, "cash_usd")->valuedouble,
	    user + 1);
	version = (int)json_member(d.ips, "version")->valuedouble;
	check_data_free(&d);
	return version;
}

/*
 * A cached pass keeps several users' policy at once, so a queue that
 * interleaves their actions does not re-read them: an IPS another
 * connection stores mid-pass goes unseen until the next pass, as for a
 * single user.  Users that share a slot still each get their own.
 */
static void
test_cached_pass_keeps_several_users(void **state)
{
	enum { USERS = 300 };		/* more than the cache's slots */
	struct store *s = open_new(), *other;
	struct error err;
	int user, round;

	(void)state;
	for (user = 0; user < USERS; user++)
		put_user(s, user, 1);
	store_cache_policy(s, true);
	assert_int_equal(load_user(s, 1), 1);
	assert_int_equal(load_user(s, 2), 1);
	assert_int_equal(store_open(db_path, STORE_EXISTING, &other, &err), 0);
	put_user(other, 1, 2);
	store_close(other);
	assert_int_equal(load_user(s, 2), 1);
	assert_int_equal(load_user(s, 1), 1);	/* kept, not re-read */
	/* More users than slots, forwards and backwards. */
	for (round = 0; round < 2; round++) {
		for (user = 0; user < USERS; user++)
			load_user(s, round == 0 ? user : USERS - 1 - user);
	}
	store_cache_policy(s, true);		/* a new pass */
	assert_int_equal(load_user(s, 1), 2);
	store_cache_policy(s, false);
	store_close(s);
}

static void
test_security_map_later_import_overrides(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct check_data d;
	struct error err;

	assert_int_equal(put(s, PACKET("a-1", "MO"), &result, &err), 0);
	assert_int_equal(put(s, "{\"type\":\"security_map\",\"securities\":"
	    "{\"MO\":{\"sector\":\"Tobacco\",\"asset_class\":\"us_equity\"}}}",
	    &result, &err), 0);
	assert_int_equal(put(s, "{\"type\":\"security_map\",\"securities\":"
	    "{\"mo\":{\"sector\":\"Staples\",\"asset_class\":\"us_equity\"}}}",
	    &result, &err), 0);
	assert_int_equal(result, STORE_PUT_CHANGED);
	assert_int_equal(store_load_check(s, "a-1", 5, &d, &err), 0);
	assert_string_equal(json_member(json_member(d.securities, "MO"),
	    "sector")->valuestring, "Staples");
	check_data_free(&d);
	store_close(s);
	assert_int_equal(sql_int("SELECT count(*) FROM security"), 1);
}

static void
test_documents_are_replaced(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct error err;

	assert_int_equal(put(s, "{\"type\":\"roster\",\"authors\":[\"a\"]}",
	    &result, &err), 0);
	assert_int_equal(result, STORE_PUT_NEW);
	assert_int_equal(put(s, "{\"type\":\"roster\",\"authors\":[\"a\"]}",
	    &result, &err), 0);
	assert_int_equal(result, STORE_PUT_SAME);
	assert_int_equal(put(s, "{\"type\":\"roster\",\"authors\":[\"b\"]}",
	    &result, &err), 0);
	assert_int_equal(result, STORE_PUT_CHANGED);
	store_close(s);
	assert_int_equal(sql_int("SELECT count(*) FROM policy_document"), 1);
}

static void
test_unknown_action_is_refused(void **state)
{
	struct store *s = open_new();
	struct check_data d;
	struct error err;

	assert_int_equal(store_load_check(s, "nope", 5, &d, &err),
	    EXIT_REFUSED);
	assert_non_null(strstr(err.message, "unknown action"));
	store_close(s);
}

struct seen {
	int count;
	char ids[4][16];
	char status[4][16];
};

static int
collect(void *ctx, struct check_data *d)
{
	struct seen *seen = ctx;
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(d->input.action,
	    "action_id");

	assert_true(seen->count < 4);
	assert_true(cJSON_IsString(id));
	snprintf(seen->ids[seen->count], sizeof seen->ids[0], "%s",
	    id->valuestring);
	snprintf(seen->status[seen->count], sizeof seen->status[0], "%s",
	    d->status);
	seen->count++;
	return 0;
}

static int
stop_at_first(void *ctx, struct check_data *d)
{
	(void)d;
	(*(int *)ctx)++;
	return 7;
}

static void
test_each_check_skips_decided_unless_all(void **state)
{
	enum store_put_result result;
	struct store *s = open_new();
	struct seen seen;
	struct error err;
	int calls = 0;

	assert_int_equal(put(s, PACKET("a-1", "MO"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-2", "MO"), &result, &err), 0);
	store_close(s);
	sql_exec(db_path, "UPDATE action SET status = 'approved' "
	    "WHERE action_id = 'a-1'");
	assert_int_equal(store_open(db_path, STORE_EXISTING, &s, &err), 0);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_each_check(s, false, 5, collect, &seen, &err),
	    0);
	assert_int_equal(seen.count, 1);
	assert_string_equal(seen.ids[0], "a-2");
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_each_check(s, true, 5, collect, &seen, &err), 0);
	assert_int_equal(seen.count, 2);
	/* Oldest first, each loaded with its packet and status. */
	assert_string_equal(seen.ids[0], "a-1");
	assert_string_equal(seen.status[0], "approved");
	assert_string_equal(seen.ids[1], "a-2");
	assert_string_equal(seen.status[1], "pending");
	/* What fn returns ends the pass and is returned. */
	assert_int_equal(store_each_check(s, true, 5, stop_at_first, &calls,
	    &err), 7);
	assert_int_equal(calls, 1);
	store_close(s);
}

/* A queue row for the packet action_id, high stakes or not. */
static void
queue_put(struct store *s, const char *action_id, bool high_stakes)
{
	struct queue_row row;
	struct error err;

	memset(&row, 0, sizeof row);
	snprintf(row.action_id, sizeof row.action_id, "%s", action_id);
	snprintf(row.kind, sizeof row.kind, "trade");
	row.who = (char *)"u-1";
	row.summary = (char *)"BUY";
	row.advisory = "pass";
	row.high_stakes = high_stakes;
	error_clear(&err);
	assert_int_equal(store_queue_put(s, &row, 1, &err), 0);
}

static void
assert_totals(struct store *s, long pending, long high_stakes)
{
	long got_pending, got_high_stakes, needs_care;
	struct error err;

	error_clear(&err);
	assert_int_equal(store_queue_totals(s, &got_pending, &got_high_stakes,
	    &needs_care, &err), 0);
	assert_int_equal(got_pending, pending);
	assert_int_equal(got_high_stakes, high_stakes);
	assert_int_equal(needs_care, 0);
}

/*
 * The header's totals follow the rows: within a transaction, after its
 * commit, and back to the savepoint when a decision is rolled back.
 */
static void
test_queue_totals_follow_the_rows(void **state)
{
	struct store *s = open_new();
	enum store_put_result result;
	struct error err;

	(void)state;
	assert_int_equal(put(s, PACKET("a-1", "BND"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-2", "BND"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-3", "BND"), &result, &err), 0);
	assert_totals(s, 0, 0);

	assert_int_equal(store_begin(s, &err), 0);
	queue_put(s, "a-1", true);
	queue_put(s, "a-2", false);
	assert_totals(s, 2, 1);			/* seen inside the transaction */
	assert_int_equal(store_savepoint(s, &err), 0);
	queue_put(s, "a-3", true);
	queue_put(s, "a-1", false);		/* rewritten: no longer high */
	assert_totals(s, 3, 1);
	store_rollback_savepoint(s);		/* both undone */
	assert_totals(s, 2, 1);
	assert_int_equal(store_commit(s, &err), 0);
	assert_totals(s, 2, 1);
	assert_int_equal(sql_int("SELECT pending FROM queue_totals"), 2);
	assert_int_equal(sql_int("SELECT high_stakes FROM queue_totals"), 1);

	assert_int_equal(store_begin(s, &err), 0);
	queue_put(s, "a-3", true);
	store_rollback(s);			/* a whole transaction undone */
	assert_totals(s, 2, 1);
	assert_int_equal(store_begin(s, &err), 0);
	queue_put(s, "a-2", true);		/* rewritten: now high */
	assert_int_equal(store_commit(s, &err), 0);
	assert_totals(s, 2, 2);
	assert_int_equal(sql_int("SELECT high_stakes = (SELECT count(*) FROM"
	    " queue_index WHERE flags & 1) FROM queue_totals"), 1);
	store_close(s);
}

/* Totals changed behind the store are recounted, and only then. */
static void
test_queue_totals_repair_recounts_drift(void **state)
{
	struct store *s = open_new();
	enum store_put_result result;
	struct error err;
	bool repaired;

	(void)state;
	assert_int_equal(put(s, PACKET("a-1", "BND"), &result, &err), 0);
	assert_int_equal(put(s, PACKET("a-2", "BND"), &result, &err), 0);
	assert_int_equal(store_begin(s, &err), 0);
	queue_put(s, "a-1", true);
	queue_put(s, "a-2", false);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_queue_totals_repair(s, &repaired, &err), 0);
	assert_false(repaired);

	/* A writer that knows nothing of the totals. */
	sql_exec(db_path, "DELETE FROM queue_index WHERE action_id = 'a-1'");
	assert_totals(s, 2, 1);
	assert_int_equal(store_queue_totals_repair(s, &repaired, &err), 0);
	assert_true(repaired);
	assert_totals(s, 1, 0);
	assert_int_equal(store_queue_totals_repair(s, &repaired, &err), 0);
	assert_false(repaired);

	/* The kept row gone: counted meanwhile, and put back. */
	sql_exec(db_path, "DELETE FROM queue_totals");
	assert_totals(s, 1, 0);
	assert_int_equal(store_queue_totals_repair(s, &repaired, &err), 0);
	assert_true(repaired);
	assert_int_equal(sql_int("SELECT pending FROM queue_totals"), 1);
	store_close(s);
}

static void
test_wal_mode_is_set(void **state)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	struct store *s = open_new();

	store_close(s);
	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1,
	    &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "wal");
	sqlite3_finalize(stmt);
	sqlite3_close(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_create_makes_directories_and_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_version_1_is_migrated_forward, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_importer_stored_with_the_action, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_version_6_gets_the_digits_below_the_millisecond, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_artifact_id_filled_in_by_migration, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_current_holdings_below_the_millisecond, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_existing_mode_refuses_a_missing_database, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reopen_keeps_data, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_statements_are_declared_as_they_are, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema_is_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_database_is_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_foreign_sqlite_database_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_identical_reimport_is_a_no_op, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conflicts_are_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_check_loads_active_ips_and_current_holdings, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_single_check_memo_follows_the_stored_bytes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_cached_pass_gives_each_action_its_own_securities,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_cached_pass_keeps_several_users, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_security_map_later_import_overrides, setup, teardown),
		cmocka_unit_test_setup_teardown(test_documents_are_replaced,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_action_is_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_each_check_skips_decided_unless_all, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_queue_totals_follow_the_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_queue_totals_repair_recounts_drift, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wal_mode_is_set, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
