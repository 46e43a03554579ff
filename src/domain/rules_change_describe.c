/*
 * What a human sees of a change (SPEC 2.3): its author and title in the
 * queue, and in the detail view the change and its commit and diff, every
 * criterion with the reviewer's state and evidence, the standards that
 * apply, those the reviewer cites, its assumptions, deferred checks and
 * gaps.
 * All packet text goes through detail_add()/detail_add_text(), which
 * sanitize it whole, so evidence is shown verbatim yet harmless.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "json_fields.h"
#include "rule_pack.h"
#include "rules_change.h"
#include "text.h"
#include "utf8.h"

const char *
change_who(const cJSON *action)
{
	return change_string(action, "author");
}

/* The title, cut at a character boundary so no half character remains. */
void
change_summarize(const cJSON *action, char *buf, size_t size)
{
	const char *title = change_string(action, "title");
	size_t len, used = 0;
	uint32_t cp;
	int step;

	if (size == 0)
		return;
	if (title == NULL)
		title = "?";
	len = strlen(title);
	while (used < len) {
		step = utf8_next((const unsigned char *)title + used,
		    len - used, &cp);
		if (step < 0)
			step = -step;
		if (used + (size_t)step >= size)
			break;
		used += (size_t)step;
	}
	memcpy(buf, title, used);
	buf[used] = '\0';
}

static const char *
advisory_problem(const struct advisory *advisory)
{
	switch (advisory->state) {
	case ADVISORY_MISSING:
		return "missing";
	case ADVISORY_UNPARSEABLE:
		return "unreadable";
	case ADVISORY_OTHER_ACTION:
		return "about another action";
	case ADVISORY_AVAILABLE:
		break;
	}
	return NULL;
}

/* "Domains: auth, billing", when the change names any. */
static int
describe_list(const cJSON *action, const char *key, const char *label,
    struct detail *d)
{
	const cJSON *item;
	char *joined = NULL, *next;
	int rc;

	cJSON_ArrayForEach(item, json_member(action, key)) {
		if (!cJSON_IsString(item))
			continue;
		next = joined == NULL ? text_copy(item->valuestring) :
		    text_printf("%s, %s", joined, item->valuestring);
		free(joined);
		if ((joined = next) == NULL)
			return -1;
	}
	if (joined == NULL)
		return 0;
	rc = detail_add(d, DETAIL_PLAIN, "%s: %s", label, joined);
	free(joined);
	return rc;
}

/* Title, PR, CI, the commit, the scope and the reviewer's outcome. */
static int
describe_change(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	const char *status = change_text(in->action, "ci_status");
	const char *pr = change_string(in->action, "pr_url");
	const char *outcome = change_text(advisory->verdict, "outcome");
	const char *sha = change_string(in->action, "head_sha");
	bool green = strcmp(status, "green") == 0;

	if (detail_add(d, DETAIL_HEADING, "Change") != 0 ||
	    detail_add(d, DETAIL_PLAIN, "Title: %s",
	    change_text(in->action, "title")) != 0 ||
	    (pr != NULL ? detail_add(d, DETAIL_PLAIN, "PR: %s", pr) :
	    detail_add(d, DETAIL_DIM, "PR: no link given")) != 0 ||
	    detail_add(d, green ? DETAIL_PLAIN : DETAIL_ALERT, "CI: %s%s",
	    status, green ? "" : " (not green)") != 0 ||
	    (sha != NULL ? detail_add(d, DETAIL_PLAIN, "Commit: %s "
	    "(an approval approves this commit)", sha) :
	    detail_add(d, DETAIL_ALERT, "Commit: none given: an approval "
	    "would not be bound to the code reviewed")) != 0 ||
	    describe_list(in->action, "domains", "Domains", d) != 0 ||
	    describe_list(in->action, "decision_types", "Decision types",
	    d) != 0)
		return -1;
	if (advisory->state != ADVISORY_AVAILABLE)
		return detail_add(d, DETAIL_ALERT, "Advisory verdict: %s",
		    advisory_problem(advisory));
	return detail_add(d, strcmp(outcome, "block") == 0 ? DETAIL_ALERT :
	    DETAIL_PLAIN, "Reviewer outcome: %s", outcome);
}

