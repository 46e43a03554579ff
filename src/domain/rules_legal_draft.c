/*
 * The legal_draft rule pack, SPEC 2.2: a drafted legal document, the
 * deterministic gates' errors, and an LLM review that lists blocking and
 * non-blocking issues and may carry an inline-fixed text.  The review
 * arrives either as an object or as the model's raw output, in which the
 * first complete JSON object is the verdict.
 *
 * Fail-closed choices the SPEC leaves open:
 * - A verdict without final_artifacts (or with null) offers no inline fix:
 *   it reads as an empty list, so its legal blocking issues stay unfixed.
 * - With no readable verdict, no blocking issue can be shown to be fixed:
 *   no_unfixed_legal_issues fails along with advisory_parseable (SPEC 2:
 *   no rule is skipped, a missing input fails closed).  review_pass is
 *   then taken as false (SPEC 2.2), so review_pass_consistent passes.
 * - Severities and field names are compared exactly: "Legal" is not a
 *   severity of the SPEC, and a verdict that uses it is unreadable.
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

#define CLIP_BYTES 160		/* of untrusted text quoted in a detail */
#define GATES_LISTED 8		/* gate names listed in a rule detail */

static const char *const severities[] = { "legal", "formatting", NULL };

/* What the rules read from the action and from the review verdict. */
struct legal {
	const char *draft_text;
	const cJSON *gate_errors;	/* array, or NULL */
	const cJSON *verdict;		/* NULL when none could be read */
	bool review_pass;		/* false without a verdict */
	const cJSON *blocking;
	const cJSON *non_blocking;
	int artifact_count;
	const char *fixed_text;		/* final_artifacts[0].text or NULL */
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

/* NULL when every item of verdict[key] is an issue of SPEC 2.2. */
static const char *
issues_problem(const cJSON *verdict, const char *key, char *buf, size_t size)
{
	const cJSON *issues = json_member(verdict, key), *issue, *section;
	const char *severity;
	size_t i = 0;

	if (!cJSON_IsArray(issues)) {
		snprintf(buf, size, "%s must be an array", key);
		return buf;
	}
	cJSON_ArrayForEach(issue, issues) {
		severity = string_member(issue, "severity");
		section = json_member(issue, "section");
		if (!cJSON_IsObject(issue))
			snprintf(buf, size, "%s[%zu] must be an object", key,
			    i);
		else if (string_member(issue, "issue") == NULL)
			snprintf(buf, size, "%s[%zu].issue must be a string",
			    key, i);
		else if (severity == NULL || (strcmp(severity, "legal") != 0 &&
		    strcmp(severity, "formatting") != 0))
			snprintf(buf, size, "%s[%zu].severity must be "
			    "\"legal\" or \"formatting\"", key, i);
		else if (section != NULL && !cJSON_IsNull(section) &&
		    !cJSON_IsString(section))
			snprintf(buf, size, "%s[%zu].section must be a string",
			    key, i);
		else {
			i++;
			continue;
		}
		return buf;
	}
	return NULL;
}

/* NULL when verdict has the shape of SPEC 2.2, else what is wrong. */
static const char *
verdict_problem(const cJSON *verdict, char *buf, size_t size)
{
	const cJSON *artifacts, *artifact;
	const char *problem;
	size_t i = 0;

	if (!cJSON_IsObject(verdict))
		return "the verdict is not an object";
	if (!cJSON_IsBool(json_member(verdict, "review_pass")))
		return "review_pass must be true or false";
	if ((problem = issues_problem(verdict, "blocking_issues", buf,
	    size)) != NULL ||
	    (problem = issues_problem(verdict, "non_blocking_issues", buf,
	    size)) != NULL)
		return problem;
	artifacts = json_member(verdict, "final_artifacts");
	if (artifacts == NULL || cJSON_IsNull(artifacts))
		return NULL;	/* no inline fix: see the top of the file */
	if (!cJSON_IsArray(artifacts))
		return "final_artifacts must be an array";
	cJSON_ArrayForEach(artifact, artifacts) {
		if (string_member(artifact, "text") == NULL) {
			snprintf(buf, size, "final_artifacts[%zu].text must be "
			    "a string", i);
			return buf;
		}
		i++;
	}
	return NULL;
}

/*
 * SPEC 2.2: an object, or raw model output whose first complete JSON
 * object is the verdict.  There is no action_id in a legal verdict, so it
 * cannot be about another action.  An extracted tree is kept in
 * advisory->owned even when it is not a verdict, so that the rule can say
 * what is wrong with it.
 */
static int
legal_read_advisory(const cJSON *verdict, const char *action_id,
    struct advisory *advisory)
{
	const cJSON *tree = verdict;
	char problem[256];

