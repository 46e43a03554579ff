/*
 * Unit tests for the change rule pack (src/domain/rules_change*.c, SPEC
 * 2.3): each of the seven rules passing and failing, the advisory shapes
 * that parse and those that do not, the NEEDS-PO judgments, validation
 * errors naming their field, and what the queue and detail view show.
 * Inputs are the contract's examples (copied verbatim below), edited by
 * dotted path.
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
#include <fnmatch.h>
#include <cjson/cJSON.h>

#include "check.h"
#include "detail.h"
#include "error.h"
#include "exit_codes.h"
#include "rule_pack.h"
#include "verdict.h"
#include "example_json.h"
#include "../../src/domain/rules_change.h"

/* examples/packet-change.json */
#define EX_PACKET_CHANGE \
	"{\"type\": \"packet\", \"kind\": \"change\",\n" \
	" \"proposed_action\": {\n" \
	"   \"action_id\": \"NB-412\", \"author\": \"developer-agent\", \"requested_by\": \"po.kim\",\n" \
	"   \"title\": \"Add markdownlint to the pre-commit gate\",\n" \
	"   \"acceptance_criteria\": [\n" \
	"     {\"id\": \"AC-1\", \"text\": \"markdownlint runs on every changed .md file\"},\n" \
	"     {\"id\": \"AC-2\", \"text\": \"The gate fails on a lint error\"},\n" \
	"     {\"id\": \"AC-3\", \"text\": \"The docs read clearly\"}],\n" \
	"   \"changed_files\": [\"skills/solve/gate.md\", \"scripts/lint.sh\"],\n" \
	"   \"ci_status\": \"green\", \"pr_url\": \"https://example.invalid/pr/412\"},\n" \
	" \"reviewer_verdict\": {\n" \
	"   \"outcome\": \"needs_po\",\n" \
	"   \"ac_results\": [\n" \
	"     {\"ac_id\": \"AC-1\", \"state\": \"MET\", \"evidence\": {\"command\": \"grep -n markdownlint scripts/lint.sh\", \"output\": \"12: markdownlint-cli2 \\\"$@\\\"\"}},\n" \
	"     {\"ac_id\": \"AC-2\", \"state\": \"MET\", \"evidence\": \"ran scripts/lint.sh on a file with MD038: exit 1, 1 error\"},\n" \
	"     {\"ac_id\": \"AC-3\", \"state\": \"NEEDS-PO\", \"evidence\": \"\"}],\n" \
	"   \"standards\": [{\"id\": \"ADR-007\", \"met\": true, \"note\": \"lint pinned to a version\"}],\n" \
	"   \"gaps\": []}}"

/* examples/standards_index.json */
#define EX_STANDARDS_INDEX \
	"{\"type\": \"standards_index\", \"standards\": [\n" \
	"  {\"id\": \"ADR-007\", \"assertion\": \"Every lint tool is pinned to an exact version\", \"status\": \"Accepted\",\n" \
	"   \"applies_to\": {\"file_patterns\": [\"scripts/*.sh\"]}},\n" \
	"  {\"id\": \"ADR-009\", \"assertion\": \"Docs use sentence-case headings\", \"status\": \"Proposed\",\n" \
	"   \"applies_to\": {\"file_patterns\": [\"**/*.md\"]}}]}"

static const char *const change_rules[] = { "ac_coverage",
    "met_has_evidence", "no_unmet", "ci_green", "applicable_standards_met",
    "no_block", "needs_po_judged", "cited_standards_known",
    "deferred_checks_passed" };
#define RULES (sizeof change_rules / sizeof change_rules[0])

/* ---- fixture ---- */

struct cf {
	cJSON *packet;
	cJSON *standards;	/* the standards_index object, or NULL */
	cJSON *judgments;	/* po_judgments, or NULL */
	struct check_input input;
	struct check_outcome outcome;
	struct error err;
	bool ran;
};

static void
cf_setup(struct cf *f)
{
	memset(f, 0, sizeof *f);
	f->packet = ex_parse(EX_PACKET_CHANGE);
	f->standards = ex_parse(EX_STANDARDS_INDEX);
}

/* Edits the packet at a dotted path ("reviewer_verdict.ac_results.0"). */
static void
cf_set(struct cf *f, const char *path, const char *json)
{
	ex_set(f->packet, path, json);
}

static void
cf_set_standards(struct cf *f, const char *path, const char *json)
{
	ex_set(f->standards, path, json);
}

static void
cf_judge(struct cf *f, const char *json)
{
	cJSON_Delete(f->judgments);
	f->judgments = ex_parse(json);
}

static void
cf_input(struct cf *f)
{
	memset(&f->input, 0, sizeof f->input);
	f->input.packet = f->packet;
	f->input.action = cJSON_GetObjectItemCaseSensitive(f->packet,
	    "proposed_action");
	f->input.standards = f->standards;
	f->input.po_judgments = f->judgments;
	f->input.now_ms = EX_NOW_MS;
}

static void
cf_run(struct cf *f)
{
	assert_false(f->ran);
	cf_input(f);
	if (check_run(&f->input, &f->outcome, &f->err) != 0)
		fail_msg("check_run failed: %s: %s", f->err.field,
		    f->err.message);
	f->ran = true;
}

static void
cf_free(struct cf *f)
{
	if (f->ran)
		check_outcome_free(&f->outcome);
	cJSON_Delete(f->packet);
	cJSON_Delete(f->standards);
	cJSON_Delete(f->judgments);
	memset(f, 0, sizeof *f);
}

static const struct rule_result *
cf_rule(const struct cf *f, const char *rule_id)
{
	const struct rule_result *r;

	assert_true(f->ran);
	r = verdict_rule(&f->outcome.verdict, rule_id);
	if (r == NULL)
		fail_msg("local verdict lacks rule %s", rule_id);
	return r;
}

static void
cf_passes(const struct cf *f, const char *rule_id)
{
	const struct rule_result *r = cf_rule(f, rule_id);

	if (!r->passed)
		fail_msg("rule %s failed (%s), expected a pass", rule_id,
		    r->detail ? r->detail : "no detail");
	assert_non_null(r->detail);
}

/* Fails, with a detail that mentions needle (when given). */
static void
cf_fails(const struct cf *f, const char *rule_id, const char *needle)
{
	const struct rule_result *r = cf_rule(f, rule_id);

	if (r->passed)
		fail_msg("rule %s passed (%s), expected a failure", rule_id,
		    r->detail ? r->detail : "no detail");
	assert_non_null(r->detail);
	assert_true(r->detail[0] != '\0');
	if (needle != NULL && strstr(r->detail, needle) == NULL)
		fail_msg("rule %s detail \"%s\" lacks \"%s\"", rule_id,
		    r->detail, needle);
}

/* The failing rules, "a, b", compared to want ("" for none). */
static void
cf_failing_are(const struct cf *f, const char *want)
{
	char *failing = verdict_failing_rules(&f->outcome.verdict);

	assert_non_null(failing);
	if (strcmp(failing, want) != 0) {
		print_error("failing: [%s], want [%s]\n", failing, want);
		free(failing);
		fail();
	}
	free(failing);
}

/* The divergence is exactly one entry, about what. */
static void
cf_one_divergence(const struct cf *f, const char *what)
{
	const cJSON *entry;

	assert_int_equal(cJSON_GetArraySize(f->outcome.divergence), 1);
	entry = cJSON_GetArrayItem(f->outcome.divergence, 0);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(entry,
	    "what")->valuestring, what);
}

static int
cf_unjudged(struct cf *f)
{
	const struct rule_pack *pack = rule_pack_find("change");

	assert_true(f->ran);
	assert_non_null(pack->unjudged_criteria);
	return pack->unjudged_criteria(&f->input, &f->outcome.advisory);
}

/* The packet's reviewer_verdict read on its own. */
static enum advisory_state
advisory_state_of(const char *verdict_json, bool *overall_pass)
{
	const struct rule_pack *pack = rule_pack_find("change");
	struct advisory advisory;
	cJSON *verdict = ex_parse(verdict_json);
	enum advisory_state state;

	assert_int_equal(pack->read_advisory(verdict, "NB-412", &advisory), 0);
	state = advisory.state;
	if (overall_pass != NULL)
		*overall_pass = advisory.overall_pass;
	advisory_free(&advisory);
	cJSON_Delete(verdict);
	return state;
}

/* ---- the example ---- */

static void
test_example_check_fails_only_needs_po_judged(void **state)
{
	struct cf f;
	size_t i;

	(void)state;
	cf_setup(&f);
	cf_run(&f);
	assert_string_equal(f.outcome.pack->kind, "change");
	assert_int_equal(f.outcome.verdict.rule_count, RULES);
	for (i = 0; i < RULES; i++) {
		assert_string_equal(f.outcome.verdict.rules[i].rule_id,
		    change_rules[i]);
		assert_non_null(f.outcome.verdict.rules[i].description);
		assert_true(f.outcome.verdict.rules[i].description[0] != '\0');
	}
	cf_failing_are(&f, "needs_po_judged");
	cf_fails(&f, "needs_po_judged", "AC-3");
	assert_false(f.outcome.verdict.overall_pass);
	/* For every kind but trade: a human must approve what fails. */
	assert_true(f.outcome.verdict.requires_human_approval);
	assert_int_equal(cf_unjudged(&f), 1);
	cf_free(&f);
}

