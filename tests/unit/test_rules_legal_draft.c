/*
 * Unit tests for the legal_draft rule pack (src/domain/rules_legal_draft.c)
 * through check_run(), as the commands use it: the SPEC example, every
 * rule passing and failing, the advisory as an object, as raw model output
 * and missing, the approved artifact's digest, the detail view and the
 * validation of the proposed action.
 */
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
#include <cjson/cJSON.h>

#include "check.h"
#include "detail.h"
#include "error.h"
#include "exit_codes.h"
#include "object.h"
#include "rule_pack.h"
#include "verdict.h"
#include "examples.h"

/* The contract's example, generated from tests/data/examples/ by make. */
#define EX_PACKET_LEGAL_DRAFT EXAMPLE_PACKET_LEGAL_DRAFT

/*
 * Computed outside the program:
 *   printf 'IN THE COURT OF THE CIVIL JUDGE ...\n1. The plaintiff supplied
 *   goods ...\n7. LIMITATION: The suit is within limitation ...' | sha256sum
 * and the same without the third line for the draft.
 */
#define FIXED_SHA256 \
	"8745e79d82c5c9c1b6094403c821204d4964a36682859f58d4b5d26b04ced2b0"
#define DRAFT_SHA256 \
	"cf8d83ae5bb65f2bd8948c4a152880d1680f15f5e046e10751194619533509e2"

#define DRAFT_JSON \
	"\"IN THE COURT OF THE CIVIL JUDGE ...\\n1. The plaintiff supplied goods ...\""
#define FIXED_JSON \
	"\"IN THE COURT OF THE CIVIL JUDGE ...\\n1. The plaintiff supplied goods ...\\n7. LIMITATION: The suit is within limitation ...\""

#define LEGAL_ISSUE \
	"{\"issue\": \"Limitation period not pleaded\", \"severity\": \"legal\", " \
	"\"section\": \"Limitation\"}"
#define FORMAT_ISSUE \
	"{\"issue\": \"Annexure labels inconsistent\", \"severity\": \"formatting\"}"
#define FIX "[{\"text\": " FIXED_JSON "}]"

#define NOW_MS 1795940104123LL

static const char *const rule_order[] = { "no_unfixed_legal_issues",
	"gates_clear", "review_pass_consistent" };

struct run {
	cJSON *packet;
	struct check_input in;
	struct check_outcome out;
	struct error err;
};

/* Checks a packet given as JSON text; the check itself must succeed. */
static void
run_packet(struct run *r, const char *packet)
{
	memset(r, 0, sizeof *r);
	r->packet = cJSON_Parse(packet);
	if (r->packet == NULL)
		fail_msg("fixture JSON does not parse: %.60s", packet);
	r->in.packet = r->packet;
	r->in.action = cJSON_GetObjectItemCaseSensitive(r->packet,
	    "proposed_action");
	assert_non_null(r->in.action);
	r->in.now_ms = NOW_MS;
	if (check_run(&r->in, &r->out, &r->err) != 0)
		fail_msg("check_run failed: %s: %s", r->err.field,
		    r->err.message);
	assert_string_equal(r->out.pack->kind, "legal_draft");
}

/*
 * A packet like the example with reviewer_verdict (JSON text, or NULL to
 * leave it out) and gate_errors (JSON text, or NULL to leave it out).
 */
static char *
packet_text(const char *verdict, const char *gates)
{
	static const char fmt[] = "{\"type\": \"packet\", \"kind\": "
	    "\"legal_draft\", \"proposed_action\": {\"action_id\": "
	    "\"legal-2026-0042\", \"author\": \"drafting-graph\", "
	    "\"doc_type\": \"recovery_suit\", \"law_domain\": \"civil\", "
	    "\"user_request\": \"Draft a money recovery suit.\", "
	    "\"draft_text\": " DRAFT_JSON "%s%s}%s%s}";
	char *text;
	int len;

	len = snprintf(NULL, 0, fmt, gates ? ", \"gate_errors\": " : "",
	    gates ? gates : "", verdict ? ", \"reviewer_verdict\": " : "",
	    verdict ? verdict : "");
	assert_true(len > 0);
	text = malloc((size_t)len + 1);
	assert_non_null(text);
	snprintf(text, (size_t)len + 1, fmt,
	    gates ? ", \"gate_errors\": " : "", gates ? gates : "",
	    verdict ? ", \"reviewer_verdict\": " : "", verdict ? verdict : "");
	return text;
}

/* A verdict object; artifacts NULL leaves final_artifacts out. */
static char *
verdict_text(const char *review_pass, const char *blocking,
    const char *non_blocking, const char *artifacts)
{
	char *text;
	int len;

	len = snprintf(NULL, 0, "{\"review_pass\": %s, \"blocking_issues\": "
	    "%s, \"non_blocking_issues\": %s%s%s}", review_pass, blocking,
	    non_blocking, artifacts ? ", \"final_artifacts\": " : "",
	    artifacts ? artifacts : "");
	assert_true(len > 0);
	text = malloc((size_t)len + 1);
	assert_non_null(text);
	snprintf(text, (size_t)len + 1, "{\"review_pass\": %s, "
	    "\"blocking_issues\": %s, \"non_blocking_issues\": %s%s%s}",
	    review_pass, blocking, non_blocking,
	    artifacts ? ", \"final_artifacts\": " : "",
	    artifacts ? artifacts : "");
	return text;
}

static void
run_with(struct run *r, const char *verdict, const char *gates)
{
	char *packet = packet_text(verdict, gates);

	run_packet(r, packet);
	free(packet);
}

/* Runs a packet whose verdict object is built from the four parts. */
static void
run_verdict(struct run *r, const char *review_pass, const char *blocking,
    const char *non_blocking, const char *artifacts)
{
	char *verdict = verdict_text(review_pass, blocking, non_blocking,
	    artifacts);

	run_with(r, verdict, "[]");
	free(verdict);
}

static void
run_free(struct run *r)
{
	check_outcome_free(&r->out);
	cJSON_Delete(r->packet);
}

static const struct rule_result *
rule(const struct run *r, const char *rule_id)
{
	const struct rule_result *result = verdict_rule(&r->out.verdict,
	    rule_id);

	if (result == NULL)
		fail_msg("no rule %s in the local verdict", rule_id);
	return result;
}