/* What an evidence object says it proved, when it says. */
static int
describe_proved(const cJSON *evidence, struct detail *d)
{
	const char *proved = change_string(evidence, "proved");

	if (text_blank(proved))
		return 0;
	return detail_add_text(d, DETAIL_PLAIN, "      proved: ", proved);
}

static int
describe_evidence(const cJSON *result, struct detail *d)
{
	const cJSON *evidence = json_member(result, "evidence");
	const cJSON *line = json_member(evidence, "line");
	bool met = strcmp(change_text(result, "state"), "MET") == 0;
	const char *file;

	if (!change_evidence_cites(evidence))
		return detail_add(d, met ? DETAIL_ALERT : DETAIL_DIM,
		    "    evidence: none%s", cJSON_IsObject(evidence) ?
		    " (neither a command with its output nor a file)" : "");
	if (cJSON_IsString(evidence))
		return detail_add(d, met ? DETAIL_ALERT : DETAIL_PLAIN,
		    "    evidence: a statement, citing no command, output "
		    "or file%s", met ? " (uncited_evidence)" : "") != 0 ||
		    detail_add_text(d, DETAIL_PLAIN, "      ",
		    evidence->valuestring) != 0 ? -1 : 0;
	if (detail_add(d, DETAIL_PLAIN, "    evidence:") != 0)
		return -1;
	file = change_string(evidence, "file");
	if (!text_blank(file) && (cJSON_IsNumber(line) ? detail_add(d,
	    DETAIL_PLAIN, "      file: %s:%d", file, line->valueint) :
	    cJSON_IsString(line) ? detail_add(d, DETAIL_PLAIN,
	    "      file: %s:%s", file, line->valuestring) :
	    detail_add(d, DETAIL_PLAIN, "      file: %s", file)) != 0)
		return -1;
	if (!text_blank(change_string(evidence, "command")) &&
	    (detail_add_text(d, DETAIL_PLAIN, "      $ ",
	    change_text(evidence, "command")) != 0 ||
	    detail_add_text(d, DETAIL_PLAIN, "      ",
	    change_text(evidence, "output")) != 0))
		return -1;
	return describe_proved(evidence, d);
}

/* One result: its state, the human's judgment when it needs one, evidence. */
static int
describe_result(const struct check_input *in, const cJSON *result,
    struct detail *d)
{
	const char *state = change_text(result, "state");
	const char *judgment;
	bool needs_po = strcmp(state, "NEEDS-PO") == 0;

	if (detail_add(d, strcmp(state, "MET") == 0 ? DETAIL_PLAIN :
	    DETAIL_ALERT, "    reviewer: %s", state) != 0)
		return -1;
	judgment = change_judgment(in->po_judgments,
	    change_string(result, "ac_id"));
	if (judgment != NULL && detail_add(d, strcmp(judgment, "met") == 0 ?
	    DETAIL_PLAIN : DETAIL_ALERT, "    your judgment: %s",
	    judgment) != 0)
		return -1;
	if (needs_po && judgment == NULL && detail_add(d, DETAIL_ALERT,
	    "    awaiting your judgment: met or unmet") != 0)
		return -1;
	return describe_evidence(result, d);
}

