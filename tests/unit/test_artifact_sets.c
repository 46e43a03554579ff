/*
 * The artifacts as the store keeps them (issue 34, src/store/artifact.c):
 * two artifacts merged, a rejection that locks out across a merge, a
 * later artifact_id joining two chains, a cycle found by the revision
 * tree and not by the artifact.  Each lockout is asked twice, as a single
 * check reads the artifact (every version) and as a pass over the queue
 * does (only the versions its answers depend on): both must agree.
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

#include "check.h"
#include "decision.h"
#include "exit_codes.h"
#include "store.h"
#include "store_fixture.h"
#include "examples.h"

static const struct operator_identity officer = { "officer", 1000 };

static void
reject(const char *id)
{
	struct decision_request req;
	struct decision_outcome out;
	struct error err;

	memset(&req, 0, sizeof req);
	req.action_id = id;
	req.decision = DECISION_REJECT;
	req.reason = "because";
	req.ack_divergence = req.ack_high_stakes = true;
	assert_int_equal(decision_record(fx.store, &req, &officer, EX_NOW_MS,
	    false, &out, &err), 0);
	if (!out.recorded)
		fail_msg("%s refused: %s %s", id, out.code, out.message);
}

/* The author_lockout result of id: "absent", or "pass: ..."/"fail: ...". */
static char *
lockout_as(const char *id, bool queue_pass)
{
	const struct rule_result *rule;
	struct check_outcome out;
	struct check_data d;
	struct error err;
	char *text;

	store_cache_policy(fx.store, queue_pass);
	assert_int_equal(store_load_check(fx.store, id, EX_NOW_MS, &d, &err),
	    0);
	assert_int_equal(check_run(&d.input, &out, &err), 0);
	rule = verdict_rule(&out.verdict, "author_lockout");
	text = malloc(1024);
	assert_non_null(text);
	if (rule == NULL)
		snprintf(text, 1024, "absent");
	else
		snprintf(text, 1024, "%s: %s", rule->passed ? "pass" : "fail",
		    rule->detail ? rule->detail : "");
	check_outcome_free(&out);
	check_data_free(&d);
	store_cache_policy(fx.store, false);
	return text;
}

/* The lockout of id, the same for both readings of its artifact. */
static char *
lockout_of(const char *id)
{
	char *every = lockout_as(id, false), *some = lockout_as(id, true);

	assert_string_equal(every, some);
	free(some);
	return every;
}

/* The action_ids of the artifact a single check loads for id, joined. */
static char *
artifact_of(const char *id)
{
	struct check_data d;
	struct error err;
	const cJSON *v;
	char *ids = calloc(1, 4096);
	size_t n = 0;

	assert_non_null(ids);
	assert_int_equal(store_load_check(fx.store, id, EX_NOW_MS, &d, &err),
	    0);
	cJSON_ArrayForEach(v, d.revision_chain) {
		n += (size_t)snprintf(ids + n, 4096 - n, "%s%s", n ? "," : "",
		    cJSON_GetObjectItem(v, "action_id")->valuestring);
	}
	check_data_free(&d);
	return ids;
}

/* How many artifacts the nodes fall in, and whether each size is right. */
static void
assert_sets(long long artifacts)
{
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(DISTINCT artifact)"
	    " FROM artifact_node"), artifacts);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM"
	    " artifact_size s WHERE kind = 0 AND size <> (SELECT count(*)"
	    " FROM artifact_node n WHERE n.artifact = s.label)"), 0);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM"
	    " artifact_size WHERE kind = 0"), artifacts);
}

static int
setup(void **state)
{
	if (sf_setup(state) != 0)
		return -1;
	sf_import(fx.store, "{\"type\":\"roster\",\"authors\":[\"a\",\"b\","
	    "\"c\",\"d\"]}", (const char *)NULL);
	return 0;
}

/* p1 <- p2 and q1 (artifact_id "q"): q2 revises p2 and names "q". */
static void
test_two_artifacts_merge(void **state)
{
	char *ids;

	(void)state;
	sf_import_owned(fx.store, sf_version("p1", "a", NULL));
	sf_import_owned(fx.store, sf_version("p2", "b", "revision_of", "\"p1\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("q1", "c", "artifact_id", "\"q\"",
	    NULL));
	/* One artifact for p, one for q; the examples' packets have none. */
	assert_sets(2);
	ids = artifact_of("q1");
	assert_string_equal(ids, "");
	free(ids);
	sf_import_owned(fx.store, sf_version("q2", "d", "revision_of", "\"p2\"",
	    "artifact_id", "\"q\"", NULL));
	assert_sets(1);
	ids = artifact_of("q1");
	assert_string_equal(ids, "p1,p2,q2");
	free(ids);
	ids = artifact_of("p1");
	assert_string_equal(ids, "p2,q1,q2");
	free(ids);
}

