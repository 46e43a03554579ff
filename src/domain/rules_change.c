/*
 * The change rule pack, SPEC 2.3: a code change, the reviewer's judgment
 * of each acceptance criterion, and the Accepted standards its files fall
 * under.  The gate refuses MET claims that cite nothing, changes that miss
 * an applicable standard, blocks, and leaves every NEEDS-PO criterion to
 * the deciding human.  Every missing input fails its rule closed.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "rule_pack.h"
#include "rules_change.h"
#include "text.h"

/* A rule detail names this many offenders, then counts the rest. */
#define FINDINGS_SHOWN 8

/* ---- rule details: the offenders, joined ---- */

struct findings {
	char *text;		/* "a; b; c", or NULL */
	size_t count;
	bool nomem;
};

static void
finding(struct findings *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
finding(struct findings *f, const char *fmt, ...)
{
	va_list ap;
	char *item, *joined;
	int len;

	if (f->nomem || f->count++ >= FINDINGS_SHOWN)
		return;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0 || (item = malloc((size_t)len + 1)) == NULL) {
		f->nomem = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(item, (size_t)len + 1, fmt, ap);
	va_end(ap);
	joined = f->text == NULL ? text_copy(item) :
	    text_printf("%s; %s", f->text, item);
	free(item);
	free(f->text);
	f->text = joined;
	if (joined == NULL)
		f->nomem = true;
}

/*
 * Adds rule id: failing with the findings when there are any, else
 * passing with pass_detail.  Frees the findings.
 */
static int
findings_rule(struct verdict *v, const char *id, const char *what,
    struct findings *f, const char *pass_detail)
{
	int rc;

	if (f->nomem)
		rc = -1;
	else if (f->count == 0)
		rc = verdict_add_rule(v, id, what, true, "%s", pass_detail);
	else if (f->count > FINDINGS_SHOWN)
		rc = verdict_add_rule(v, id, what, false, "%s; and %zu more",
		    f->text, f->count - FINDINGS_SHOWN);
	else
		rc = verdict_add_rule(v, id, what, false, "%s", f->text);
	free(f->text);
	memset(f, 0, sizeof *f);
	return rc;
}

/* ---- the rules ---- */

/* What the rules read, gathered once. */
struct change {
	const struct check_input *in;
	const cJSON *criteria;		/* the action's acceptance_criteria */
	const cJSON *files;		/* proposed_action.changed_files */
	const cJSON *judgments;		/* the po_judgments object, or NULL */
	bool available;			/* a readable advisory about it */
	const char *unavailable;	/* why not, for the details */
	const cJSON *results;		/* verdict.ac_results */
	const cJSON *standards;		/* verdict.standards, or NULL */
	const cJSON *gaps;		/* verdict.gaps, or NULL */
	const char *outcome;
	struct result_ref *refs;	/* results sorted by criterion */
	size_t ref_count;
};

static const char *
unavailable_reason(const struct advisory *advisory)
{
	switch (advisory->state) {
	case ADVISORY_MISSING:
		return "no advisory verdict was received";
	case ADVISORY_OTHER_ACTION:
		return "the advisory verdict is about another action";
	case ADVISORY_UNPARSEABLE:
	case ADVISORY_AVAILABLE:
		break;
	}
	return "the advisory verdict could not be read";
}

static int
change_read(const struct check_input *in, const struct advisory *advisory,
    struct change *c)
{
	memset(c, 0, sizeof *c);
	c->in = in;
	c->criteria = json_member(in->action, "acceptance_criteria");
	c->files = json_member(in->action, "changed_files");
	c->judgments = cJSON_IsObject(in->po_judgments) ? in->po_judgments :
	    NULL;
	c->available = advisory->state == ADVISORY_AVAILABLE;
	c->unavailable = unavailable_reason(advisory);
	if (!c->available)
		return 0;
	c->results = json_member(advisory->verdict, "ac_results");
	c->standards = json_member(advisory->verdict, "standards");
	c->gaps = json_member(advisory->verdict, "gaps");
	c->outcome = change_string(advisory->verdict, "outcome");
	c->refs = change_results_sorted(c->criteria, c->results,
	    &c->ref_count);
	return c->refs != NULL ? 0 : -1;
}

static int
rule_ac_coverage(const struct change *c, struct verdict *v)
{
	static const char id[] = "ac_coverage";
	static const char what[] =
	    "Every acceptance criterion has exactly one result";
	const cJSON *criterion;
	struct findings f = { 0 };
	size_t i = 0, k = 0, n;
	char pass[96];

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so no "
		    "criterion has a result", c->unavailable);
	/* refs are grouped by criterion, in criterion order. */
	cJSON_ArrayForEach(criterion, c->criteria) {
		for (n = 0; k < c->ref_count && c->refs[k].criterion == i; k++)
			n++;
		if (n == 0)
			finding(&f, "%s has no result",
			    change_text(criterion, "id"));
		else if (n > 1)
			finding(&f, "%s has %zu results",
			    change_text(criterion, "id"), n);
		i++;
	}
	for (; k < c->ref_count; k++)
		finding(&f, "ac_results[%zu] names %s, which is not a "
		    "criterion of this change", c->refs[k].order,
		    change_text(c->refs[k].result, "ac_id"));
	if (i == 0)
		snprintf(pass, sizeof pass, "the change has no acceptance "
		    "criteria and the verdict no results");
	else
		snprintf(pass, sizeof pass, "each of the %zu criteria has one "
		    "result", i);
	return findings_rule(v, id, what, &f, pass);
}