static int
describe_criteria(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	const cJSON *criteria = json_member(in->action, "acceptance_criteria");
	const cJSON *criterion;
	struct result_ref *refs;
	size_t i = 0, k = 0, count, n;
	int rc = -1;

	refs = change_results_sorted(criteria, json_member(advisory->verdict,
	    "ac_results"), &count);
	if (refs == NULL || detail_add(d, DETAIL_HEADING,
	    "Acceptance criteria (%d)", cJSON_GetArraySize(criteria)) != 0)
		goto done;
	cJSON_ArrayForEach(criterion, criteria) {
		if (detail_add(d, DETAIL_PLAIN, "%s",
		    change_text(criterion, "id")) != 0 ||
		    detail_add_text(d, DETAIL_PLAIN, "    ",
		    change_text(criterion, "text")) != 0)
			goto done;
		for (n = 0; k < count && refs[k].criterion == i; k++, n++) {
			if (describe_result(in, refs[k].result, d) != 0)
				goto done;
		}
		if ((n == 0 && detail_add(d, DETAIL_ALERT,
		    "    no result from the reviewer") != 0) ||
		    (n > 1 && detail_add(d, DETAIL_ALERT, "    %zu results "
		    "for one criterion", n) != 0))
			goto done;
		i++;
	}
	for (; k < count; k++) {
		if (detail_add(d, DETAIL_ALERT, "Result for unknown criterion "
		    "%s", change_text(refs[k].result, "ac_id")) != 0 ||
		    describe_result(in, refs[k].result, d) != 0)
			goto done;
	}
	rc = 0;
done:
	free(refs);
	return rc;
}

/* One applicable Accepted standard: its assertion and what the verdict says. */
static int
describe_standard(const cJSON *standard, const struct scope_match *match,
    const struct advisory *advisory, struct detail *d)
{
	const char *id = change_text(standard, "id");
	enum standard_claim claim = change_standard_claim(json_member(
	    advisory->verdict, "standards"), id);
	char why[256];

	change_scope_text(match, why, sizeof why);
	if (detail_add(d, DETAIL_PLAIN, "%s (%s)", id, why) != 0 ||
	    detail_add_text(d, DETAIL_PLAIN, "    ",
	    change_text(standard, "assertion")) != 0)
		return -1;
	switch (claim) {
	case CLAIM_MET:
		return detail_add(d, DETAIL_PLAIN, "    reviewer: met");
	case CLAIM_NOT_MET:
		return detail_add(d, DETAIL_ALERT, "    reviewer: not met");
	case CLAIM_ABSENT:
		break;
	}
	return detail_add(d, DETAIL_ALERT, "    reviewer: not assessed");
}

static int
describe_standards(const struct check_input *in,
    const struct advisory *advisory, const cJSON *diff_paths,
    struct detail *d)
{
	const cJSON *standard;
	struct scope_match match;
	size_t shown = 0;

	if (detail_add(d, DETAIL_HEADING, "Applicable standards") != 0)
		return -1;
	if (in->standards == NULL)
		return detail_add(d, DETAIL_ALERT, "No standards index has "
		    "been imported: the standards that apply are unknown");
	cJSON_ArrayForEach(standard, json_member(in->standards, "standards")) {
		if (strcmp(change_text(standard, "status"), "Accepted") != 0 ||
		    !change_standard_applies(standard, in->action, diff_paths,
		    &match))
			continue;
		shown++;
		if (describe_standard(standard, &match, advisory, d) != 0)
			return -1;
	}
	if (shown == 0)
		return detail_add(d, DETAIL_DIM, "No Accepted standard applies "
		    "to the changed files");
	return 0;
}

