/*
 * The legal_draft rule pack, SPEC 2.2: a drafted legal document, the
 * deterministic gates' errors, and an LLM review that lists blocking and
 * non-blocking issues and may carry an inline-fixed text.  The review
 * arrives either as an object or as the model's raw output, in which the
 * first complete JSON object is the verdict.
 *
 * Rule 1 fails only when no verdict object could be obtained (SPEC 2.2),
 * so a verdict object is read leniently and each rule fails closed on
 * what it cannot read.  Choices the SPEC leaves open:
 * - A verdict object has a review_pass member; an object without one is
 *   not a verdict (see legal_read_advisory()).
 * - A missing or null blocking_issues or final_artifacts is an empty
 *   list: a verdict without final_artifacts offers no inline fix, so its
 *   legal blocking issues stay unfixed.  non_blocking_issues is read by
 *   no rule and may be anything.
 * - review_pass other than true (null, "yes") is false, for
 *   review_pass_consistent and for the advisory's overall pass (SPEC 4).
 * - blocking_issues or final_artifacts of another type, or an issue that
 *   is not an object: no legal issue can be shown to be fixed, so
 *   no_unfixed_legal_issues fails and says why.
 * - final_artifacts[0] without a string text is no inline fix (the
 *   approved text is then the draft): legal issues stay unfixed.
 * - Only a severity of "formatting" (in any case) is formatting; any
 *   other severity, or none, is taken as legal.
 * - With no verdict object, no blocking issue can be shown to be fixed:
 *   no_unfixed_legal_issues fails along with advisory_parseable (SPEC 2:
 *   no rule is skipped, a missing input fails closed).  review_pass is
 *   then taken as false (SPEC 2.2), so review_pass_consistent passes.
 * - A verdict whose action_id (a string) names another action is about
 *   that action (SPEC 1), although the legal shape has no action_id.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_extract.h"
#include "json_fields.h"
#include "rule_pack.h"
#include "sha256.h"
#include "text.h"

#define CLIP_BYTES 160		/* of untrusted text quoted in a detail */
#define GATES_LISTED 8		/* gate names listed in a rule detail */
#define PROBLEM_SIZE 96		/* what is wrong with the verdict's lists */

static const char *const severities[] = { "legal", "formatting", NULL };

/* What the rules read from the action and from the review verdict. */
struct legal {
	const char *draft_text;
	const cJSON *gate_errors;	/* array, or NULL */
	const cJSON *verdict;		/* NULL when none could be read */
	bool review_pass;		/* false without a verdict */
	const cJSON *blocking;		/* array, or NULL */
	const cJSON *non_blocking;	/* array, or NULL */
	int artifact_count;
	const char *fixed_text;		/* final_artifacts[0].text or NULL */
	/* Why the lists cannot be read, failing rule 2 closed, or "". */
	char problem[PROBLEM_SIZE];
};

