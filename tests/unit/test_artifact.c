/*
 * SPEC v2 2.4 and 5 (issue 21) on a real database: the artifact the store
 * hands the lockout (siblings, shared artifact_id, descendants, a deep
 * chain), cycles refused at import, and the gate's new refusals:
 * self_approval by an author or contributor, escalation_required,
 * reassignee_locked_out off the roster, escalate with an expertise.
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

static const struct operator_identity officer = { "officer", 1000 };

static void
record(const char *id, enum decision_kind kind, bool escalate,
    const char *expertise)
{
	struct decision_request req;
	struct decision_outcome out;
	struct error err;

	memset(&req, 0, sizeof req);
	req.action_id = id;
	req.decision = kind;
	req.reason = "because";
	req.ack_divergence = req.ack_high_stakes = true;
	req.escalate = escalate;
	req.escalate_expertise = expertise;
	assert_int_equal(decision_record(fx.store, &req, &officer, EX_NOW_MS,
	    false, &out, &err), 0);
	if (!out.recorded)
		fail_msg("%s refused: %s %s", id, out.code, out.message);
}

static const char *
refusal(const struct decision_request *req,
    const struct operator_identity *op, struct decision_outcome *out)
{
	struct error err;

	assert_int_equal(decision_record(fx.store, req, op, EX_NOW_MS, false,
	    out, &err), 0);
	return out->recorded ? "recorded" : out->code;
}

/* The action_ids of the artifact the store loads for id, sorted, joined. */
static char *
artifact_of(const char *id)
{
	struct check_data d;
	struct error err;
	const cJSON *version;
	char *ids = calloc(1, 4096);
	size_t n = 0;

	assert_non_null(ids);
	assert_int_equal(store_load_check(fx.store, id, EX_NOW_MS, &d, &err),
	    0);
	cJSON_ArrayForEach(version, d.revision_chain) {
		n += (size_t)snprintf(ids + n, 4096 - n, "%s%s", n ? "," : "",
		    cJSON_GetObjectItem(version, "action_id")->valuestring);
	}
	check_data_free(&d);
	return ids;
}

static int
setup(void **state)
{
	if (sf_setup(state) != 0)
		return -1;
	sf_import(fx.store, "{\"type\":\"roster\",\"authors\":[\"a\",\"b\","
	    "\"c\"]}", (const char *)NULL);
	return 0;
}

/*
 * v1 <- v2 <- v4, v1 <- v3 (a sibling of v2), and u, which declares no
 * revision but shares v3's artifact_id; z is another artifact.
 */
static void
test_artifact_is_the_whole_tree(void **state)
{
	char *ids;

	(void)state;
	sf_import_owned(fx.store, sf_version("v1", "a", NULL));
	sf_import_owned(fx.store, sf_version("v2", "b", "revision_of", "\"v1\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("v3", "c", "revision_of", "\"v1\"",
	    "artifact_id", "\"art\"", NULL));
	sf_import_owned(fx.store, sf_version("v4", "c", "revision_of", "\"v2\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("u", "c", "artifact_id", "\"art\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("z", "c", "artifact_id", "\"zz\"",
	    NULL));
	ids = artifact_of("v4");
	assert_string_equal(ids, "v1,v2,v3,u");
	free(ids);
	ids = artifact_of("u");
	assert_string_equal(ids, "v1,v2,v3,v4");
	free(ids);
	ids = artifact_of("v1");
	assert_string_equal(ids, "v2,v3,v4,u");
	free(ids);
	ids = artifact_of("z");
	assert_string_equal(ids, "");
	free(ids);
}

/* Thousands of versions: the walk has no recursion limit. */
static void
test_deep_chain(void **state)
{
	enum { DEPTH = 3000 };
	struct check_data d;
	struct error err;
	char id[32], of[40], *json;
	int i;

	(void)state;
	assert_int_equal(store_begin(fx.store, &err), 0);
	for (i = 0; i < DEPTH; i++) {
		snprintf(id, sizeof id, "d-%d", i);
		snprintf(of, sizeof of, "\"d-%d\"", i - 1);
		json = i == 0 ? sf_version(id, "a", NULL) :
		    sf_version(id, "a", "revision_of", of, NULL);
		assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), 0);
		free(json);
	}
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(store_load_check(fx.store, "d-2999", EX_NOW_MS, &d,
	    &err), 0);
	assert_int_equal(cJSON_GetArraySize(d.revision_chain), DEPTH - 1);
	check_data_free(&d);
	assert_int_equal(store_load_check(fx.store, "d-0", EX_NOW_MS, &d,
	    &err), 0);
	assert_int_equal(cJSON_GetArraySize(d.revision_chain), DEPTH - 1);
	check_data_free(&d);
}