static void
test_example_judged_met_passes_everything(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_run(&f);
	cf_failing_are(&f, "");
	assert_true(f.outcome.verdict.overall_pass);
	/* v2: AC-2's plain-string evidence and no head_sha are high stakes. */
	assert_true(f.outcome.verdict.requires_human_approval);
	assert_int_equal(f.outcome.verdict.reason_count, 2);
	assert_string_equal(f.outcome.verdict.high_stakes_reasons[0].code,
	    "uncited_evidence");
	assert_non_null(strstr(f.outcome.verdict.high_stakes_reasons[0].detail,
	    "AC-2"));
	assert_string_equal(f.outcome.verdict.high_stakes_reasons[1].code,
	    "no_commit");
	assert_int_equal(cJSON_GetArraySize(f.outcome.divergence), 0);
	assert_int_equal(cf_unjudged(&f), 0);
	cf_free(&f);
}

/* Cited evidence and a commit: nothing for a human to weigh. */
static void
test_cited_evidence_and_commit_need_no_human(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.1.evidence",
	    "{\"file\": \"scripts/lint.sh\", \"line\": 12, "
	    "\"proved\": \"the gate exits 1\"}");
	cf_set(&f, "proposed_action.head_sha",
	    "\"0123456789abcdef0123456789abcdef01234567\"");
	cf_run(&f);
	cf_failing_are(&f, "");
	assert_false(f.outcome.verdict.requires_human_approval);
	assert_int_equal(f.outcome.verdict.reason_count, 0);
	cf_free(&f);
}

/* needs_po reads as an advisory pass; the local check fails until judged. */
static void
test_example_divergence_is_overall_pass(void **state)
{
	const cJSON *entry;
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_AVAILABLE);
	assert_true(f.outcome.advisory.overall_pass);
	cf_one_divergence(&f, "overall_pass");
	entry = cJSON_GetArrayItem(f.outcome.divergence, 0);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(entry,
	    "advisory")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(entry,
	    "local")));
	cf_free(&f);
}

/* Only the overall pass is compared for change: no per-rule entries. */
static void
test_sent_back_diverges_from_local_pass(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.outcome", "\"sent_back\"");
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_run(&f);
	assert_true(f.outcome.verdict.overall_pass);
	assert_false(f.outcome.advisory.overall_pass);
	cf_one_divergence(&f, "overall_pass");
	cf_free(&f);
}

static void
test_check_line_has_change_shape(void **state)
{
	cJSON *line, *local;
	char *text;
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_run(&f);
	text = check_outcome_text(&f.outcome);
	assert_non_null(text);
	line = cJSON_Parse(text);
	free(text);
	assert_non_null(line);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(line,
	    "kind")->valuestring, "change");
	local = cJSON_GetObjectItemCaseSensitive(line, "local_verdict");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(local,
	    "ips_version_checked_against")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    local, "rule_results")), (int)RULES);
	cJSON_Delete(line);
	cf_free(&f);
}

/* ---- 1. ac_coverage ---- */

static void
test_coverage_missing_result_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.1", NULL);	/* AC-2 */
	cf_run(&f);
	cf_fails(&f, "ac_coverage", "AC-2 has no result");
	cf_failing_are(&f, "ac_coverage");
	cf_free(&f);
}

static void
test_coverage_two_results_fail(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.3", "{\"ac_id\": \"AC-1\", "
	    "\"state\": \"MET\", \"evidence\": \"again\"}");
	cf_run(&f);
	cf_fails(&f, "ac_coverage", "AC-1 has 2 results");
	cf_failing_are(&f, "ac_coverage");
	cf_free(&f);
}

static void
test_coverage_unknown_criterion_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.3", "{\"ac_id\": \"AC-9\", "
	    "\"state\": \"MET\", \"evidence\": \"x\"}");
	cf_run(&f);
	cf_fails(&f, "ac_coverage", "ac_results[3] names AC-9");
	cf_failing_are(&f, "ac_coverage");
	cf_free(&f);
}

/* Ids are compared exactly: "ac-1" is not AC-1. */
static void
test_coverage_ids_are_case_sensitive(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.0.ac_id", "\"ac-1\"");
	cf_run(&f);
	cf_fails(&f, "ac_coverage", "AC-1 has no result");
	cf_fails(&f, "ac_coverage", "names ac-1");
	cf_free(&f);
}

/* Many offenders: the detail names the first few and counts the rest. */
static void
test_coverage_detail_counts_the_rest(void **state)
{
	char path[64];
	struct cf f;
	int i;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	for (i = 0; i < 12; i++) {
		snprintf(path, sizeof path, "reviewer_verdict.ac_results.%d",
		    3 + i);
		cf_set(&f, path, "{\"ac_id\": \"X\", \"state\": \"MET\", "
		    "\"evidence\": \"x\"}");
	}
	cf_run(&f);
	cf_fails(&f, "ac_coverage", "and 4 more");
	cf_free(&f);
}

/* SPEC 2.3 "fails iff": no criteria and no results leave nothing uncovered. */
static void
test_coverage_no_criteria_passes(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "proposed_action.acceptance_criteria", "[]");
	cf_set(&f, "reviewer_verdict.ac_results", "[]");
	cf_run(&f);
	cf_passes(&f, "ac_coverage");
	assert_non_null(strstr(cf_rule(&f, "ac_coverage")->detail,
	    "no acceptance criteria"));
	cf_free(&f);
}

/* ---- 2. met_has_evidence ---- */

static void
test_met_with_empty_evidence_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.1.evidence", "\"\"");
	cf_run(&f);
	cf_fails(&f, "met_has_evidence", "AC-2 is MET but cites no evidence");
	cf_failing_are(&f, "met_has_evidence");
	cf_free(&f);
}

static void
test_met_with_blank_evidence_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.1.evidence", "\" \\t\\n\"");
	cf_run(&f);
	cf_fails(&f, "met_has_evidence", "AC-2");
	cf_free(&f);
}

static void
test_met_with_empty_command_and_output_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.0.evidence",
	    "{\"command\": \"\", \"output\": \"\"}");
	cf_run(&f);
	cf_fails(&f, "met_has_evidence", "AC-1");
	cf_free(&f);
}

/*
 * Evidence that is absent, null or an object without command and output
 * is empty: it fails met_has_evidence for a MET result, and nothing else
 * (the verdict is still read).
 */
static void
test_met_with_absent_evidence_fails_only_rule_2(void **state)
{
	static const char *const empty[] = { "null", "{}",
	    "{\"command\": null, \"output\": null}", "{\"output\": \"\"}",
	    "{\"command\": \" \"}", "{\"note\": \"see the log\"}" };
	struct cf f;
	size_t i;

	(void)state;
	for (i = 0; i <= sizeof empty / sizeof empty[0]; i++) {
		cf_setup(&f);
		cf_judge(&f, "{\"AC-3\": \"met\"}");
		cf_set(&f, "reviewer_verdict.outcome", "\"accepted\"");
		/* The last round leaves evidence out altogether. */
		cf_set(&f, "reviewer_verdict.ac_results.1.evidence",
		    i < sizeof empty / sizeof empty[0] ? empty[i] : NULL);
		cf_run(&f);
		assert_int_equal(f.outcome.advisory.state, ADVISORY_AVAILABLE);
		cf_fails(&f, "met_has_evidence",
		    "AC-2 is MET but cites no evidence");
		cf_failing_are(&f, "met_has_evidence");
		cf_one_divergence(&f, "overall_pass");
		cf_free(&f);
	}
}

/*
 * v2: a command proves nothing without what it printed, so a command
 * alone, or with blank output, cites nothing.
 */
static void
test_met_with_command_only_fails(void **state)
{
	static const char *const bare[] = { "{\"command\": \"ls\"}",
	    "{\"command\": \"test -x scripts/lint.sh\", \"output\": \"\"}",
	    "{\"command\": \"ls\", \"output\": \" \\u200b\"}",
	    "{\"command\": \"ls\", \"proved\": \"it is there\"}" };
	struct cf f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bare / sizeof bare[0]; i++) {
		cf_setup(&f);
		cf_judge(&f, "{\"AC-3\": \"met\"}");
		cf_set(&f, "reviewer_verdict.ac_results.0.evidence", bare[i]);
		cf_run(&f);
		assert_int_equal(f.outcome.advisory.state, ADVISORY_AVAILABLE);
		cf_fails(&f, "met_has_evidence", "AC-1 is MET but cites no "
		    "evidence (neither a command with its output nor a file)");
		cf_free(&f);
	}
}

