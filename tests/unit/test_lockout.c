/* SPEC 2.4: the author lockout rule, the locked-out set and deadlock. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lockout.h"
#include "verdict.h"

struct fixture {
	cJSON *action;
	cJSON *chain;
	cJSON *roster;
	struct check_input in;
	struct verdict v;
};

static struct fixture fx;

static cJSON *
parse(const char *json)
{
	cJSON *tree = json ? cJSON_Parse(json) : NULL;

	if (json != NULL)
		assert_non_null(tree);
	return tree;
}

/* A revision by author of revision_of, with the given earlier versions. */
static void
make(const char *author, const char *revision_of, const char *chain,
    const char *roster)
{
	memset(&fx, 0, sizeof fx);
	fx.action = cJSON_CreateObject();
	cJSON_AddStringToObject(fx.action, "action_id", "v-next");
	if (author != NULL)
		cJSON_AddStringToObject(fx.action, "author", author);
	if (revision_of != NULL)
		cJSON_AddStringToObject(fx.action, "revision_of", revision_of);
	fx.chain = parse(chain);
	fx.roster = parse(roster);
	fx.in.action = fx.action;
	fx.in.revision_chain = fx.chain;
	fx.in.roster = fx.roster;
	assert_int_equal(verdict_init(&fx.v, "v-next", 0), 0);
	assert_int_equal(lockout_rule(&fx.in, &fx.v), 0);
}

static int
teardown(void **state)
{
	cJSON_Delete(fx.action);
	cJSON_Delete(fx.chain);
	cJSON_Delete(fx.roster);
	verdict_free(&fx.v);
	return 0;
}

static const struct rule_result *
rule(void)
{
	return verdict_rule(&fx.v, "author_lockout");
}

#define V(id, author, status, reassign) \
	"{\"action_id\":\"" id "\",\"author\":\"" author "\",\"status\":\"" \
	status "\",\"reassign_to\":" reassign ",\"escalate\":false}"

static void
test_no_revision_of_means_no_rule(void **state)
{
	make("a", NULL, NULL, NULL);
	assert_null(rule());
	assert_int_equal(fx.v.rule_count, 0);
}

static void
test_original_author_is_locked_out(void **state)
{
	make("a", "v1", "[" V("v1", "a", "rejected", "null") "]", NULL);
	assert_non_null(rule());
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "locked out"));
}

static void
test_named_reassignee_may_revise(void **state)
{
	make("b", "v1", "[" V("v1", "a", "rejected", "\"b\"") "]", NULL);
	assert_true(rule()->passed);
}