static int
rule_met_has_evidence(const struct change *c, struct verdict *v)
{
	static const char id[] = "met_has_evidence";
	static const char what[] = "Every MET result cites evidence";
	const cJSON *result;
	struct findings f = { 0 };
	size_t met = 0;
	char pass[64];

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so no MET "
		    "claim can be shown to cite evidence", c->unavailable);
	cJSON_ArrayForEach(result, c->results) {
		if (strcmp(change_text(result, "state"), "MET") != 0)
			continue;
		met++;
		if (change_evidence_empty(json_member(result, "evidence")))
			finding(&f, "%s is MET but cites no evidence",
			    change_text(result, "ac_id"));
	}
	snprintf(pass, sizeof pass, "%zu MET result(s), each citing evidence",
	    met);
	return findings_rule(v, id, what, &f, pass);
}

static int
rule_no_unmet(const struct change *c, struct verdict *v)
{
	static const char id[] = "no_unmet";
	static const char what[] = "No acceptance criterion is UNMET";
	const cJSON *result;
	struct findings f = { 0 };

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so no "
		    "criterion can be shown to be met", c->unavailable);
	cJSON_ArrayForEach(result, c->results) {
		if (strcmp(change_text(result, "state"), "UNMET") == 0)
			finding(&f, "%s is UNMET",
			    change_text(result, "ac_id"));
	}
	return findings_rule(v, id, what, &f, "no result is UNMET");
}

static int
rule_ci_green(const struct change *c, struct verdict *v)
{
	static const char id[] = "ci_green";
	static const char what[] = "CI is green";
	const char *status = change_text(c->in->action, "ci_status");

	if (strcmp(status, "green") != 0)
		return verdict_add_rule(v, id, what, false,
		    "CI is %s, not green", status[0] ? status : "unknown");
	return verdict_add_rule(v, id, what, true, "CI is green");
}

/* One Accepted standard that applies: does the verdict say it is met? */
static void
standard_check(const struct change *c, const cJSON *standard,
    struct findings *f, size_t *applicable)
{
	const char *sid = change_text(standard, "id"), *pattern, *file;

