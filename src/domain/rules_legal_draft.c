/*
 * The legal_draft rule pack, SPEC 2.2 (v2): a drafted legal document, the
 * deterministic gates' errors, and an LLM review that lists blocking and
 * non-blocking issues and may carry an inline-fixed text.  The review
 * arrives either as an object or as the model's raw output, in which the
 * first complete JSON object is the verdict.
 *
 * The approved text follows the reviewer's routing: the inline fix when a
 * legal blocking issue was fixed, else the first-pass draft.  A review
 * that could not be had (none, unreadable, about another action, or the
 * reviewer's fallback carrying an error) leaves no known issue: the draft
 * goes on with gates-only quality, which is high stakes (no_review).
 * Choices the SPEC leaves open:
 * - A verdict object has a review_pass member; an object without one is
 *   not a verdict (see legal_read_advisory()).
 * - An error is non-empty unless it is null, false, "", [] or {}.
 * - A missing or null blocking_issues or final_artifacts is an empty
 *   list: a verdict without final_artifacts offers no inline fix, so its
 *   legal blocking issues stay unfixed.  non_blocking_issues is read by
 *   no rule and may be anything.
 * - review_pass other than true (null, "yes") is false, for
 *   review_pass_consistent and for the advisory's overall pass (SPEC 4).
 * - blocking_issues or final_artifacts of another type, or an issue that
 *   is not an object: no legal issue can be shown to be fixed, so
 *   no_unfixed_legal_issues fails and says why, and the draft is the
 *   approved text.
 * - The inline fix is final_artifacts[0].text, the text approved: a
 *   non-empty text in a later artifact fixes nothing, since it would not
 *   be what is approved.
 * - Only a severity of "formatting" (in any case) is formatting; any
 *   other severity, or none, is taken as legal.
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
#include "json_strict.h"
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
	const cJSON *error;		/* the verdict's error, or NULL */
	const cJSON *checks;		/* the verdict's checks, or NULL */
	bool reviewed;			/* a usable review: no error in it */
	bool review_pass;		/* false without a usable review */
	const cJSON *blocking;		/* array, or NULL */
	const cJSON *non_blocking;	/* array, or NULL */
	int artifact_count;
	const char *fixed_text;		/* final_artifacts[0].text or NULL */
	int legal_count;		/* legal blocking issues */
	const cJSON *first_legal;
	/* The approved text is the inline fix, not draft_text (SPEC 2.2). */
	bool approves_fix;
	/* Why the lists cannot be read, failing rule 1 closed, or "". */
	char problem[PROBLEM_SIZE];
};

/* What evaluate() leaves for assess_stakes(): the kind's own triggers. */
struct legal_stakes {
	bool no_review;
	bool unregated_fix;
	int gate_count;
	char why[200];			/* why there is no usable review */
};

_Static_assert(sizeof(struct legal_stakes) <= sizeof(union rule_pack_state),
    "struct legal_stakes must fit in a rule pack's state");

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

/* SPEC 2.2: the reviewer's fallback after failed attempts carries one. */
static bool
error_present(const cJSON *error)
{
	if (absent(error) || cJSON_IsFalse(error))
		return false;
	if (cJSON_IsString(error))
		return error->valuestring[0] != '\0';
	if (cJSON_IsArray(error) || cJSON_IsObject(error))
		return error->child != NULL;
	return true;
}

static int count_legal(const cJSON *issues, const cJSON **first);

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
	l->error = json_member(l->verdict, "error");
	l->checks = json_member(l->verdict, "checks");
	legal_read_lists(l);
	if (error_present(l->error))
		return;
	l->reviewed = true;
	l->review_pass = advisory->overall_pass;
	l->legal_count = count_legal(l->blocking, &l->first_legal);
	l->approves_fix = l->problem[0] == '\0' && l->legal_count > 0 &&
	    l->fixed_text != NULL && l->fixed_text[0] != '\0';
}