/* One entry of verdict.standards: what the index says of it. */
static int
describe_cited(const struct check_input *in, const struct standard_lookup *l,
    const cJSON *entry, const cJSON *diff_paths, struct detail *d)
{
	const char *id = change_text(entry, "id");
	const char *rule_id = change_string(entry, "rule");
	const char *note = change_string(entry, "note");
	bool met = cJSON_IsTrue(json_member(entry, "met"));
	const cJSON *standard, *rule;
	struct scope_match match;
	char why[256];

	if (detail_add(d, met ? DETAIL_PLAIN : DETAIL_ALERT, "%s%s%s: %s", id,
	    rule_id != NULL ? " rule " : "", rule_id != NULL ? rule_id : "",
	    met ? "met" : "NOT MET") != 0 ||
	    (!text_blank(note) && detail_add_text(d, DETAIL_PLAIN,
	    "    note: ", note) != 0))
		return -1;
	if (l == NULL)
		return detail_add(d, DETAIL_ALERT, "    no standards index has "
		    "been imported: whether it exists is unknown");
	standard = change_lookup(l, id, rule_id, &rule);
	if (standard == NULL)
		return detail_add(d, DETAIL_ALERT, "    not in the standards "
		    "index: the reviewer cites a standard that does not "
		    "exist");
	if (detail_add(d, strcmp(change_text(standard, "status"),
	    "Accepted") == 0 ? DETAIL_PLAIN : DETAIL_DIM, "    in the index, "
	    "status %s", change_text(standard, "status")) != 0)
		return -1;
	if (change_standard_applies(standard, in->action, diff_paths,
	    &match)) {
		change_scope_text(&match, why, sizeof why);
		if (detail_add(d, DETAIL_PLAIN, "    applies: %s", why) != 0)
			return -1;
	} else if (detail_add(d, DETAIL_DIM, "    does not apply to this "
	    "change") != 0)
		return -1;
	if (rule_id == NULL)
		return 0;
	if (rule == NULL)
		return detail_add(d, DETAIL_ALERT, "    the standard has no "
		    "rule %s", rule_id);
	return detail_add(d, DETAIL_PLAIN, "    %s %s: %s",
	    change_text(rule, "level"), rule_id,
	    change_text(rule, "assertion")) != 0 ||
	    detail_add_text(d, DETAIL_PLAIN, "    fix: ",
	    change_text(rule, "fix")) != 0 ? -1 : 0;
}

static int
describe_cited_standards(const struct check_input *in,
    const struct advisory *advisory, const cJSON *diff_paths,
    struct detail *d)
{
	const cJSON *entries = json_member(advisory->verdict, "standards");
	const cJSON *entry;
	struct standard_lookup lookup;
	bool indexed;
	int rc = 0;

	if (detail_add(d, DETAIL_HEADING, "Standards the reviewer cites") != 0)
		return -1;
	if (cJSON_GetArraySize(entries) == 0)
		return detail_add(d, DETAIL_DIM, "none");
	indexed = in->standards != NULL;
	if (indexed && change_lookup_init(&lookup, json_member(in->standards,
	    "standards")) != 0)
		return -1;
	cJSON_ArrayForEach(entry, entries) {
		if ((rc = describe_cited(in, indexed ? &lookup : NULL, entry,
		    diff_paths, d)) != 0)
			break;
	}
	if (indexed)
		change_lookup_free(&lookup);
	return rc;
}

/* Flagged assumptions and deferred checks: each is for the human. */
static int
describe_assumptions(const struct advisory *advisory, struct detail *d)
{
	const cJSON *item;
	const char *check;

	if (detail_add(d, DETAIL_HEADING, "Flagged assumptions") != 0)
		return -1;
	if (cJSON_GetArraySize(json_member(advisory->verdict,
	    "flagged_assumptions")) == 0 &&
	    detail_add(d, DETAIL_DIM, "none") != 0)
		return -1;
	cJSON_ArrayForEach(item, json_member(advisory->verdict,
	    "flagged_assumptions")) {
		if (detail_add_text(d, DETAIL_ALERT, "  - ",
		    cJSON_IsString(item) ? item->valuestring : "?") != 0)
			return -1;
	}
	if (detail_add(d, DETAIL_HEADING, "Deferred checks") != 0)
		return -1;
	if (cJSON_GetArraySize(json_member(advisory->verdict,
	    "deferred_checks")) == 0)
		return detail_add(d, DETAIL_DIM, "none");
	cJSON_ArrayForEach(item, json_member(advisory->verdict,
	    "deferred_checks")) {
		check = change_string(item, "check");
		if (text_blank(check))
			check = "(unnamed check)";
		if (!cJSON_IsTrue(json_member(item, "ran")) ?
		    detail_add(d, DETAIL_ALERT, "  - %s: NOT RUN", check) :
		    !cJSON_IsTrue(json_member(item, "passed")) ?
		    detail_add(d, DETAIL_ALERT, "  - %s: ran, FAILED", check) :
		    detail_add(d, DETAIL_PLAIN, "  - %s: ran, passed", check))
			return -1;
	}
	return 0;
}

