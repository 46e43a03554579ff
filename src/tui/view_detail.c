/*
 * The detail of one action: the proposal as its kind describes it, both
 * verdicts rule by rule, the divergence, the stakes and the revisions.
 * Built afresh from a re-check each time it opens.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "json_fields.h"
#include "lockout.h"
#include "text.h"
#include "sanitize.h"
#include "timestamp.h"
#include "tui.h"

static const char *
member_string(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* The advisory's result for a rule: "pass", "FAIL" or "—" when it lacks it. */
static const cJSON *
advisory_result(const struct advisory *advisory, const char *rule_id)
{
	const cJSON *result;

	if (advisory->state != ADVISORY_AVAILABLE)
		return NULL;
	cJSON_ArrayForEach(result, json_member(advisory->verdict,
	    "rule_results")) {
		const char *id = member_string(result, "rule_id");

		if (id != NULL && strcmp(id, rule_id) == 0)
			return result;
	}
	return NULL;
}

static void
rule_table(struct detail *d, const struct check_outcome *out)
{
	const struct verdict *v = &out->verdict;
	const cJSON *adv;
	const char *said;
	size_t i;

	/* L10N: column headings of the rule table in the detail: the rule
	   id (27 columns), the advisory's result (8 columns), the local
	   result (6 columns) and why the local rule failed.  Columns are
	   counted in bytes: no accented letters in the first three */
	detail_add(d, DETAIL_HEADING, "%-27s %-8s %-6s %s", _("RULE"),
	    _("ADVISORY"), _("LOCAL"), _("WHY (local)"));
	for (i = 0; i < v->rule_count; i++) {
		const struct rule_result *r = &v->rules[i];

		adv = advisory_result(&out->advisory, r->rule_id);
		detail_add(d, r->passed ? DETAIL_PLAIN : DETAIL_ALERT,
		    "%-27s %-8s %-6s %s", r->rule_id, adv == NULL ?
		    /* L10N: "n/a" (no advisory result), "pass" and "FAIL" are
		       verdicts in 4-column cells of the queue and of this
		       table: at most 4 characters, no accented letters;
		       "FAIL" is upper case to stand out */
		    _("n/a") : cJSON_IsTrue(json_member(adv, "passed")) ?
		    _("pass") : _("FAIL"), r->passed ? _("pass") : _("FAIL"),
		    r->detail ? r->detail : "");
		said = member_string(adv, "detail");
		if (said != NULL && *said != '\0')
			/* L10N: under a rule's row: %1$-27s is blank padding
			   that keeps the text under the ADVISORY column (keep
			   it first), %2$s the advisory's own words */
			detail_add(d, DETAIL_DIM, _("%-27s advisory said: %s"),
			    "", said);
	}
}

static void
divergence_section(struct detail *d, const struct check_outcome *out)
{
	const cJSON *entry;
	int n = cJSON_GetArraySize(out->divergence);

	if (n == 0) {
		/* L10N: a section label of the detail, then what it says;
		   the labels DIVERGENCE and HIGH STAKES line up at 13
		   columns */
		detail_add(d, DETAIL_PLAIN, "%s", _("DIVERGENCE   none: the "
		    "advisory verdict agrees"));
		return;
	}
	/* L10N: %d is how many differences there are */
	detail_add(d, DETAIL_ALERT, _("DIVERGENCE   %d difference(s) with the "
	    "advisory verdict"), n);
	cJSON_ArrayForEach(entry, out->divergence)
		detail_add(d, DETAIL_PLAIN, "  %s: %s",
		    member_string(entry, "what"), member_string(entry, "note"));
}

static void
stakes_section(struct detail *d, const struct verdict *v)
{
	size_t i;

	if (!v->requires_human_approval) {
		/* L10N: a section label of the detail and its value */
		detail_add(d, DETAIL_PLAIN, "%s", _("HIGH STAKES  no"));
		return;
	}
	detail_add(d, DETAIL_ALERT, "%s", _("HIGH STAKES  a human must "
	    "approve this, with a reason"));
	for (i = 0; i < v->reason_count; i++)
		detail_add(d, DETAIL_PLAIN, "  %s", v->high_stakes_reasons[i]);
}

static void
revisions_section(struct detail *d, const struct check_input *in)
{
	const cJSON *version;
	cJSON *locked;
	char *list;

	if (in->revision_chain == NULL)
		return;
	/* L10N: the versions of an action, the one shown first */
	detail_add(d, DETAIL_HEADING, "%s", _("REVISIONS (newest first)"));
	/* L10N: stands for the action shown, in a 24-column cell where the
	   earlier versions show their action ids */
	detail_add(d, DETAIL_PLAIN, "  %-24s %-20s %s", _("this action"),
	    member_string(in->action, "author") ?
	    member_string(in->action, "author") : "?", "pending");
	cJSON_ArrayForEach(version, in->revision_chain)
		detail_add(d, DETAIL_PLAIN, "  %-24s %-20s %s%s%s",
		    member_string(version, "action_id"),
		    member_string(version, "author") ?
		    member_string(version, "author") : "?",
		    member_string(version, "status"),
		    member_string(version, "reassign_to") ?
		    /* L10N: after the status of an earlier version: who it
		       was reassigned to (a name follows), or that it was
		       escalated */
		    _(", reassigned to ") :
		    cJSON_IsTrue(json_member(version, "escalate")) ?
		    _(", escalated") : "",
		    member_string(version, "reassign_to") ?
		    member_string(version, "reassign_to") : "");
	locked = lockout_authors(in, false);
	list = locked != NULL ? cJSON_PrintUnformatted(locked) : NULL;
	/* L10N: %1$s is a JSON list of author names, %2$s the next
	   message or nothing */
	detail_add(d, DETAIL_PLAIN, _("  locked out: %s%s"), list ? list : "[]",
	    lockout_deadlocked(in, true) ? _("; rejecting it leaves only "
	    "escalation (deadlocked)") : "");
	cJSON_free(list);
	cJSON_Delete(locked);
}