/*
 * a's rejection of r1 is kept with r1's artifact; that artifact then
 * joins a larger one (s1..s3, artifact_id "s"), whose label it takes:
 * the lockout moves with it.  Once s1 is rejected, a version of "s" by
 * a is out, and one by c is not.
 */
static void
test_rejection_locks_out_across_a_merge(void **state)
{
	char *result;

	(void)state;
	sf_import_owned(fx.store, sf_version("r1", "a", "artifact_id", "\"r\"",
	    NULL));
	reject("r1");
	sf_import_owned(fx.store, sf_version("s1", "b", "artifact_id", "\"s\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("s2", "b", "artifact_id", "\"s\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("s3", "b", "artifact_id", "\"s\"",
	    NULL));
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM"
	    " artifact_lock WHERE artifact = (SELECT artifact FROM"
	    " artifact_node WHERE node = 'v:r1')"), 1);
	/* m joins them: it revises r1 and names "s". */
	sf_import_owned(fx.store, sf_version("m", "c", "revision_of", "\"r1\"",
	    "artifact_id", "\"s\"", NULL));
	assert_sets(1);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM"
	    " artifact_lock WHERE artifact = (SELECT artifact FROM"
	    " artifact_node WHERE node = 'v:s1')"), 1);
	result = lockout_of("m");
	assert_string_equal(result, "pass: c may revise r1");
	free(result);
	reject("s1");
	sf_import_owned(fx.store, sf_version("late-a", "a", "artifact_id",
	    "\"s\"", NULL));
	sf_import_owned(fx.store, sf_version("late-c", "c", "artifact_id",
	    "\"s\"", NULL));
	result = lockout_of("late-a");
	assert_string_equal(result, "fail: a wrote or contributed to a "
	    "rejected version of this artifact and is locked out of its later "
	    "versions, in any role");
	free(result);
	result = lockout_of("late-c");
	assert_string_equal(result, "pass: c may write a version of artifact s");
	free(result);
}

/* Two chains, then a version of the second names the first's artifact_id. */
static void
test_later_artifact_id_joins_two_chains(void **state)
{
	char *ids, *result;

	(void)state;
	sf_import_owned(fx.store, sf_version("x1", "a", NULL));
	sf_import_owned(fx.store, sf_version("x2", "b", "revision_of", "\"x1\"",
	    "artifact_id", "\"joint\"", NULL));
	sf_import_owned(fx.store, sf_version("y1", "c", NULL));
	reject("y1");
	sf_import_owned(fx.store, sf_version("y2", "d", "revision_of", "\"y1\"",
	    NULL));
	assert_sets(2);
	ids = artifact_of("x1");
	assert_string_equal(ids, "x2");
	free(ids);
	sf_import_owned(fx.store, sf_version("y3", "a", "revision_of", "\"y2\"",
	    "artifact_id", "\"joint\"", NULL));
	assert_sets(1);
	ids = artifact_of("x1");
	assert_string_equal(ids, "x2,y1,y2,y3");
	free(ids);
	ids = artifact_of("y1");
	assert_string_equal(ids, "x1,x2,y2,y3");
	free(ids);
	/* c's rejection of y1 locks c out of x's versions too, now. */
	sf_import_owned(fx.store, sf_version("x3", "c", "revision_of", "\"x2\"",
	    NULL));
	result = lockout_of("x3");
	assert_string_equal(result, "fail: the revised action x2 was not "
	    "rejected (it is pending)");
	free(result);
	reject("x2");
	result = lockout_of("x3");
	assert_string_equal(result, "fail: c wrote or contributed to a "
	    "rejected version of this artifact and is locked out of its later "
	    "versions, in any role");
	free(result);
}

/*
 * k2 revises k1, not stored yet; k3 shares k2's artifact_id.  k1 revising
 * k2 closes a cycle; k1 revising k3, in the same artifact but not below
 * k1 in the revisions, does not.
 */
static void
test_cycles_by_the_revision_tree(void **state)
{
	struct error err;
	char *json;

	(void)state;
	sf_import_owned(fx.store, sf_version("k2", "a", "revision_of", "\"k1\"",
	    "artifact_id", "\"k\"", NULL));
	sf_import_owned(fx.store, sf_version("k3", "b", "artifact_id", "\"k\"",
	    NULL));
	json = sf_version("k1", "c", "revision_of", "\"k2\"", NULL);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), EXIT_DATA);
	store_rollback(fx.store);
	free(json);
	assert_string_equal(err.field, "proposed_action.revision_of");
	assert_contains(err.message, "a cycle of revisions");
	/* Nothing of the refused version stays, its node neither. */
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM action"
	    " WHERE action_id = 'k1'"), 0);
	sf_import_owned(fx.store, sf_version("k1", "c", "revision_of", "\"k3\"",
	    NULL));
	assert_sets(1);
	json = sf_version("k4", "d", "revision_of", "\"k2\"", NULL);
	sf_import_owned(fx.store, json);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(DISTINCT tree) FROM"
	    " artifact_node WHERE node IN ('v:k1', 'v:k2', 'v:k3', 'v:k4')"),
	    1);
}