	if (strcmp(change_text(standard, "status"), "Accepted") != 0 ||
	    !change_standard_applies(standard, c->files, &pattern, &file))
		return;
	(*applicable)++;
	if (!c->available) {
		finding(f, "%s applies (%s matches %s) but %s", sid, pattern,
		    file, c->unavailable);
		return;
	}
	switch (change_standard_claim(c->standards, sid)) {
	case CLAIM_ABSENT:
		finding(f, "%s applies (%s matches %s) but the verdict does "
		    "not assess it", sid, pattern, file);
		break;
	case CLAIM_NOT_MET:
		finding(f, "%s applies (%s matches %s) and the verdict says "
		    "it is not met", sid, pattern, file);
		break;
	case CLAIM_MET:
		break;
	}
}

static int
rule_applicable_standards_met(const struct change *c, struct verdict *v)
{
	static const char id[] = "applicable_standards_met";
	static const char what[] =
	    "Every Accepted standard that applies to the change is met";
	const cJSON *standards, *standard;
	struct findings f = { 0 };
	size_t applicable = 0;
	char pass[96];

	/* No index: which standards apply is unknown, so fail closed. */
	if (c->in->standards == NULL)
		return verdict_add_rule(v, id, what, false, "no standards "
		    "index has been imported, so the standards that apply "
		    "are unknown");
	standards = json_member(c->in->standards, "standards");
	if (!cJSON_IsArray(standards))
		return verdict_add_rule(v, id, what, false,
		    "the standards index cannot be read");
	cJSON_ArrayForEach(standard, standards)
		standard_check(c, standard, &f, &applicable);
	if (applicable == 0)
		snprintf(pass, sizeof pass, "no Accepted standard applies to "
		    "the changed files");
	else
		snprintf(pass, sizeof pass, "%zu applicable Accepted "
		    "standard(s), each met", applicable);
	return findings_rule(v, id, what, &f, pass);
}

static int
rule_no_block(const struct change *c, struct verdict *v)
{
	static const char id[] = "no_block";
	static const char what[] =
	    "The reviewer neither blocks the change nor lacks a standard";
	const cJSON *gap;
	struct findings f = { 0 };
	size_t facts = 0;
	char pass[96];

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so whether "
		    "it blocks is unknown", c->unavailable);
	if (strcmp(c->outcome, "block") == 0)
		finding(&f, "the reviewer's outcome is block");
	cJSON_ArrayForEach(gap, c->gaps) {
		/* A missing fact is for the human to weigh; it never blocks. */
		if (strcmp(change_text(gap, "class"), "missing_fact") == 0)
			facts++;
		else
			finding(&f, "missing standard: %s",
			    change_text(gap, "text"));
	}
	snprintf(pass, sizeof pass, "outcome %s, no missing standard "
	    "(%zu missing fact(s))", c->outcome, facts);
	return findings_rule(v, id, what, &f, pass);
}

/* A judgment about no criterion of this change was meant for another. */
static void
stray_judgments(const struct change *c, struct findings *f)
{
	const cJSON *judgment, *criterion;
	bool known;

	cJSON_ArrayForEach(judgment, c->judgments) {
		known = false;
		cJSON_ArrayForEach(criterion, c->criteria) {
			if (strcmp(change_text(criterion, "id"),
			    judgment->string) == 0) {
				known = true;
				break;
			}
		}
		if (!known)
			finding(f, "po_judgments names %s, which is not a "
			    "criterion of this change", judgment->string);
	}
}