/* A command with its output, or a file (line optional), cites something. */
static void
test_met_with_command_output_or_file_passes(void **state)
{
	static const char *const cited[] = {
	    "{\"command\": \"ls\", \"output\": \"lint.sh\"}",
	    "{\"file\": \"scripts/lint.sh\"}",
	    "{\"file\": \"scripts/lint.sh\", \"line\": 12}",
	    "{\"file\": \"scripts/lint.sh\", \"line\": \"12-14\", "
	    "\"proved\": \"pinned\"}",
	    "{\"command\": \"\", \"file\": \"scripts/lint.sh\"}" };
	struct cf f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cited / sizeof cited[0]; i++) {
		cf_setup(&f);
		cf_judge(&f, "{\"AC-3\": \"met\"}");
		cf_set(&f, "reviewer_verdict.ac_results.0.evidence", cited[i]);
		cf_run(&f);
		assert_int_equal(f.outcome.advisory.state, ADVISORY_AVAILABLE);
		cf_passes(&f, "met_has_evidence");
		/* Cited: AC-1 is no uncited_evidence (AC-2 still is). */
		assert_int_equal(f.outcome.verdict.reason_count, 2);
		cf_free(&f);
	}
}

/* An evidence object of the wrong shape: the verdict is unreadable. */
static void
test_evidence_of_wrong_types_is_unparseable(void **state)
{
	static const char *const wrong[] = { "{\"file\": 3}",
	    "{\"file\": \"a\", \"line\": true}",
	    "{\"command\": \"ls\", \"output\": \"x\", \"proved\": []}" };
	struct cf f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		cf_setup(&f);
		cf_set(&f, "reviewer_verdict.ac_results.0.evidence", wrong[i]);
		cf_run(&f);
		assert_int_equal(f.outcome.advisory.state,
		    ADVISORY_UNPARSEABLE);
		cf_fails(&f, "met_has_evidence", NULL);
		cf_free(&f);
	}
}

/* The example's NEEDS-PO result has "" evidence: only MET must cite. */
static void
test_needs_po_without_evidence_passes_rule_2(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_run(&f);
	cf_passes(&f, "met_has_evidence");
	cf_free(&f);
}

/* ---- 3. no_unmet ---- */

static void
test_unmet_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.1.state", "\"UNMET\"");
	cf_run(&f);
	cf_fails(&f, "no_unmet", "AC-2 is UNMET");
	cf_failing_are(&f, "no_unmet");
	cf_free(&f);
}

/* ---- 4. ci_green ---- */

static void
test_ci_red_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "proposed_action.ci_status", "\"red\"");
	cf_run(&f);
	cf_fails(&f, "ci_green", "CI is red");
	cf_failing_are(&f, "ci_green");
	cf_free(&f);
}

static void
test_ci_pending_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "proposed_action.ci_status", "\"pending\"");
	cf_run(&f);
	cf_fails(&f, "ci_green", "pending");
	cf_free(&f);
}

/* ---- 5. applicable_standards_met ---- */

static void
test_applicable_standard_missing_from_verdict_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.standards", "[]");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-007 applies (scripts/*.sh matches scripts/lint.sh)");
	cf_fails(&f, "applicable_standards_met", "does not assess it");
	cf_failing_are(&f, "applicable_standards_met");
	cf_free(&f);
}

static void
test_applicable_standard_not_met_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.standards.0.met", "false");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met", "not met");
	cf_free(&f);
}

/* Two entries for one standard that disagree: not met wins. */
static void
test_contradictory_standard_entries_fail(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.standards.1",
	    "{\"id\": \"ADR-007\", \"met\": false}");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met", "ADR-007");
	cf_free(&f);
}

/* ADR-009 (Proposed, "**" "/" "*.md") matches gate.md yet is not enforced. */
static void
test_proposed_standard_ignored(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_run(&f);
	cf_passes(&f, "applicable_standards_met");
	assert_true(strstr(cf_rule(&f, "applicable_standards_met")->detail,
	    "1 applicable") != NULL);
	cf_free(&f);
}

/* The same standard Accepted is enforced: the verdict does not assess it. */
static void
test_accepted_md_standard_enforced(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set_standards(&f, "standards.1.status", "\"Accepted\"");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-009 applies (**/*.md matches skills/solve/gate.md)");
	cf_free(&f);
}

/* Status is compared exactly (SPEC 2.3: only "Accepted"). */
static void
test_lowercase_accepted_is_not_accepted(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set_standards(&f, "standards.1.status", "\"accepted\"");
	cf_run(&f);
	cf_passes(&f, "applicable_standards_met");
	cf_free(&f);
}

/* No FNM_PATHNAME: "*.md" matches docs/a/b.md across the slashes. */
static void
test_star_crosses_slash(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "proposed_action.changed_files", "[\"docs/a/b.md\"]");
	cf_set_standards(&f, "standards.1", "{\"id\": \"ADR-010\", "
	    "\"assertion\": \"Docs are linted\", \"status\": \"Accepted\", "
	    "\"applies_to\": {\"file_patterns\": [\"*.md\"]}}");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-010 applies (*.md matches docs/a/b.md)");
	cf_free(&f);
}

/* A leading "**" "/" also matches a file at the top, as in git. */
static void
test_double_star_slash_matches_top_level(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "proposed_action.changed_files", "[\"README.md\"]");
	cf_set_standards(&f, "standards.1.status", "\"Accepted\"");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-009 applies (**/*.md matches README.md)");
	cf_free(&f);
}

/* The standard of the review's A1: "src/" "**" "/" "*.c" and src/a.c. */
static void
test_globstar_in_the_middle_matches_no_directory(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "proposed_action.changed_files", "[\"src/a.c\"]");
	cf_set(&f, "reviewer_verdict.standards", "[]");
	cf_set_standards(&f, "standards.1", "{\"id\": \"S-C\", "
	    "\"assertion\": \"C is linted\", \"status\": \"Accepted\", "
	    "\"applies_to\": {\"file_patterns\": [\"src/**/*.c\"]}}");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "S-C applies (src/**/*.c matches src/a.c)");
	cf_free(&f);
}

static const struct glob_case {
	const char *pattern;
	const char *file;
	bool match;
} glob_cases[] = {
	/* A globstar in the middle: zero, one or more directories. */
	{ "src/**/*.c", "src/a.c", true },
	{ "src/**/*.c", "src/x/a.c", true },
	{ "src/**/*.c", "src/x/y/a.c", true },
	{ "src/**/*.c", "src/a.h", false },
	{ "src/**/*.c", "lib/a.c", false },
	{ "src/**/*.c", "srca.c", false },
	{ "src/**/*.c", "x/src/a.c", false },
	{ "docs/**/*.md", "docs/README.md", true },
	{ "docs/**/*.md", "docs/a/b/c.md", true },
	{ "docs/**/README", "docs/README", true },
	{ "docs/**/README", "docs/a/README", true },
	{ "docs/**/README", "docs/xREADME", false },
	/* A trailing one: everything under the directory. */
	{ "docs/**", "docs/a", true },
	{ "docs/**", "docs/a/b/c.md", true },
	{ "docs/**", "docs/", true },
	{ "docs/**", "doc/a", false },
	{ "docs/**", "src/docs/a", false },
	/* A leading one: any depth, the top level included. */
	{ "**/*.md", "README.md", true },
	{ "**/*.md", "a/b/README.md", true },
	{ "**/*.md", "README.txt", false },
	{ "**/Makefile", "Makefile", true },
	{ "**/Makefile", "x/Makefile", true },
	{ "**/Makefile", "xMakefile", false },
	/* Several. */
	{ "a/**/b/**/c", "a/b/c", true },
	{ "a/**/b/**/c", "a/x/b/c", true },
	{ "a/**/b/**/c", "a/b/y/c", true },
	{ "a/**/b/**/c", "a/x/y/b/z/c", true },
	{ "a/**/b/**/c", "a/c", false },
	{ "a/**/**/c", "a/c", true },
	{ "**/**/x", "x", true },
	/* Not a whole path element: fnmatch's own `*`, as before. */
	{ "a**/b", "a/b", true },	/* `**` may be empty: as before */
	{ "a**/b", "b", false },
	{ "a**/b", "ax/b", true },
	{ "src/x**/*.c", "src/a.c", false },
	{ "src/\\**/*.c", "src/a.c", false },
	/* `*` crosses `/` (no FNM_PATHNAME), unchanged. */
	{ "*.md", "docs/a/b.md", true },
	{ "scripts/*.sh", "scripts/lint.sh", true },
	{ "scripts/*.sh", "scripts/sub/lint.sh", true },
	{ "scripts/*.sh", "other/lint.sh", false },
	{ "src/?.c", "src/a.c", true },
	{ "src/[ab].c", "src/b.c", true },
	{ "src/[ab].c", "src/c.c", false },
	{ "src/**/[ab].c", "src/b.c", true },
	{ "src/**/?.c", "src/d/a.c", true },
	{ "exact/path.c", "exact/path.c", true },
	{ "exact/path.c", "exact/path.h", false },
	{ "", "", true },
	{ "", "a", false },
	{ "**/", "", true },
	{ "**/", "a/", true },
	/* A prefix does not dodge a standard: the file as the repo names it. */
	{ "scripts/*.sh", "./scripts/lint.sh", true },
	{ "scripts/*.sh", "/scripts/lint.sh", true },
	{ "scripts/*.sh", ".//scripts/./lint.sh", true },
	{ "scripts/*.sh", "other/../scripts/lint.sh", true },
	{ "scripts/*.sh", "./other/lint.sh", false },
	{ "src/**/*.c", "./src/a.c", true },
};