/* The change example as id by author (its pr_url kept). */
static char *
change(const char *id, const char *author)
{
	char quoted_id[300], quoted_author[300];

	return sf_edit(EXAMPLE_PACKET_CHANGE, "proposed_action.action_id",
	    sf_quote(quoted_id, sizeof quoted_id, id),
	    "proposed_action.author", sf_quote(quoted_author,
	    sizeof quoted_author, author), (const char *)NULL);
}

/* SPEC 2.4 v3: a resubmission under a new id is the same pull request. */
static void
test_pull_request_is_one_artifact(void **state)
{
	char *ids, *result;

	(void)state;
	sf_import_owned(fx.store, change("pr-1", "a"));
	reject("pr-1");
	sf_import_owned(fx.store, change("pr-2", "a"));
	sf_import_owned(fx.store, change("pr-3", "b"));
	ids = artifact_of("pr-3");
	assert_string_equal(ids, "pr-1,pr-2");
	free(ids);
	result = lockout_of("pr-2");
	assert_string_equal(result, "fail: a wrote or contributed to a "
	    "rejected version of this artifact and is locked out of its later "
	    "versions, in any role");
	free(result);
	result = lockout_of("pr-3");
	assert_string_equal(result, "pass: b may write a version of pull "
	    "request https://example.invalid/pr/412");
	free(result);
	/* A trade is no pull request: the same pr_url in it joins nothing. */
	sf_import_owned(fx.store, sf_version("t-1", "a", "pr_url",
	    "\"https://example.invalid/pr/412\"", NULL));
	result = lockout_of("t-1");
	assert_string_equal(result, "absent");
	free(result);
}

/*
 * A database from before the sets (schema 12): the migration computes
 * them once from the stored actions and decisions, the same as the
 * imports kept them.
 */
static void
test_sets_computed_for_an_older_database(void **state)
{
	struct error err;
	char *before, *after, *result;

	(void)state;
	sf_import_owned(fx.store, sf_version("o1", "a", "artifact_id", "\"o\"",
	    NULL));
	reject("o1");
	sf_import_owned(fx.store, sf_version("o2", "b", "revision_of", "\"o1\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("o3", "a", "artifact_id", "\"o\"",
	    NULL));
	sf_import_owned(fx.store, change("pr-1", "c"));
	reject("pr-1");
	sf_import_owned(fx.store, change("pr-2", "c"));
	before = sf_sql_text(fx.path, "SELECT group_concat(node || '=' ||"
	    " (SELECT count(*) FROM artifact_lock l WHERE l.artifact ="
	    " n.artifact), ',') FROM (SELECT * FROM artifact_node ORDER BY"
	    " node) n");
	store_close(fx.store);
	fx.store = NULL;
	sf_sql(fx.path, "DROP TABLE artifact_node; DROP TABLE artifact_size;"
	    " DROP TABLE artifact_lock; DROP TABLE artifact_pr;"
	    " DELETE FROM meta WHERE key = 'artifacts_built';"
	    /* and what 15, 17, 18, 19 and 21 add */
	    " ALTER TABLE queue_index DROP COLUMN listed;"
	    " DROP TABLE merkle_node; DROP TABLE log_checkpoint;"
	    " DROP TABLE log_name; ALTER TABLE security DROP COLUMN price_usd;"
	    " DROP TABLE po_judgment; ALTER TABLE action DROP COLUMN"
	    " importer_login; ALTER TABLE action DROP COLUMN importer_uid;"
	    " ALTER TABLE action DROP COLUMN importer_via;"
	    " UPDATE schema_version SET version = 12");
	assert_int_equal(store_open(fx.path, STORE_EXISTING, &fx.store, &err),
	    0);
	after = sf_sql_text(fx.path, "SELECT group_concat(node || '=' ||"
	    " (SELECT count(*) FROM artifact_lock l WHERE l.artifact ="
	    " n.artifact), ',') FROM (SELECT * FROM artifact_node ORDER BY"
	    " node) n");
	assert_non_null(before);
	assert_non_null(after);
	assert_string_equal(after, before);
	assert_sets(2);
	result = lockout_of("o3");
	assert_string_equal(result, "fail: a wrote or contributed to a "
	    "rejected version of this artifact and is locked out of its later "
	    "versions, in any role");
	free(result);
	result = lockout_of("pr-2");
	assert_string_equal(result, "fail: c wrote or contributed to a "
	    "rejected version of this artifact and is locked out of its later "
	    "versions, in any role");
	free(result);
	free(before);
	free(after);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_artifacts_merge,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_rejection_locks_out_across_a_merge, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_later_artifact_id_joins_two_chains, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_cycles_by_the_revision_tree, setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_pull_request_is_one_artifact, setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_sets_computed_for_an_older_database, setup,
		    sf_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
