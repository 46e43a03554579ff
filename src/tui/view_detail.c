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
#include "json_strict.h"
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
		    VERDICT_SHOWN(r) ? VERDICT_SHOWN(r) : "");
		/* A long why wraps under its column, not under the rule. */
		if (d->count > 0)
			d->lines[d->count - 1].indent = 44;
		said = member_string(adv, "detail");
		if (said != NULL && *said != '\0') {
			/* L10N: under a rule's row: %1$-27s is blank padding
			   that keeps the text under the ADVISORY column (keep
			   it first), %2$s the advisory's own words */
			detail_add(d, DETAIL_DIM, _("%-27s advisory said: %s"),
			    "", said);
			if (d->count > 0)
				d->lines[d->count - 1].indent = 30;
		}
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
	/* The notes are the program's own sentences (check.c). */
	cJSON_ArrayForEach(entry, out->divergence)
		detail_add(d, DETAIL_PLAIN, "  %s: %s",
		    member_string(entry, "what"),
		    member_string(entry, "note") ?
		    _(member_string(entry, "note")) : "");
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
		detail_add(d, DETAIL_PLAIN, "  %s",
		    VERDICT_SHOWN(&v->high_stakes_reasons[i]));
}

/* "a +x, y": the people of a version (SPEC 2.4), newly allocated. */
static char *
version_people(const cJSON *version)
{
	const cJSON *contributor;
	const char *author = member_string(version, "author");
	char *text = xasprintf("%s", author ? author : "?"), *longer;
	bool first = true;

	cJSON_ArrayForEach(contributor, json_member(version, "contributors")) {
		if (!cJSON_IsString(contributor))
			continue;
		longer = xasprintf("%s%s%s", text, first ? " +" : ", ",
		    contributor->valuestring);
		free(text);
		text = longer;
		first = false;
	}
	return text;
}

/* How a version was decided: by whom, and how a rejection was routed. */
static char *
version_outcome(const cJSON *version, bool self)
{
	const char *status = member_string(version, "status");
	const char *by = member_string(version, "decided_by");
	const char *expertise = member_string(version, "expertise");
	const char *to = member_string(version, "reassign_to");

	if (self || status == NULL || by == NULL)
		return xasprintf("%s", self ? _("this action") :
		    status ? status : "?");
	if (strcmp(status, "rejected") != 0)
		/* L10N: "approved by <login>" */
		return xasprintf(_("%s by %s"), status, by);
	if (member_string(version, "blocked_on") != NULL)
		/* L10N: a rejection that waits for a standard; locks nobody out */
		return xasprintf(_("rejected by %s, blocked on %s"), by,
		    member_string(version, "blocked_on"));
	if (to != NULL)
		return xasprintf(_("rejected by %s, reassigned to %s"), by, to);
	if (expertise != NULL)
		return xasprintf(_("rejected by %s, escalated (needs %s)"), by,
		    expertise);
	if (cJSON_IsTrue(json_member(version, "escalate")))
		return xasprintf(_("rejected by %s, escalated"), by);
	return xasprintf(_("rejected by %s"), by);
}

/* Deeper versions indent by two columns each, up to this depth. */
#define TREE_INDENT_MAX 12

/*
 * The artifact as a tree (SPEC 2.4): each version under the one it
 * revises, roots first (versions joined by artifact_id alone are roots),
 * walked with an explicit stack: an artifact may be thousands deep.
 */
static void
artifact_tree(struct detail *d, const struct check_input *in)
{
	size_t n = 1 + (size_t)cJSON_GetArraySize(in->revision_chain);
	const cJSON **nodes = calloc(n, sizeof *nodes), *version;
	size_t *parent = calloc(n, sizeof *parent), *stack = NULL, *depth;
	size_t i, k, top = 0, count = 0;
	const char *of;
	char *people, *outcome;
	bool *shown = calloc(n, sizeof *shown);

	stack = calloc(n, sizeof *stack);
	depth = calloc(n, sizeof *depth);
	if (nodes == NULL || parent == NULL || shown == NULL || stack == NULL ||
	    depth == NULL)
		goto done;
	nodes[count++] = in->action;
	cJSON_ArrayForEach(version, in->revision_chain)
		nodes[count++] = version;
	for (i = 0; i < n; i++) {
		parent[i] = n;		/* a root */
		if ((of = member_string(nodes[i], "revision_of")) == NULL)
			continue;
		for (k = 0; k < n; k++) {
			if (k != i && member_string(nodes[k], "action_id") &&
			    strcmp(member_string(nodes[k], "action_id"), of) == 0)
				parent[i] = k;
		}
	}
	/* Roots in reverse, so that the oldest is drawn first. */
	for (i = n; i-- > 0;) {
		if (parent[i] == n) {
			stack[top] = i;
			depth[top++] = 0;
		}
	}
	while (top > 0) {
		size_t at = stack[--top], level = depth[top];

		if (shown[at])
			continue;
		shown[at] = true;
		people = version_people(nodes[at]);
		outcome = version_outcome(nodes[at], at == 0);
		detail_add(d, at == 0 ? DETAIL_HEADING : DETAIL_PLAIN,
		    "  %*s%s%s  %s  %s", (int)(2 * (level < TREE_INDENT_MAX ?
		    level : TREE_INDENT_MAX)), "", level > 0 ? "\xe2\x94\x94 " :
		    "", member_string(nodes[at], "action_id") ?
		    member_string(nodes[at], "action_id") : "?",
		    people, outcome);
		free(people);
		free(outcome);
		for (k = n; k-- > 0;) {
			if (parent[k] == at && !shown[k] && top < n) {
				stack[top] = k;
				depth[top++] = level + 1;
			}
		}
	}
done:
	free(nodes);
	free(parent);
	free(shown);
	free(stack);
	free(depth);
}

