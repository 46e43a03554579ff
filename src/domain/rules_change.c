/*
 * The change rule pack, SPEC 2.3: a code change, the reviewer's judgment
 * of each acceptance criterion, and the Accepted standards its files fall
 * under.  The gate refuses MET claims that cite nothing, changes that miss
 * an applicable standard, blocks, standards the index lacks and deferred
 * checks that did not pass, and leaves every NEEDS-PO criterion to the
 * deciding human.  Every missing input fails its rule closed.
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
	const cJSON *deferred;		/* verdict.deferred_checks, or NULL */
	const cJSON *flagged;	/* verdict.flagged_assumptions, or NULL */
	const char *outcome;
	struct result_ref *refs;	/* results sorted by criterion */
	size_t ref_count;
	const char *diff;		/* proposed_action.diff, or NULL */
	cJSON *diff_paths;		/* its headers' paths, or NULL */
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
	c->diff = change_string(in->action, "diff");
	if (change_diff_paths(c->diff, &c->diff_paths) != 0)
		return -1;
	if (!c->available)
		return 0;
	c->results = json_member(advisory->verdict, "ac_results");
	c->standards = json_member(advisory->verdict, "standards");
	c->gaps = json_member(advisory->verdict, "gaps");
	c->deferred = json_member(advisory->verdict, "deferred_checks");
	c->flagged = json_member(advisory->verdict, "flagged_assumptions");
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
	const cJSON *result, *evidence;
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
		evidence = json_member(result, "evidence");
		if (change_evidence_cites(evidence))
			continue;
		finding(&f, "%s is MET but cites no evidence%s",
		    change_text(result, "ac_id"), cJSON_IsObject(evidence) ?
		    " (neither a command with its output nor a file)" : "");
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

/* One Accepted standard that applies: does the verdict assess it? */
static void
standard_check(const struct change *c, const cJSON *standard,
    struct findings *f, size_t *applicable)
{
	const char *sid = change_text(standard, "id");
	struct scope_match match;
	char why[256];

	if (strcmp(change_text(standard, "status"), "Accepted") != 0 ||
	    !change_standard_applies(standard, c->in->action, c->diff_paths,
	    &match))
		return;
	(*applicable)++;
	change_scope_text(&match, why, sizeof why);
	if (!c->available)
		finding(f, "%s applies (%s) but %s", sid, why, c->unavailable);
	/* A "not met" is reported below, with every other one. */
	else if (change_standard_claim(c->standards, sid) == CLAIM_ABSENT)
		finding(f, "%s applies (%s) but the verdict does not assess "
		    "it", sid, why);
}

/*
 * The reviewer's own "not met", whether or not the standard applies or
 * is even in the index: never weaker than its silence (SPEC 2.3).
 */