static void
test_glob_matches(void **state)
{
	size_t i, failures = 0;
	bool got;

	(void)state;
	for (i = 0; i < sizeof glob_cases / sizeof glob_cases[0]; i++) {
		got = change_glob_matches(glob_cases[i].pattern,
		    glob_cases[i].file);
		if (got != glob_cases[i].match) {
			print_error("\"%s\" %s \"%s\", want %s\n",
			    glob_cases[i].pattern, got ? "matches" :
			    "does not match", glob_cases[i].file,
			    glob_cases[i].match ? "a match" : "no match");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/*
 * Never narrower than plain fnmatch(): whatever it matched still matches,
 * past the globstars matched exactly too (the rest turn into `*`).
 */
static void
test_glob_never_narrows(void **state)
{
	static const char *const many = "a/**/**/**/**/**/**/**/**/**/**/b";
	static const char *const files[] = { "a/b", "a/x/b", "a/1/2/3/4/5/6/"
	    "7/8/9/10/b", "a/1/2/3/4/5/6/7/8/9/10/11/12/b", "a/xb" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof glob_cases / sizeof glob_cases[0]; i++) {
		if (fnmatch(glob_cases[i].pattern, glob_cases[i].file, 0) == 0)
			assert_true(change_glob_matches(glob_cases[i].pattern,
			    glob_cases[i].file));
	}
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (fnmatch(many, files[i], 0) == 0 || i < 4)
			assert_true(change_glob_matches(many, files[i]));
	}
	assert_false(change_glob_matches(many, "b/a"));
}

static void
test_standard_not_matching_is_not_required(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "proposed_action.changed_files", "[\"src/main.c\"]");
	cf_set(&f, "reviewer_verdict.standards", "[]");
	cf_run(&f);
	cf_passes(&f, "applicable_standards_met");
	assert_true(strstr(cf_rule(&f, "applicable_standards_met")->detail,
	    "no Accepted standard applies") != NULL);
	cf_free(&f);
}

/* SPEC 2: a rule whose input is missing fails closed. */
static void
test_no_standards_index_fails_closed(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cJSON_Delete(f.standards);
	f.standards = NULL;
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met", "no standards index");
	cf_fails(&f, "cited_standards_known", "no standards index");
	cf_failing_are(&f, "applicable_standards_met, cited_standards_known");
	cf_free(&f);
}

/* ---- 6. no_block ---- */

static void
test_outcome_block_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.outcome", "\"block\"");
	cf_run(&f);
	cf_fails(&f, "no_block", "outcome is block");
	cf_failing_are(&f, "no_block");
	assert_false(f.outcome.advisory.overall_pass);
	cf_free(&f);
}

static void
test_missing_fact_gap_does_not_block(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.gaps", "[{\"class\": \"missing_fact\", "
	    "\"text\": \"Which markdownlint version does CI use?\"}]");
	cf_run(&f);
	cf_passes(&f, "no_block");
	cf_failing_are(&f, "");
	cf_free(&f);
}

static void
test_missing_standard_gap_blocks(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.gaps", "[{\"class\": \"missing_fact\", "
	    "\"text\": \"a fact\"}, {\"class\": \"missing_standard\", "
	    "\"text\": \"No standard covers pre-commit hooks\"}]");
	cf_run(&f);
	cf_fails(&f, "no_block",
	    "missing standard: No standard covers pre-commit hooks");
	cf_failing_are(&f, "no_block");
	cf_free(&f);
}

/* ---- 7. needs_po_judged and unjudged_criteria ---- */

static void
test_judged_unmet_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"unmet\"}");
	cf_run(&f);
	cf_fails(&f, "needs_po_judged", "AC-3 was judged unmet");
	cf_failing_are(&f, "needs_po_judged");
	/* Judged, so not po_judgment_required: the rule fails outright. */
	assert_int_equal(cf_unjudged(&f), 0);
	cf_free(&f);
}

static void
test_unjudged_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{}");
	cf_run(&f);
	cf_fails(&f, "needs_po_judged", "AC-3 is NEEDS-PO and awaits");
	assert_int_equal(cf_unjudged(&f), 1);
	cf_free(&f);
}

/* A judgment of another criterion does not stand in for AC-3's. */
static void
test_judgment_of_other_criterion_leaves_needs_po_unjudged(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-1\": \"met\"}");
	cf_run(&f);
	cf_fails(&f, "needs_po_judged", "AC-3");
	assert_int_equal(cf_unjudged(&f), 1);
	cf_free(&f);
}

/* The human's "unmet" stands even where the reviewer said MET. */
static void
test_unmet_judgment_of_met_criterion_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\", \"AC-1\": \"unmet\"}");
	cf_run(&f);
	cf_fails(&f, "needs_po_judged", "AC-1 was judged unmet");
	cf_free(&f);
}

static void
test_judgment_of_unknown_criterion_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\", \"AC-33\": \"met\"}");
	cf_run(&f);
	cf_fails(&f, "needs_po_judged", "po_judgments names AC-33");
	cf_free(&f);
}

static void
test_unjudged_counts_each_needs_po(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.ac_results.1.state", "\"NEEDS-PO\"");
	cf_judge(&f, "{\"AC-2\": \"met\"}");
	cf_run(&f);
	assert_int_equal(cf_unjudged(&f), 1);
	cf_fails(&f, "needs_po_judged", "AC-3");
	check_outcome_free(&f.outcome);
	f.ran = false;

	cf_judge(&f, NULL);
	cf_run(&f);
	assert_int_equal(cf_unjudged(&f), 2);
	check_outcome_free(&f.outcome);
	f.ran = false;

	cf_judge(&f, "{\"AC-2\": \"met\", \"AC-3\": \"met\"}");
	cf_run(&f);
	assert_int_equal(cf_unjudged(&f), 0);
	cf_passes(&f, "needs_po_judged");
	cf_free(&f);
}

static void
test_no_needs_po_passes_without_judgments(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.outcome", "\"accepted\"");
	cf_set(&f, "reviewer_verdict.ac_results.2", "{\"ac_id\": \"AC-3\", "
	    "\"state\": \"MET\", \"evidence\": \"read the diff of gate.md\"}");
	cf_run(&f);
	cf_failing_are(&f, "");
	assert_int_equal(cf_unjudged(&f), 0);
	assert_int_equal(cJSON_GetArraySize(f.outcome.divergence), 0);
	cf_free(&f);
}


/* ---- v2: scope by file patterns, domains and decision types ---- */

/* ADR-010, scoped by domain only, joins the example's index. */
#define AUTH_STANDARD \
	"{\"id\": \"ADR-010\", \"title\": \"Session tokens\", " \
	"\"assertion\": \"Tokens never reach script-readable storage\", " \
	"\"status\": \"Accepted\", \"applies_to\": {\"domains\": [\"auth\"]}, " \
	"\"rules\": [{\"id\": \"R1\", \"level\": \"MUST\", " \
	"\"assertion\": \"No token in localStorage\", " \
	"\"fix\": \"Use an httpOnly cookie\"}]}"

/* The example, judged, with ADR-010 in the index. */
static void
cf_setup_auth(struct cf *f, const char *scope)
{
	cf_setup(f);
	cf_judge(f, "{\"AC-3\": \"met\"}");
	cf_set_standards(f, "standards.2", AUTH_STANDARD);
	if (scope != NULL)
		cf_set_standards(f, "standards.2.applies_to", scope);
}

static void
test_scope_domain_applies(void **state)
{
	struct cf f;

	(void)state;
	cf_setup_auth(&f, NULL);
	cf_set(&f, "proposed_action.domains", "[\"billing\", \"auth\"]");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-010 applies (domain auth) but the verdict does not assess it");
	cf_failing_are(&f, "applicable_standards_met");
	cf_free(&f);
	/* Assessed as met: it passes. */
	cf_setup_auth(&f, NULL);
	cf_set(&f, "proposed_action.domains", "[\"auth\"]");
	cf_set(&f, "reviewer_verdict.standards.1",
	    "{\"id\": \"ADR-010\", \"met\": true, \"note\": \"cookie\"}");
	cf_run(&f);
	cf_passes(&f, "applicable_standards_met");
	assert_non_null(strstr(cf_rule(&f, "applicable_standards_met")->detail,
	    "2 applicable"));
	cf_free(&f);
}