/* SPEC 3 notes: what the rules do not enforce but an officer needs. */
void
detail_notes(struct detail *d, const struct verdict *v)
{
	size_t i;

	if (v->note_count == 0)
		return;
	/* L10N: a section label of the detail */
	detail_add(d, DETAIL_HEADING, "%s", _("Notes (for judgment; not "
	    "enforced by the rules)"));
	for (i = 0; i < v->note_count; i++)
		detail_add(d, DETAIL_PLAIN, "  %s: %s", v->notes[i].what,
		    VERDICT_SHOWN(&v->notes[i]));
}

static void
revisions_section(struct detail *d, const struct check_input *in)
{
	cJSON *locked;
	char *list;

	if (in->revision_chain == NULL)
		return;
	/* L10N: the versions of the artifact the action belongs to */
	detail_add(d, DETAIL_HEADING, "%s", _("VERSIONS OF THE ARTIFACT"));
	artifact_tree(d, in);
	locked = lockout_authors(in, false);
	list = locked != NULL ? json_print(locked) : NULL;
	/* L10N: %1$s is a JSON list of names, %2$s the next message or
	   nothing */
	detail_add(d, DETAIL_PLAIN, _("  locked out: %s%s"), list ? list : "[]",
	    lockout_deadlocked(in, false) ? _("; deadlocked: escalated to a "
	    "person") : lockout_deadlocked(in, true) ? _("; rejecting it "
	    "leaves only escalation (deadlocked)") : "");
	free(list);
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
	memset(&t->detail_at, 0, sizeof t->detail_at);
	snprintf(t->detail_id, sizeof t->detail_id, "%s", action_id);
	t->detail_sha256[0] = '\0';
	t->detail_approved = false;
	t->detail_judgeable = false;
	if (recheck_action(t->store, action_id, timestamp_now(), NULL, &r,
	    &err) != 0) {
		tui_notice(t, "%s", err.message);
		return;
	}
	in = &r.data.input;
	t->detail_expired = detail_header(&t->detail, &r, action_id,
	    timestamp_now());
	/*
	 * What awaits the product owner, and who judged what, before the
	 * long description: the requester judges, another officer approves.
	 */
	t->detail_judgeable = judgments_section(t, &t->detail, action_id, &r);
	if (r.outcome.pack->describe != NULL)
		r.outcome.pack->describe(in, &r.outcome.advisory, &t->detail);
	/* Who approved so far is what a second officer looks for first. */
	t->detail_approved = quorum_section(t, &t->detail, action_id, &r);
	detail_add(&t->detail, DETAIL_PLAIN, "%s", "");
	rule_table(&t->detail, &r.outcome);
	detail_add(&t->detail, DETAIL_PLAIN, "%s", "");
	stakes_section(&t->detail, &r.outcome.verdict);
	divergence_section(&t->detail, &r.outcome);
	detail_notes(&t->detail, &r.outcome.verdict);
	if (r.outcome.pack->describe_context != NULL)
		r.outcome.pack->describe_context(in, &r.outcome.advisory,
		    &t->detail);
	revisions_section(&t->detail, in);
	/* A decision taken from here is about exactly this packet. */
	snprintf(t->detail_sha256, sizeof t->detail_sha256, "%s",
	    r.data.packet_sha256);
	detail_add(&t->detail, DETAIL_PLAIN, "%s", "");
	/* L10N: %s is the SHA-256 of the packet shown, in hex */
	detail_add(&t->detail, DETAIL_PLAIN, _("packet sha256: %s"),
	    r.data.packet_sha256[0] != '\0' ? r.data.packet_sha256 : "?");
	/*
	 * The NEEDS-PO judgment alone is no block: the approve dialog (or
	 * J) settles it, so the key line names what really stands in the
	 * way (issue 37).
	 */
	t->detail_blocked = !r.outcome.verdict.overall_pass &&
	    !verdict_fails_only(&r.outcome.verdict, "needs_po_judged");
	if (t->detail_blocked) {
		failing = xcheck(verdict_failing_rules(&r.outcome.verdict));
		/* L10N: %s lists the failing rule ids */
		detail_add(&t->detail, DETAIL_ALERT, _("Approval is blocked: "
		    "local rules fail (%s)"), failing);
		free(failing);
	} else if (!r.outcome.verdict.overall_pass)
		/* L10N: needs_po_judged is a rule id: keep it */
		detail_add(&t->detail, DETAIL_ALERT, "%s", _("Approval waits "
		    "for the NEEDS-PO criteria to be judged (needs_po_judged): "
		    "in the approve dialog, or J"));
	recheck_free(&r);
	t->view = VIEW_DETAIL;
}