	(void)action_id;
	memset(advisory, 0, sizeof *advisory);
	if (verdict == NULL || cJSON_IsNull(verdict)) {
		advisory->state = ADVISORY_MISSING;
		return 0;
	}
	advisory->state = ADVISORY_UNPARSEABLE;
	if (cJSON_IsString(verdict)) {
		advisory->owned = json_first_object(verdict->valuestring,
		    strlen(verdict->valuestring));
		tree = advisory->owned;
	}
	if (tree == NULL || verdict_problem(tree, problem, sizeof problem) !=
	    NULL)
		return 0;
	advisory->state = ADVISORY_AVAILABLE;
	advisory->verdict = tree;
	advisory->overall_pass = cJSON_IsTrue(json_member(tree, "review_pass"));
	return 0;
}

static void
legal_read(const struct check_input *in, const struct advisory *advisory,
    struct legal *l)
{
	const cJSON *artifacts;

	memset(l, 0, sizeof *l);
	l->draft_text = string_member(in->action, "draft_text");
	l->gate_errors = json_member(in->action, "gate_errors");
	if (advisory->state != ADVISORY_AVAILABLE)
		return;
	l->verdict = advisory->verdict;
	l->review_pass = advisory->overall_pass;
	l->blocking = json_member(l->verdict, "blocking_issues");
	l->non_blocking = json_member(l->verdict, "non_blocking_issues");
	artifacts = json_member(l->verdict, "final_artifacts");
	l->artifact_count = cJSON_GetArraySize(artifacts);
	if (l->artifact_count > 0)
		l->fixed_text = string_member(cJSON_GetArrayItem(artifacts, 0),
		    "text");
}

static bool
is_legal(const cJSON *issue)
{
	const char *severity = string_member(issue, "severity");

	return severity != NULL && strcmp(severity, "legal") == 0;
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

/* Rule 2 fails: no verdict (fail closed), or legal blocking and no fix. */
static bool
legal_unfixed(const struct legal *l)
{
	const cJSON *first;

	if (l->verdict == NULL)
		return true;
	return count_legal(l->blocking, &first) > 0 && l->artifact_count == 0;
}

static int
rule_advisory_parseable(const struct check_input *in,
    const struct advisory *advisory, struct verdict *v)
{
	static const char id[] = "advisory_parseable";
	static const char what[] = "The review verdict can be read";
	const cJSON *raw = json_member(in->packet, "reviewer_verdict");
	const cJSON *tree = advisory->owned != NULL ? advisory->owned : raw;
	const char *problem;
	char buf[256];

	if (advisory->state == ADVISORY_AVAILABLE)
		return verdict_add_rule(v, id, what, true, "%s",
		    cJSON_IsString(raw) ? "read from the first JSON object in "
		    "the reviewer's output" : "the verdict is an object");
	if (advisory->state == ADVISORY_MISSING)
		return verdict_add_rule(v, id, what, false,
		    "no review verdict was received");
	if (cJSON_IsString(raw) && advisory->owned == NULL)
		return verdict_add_rule(v, id, what, false,
		    "the reviewer's output (%zu bytes) holds no complete JSON "
		    "object", strlen(raw->valuestring));
	problem = verdict_problem(tree, buf, sizeof buf);
	return verdict_add_rule(v, id, what, false, "%s%s",
	    cJSON_IsString(raw) ? "the first JSON object in the reviewer's "
	    "output is not a verdict: " : "the verdict cannot be read: ",
	    problem != NULL ? problem : "not of the legal review's shape");
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
	count = count_legal(l->blocking, &first);
	if (count == 0)
		return verdict_add_rule(v, id, what, true,
		    "no blocking issue of severity legal");
	if (l->artifact_count > 0)
		return verdict_add_rule(v, id, what, true,
		    "%d legal blocking issue%s, fixed inline in "
		    "final_artifacts[0]", count, count == 1 ? "" : "s");
	return verdict_add_rule(v, id, what, false,
	    "%d legal blocking issue%s and no inline fix (final_artifacts is "
	    "empty): \"%s\"%s", count, count == 1 ? "" : "s",
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

	return detail_add(d, style, "  [%s] %s%s%s",
	    string_member(issue, "severity"), section ? section : "",
	    section ? ": " : "", string_member(issue, "issue"));
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
		    "no verdict received" : "the verdict cannot be read");
	if (detail_add(d, l->review_pass ? DETAIL_PLAIN : DETAIL_ALERT,
	    "Review: %s", l->review_pass ? "passes the draft (review_pass "
	    "true)" : "does not pass the draft (review_pass false)") != 0 ||
	    describe_issues(d, "Blocking issues", l->blocking, true) != 0)
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