static void
test_scope_decision_type_applies(void **state)
{
	struct cf f;

	(void)state;
	cf_setup_auth(&f, "{\"decision_types\": [\"token-storage\"]}");
	cf_set(&f, "proposed_action.decision_types", "[\"token-storage\"]");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-010 applies (decision type token-storage)");
	cf_free(&f);
}

static void
test_scope_pattern_applies_in_a_mixed_scope(void **state)
{
	struct cf f;

	(void)state;
	cf_setup_auth(&f, "{\"file_patterns\": [\"src/auth/**\"], "
	    "\"domains\": [\"auth\"]}");
	cf_set(&f, "proposed_action.changed_files",
	    "[\"src/auth/session.ts\"]");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-010 applies (src/auth/** matches src/auth/session.ts)");
	cf_free(&f);
}

/* Neither a file, a domain nor a decision type of the change: no scope. */
static void
test_scope_none_applies(void **state)
{
	struct cf f;

	(void)state;
	cf_setup_auth(&f, "{\"file_patterns\": [\"src/auth/**\"], "
	    "\"domains\": [\"auth\"], \"decision_types\": [\"token-storage\"]}");
	cf_set(&f, "proposed_action.domains", "[\"billing\"]");
	cf_set(&f, "proposed_action.decision_types", "[\"naming\"]");
	cf_run(&f);
	cf_passes(&f, "applicable_standards_met");
	cf_failing_are(&f, "");
	cf_free(&f);
	/* Without domains or decision types at all, the same. */
	cf_setup_auth(&f, NULL);
	cf_run(&f);
	cf_failing_are(&f, "");
	cf_free(&f);
}

/* Only "Accepted", exactly, is enforced. */
static void
test_scope_superseded_not_enforced(void **state)
{
	static const char *const statuses[] = { "\"Superseded by ADR-006\"",
	    "\"accepted\"", "\"Accepted \"", "\"Proposed\"" };
	struct cf f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
		cf_setup_auth(&f, NULL);
		cf_set_standards(&f, "standards.2.status", statuses[i]);
		cf_set(&f, "proposed_action.domains", "[\"auth\"]");
		cf_run(&f);
		cf_passes(&f, "applicable_standards_met");
		cf_free(&f);
	}
}

/* The backlog tool's spelling reads the same. */
static void
test_scope_backlog_spelling_applies(void **state)
{
	struct cf f;

	(void)state;
	cf_setup_auth(&f, NULL);
	cf_set_standards(&f, "standards.2.applies-to",
	    "{\"file-patterns\": [\"docs/**\"], "
	    "\"decision-types\": [\"token-storage\"]}");
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(f.standards, "standards"), 2),
	    "applies_to");
	cf_set(&f, "proposed_action.decision_types", "[\"token-storage\"]");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-010 applies (decision type token-storage)");
	cf_free(&f);
	cf_setup_auth(&f, NULL);
	cf_set_standards(&f, "standards.2.applies-to",
	    "{\"file-patterns\": [\"docs/**\"]}");
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(f.standards, "standards"), 2),
	    "applies_to");
	cf_set(&f, "proposed_action.changed_files", "[\"docs/x.md\"]");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-010 applies (docs/** matches docs/x.md)");
	cf_free(&f);
}

/* ---- v2: rule 5 fails on any "not met" ---- */

static void
test_not_met_fails_whether_or_not_it_applies(void **state)
{
	struct cf f;

	(void)state;
	/* ADR-010 applies by domain; the reviewer says it is not met. */
	cf_setup_auth(&f, NULL);
	cf_set(&f, "proposed_action.domains", "[\"auth\"]");
	cf_set(&f, "reviewer_verdict.standards.1", "{\"id\": \"ADR-010\", "
	    "\"met\": false, \"note\": \"stores token in localStorage\"}");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met", "ADR-010 is not met, the "
	    "reviewer says: stores token in localStorage");
	cf_failing_are(&f, "applicable_standards_met");
	cf_free(&f);
	/* It does not apply: its "not met" still fails the rule. */
	cf_setup_auth(&f, NULL);
	cf_set(&f, "reviewer_verdict.standards.1", "{\"id\": \"ADR-010\", "
	    "\"met\": false, \"note\": \"stores token in localStorage\"}");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met", "stores token");
	cf_free(&f);
	/* The Proposed ADR-009, not met: fails too. */
	cf_setup_auth(&f, NULL);
	cf_set(&f, "reviewer_verdict.standards.1", "{\"id\": \"ADR-009\", "
	    "\"met\": false}");
	cf_run(&f);
	cf_fails(&f, "applicable_standards_met",
	    "ADR-009 is not met, the reviewer says");
	cf_free(&f);
}

/* ---- v2: 8. cited_standards_known ---- */

static void
test_cited_standards_known_passes(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_run(&f);
	cf_passes(&f, "cited_standards_known");
	/* A standard the index has at any status is known. */
	cf_free(&f);
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.standards.1",
	    "{\"id\": \"ADR-009\", \"met\": true}");
	cf_run(&f);
	cf_passes(&f, "cited_standards_known");
	cf_free(&f);
}

static void
test_cited_standard_invented_fails(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.standards.1",
	    "{\"id\": \"ADR-999\", \"met\": true, \"note\": \"fine\"}");
	cf_run(&f);
	cf_fails(&f, "cited_standards_known",
	    "ADR-999 is not in the standards index");
	cf_failing_are(&f, "cited_standards_known");
	cf_free(&f);
}

static void
test_cited_rule_shows_level_assertion_fix(void **state)
{
	const struct rule_result *r;
	struct cf f;

	(void)state;
	cf_setup_auth(&f, NULL);
	cf_set(&f, "reviewer_verdict.standards.1",
	    "{\"id\": \"ADR-010\", \"rule\": \"R1\", \"met\": true}");
	cf_run(&f);
	cf_passes(&f, "cited_standards_known");
	r = cf_rule(&f, "cited_standards_known");
	assert_non_null(strstr(r->detail, "ADR-010 R1 (MUST): No token in "
	    "localStorage; fix: Use an httpOnly cookie"));
	cf_free(&f);
	/* A rule the standard does not have. */
	cf_setup_auth(&f, NULL);
	cf_set(&f, "reviewer_verdict.standards.1",
	    "{\"id\": \"ADR-010\", \"rule\": \"R9\", \"met\": true}");
	cf_set(&f, "reviewer_verdict.standards.2",
	    "{\"id\": \"ADR-010\", \"rule\": \"R1\", \"met\": true}");
	cf_run(&f);
	cf_fails(&f, "cited_standards_known", "ADR-010 has no rule R9");
	cf_fails(&f, "cited_standards_known", "ADR-010 R1 (MUST)");
	cf_free(&f);
	/* A rule of a standard with no rules. */
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.standards.0.rule", "\"R1\"");
	cf_run(&f);
	cf_fails(&f, "cited_standards_known", "ADR-007 has no rule R1");
	cf_free(&f);
}

static void
test_cited_standards_unreadable_index_fails_closed(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_set_standards(&f, "standards", "{}");
	cf_run(&f);
	cf_fails(&f, "cited_standards_known", "cannot be read");
	cf_free(&f);
	/* A rule that is not a string: the verdict is unreadable. */
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.standards.0.rule", "1");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_UNPARSEABLE);
	cf_fails(&f, "cited_standards_known", "could not be read");
	cf_free(&f);
}

/* ---- v2: 9. deferred_checks_passed ---- */

static void
test_deferred_checks_pass(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_run(&f);
	cf_passes(&f, "deferred_checks_passed");
	cf_free(&f);
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.deferred_checks", "[{\"check\": "
	    "\"e2e login\", \"ran\": true, \"passed\": true}]");
	cf_run(&f);
	cf_passes(&f, "deferred_checks_passed");
	cf_failing_are(&f, "");
	cf_free(&f);
}

static void
test_deferred_checks_fail(void **state)
{
	static const struct {
		const char *entry, *needle;
	} bad[] = {
		{ "{\"check\": \"e2e login\", \"ran\": false, \"passed\": false}",
		    "e2e login did not run" },
		{ "{\"check\": \"e2e login\", \"ran\": true, \"passed\": false}",
		    "e2e login ran and did not pass" },
		{ "{\"check\": \"e2e login\", \"ran\": true}",
		    "e2e login ran and did not pass" },
		{ "{\"check\": \"e2e login\", \"ran\": \"true\", \"passed\": true}",
		    "e2e login did not run" },
		{ "{\"check\": \"e2e login\", \"ran\": true, \"passed\": 1}",
		    "did not pass" },
		{ "{\"ran\": true, \"passed\": null}", "(unnamed check)" },
		{ "\"e2e login\"", "did not run" },
	};
	struct cf f;
	char entries[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cf_setup(&f);
		cf_judge(&f, "{\"AC-3\": \"met\"}");
		snprintf(entries, sizeof entries, "[{\"check\": \"unit\", "
		    "\"ran\": true, \"passed\": true}, %s]", bad[i].entry);
		cf_set(&f, "reviewer_verdict.deferred_checks", entries);
		cf_run(&f);
		assert_int_equal(f.outcome.advisory.state, ADVISORY_AVAILABLE);
		cf_fails(&f, "deferred_checks_passed", bad[i].needle);
		cf_failing_are(&f, "deferred_checks_passed");
		cf_free(&f);
	}
	/* Not an array: the verdict is unreadable, every rule fails. */
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.deferred_checks", "{}");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_UNPARSEABLE);
	cf_fails(&f, "deferred_checks_passed", "could not be read");
	cf_free(&f);
}

/* ---- v2: high-stakes reasons ---- */

static size_t
cf_reasons(const struct cf *f, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < f->outcome.verdict.reason_count; i++) {
		if (strcmp(f->outcome.verdict.high_stakes_reasons[i].code,
		    code) == 0)
			n++;
	}
	return n;
}