void
detail_open(struct tui *t, const char *action_id)
{
	const struct check_input *in;
	struct recheck r;
	struct error err;
	char *failing;

	detail_free(&t->detail);
	t->detail_top = 0;
	snprintf(t->detail_id, sizeof t->detail_id, "%s", action_id);
	if (recheck_action(t->store, action_id, timestamp_now(), NULL, &r,
	    &err) != 0) {
		tui_notice(t, "%s", err.message);
		return;
	}
	in = &r.data.input;
	detail_add(&t->detail, DETAIL_HEADING, "%s %s   %s \xc2\xb7 %s",
	    r.outcome.pack->kind, action_id, r.data.status,
	    member_string(in->action, "author") ?
	    /* L10N: in the detail's heading, in place of the author */
	    member_string(in->action, "author") : _("no author"));
	if (r.outcome.pack->describe != NULL)
		r.outcome.pack->describe(in, &r.outcome.advisory, &t->detail);
	detail_add(&t->detail, DETAIL_PLAIN, "%s", "");
	rule_table(&t->detail, &r.outcome);
	detail_add(&t->detail, DETAIL_PLAIN, "%s", "");
	stakes_section(&t->detail, &r.outcome.verdict);
	divergence_section(&t->detail, &r.outcome);
	revisions_section(&t->detail, in);
	t->detail_blocked = !r.outcome.verdict.overall_pass;
	if (t->detail_blocked) {
		failing = verdict_failing_rules(&r.outcome.verdict);
		/* L10N: %s lists the failing rule ids */
		detail_add(&t->detail, DETAIL_ALERT, _("Approval is blocked: "
		    "local rules fail (%s)"), failing ? failing : "");
		free(failing);
	}
	recheck_free(&r);
	t->view = VIEW_DETAIL;
}

void
detail_scroll(struct tui *t, long delta)
{
	struct detail *d = t->view == VIEW_DETAIL ? &t->detail : &t->history;
	long *top = t->view == VIEW_DETAIL ? &t->detail_top : &t->history_top;

	*top += delta;
	if (*top > (long)d->count - 1)
		*top = (long)d->count - 1;
	if (*top < 0)
		*top = 0;
}

/* Screen rows a line takes once wrapped to the width. */
static long
rows_of(const char *text)
{
	size_t width = sanitized_width(text);

	return COLS > 0 && width > 0 ? (long)((width + (size_t)COLS - 1) /
	    (size_t)COLS) : 1;
}

void
detail_page(struct tui *t, int direction)
{
	struct detail *d = t->view == VIEW_DETAIL ? &t->detail : &t->history;
	long *top = t->view == VIEW_DETAIL ? &t->detail_top : &t->history_top;
	long rows = 0, screen = LINES - 2 > 1 ? LINES - 2 : 1, start = *top;

	/* Moves by whole lines until a screen of rows has gone by. */
	while (rows < screen && (direction > 0 ? *top + 1 < (long)d->count :
	    *top > 0)) {
		if (direction < 0)
			(*top)--;
		rows += rows_of(d->lines[*top].text);
		if (direction > 0 && rows <= screen)
			(*top)++;
		else if (direction > 0)
			break;
	}
	/* A line taller than the screen is still left behind. */
	if (direction > 0 && *top == start && *top + 1 < (long)d->count)
		(*top)++;
}

/* n and p: the next or previous action of the queue, without going back. */
void
detail_step(struct tui *t, int direction)
{
	struct queue_row *row;

	queue_move(t, direction);
	row = queue_current(t);
	if (row != NULL)
		detail_open(t, row->action_id);
}

/* Draws lines from top, wrapped to the screen, leaving room for a footer. */
void
page_draw(struct tui *t, const struct detail *d, long top, const char *footer)
{
	int y = 0, rows = LINES - 1;
	size_t i;

	for (i = (size_t)top; i < d->count && y < rows; i++)
		y += draw_wrapped(y, 0, d->lines[i].text, COLS,
		    style_attr(t, d->lines[i].style), rows - y);
	if (t->notice[0] != '\0')
		draw_text(LINES - 1, 0, t->notice, COLS, A_BOLD);
	else
		draw_text(LINES - 1, 0, footer, COLS, A_REVERSE);
}

void
detail_draw(struct tui *t)
{
	/* L10N: the keys of the detail: a, r, n, p, ? and q stay
	   whatever the language */
	page_draw(t, &t->detail, t->detail_top, t->detail_blocked ?
	    _("a approve (blocked: rules fail)  r reject  n/p next/prev  "
	    "? help  q back") : _("a approve  r reject  n/p next/prev  "
	    "? help  q back"));
}