/*
 * Another officer's work, or a policy import, may have changed what the
 * open detail says: it is built again where the officer was reading, and
 * a decision made elsewhere is said.
 */
void
detail_reopen(struct tui *t, long long now_ms)
{
	struct page_at at = t->detail_at;
	struct decision_row row;
	struct error err;
	char id[sizeof t->detail_id], *shown;
	long long when;
	bool found;

	snprintf(id, sizeof id, "%s", t->detail_id);
	detail_open(t, id);
	t->detail_at = at;
	if (store_decision_get(t->store, id, &row, &found, &err) != 0 ||
	    !found || !timestamp_parse(row.decided_at, &when))
		return;
	shown = short_id(t->store, id);
	tui_notice(t, strcmp(row.decision, "approve") == 0 ?
	    _("%s approved by %s %llds ago") : _("%s rejected by %s %llds ago"),
	    shown, row.operator_login,
	    (long long)((now_ms - when) / 1000));
	free(shown);
}

/* The page on screen and where it starts. */
static struct detail *
shown(struct tui *t, struct page_at **at)
{
	if (t->view == VIEW_RECORD) {
		*at = &t->record_at;
		return &t->record;
	}
	*at = t->view == VIEW_DETAIL ? &t->detail_at : &t->history_at;
	return t->view == VIEW_DETAIL ? &t->detail : &t->history;
}

/* Rows of text on screen: all but the footer's. */
static long
text_rows(void)
{
	return LINES - 1 > 1 ? LINES - 1 : 1;
}

/* Moves at by rows screen rows (backwards when negative), within the page. */
static void
move_rows(const struct detail *d, struct page_at *at, long rows)
{
	long in_line;

	if (d->count == 0) {
		at->line = at->row = 0;
		return;
	}
	if (at->line >= (long)d->count)
		at->line = (long)d->count - 1;
	in_line = line_rows(&d->lines[at->line], COLS);
	/* The width may have changed since at was set. */
	if (at->row >= in_line)
		at->row = in_line - 1;
	for (; rows > 0; rows--) {
		if (at->row + 1 < in_line)
			at->row++;
		else if (at->line + 1 < (long)d->count) {
			at->line++;
			at->row = 0;
			in_line = line_rows(&d->lines[at->line], COLS);
		} else
			break;
	}
	for (; rows < 0; rows++) {
		if (at->row > 0)
			at->row--;
		else if (at->line > 0) {
			at->line--;
			at->row = line_rows(&d->lines[at->line], COLS) - 1;
		} else
			break;
	}
}

/* The last start that still fills the screen: the page's end at the bottom. */
static struct page_at
last_start(const struct detail *d)
{
	struct page_at end = { 0, 0 };

	if (d->count > 0) {
		end.line = (long)d->count - 1;
		end.row = line_rows(&d->lines[end.line], COLS) - 1;
		move_rows(d, &end, -(text_rows() - 1));
	}
	return end;
}

static bool
after(const struct page_at *a, const struct page_at *b)
{
	return a->line > b->line || (a->line == b->line && a->row > b->row);
}

void
detail_scroll(struct tui *t, long rows)
{
	struct page_at *at, end;
	struct detail *d = shown(t, &at);

	move_rows(d, at, rows);
	end = last_start(d);
	if (after(at, &end))
		*at = end;
}

