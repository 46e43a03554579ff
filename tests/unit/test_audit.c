/*
 * The audit log (SPEC 6): the hash chain the store appends, what the
 * database itself refuses (raw SQL through a connection of its own), and
 * what store_audit_verify reports after each kind of tampering.
 */
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

#include "decision.h"
#include "error.h"
#include "sha256.h"
#include "store.h"
#include "store_fixture.h"

static const struct operator_identity alice = { "alice", 1000 };

#define R1 "{\"event\":\"note\",\"n\":1}"
#define R2 "{\"event\":\"note\",\"n\":2}"
#define R3 "{\"event\":\"note\",\"n\":3}"

#define DROP_AUDIT_TRIGGERS \
	"DROP TRIGGER audit_log_no_update;" \
	"DROP TRIGGER audit_log_no_delete;" \
	"DROP TRIGGER audit_log_append_only;"

/* ---- Helpers ---- */

/* One column (record_json, prev_hash or hash) of row seq; freed by the caller. */
static char *
audit_field(long long seq, const char *column)
{
	char sql[128], *value;

	snprintf(sql, sizeof sql, "SELECT %s FROM audit_log WHERE seq = %lld",
	    column, seq);
	value = sf_sql_text(fx.path, sql);
	if (value == NULL)
		fail_msg("no audit row %lld", seq);
	return value;
}

static long long
audit_rows(void)
{
	return sf_sql_int(fx.path, "SELECT count(*) FROM audit_log");
}

/* A statement the database must refuse, leaving the audit log as it was. */
static void
assert_sql_refused(const char *sql)
{
	char *before = sf_audit_dump(fx.path), *after, msg[512];
	int rc;

	rc = sf_sql_try(fx.path, sql, msg, sizeof msg);
	after = sf_audit_dump(fx.path);
	if (rc == SQLITE_OK)
		fail_msg("the database accepted: %s", sql);
	assert_string_equal(after, before);
	free(before);
	free(after);
}

static struct audit_report
verify(long long checkpoint_seq, const char *checkpoint_hash)
{
	struct audit_report report;
	struct error err;

	error_clear(&err);
	if (store_audit_verify(fx.store, checkpoint_seq, checkpoint_hash,
	    &report, &err) != 0)
		fail_msg("store_audit_verify: %s", err.message);
	return report;
}

static void
assert_intact(const struct audit_report *r)
{
	if (r->bad_seq != 0)
		fail_msg("verify reports seq %lld: %s", r->bad_seq, r->problem);
}

static void
assert_bad_at(const struct audit_report *r, long long seq)
{
	if (r->bad_seq != seq)
		fail_msg("verify reports seq %lld (%s), expected %lld",
		    r->bad_seq, r->problem, seq);
	assert_true(r->problem[0] != '\0');
}

/* Three notes; the head after them. */
static struct audit_head
append_three(void)
{
	long long before = sf_head(fx.store).seq;
	struct audit_head head = sf_append(fx.store, R1, R2, R3,
	    (const char *)NULL);

	assert_int_equal(head.seq, before + 3);
	return head;
}

static void
decide(const struct decision_request *req)
{
	struct decision_outcome out;
	struct error err;

	error_clear(&err);
	if (decision_record(fx.store, req, &alice, EX_NOW_MS, false, &out,
	    &err) != 0)
		fail_msg("decision_record: %s", err.message);
	if (!out.recorded)
		fail_msg("refused: %s: %s", out.code, out.message);
}

static void
approve_pass(void)
{
	struct decision_request req;

	memset(&req, 0, sizeof req);
	req.action_id = EX_PASS_ACTION_ID;
	req.decision = DECISION_APPROVE;
	decide(&req);
}

static void
reject_divergent(void)
{
	struct decision_request req;

	memset(&req, 0, sizeof req);
	req.action_id = EX_DIVERGENT_ACTION_ID;
	req.decision = DECISION_REJECT;
	req.reason = "Excluded sector; stale IPS.";
	decide(&req);
}

/* The audit seq of an action's decision record. */
static long long
decision_seq(const char *action_id)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT seq FROM audit_log WHERE "
	    "json_extract(record_json, '$.action_id') = '%s' AND "
	    "json_extract(record_json, '$.event') = 'decision'", action_id);
	return sf_sql_int(fx.path, sql);
}