static void
test_third_author_when_reassignee_named_fails(void **state)
{
	make("c", "v1", "[" V("v1", "a", "rejected", "\"b\"") "]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "reassigned the revision to b"));
}

static void
test_any_unlocked_author_when_none_named(void **state)
{
	make("c", "v1", "[" V("v1", "a", "rejected", "null") "]", NULL);
	assert_true(rule()->passed);
}

/* v0 by a rejected, v1 by b rejected, v2 by c rejected: all three out. */
static void
test_chain_of_three_rejections(void **state)
{
	const char *chain = "[" V("v2", "c", "rejected", "null") ","
	    V("v1", "b", "rejected", "null") ","
	    V("v0", "a", "rejected", "null") "]";
	const char *authors[] = { "a", "b", "c" };
	cJSON *set;
	char *text;
	size_t i;

	for (i = 0; i < 3; i++) {
		make(authors[i], "v2", chain, NULL);
		assert_false(rule()->passed);
		teardown(NULL);
	}
	make("d", "v2", chain, NULL);
	assert_true(rule()->passed);
	set = lockout_authors(&fx.in, false);
	text = cJSON_PrintUnformatted(set);
	assert_string_equal(text, "[\"a\",\"b\",\"c\"]");
	cJSON_free(text);
	cJSON_Delete(set);
}

static void
test_revision_of_an_approved_action_fails(void **state)
{
	make("b", "v1", "[" V("v1", "a", "approved", "null") "]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "was not rejected (it is "
	    "approved)"));
}

static void
test_revision_of_a_pending_action_fails(void **state)
{
	make("b", "v1", "[" V("v1", "a", "pending", "null") "]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "pending"));
}

static void
test_revision_of_an_unknown_action_fails(void **state)
{
	make("b", "nope", "[]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "does not exist"));
}

static void
test_revision_without_author_fails_closed(void **state)
{
	make(NULL, "v1", "[" V("v1", "a", "rejected", "null") "]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "no author"));
}

/*
 * Rejecting v-next (by b) after a's rejection locks out a and b; until
 * then b may still write it, so the chain is not deadlocked yet.
 */
static void
test_deadlock_with_a_roster(void **state)
{
	const char *why = NULL;

	make("b", "v1", "[" V("v1", "a", "rejected", "null") "]",
	    "{\"authors\":[\"a\",\"b\"]}");
	assert_true(lockout_deadlocked(&fx.in, true));
	assert_false(lockout_deadlocked(&fx.in, false));
	assert_false(lockout_may_reassign(&fx.in, "a", &why));
	assert_non_null(strstr(why, "locked out"));
	assert_false(lockout_may_reassign(&fx.in, "b", &why));
	teardown(NULL);
	make("b", "v1", "[" V("v1", "a", "rejected", "null") "]",
	    "{\"authors\":[\"a\",\"b\",\"c\"]}");
	assert_false(lockout_deadlocked(&fx.in, true));
	assert_false(lockout_deadlocked(&fx.in, false));
	assert_true(lockout_may_reassign(&fx.in, "c", &why));
	assert_false(lockout_may_reassign(&fx.in, "z", &why));
	assert_non_null(strstr(why, "roster"));
}

/* Both roster authors rejected in the chain: deadlocked as it stands. */
static void
test_deadlock_as_the_chain_stands(void **state)
{
	make("c", "v2", "[" V("v2", "b", "rejected", "null") ","
	    V("v1", "a", "rejected", "null") "]",
	    "{\"authors\":[\"a\",\"b\"]}");
	assert_true(lockout_deadlocked(&fx.in, false));
	assert_true(lockout_deadlocked(&fx.in, true));
}

static void
test_no_roster_no_deadlock(void **state)
{
	const char *why = NULL;

	make("b", "v1", "[" V("v1", "a", "rejected", "null") "]", NULL);
	assert_false(lockout_deadlocked(&fx.in, true));
	assert_true(lockout_may_reassign(&fx.in, "anyone", &why));
}

/* Names ignore ASCII case: a lockout is not dodged by spelling. */
static void
test_locked_out_author_in_another_case(void **state)
{
	make("A", "v1", "[" V("v1", "a", "rejected", "null") "]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "locked out"));
	teardown(NULL);
	make("drafter", "v2", "[" V("v2", "b", "rejected", "null") ","
	    V("v1", "DrAfTeR", "rejected", "null") "]", NULL);
	assert_false(rule()->passed);
}

static void
test_reassignee_in_another_case_may_revise(void **state)
{
	make("B", "v1", "[" V("v1", "a", "rejected", "\"b\"") "]", NULL);
	assert_true(rule()->passed);
	teardown(NULL);
	make("c", "v1", "[" V("v1", "a", "rejected", "\"B\"") "]", NULL);
	assert_false(rule()->passed);
}

/* One name in two spellings is one locked-out author. */
static void
test_locked_out_set_ignores_case(void **state)
{
	cJSON *set;
	char *text;

	make("c", "v2", "[" V("v2", "A", "rejected", "null") ","
	    V("v1", "a", "rejected", "null") "]", NULL);
	set = lockout_authors(&fx.in, false);
	text = cJSON_PrintUnformatted(set);
	assert_string_equal(text, "[\"A\"]");
	cJSON_free(text);
	cJSON_Delete(set);
}

static void
test_reassign_and_roster_ignore_case(void **state)
{
	const char *why = NULL;

	make("c", "v2", "[" V("v2", "b", "rejected", "null") ","
	    V("v1", "a", "rejected", "null") "]",
	    "{\"authors\":[\"A\",\"B\",\"Carol\"]}");
	assert_false(lockout_may_reassign(&fx.in, "A", &why));
	assert_non_null(strstr(why, "locked out"));
	assert_false(lockout_may_reassign(&fx.in, "b", &why));
	assert_true(lockout_may_reassign(&fx.in, "carol", &why));
	assert_true(lockout_may_reassign(&fx.in, "CAROL", &why));
	assert_false(lockout_may_reassign(&fx.in, "dave", &why));
	/* Nor do white space or an invisible character make another name. */
	assert_false(lockout_may_reassign(&fx.in, " a", &why));
	assert_false(lockout_may_reassign(&fx.in, "b\xe2\x80\x8b", &why));
	teardown(NULL);
	/* Every roster author wrote a rejected version, in another case. */
	make("c", "v2", "[" V("v2", "b", "rejected", "null") ","
	    V("v1", "a", "rejected", "null") "]",
	    "{\"authors\":[\"A\",\"B\"]}");
	assert_true(lockout_deadlocked(&fx.in, false));
}

/* ---- SPEC v2 2.4: people, siblings, artifact_id, blocked_on ---- */

#define W(fields) "{" fields "}"

/* A contributor of a rejected version is out in any role. */
static void
test_contributor_of_rejected_version_is_locked_out(void **state)
{
	make("b", "v1", "[" W("\"action_id\":\"v1\",\"author\":\"a\","
	    "\"contributors\":[\"x\"],\"status\":\"rejected\"") "]", NULL);
	assert_true(rule()->passed);
	teardown(NULL);
	make("x", "v1", "[" W("\"action_id\":\"v1\",\"author\":\"a\","
	    "\"contributors\":[\"x\"],\"status\":\"rejected\"") "]", NULL);
	assert_false(rule()->passed);
	teardown(NULL);
	/* As a contributor of the revision, too. */
	make("b", "v1", "[" V("v1", "a", "rejected", "null") "]", NULL);
	cJSON_AddItemToObject(fx.action, "contributors",
	    parse("[\"c\",\"A\"]"));
	verdict_free(&fx.v);
	assert_int_equal(verdict_init(&fx.v, "v-next", 0), 0);
	assert_int_equal(lockout_rule(&fx.in, &fx.v), 0);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "A wrote or contributed"));
}

/* A rejected sibling's author is out of the other revisions too. */
static void
test_rejected_sibling_locks_out(void **state)
{
	make("b", "v1", "[" V("v1", "a", "rejected", "null") ","
	    W("\"action_id\":\"v2\",\"author\":\"b\",\"revision_of\":"
	    "\"v1\",\"status\":\"rejected\"") "]", NULL);
	assert_false(rule()->passed);
}

/* One approved next version per rejection. */
static void
test_second_next_version_fails(void **state)
{
	make("c", "v1", "[" V("v1", "a", "rejected", "null") ","
	    W("\"action_id\":\"v2\",\"author\":\"b\",\"revision_of\":"
	    "\"v1\",\"status\":\"approved\"") "]", NULL);
	assert_false(rule()->passed);
	assert_non_null(strstr(rule()->detail, "v2, another revision of v1"));
	teardown(NULL);
	/* A pending sibling is no obstacle. */
	make("c", "v1", "[" V("v1", "a", "rejected", "null") ","
	    W("\"action_id\":\"v2\",\"author\":\"b\",\"revision_of\":"
	    "\"v1\",\"status\":\"pending\"") "]", NULL);
	assert_true(rule()->passed);
}

/* A rejection held for a missing standard locks out nobody. */
static void
test_blocked_on_locks_out_nobody(void **state)
{
	make("a", "v1", "[" W("\"action_id\":\"v1\",\"author\":\"a\","
	    "\"status\":\"rejected\",\"blocked_on\":\"missing_standard\"")
	    "]", "{\"authors\":[\"a\"]}");
	assert_true(rule()->passed);
	assert_false(lockout_deadlocked(&fx.in, false));
}

/* Undeclared versions: the rule is there once the artifact had a rejection. */
static void
test_shared_artifact_id(void **state)
{
	make("a", NULL, "[" W("\"action_id\":\"v1\",\"author\":\"a\","
	    "\"artifact_id\":\"art\",\"status\":\"rejected\"") "]", NULL);
	assert_null(rule());	/* the action names no artifact_id */
	teardown(NULL);
	memset(&fx, 0, sizeof fx);
	fx.action = parse("{\"action_id\":\"v9\",\"author\":\"a\","
	    "\"artifact_id\":\"art\"}");
	fx.chain = parse("[" W("\"action_id\":\"v1\",\"author\":\"a\","
	    "\"artifact_id\":\"art\",\"status\":\"rejected\"") "]");
	fx.in.action = fx.action;
	fx.in.revision_chain = fx.chain;
	assert_int_equal(verdict_init(&fx.v, "v9", 0), 0);
	assert_int_equal(lockout_rule(&fx.in, &fx.v), 0);
	assert_false(rule()->passed);
	/* Only approved or pending versions before: no rule. */
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(fx.chain, 0), "status",
	    cJSON_CreateString("approved"));
	verdict_free(&fx.v);
	assert_int_equal(verdict_init(&fx.v, "v9", 0), 0);
	assert_int_equal(lockout_rule(&fx.in, &fx.v), 0);
	assert_null(rule());
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_no_revision_of_means_no_rule,
		    teardown),
		cmocka_unit_test_teardown(test_original_author_is_locked_out,
		    teardown),
		cmocka_unit_test_teardown(test_named_reassignee_may_revise,
		    teardown),
		cmocka_unit_test_teardown(
		    test_third_author_when_reassignee_named_fails, teardown),
		cmocka_unit_test_teardown(
		    test_any_unlocked_author_when_none_named, teardown),
		cmocka_unit_test_teardown(test_chain_of_three_rejections,
		    teardown),
		cmocka_unit_test_teardown(
		    test_revision_of_an_approved_action_fails, teardown),
		cmocka_unit_test_teardown(
		    test_revision_of_a_pending_action_fails, teardown),
		cmocka_unit_test_teardown(
		    test_revision_of_an_unknown_action_fails, teardown),
		cmocka_unit_test_teardown(
		    test_revision_without_author_fails_closed, teardown),
		cmocka_unit_test_teardown(test_deadlock_with_a_roster,
		    teardown),
		cmocka_unit_test_teardown(test_deadlock_as_the_chain_stands,
		    teardown),
		cmocka_unit_test_teardown(test_no_roster_no_deadlock, teardown),
		cmocka_unit_test_teardown(
		    test_locked_out_author_in_another_case, teardown),
		cmocka_unit_test_teardown(
		    test_reassignee_in_another_case_may_revise, teardown),
		cmocka_unit_test_teardown(test_locked_out_set_ignores_case,
		    teardown),
		cmocka_unit_test_teardown(test_reassign_and_roster_ignore_case,
		    teardown),
		cmocka_unit_test_teardown(
		    test_contributor_of_rejected_version_is_locked_out, teardown),
		cmocka_unit_test_teardown(test_rejected_sibling_locks_out,
		    teardown),
		cmocka_unit_test_teardown(test_second_next_version_fails,
		    teardown),
		cmocka_unit_test_teardown(test_blocked_on_locks_out_nobody,
		    teardown),
		cmocka_unit_test_teardown(test_shared_artifact_id, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