/* The text an approval approves (SPEC 2.2); NULL only without a draft. */
static const char *
approved_text(const struct legal *l)
{
	return l->approves_fix ? l->fixed_text : l->draft_text;
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

/* Rule 1 fails: unreadable lists (fail closed), or legal and no fix. */
static bool
legal_unfixed(const struct legal *l)
{
	if (!l->reviewed)
		return false;
	return l->problem[0] != '\0' || (l->legal_count > 0 &&
	    !l->approves_fix);
}

/* A value of the verdict on one line, for a detail: text, or its JSON. */
static const char *
shown_value(const cJSON *item, char *buf, size_t size)
{
	char clipped[CLIP_BYTES + 8], *printed;

	if (cJSON_IsString(item))
		return clip(item->valuestring, buf, size);
	printed = json_print(item);
	snprintf(buf, size, "%s", printed != NULL ? clip(printed, clipped,
	    sizeof clipped) : "?");
	free(printed);
	return buf;
}

/* Why no usable review was obtained, in a reader's words. */
static void
no_review_why(const struct check_input *in, const struct advisory *advisory,
    const struct legal *l, char *buf, size_t size)
{
	const cJSON *raw = json_member(in->packet, "reviewer_verdict");
	char text[CLIP_BYTES + 8];

	switch (advisory->state) {
	case ADVISORY_AVAILABLE:
		snprintf(buf, size, "the review failed: %s",
		    shown_value(l->error, text, sizeof text));
		return;
	case ADVISORY_MISSING:
		snprintf(buf, size, "no review verdict was received");
		return;
	case ADVISORY_OTHER_ACTION:
		snprintf(buf, size, "the verdict is about another action (%s)",
		    clip(advisory->other_action_id, text, sizeof text));
		return;
	case ADVISORY_UNPARSEABLE:
		break;
	}
	if (cJSON_IsObject(advisory->owned) || cJSON_IsObject(raw))
		snprintf(buf, size, "the %s has no review_pass, so it is not "
		    "a review verdict", cJSON_IsObject(raw) ? "verdict object" :
		    "first complete JSON object in the reviewer's output");
	else if (cJSON_IsString(raw))
		snprintf(buf, size, "the reviewer's output (%zu bytes) holds no "
		    "complete JSON object", strlen(raw->valuestring));
	else
		snprintf(buf, size, "the verdict is not an object, nor the "
		    "reviewer's output as a string");
}

/* Why final_artifacts offers no inline fix. */
static const char *
no_fix_why(const struct legal *l)
{
	if (l->artifact_count == 0)
		return "final_artifacts is empty";
	if (l->fixed_text == NULL)
		return "final_artifacts[0] has no text";
	return "final_artifacts[0].text is empty";
}

static int
rule_no_unfixed_legal_issues(const struct legal *l, struct verdict *v)
{
	static const char id[] = "no_unfixed_legal_issues";
	static const char what[] =
	    "Every legal blocking issue is fixed in the final text";
	char issue[CLIP_BYTES + 8];
	int count = l->legal_count;

	if (!l->reviewed)
		return verdict_add_rule(v, id, what, true,
		    "no usable review, so no known issue (the draft goes on "
		    "with gates-only quality: high stakes)");
	if (l->problem[0] != '\0')
		return verdict_add_rule(v, id, what, false,
		    "%s, so no legal issue can be shown to be fixed",
		    l->problem);
	if (count == 0)
		return verdict_add_rule(v, id, what, true,
		    "no blocking issue of severity legal%s",
		    cJSON_GetArraySize(l->blocking) > 0 ? " (formatting issues "
		    "never block)" : "");
	if (l->approves_fix)
		return verdict_add_rule(v, id, what, true,
		    "%d legal blocking issue%s, fixed inline in "
		    "final_artifacts[0]", count, count == 1 ? "" : "s");
	return verdict_add_rule(v, id, what, false,
	    "%d legal blocking issue%s and no inline fix (%s): \"%s\"%s",
	    count, count == 1 ? "" : "s", no_fix_why(l),
	    clip(string_member(l->first_legal, "issue"), issue, sizeof issue),
	    count > 1 ? " and more" : "");
}

static int
rule_gates_clear(const struct legal *l, struct verdict *v)
{
	static const char id[] = "gates_clear";
	static const char what[] =
	    "The gates reported no error on the text approved";
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
	if (l->approves_fix)
		return verdict_add_rule(v, id, what, true, "%d gate error%s on "
		    "the draft (%s%s); the approved text is the inline fix, "
		    "which the gates did not check", count, count == 1 ? "" :
		    "s", names, count > GATES_LISTED ? ", ..." : "");
	return verdict_add_rule(v, id, what, false, "%d gate error%s on the "
	    "draft, the text approved: %s%s", count, count == 1 ? "" : "s",
	    names, count > GATES_LISTED ? ", ..." : "");
}

static int
rule_review_pass_consistent(const struct legal *l, struct verdict *v)
{
	static const char id[] = "review_pass_consistent";
	static const char what[] =
	    "The review does not pass a draft with an unfixed legal issue";

	if (!l->reviewed)
		return verdict_add_rule(v, id, what, true,
		    "no usable review, so no known issue");
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
	struct legal_stakes stakes;
	struct legal l;

	legal_read(in, advisory, &l);
	memset(&stakes, 0, sizeof stakes);
	stakes.no_review = !l.reviewed;
	if (stakes.no_review)
		no_review_why(in, advisory, &l, stakes.why, sizeof stakes.why);
	stakes.gate_count = cJSON_GetArraySize(l.gate_errors);
	stakes.unregated_fix = l.approves_fix && stakes.gate_count > 0;
	memcpy(state->bytes, &stakes, sizeof stakes);
	if (rule_no_unfixed_legal_issues(&l, v) != 0 ||
	    rule_gates_clear(&l, v) != 0 ||
	    rule_review_pass_consistent(&l, v) != 0)
		return -1;
	return 0;
}

/* SPEC 2.2: not overall_pass, or a review not had, or a fix not gated. */
static int
legal_assess_stakes(struct verdict *v, const union rule_pack_state *state)
{
	struct legal_stakes stakes;

	memcpy(&stakes, state->bytes, sizeof stakes);
	if (verdict_add_failed_rules(v) != 0)
		return -1;
	if (stakes.no_review && verdict_add_reason(v, "no_review", "%s; the "
	    "draft goes on with gates-only quality", stakes.why) != 0)
		return -1;
	if (stakes.unregated_fix && verdict_add_reason(v, "unregated_fix",
	    "the approved text is the inline fix; the gates ran on the draft "
	    "and reported %d error%s", stakes.gate_count,
	    stakes.gate_count == 1 ? "" : "s") != 0)
		return -1;
	v->requires_human_approval = v->reason_count > 0;
	return 0;
}

/* SPEC 2.2: the digest of the text the reviewer's routing approves. */
static bool
legal_approved_artifact(const struct check_input *in,
    const struct advisory *advisory, char sha256[SHA256_HEX_SIZE])
{
	struct legal l;
	const char *text;

	legal_read(in, advisory, &l);
	text = approved_text(&l);
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

/* The reviewer's conditional checks, each as text or as its JSON. */
static int
describe_checks(struct detail *d, const cJSON *checks)
{
	const cJSON *check;
	char *printed;
	int rc = 0;

	if (absent(checks))
		return 0;
	if (!cJSON_IsArray(checks))
		return detail_add(d, DETAIL_ALERT, "Reviewer's checks: not a "
		    "list (%s)", cJSON_IsString(checks) ? checks->valuestring :
		    "another type");
	if (detail_add(d, DETAIL_HEADING, "Reviewer's checks (%d)",
	    cJSON_GetArraySize(checks)) != 0)
		return -1;
	cJSON_ArrayForEach(check, checks) {
		if (cJSON_IsString(check)) {
			rc = detail_add_text(d, DETAIL_PLAIN, "  - ",
			    check->valuestring);
		} else {
			if ((printed = json_print(check)) == NULL)
				return -1;
			rc = detail_add_text(d, DETAIL_PLAIN, "  - ", printed);
			free(printed);
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int
describe_review(struct detail *d, const struct check_input *in,
    const struct advisory *advisory, const struct legal *l)
{
	char why[256], *printed;
	int rc;

	if (!l->reviewed) {
		no_review_why(in, advisory, l, why, sizeof why);
		if (detail_add(d, DETAIL_ALERT, "Review: NONE USABLE (%s): no "
		    "known issue, gates-only quality; approving is high stakes "
		    "(no_review)", why) != 0)
			return -1;
	}
	if (l->verdict == NULL)
		return 0;
	if (l->error != NULL && !cJSON_IsNull(l->error)) {
		if (cJSON_IsString(l->error))
			rc = detail_add_text(d, DETAIL_ALERT, "Review error: ",
			    l->error->valuestring);
		else {
			if ((printed = json_print(l->error)) == NULL)
				return -1;
			rc = detail_add_text(d, DETAIL_ALERT, "Review error: ",
			    printed);
			free(printed);
		}
		if (rc != 0)
			return -1;
	}
	if (detail_add(d, l->review_pass ? DETAIL_PLAIN : DETAIL_ALERT,
	    "Review: %s", cJSON_IsTrue(json_member(l->verdict,
	    "review_pass")) ? "passes the draft (review_pass true)" :
	    "does not pass the draft (review_pass false)") != 0 ||
	    describe_issues(d, "Blocking issues", l->blocking, true) != 0)
		return -1;
	if (l->problem[0] != '\0' && detail_add(d, DETAIL_ALERT,
	    "  (the verdict cannot be read in full: %s)", l->problem) != 0)
		return -1;
	return describe_issues(d, "Non-blocking issues", l->non_blocking,
	    false) != 0 || describe_checks(d, l->checks) != 0 ? -1 : 0;
}

/*
 * The other text, the one not approved, as its changes from the draft:
 * the draft when the fix is approved, the review's rewrite when the draft
 * is promoted although the review produced one.
 */
static int
describe_other(struct detail *d, const struct legal *l)
{
	if (l->fixed_text == NULL || l->fixed_text[0] == '\0')
		return 0;
	if (detail_add(d, DETAIL_HEADING, "%s", l->approves_fix ?
	    "NOT approved: the first-pass draft (draft_text); what the fix "
	    "changes in it:" : "NOT approved: the review's rewrite "
	    "(final_artifacts[0].text); what it changes in the draft:") != 0)
		return -1;
	if (l->artifact_count > 1 && detail_add(d, DETAIL_ALERT, "The review "
	    "offers %d texts; only the first one counts", l->artifact_count) !=
	    0)
		return -1;
	if (detail_add_diff(d, l->draft_text, l->fixed_text) == 0)
		return 0;
	/* Too long to diff: the other text in full is the next best. */
	if (detail_add(d, DETAIL_ALERT, "(too long to compare line by line; "
	    "the %s in full:)", l->approves_fix ? "draft" : "rewrite") != 0)
		return -1;
	return detail_add_document(d, DETAIL_DIM, "  ", l->approves_fix ?
	    l->draft_text : l->fixed_text);
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
	    describe_review(d, in, advisory, &l) != 0)
		return -1;
	if (detail_add(d, DETAIL_HEADING, "%s", l.approves_fix ?
	    "Approving approves the INLINE FIX (final_artifacts[0].text), "
	    "not the draft:" : "Approving approves the FIRST-PASS DRAFT "
	    "(draft_text):") != 0 ||
	    detail_add_document(d, DETAIL_PLAIN, "  ", approved_text(&l)) != 0)
		return -1;
	return describe_other(d, &l);
}

const struct rule_pack rules_legal_draft = {
	.kind = "legal_draft",
	.needs = 0,
	.compares_rules = false,
	.validate = legal_validate,
	.evaluate = legal_evaluate,
	.assess_stakes = legal_assess_stakes,
	.read_advisory = legal_read_advisory,
	.approved_artifact = legal_approved_artifact,
	.who = legal_who,
	.summarize = legal_summarize,
	.describe = legal_describe,
};