static void
not_met_check(const struct change *c, struct findings *f)
{
	const cJSON *entry;
	const char *rule, *note;

	cJSON_ArrayForEach(entry, c->standards) {
		if (cJSON_IsTrue(json_member(entry, "met")))
			continue;
		rule = change_string(entry, "rule");
		note = change_string(entry, "note");
		finding(f, "%s%s%s is not met, the reviewer says%s%s",
		    change_text(entry, "id"), rule != NULL ? " rule " : "",
		    rule != NULL ? rule : "", text_blank(note) ? "" : ": ",
		    text_blank(note) ? "" : note);
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
	not_met_check(c, &f);
	if (applicable == 0)
		snprintf(pass, sizeof pass, "no Accepted standard applies to "
		    "the change");
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

/* A cited rule as the index states it, for the detail. */
static void
cited_rule(struct findings *rules, const char *sid, const cJSON *rule)
{
	finding(rules, "%s %s (%s): %s; fix: %s", sid,
	    change_text(rule, "id"), change_text(rule, "level"),
	    change_text(rule, "assertion"), change_text(rule, "fix"));
}

static int
rule_cited_standards_known(const struct change *c, struct verdict *v)
{
	static const char id[] = "cited_standards_known";
	static const char what[] =
	    "Every standard and rule the reviewer cites is in the index";
	struct standard_lookup lookup;
	struct findings f = { 0 }, rules = { 0 };
	const cJSON *standards, *entry, *rule;
	const char *sid, *rule_id;
	size_t cited = 0;
	int rc;

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so what it "
		    "cites is unknown", c->unavailable);
	if (c->in->standards == NULL)
		return verdict_add_rule(v, id, what, false, "no standards "
		    "index has been imported, so no cited standard can be "
		    "found in it");
	standards = json_member(c->in->standards, "standards");
	if (!cJSON_IsArray(standards))
		return verdict_add_rule(v, id, what, false,
		    "the standards index cannot be read");
	if (change_lookup_init(&lookup, standards) != 0)
		return -1;
	cJSON_ArrayForEach(entry, c->standards) {
		cited++;
		sid = change_text(entry, "id");
		rule_id = change_string(entry, "rule");
		if (change_lookup(&lookup, sid, rule_id, &rule) == NULL)
			finding(&f, "%s is not in the standards index: the "
			    "reviewer must not invent a standard", sid);
		else if (rule_id != NULL && rule == NULL)
			finding(&f, "%s has no rule %s", sid, rule_id);
		else if (rule != NULL)
			cited_rule(&rules, sid, rule);
	}
	change_lookup_free(&lookup);
	if (f.nomem || rules.nomem)
		rc = -1;
	else if (f.count == 0)
		rc = verdict_add_rule(v, id, what, true, "%zu cited "
		    "standard(s), each in the index%s%s", cited,
		    rules.count > 0 ? "; cited rules: " : "",
		    rules.count > 0 ? rules.text : "");
	else
		rc = verdict_add_rule(v, id, what, false, "%s%s%s%s", f.text,
		    f.count > FINDINGS_SHOWN ? "; and more" : "",
		    rules.count > 0 ? "; cited rules: " : "",
		    rules.count > 0 ? rules.text : "");
	free(f.text);
	free(rules.text);
	return rc;
}

static int
rule_deferred_checks_passed(const struct change *c, struct verdict *v)
{
	static const char id[] = "deferred_checks_passed";
	static const char what[] =
	    "Every check the author deferred to the gate ran and passed";
	const cJSON *entry;
	struct findings f = { 0 };
	size_t count = 0;
	const char *check;
	char pass[64];

	if (!c->available)
		return verdict_add_rule(v, id, what, false, "%s, so which "
		    "checks were deferred is unknown", c->unavailable);
	cJSON_ArrayForEach(entry, c->deferred) {
		count++;
		check = change_string(entry, "check");
		if (text_blank(check))
			check = "(unnamed check)";
		if (!cJSON_IsTrue(json_member(entry, "ran")))
			finding(&f, "%s did not run", check);
		else if (!cJSON_IsTrue(json_member(entry, "passed")))
			finding(&f, "%s ran and did not pass", check);
	}
	snprintf(pass, sizeof pass, "%zu deferred check(s), each ran and "
	    "passed", count);
	return findings_rule(v, id, what, &f, pass);
}

/* Is path among the strings of list, as a file of the repository? */
static bool
path_listed(const cJSON *list, const char *path)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, list) {
		if (cJSON_IsString(item) &&
		    change_same_path(item->valuestring, path))
			return true;
	}
	return false;
}

/*
 * (v3) The diff writes the files changed_files declares, no more and no
 * fewer: a diff can otherwise hide a file from the officer and from
 * every standard's file patterns (issue 36).
 */
static int
rule_diff_matches_files(const struct change *c, struct verdict *v)
{
	static const char id[] = "diff_matches_files";
	static const char what[] =
	    "The diff writes exactly the changed files";
	struct findings f = { 0 };
	const cJSON *item;
	char pass[96];

	if (c->diff == NULL)
		return verdict_add_rule(v, id, what, true, "no diff was "
		    "given: changed_files is all there is to go by");
	if (cJSON_GetArraySize(c->diff_paths) == 0)
		return verdict_add_rule(v, id, what, false, "the diff is not "
		    "a unified diff: it has no file headers (--- a/PATH, "
		    "+++ b/PATH), or a hunk's lengths do not match its lines, "
		    "so what it writes cannot be compared with changed_files");
	cJSON_ArrayForEach(item, c->diff_paths) {
		if (!path_listed(c->files, item->valuestring))
			finding(&f, "the diff writes %s, which changed_files "
			    "does not name", item->valuestring);
	}
	cJSON_ArrayForEach(item, c->files) {
		if (cJSON_IsString(item) &&
		    !path_listed(c->diff_paths, item->valuestring))
			finding(&f, "changed_files names %s, which the diff "
			    "does not write", item->valuestring);
	}
	snprintf(pass, sizeof pass, "the diff writes the %d changed "
	    "file(s)", cJSON_GetArraySize(c->diff_paths));
	return findings_rule(v, id, what, &f, pass);
}

/* ---- high stakes (SPEC 2.3) ---- */

