/*
 * A decision reads of an artifact only the versions its answers depend
 * on (issue 34, store_load_decision_check(), artifact_chain.c): every
 * rejection that locks people out, the version revised, its first
 * approved revision, a rejected version sharing the artifact_id or pull
 * request.  Each question a decision asks of the lockout (the rule, who
 * is locked out as spelt, the deadlock, whom a rejection may reassign
 * to) must get the answer the whole artifact gives, and the record's
 * revision_chain must grow with the rejections, not the versions.
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
#include "lockout.h"
#include "store.h"
#include "store_fixture.h"
#include "examples.h"

static const struct operator_identity officer = { "officer", 1000 };

/* Records a decision on id, which must be recorded. */
static void
decide(const char *id, enum decision_kind kind, const char *reassign_to)
{
	struct decision_request req;
	struct decision_outcome out;
	struct error err;

	memset(&req, 0, sizeof req);
	req.action_id = id;
	req.decision = kind;
	req.reason = "because";
	req.reassign_to = reassign_to;
	req.ack_divergence = req.ack_high_stakes = true;
	assert_int_equal(decision_record(fx.store, &req, &officer, EX_NOW_MS,
	    false, &out, &err), 0);
	if (!out.recorded)
		fail_msg("%s refused: %s %s", id, out.code, out.message);
}

static void
reject(const char *id)
{
	decide(id, DECISION_REJECT, NULL);
}

static size_t
put(char *buf, size_t size, size_t n, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (n >= size)
		return n;
	va_start(ap, fmt);
	w = vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
	return w < 0 ? size : n + (size_t)w;
}

/* The locked-out names as the record writes them, joined. */
static size_t
put_authors(char *buf, size_t size, size_t n, const struct check_input *in,
    bool this_rejected)
{
	cJSON *names = lockout_authors(in, this_rejected);
	const cJSON *name;

	assert_non_null(names);
	n = put(buf, size, n, "[");
	cJSON_ArrayForEach(name, names)
		n = put(buf, size, n, "%s;", name->valuestring);
	cJSON_Delete(names);
	return put(buf, size, n, "]");
}

/*
 * Every answer of the lockout for id, as one text: the rule, who is
 * locked out (the action pending, then rejected), the deadlock both
 * ways, and whether each name may take a reassigned revision.  *chain:
 * how many versions the reading gave.
 */
static char *
answers(const char *id, bool for_decision, int *chain)
{
	static const char *const names[] = { "a", "A", "b", "c", "d", "e",
	    "ann", "ANN", "x" };
	const struct rule_result *rule;
	struct check_outcome out;
	struct check_data d;
	struct error err;
	const char *why;
	size_t i, n = 0, size = 4096;
	char *text = malloc(size);

	assert_non_null(text);
	assert_int_equal(for_decision ? store_load_decision_check(fx.store,
	    id, EX_NOW_MS, &d, &err) : store_load_check(fx.store, id,
	    EX_NOW_MS, &d, &err), 0);
	assert_int_equal(check_run(&d.input, &out, &err), 0);
	*chain = cJSON_GetArraySize(d.revision_chain);
	rule = verdict_rule(&out.verdict, "author_lockout");
	if (rule == NULL)
		n = put(text, size, n, "absent");
	else
		n = put(text, size, n, "%s: %s", rule->passed ? "pass" : "fail",
		    rule->detail ? rule->detail : "");
	n = put(text, size, n, " | ");
	n = put_authors(text, size, n, &d.input, false);
	n = put_authors(text, size, n, &d.input, true);
	n = put(text, size, n, " | deadlocked %d %d |",
	    lockout_deadlocked(&d.input, false),
	    lockout_deadlocked(&d.input, true));
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		why = NULL;
		n = put(text, size, n, " %s:%d", names[i],
		    lockout_may_reassign(&d.input, names[i], &why));
	}
	assert_true(n < size);
	check_outcome_free(&out);
	check_data_free(&d);
	return text;
}

/*
 * The answers of id by a decision's reading, which must be the whole
 * artifact's; the decision's reading holds at most most versions.
 */
static char *
decision_answers(const char *id, int most)
{
	int every_count, decision_count;
	char *every = answers(id, false, &every_count);
	char *some = answers(id, true, &decision_count);

	assert_string_equal(some, every);
	if (decision_count > most)
		fail_msg("%s: a decision read %d versions (of %d), more than "
		    "%d", id, decision_count, every_count, most);
	free(some);
	return every;
}

/* How many versions the last record's revision_chain holds; -1: null. */
static long long
recorded_chain(void)
{
	return sf_sql_int(fx.path, "SELECT coalesce(json_array_length("
	    "record_json, '$.rule_inputs.revision_chain'), -1) FROM audit_log"
	    " ORDER BY seq DESC LIMIT 1");
}

static int
setup(void **state)
{
	if (sf_setup(state) != 0)
		return -1;
	sf_import(fx.store, "{\"type\":\"roster\",\"authors\":[\"a\",\"b\","
	    "\"c\",\"d\",\"ann\"]}", (const char *)NULL);
	return 0;
}

/*
 * A chain of 40 versions, each revising the one before: while none is
 * rejected, a decision reads one (the version revised); each rejection
 * that locks people out is one more, whatever the chain's length.
 */
