/*
 * What a human sees of a change (SPEC 2.3): its author and title in the
 * queue, and in the detail view the change, every criterion with the
 * reviewer's state and evidence, the standards that apply and the gaps.
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

/* Title, PR, CI and the reviewer's outcome. */
static int
describe_change(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	const char *status = change_text(in->action, "ci_status");
	const char *pr = change_string(in->action, "pr_url");
	const char *outcome = change_text(advisory->verdict, "outcome");
	bool green = strcmp(status, "green") == 0;

	if (detail_add(d, DETAIL_HEADING, "Change") != 0 ||
	    detail_add(d, DETAIL_PLAIN, "Title: %s",
	    change_text(in->action, "title")) != 0 ||
	    (pr != NULL ? detail_add(d, DETAIL_PLAIN, "PR: %s", pr) :
	    detail_add(d, DETAIL_DIM, "PR: no link given")) != 0 ||
	    detail_add(d, green ? DETAIL_PLAIN : DETAIL_ALERT, "CI: %s%s",
	    status, green ? "" : " (not green)") != 0)
		return -1;
	if (advisory->state != ADVISORY_AVAILABLE)
		return detail_add(d, DETAIL_ALERT, "Advisory verdict: %s",
		    advisory_problem(advisory));
	return detail_add(d, strcmp(outcome, "block") == 0 ? DETAIL_ALERT :
	    DETAIL_PLAIN, "Reviewer outcome: %s", outcome);
}

static int
describe_evidence(const cJSON *result, struct detail *d)
{
	const cJSON *evidence = json_member(result, "evidence");
	bool met = strcmp(change_text(result, "state"), "MET") == 0;

	if (!change_evidence_cites(evidence) && !cJSON_IsObject(evidence))
		return detail_add(d, met ? DETAIL_ALERT : DETAIL_DIM,
		    "    evidence: none");
	if (detail_add(d, DETAIL_PLAIN, "    evidence:") != 0)
		return -1;
	if (cJSON_IsString(evidence))
		return detail_add_text(d, DETAIL_PLAIN, "      ",
		    evidence->valuestring);
	if (detail_add_text(d, DETAIL_PLAIN, "      $ ",
	    change_text(evidence, "command")) != 0)
		return -1;
	return detail_add_text(d, DETAIL_PLAIN, "      ",
	    change_text(evidence, "output"));
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
    const struct advisory *advisory, struct detail *d)
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
		    !change_standard_applies(standard, in->action, &match))
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

	if (describe_change(in, advisory, d) != 0 ||
	    describe_files(in, d) != 0 ||
	    describe_criteria(in, advisory, d) != 0 ||
	    describe_standards(in, advisory, d) != 0 ||
	    detail_add(d, DETAIL_HEADING, "Gaps") != 0)
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