/* A screenful less one row, which stays on screen to read on from. */
void
detail_page(struct tui *t, int direction)
{
	long rows = text_rows() - 1 > 1 ? text_rows() - 1 : 1;

	detail_scroll(t, direction > 0 ? rows : -rows);
}

void
detail_ends(struct tui *t, int direction)
{
	struct page_at *at;
	struct detail *d = shown(t, &at);

	if (direction > 0)
		*at = last_start(d);
	else
		at->line = at->row = 0;
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

/*
 * Screen rows before at and in all: the footer says where the screen is,
 * so an officer always knows whether there is more to read.
 */
static void
position(const struct detail *d, const struct page_at *at, long *before,
    long *total)
{
	long i, rows;

	*before = *total = 0;
	for (i = 0; i < (long)d->count; i++) {
		rows = line_rows(&d->lines[i], COLS);
		if (i < at->line)
			*before += rows;
		else if (i == at->line)
			*before += at->row < rows ? at->row : rows - 1;
		*total += rows;
	}
}

/* Draws the page from at, wrapped to the screen, leaving room for a footer. */
void
page_draw(struct tui *t, const struct detail *d, struct page_at *at,
    const char *footer)
{
	struct page_at end = last_start(d);
	long i, before, total, first;
	int y = 0, rows = (int)text_rows(), room = COLS;
	char where[64], *keys;
	const char *bottom;

	/* A resize may have left at inside a shorter line, or a taller
	   window room for rows above it. */
	move_rows(d, at, 0);
	if (after(at, &end))
		*at = end;
	for (i = at->line, first = at->row; i < (long)d->count && y < rows;
	    i++, first = 0)
		y += draw_line(y, &d->lines[i], first, rows - y, COLS,
		    style_attr(t, d->lines[i].style));
	position(d, at, &before, &total);
	bottom = t->notice[0] != '\0' ? t->notice : footer;
	/* The position goes first when the keys need its room. */
	if (total > rows) {
		/* L10N: where the screen is in a page: the first and last
		   rows shown and how many rows the page has */
		snprintf(where, sizeof where, _(" %ld-%ld/%ld"),
		    before + 1, before + y, total);
		if ((int)(sanitized_width(where) + sanitized_width(bottom)) <=
		    COLS) {
			room = COLS - (int)sanitized_width(where);
			draw_text(LINES - 1, room, where, COLS - room,
			    A_BOLD | A_REVERSE);
		}
	}
	if (t->notice[0] != '\0')
		draw_text(LINES - 1, 0, t->notice, room, A_BOLD);
	else {
		keys = keys_fit(footer, room);
		draw_text(LINES - 1, 0, keys, room, A_REVERSE);
		free(keys);
	}
}

void
detail_draw(struct tui *t)
{
	const char *keys;
	char *judge_keys;

	/* L10N: the keys of the detail: a, r, n, p, ? and q stay
	   whatever the language */
	keys = t->detail_expired ?
	    /* L10N: the keys of the detail of an expired action: a is
	       shown, and that it cannot approve */
	    _("a approve (unavailable: expired)  r reject  n/p next/prev  "
	    "? help  q back") : t->detail_approved ?
	    /* L10N: the keys of the detail of an action the officer
	       approved already, under a quorum (SPEC 14) */
	    _("a approve (unavailable: you approved it)  r reject  n/p "
	    "next/prev  ? help  q back") : t->detail_blocked ?
	    _("a approve (blocked: rules fail)  r reject  n/p next/prev  "
	    "? help  q back") : _("a approve  r reject  n/p next/prev  "
	    "? help  q back");
	if (!t->detail_judgeable) {
		page_draw(t, &t->detail, &t->detail_at, keys);
		return;
	}
	/* First, so that a narrow screen keeps it (SPEC 2.3 v3). */
	/* L10N: the key of the judge action: J stays whatever the
	   language */
	judge_keys = xasprintf("%s  %s", _("J judge"), keys);
	page_draw(t, &t->detail, &t->detail_at, judge_keys);
	free(judge_keys);
}

void
page_show_lines(const struct detail *d, struct page_at *at, long first,
    long end)
{
	long rows = 0, i;

	if (first < at->line || (first == at->line && at->row > 0)) {
		at->line = first;
		at->row = 0;
		return;
	}
	/* Rows from at to the end of the lines wanted. */
	for (i = at->line; i < end && i < (long)d->count; i++)
		rows += line_rows(&d->lines[i], COLS) - (i == at->line ?
		    at->row : 0);
	if (rows > text_rows()) {
		move_rows(d, at, rows - text_rows());
		if (at->line > first) {
			at->line = first;
			at->row = 0;
		}
	}
}