static void
assert_rule(const struct run *r, const char *rule_id, bool passed)
{
	const struct rule_result *result = rule(r, rule_id);

	if (result->passed != passed)
		fail_msg("%s: passed %d, want %d (detail: %s)", rule_id,
		    result->passed, passed,
		    result->detail ? result->detail : "none");
	assert_non_null(result->description);
	assert_true(strlen(result->description) > 0);
	if (!passed) {
		assert_non_null(result->detail);
		assert_true(strlen(result->detail) > 0);
	}
}

/* The detail of rule_id contains text. */
static void
assert_detail_has(const struct run *r, const char *rule_id, const char *text)
{
	const struct rule_result *result = rule(r, rule_id);

	if (result->detail == NULL || strstr(result->detail, text) == NULL)
		fail_msg("%s detail \"%s\" lacks \"%s\"", rule_id,
		    result->detail ? result->detail : "(none)", text);
}

/* A high-stakes reason with this code, whose detail contains text. */
static void
assert_reason(const struct run *r, const char *code, const char *text)
{
	const struct stakes_reason *reason = verdict_reason(&r->out.verdict,
	    code);

	if (reason == NULL)
		fail_msg("no high-stakes reason %s", code);
	if (text != NULL && strstr(reason->detail, text) == NULL)
		fail_msg("reason %s detail \"%s\" lacks \"%s\"", code,
		    reason->detail, text);
	assert_true(r->out.verdict.requires_human_approval);
}

/* The digest of the text an approval approves. */
static void
assert_approves(const struct run *r, const char *sha256)
{
	char digest[65];

	assert_true(r->out.pack->approved_artifact(&r->in, &r->out.advisory,
	    digest));
	assert_string_equal(digest, sha256);
}

/* The divergence is exactly one entry about what. */
static const cJSON *
single_divergence(const struct run *r, const char *what)
{
	const cJSON *entry;

	assert_int_equal(cJSON_GetArraySize(r->out.divergence), 1);
	entry = cJSON_GetArrayItem(r->out.divergence, 0);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(entry,
	    "what")->valuestring, what);
	return entry;
}

/* ---- The SPEC example ---- */

static void
test_example_passes_every_rule(void **state)
{
	struct run r;
	size_t i;

	(void)state;
	run_packet(&r, EX_PACKET_LEGAL_DRAFT);
	assert_int_equal(r.out.verdict.rule_count, 3);
	for (i = 0; i < 3; i++) {
		assert_string_equal(r.out.verdict.rules[i].rule_id,
		    rule_order[i]);
		assert_rule(&r, rule_order[i], true);
	}
	assert_true(r.out.verdict.overall_pass);
	assert_false(r.out.verdict.requires_human_approval);
	assert_int_equal(r.out.verdict.reason_count, 0);
	assert_null(r.out.verdict.ips_checked);
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_false(r.out.advisory.overall_pass);
	run_free(&r);
}

static void
test_example_diverges_on_overall_pass_only(void **state)
{
	const cJSON *entry;
	struct run r;

	(void)state;
	run_packet(&r, EX_PACKET_LEGAL_DRAFT);
	entry = single_divergence(&r, "overall_pass");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(entry,
	    "advisory")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(entry,
	    "local")));
	run_free(&r);
}

static void
test_example_approves_the_fixed_text(void **state)
{
	char digest[65];
	struct run r;

	(void)state;
	run_packet(&r, EX_PACKET_LEGAL_DRAFT);
	assert_non_null(r.out.pack->approved_artifact);
	assert_true(r.out.pack->approved_artifact(&r.in, &r.out.advisory,
	    digest));
	assert_string_equal(digest, FIXED_SHA256);
	assert_string_not_equal(digest, DRAFT_SHA256);
	run_free(&r);
}

static void
test_without_fix_the_draft_is_approved(void **state)
{
	char digest[65];
	struct run r;

	(void)state;
	run_verdict(&r, "true", "[]", "[" FORMAT_ISSUE "]", "[]");
	assert_true(r.out.verdict.overall_pass);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	assert_true(r.out.pack->approved_artifact(&r.in, &r.out.advisory,
	    digest));
	assert_string_equal(digest, DRAFT_SHA256);
	run_free(&r);
}

static void
test_who_and_summary(void **state)
{
	char summary[128];
	struct run r;

	(void)state;
	run_packet(&r, EX_PACKET_LEGAL_DRAFT);
	assert_string_equal(r.out.pack->who(r.in.action), "drafting-graph");
	r.out.pack->summarize(r.in.action, summary, sizeof summary);
	assert_string_equal(summary, "recovery_suit (civil)");
	run_free(&r);
}

/* ---- The advisory's forms ---- */

static void
test_advisory_as_object(void **state)
{
	char *verdict = verdict_text("false", "[" LEGAL_ISSUE "]",
	    "[" FORMAT_ISSUE "]", FIX);
	char digest[65];
	struct run r;

	(void)state;
	run_with(&r, verdict, "[]");
	free(verdict);
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_null(r.out.advisory.owned);
	assert_true(r.out.verdict.overall_pass);
	single_divergence(&r, "overall_pass");
	assert_true(r.out.pack->approved_artifact(&r.in, &r.out.advisory,
	    digest));
	assert_string_equal(digest, FIXED_SHA256);
	run_free(&r);
}

static void
test_advisory_as_fenced_string(void **state)
{
	struct run r;

	(void)state;
	run_with(&r, "\"Sure.\\n```json\\n{\\\"review_pass\\\": true, "
	    "\\\"blocking_issues\\\": [], \\\"non_blocking_issues\\\": [], "
	    "\\\"final_artifacts\\\": []}\\n```\\nDone.\"", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_non_null(r.out.advisory.owned);
	assert_true(r.out.advisory.overall_pass);
	assert_true(r.out.verdict.overall_pass);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
}

/*
 * SPEC 2.2 (v2): with no verdict every rule passes (no known issue), the
 * draft is approved, and that is high stakes (no_review), the divergence
 * an unavailable advisory.
 */
static void
assert_no_verdict(const struct run *r)
{
	const cJSON *entry;

	assert_int_equal(r->out.verdict.rule_count, 3);
	assert_rule(r, "no_unfixed_legal_issues", true);
	assert_detail_has(r, "no_unfixed_legal_issues", "no usable review");
	assert_rule(r, "gates_clear", true);
	assert_rule(r, "review_pass_consistent", true);
	assert_true(r->out.verdict.overall_pass);
	assert_null(verdict_reason(&r->out.verdict, "failed_rules"));
	assert_reason(r, "no_review", "gates-only quality");
	assert_int_equal(r->out.verdict.reason_count, 1);
	assert_approves(r, DRAFT_SHA256);
	entry = single_divergence(r, "advisory_verdict");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(entry,
	    "advisory")));
}