/*
 * What assess_stakes() reads: the packet's own trees, which outlive the
 * check (check_run() holds the input and the advisory throughout).
 */
struct change_stakes {
	const cJSON *action;
	const cJSON *results;		/* NULL without a readable verdict */
	const cJSON *flagged;
	const char *outcome;		/* the reviewer's, or NULL */
};

static void
stakes_keep(const struct change *c, union rule_pack_state *state)
{
	struct change_stakes k = { 0 };

	k.action = c->in->action;
	if (c->available) {
		k.results = c->results;
		k.flagged = c->flagged;
		k.outcome = c->outcome;
	}
	memcpy(state->bytes, &k, sizeof k);
}

static int
change_assess_stakes(struct verdict *v, const union rule_pack_state *state)
{
	struct change_stakes k;
	const cJSON *result, *assumption;
	char *failing;
	int rc = 0;

	memcpy(&k, state->bytes, sizeof k);
	if (!v->overall_pass) {
		if ((failing = verdict_failing_rules(v)) == NULL)
			return -1;
		rc = verdict_add_reason(v, "failed_rules",
		    "local rules fail: %s", failing);
		free(failing);
	}
	/* A statement is not evidence anyone can check (rule 2). */
	cJSON_ArrayForEach(result, k.results) {
		if (rc == 0 && strcmp(change_text(result, "state"), "MET") ==
		    0 && cJSON_IsString(json_member(result, "evidence")))
			rc = verdict_add_reason(v, "uncited_evidence",
			    "%s is MET on a plain statement that cites no "
			    "command, output or file",
			    change_text(result, "ac_id"));
	}
	cJSON_ArrayForEach(assumption, k.flagged) {
		if (rc == 0 && cJSON_IsString(assumption))
			rc = verdict_add_reason(v, "flagged_assumption",
			    "the reviewer assumed: \"%s\"",
			    assumption->valuestring);
	}
	if (rc == 0 && change_string(k.action, "head_sha") == NULL)
		rc = verdict_add_reason(v, "no_commit", "no head_sha: the "
		    "approval would not be bound to the commit reviewed");
	/*
	 * (v3) The reviewer judged something the rules cannot: overriding
	 * it takes the officer's acknowledgement and reason, not only the
	 * divergence's.
	 */
	if (rc == 0 && v->overall_pass && k.outcome != NULL &&
	    strcmp(k.outcome, "sent_back") == 0)
		rc = verdict_add_reason(v, "reviewer_sent_back", "the reviewer "
		    "sent the change back (outcome sent_back) though every "
		    "local rule passes");
	v->requires_human_approval = v->reason_count > 0;
	return rc;
}

static int
change_evaluate(const struct check_input *in, const struct advisory *advisory,
    struct verdict *v, union rule_pack_state *state)
{
	struct change c;
	int rc = -1;

	if (change_read(in, advisory, &c) != 0)
		goto done;
	stakes_keep(&c, state);
	if (rule_ac_coverage(&c, v) != 0 ||
	    rule_met_has_evidence(&c, v) != 0 ||
	    rule_no_unmet(&c, v) != 0 ||
	    rule_ci_green(&c, v) != 0 ||
	    rule_applicable_standards_met(&c, v) != 0 ||
	    rule_no_block(&c, v) != 0 ||
	    rule_needs_po_judged(&c, v) != 0 ||
	    rule_cited_standards_known(&c, v) != 0 ||
	    rule_deferred_checks_passed(&c, v) != 0 ||
	    rule_diff_matches_files(&c, v) != 0)
		goto done;
	rc = 0;
done:
	free(c.refs);
	cJSON_Delete(c.diff_paths);
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

/*
 * The NEEDS-PO criteria not judged yet (in->po_judgments holds those
 * recorded, SPEC 2.3), with their text, for the dialogs to walk.
 */
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
		    (id = change_string(result, "ac_id")) == NULL ||
		    change_judgment(in->po_judgments, id) != NULL)
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

static const char *
change_approved_commit(const struct check_input *in)
{
	return change_string(in->action, "head_sha");
}

const struct rule_pack rules_change = {
	.kind = "change",
	.needs = NEEDS_STANDARDS,
	.compares_rules = false,
	.validate = change_validate,
	.evaluate = change_evaluate,
	.assess_stakes = change_assess_stakes,
	.read_advisory = change_read_advisory,
	.unjudged_criteria = change_unjudged_criteria,
	.judgment_criteria = change_judgment_criteria,
	.approved_commit = change_approved_commit,
	.who = change_who,
	.summarize = change_summarize,
	.describe = change_describe,
};