static void
test_cycles_are_refused(void **state)
{
	struct error err;
	char *json;

	(void)state;
	sf_import_owned(fx.store, sf_version("c1", "a", "revision_of", "\"c3\"",
	    NULL));
	sf_import_owned(fx.store, sf_version("c2", "a", "revision_of", "\"c1\"",
	    NULL));
	json = sf_version("c3", "a", "revision_of", "\"c2\"", NULL);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), EXIT_DATA);
	store_rollback(fx.store);
	assert_string_equal(err.field, "proposed_action.revision_of");
	assert_contains(err.message, "cycle");
	free(json);
	json = sf_version("c4", "a", "revision_of", "\"c4\"", NULL);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), EXIT_DATA);
	store_rollback(fx.store);
	assert_string_equal(err.field, "proposed_action.revision_of");
	free(json);
	/* Not a cycle: c5 revises c2, whose chain ends at c3, unknown. */
	sf_import_owned(fx.store, sf_version("c5", "b", "revision_of", "\"c2\"",
	    NULL));
}

/* The new fields are validated at import, naming the field. */
static void
test_fields_are_validated(void **state)
{
	struct error err;
	char *json;

	(void)state;
	json = sf_version("f1", "a", "contributors", "\"x\"", NULL);
	assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), EXIT_DATA);
	assert_string_equal(err.field, "proposed_action.contributors");
	free(json);
	json = sf_version("f2", "a", "artifact_id", "[1]", NULL);
	assert_int_equal(sf_put(fx.store, json, EX_NOW_MS, &err), EXIT_DATA);
	assert_string_equal(err.field, "proposed_action.artifact_id");
	free(json);
}

static void
test_self_approval_by_author_and_contributor(void **state)
{
	struct decision_request req;
	struct decision_outcome out;

	(void)state;
	sf_import_owned(fx.store, sf_version("own", "Officer", NULL));
	sf_import_owned(fx.store, sf_version("co", "a", "contributors",
	    "[\"b\", \"\xd0\xbe\xef\xbd\x86\xef\xbd\x86icer\xe2\xa0\x80\"]",
	    NULL));
	sf_import_owned(fx.store, sf_version("fine", "a", "contributors",
	    "[\"b\"]", NULL));
	memset(&req, 0, sizeof req);
	req.decision = DECISION_APPROVE;
	req.ack_divergence = true;
	req.action_id = "own";
	assert_string_equal(refusal(&req, &officer, &out), "self_approval");
	assert_contains(out.message, "wrote or contributed");
	req.action_id = "co";
	assert_string_equal(refusal(&req, &officer, &out), "self_approval");
	req.action_id = "fine";
	assert_string_equal(refusal(&req, &officer, &out), "recorded");
}

/* The rejection that would lock out the whole roster must escalate. */
static void
test_escalation_required(void **state)
{
	struct decision_request req;
	struct decision_outcome out;
	char *routing;

	(void)state;
	sf_import_owned(fx.store, sf_version("e1", "a", NULL));
	record("e1", DECISION_REJECT, false, NULL);
	sf_import_owned(fx.store, sf_version("e2", "b", "revision_of", "\"e1\"",
	    "contributors", "[\"c\"]", NULL));
	memset(&req, 0, sizeof req);
	req.action_id = "e2";
	req.decision = DECISION_REJECT;
	req.reason = "still wrong";
	assert_string_equal(refusal(&req, &officer, &out),
	    "escalation_required");
	req.reassign_to = "dave";
	assert_string_equal(refusal(&req, &officer, &out),
	    "reassignee_locked_out");
	assert_contains(out.message, "roster");
	req.reassign_to = "c";
	assert_string_equal(refusal(&req, &officer, &out),
	    "reassignee_locked_out");
	req.reassign_to = NULL;
	req.escalate = true;
	req.escalate_expertise = "tax law";
	assert_string_equal(refusal(&req, &officer, &out), "recorded");
	routing = sf_sql_text(fx.path, "SELECT json_extract(l.record_json,"
	    " '$.routing') FROM decision d JOIN audit_log l"
	    " ON l.seq = d.audit_seq WHERE d.action_id = 'e2'");
	assert_string_equal(routing, "{\"escalate\":{\"expertise\":\"tax law\"}}");
	free(routing);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM decision"
	    " WHERE action_id = 'e2' AND escalate = 1"
	    " AND escalate_expertise = 'tax law'"), 1);
}

/* Without a deadlock, a rejection needs no routing. */
static void
test_no_escalation_while_an_author_is_free(void **state)
{
	struct decision_request req;
	struct decision_outcome out;

	(void)state;
	sf_import_owned(fx.store, sf_version("n1", "a", NULL));
	memset(&req, 0, sizeof req);
	req.action_id = "n1";
	req.decision = DECISION_REJECT;
	req.reason = "no";
	assert_string_equal(refusal(&req, &officer, &out), "recorded");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_artifact_is_the_whole_tree,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(test_deep_chain, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(test_cycles_are_refused, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(test_fields_are_validated,
		    setup, sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_self_approval_by_author_and_contributor, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(test_escalation_required, setup,
		    sf_teardown),
		cmocka_unit_test_setup_teardown(
		    test_no_escalation_while_an_author_is_free, setup,
		    sf_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