static void
test_advisory_unparseable_string(void **state)
{
	struct run r;

	(void)state;
	run_with(&r, "\"I could not review this {document}, sorry.\"", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	assert_reason(&r, "no_review", "no complete JSON object");
	run_free(&r);
}

static void
test_advisory_missing(void **state)
{
	struct run r;

	(void)state;
	run_with(&r, NULL, "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_MISSING);
	assert_no_verdict(&r);
	assert_reason(&r, "no_review", "no review verdict was received");
	run_free(&r);
	run_with(&r, "null", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_MISSING);
	assert_no_verdict(&r);
	run_free(&r);
}

static void
test_advisory_of_another_type(void **state)
{
	struct run r;

	(void)state;
	run_with(&r, "42", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	assert_reason(&r, "no_review", "not an object");
	run_free(&r);
}

/*
 * SPEC 2.2: a verdict object with review_pass is a review, however it is
 * shaped; one without is no review (no_review).  It is read leniently: the
 * missing lists are empty and review_pass other than true is false.
 */
static void
test_advisory_object_of_loose_shape_is_read(void **state)
{
	const cJSON *entry;
	struct run r;

	(void)state;
	/* No non_blocking_issues, no final_artifacts: an agreeing pass. */
	run_with(&r, "{\"review_pass\": true, \"blocking_issues\": []}", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_true(r.out.verdict.overall_pass);
	assert_false(r.out.verdict.requires_human_approval);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
	/* Nothing but review_pass, in raw output. */
	run_with(&r, "\"```json\\n{\\\"review_pass\\\": true}\\n```\"", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_true(r.out.verdict.overall_pass);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
	/* review_pass as a string, in raw output: taken as false. */
	run_with(&r, "\"{\\\"review_pass\\\": \\\"yes\\\", "
	    "\\\"blocking_issues\\\": [], \\\"non_blocking_issues\\\": []}\"",
	    "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_false(r.out.advisory.overall_pass);
	assert_rule(&r, "review_pass_consistent", true);
	assert_detail_has(&r, "review_pass_consistent", "taken as false");
	assert_true(r.out.verdict.overall_pass);
	entry = single_divergence(&r, "overall_pass");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(entry,
	    "advisory")));
	run_free(&r);
	/* No review_pass at all: not a verdict object. */
	run_with(&r, "{\"blocking_issues\": []}", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	assert_reason(&r, "no_review", "has no review_pass");
	run_free(&r);
	/* Null lists are empty; non_blocking_issues may be anything. */
	run_with(&r, "{\"review_pass\": true, \"blocking_issues\": null, "
	    "\"non_blocking_issues\": 7, \"final_artifacts\": null}", "[]");
	assert_true(r.out.verdict.overall_pass);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
}

/* A severity that is not "formatting" (in any case) may be legal. */
static void
test_severity_other_than_formatting_is_legal(void **state)
{
	static const char *const legal[] = { "\"Legal\"", "\"LEGAL\"",
	    "\"critical\"", "\"\"", "null", "3" };
	static const char *const formatting[] = { "\"formatting\"",
	    "\"Formatting\"", "\"FORMATTING\"" };
	char verdict[256];
	struct run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof legal / sizeof legal[0]; i++) {
		snprintf(verdict, sizeof verdict, "{\"review_pass\": true, "
		    "\"blocking_issues\": [{\"issue\": \"x\", \"severity\": "
		    "%s}], \"non_blocking_issues\": []}", legal[i]);
		run_with(&r, verdict, "[]");
		assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
		assert_rule(&r, "no_unfixed_legal_issues", false);
		assert_rule(&r, "review_pass_consistent", false);
		single_divergence(&r, "overall_pass");
		run_free(&r);
	}
	/* No severity at all. */
	run_with(&r, "{\"review_pass\": false, \"blocking_issues\": "
	    "[{\"issue\": \"x\"}]}", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	run_free(&r);
	for (i = 0; i < sizeof formatting / sizeof formatting[0]; i++) {
		snprintf(verdict, sizeof verdict, "{\"review_pass\": true, "
		    "\"blocking_issues\": [{\"issue\": \"x\", \"severity\": "
		    "%s}], \"non_blocking_issues\": []}", formatting[i]);
		run_with(&r, verdict, "[]");
		assert_rule(&r, "no_unfixed_legal_issues", true);
		assert_true(r.out.verdict.overall_pass);
		run_free(&r);
	}
}

/* Lists of the wrong type fail rule 1 closed, saying what is wrong. */
static void
test_unreadable_lists_fail_rule_1_closed(void **state)
{
	static const struct {
		const char *verdict;
		const char *detail;
	} cases[] = {
		{ "{\"review_pass\": true, \"blocking_issues\": \"none\"}",
		    "blocking_issues is not an array" },
		{ "{\"review_pass\": true, \"blocking_issues\": {}}",
		    "blocking_issues is not an array" },
		{ "{\"review_pass\": true, \"blocking_issues\": [" FORMAT_ISSUE
		    ", \"x\"]}", "blocking_issues[1] is not an object" },
		{ "{\"review_pass\": true, \"blocking_issues\": [], "
		    "\"final_artifacts\": {\"text\": \"t\"}}",
		    "final_artifacts is not an array" },
	};
	struct run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run_with(&r, cases[i].verdict, "[]");
		assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
		assert_rule(&r, "no_unfixed_legal_issues", false);
		assert_detail_has(&r, "no_unfixed_legal_issues",
		    cases[i].detail);
		/* review_pass true while rule 1 fails. */
		assert_rule(&r, "review_pass_consistent", false);
		assert_rule(&r, "gates_clear", true);
		single_divergence(&r, "overall_pass");
		run_free(&r);
	}
	/*
	 * An artifact without text is no inline fix (the approved text is
	 * then the draft, SPEC 2.2): it leaves a legal issue unfixed, and
	 * with no legal issue rule 1 passes, as its "iff" says.
	 */
	run_with(&r, "{\"review_pass\": true, \"blocking_issues\": ["
	    LEGAL_ISSUE "], \"final_artifacts\": [{}]}", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_detail_has(&r, "no_unfixed_legal_issues",
	    "final_artifacts[0] has no text");
	assert_rule(&r, "review_pass_consistent", false);
	run_free(&r);
	run_with(&r, "{\"review_pass\": true, \"blocking_issues\": [], "
	    "\"final_artifacts\": [{}]}", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", true);
	assert_rule(&r, "review_pass_consistent", true);
	assert_true(r.out.verdict.overall_pass);
	run_free(&r);
	run_with(&r, "{\"review_pass\": true, \"blocking_issues\": ["
	    LEGAL_ISSUE "], \"final_artifacts\": [{\"text\": \"t\"}, "
	    "\"u\"]}", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", true);
	run_free(&r);
	/* With review_pass false, only rule 1 fails. */
	run_with(&r, "{\"review_pass\": false, \"blocking_issues\": 1}", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_rule(&r, "review_pass_consistent", true);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
}

/* SPEC 1 and 4: a verdict naming another action is unavailable. */
static void
test_advisory_about_another_action(void **state)
{
	static const char *const verdicts[] = {
		"{\"action_id\": \"OTHER\", \"review_pass\": true, "
		    "\"blocking_issues\": [], \"non_blocking_issues\": [], "
		    "\"final_artifacts\": []}",
		"\"```json\\n{\\\"action_id\\\": \\\"OTHER\\\", "
		    "\\\"review_pass\\\": true, \\\"blocking_issues\\\": []}\\n"
		    "```\"",
		/* Otherwise unreadable: still about another action (B5). */
		"{\"action_id\": \"OTHER\", \"review_pass\": \"yes\", "
		    "\"blocking_issues\": 3}",
	};
	const cJSON *entry;
	struct run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++) {
		run_with(&r, verdicts[i], "[]");
		assert_int_equal(r.out.advisory.state, ADVISORY_OTHER_ACTION);
		assert_reason(&r, "no_review", "another action (OTHER)");
		assert_rule(&r, "no_unfixed_legal_issues", true);
		assert_rule(&r, "review_pass_consistent", true);
		assert_true(r.out.verdict.overall_pass);
		entry = single_divergence(&r, "action_id");
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(entry,
		    "advisory")->valuestring, "OTHER");
		assert_string_equal(cJSON_GetObjectItemCaseSensitive(entry,
		    "local")->valuestring, "legal-2026-0042");
		run_free(&r);
	}
	/* Its own action_id, or one that is not a string, changes nothing. */
	run_with(&r, "{\"action_id\": \"legal-2026-0042\", \"review_pass\": "
	    "true, \"blocking_issues\": []}", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
	run_with(&r, "{\"action_id\": 7, \"review_pass\": true, "
	    "\"blocking_issues\": []}", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	run_free(&r);
}

static void
test_first_object_in_output_is_the_verdict(void **state)
{
	struct run r;

	(void)state;
	/*
	 * SPEC 2.2: the first complete object, even when a later one fits.
	 * Without review_pass it is not a verdict: none was obtained.
	 */
	run_with(&r, "\"Example: {\\\"n\\\": 1}. Verdict: {\\\"review_pass\\\": "
	    "true, \\\"blocking_issues\\\": [], \\\"non_blocking_issues\\\": "
	    "[]}\"", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	assert_reason(&r, "no_review", "first complete JSON object in the "
	    "reviewer's output has no review_pass");
	run_free(&r);
}

/*
 * A verdict that does not parse (here a duplicate key) or is cut short
 * holds its issues as complete objects.  The first of them, read as the
 * verdict, would report no issue and pass every rule: none must be taken.
 */
static void
test_issue_inside_a_broken_verdict_is_not_the_verdict(void **state)
{
	struct run r;

	(void)state;
	run_with(&r, "\"{\\\"review_pass\\\": true, \\\"review_pass\\\": true, "
	    "\\\"blocking_issues\\\": [{\\\"issue\\\": \\\"void clause\\\", "
	    "\\\"severity\\\": \\\"legal\\\"}], \\\"final_artifacts\\\": []}\"",
	    "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	run_free(&r);
	run_with(&r, "\"{\\\"review_pass\\\": true, \\\"blocking_issues\\\": "
	    "[{\\\"issue\\\": \\\"void clause\\\", \\\"severity\\\": "
	    "\\\"legal\\\"}], \\\"final_a\"", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	run_free(&r);
}

/*
 * Raw output whose first verdict reports a legal issue but does not parse
 * (here a duplicate key), followed by a clean one: the first complete
 * object is the verdict (SPEC 2.2), so no verdict was obtained; the
 * second must not be taken instead and pass the draft.
 */
static void
test_second_verdict_does_not_replace_a_broken_first(void **state)
{
	struct run r;

	(void)state;
	run_with(&r, "\"{\\\"review_pass\\\": false, \\\"review_pass\\\": false, "
	    "\\\"blocking_issues\\\": [{\\\"issue\\\": \\\"void clause\\\", "
	    "\\\"severity\\\": \\\"legal\\\"}], \\\"final_artifacts\\\": []} "
	    "{\\\"review_pass\\\": true, \\\"blocking_issues\\\": [], "
	    "\\\"final_artifacts\\\": []}\"", "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_UNPARSEABLE);
	assert_no_verdict(&r);
	run_free(&r);
}

/* ---- Rule 1: no_unfixed_legal_issues ---- */

static void
test_unfixed_legal_issue_fails(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "false", "[" FORMAT_ISSUE ", " LEGAL_ISSUE "]", "[]",
	    "[]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_detail_has(&r, "no_unfixed_legal_issues",
	    "Limitation period not pleaded");
	assert_rule(&r, "review_pass_consistent", true);
	assert_false(r.out.verdict.overall_pass);
	assert_true(r.out.verdict.requires_human_approval);
	/* Both fail the draft: they agree. */
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
}

static void
test_missing_final_artifacts_counts_as_no_fix(void **state)
{
	char digest[65];
	struct run r;

	(void)state;
	run_verdict(&r, "false", "[" LEGAL_ISSUE "]", "[]", NULL);
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_true(r.out.pack->approved_artifact(&r.in, &r.out.advisory,
	    digest));
	assert_string_equal(digest, DRAFT_SHA256);
	run_free(&r);
}

static void
test_fixed_legal_issue_passes(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "true", "[" LEGAL_ISSUE "]", "[]", FIX);
	assert_rule(&r, "no_unfixed_legal_issues", true);
	assert_rule(&r, "review_pass_consistent", true);
	assert_true(r.out.verdict.overall_pass);
	assert_int_equal(cJSON_GetArraySize(r.out.divergence), 0);
	run_free(&r);
}

static void
test_formatting_issues_never_block(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "false", "[" FORMAT_ISSUE ", " FORMAT_ISSUE "]",
	    "[" LEGAL_ISSUE "]", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", true);
	assert_true(r.out.verdict.overall_pass);
	single_divergence(&r, "overall_pass");
	run_free(&r);
}

static void
test_long_issue_is_clipped_on_a_character(void **state)
{
	char issue[700], blocking[800];
	const char *detail, *quote, *end;
	struct run r;
	size_t i;

	(void)state;
	/* 300 two-byte characters: a byte cut would split one. */
	for (i = 0; i < 300; i++)
		memcpy(issue + 2 * i, "\xc3\xa9", 2);
	issue[600] = '\0';
	snprintf(blocking, sizeof blocking, "[{\"issue\": \"%s\", "
	    "\"severity\": \"legal\"}]", issue);
	run_verdict(&r, "false", blocking, "[]", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	detail = rule(&r, "no_unfixed_legal_issues")->detail;
	quote = strchr(detail, '"');
	assert_non_null(quote);
	end = strstr(quote, "...\"");
	assert_non_null(end);
	/* Whole characters only, and far fewer than 300 of them. */
	assert_int_equal((end - quote - 1) % 2, 0);
	assert_true(end - quote - 1 <= 160);
	assert_true(end - quote - 1 > 100);
	run_free(&r);
}

/* ---- Rule 2: gates_clear ---- */

static void
test_gate_errors_fail(void **state)
{
	char *verdict = verdict_text("true", "[]", "[]", "[]");
	struct run r;

	(void)state;
	run_with(&r, verdict, "[{\"gate\": \"citation_check\", \"message\": "
	    "\"Section 34 cited twice\"}, {\"gate\": \"party_names\", "
	    "\"message\": \"Defendant unnamed\"}]");
	free(verdict);
	assert_rule(&r, "gates_clear", false);
	assert_detail_has(&r, "gates_clear", "2 gate errors");
	assert_detail_has(&r, "gates_clear", "citation_check, party_names");
	assert_rule(&r, "no_unfixed_legal_issues", true);
	assert_false(r.out.verdict.overall_pass);
	assert_true(r.out.verdict.requires_human_approval);
	/* The advisory passes what fails locally. */
	single_divergence(&r, "overall_pass");
	run_free(&r);
}

static void
test_absent_gate_errors_pass(void **state)
{
	char *verdict = verdict_text("true", "[]", "[]", "[]");
	struct run r;

	(void)state;
	run_with(&r, verdict, NULL);
	free(verdict);
	assert_rule(&r, "gates_clear", true);
	assert_true(r.out.verdict.overall_pass);
	run_free(&r);
}

/* ---- Rule 3: review_pass_consistent ---- */

static void
test_review_passing_unfixed_legal_issue_fails(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "true", "[" LEGAL_ISSUE "]", "[]", "[]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_rule(&r, "review_pass_consistent", false);
	assert_detail_has(&r, "review_pass_consistent", "review_pass true");
	assert_false(r.out.verdict.overall_pass);
	single_divergence(&r, "overall_pass");
	run_free(&r);
}

static void
test_review_passing_clean_draft_is_consistent(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "true", "[]", "[]", "[]");
	assert_rule(&r, "review_pass_consistent", true);
	assert_true(r.out.verdict.overall_pass);
	assert_false(r.out.verdict.requires_human_approval);
	run_free(&r);
}

/* ---- The detail view ---- */

static bool
has_line(const struct detail *d, enum detail_style style, const char *text)
{
	size_t i;

	for (i = 0; i < d->count; i++) {
		if (d->lines[i].style == style &&
		    strstr(d->lines[i].text, text) != NULL)
			return true;
	}
	return false;
}

/* Index of the first line containing text, or -1. */
static long
line_of(const struct detail *d, const char *text)
{
	size_t i;

	for (i = 0; i < d->count; i++) {
		if (strstr(d->lines[i].text, text) != NULL)
			return (long)i;
	}
	return -1;
}

static void
describe(const struct run *r, struct detail *d)
{
	memset(d, 0, sizeof *d);
	assert_non_null(r->out.pack->describe);
	assert_int_equal(r->out.pack->describe(&r->in, &r->out.advisory, d), 0);
}

static void
test_describe_example_shows_fix_and_diff(void **state)
{
	struct detail d;
	struct run r;

	(void)state;
	run_packet(&r, EX_PACKET_LEGAL_DRAFT);
	describe(&r, &d);
	assert_true(has_line(&d, DETAIL_PLAIN, "4,20,000 dated 3 March 2025"));
	assert_true(has_line(&d, DETAIL_PLAIN, "recovery_suit (civil)"));
	assert_true(has_line(&d, DETAIL_HEADING, "Approving approves the "
	    "INLINE FIX (final_artifacts[0].text), not the draft"));
	/* The approved text in full, as lines, then the draft as a diff. */
	assert_true(has_line(&d, DETAIL_PLAIN, "  7. LIMITATION"));
	assert_true(has_line(&d, DETAIL_HEADING, "NOT approved: the "
	    "first-pass draft"));
	assert_true(has_line(&d, DETAIL_ADDED, "7. LIMITATION"));
	/* The draft's lines stay: context, not removals. */
	assert_true(has_line(&d, DETAIL_DIM, "1. The plaintiff supplied"));
	assert_false(has_line(&d, DETAIL_REMOVED, ""));
	assert_false(has_line(&d, DETAIL_PLAIN, "^J"));
	/* The legal blocking issue is loud; the formatting one is not. */
	assert_true(has_line(&d, DETAIL_ALERT, "[legal] Limitation: "
	    "Limitation period not pleaded"));
	assert_false(has_line(&d, DETAIL_ALERT, "Annexure"));
	assert_true(line_of(&d, "Annexure labels inconsistent") >= 0);
	/* The texts come after the heading that says what is approved. */
	assert_true(line_of(&d, "7. LIMITATION") >
	    line_of(&d, "Approving approves the INLINE FIX"));
	detail_free(&d);
	run_free(&r);
}

static void
test_describe_groups_legal_first(void **state)
{
	struct detail d;
	struct run r;

	(void)state;
	run_verdict(&r, "false", "[" FORMAT_ISSUE ", " LEGAL_ISSUE "]", "[]",
	    "[]");
	describe(&r, &d);
	assert_true(line_of(&d, "Limitation period") >= 0);
	assert_true(line_of(&d, "Limitation period") <
	    line_of(&d, "Annexure labels"));
	/* No fix: the draft is what an approval approves, and no diff. */
	assert_false(has_line(&d, DETAIL_HEADING, "INLINE FIX"));
	assert_false(has_line(&d, DETAIL_ADDED, ""));
	assert_true(has_line(&d, DETAIL_HEADING, "Approving approves the "
	    "FIRST-PASS DRAFT (draft_text)"));
	detail_free(&d);
	run_free(&r);
}

static void
test_describe_sanitizes_and_shows_gates(void **state)
{
	struct detail d;
	struct run r;
	size_t i;

	(void)state;
	run_with(&r, NULL, "[{\"gate\": \"cite\\u001b]0;owned\\u0007\", "
	    "\"message\": \"bad \\u202e text\"}]");
	describe(&r, &d);
	assert_true(has_line(&d, DETAIL_ALERT, "cite\\e]0;owned^G: bad "
	    "<U+202E> text"));
	assert_true(has_line(&d, DETAIL_ALERT, "Review: NONE USABLE (no "
	    "review verdict was received)"));
	for (i = 0; i < d.count; i++)
		assert_null(strchr(d.lines[i].text, '\x1b'));
	detail_free(&d);
	run_free(&r);
}


/* ---- v2 routing of the approved text (SPEC 2.2) ---- */

#define REWRITE "[{\"text\": \"A REWRITE NOBODY ASKED FOR\"}]"
#define GATE_ERRORS \
	"[{\"gate\": \"citation_check\", \"message\": \"Section 34 cited twice\"}]"
#define FALLBACK \
	"{\"review_pass\": false, \"blocking_issues\": [], " \
	"\"non_blocking_issues\": [], \"final_artifacts\": [], " \
	"\"error\": \"all 3 attempts failed\"}"

/* "No legal blocking issues -> promote pass-1", even with a rewrite. */
static void
test_formatting_only_promotes_the_draft(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "true", "[" FORMAT_ISSUE "]", "[]", REWRITE);
	assert_true(r.out.verdict.overall_pass);
	assert_false(r.out.verdict.requires_human_approval);
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
	/* No issue at all, a rewrite: still the draft. */
	run_verdict(&r, "true", "[]", "[]", FIX);
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
	/* A legal issue among non-blocking ones routes nothing. */
	run_verdict(&r, "true", "[]", "[" LEGAL_ISSUE "]", FIX);
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
}

/* "Legal issues + inline fix -> use corrected artifacts". */
static void
test_legal_issue_with_fix_approves_the_fix(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "false", "[" FORMAT_ISSUE ", " LEGAL_ISSUE "]", "[]",
	    FIX);
	assert_true(r.out.verdict.overall_pass);
	assert_false(r.out.verdict.requires_human_approval);
	assert_approves(&r, FIXED_SHA256);
	run_free(&r);
}

/* An empty fix text is no fix: the legal issue stays unfixed. */
static void
test_empty_fix_text_is_no_fix(void **state)
{
	struct run r;

	(void)state;
	run_verdict(&r, "true", "[" LEGAL_ISSUE "]", "[]", "[{\"text\": \"\"}]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_detail_has(&r, "no_unfixed_legal_issues",
	    "final_artifacts[0].text is empty");
	assert_rule(&r, "review_pass_consistent", false);
	assert_reason(&r, "failed_rules", "no_unfixed_legal_issues");
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
	/* A text in a later artifact is not what would be approved. */
	run_verdict(&r, "false", "[" LEGAL_ISSUE "]", "[]",
	    "[{\"text\": \"\"}, {\"text\": \"fixed\"}]");
	assert_rule(&r, "no_unfixed_legal_issues", false);
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
}

/* Gate errors block the draft, not a fix they never saw (unregated_fix). */
static void
test_gate_errors_and_the_approved_text(void **state)
{
	char *verdict;
	struct run r;

	(void)state;
	verdict = verdict_text("false", "[" LEGAL_ISSUE "]", "[]", FIX);
	run_with(&r, verdict, GATE_ERRORS);
	free(verdict);
	assert_rule(&r, "gates_clear", true);
	assert_detail_has(&r, "gates_clear", "inline fix");
	assert_true(r.out.verdict.overall_pass);
	assert_reason(&r, "unregated_fix", "1 error");
	assert_int_equal(r.out.verdict.reason_count, 1);
	assert_approves(&r, FIXED_SHA256);
	run_free(&r);
	/* Formatting only, with a rewrite: the draft, so the gates count. */
	verdict = verdict_text("true", "[" FORMAT_ISSUE "]", "[]", REWRITE);
	run_with(&r, verdict, GATE_ERRORS);
	free(verdict);
	assert_rule(&r, "gates_clear", false);
	assert_detail_has(&r, "gates_clear", "citation_check");
	assert_null(verdict_reason(&r.out.verdict, "unregated_fix"));
	assert_reason(&r, "failed_rules", "gates_clear");
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
	/* A legal issue with an empty fix: the draft, gates count too. */
	verdict = verdict_text("false", "[" LEGAL_ISSUE "]", "[]",
	    "[{\"text\": \"\"}]");
	run_with(&r, verdict, GATE_ERRORS);
	free(verdict);
	assert_rule(&r, "gates_clear", false);
	assert_null(verdict_reason(&r.out.verdict, "unregated_fix"));
	run_free(&r);
	/* No review: the draft, gates count, and both reasons. */
	run_with(&r, NULL, GATE_ERRORS);
	assert_rule(&r, "gates_clear", false);
	assert_false(r.out.verdict.overall_pass);
	assert_reason(&r, "failed_rules", "gates_clear");
	assert_reason(&r, "no_review", "no review verdict");
	assert_int_equal(r.out.verdict.reason_count, 2);
	run_free(&r);
}

/* "Do NOT block pipeline if review fails": the fallback is no review. */
static void
test_failed_review_is_high_stakes_not_a_failure(void **state)
{
	const cJSON *entry;
	struct run r;

	(void)state;
	run_with(&r, FALLBACK, "[]");
	assert_int_equal(r.out.advisory.state, ADVISORY_AVAILABLE);
	assert_rule(&r, "no_unfixed_legal_issues", true);
	assert_rule(&r, "gates_clear", true);
	assert_rule(&r, "review_pass_consistent", true);
	assert_true(r.out.verdict.overall_pass);
	assert_reason(&r, "no_review", "all 3 attempts failed");
	assert_int_equal(r.out.verdict.reason_count, 1);
	assert_approves(&r, DRAFT_SHA256);
	/* Its review_pass false against the local pass: acknowledged too. */
	entry = single_divergence(&r, "overall_pass");
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(entry,
	    "advisory")));
	run_free(&r);
	/* Issues and a fix beside the error are not a review either. */
	run_with(&r, "{\"review_pass\": true, \"blocking_issues\": ["
	    LEGAL_ISSUE "], \"final_artifacts\": " FIX ", \"error\": "
	    "{\"attempts\": 3}}", "[]");
	assert_true(r.out.verdict.overall_pass);
	assert_reason(&r, "no_review", "{\"attempts\":3}");
	assert_approves(&r, DRAFT_SHA256);
	run_free(&r);
}

/* An empty error is no error: null, false, "", [] and {}. */
static void
test_empty_error_leaves_the_review_usable(void **state)
{
	static const char *const empty[] = { "null", "false", "\"\"", "[]",
	    "{}" };
	static const char *const errors[] = { "\"timeout\"", "true", "0",
	    "[\"x\"]" };
	char verdict[512];
	struct run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof empty / sizeof empty[0]; i++) {
		snprintf(verdict, sizeof verdict, "{\"review_pass\": true, "
		    "\"blocking_issues\": [" LEGAL_ISSUE "], \"error\": %s}",
		    empty[i]);
		run_with(&r, verdict, "[]");
		assert_rule(&r, "no_unfixed_legal_issues", false);
		assert_null(verdict_reason(&r.out.verdict, "no_review"));
		run_free(&r);
	}
	for (i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		snprintf(verdict, sizeof verdict, "{\"review_pass\": true, "
		    "\"blocking_issues\": [" LEGAL_ISSUE "], \"error\": %s}",
		    errors[i]);
		run_with(&r, verdict, "[]");
		assert_rule(&r, "no_unfixed_legal_issues", true);
		assert_reason(&r, "no_review", "the review failed");
		run_free(&r);
	}
}

/* The detail: the error, the checks, the draft as a document. */
static void
test_describe_failed_review_and_checks(void **state)
{
	struct detail d;
	struct run r;
	size_t i;

	(void)state;
	run_with(&r, "{\"review_pass\": false, \"blocking_issues\": [], "
	    "\"error\": \"all 3 attempts failed\", \"checks\": "
	    "[\"limitation pleaded\", {\"check\": \"court fee\", "
	    "\"passed\": false}]}", "[]");
	describe(&r, &d);
	assert_true(has_line(&d, DETAIL_ALERT, "Review: NONE USABLE (the "
	    "review failed: all 3 attempts failed)"));
	assert_true(has_line(&d, DETAIL_ALERT, "Review error: all 3 attempts "
	    "failed"));
	assert_true(has_line(&d, DETAIL_HEADING, "Reviewer's checks (2)"));
	assert_true(has_line(&d, DETAIL_PLAIN, "  - limitation pleaded"));
	assert_true(has_line(&d, DETAIL_PLAIN, "  - {\"check\":\"court fee\","
	    "\"passed\":false}"));
	assert_true(has_line(&d, DETAIL_HEADING, "FIRST-PASS DRAFT"));
	/* Two lines of the draft, no ^J. */
	assert_true(has_line(&d, DETAIL_PLAIN, "  IN THE COURT OF THE CIVIL "
	    "JUDGE ..."));
	assert_true(has_line(&d, DETAIL_PLAIN, "  1. The plaintiff supplied "
	    "goods ..."));
	for (i = 0; i < d.count; i++)
		assert_null(strstr(d.lines[i].text, "JUDGE ...^J"));
	detail_free(&d);
	run_free(&r);
}

static void
test_describe_draft_keeps_controls_visible(void **state)
{
	static const char packet[] = "{\"type\": \"packet\", \"kind\": "
	    "\"legal_draft\", \"proposed_action\": {\"action_id\": \"L-1\", "
	    "\"doc_type\": \"d\", \"law_domain\": \"l\", \"user_request\": "
	    "\"u\", \"draft_text\": \"line one\\r\\n\\u001b[2Jline two\\n"
	    "\\u202eowt\"}, \"reviewer_verdict\": {\"review_pass\": true, "
	    "\"blocking_issues\": [], \"final_artifacts\": " REWRITE "}}";
	struct detail d;
	struct run r;
	size_t i;

	(void)state;
	run_packet(&r, packet);
	describe(&r, &d);
	assert_true(has_line(&d, DETAIL_PLAIN, "  line one^M"));
	assert_true(has_line(&d, DETAIL_PLAIN, "  \\e[2Jline two"));
	assert_true(has_line(&d, DETAIL_PLAIN, "  <U+202E>owt"));
	for (i = 0; i < d.count; i++)
		assert_null(strchr(d.lines[i].text, '\x1b'));
	/* The rewrite is shown as the text not approved, as a diff. */
	assert_true(has_line(&d, DETAIL_HEADING, "NOT approved: the review's "
	    "rewrite"));
	assert_true(has_line(&d, DETAIL_ADDED, "A REWRITE NOBODY ASKED FOR"));
	assert_true(has_line(&d, DETAIL_REMOVED, "line two"));
	detail_free(&d);
	run_free(&r);
}

/* ---- Validation of the proposed action ---- */

/* EX_PACKET_LEGAL_DRAFT with one substitution, loaded: the refused field. */
static void
assert_refused(const char *needle, const char *replacement, const char *field)
{
	const char *at = strstr(EX_PACKET_LEGAL_DRAFT, needle);
	struct loaded_object o;
	struct error err;
	size_t before;
	char *text;
	int rc;

	assert_non_null(at);
	before = (size_t)(at - EX_PACKET_LEGAL_DRAFT);
	text = malloc(strlen(EX_PACKET_LEGAL_DRAFT) + strlen(replacement) + 1);
	assert_non_null(text);
	memcpy(text, EX_PACKET_LEGAL_DRAFT, before);
	strcpy(text + before, replacement);
	strcat(text, at + strlen(needle));
	rc = object_load(text, strlen(text), &o, NULL, &err);
	free(text);
	object_free(&o);
	if (rc != EXIT_DATA || strcmp(err.field, field) != 0)
		fail_msg("rc %d field \"%s\" (want \"%s\"): %s", rc, err.field,
		    field, err.message);
}

static void
test_example_loads(void **state)
{
	struct loaded_object o;
	struct error err;

	(void)state;
	assert_int_equal(object_load(EX_PACKET_LEGAL_DRAFT,
	    strlen(EX_PACKET_LEGAL_DRAFT), &o, NULL, &err), EXIT_OK);
	assert_string_equal(o.kind, "legal_draft");
	assert_string_equal(o.id, "legal-2026-0042");
	assert_string_equal(o.author, "drafting-graph");
	object_free(&o);
}

static void
test_validation_names_the_field(void **state)
{
	(void)state;
	assert_refused("\"draft_text\": \"IN THE COURT OF THE CIVIL JUDGE "
	    "...\\n1. The plaintiff supplied goods ...\",", "",
	    "proposed_action.draft_text");
	assert_refused("\"doc_type\": \"recovery_suit\"", "\"doc_type\": 7",
	    "proposed_action.doc_type");
	assert_refused("\"law_domain\": \"civil\",", "",
	    "proposed_action.law_domain");
	assert_refused("\"user_request\"", "\"user_request_\"",
	    "proposed_action.user_request");
	assert_refused("\"gate_errors\": []", "\"gate_errors\": \"none\"",
	    "proposed_action.gate_errors");
	assert_refused("\"gate_errors\": []", "\"gate_errors\": [\"x\"]",
	    "proposed_action.gate_errors[0]");
	assert_refused("\"gate_errors\": []",
	    "\"gate_errors\": [{\"gate\": 1, \"message\": \"m\"}]",
	    "proposed_action.gate_errors[0].gate");
	assert_refused("\"gate_errors\": []",
	    "\"gate_errors\": [{\"gate\": \"g\"}]",
	    "proposed_action.gate_errors[0].message");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_passes_every_rule),
		cmocka_unit_test(test_example_diverges_on_overall_pass_only),
		cmocka_unit_test(test_example_approves_the_fixed_text),
		cmocka_unit_test(test_without_fix_the_draft_is_approved),
		cmocka_unit_test(test_who_and_summary),
		cmocka_unit_test(test_advisory_as_object),
		cmocka_unit_test(test_advisory_as_fenced_string),
		cmocka_unit_test(test_advisory_unparseable_string),
		cmocka_unit_test(test_advisory_missing),
		cmocka_unit_test(test_advisory_of_another_type),
		cmocka_unit_test(test_advisory_object_of_loose_shape_is_read),
		cmocka_unit_test(test_severity_other_than_formatting_is_legal),
		cmocka_unit_test(test_unreadable_lists_fail_rule_1_closed),
		cmocka_unit_test(test_advisory_about_another_action),
		cmocka_unit_test(test_first_object_in_output_is_the_verdict),
		cmocka_unit_test(
		    test_issue_inside_a_broken_verdict_is_not_the_verdict),
		cmocka_unit_test(
		    test_second_verdict_does_not_replace_a_broken_first),
		cmocka_unit_test(test_unfixed_legal_issue_fails),
		cmocka_unit_test(test_missing_final_artifacts_counts_as_no_fix),
		cmocka_unit_test(test_fixed_legal_issue_passes),
		cmocka_unit_test(test_formatting_issues_never_block),
		cmocka_unit_test(test_long_issue_is_clipped_on_a_character),
		cmocka_unit_test(test_gate_errors_fail),
		cmocka_unit_test(test_absent_gate_errors_pass),
		cmocka_unit_test(test_review_passing_unfixed_legal_issue_fails),
		cmocka_unit_test(test_review_passing_clean_draft_is_consistent),
		cmocka_unit_test(test_describe_example_shows_fix_and_diff),
		cmocka_unit_test(test_describe_groups_legal_first),
		cmocka_unit_test(test_describe_sanitizes_and_shows_gates),
		cmocka_unit_test(test_formatting_only_promotes_the_draft),
		cmocka_unit_test(test_legal_issue_with_fix_approves_the_fix),
		cmocka_unit_test(test_empty_fix_text_is_no_fix),
		cmocka_unit_test(test_gate_errors_and_the_approved_text),
		cmocka_unit_test(
		    test_failed_review_is_high_stakes_not_a_failure),
		cmocka_unit_test(test_empty_error_leaves_the_review_usable),
		cmocka_unit_test(test_describe_failed_review_and_checks),
		cmocka_unit_test(test_describe_draft_keeps_controls_visible),
		cmocka_unit_test(test_example_loads),
		cmocka_unit_test(test_validation_names_the_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