static const char *
string_member(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/*
 * At most CLIP_BYTES of untrusted text, cut at a UTF-8 character boundary
 * so that a detail never carries half a character.
 */
static const char *
clip(const char *text, char *buf, size_t size)
{
	size_t len = text != NULL ? strlen(text) : 0, keep;

	if (len <= CLIP_BYTES && len < size)
		return text != NULL ? text : "";
	keep = CLIP_BYTES < size - 4 ? CLIP_BYTES : size - 4;
	while (keep > 0 && ((unsigned char)text[keep] & 0xc0) == 0x80)
		keep--;
	snprintf(buf, size, "%.*s...", (int)keep, text);
	return buf;
}

static int
legal_validate(const cJSON *action, const char *path, struct error *err)
{
	const cJSON *gates = NULL, *gate;
	char gate_path[256];
	const char *text;
	size_t index = 0;
	int rc;

	if ((rc = field_string(action, path, "doc_type", FIELD_REQUIRED, &text,
	    err)) != 0 ||
	    (rc = field_string(action, path, "law_domain", FIELD_REQUIRED,
	    &text, err)) != 0 ||
	    (rc = field_string(action, path, "user_request", FIELD_REQUIRED,
	    &text, err)) != 0 ||
	    (rc = field_string(action, path, "draft_text", FIELD_REQUIRED,
	    &text, err)) != 0 ||
	    (rc = field_array(action, path, "gate_errors", FIELD_OPTIONAL,
	    &gates, err)) != 0)
		return rc;
	cJSON_ArrayForEach(gate, gates) {
		snprintf(gate_path, sizeof gate_path, "%s.gate_errors[%zu]",
		    path, index++);
		if (!cJSON_IsObject(gate))
			return error_set(err, EXIT_DATA, gate_path,
			    "must be an object");
		if ((rc = field_string(gate, gate_path, "gate", FIELD_REQUIRED,
		    &text, err)) != 0 ||
		    (rc = field_string(gate, gate_path, "message",
		    FIELD_REQUIRED, &text, err)) != 0)
			return rc;
	}
	return 0;
}

/* Absent or null: an empty list (see the top of the file). */
static bool
absent(const cJSON *item)
{
	return item == NULL || cJSON_IsNull(item);
}

/*
 * SPEC 2.2: an object, or raw model output whose first complete JSON
 * object is the verdict.  A verdict object has review_pass, whatever its
 * value; the rules read what they can of the rest.  An object without it
 * is something else (in output cut short, the first complete object is
 * one of the verdict's issues, which read as a verdict would report no
 * issue at all), so no verdict was obtained.  An extracted tree is kept
 * in advisory->owned, also when it is about another action, so that the
 * rule can name that action.
 */
static int
legal_read_advisory(const cJSON *verdict, const char *action_id,
    struct advisory *advisory)
{
	const cJSON *tree = verdict, *about;

	memset(advisory, 0, sizeof *advisory);
	if (absent(verdict)) {
		advisory->state = ADVISORY_MISSING;
		return 0;
	}
	advisory->state = ADVISORY_UNPARSEABLE;
	if (cJSON_IsString(verdict)) {
		advisory->owned = json_first_object(verdict->valuestring,
		    strlen(verdict->valuestring));
		tree = advisory->owned;
	}
	if (!cJSON_IsObject(tree))
		return 0;
	about = json_member(tree, "action_id");
	if (cJSON_IsString(about) && strcmp(about->valuestring,
	    action_id) != 0) {
		advisory->state = ADVISORY_OTHER_ACTION;
		advisory->other_action_id = about->valuestring;
		return 0;
	}
	if (json_member(tree, "review_pass") == NULL)
		return 0;
	advisory->state = ADVISORY_AVAILABLE;
	advisory->verdict = tree;
	advisory->overall_pass = cJSON_IsTrue(json_member(tree, "review_pass"));
	return 0;
}

/* The first item of issues that is not an object. */
static const cJSON *
issue_not_object(const cJSON *issues, size_t *index)
{
	const cJSON *issue;

	*index = 0;
	cJSON_ArrayForEach(issue, issues) {
		if (!cJSON_IsObject(issue))
			return issue;
		(*index)++;
	}
	return NULL;
}

/* The lists of the verdict, and what makes them unreadable. */
static void
legal_read_lists(struct legal *l)
{
	const cJSON *blocking = json_member(l->verdict, "blocking_issues");
	const cJSON *non_blocking = json_member(l->verdict,
	    "non_blocking_issues");
	const cJSON *artifacts = json_member(l->verdict, "final_artifacts");
	size_t i;

	l->blocking = cJSON_IsArray(blocking) ? blocking : NULL;
	l->non_blocking = cJSON_IsArray(non_blocking) ? non_blocking : NULL;
	if (cJSON_IsArray(artifacts)) {
		l->artifact_count = cJSON_GetArraySize(artifacts);
		l->fixed_text = string_member(cJSON_GetArrayItem(artifacts, 0),
		    "text");
	}
	if (!absent(blocking) && !cJSON_IsArray(blocking))
		snprintf(l->problem, sizeof l->problem,
		    "blocking_issues is not an array");
	else if (issue_not_object(l->blocking, &i) != NULL)
		snprintf(l->problem, sizeof l->problem,
		    "blocking_issues[%zu] is not an object", i);
	else if (!absent(artifacts) && !cJSON_IsArray(artifacts))
		snprintf(l->problem, sizeof l->problem,
		    "final_artifacts is not an array");
}

static void
legal_read(const struct check_input *in, const struct advisory *advisory,
    struct legal *l)
{
	memset(l, 0, sizeof *l);
	l->draft_text = string_member(in->action, "draft_text");
	l->gate_errors = json_member(in->action, "gate_errors");
	if (advisory->state != ADVISORY_AVAILABLE)
		return;
	l->verdict = advisory->verdict;
	l->review_pass = advisory->overall_pass;
	legal_read_lists(l);
}

/* Anything but "formatting" may be legal, and so it counts as legal. */
static bool
is_legal(const cJSON *issue)
{
	return !text_equal_nocase(string_member(issue, "severity"),
	    "formatting");
}

static int
count_legal(const cJSON *issues, const cJSON **first)
{
	const cJSON *issue;
	int count = 0;

	*first = NULL;
	cJSON_ArrayForEach(issue, issues) {
		if (!is_legal(issue))
			continue;
		if (count++ == 0)
			*first = issue;
	}
	return count;
}

/*
 * Rule 2 fails: no verdict or unreadable lists (fail closed), or legal
 * blocking and no fix.
 */
static bool
legal_unfixed(const struct legal *l)
{
	const cJSON *first;

	if (l->verdict == NULL || l->problem[0] != '\0')
		return true;
	return count_legal(l->blocking, &first) > 0 && l->fixed_text == NULL;
}

static int
rule_advisory_parseable(const struct check_input *in,
    const struct advisory *advisory, struct verdict *v)
{
	static const char id[] = "advisory_parseable";
	static const char what[] = "The review verdict can be read";
	const cJSON *raw = json_member(in->packet, "reviewer_verdict");
	char other[CLIP_BYTES + 8];

	switch (advisory->state) {
	case ADVISORY_AVAILABLE:
		return verdict_add_rule(v, id, what, true, "%s",
		    cJSON_IsString(raw) ? "read from the first JSON object in "
		    "the reviewer's output" : "the verdict is an object");
	case ADVISORY_MISSING:
		return verdict_add_rule(v, id, what, false,
		    "no review verdict was received");
	case ADVISORY_OTHER_ACTION:
		return verdict_add_rule(v, id, what, false,
		    "the verdict is about another action (%s)",
		    clip(advisory->other_action_id, other, sizeof other));
	case ADVISORY_UNPARSEABLE:
		break;
	}
	if (cJSON_IsObject(advisory->owned) || cJSON_IsObject(raw))
		return verdict_add_rule(v, id, what, false,
		    "the %s has no review_pass, so it is not a review verdict",
		    cJSON_IsObject(raw) ? "verdict object" : "first complete "
		    "JSON object in the reviewer's output");
	if (cJSON_IsString(raw))
		return verdict_add_rule(v, id, what, false,
		    "the reviewer's output (%zu bytes) holds no complete JSON "
		    "object", strlen(raw->valuestring));
	return verdict_add_rule(v, id, what, false,
	    "the verdict is not an object, nor the reviewer's output "
	    "as a string");
}

static int
rule_no_unfixed_legal_issues(const struct legal *l, struct verdict *v)
{
	static const char id[] = "no_unfixed_legal_issues";
	static const char what[] =
	    "Every legal blocking issue is fixed in the final text";
	const cJSON *first;
	char issue[CLIP_BYTES + 8];
	int count;

	if (l->verdict == NULL)
		return verdict_add_rule(v, id, what, false,
		    "no verdict to read, so no legal issue can be shown to be "
		    "fixed");
	if (l->problem[0] != '\0')
		return verdict_add_rule(v, id, what, false,
		    "%s, so no legal issue can be shown to be fixed",
		    l->problem);
	count = count_legal(l->blocking, &first);
	if (count == 0)
		return verdict_add_rule(v, id, what, true,
		    "no blocking issue of severity legal");
	if (l->fixed_text != NULL)
		return verdict_add_rule(v, id, what, true,
		    "%d legal blocking issue%s, fixed inline in "
		    "final_artifacts[0]", count, count == 1 ? "" : "s");
	return verdict_add_rule(v, id, what, false,
	    "%d legal blocking issue%s and no inline fix (%s): \"%s\"%s",
	    count, count == 1 ? "" : "s", l->artifact_count == 0 ?
	    "final_artifacts is empty" : "final_artifacts[0] has no text",
	    clip(string_member(first, "issue"), issue, sizeof issue),
	    count > 1 ? " and more" : "");
}

static int
rule_gates_clear(const struct legal *l, struct verdict *v)
{
	static const char id[] = "gates_clear";
	static const char what[] = "The deterministic gates reported no error";
	char names[GATES_LISTED * (CLIP_BYTES + 8)], name[CLIP_BYTES + 8];
	const cJSON *gate;
	int count = cJSON_GetArraySize(l->gate_errors), listed = 0;
	size_t used = 0;

	if (count == 0)
		return verdict_add_rule(v, id, what, true, "no gate errors");
	names[0] = '\0';
	cJSON_ArrayForEach(gate, l->gate_errors) {
		if (listed++ == GATES_LISTED || used >= sizeof names)
			break;
		used += (size_t)snprintf(names + used, sizeof names - used,
		    "%s%s", listed > 1 ? ", " : "",
		    clip(string_member(gate, "gate"), name, sizeof name));
	}
	return verdict_add_rule(v, id, what, false, "%d gate error%s: %s%s",
	    count, count == 1 ? "" : "s", names,
	    count > GATES_LISTED ? ", ..." : "");
}

static int
rule_review_pass_consistent(const struct legal *l, struct verdict *v)
{
	static const char id[] = "review_pass_consistent";
	static const char what[] =
	    "The review does not pass a draft with an unfixed legal issue";

	if (l->verdict == NULL)
		return verdict_add_rule(v, id, what, true,
		    "no verdict: review_pass is taken as false");
	if (l->review_pass && legal_unfixed(l))
		return verdict_add_rule(v, id, what, false,
		    "the review passes the draft (review_pass true) although a "
		    "legal blocking issue is left unfixed");
	if (!cJSON_IsBool(json_member(l->verdict, "review_pass")))
		return verdict_add_rule(v, id, what, true,
		    "review_pass is not true or false, so it is taken as "
		    "false");
	return verdict_add_rule(v, id, what, true, "review_pass is %s",
	    l->review_pass ? "true" : "false");
}

static int
legal_evaluate(const struct check_input *in, const struct advisory *advisory,
    struct verdict *v, union rule_pack_state *state)
{
	struct legal l;

	(void)state;	/* no assess_stakes() */
	legal_read(in, advisory, &l);
	if (rule_advisory_parseable(in, advisory, v) != 0 ||
	    rule_no_unfixed_legal_issues(&l, v) != 0 ||
	    rule_gates_clear(&l, v) != 0 ||
	    rule_review_pass_consistent(&l, v) != 0)
		return -1;
	return 0;
}

/* SPEC 2.2: the fixed text when the review carries one, else the draft. */
static bool
legal_approved_artifact(const struct check_input *in,
    const struct advisory *advisory, char sha256[SHA256_HEX_SIZE])
{
	struct legal l;
	const char *text;

	legal_read(in, advisory, &l);
	text = l.fixed_text != NULL ? l.fixed_text : l.draft_text;
	if (text == NULL)
		return false;
	return sha256_hex(text, strlen(text), sha256) == 0;
}

static const char *
legal_who(const cJSON *action)
{
	return string_member(action, "author");
}

static void
legal_summarize(const cJSON *action, char *buf, size_t size)
{
	const char *doc_type = string_member(action, "doc_type");
	const char *law_domain = string_member(action, "law_domain");

	snprintf(buf, size, "%s (%s)", doc_type ? doc_type : "?",
	    law_domain ? law_domain : "?");
}

/* One issue line: "[legal] Limitation: Limitation period not pleaded". */
static int
describe_issue(struct detail *d, enum detail_style style, const cJSON *issue)
{
	const char *section = string_member(issue, "section");
	const char *severity = string_member(issue, "severity");
	const char *text = string_member(issue, "issue");

	return detail_add(d, style, "  [%s] %s%s%s",
	    severity != NULL ? severity : "no severity: legal",
	    section ? section : "", section ? ": " : "",
	    text != NULL ? text : "(no text)");
}

/* Issues grouped by severity, legal first. */
static int
describe_issues(struct detail *d, const char *title, const cJSON *issues,
    bool blocking)
{
	const cJSON *issue;
	size_t i;
	bool legal;

	if (detail_add(d, DETAIL_HEADING, "%s (%d)", title,
	    cJSON_GetArraySize(issues)) != 0)
		return -1;
	for (i = 0; severities[i] != NULL; i++) {
		legal = strcmp(severities[i], "legal") == 0;
		cJSON_ArrayForEach(issue, issues) {
			if (is_legal(issue) != legal)
				continue;
			if (describe_issue(d, legal && blocking ? DETAIL_ALERT :
			    legal ? DETAIL_PLAIN : DETAIL_DIM, issue) != 0)
				return -1;
		}
	}
	return 0;
}

static int
describe_gates(struct detail *d, const cJSON *gates)
{
	const cJSON *gate;

	if (cJSON_GetArraySize(gates) == 0)
		return detail_add(d, DETAIL_DIM, "Gate errors: none");
	if (detail_add(d, DETAIL_HEADING, "Gate errors (%d)",
	    cJSON_GetArraySize(gates)) != 0)
		return -1;
	cJSON_ArrayForEach(gate, gates) {
		if (detail_add(d, DETAIL_ALERT, "  %s: %s",
		    string_member(gate, "gate"),
		    string_member(gate, "message")) != 0)
			return -1;
	}
	return 0;
}

static int
describe_review(struct detail *d, const struct advisory *advisory,
    const struct legal *l)
{
	if (l->verdict == NULL)
		return detail_add(d, DETAIL_ALERT, "Review: %s",
		    advisory->state == ADVISORY_MISSING ?
		    "no verdict received" :
		    advisory->state == ADVISORY_OTHER_ACTION ?
		    "the verdict is about another action" :
		    "the verdict cannot be read");
	if (detail_add(d, l->review_pass ? DETAIL_PLAIN : DETAIL_ALERT,
	    "Review: %s", l->review_pass ? "passes the draft (review_pass "
	    "true)" : "does not pass the draft (review_pass false)") != 0 ||
	    describe_issues(d, "Blocking issues", l->blocking, true) != 0)
		return -1;
	if (l->problem[0] != '\0' && detail_add(d, DETAIL_ALERT,
	    "  (the verdict cannot be read in full: %s)", l->problem) != 0)
		return -1;
	if (l->fixed_text != NULL && cJSON_GetArraySize(l->blocking) > 0 &&
	    detail_add(d, DETAIL_DIM, "  (the review offers a fixed text for "
	    "these: see below)") != 0)
		return -1;
	return describe_issues(d, "Non-blocking issues", l->non_blocking,
	    false);
}

/* The inline fix: what an approval approves, and how it differs. */
static int
describe_fix(struct detail *d, const struct legal *l)
{
	if (detail_add(d, DETAIL_HEADING, "Approving approves the FIXED text "
	    "(final_artifacts[0]), not the draft") != 0)
		return -1;
	if (l->artifact_count > 1 && detail_add(d, DETAIL_ALERT, "The review "
	    "offers %d texts; only the first one is approved",
	    l->artifact_count) != 0)
		return -1;
	if (detail_add(d, DETAIL_HEADING, "Changes from the draft to the "
	    "fixed text") != 0)
		return -1;
	if (detail_add_diff(d, l->draft_text, l->fixed_text) == 0)
		return 0;
	/* Too long to diff: the fixed text in full is the next best. */
	if (detail_add(d, DETAIL_ALERT, "(too long to compare line by line; "
	    "the fixed text in full:)") != 0)
		return -1;
	return detail_add_text(d, DETAIL_PLAIN, "  ", l->fixed_text);
}

static int
legal_describe(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	const char *doc_type = string_member(in->action, "doc_type");
	const char *law_domain = string_member(in->action, "law_domain");
	struct legal l;

	legal_read(in, advisory, &l);
	if (detail_add(d, DETAIL_HEADING, "Request") != 0 ||
	    detail_add_text(d, DETAIL_PLAIN, "  ",
	    string_member(in->action, "user_request")) != 0 ||
	    detail_add(d, DETAIL_PLAIN, "Document: %s (%s)",
	    doc_type ? doc_type : "?", law_domain ? law_domain : "?") != 0 ||
	    describe_gates(d, l.gate_errors) != 0 ||
	    describe_review(d, advisory, &l) != 0)
		return -1;
	if (detail_add(d, DETAIL_HEADING, "%s", l.fixed_text != NULL ?
	    "Draft text (as drafted; not what is approved)" :
	    "Draft text (what an approval approves)") != 0 ||
	    detail_add_text(d, DETAIL_PLAIN, "  ", l.draft_text) != 0)
		return -1;
	if (l.fixed_text != NULL)
		return describe_fix(d, &l);
	return 0;
}

const struct rule_pack rules_legal_draft = {
	.kind = "legal_draft",
	.needs = 0,
	.compares_rules = false,
	.validate = legal_validate,
	.evaluate = legal_evaluate,
	.read_advisory = legal_read_advisory,
	.approved_artifact = legal_approved_artifact,
	.who = legal_who,
	.summarize = legal_summarize,
	.describe = legal_describe,
};