static int
rule_needs_po_judged(const struct change *c, struct verdict *v)
{
	static const char id[] = "needs_po_judged";
	static const char what[] =
	    "The deciding human has judged every NEEDS-PO criterion met";
	const cJSON *result, *judgment;
	struct findings f = { 0 };
	const char *ac_id;
	size_t asked = 0;
	char pass[64];

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so which "
		    "criteria need the product owner is unknown",
		    c->unavailable);
	cJSON_ArrayForEach(result, c->results) {
		if (strcmp(change_text(result, "state"), "NEEDS-PO") != 0)
			continue;
		asked++;
		ac_id = change_text(result, "ac_id");
		if (change_judgment(c->judgments, ac_id) == NULL)
			finding(&f, "%s is NEEDS-PO and awaits your judgment",
			    ac_id);
	}
	/* The human's "unmet" stands, whatever the reviewer said. */
	cJSON_ArrayForEach(judgment, c->judgments) {
		if (cJSON_IsString(judgment) &&
		    strcmp(judgment->valuestring, "unmet") == 0)
			finding(&f, "%s was judged unmet", judgment->string);
	}
	stray_judgments(c, &f);
	if (asked == 0)
		snprintf(pass, sizeof pass, "no criterion is NEEDS-PO");
	else
		snprintf(pass, sizeof pass, "%zu NEEDS-PO criteria judged met",
		    asked);
	return findings_rule(v, id, what, &f, pass);
}

static int
change_evaluate(const struct check_input *in, const struct advisory *advisory,
    struct verdict *v, union rule_pack_state *state)
{
	struct change c;
	int rc = -1;

	(void)state;	/* no assess_stakes() */
	if (change_read(in, advisory, &c) != 0)
		goto done;
	if (rule_ac_coverage(&c, v) != 0 ||
	    rule_met_has_evidence(&c, v) != 0 ||
	    rule_no_unmet(&c, v) != 0 ||
	    rule_ci_green(&c, v) != 0 ||
	    rule_applicable_standards_met(&c, v) != 0 ||
	    rule_no_block(&c, v) != 0 ||
	    rule_needs_po_judged(&c, v) != 0)
		goto done;
	rc = 0;
done:
	free(c.refs);
	return rc;
}

static int
change_unjudged_criteria(const struct check_input *in,
    const struct advisory *advisory)
{
	const cJSON *result;
	int unjudged = 0;

	/* Without a verdict no criterion is known to need the PO. */
	if (advisory->state != ADVISORY_AVAILABLE)
		return 0;
	cJSON_ArrayForEach(result, json_member(advisory->verdict,
	    "ac_results")) {
		if (strcmp(change_text(result, "state"), "NEEDS-PO") == 0 &&
		    change_judgment(in->po_judgments,
		    change_string(result, "ac_id")) == NULL)
			unjudged++;
	}
	return unjudged;
}

/* The NEEDS-PO criteria with their text, for the approve dialog to walk. */
static cJSON *
change_judgment_criteria(const struct check_input *in,
    const struct advisory *advisory)
{
	const cJSON *result, *criterion;
	cJSON *list = cJSON_CreateArray(), *item;
	const char *id;

	if (list == NULL || advisory->state != ADVISORY_AVAILABLE)
		return list;
	cJSON_ArrayForEach(result, json_member(advisory->verdict,
	    "ac_results")) {
		if (strcmp(change_text(result, "state"), "NEEDS-PO") != 0 ||
		    (id = change_string(result, "ac_id")) == NULL)
			continue;
		item = cJSON_CreateObject();
		cJSON_AddStringToObject(item, "id", id);
		cJSON_ArrayForEach(criterion, json_member(in->action,
		    "acceptance_criteria")) {
			if (strcmp(change_text(criterion, "id"), id) == 0) {
				cJSON_AddStringToObject(item, "text",
				    change_text(criterion, "text"));
				break;
			}
		}
		if (json_member(item, "text") == NULL)
			cJSON_AddStringToObject(item, "text",
			    "(no such criterion)");
		cJSON_AddItemToArray(list, item);
	}
	return list;
}

const struct rule_pack rules_change = {
	.kind = "change",
	.needs = NEEDS_STANDARDS,
	.compares_rules = false,
	.validate = change_validate,
	.evaluate = change_evaluate,
	.read_advisory = change_read_advisory,
	.unjudged_criteria = change_unjudged_criteria,
	.judgment_criteria = change_judgment_criteria,
	.who = change_who,
	.summarize = change_summarize,
	.describe = change_describe,
};