static void
test_flagged_assumptions_are_high_stakes(void **state)
{
	const struct stakes_reason *r;
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.flagged_assumptions", "[\"the cache "
	    "can be rebuilt\", \"nobody reads v1\"]");
	cf_run(&f);
	cf_failing_are(&f, "");
	assert_true(f.outcome.verdict.requires_human_approval);
	assert_int_equal(cf_reasons(&f, "flagged_assumption"), 2);
	r = verdict_reason(&f.outcome.verdict, "flagged_assumption");
	assert_non_null(strstr(r->detail, "\"the cache can be rebuilt\""));
	assert_non_null(strstr(f.outcome.verdict.high_stakes_reasons[2].detail,
	    "\"nobody reads v1\""));
	cf_free(&f);
	/* Not strings: the verdict is unreadable. */
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.flagged_assumptions", "[1]");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_UNPARSEABLE);
	cf_free(&f);
}

static void
test_no_commit_and_uncited_evidence(void **state)
{
	const struct stakes_reason *r;
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.ac_results.0.evidence",
	    "\"I checked it\"");
	cf_run(&f);
	assert_int_equal(cf_reasons(&f, "uncited_evidence"), 2);
	r = verdict_reason(&f.outcome.verdict, "uncited_evidence");
	assert_non_null(strstr(r->detail, "AC-1"));
	assert_int_equal(cf_reasons(&f, "no_commit"), 1);
	assert_int_equal(cf_reasons(&f, "failed_rules"), 0);
	cf_free(&f);
	/* A NEEDS-PO or UNMET plain string is no claim of MET. */
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.ac_results.1.state", "\"UNMET\"");
	cf_set(&f, "proposed_action.head_sha",
	    "\"0123456789abcdef0123456789abcdef01234567\"");
	cf_run(&f);
	assert_int_equal(cf_reasons(&f, "uncited_evidence"), 0);
	assert_int_equal(cf_reasons(&f, "no_commit"), 0);
	/* Failing rules come first. */
	assert_string_equal(f.outcome.verdict.high_stakes_reasons[0].code,
	    "failed_rules");
	assert_int_equal(f.outcome.verdict.reason_count, 1);
	cf_free(&f);
}

/* ---- the advisory verdict ---- */

/* Missing: every rule that needs the verdict fails closed; one divergence. */
static void
test_missing_advisory_fails_closed(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict", "null");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_MISSING);
	cf_failing_are(&f, "ac_coverage, met_has_evidence, no_unmet, "
	    "applicable_standards_met, no_block, needs_po_judged, "
	    "cited_standards_known, deferred_checks_passed");
	cf_fails(&f, "ac_coverage", "no advisory verdict");
	cf_fails(&f, "cited_standards_known", "no advisory verdict");
	cf_fails(&f, "deferred_checks_passed", "no advisory verdict");
	cf_fails(&f, "applicable_standards_met", "ADR-007 applies");
	cf_passes(&f, "ci_green");
	cf_one_divergence(&f, "advisory_verdict");
	assert_int_equal(cf_unjudged(&f), 0);
	cf_free(&f);
}

static void
test_unparseable_advisory_fails_closed(void **state)
{
	struct cf f;

	(void)state;
	cf_setup(&f);
	cf_judge(&f, "{\"AC-3\": \"met\"}");
	cf_set(&f, "reviewer_verdict.outcome", "\"maybe\"");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_UNPARSEABLE);
	cf_fails(&f, "no_block", "could not be read");
	cf_fails(&f, "needs_po_judged", NULL);
	cf_free(&f);
}

static void
test_advisory_overall_pass_by_outcome(void **state)
{
	static const struct {
		const char *outcome;
		bool pass;
	} cases[] = { { "accepted", true }, { "needs_po", true },
	    { "sent_back", false }, { "block", false } };
	char json[160];
	bool pass;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(json, sizeof json, "{\"outcome\": \"%s\", "
		    "\"ac_results\": []}", cases[i].outcome);
		assert_int_equal(advisory_state_of(json, &pass),
		    ADVISORY_AVAILABLE);
		if (pass != cases[i].pass)
			fail_msg("outcome %s read as %s", cases[i].outcome,
			    pass ? "pass" : "fail");
	}
}

/* Absent or null standards and gaps read as empty lists. */
static void
test_advisory_without_standards_or_gaps_parses(void **state)
{
	(void)state;
	assert_int_equal(advisory_state_of("{\"outcome\": \"accepted\", "
	    "\"ac_results\": []}", NULL), ADVISORY_AVAILABLE);
	assert_int_equal(advisory_state_of("{\"outcome\": \"accepted\", "
	    "\"ac_results\": [], \"standards\": null, \"gaps\": null}", NULL),
	    ADVISORY_AVAILABLE);
	assert_int_equal(advisory_state_of("{\"outcome\": \"accepted\", "
	    "\"ac_results\": [], \"standards\": [{\"id\": \"A\", "
	    "\"met\": true}]}", NULL), ADVISORY_AVAILABLE);
}

static void
test_advisory_shapes_refused(void **state)
{
	static const char *const bad[] = {
		"\"accepted\"",
		"[]",
		"{\"ac_results\": []}",
		"{\"outcome\": \"ACCEPTED\", \"ac_results\": []}",
		"{\"outcome\": \"accepted\"}",
		"{\"outcome\": \"accepted\", \"ac_results\": {}}",
		"{\"outcome\": \"accepted\", \"ac_results\": [{\"ac_id\": "
		    "\"AC-1\", \"state\": \"DONE\", \"evidence\": \"x\"}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [{\"ac_id\": 1, "
		    "\"state\": \"MET\", \"evidence\": \"x\"}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [{\"ac_id\": "
		    "\"AC-1\", \"state\": \"MET\", \"evidence\": 7}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [{\"ac_id\": "
		    "\"AC-1\", \"state\": \"MET\", \"evidence\": []}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [{\"ac_id\": "
		    "\"AC-1\", \"state\": \"MET\", \"evidence\": "
		    "{\"command\": 7, \"output\": \"x\"}}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [{\"ac_id\": "
		    "\"AC-1\", \"state\": \"MET\", \"evidence\": "
		    "{\"command\": \"ls\", \"output\": [\"x\"]}}]}",
		/* action_id not a string: not "another action" */
		"{\"action_id\": 7, \"outcome\": \"maybe\", "
		    "\"ac_results\": []}",
		"{\"outcome\": \"accepted\", \"ac_results\": [], "
		    "\"standards\": {}}",
		"{\"outcome\": \"accepted\", \"ac_results\": [], "
		    "\"standards\": [{\"id\": \"A\", \"met\": \"yes\"}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [], "
		    "\"standards\": [{\"id\": \"A\", \"met\": true, "
		    "\"note\": 3}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [], "
		    "\"gaps\": [{\"class\": \"missing_opinion\", \"text\": \"x\"}]}",
		"{\"outcome\": \"accepted\", \"ac_results\": [], "
		    "\"gaps\": [{\"class\": \"missing_fact\"}]}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (advisory_state_of(bad[i], NULL) != ADVISORY_UNPARSEABLE)
			fail_msg("parsed: %s", bad[i]);
	}
}

/* The change shape has no action_id; one naming another action counts. */
static void
test_advisory_about_another_action(void **state)
{
	struct cf f;

	(void)state;
	assert_int_equal(advisory_state_of("{\"action_id\": \"NB-412\", "
	    "\"outcome\": \"accepted\", \"ac_results\": []}", NULL),
	    ADVISORY_AVAILABLE);
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.action_id", "\"NB-999\"");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_OTHER_ACTION);
	cf_one_divergence(&f, "action_id");
	cf_fails(&f, "ac_coverage", "another action");
	cf_free(&f);
	/* SPEC 4: it is action_id even when the rest cannot be read. */
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict", "{\"action_id\": \"NB-999\", "
	    "\"outcome\": \"maybe\"}");
	cf_run(&f);
	assert_int_equal(f.outcome.advisory.state, ADVISORY_OTHER_ACTION);
	cf_one_divergence(&f, "action_id");
	cf_free(&f);
}

/* ---- validation ---- */

