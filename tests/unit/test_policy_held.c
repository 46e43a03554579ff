/*
 * What a write transaction holds of the policy it read (policy_held.c,
 * issue 38): a decision re-checks on the IPS, holdings, documents,
 * securities and approval policies an earlier decision of the same
 * transaction read, and on nothing else.  Each case writes the policy
 * between two decisions, or undoes a write, or ends the transaction, and
 * requires the second re-check to see the policy as it now stands: a
 * held answer that outlived its row would let a decision pass a rule.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "exit_codes.h"
#include "store.h"
#include "store_fixture.h"
#include "examples.h"

static const struct operator_identity officer = { "officer", 1000 };

/* The passing trade (a buy of BND) as each of h-1 .. h-n, imported. */
static int
setup(void **state)
{
	char id[16];
	int i;

	if (sf_setup(state) != 0)
		return -1;
	for (i = 1; i <= 4; i++) {
		snprintf(id, sizeof id, "h-%d", i);
		sf_import_owned(fx.store, sf_packet_pass_as(id, NULL, NULL));
	}
	return 0;
}

/* An approval of id inside the caller's transaction; its outcome. */
static struct decision_outcome
approve(const char *id)
{
	struct decision_request req;
	struct decision_outcome out;
	struct error err;

	memset(&req, 0, sizeof req);
	req.action_id = id;
	req.decision = DECISION_APPROVE;
	req.reason = "checked";
	req.ack_divergence = req.ack_high_stakes = true;
	error_clear(&err);
	assert_int_equal(decision_record(fx.store, &req, &officer, EX_NOW_MS,
	    true, &out, &err), 0);
	return out;
}

static void
assert_recorded(const struct decision_outcome *out)
{
	if (!out->recorded || out->partial)
		fail_msg("not recorded whole: %s %s", out->code ? out->code :
		    "(partial)", out->message);
}

static void
assert_refused(const struct decision_outcome *out)
{
	assert_false(out->recorded);
	assert_non_null(out->code);
}

static void
put(const char *json)
{
	struct error err;

	error_clear(&err);
	assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), 0);
}

/* The IPS one version on, BND excluded. */
static char *
ips_excluding_bnd(void)
{
	return sf_edit(SF_IPS_V4_JSON, "constraints.excluded_tickers",
	    "[\"XOM\", \"BND\"]", (const char *)NULL);
}

/* The IPS a decision's re-check of id reads now, by its digest. */
static void
ips_read(const char *id, char digest[65])
{
	struct check_data d;
	struct error err;

	error_clear(&err);
	assert_int_equal(store_load_decision_check(fx.store, id, EX_NOW_MS, &d,
	    &err), 0);
	memcpy(digest, d.ips_sha256, 65);
	assert_true(sf_is_hex(digest, 64));
	check_data_free(&d);
}

/* An IPS written after a decision is the next decision's. */
static void
ips_written_between_decisions(void **state)
{
	struct decision_outcome out;
	struct error err;
	char *ips = ips_excluding_bnd();

	(void)state;
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	out = approve("h-1");
	assert_recorded(&out);
	put(ips);
	out = approve("h-2");
	assert_refused(&out);
	store_rollback(fx.store);
	free(ips);
}

/* So is a security map that moves the ticker into an excluded sector. */
static void
securities_written_between_decisions(void **state)
{
	struct decision_outcome out;
	struct error err;
	char *map = sf_edit(EX_SECURITY_MAP_JSON, "securities.BND.sector",
	    "\"Tobacco\"", (const char *)NULL);

	(void)state;
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	out = approve("h-1");
	assert_recorded(&out);
	put(map);
	out = approve("h-2");
	assert_refused(&out);
	store_rollback(fx.store);
	free(map);
}

/* And an approval policy: the next approval counts toward a quorum. */
static void
approval_policy_written_between_decisions(void **state)
{
	struct decision_outcome out;
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	out = approve("h-1");
	assert_recorded(&out);
	put("{\"type\": \"approval_policy\", \"policy_id\": \"four-eyes\","
	    " \"version\": 1, \"quorum\": [{\"kind\": \"trade\","
	    " \"when\": \"always\", \"approvals\": 2}]}");
	out = approve("h-2");
	assert_true(out.partial);
	store_rollback(fx.store);
}

/* A write rolled back to its savepoint is not read as if it stood. */
static void
write_rolled_back_to_savepoint(void **state)
{
	char before[65], during[65], after[65];
	struct error err;
	char *ips = ips_excluding_bnd();

	(void)state;
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	ips_read("h-1", before);
	assert_int_equal(store_savepoint(fx.store, &err), 0);
	put(ips);
	ips_read("h-1", during);
	assert_string_not_equal(before, during);
	store_rollback_savepoint(fx.store);
	ips_read("h-1", after);
	assert_string_equal(before, after);
	store_rollback(fx.store);
	free(ips);
}

/*
 * Nor does anything held outlive its transaction: a row another
 * connection adds between two transactions is the next one's.
 */
static void
held_only_within_the_transaction(void **state)
{
	char first[65], second[65];
	struct error err;
	char *ips = ips_excluding_bnd(), *sql;
	size_t size;

	(void)state;
	error_clear(&err);
	assert_int_equal(store_begin(fx.store, &err), 0);
	ips_read("h-1", first);
	assert_int_equal(store_commit(fx.store, &err), 0);
	size = strlen(ips) + 256;
	assert_non_null(sql = malloc(size));
	snprintf(sql, size, "INSERT INTO ips (ips_id, version, user_id,"
	    " raw_json, imported_at_ms) VALUES ('%s', 4, 'u-1001', '%s', 1)",
	    EX_IPS_ID, ips);
	sf_sql(fx.path, sql);
	assert_int_equal(store_begin(fx.store, &err), 0);
	ips_read("h-1", second);
	assert_string_not_equal(first, second);
	store_rollback(fx.store);
	free(sql);
	free(ips);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ips_written_between_decisions,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    securities_written_between_decisions, setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    approval_policy_written_between_decisions, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(write_rolled_back_to_savepoint,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    held_only_within_the_transaction, setup, sf_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
