/*
 * Shared fixture (libtestsupport.a: store_fixture.c) for the tests that
 * need a real database: a temporary
 * directory with a fresh store (store_open STORE_CREATE), imports of inline
 * JSON objects (object_load + store_put in a transaction), packet variants
 * built by editing the SPEC examples of example_json.h, and raw SQL on the
 * database file through the sqlite3 API (a second connection, as a
 * careless or hostile hand would).
 *
 * Include after <cmocka.h>.
 */
#ifndef COUNTERSIGN_TESTS_STORE_FIXTURE_H
#define COUNTERSIGN_TESTS_STORE_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "object.h"
#include "store.h"
#include "timestamp.h"
#include "example_json.h"

#ifndef assert_true
#error "include <cmocka.h> before store_fixture.h"
#endif

/* The examples' IPS one version later: their packets then cite a stale one. */
#define SF_IPS_V4_JSON ex_ips_version(4)

/* Before and after EX_NOW_MS, for expires_at. */
#define SF_PAST_TEXT "2026-11-29T08:00:00Z"
#define SF_FUTURE_TEXT "2026-12-01T00:00:00Z"

/* ---- Assertions ---- */

#define assert_contains(haystack, needle) do {				\
	const char *h_ = (haystack), *n_ = (needle);			\
	if (h_ == NULL || strstr(h_, n_) == NULL)			\
		fail_msg("\"%s\" does not contain \"%s\"",		\
		    h_ ? h_ : "(null)", n_);				\
} while (0)

#define assert_not_contains(haystack, needle) do {			\
	const char *h_ = (haystack), *n_ = (needle);			\
	if (h_ != NULL && strstr(h_, n_) != NULL)			\
		fail_msg("\"%s\" contains \"%s\"", h_, n_);		\
} while (0)

/* ---- JSON editing ---- */

/*
 * A copy of json with edits applied: pairs of (path, value JSON or NULL to
 * delete), ended by one NULL path.  The caller frees the result.
 */
char *sf_edit(const char *json, ...);

/* "\"text\"" in buf, for sf_edit values (text holds no quote or backslash). */
const char *sf_quote(char *buf, size_t size, const char *text);

/*
 * The packet example under another action_id (the advisory follows it),
 * with requested_by set (NULL: none, where the examples have pm.lee or
 * nothing) and expires_at set when not NULL.  Freed by the caller.
 */
char *sf_packet_as(const char *example, const char *action_id,
    const char *requested_by, const char *expires_at);

/* The pass or divergent example under another action_id: see sf_packet_as. */
#define sf_packet_pass_as(action_id, requested_by, expires_at) \
	sf_packet_as(EX_PACKET_PASS_JSON, action_id, requested_by, expires_at)
#define sf_packet_divergent_as(action_id, requested_by, expires_at) \
	sf_packet_as(EX_PACKET_DIVERGENT_JSON, action_id, requested_by, \
	    expires_at)

/*
 * A version of an artifact (SPEC 2.4): the passing trade as id by author,
 * without requested_by, then "key", JSON value pairs set in
 * proposed_action, ended by one NULL key.  Freed by the caller.
 */
char *sf_version(const char *id, const char *author, ...);

/* The change example as id by author (its pr_url kept); freed by the caller. */
char *sf_change_by(const char *id, const char *author);

/*
 * A high-stakes trade that passes every rule: buy BND 30000 (fixed_income
 * 17.5% <= 30% max; concentration (105000 + 30000) / 600000 = 22.5% <= 25%)
 * above approval_required_above_usd 25000 (and exactly 5%, not above
 * approval_required_above_percent).  Its advisory agrees in everything,
 * requires_human_approval true included, so there is no divergence.
 */
char *sf_packet_high_stakes_as(const char *action_id, const char *requested_by,
    const char *expires_at);

/* ---- The database ---- */

struct sf_db {
	char dir[64];
	char path[128];
	struct store *store;
};

/* For a cmocka setup: a temp directory and a fresh database; 0 or -1. */
int sf_create(struct sf_db *db);

/* For a cmocka teardown: closes the store and removes the directory. */
int sf_destroy(struct sf_db *db);

/* store_put of one object inside the caller's transaction; the status. */
int sf_put(struct store *s, const char *json, long long now_ms,
    struct error *err);

/* Imports objects (NULL-terminated) in one transaction; each must succeed. */
void sf_import(struct store *s, ...);

/* The examples' policy objects: security map, IPS v3, holdings. */
void sf_import_policy(struct store *s);

/* Frees json after importing it (for the sf_packet_*_as results). */
void sf_import_owned(struct store *s, char *json);

/*
 * The database of the test file, fresh for each test: sf_setup and
 * sf_teardown are the cmocka setup and teardown.
 */
extern struct sf_db fx;

/*
 * A fresh database holding the examples' policy objects and both packets;
 * each policy object's import is on the audit log, as import puts it.
 */
int sf_setup(void **state);
#define SF_POLICY_RECORDS 3
/* The same, empty: no policy, no packets, an empty audit log. */
int sf_setup_bare(void **state);

int sf_teardown(void **state);

struct audit_head sf_head(struct store *s);

/* Appends records (NULL-terminated) in one transaction; the new head. */
struct audit_head sf_append(struct store *s, ...);

/* ---- Raw SQL on the file, through a connection of its own ---- */

sqlite3 *sf_raw_open(const char *path);

/* Runs sql; returns the sqlite3_exec result (the error text to *errmsg). */
int sf_sql_try(const char *path, const char *sql, char *errmsg, size_t size);

/* Runs sql, which must succeed. */
void sf_sql(const char *path, const char *sql);

/* The first column of the first row as an integer; -1 when no row. */
long long sf_sql_int(const char *path, const char *sql);

/* The first column of the first row as text (freed by the caller); NULL when none. */
char *sf_sql_text(const char *path, const char *sql);

/*
 * The whole audit log as one text ("seq|prev|hash|record" lines), to show
 * a refused statement changed nothing.  Freed by the caller.
 */
char *sf_audit_dump(const char *path);

/* The status of an action as stored; NULL when there is no such action. */
char *sf_action_status(const char *path, const char *action_id);

long long sf_decision_rows(const char *path, const char *action_id);

void sf_assert_status(const char *path, const char *action_id,
    const char *expected);

/* Lowercase hex of exactly n digits? */
bool sf_is_hex(const char *s, size_t n);

/* A UUID v4 in its canonical lowercase form? */
bool sf_is_uuid_v4(const char *s);

#endif