/* The example's proposed_action with one edit, validated on its own. */
static void
assert_action_refused(const char *path, const char *value,
    const char *field)
{
	const struct rule_pack *pack = rule_pack_find("change");
	cJSON *packet = ex_parse(EX_PACKET_CHANGE), *action;
	struct error err;
	int rc;

	action = cJSON_GetObjectItemCaseSensitive(packet, "proposed_action");
	ex_set(action, path, value);
	error_clear(&err);
	rc = pack->validate(action, "proposed_action", &err);
	if (rc != EXIT_DATA || strcmp(err.field, field) != 0)
		print_error("%s = %s: rc %d field \"%s\" (want \"%s\"): %s\n",
		    path, value ? value : "(removed)", rc, err.field, field,
		    err.message);
	cJSON_Delete(packet);
	assert_int_equal(rc, EXIT_DATA);
	assert_string_equal(err.field, field);
	assert_true(strlen(err.message) > 5);
}

static void
test_example_action_validates(void **state)
{
	const struct rule_pack *pack = rule_pack_find("change");
	cJSON *packet = ex_parse(EX_PACKET_CHANGE);
	struct error err;

	(void)state;
	assert_non_null(pack);
	assert_string_equal(pack->kind, "change");
	assert_true(pack->needs & NEEDS_STANDARDS);
	assert_false(pack->compares_rules);
	error_clear(&err);
	assert_int_equal(pack->validate(cJSON_GetObjectItemCaseSensitive(
	    packet, "proposed_action"), "proposed_action", &err), 0);
	/* pr_url is optional. */
	ex_set(packet, "proposed_action.pr_url", NULL);
	assert_int_equal(pack->validate(cJSON_GetObjectItemCaseSensitive(
	    packet, "proposed_action"), "proposed_action", &err), 0);
	cJSON_Delete(packet);
}

static void
test_validation_names_fields(void **state)
{
	(void)state;
	assert_action_refused("title", NULL, "proposed_action.title");
	assert_action_refused("title", "5", "proposed_action.title");
	assert_action_refused("acceptance_criteria", NULL,
	    "proposed_action.acceptance_criteria");
	assert_action_refused("acceptance_criteria", "{}",
	    "proposed_action.acceptance_criteria");
	assert_action_refused("acceptance_criteria.0", "\"AC-1\"",
	    "proposed_action.acceptance_criteria[0]");
	assert_action_refused("acceptance_criteria.1.id", NULL,
	    "proposed_action.acceptance_criteria[1].id");
	assert_action_refused("acceptance_criteria.1.id", "\"\"",
	    "proposed_action.acceptance_criteria[1].id");
	assert_action_refused("acceptance_criteria.2.text", "null",
	    "proposed_action.acceptance_criteria[2].text");
	assert_action_refused("changed_files", NULL,
	    "proposed_action.changed_files");
	assert_action_refused("changed_files.1", "3",
	    "proposed_action.changed_files[1]");
	assert_action_refused("ci_status", NULL, "proposed_action.ci_status");
	assert_action_refused("ci_status", "\"purple\"",
	    "proposed_action.ci_status");
	assert_action_refused("ci_status", "\"Green\"",
	    "proposed_action.ci_status");
	assert_action_refused("pr_url", "412", "proposed_action.pr_url");
}

/* The later of two equal ids is named. */
static void
test_duplicate_criterion_refused(void **state)
{
	(void)state;
	assert_action_refused("acceptance_criteria.2.id", "\"AC-1\"",
	    "proposed_action.acceptance_criteria[2].id");
	assert_action_refused("acceptance_criteria.1.id", "\"AC-3\"",
	    "proposed_action.acceptance_criteria[2].id");
	assert_action_refused("acceptance_criteria.3",
	    "{\"id\": \"AC-2\", \"text\": \"again\"}",
	    "proposed_action.acceptance_criteria[3].id");
}

/* ---- the queue and the detail view ---- */

static void
test_who_and_summary(void **state)
{
	const struct rule_pack *pack = rule_pack_find("change");
	cJSON *packet = ex_parse(EX_PACKET_CHANGE), *action;
	char buf[64], tiny[8];

	(void)state;
	action = cJSON_GetObjectItemCaseSensitive(packet, "proposed_action");
	assert_string_equal(pack->who(action), "developer-agent");
	pack->summarize(action, buf, sizeof buf);
	assert_string_equal(buf, "Add markdownlint to the pre-commit gate");
	/* Cut at a character boundary: "Réé" fits in 6 bytes, a third é not. */
	ex_set(action, "title", "\"R\\u00e9\\u00e9\\u00e9\\u00e9\"");
	pack->summarize(action, tiny, 6);
	assert_string_equal(tiny, "R\xc3\xa9\xc3\xa9");
	ex_set(action, "author", NULL);
	assert_null(pack->who(action));
	cJSON_Delete(packet);
}

/* Every detail line joined by newlines, each prefixed with its style. */
static char *
described(struct cf *f)
{
	const struct rule_pack *pack = rule_pack_find("change");
	static const char marks[] = { 'P', 'H', 'A', '+', '-', 'D' };
	struct detail d = { 0 };
	size_t i, size = 1;
	char *all;

	assert_non_null(pack->describe);
	assert_int_equal(pack->describe(&f->input, &f->outcome.advisory, &d),
	    0);
	for (i = 0; i < d.count; i++)
		size += strlen(d.lines[i].text) + 3;
	all = malloc(size);
	assert_non_null(all);
	all[0] = '\0';
	for (i = 0; i < d.count; i++) {
		size_t len = strlen(all);

		all[len] = marks[d.lines[i].style];
		all[len + 1] = ' ';
		strcpy(all + len + 2, d.lines[i].text);
		strcat(all, "\n");
	}
	detail_free(&d);
	return all;
}

static void
assert_has(const char *all, const char *needle)
{
	if (strstr(all, needle) == NULL) {
		print_error("detail:\n%s", all);
		fail_msg("detail lacks \"%s\"", needle);
	}
}

static void
test_describe_example(void **state)
{
	struct cf f;
	char *all;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "reviewer_verdict.gaps", "[{\"class\": \"missing_fact\", "
	    "\"text\": \"CI version unknown\"}, {\"class\": "
	    "\"missing_standard\", \"text\": \"No hook standard\"}]");
	cf_run(&f);
	all = described(&f);
	assert_has(all, "P Title: Add markdownlint to the pre-commit gate\n");
	assert_has(all, "P PR: https://example.invalid/pr/412\n");
	assert_has(all, "P CI: green\n");
	assert_has(all, "H Changed files (2)\nP   skills/solve/gate.md\n");
	assert_has(all, "P AC-1\nP     markdownlint runs on every changed "
	    ".md file\nP     reviewer: MET\nP     evidence:\n"
	    "P       $ grep -n markdownlint scripts/lint.sh\n"
	    "P       12: markdownlint-cli2 \"$@\"\n");
	assert_has(all, "P       ran scripts/lint.sh on a file with MD038");
	assert_has(all, "P AC-3\nP     The docs read clearly\n"
	    "A     reviewer: NEEDS-PO\n"
	    "A     awaiting your judgment: met or unmet\n");
	assert_has(all, "P ADR-007 (scripts/*.sh matches scripts/lint.sh)\n"
	    "P     Every lint tool is pinned to an exact version\n"
	    "P     reviewer: met\n");
	/* ADR-009 is only Proposed. */
	assert_true(strstr(all, "ADR-009") == NULL);
	assert_has(all, "P Missing standards (block):\nA   - No hook standard\n");
	assert_has(all, "P Missing facts:\nP   - CI version unknown\n");
	free(all);
	cf_free(&f);
}

/* Evidence is shown verbatim, one line per line, and sanitized. */
static void
test_describe_sanitizes_evidence(void **state)
{
	struct cf f;
	char *all;

	(void)state;
	cf_setup(&f);
	cf_set(&f, "proposed_action.ci_status", "\"red\"");
	cf_set(&f, "reviewer_verdict.ac_results.0.evidence", "{\"command\": "
	    "\"printf '\\u001b]0;pwned\\u0007'\", \"output\": "
	    "\"line one\\nline\\u202etwo\\r\"}");
	cf_judge(&f, "{\"AC-3\": \"unmet\"}");
	cf_run(&f);
	all = described(&f);
	assert_has(all, "A CI: red (not green)\n");
	assert_has(all, "P       $ printf '\\e]0;pwned^G'\n");
	/* The newline shows as ^J; the next line is indented, not prefixed. */
	assert_has(all, "P       line one^J\nP       line<U+202E>two^M\n");
	assert_has(all, "A     your judgment: unmet\n");
	assert_true(strchr(all, '\x1b') == NULL);
	assert_true(strchr(all, '\r') == NULL);
	free(all);
	cf_free(&f);
}