/*
 * The diff, one detail line per line.  Added and removed lines keep
 * their "+" and "-" and get styles that differ without colour too (bold
 * and dim), so a colour-blind reader or a monochrome terminal loses
 * nothing.
 */
static int
describe_diff(const struct check_input *in, struct detail *d)
{
	const char *diff = change_string(in->action, "diff"), *line, *end;
	enum detail_style style;
	size_t length;

	if (diff == NULL)
		return 0;
	if (detail_add(d, DETAIL_HEADING, "Diff") != 0)
		return -1;
	for (line = diff; *line != '\0'; line = end + (*end != '\0')) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		length = (size_t)(end - line);
		style = DETAIL_PLAIN;
		if (strncmp(line, "+++", 3) == 0 || strncmp(line, "---", 3) ==
		    0 || strncmp(line, "@@", 2) == 0 || strncmp(line, "diff ",
		    5) == 0)
			style = DETAIL_DIM;
		else if (line[0] == '+')
			style = DETAIL_ADDED;
		else if (line[0] == '-')
			style = DETAIL_REMOVED;
		if (detail_add(d, style, "  %.*s", (int)length, line) != 0)
			return -1;
	}
	return 0;
}

/* The gaps of one class; a missing standard blocks, so it is an alert. */
static int
describe_gaps(const cJSON *gaps, const char *class, const char *title,
    enum detail_style style, struct detail *d)
{
	const cJSON *gap;
	bool any = false;

	cJSON_ArrayForEach(gap, gaps) {
		if (strcmp(change_text(gap, "class"), class) != 0)
			continue;
		if (!any && detail_add(d, DETAIL_PLAIN, "%s:", title) != 0)
			return -1;
		any = true;
		if (detail_add_text(d, style, "  - ",
		    change_text(gap, "text")) != 0)
			return -1;
	}
	return 0;
}

static int
describe_files(const struct check_input *in, struct detail *d)
{
	const cJSON *files = json_member(in->action, "changed_files"), *file;

	if (detail_add(d, DETAIL_HEADING, "Changed files (%d)",
	    cJSON_GetArraySize(files)) != 0)
		return -1;
	cJSON_ArrayForEach(file, files) {
		if (detail_add(d, DETAIL_PLAIN, "  %s",
		    cJSON_IsString(file) ? file->valuestring : "?") != 0)
			return -1;
	}
	return 0;
}

int
change_describe(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	const cJSON *gaps = json_member(advisory->verdict, "gaps");
	cJSON *diff_paths;
	int rc;

	/* Standards apply by the diff's paths too (SPEC 2.3 rule 10). */
	if (change_diff_paths(change_string(in->action, "diff"),
	    &diff_paths) != 0)
		return -1;
	rc = describe_change(in, advisory, d) != 0 ||
	    describe_files(in, d) != 0 ||
	    describe_diff(in, d) != 0 ||
	    describe_criteria(in, advisory, d) != 0 ||
	    describe_standards(in, advisory, diff_paths, d) != 0 ||
	    (advisory->state == ADVISORY_AVAILABLE &&
	    (describe_cited_standards(in, advisory, diff_paths, d) != 0 ||
	    describe_assumptions(advisory, d) != 0)) ||
	    detail_add(d, DETAIL_HEADING, "Gaps") != 0;
	cJSON_Delete(diff_paths);
	if (rc != 0)
		return -1;
	if (advisory->state != ADVISORY_AVAILABLE)
		return detail_add(d, DETAIL_ALERT, "unknown: no readable "
		    "advisory verdict");
	if (cJSON_GetArraySize(gaps) == 0)
		return detail_add(d, DETAIL_DIM, "none reported");
	if (describe_gaps(gaps, "missing_standard", "Missing standards (block)",
	    DETAIL_ALERT, d) != 0 ||
	    describe_gaps(gaps, "missing_fact", "Missing facts",
	    DETAIL_PLAIN, d) != 0)
		return -1;
	return 0;
}