static void
test_long_chain(void **state)
{
	char id[16], prev[24], author[16], *result;
	int i;

	(void)state;
	for (i = 0; i < 40; i++) {
		snprintf(id, sizeof id, "c-%d", i);
		snprintf(author, sizeof author, "w-%d", i);
		snprintf(prev, sizeof prev, "\"c-%d\"", i - 1);
		sf_import_owned(fx.store, i == 0 ? sf_version(id, author,
		    NULL) : sf_version(id, author, "revision_of", prev, NULL));
	}
	result = decision_answers("c-39", 1);
	assert_contains(result, "fail: the revised action c-38 was not "
	    "rejected");
	free(result);
	reject("c-39");
	assert_int_equal(recorded_chain(), 1);
	reject("c-10");
	reject("c-20");
	result = decision_answers("c-21", 3);
	assert_contains(result, "pass: w-21 may revise c-20");
	assert_contains(result, "[w-10;w-20;w-39;][w-10;w-20;w-21;w-39;]");
	free(result);
	decide("c-21", DECISION_APPROVE, NULL);
	/* c-10, c-20 and c-39 lock w-10, w-20 and w-39 out; c-20 revised. */
	assert_int_equal(recorded_chain(), 3);
	result = decision_answers("c-38", 4);
	assert_contains(result, "was not rejected");
	free(result);
	result = decision_answers("c-0", 3);
	assert_contains(result, "absent");
	free(result);
}

/*
 * Names as spelt: the record keeps the first spelling of a name in the
 * artifact's order, whichever rejection came first; contributors are
 * people too; a reassignment names a free author.
 */
static void
test_spellings_and_contributors(void **state)
{
	char *result;

	(void)state;
	sf_import_owned(fx.store, sf_version("s1", "ANN", "artifact_id",
	    "\"s\"", NULL));
	sf_import_owned(fx.store, sf_version("s2", "ann", "artifact_id",
	    "\"s\"", "contributors", "[\"x\", \"b\"]", NULL));
	sf_import_owned(fx.store, sf_version("s3", "c", "artifact_id", "\"s\"",
	    NULL));
	reject("s2");
	result = decision_answers("s3", 1);
	assert_contains(result, "[ann;b;x;]");
	free(result);
	reject("s1");
	result = decision_answers("s3", 2);
	assert_contains(result, "[ANN;b;x;][ANN;b;c;x;]");
	assert_contains(result, " a:1 ");
	assert_contains(result, " ann:0 ");
	free(result);
	decide("s3", DECISION_REJECT, "a");
	assert_int_equal(recorded_chain(), 2);
	sf_import_owned(fx.store, sf_version("s4", "a", "revision_of", "\"s3\"",
	    NULL));
	result = decision_answers("s4", 3);
	assert_contains(result, "pass: a may revise s3");
	free(result);
	sf_import_owned(fx.store, sf_version("s5", "d", "revision_of", "\"s3\"",
	    NULL));
	result = decision_answers("s5", 3);
	assert_contains(result, "reassigned the revision to a, not d");
	free(result);
}

/*
 * Siblings and the deadlock: once a, b and c are out, d's is the last
 * free roster author's version but for ann; a second revision of a
 * rejection already revised and approved fails.
 */
static void
test_siblings_and_deadlock(void **state)
{
	char *result;

	(void)state;
	sf_import_owned(fx.store, sf_version("d1", "a", NULL));
	reject("d1");
	sf_import_owned(fx.store, sf_version("d2", "b", "revision_of", "\"d1\"",
	    NULL));
	reject("d2");
	sf_import_owned(fx.store, sf_version("d3", "c", "revision_of", "\"d1\"",
	    NULL));
	decide("d3", DECISION_APPROVE, NULL);
	sf_import_owned(fx.store, sf_version("d4", "d", "revision_of", "\"d1\"",
	    NULL));
	result = decision_answers("d4", 3);
	assert_contains(result, "d3, another revision of d1, was already "
	    "approved");
	free(result);
	sf_import_owned(fx.store, sf_version("e1", "ann", "revision_of",
	    "\"d2\"", NULL));
	reject("e1");
	sf_import_owned(fx.store, sf_version("e2", "c", "revision_of", "\"e1\"",
	    NULL));
	/* a, b, ann out; e2 by c: rejecting it leaves d alone, no deadlock. */
	result = decision_answers("e2", 4);
	assert_contains(result, "deadlocked 0 0");
	free(result);
	reject("e2");
	sf_import_owned(fx.store, sf_version("e3", "d", "revision_of", "\"e2\"",
	    NULL));
	result = decision_answers("e3", 6);
	assert_contains(result, "deadlocked 0 1");
	assert_contains(result, " d:0 ");
	free(result);
}

/* SPEC 2.4 v3: a resubmitted pull request, and a trade beside it. */
static void
test_pull_request(void **state)
{
	char *result;

	(void)state;
	sf_import_owned(fx.store, sf_change_by("pr-1", "a"));
	reject("pr-1");
	sf_import_owned(fx.store, sf_change_by("pr-2", "a"));
	sf_import_owned(fx.store, sf_change_by("pr-3", "b"));
	result = decision_answers("pr-2", 1);
	assert_contains(result, "fail: a wrote or contributed");
	free(result);
	result = decision_answers("pr-3", 1);
	assert_contains(result, "pass: b may write a version of pull request");
	free(result);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_long_chain, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(test_spellings_and_contributors,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(test_siblings_and_deadlock,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(test_pull_request, setup,
		    sf_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