static void
test_describe_without_index_or_advisory(void **state)
{
	struct cf f;
	char *all;

	(void)state;
	cf_setup(&f);
	cJSON_Delete(f.standards);
	f.standards = NULL;
	cf_set(&f, "reviewer_verdict", NULL);
	cf_run(&f);
	all = described(&f);
	assert_has(all, "A Advisory verdict: missing\n");
	assert_has(all, "A     no result from the reviewer\n");
	assert_has(all, "A No standards index has been imported");
	free(all);
	cf_free(&f);
	/* A verdict but no index: a cited standard cannot be looked up. */
	cf_setup(&f);
	cJSON_Delete(f.standards);
	f.standards = NULL;
	cf_run(&f);
	all = described(&f);
	assert_has(all, "P ADR-007: met\nP     note: lint pinned to a version\n"
	    "A     no standards index has been imported");
	free(all);
	cf_free(&f);
}

/* v2: the commit, the diff, cited standards, assumptions, deferred checks. */
static void
test_describe_v2(void **state)
{
	struct cf f;
	char *all;

	(void)state;
	cf_setup_auth(&f, NULL);
	cf_set(&f, "proposed_action.head_sha",
	    "\"0123456789abcdef0123456789abcdef01234567\"");
	cf_set(&f, "proposed_action.domains", "[\"auth\", \"web\"]");
	cf_set(&f, "proposed_action.diff", "\"--- a/s.ts\\n+++ b/s.ts\\n"
	    "@@ -1 +1 @@\\n-keep(token)\\n+localStorage.t = token\\u001b[2J\\n"
	    " same\"");
	cf_set(&f, "reviewer_verdict.ac_results.1.evidence",
	    "{\"file\": \"scripts/lint.sh\", \"line\": 12, "
	    "\"proved\": \"the gate exits 1\"}");
	cf_set(&f, "reviewer_verdict.standards.1", "{\"id\": \"ADR-010\", "
	    "\"rule\": \"R1\", \"met\": false, \"note\": \"token in "
	    "localStorage\"}");
	cf_set(&f, "reviewer_verdict.standards.2",
	    "{\"id\": \"ADR-999\", \"met\": true}");
	cf_set(&f, "reviewer_verdict.flagged_assumptions",
	    "[\"nobody reads v1\"]");
	cf_set(&f, "reviewer_verdict.deferred_checks", "[{\"check\": "
	    "\"e2e login\", \"ran\": false, \"passed\": false}, {\"check\": "
	    "\"unit\", \"ran\": true, \"passed\": true}]");
	cf_run(&f);
	all = described(&f);
	assert_has(all, "P Commit: 0123456789abcdef0123456789abcdef01234567");
	assert_has(all, "P Domains: auth, web\n");
	assert_has(all, "H Diff\nD   --- a/s.ts\nD   +++ b/s.ts\nD   @@ -1 +1 @@\n"
	    "-   -keep(token)\n+   +localStorage.t = token\\e[2J\nP    same\n");
	assert_has(all, "P       file: scripts/lint.sh:12\n"
	    "P       proved: the gate exits 1\n");
	assert_has(all, "H Standards the reviewer cites\n");
	assert_has(all, "A ADR-010 rule R1: NOT MET\n"
	    "P     note: token in localStorage\n"
	    "P     in the index, status Accepted\n"
	    "P     applies: domain auth\n"
	    "P     MUST R1: No token in localStorage\n"
	    "P     fix: Use an httpOnly cookie\n");
	assert_has(all, "P ADR-999: met\nA     not in the standards index");
	assert_has(all, "H Flagged assumptions\nA   - nobody reads v1\n");
	assert_has(all, "H Deferred checks\nA   - e2e login: NOT RUN\n"
	    "P   - unit: ran, passed\n");
	assert_true(strchr(all, '\x1b') == NULL);
	free(all);
	cf_free(&f);
	/* No commit: said so, as an alert. */
	cf_setup(&f);
	cf_run(&f);
	all = described(&f);
	assert_has(all, "A Commit: none given");
	assert_has(all, "A     evidence: a statement, citing no command, "
	    "output or file (uncited_evidence)\n");
	free(all);
	cf_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_check_fails_only_needs_po_judged),
		cmocka_unit_test(test_example_judged_met_passes_everything),
		cmocka_unit_test(test_cited_evidence_and_commit_need_no_human),
		cmocka_unit_test(test_example_divergence_is_overall_pass),
		cmocka_unit_test(test_sent_back_diverges_from_local_pass),
		cmocka_unit_test(test_check_line_has_change_shape),
		cmocka_unit_test(test_coverage_missing_result_fails),
		cmocka_unit_test(test_coverage_two_results_fail),
		cmocka_unit_test(test_coverage_unknown_criterion_fails),
		cmocka_unit_test(test_coverage_ids_are_case_sensitive),
		cmocka_unit_test(test_coverage_detail_counts_the_rest),
		cmocka_unit_test(test_coverage_no_criteria_passes),
		cmocka_unit_test(test_met_with_empty_evidence_fails),
		cmocka_unit_test(test_met_with_blank_evidence_fails),
		cmocka_unit_test(test_met_with_empty_command_and_output_fails),
		cmocka_unit_test(test_met_with_absent_evidence_fails_only_rule_2),
		cmocka_unit_test(test_met_with_command_only_fails),
		cmocka_unit_test(test_met_with_command_output_or_file_passes),
		cmocka_unit_test(test_evidence_of_wrong_types_is_unparseable),
		cmocka_unit_test(test_needs_po_without_evidence_passes_rule_2),
		cmocka_unit_test(test_unmet_fails),
		cmocka_unit_test(test_ci_red_fails),
		cmocka_unit_test(test_ci_pending_fails),
		cmocka_unit_test(test_applicable_standard_missing_from_verdict_fails),
		cmocka_unit_test(test_applicable_standard_not_met_fails),
		cmocka_unit_test(test_contradictory_standard_entries_fail),
		cmocka_unit_test(test_proposed_standard_ignored),
		cmocka_unit_test(test_accepted_md_standard_enforced),
		cmocka_unit_test(test_lowercase_accepted_is_not_accepted),
		cmocka_unit_test(test_star_crosses_slash),
		cmocka_unit_test(test_double_star_slash_matches_top_level),
		cmocka_unit_test(test_globstar_in_the_middle_matches_no_directory),
		cmocka_unit_test(test_glob_matches),
		cmocka_unit_test(test_glob_never_narrows),
		cmocka_unit_test(test_standard_not_matching_is_not_required),
		cmocka_unit_test(test_no_standards_index_fails_closed),
		cmocka_unit_test(test_outcome_block_fails),
		cmocka_unit_test(test_missing_fact_gap_does_not_block),
		cmocka_unit_test(test_missing_standard_gap_blocks),
		cmocka_unit_test(test_judged_unmet_fails),
		cmocka_unit_test(test_unjudged_fails),
		cmocka_unit_test(test_judgment_of_other_criterion_leaves_needs_po_unjudged),
		cmocka_unit_test(test_unmet_judgment_of_met_criterion_fails),
		cmocka_unit_test(test_judgment_of_unknown_criterion_fails),
		cmocka_unit_test(test_unjudged_counts_each_needs_po),
		cmocka_unit_test(test_no_needs_po_passes_without_judgments),
		cmocka_unit_test(test_scope_domain_applies),
		cmocka_unit_test(test_scope_decision_type_applies),
		cmocka_unit_test(test_scope_pattern_applies_in_a_mixed_scope),
		cmocka_unit_test(test_scope_none_applies),
		cmocka_unit_test(test_scope_superseded_not_enforced),
		cmocka_unit_test(test_scope_backlog_spelling_applies),
		cmocka_unit_test(test_not_met_fails_whether_or_not_it_applies),
		cmocka_unit_test(test_cited_standards_known_passes),
		cmocka_unit_test(test_cited_standard_invented_fails),
		cmocka_unit_test(test_cited_rule_shows_level_assertion_fix),
		cmocka_unit_test(test_cited_standards_unreadable_index_fails_closed),
		cmocka_unit_test(test_deferred_checks_pass),
		cmocka_unit_test(test_deferred_checks_fail),
		cmocka_unit_test(test_flagged_assumptions_are_high_stakes),
		cmocka_unit_test(test_no_commit_and_uncited_evidence),
		cmocka_unit_test(test_missing_advisory_fails_closed),
		cmocka_unit_test(test_unparseable_advisory_fails_closed),
		cmocka_unit_test(test_advisory_overall_pass_by_outcome),
		cmocka_unit_test(test_advisory_without_standards_or_gaps_parses),
		cmocka_unit_test(test_advisory_shapes_refused),
		cmocka_unit_test(test_advisory_about_another_action),
		cmocka_unit_test(test_example_action_validates),
		cmocka_unit_test(test_validation_names_fields),
		cmocka_unit_test(test_duplicate_criterion_refused),
		cmocka_unit_test(test_who_and_summary),
		cmocka_unit_test(test_describe_example),
		cmocka_unit_test(test_describe_sanitizes_evidence),
		cmocka_unit_test(test_describe_without_index_or_advisory),
		cmocka_unit_test(test_describe_v2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