/*
 * What someone who can write the file can do: drop the triggers and
 * rebuild the whole chain, consistently hashed, without row drop_seq
 * (0: none) and with row edit_seq's record replaced by edit_record.
 */
static void
rewrite_chain(long long drop_seq, long long edit_seq, const char *edit_record)
{
	sqlite3 *db = sf_raw_open(fx.path);
	sqlite3_stmt *read, *write;
	char prev[SHA256_HEX_SIZE], hash[SHA256_HEX_SIZE];
	char **records = NULL;
	size_t count = 0, i;
	long long seq = 0;

	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE;" DROP_AUDIT_TRIGGERS,
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT seq, record_json FROM "
	    "audit_log ORDER BY seq", -1, &read, NULL), SQLITE_OK);
	while (sqlite3_step(read) == SQLITE_ROW) {
		long long old = sqlite3_column_int64(read, 0);
		const char *text = (const char *)sqlite3_column_text(read, 1);

		if (old == drop_seq)
			continue;
		records = realloc(records, (count + 1) * sizeof *records);
		assert_non_null(records);
		records[count] = strdup(old == edit_seq ? edit_record : text);
		assert_non_null(records[count]);
		count++;
	}
	sqlite3_finalize(read);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM audit_log", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO audit_log (seq, "
	    "record_json, prev_hash, hash) VALUES (?1, ?2, ?3, ?4)", -1, &write,
	    NULL), SQLITE_OK);
	snprintf(prev, sizeof prev, "%s", AUDIT_GENESIS_HASH);
	for (i = 0; i < count; i++) {
		assert_int_equal(sha256_chain(prev, records[i],
		    strlen(records[i]), hash), 0);
		sqlite3_reset(write);
		sqlite3_bind_int64(write, 1, ++seq);
		sqlite3_bind_text(write, 2, records[i], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(write, 3, prev, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(write, 4, hash, -1, SQLITE_TRANSIENT);
		assert_int_equal(sqlite3_step(write), SQLITE_DONE);
		snprintf(prev, sizeof prev, "%s", hash);
		free(records[i]);
	}
	free(records);
	sqlite3_finalize(write);
	assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
}

/* ---- SHA-256 and the chain the store appends ---- */

static void
test_sha256_known_digests(void **state)
{
	char hex[SHA256_HEX_SIZE], chained[SHA256_HEX_SIZE];
	const char *prev = AUDIT_GENESIS_HASH;
	char joined[128];

	assert_int_equal(sha256_hex("abc", 3, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(sha256_hex("", 0, hex), 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");

	/* sha256_chain is SHA-256 of prev + "\n" + record. */
	assert_int_equal(strlen(AUDIT_GENESIS_HASH), 64);
	assert_true(strspn(AUDIT_GENESIS_HASH, "0") == 64);
	snprintf(joined, sizeof joined, "%s\n%s", prev, R1);
	assert_int_equal(sha256_hex(joined, strlen(joined), hex), 0);
	assert_int_equal(sha256_chain(prev, R1, strlen(R1), chained), 0);
	assert_string_equal(chained, hex);
	assert_true(sf_is_hex(chained, 64));
}

static void
test_append_chains_from_genesis(void **state)
{
	const char *records[] = { R1, R2, R3 };
	char expected[SHA256_HEX_SIZE], last[SHA256_HEX_SIZE];
	char *record, *prev, *hash;
	struct audit_head head, empty;
	long long seq;

	empty = sf_head(fx.store);
	assert_int_equal(empty.seq, 0);
	assert_string_equal(empty.hash, AUDIT_GENESIS_HASH);

	head = append_three();
	snprintf(last, sizeof last, "%s", AUDIT_GENESIS_HASH);
	for (seq = 1; seq <= 3; seq++) {
		record = audit_field(seq, "record_json");
		prev = audit_field(seq, "prev_hash");
		hash = audit_field(seq, "hash");
		assert_string_equal(record, records[seq - 1]);
		assert_string_equal(prev, last);
		assert_true(sf_is_hex(hash, 64));
		assert_int_equal(sha256_chain(prev, record,
		    strlen(record), expected), 0);
		assert_string_equal(hash, expected);
		snprintf(last, sizeof last, "%s", hash);
		free(record);
		free(prev);
		free(hash);
	}
	assert_int_equal(audit_rows(), 3);
	assert_string_equal(head.hash, last);
	assert_int_equal(sf_head(fx.store).seq, 3);
	assert_string_equal(sf_head(fx.store).hash, last);

	/* The first row's prev_hash is 64 zeros, literally. */
	prev = audit_field(1, "prev_hash");
	assert_string_equal(prev, "00000000000000000000000000000000"
	    "00000000000000000000000000000000");
	free(prev);
}

/* An append belongs to its transaction: rolled back, it is gone. */
static void
test_append_rolled_back_leaves_nothing(void **state)
{
	struct audit_head head, before;
	struct error err;

	before = sf_append(fx.store, R1, (const char *)NULL);
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(store_audit_append(fx.store, R2, &head, &err), 0);
	assert_int_equal(head.seq, 2);
	store_rollback(fx.store);
	assert_int_equal(sf_head(fx.store).seq, 1);
	assert_string_equal(sf_head(fx.store).hash, before.hash);
	assert_int_equal(audit_rows(), 1);
	/* The next append takes seq 2 again, chained to record 1. */
	head = sf_append(fx.store, R3, (const char *)NULL);
	assert_int_equal(head.seq, 2);
	{
		char *prev = audit_field(2, "prev_hash");

		assert_string_equal(prev, before.hash);
		free(prev);
	}
}

/* ---- What the database refuses ---- */

static void
test_update_of_audit_log_refused(void **state)
{
	append_three();
	assert_sql_refused("UPDATE audit_log SET record_json = "
	    "'{\"event\":\"note\",\"n\":20}' WHERE seq = 2");
	assert_sql_refused("UPDATE audit_log SET hash = "
	    "'0000000000000000000000000000000000000000000000000000000000000000'"
	    " WHERE seq = 3");
	assert_sql_refused("UPDATE audit_log SET prev_hash = 'x'");
	assert_sql_refused("UPDATE audit_log SET seq = seq + 10 WHERE seq = 3");
	assert_int_equal(audit_rows(), 3);
	{
		struct audit_report r = verify(0, NULL);

		assert_intact(&r);
		assert_int_equal(r.records, 3);
	}
}

static void
test_delete_from_audit_log_refused(void **state)
{
	struct audit_report r;

	append_three();
	assert_sql_refused("DELETE FROM audit_log WHERE seq = 3");
	assert_sql_refused("DELETE FROM audit_log WHERE seq = 1");
	assert_sql_refused("DELETE FROM audit_log");
	assert_int_equal(audit_rows(), 3);
	r = verify(0, NULL);
	assert_intact(&r);
	assert_int_equal(r.records, 3);
}

/* INSERT OR REPLACE deletes without a delete trigger: refused all the same. */
static void
test_insert_or_replace_refused(void **state)
{
	char sql[512], *hash1, *hash2;
	struct audit_report r;

	append_three();
	hash1 = audit_field(1, "hash");
	hash2 = audit_field(2, "hash");
	/* Rewriting row 2 with its own correct prev_hash. */
	snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO audit_log (seq, "
	    "record_json, prev_hash, hash) VALUES (2, '{\"event\":\"note\","
	    "\"n\":20}', '%s', '%s')", hash1, hash2);
	assert_sql_refused(sql);
	snprintf(sql, sizeof sql, "REPLACE INTO audit_log (seq, record_json, "
	    "prev_hash, hash) VALUES (3, '{\"event\":\"note\",\"n\":30}', "
	    "'%s', 'x')", hash2);
	assert_sql_refused(sql);
	snprintf(sql, sizeof sql, "INSERT INTO audit_log (seq, record_json, "
	    "prev_hash, hash) VALUES (2, 'x', '%s', 'x') ON CONFLICT (seq) "
	    "DO UPDATE SET record_json = excluded.record_json", hash1);
	assert_sql_refused(sql);
	assert_sql_refused("INSERT OR REPLACE INTO audit_log SELECT * FROM "
	    "audit_log WHERE seq = 1");
	assert_int_equal(audit_rows(), 3);
	r = verify(0, NULL);
	assert_intact(&r);
	free(hash1);
	free(hash2);
}

/* An insert must extend the head: seq head+1, prev_hash the head's hash. */
static void
test_insert_must_extend_the_head(void **state)
{
	char sql[512], hash[SHA256_HEX_SIZE];
	struct audit_head head;
	struct audit_report r;
	char *hash2;

	head = append_three();
	hash2 = audit_field(2, "hash");
	assert_int_equal(sha256_chain(head.hash, R1, strlen(R1), hash), 0);

	/* The right seq, a prev_hash that is not the head. */
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (4, '%s', "
	    "'%s', '%s')", R1, hash2, hash);
	assert_sql_refused(sql);
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (4, '%s', "
	    "'%s', '%s')", R1, AUDIT_GENESIS_HASH, hash);
	assert_sql_refused(sql);
	/* The head's hash, a seq that is not head + 1. */
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (5, '%s', "
	    "'%s', '%s')", R1, head.hash, hash);
	assert_sql_refused(sql);
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (100, '%s', "
	    "'%s', '%s')", R1, head.hash, hash);
	assert_sql_refused(sql);
	snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO audit_log VALUES "
	    "(3, '%s', '%s', '%s')", R1, head.hash, hash);
	assert_sql_refused(sql);
	assert_int_equal(audit_rows(), 3);

	/* The control: seq 4 chained to the head is an append. */
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (4, '%s', "
	    "'%s', '%s')", R1, head.hash, hash);
	sf_sql(fx.path, sql);
	assert_int_equal(audit_rows(), 4);
	r = verify(0, NULL);
	assert_intact(&r);
	assert_int_equal(r.records, 4);
	free(hash2);
}

static void
test_insert_into_an_empty_log(void **state)
{
	char sql[512], hash[SHA256_HEX_SIZE];

	assert_int_equal(audit_rows(), 0);
	assert_int_equal(sha256_chain(AUDIT_GENESIS_HASH, R1,
	    strlen(R1), hash), 0);
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (1, '%s', "
	    "'%s', '%s')", R1, hash, hash);
	assert_sql_refused(sql);
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (2, '%s', "
	    "'%s', '%s')", R1, AUDIT_GENESIS_HASH, hash);
	assert_sql_refused(sql);
	assert_int_equal(audit_rows(), 0);
	snprintf(sql, sizeof sql, "INSERT INTO audit_log VALUES (1, '%s', "
	    "'%s', '%s')", R1, AUDIT_GENESIS_HASH, hash);
	sf_sql(fx.path, sql);
	assert_int_equal(sf_head(fx.store).seq, 1);
	assert_string_equal(sf_head(fx.store).hash, hash);
}

static char *
decision_dump(void)
{
	char *dump = sf_sql_text(fx.path, "SELECT coalesce(group_concat("
	    "action_id || '|' || decision_id || '|' || decision || '|' || "
	    "operator_login || '|' || operator_uid || '|' || decided_at || '|' "
	    "|| audit_seq, char(10)), '') FROM decision");

	assert_non_null(dump);
	return dump;
}

static void
test_decision_rows_are_final(void **state)
{
	char *before, *after;

	approve_pass();
	before = decision_dump();
	assert_contains(before, EX_PASS_ACTION_ID "|");
	assert_contains(before, "|approve|alice|1000|");
	assert_int_not_equal(sf_sql_try(fx.path, "UPDATE decision SET "
	    "decision = 'reject'", NULL, 0), SQLITE_OK);
	assert_int_not_equal(sf_sql_try(fx.path, "UPDATE decision SET "
	    "operator_login = 'mallory'", NULL, 0), SQLITE_OK);
	assert_int_not_equal(sf_sql_try(fx.path, "DELETE FROM decision",
	    NULL, 0), SQLITE_OK);
	assert_int_not_equal(sf_sql_try(fx.path, "DELETE FROM decision WHERE "
	    "action_id = '" EX_PASS_ACTION_ID "'", NULL, 0), SQLITE_OK);
	after = decision_dump();
	assert_string_equal(after, before);
	free(before);
	free(after);
	sf_assert_status(fx.path, EX_PASS_ACTION_ID, "approved");
}

/*
 * "A decision is final" (schema migration 2): INSERT OR REPLACE deletes
 * without firing the delete trigger, so it must be refused as it is for
 * audit_log (SPEC 6), or a recorded approval can be turned into a
 * rejection by another operator.
 */
static void
test_decision_row_cannot_be_replaced(void **state)
{
	char *before, *after, msg[256];
	int rc;

	approve_pass();
	before = decision_dump();
	rc = sf_sql_try(fx.path, "INSERT OR REPLACE INTO decision SELECT "
	    "action_id, decision_id, 'reject', 'mallory', 666, decided_at, "
	    "audit_seq, reassign_to, escalate FROM decision", msg, sizeof msg);
	after = decision_dump();
	if (rc == SQLITE_OK) {
		struct audit_report r = verify(0, NULL);

		fail_msg("INSERT OR REPLACE rewrote the decision row: "
		    "\"%s\" became \"%s\" (audit verify: bad_seq %lld%s)",
		    before, after, r.bad_seq, r.bad_seq == 0 ?
		    ", it does not notice" : "");
	}
	assert_string_equal(after, before);
	free(before);
	free(after);
}

static void
test_action_status_final_once_decided(void **state)
{
	char sql[256];

	approve_pass();
	reject_divergent();
	snprintf(sql, sizeof sql, "UPDATE action SET status = 'pending' "
	    "WHERE action_id = '%s'", EX_PASS_ACTION_ID);
	assert_int_not_equal(sf_sql_try(fx.path, sql, NULL, 0), SQLITE_OK);
	snprintf(sql, sizeof sql, "UPDATE action SET status = 'rejected' "
	    "WHERE action_id = '%s'", EX_PASS_ACTION_ID);
	assert_int_not_equal(sf_sql_try(fx.path, sql, NULL, 0), SQLITE_OK);
	snprintf(sql, sizeof sql, "UPDATE action SET status = 'approved' "
	    "WHERE action_id = '%s'", EX_DIVERGENT_ACTION_ID);
	assert_int_not_equal(sf_sql_try(fx.path, sql, NULL, 0), SQLITE_OK);
	sf_assert_status(fx.path, EX_PASS_ACTION_ID, "approved");
	sf_assert_status(fx.path, EX_DIVERGENT_ACTION_ID, "rejected");
}

/*
 * An imported action is immutable (schema 6): an update of anything but
 * its status is refused, before a decision and after.
 */
static void
test_action_packet_cannot_be_updated(void **state)
{
	static const char *const sets[] = {
		"raw_json = replace(raw_json, 'BND', 'XOM')",
		"kind = 'change'", "user_id = 'u-2'", "author = 'mallory'",
		"requested_by = 'mallory'", "expires_at_ms = 1",
		"imported_at_ms = 1", "action_id = 'other'",
		"revision_of = 'other'",
	};
	char sql[256], msg[256];
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			approve_pass();
		for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
			snprintf(sql, sizeof sql, "UPDATE action SET %s "
			    "WHERE action_id = '%s'", sets[i],
			    EX_PASS_ACTION_ID);
			if (sf_sql_try(fx.path, sql, msg, sizeof msg) ==
			    SQLITE_OK)
				fail_msg("accepted: %s", sql);
			if (strstr(msg, "an imported action is immutable") ==
			    NULL)
				fail_msg("%s: refused for another reason: %s",
				    sql, msg);
		}
	}
	sf_assert_status(fx.path, EX_PASS_ACTION_ID, "approved");
}

/*
 * Replacing a decided action's row resets its status behind the trigger's
 * back; the action is still decided once and verify says so.
 */
static void
test_replaced_action_row_stays_decided(void **state)
{
	struct decision_request req;
	struct decision_outcome out;
	struct audit_report r;
	struct error err;
	char sql[512];
	int rc;

	approve_pass();
	snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO action (action_id, "
	    "kind, user_id, author, revision_of, requested_by, expires_at_ms, "
	    "raw_json, imported_at_ms) SELECT action_id, kind, user_id, author,"
	    " revision_of, requested_by, expires_at_ms, raw_json, "
	    "imported_at_ms FROM action WHERE action_id = '%s'",
	    EX_PASS_ACTION_ID);
	rc = sf_sql_try(fx.path, sql, NULL, 0);
	if (rc != SQLITE_OK) {
		/* Refused by the database: nothing changed. */
		sf_assert_status(fx.path, EX_PASS_ACTION_ID, "approved");
		return;
	}
	/* Accepted: no second decision, and verify reports the mismatch. */
	memset(&req, 0, sizeof req);
	req.action_id = EX_PASS_ACTION_ID;
	req.decision = DECISION_APPROVE;
	error_clear(&err);
	assert_int_equal(decision_record(fx.store, &req, &alice, EX_NOW_MS + 1,
	    false, &out, &err), 0);
	assert_false(out.recorded);
	assert_string_equal(out.code, "already_decided");
	assert_int_equal(sf_decision_rows(fx.path, EX_PASS_ACTION_ID), 1);
	assert_int_equal(audit_rows(), 1);
	r = verify(0, NULL);
	assert_bad_at(&r, decision_seq(EX_PASS_ACTION_ID));
	assert_contains(r.problem, EX_PASS_ACTION_ID);
}

/* ---- store_audit_verify ---- */

static void
test_verify_empty_log(void **state)
{
	struct audit_report r = verify(0, NULL);

	assert_intact(&r);
	assert_int_equal(r.records, 0);
	assert_int_equal(r.decisions, 0);
	assert_int_equal(r.head.seq, 0);
	assert_string_equal(r.head.hash, AUDIT_GENESIS_HASH);
}

static void
test_verify_intact_log(void **state)
{
	struct audit_head head;
	struct audit_report r;

	append_three();
	approve_pass();
	reject_divergent();
	head = sf_head(fx.store);
	assert_int_equal(head.seq, SF_POLICY_RECORDS + 5);
	r = verify(0, NULL);
	assert_intact(&r);
	assert_int_equal(r.records, SF_POLICY_RECORDS + 5);
	assert_int_equal(r.decisions, 2);
	assert_int_equal(r.head.seq, SF_POLICY_RECORDS + 5);
	assert_string_equal(r.head.hash, head.hash);
	/* Every row is a checkpoint that holds. */
	{
		char *hash2 = audit_field(2, "hash");

		r = verify(2, hash2);
		assert_intact(&r);
		r = verify(SF_POLICY_RECORDS + 5, head.hash);
		assert_intact(&r);
		free(hash2);
	}
}

static void
test_verify_edited_record(void **state)
{
	struct audit_report r;

	append_three();
	sf_sql(fx.path, DROP_AUDIT_TRIGGERS
	    "UPDATE audit_log SET record_json = '{\"event\":\"note\",\"n\":20}'"
	    " WHERE seq = 2");
	r = verify(0, NULL);
	assert_bad_at(&r, 2);
}

static void
test_verify_changed_hash(void **state)
{
	struct audit_report r;

	append_three();
	sf_sql(fx.path, DROP_AUDIT_TRIGGERS
	    "UPDATE audit_log SET hash = '" AUDIT_GENESIS_HASH "' WHERE seq = 3");
	r = verify(0, NULL);
	assert_bad_at(&r, 3);
	/* Another change earlier in the chain: that one is reported. */
	sf_sql(fx.path, "UPDATE audit_log SET hash = "
	    "'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff'"
	    " WHERE seq = 2");
	r = verify(0, NULL);
	assert_bad_at(&r, 2);
}

static void
test_verify_changed_prev_hash(void **state)
{
	struct audit_report r;

	append_three();
	sf_sql(fx.path, DROP_AUDIT_TRIGGERS
	    "UPDATE audit_log SET prev_hash = '" AUDIT_GENESIS_HASH "'"
	    " WHERE seq = 3");
	r = verify(0, NULL);
	assert_bad_at(&r, 3);
}

static void
test_verify_deleted_middle_row(void **state)
{
	struct audit_report r;

	append_three();
	sf_sql(fx.path, DROP_AUDIT_TRIGGERS "DELETE FROM audit_log WHERE seq = 2");
	r = verify(0, NULL);
	assert_bad_at(&r, 2);
}

/* Truncation leaves a valid chain: only a checkpoint taken earlier shows it. */
static void
test_verify_deleted_last_row_caught_by_checkpoint(void **state)
{
	struct audit_head head = append_three();
	struct audit_report r;
	char *hash2 = audit_field(2, "hash");

	sf_sql(fx.path, DROP_AUDIT_TRIGGERS "DELETE FROM audit_log WHERE seq = 3");
	r = verify(0, NULL);
	assert_intact(&r);
	assert_int_equal(r.records, 2);
	assert_int_equal(r.head.seq, 2);
	assert_string_equal(r.head.hash, hash2);

	r = verify(head.seq, head.hash);
	assert_bad_at(&r, 3);
	/* A checkpoint still on the chain holds. */
	r = verify(2, hash2);
	assert_intact(&r);
	free(hash2);
}

static void
test_verify_checkpoint_with_a_wrong_hash(void **state)
{
	struct audit_head head = append_three();
	struct audit_report r;

	r = verify(2, "ffffffffffffffffffffffffffffffff"
	    "ffffffffffffffffffffffffffffffff");
	assert_bad_at(&r, 2);
	r = verify(3, AUDIT_GENESIS_HASH);
	assert_bad_at(&r, 3);
	r = verify(3, head.hash);
	assert_intact(&r);
	/* A checkpoint beyond the end of the log. */
	r = verify(7, head.hash);
	assert_bad_at(&r, 7);
}

/* A rewrite with every hash recomputed: only a checkpoint shows it. */
static void
test_verify_consistent_rewrite_caught_by_checkpoint(void **state)
{
	struct audit_head head = append_three();
	struct audit_report r;
	char *hash1 = audit_field(1, "hash");

	rewrite_chain(0, 2, "{\"event\":\"note\",\"n\":20}");
	r = verify(0, NULL);
	assert_intact(&r);
	assert_int_equal(r.records, 3);
	assert_string_not_equal(r.head.hash, head.hash);
	r = verify(3, head.hash);
	assert_bad_at(&r, 3);
	/* Record 1 was not touched: its checkpoint holds. */
	r = verify(1, hash1);
	assert_intact(&r);
	free(hash1);
}

/* Every record is re-parsed: a consistently hashed non-JSON one is bad. */
static void
test_verify_record_that_is_not_json(void **state)
{
	struct audit_report r;

	append_three();
	rewrite_chain(0, 2, "not json at all");
	r = verify(0, NULL);
	assert_bad_at(&r, 2);
}

/* A decided action whose decision record was cut out of a rebuilt chain. */
static void
test_verify_decided_action_without_record(void **state)
{
	struct audit_report r;
	long long seq;

	sf_append(fx.store, R1, (const char *)NULL);
	approve_pass();
	reject_divergent();
	seq = decision_seq(EX_PASS_ACTION_ID);
	assert_int_equal(seq, SF_POLICY_RECORDS + 2);
	r = verify(0, NULL);
	assert_intact(&r);
	assert_int_equal(r.decisions, 2);

	rewrite_chain(seq, 0, NULL);
	assert_int_equal(audit_rows(), SF_POLICY_RECORDS + 2);
	assert_int_equal(decision_seq(EX_PASS_ACTION_ID), -1);
	r = verify(0, NULL);
	if (r.bad_seq == 0)
		fail_msg("verify misses approved action %s without a decision "
		    "record", EX_PASS_ACTION_ID);
	assert_contains(r.problem, EX_PASS_ACTION_ID);
}

/* A status set behind the gate's back: no decision record agrees with it. */
static void
test_verify_status_without_a_decision(void **state)
{
	struct audit_report r;

	sf_import_owned(fx.store, sf_packet_pass_as("sneaky", NULL, NULL));
	approve_pass();
	sf_sql(fx.path, "UPDATE action SET status = 'approved' "
	    "WHERE action_id = 'sneaky'");
	r = verify(0, NULL);
	if (r.bad_seq == 0)
		fail_msg("verify misses approved action sneaky without a "
		    "decision record");
	assert_contains(r.problem, "sneaky");
}

/* A rejected action turned approved by dropping action_decided_once. */
static void
test_verify_status_disagreeing_with_its_record(void **state)
{
	struct audit_report r;
	char sql[256];
	long long seq;

	approve_pass();
	reject_divergent();
	seq = decision_seq(EX_DIVERGENT_ACTION_ID);
	assert_int_equal(seq, SF_POLICY_RECORDS + 2);
	snprintf(sql, sizeof sql, "DROP TRIGGER action_decided_once;"
	    "UPDATE action SET status = 'approved' WHERE action_id = '%s'",
	    EX_DIVERGENT_ACTION_ID);
	sf_sql(fx.path, sql);
	r = verify(0, NULL);
	assert_bad_at(&r, seq);
	assert_contains(r.problem, EX_DIVERGENT_ACTION_ID);
}

/* Two decision records for one action, both on an intact chain. */
static void
test_verify_two_decision_records_for_one_action(void **state)
{
	struct audit_report r;
	char *record;
	struct error err;

	approve_pass();
	error_clear(&err);
	assert_int_equal(store_decision_record(fx.store, EX_PASS_ACTION_ID,
	    &record, &err), 0);
	assert_non_null(record);
	sf_append(fx.store, record, (const char *)NULL);
	free(record);
	r = verify(0, NULL);
	if (r.bad_seq == 0)
		fail_msg("verify misses two decision records for %s",
		    EX_PASS_ACTION_ID);
	assert_contains(r.problem, EX_PASS_ACTION_ID);
}

/*
 * A decision record rewritten with an escaped key ("act\u0069on_id"),
 * consistently hashed: verify must judge it as check_decisions() reads
 * the log, not as the quick path would.
 */
static void
test_verify_escaped_key_in_a_decision_record(void **state)
{
	struct audit_report r;
	char *record, *at;
	char *edited;
	long long seq;

	approve_pass();
	seq = decision_seq(EX_PASS_ACTION_ID);
	record = audit_field(seq, "record_json");
	at = strstr(record, "\"action_id\"");
	assert_non_null(at);
	edited = malloc(strlen(record) + 8);
	assert_non_null(edited);
	memcpy(edited, record, (size_t)(at - record));
	strcpy(edited + (at - record), "\"act\\u0069on_id\"");
	strcat(edited, at + strlen("\"action_id\""));
	rewrite_chain(0, seq, edited);
	r = verify(0, NULL);
	if (r.bad_seq == 0)
		fail_msg("verify calls a log intact whose decision record "
		    "SQLite cannot read: %s", edited);
	free(edited);
	free(record);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, sf_setup, sf_teardown)
/* The chain alone: no policy imports before its first record. */
#define B(name) cmocka_unit_test_setup_teardown(name, sf_setup_bare, \
    sf_teardown)
		T(test_sha256_known_digests),
		B(test_append_chains_from_genesis),
		B(test_append_rolled_back_leaves_nothing),
		B(test_update_of_audit_log_refused),
		B(test_delete_from_audit_log_refused),
		B(test_insert_or_replace_refused),
		B(test_insert_must_extend_the_head),
		B(test_insert_into_an_empty_log),
		T(test_decision_rows_are_final),
		T(test_decision_row_cannot_be_replaced),
		T(test_action_status_final_once_decided),
		T(test_action_packet_cannot_be_updated),
		T(test_replaced_action_row_stays_decided),
		B(test_verify_empty_log),
		T(test_verify_intact_log),
		B(test_verify_edited_record),
		B(test_verify_changed_hash),
		B(test_verify_changed_prev_hash),
		B(test_verify_deleted_middle_row),
		B(test_verify_deleted_last_row_caught_by_checkpoint),
		B(test_verify_checkpoint_with_a_wrong_hash),
		B(test_verify_consistent_rewrite_caught_by_checkpoint),
		B(test_verify_record_that_is_not_json),
		T(test_verify_decided_action_without_record),
		T(test_verify_status_without_a_decision),
		T(test_verify_status_disagreeing_with_its_record),
		T(test_verify_two_decision_records_for_one_action),
		T(test_verify_escaped_key_in_a_decision_record),
#undef T
#undef B
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
