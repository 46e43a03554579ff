/* The queue: one line per pending action, most care first. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "sanitize.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"

/* L10N: the queue's filters, shown as "filter: %s" */
static const char *const filter_names[QUEUE_FILTER_COUNT] = {
	N_("all"), N_("needs care (x or !)"), N_("advisory pass, local fail"),
	N_("high stakes"), N_("clean (bulk-eligible)"),
};
/* L10N: the queue's sort orders, shown as "sort: %s" */
static const char *const sort_names[QUEUE_SORT_COUNT] = {
	N_("most care first"), N_("oldest first"), N_("newest first"),
	N_("by kind"),
};

void
queue_free_page(struct tui *t)
{
	long i;

	for (i = 0; i < t->page_count; i++)
		queue_row_free(&t->page[i]);
	t->page_count = 0;
}

void
queue_free_escalated(struct tui *t)
{
	size_t i;

	for (i = 0; i < t->escalated_count; i++)
		queue_row_free(&t->escalated[i]);
	t->escalated_count = 0;
}

/*
 * Under the queue's rows, when there is room: the artifacts every roster
 * author is locked out of, escalated to a person, until a new version of
 * each arrives (SPEC 2.4: the queue shows them).
 */
static void
draw_escalated(struct tui *t, int y)
{
	char *line;
	size_t i;

	if (t->escalated_count == 0 || y + 1 >= LINES - 3)
		return;
	/* L10N: heading of the artifacts held for a person under the queue */
	draw_text(y++, 0, _("  ESCALATED TO A PERSON (deadlocked; waiting for "
	    "a new version)"), COLS, A_BOLD);
	for (i = 0; i < t->escalated_count && y < LINES - 3; i++, y++) {
		/* L10N: one escalated artifact: flag ^, kind, action id of
		   the escalated rejection, its author, its summary */
		line = text_printf(_("  ^      %-7s %-9.9s %-12.12s %s"),
		    t->escalated[i].kind, t->escalated[i].action_id,
		    t->escalated[i].who, t->escalated[i].summary);
		draw_untrusted(y, 0, line ? line : "", COLS, A_NORMAL);
		free(line);
	}
}

struct queue_row *
queue_current(struct tui *t)
{
	long i = t->cursor - t->top;

	return i >= 0 && i < t->page_count ? &t->page[i] : NULL;
}

void
queue_move(struct tui *t, long delta)
{
	t->cursor += delta;
	tui_reload(t);
}

bool
queue_tagged(const struct tui *t, const char *action_id)
{
	size_t i;

	for (i = 0; i < t->tag_count; i++) {
		if (strcmp(t->tags[i], action_id) == 0)
			return true;
	}
	return false;
}

void
queue_clear_tags(struct tui *t)
{
	size_t i;

	for (i = 0; i < t->tag_count; i++)
		free(t->tags[i]);
	free(t->tags);
	t->tags = NULL;
	t->tag_count = 0;
}

void
queue_toggle_tag(struct tui *t)
{
	struct queue_row *row = queue_current(t);
	char **grown;
	size_t i;

	if (row == NULL)
		return;
	for (i = 0; i < t->tag_count; i++) {
		if (strcmp(t->tags[i], row->action_id) == 0) {
			free(t->tags[i]);
			t->tags[i] = t->tags[--t->tag_count];
			queue_move(t, 1);
			return;
		}
	}
	grown = realloc(t->tags, (t->tag_count + 1) * sizeof *grown);
	if (grown == NULL)
		return;
	t->tags = grown;
	if ((t->tags[t->tag_count] = text_copy(row->action_id)) != NULL)
		t->tag_count++;
	queue_move(t, 1);
}

void
queue_cycle_filter(struct tui *t)
{
	t->query.filter = (t->query.filter + 1) % QUEUE_FILTER_COUNT;
	t->cursor = t->top = 0;
	t->counts_stale = true;
	tui_reload(t);
	/* L10N: %s is the name of a filter */
	tui_notice(t, _("filter: %s"), _(filter_names[t->query.filter]));
}

void
queue_cycle_sort(struct tui *t)
{
	t->query.sort = (t->query.sort + 1) % QUEUE_SORT_COUNT;
	t->cursor = t->top = 0;
	t->counts_stale = true;
	tui_reload(t);
	/* L10N: %s is the name of a sort order */
	tui_notice(t, _("sort: %s"), _(sort_names[t->query.sort]));
}

void
queue_search(struct tui *t)
{
	char text[sizeof t->search];

	snprintf(text, sizeof text, "%s", t->search);
	/* L10N: label of the line where a search is typed */
	if (tui_prompt(t, _("search: "), text, sizeof text))
		snprintf(t->search, sizeof t->search, "%s", text);
	else
		t->search[0] = '\0';
	t->cursor = t->top = 0;
	t->counts_stale = true;
	tui_reload(t);
}

/* The tagged actions the current query shows: "visible" in the words. */
static char **
visible_tagged(struct tui *t, size_t *count)
{
	struct queue_row rows[PAGE_MAX];
	char **ids = calloc(t->tag_count + 1, sizeof *ids);
	long offset, got, i;
	struct error err;

	*count = 0;
	if (ids == NULL)
		return NULL;
	for (offset = 0; offset < t->count; offset += PAGE_MAX) {
		if (store_queue_page(t->store, &t->query, offset, PAGE_MAX, rows,
		    &got, &err) != 0 || got == 0)
			break;
		for (i = 0; i < got; i++) {
			if (queue_tagged(t, rows[i].action_id) &&
			    *count < t->tag_count)
				ids[(*count)++] = text_copy(rows[i].action_id);
			queue_row_free(&rows[i]);
		}
	}
	return ids;
}

static void
free_ids(char **ids, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(ids[i]);
	free(ids);
}

/*
 * Bulk approval applies only to what needs no acknowledgement: each tagged,
 * visible action is re-checked in the decision path, and anything that
 * fails, diverges or is high stakes is left pending and reported.
 */
void
queue_bulk_approve(struct tui *t)
{
	struct decision_request req;
	struct decision_outcome out;
	struct recheck rc;
	struct error err;
	size_t count, i, approved = 0, left = 0;
	char **ids = visible_tagged(t, &count), *first_left = NULL;
	char checked_sha256[65] = "";
	bool eligible;

	for (i = 0; ids != NULL && i < count; i++) {
		eligible = false;
		if (recheck_action(t->store, ids[i], timestamp_now(), NULL, &rc,
		    &err) == 0) {
			eligible = rc.outcome.verdict.overall_pass &&
			    !rc.outcome.verdict.requires_human_approval &&
			    cJSON_GetArraySize(rc.outcome.divergence) == 0;
			/* Approved only as the packet it found clean. */
			snprintf(checked_sha256, sizeof checked_sha256, "%s",
			    rc.data.packet_sha256);
			recheck_free(&rc);
		}
		memset(&req, 0, sizeof req);
		req.action_id = ids[i];
		req.decision = DECISION_APPROVE;
		req.expect_sha256 = checked_sha256;
		if (eligible && decision_record(t->store, &req, &t->op,
		    DECISION_NOW, false, &out, &err) == 0 && out.recorded) {
			approved++;
			continue;
		}
		if (left++ == 0)
			first_left = short_id(ids[i]);
	}
	free_ids(ids, count);
	queue_clear_tags(t);
	t->counts_stale = true;
	tui_reload(t);
	if (left > 0)
		/* L10N: after bulk approval: how many were approved, how many
		   were left, and the first 8 characters of one left */
		tui_notice(t, _("%zu approved; %zu left pending (not clean: "
		    "local failure, divergence, high stakes or expired), "
		    "e.g. %s"), approved, left, first_left ? first_left : "");
	else
		/* L10N: after bulk approval: how many were approved */
		tui_notice(t, _("%zu approved"), approved);
	free(first_left);
}

void
queue_bulk_reject(struct tui *t)
{
	struct decision_request req;
	struct decision_outcome out;
	struct error err;
	size_t count, i, rejected = 0, refused = 0;
	char reason[256] = "", **ids;

	if (t->tag_count == 0) {
		/* L10N: t is the key that tags: keep it */
		tui_notice(t, _("nothing is tagged (t tags an action)"));
		return;
	}
	if (!tui_prompt(t, _("reason for rejecting every tagged action: "),
	    reason, sizeof reason))
		return;
	ids = visible_tagged(t, &count);
	for (i = 0; ids != NULL && i < count; i++) {
		memset(&req, 0, sizeof req);
		req.action_id = ids[i];
		req.decision = DECISION_REJECT;
		req.reason = reason;
		if (decision_record(t->store, &req, &t->op, DECISION_NOW,
		    false, &out, &err) == 0 && out.recorded)
			rejected++;
		else
			refused++;
	}
	free_ids(ids, count);
	queue_clear_tags(t);
	t->counts_stale = true;
	tui_reload(t);
	/* L10N: after bulk rejection: how many were rejected, how many
	   refused */
	tui_notice(t, _("%zu rejected, %zu refused"), rejected, refused);
}

static void
draw_row(struct tui *t, int y, const struct queue_row *row, bool selected,
    int summary_width)
{
	char flags[8], age[16], *id;
	int attr = selected ? A_REVERSE : A_NORMAL, x = 0;

	snprintf(flags, sizeof flags, "%c%c%c%c%c%c",
	    row->high_stakes ? 'H' : ' ', row->local_fail ? 'x' : ' ',
	    row->divergent ? '!' : ' ', row->locked_out ? 'L' : ' ',
	    row->deadlocked ? 'D' : ' ', row->expired ? 'E' : ' ');
	format_age(age, sizeof age, t->query.now_ms - row->imported_at_ms);
	draw_text(y, x, selected ? ">" : " ", 1, attr);
	draw_text(y, x + 1, queue_tagged(t, row->action_id) ? "*" : " ", 1,
	    attr | A_BOLD);
	draw_text(y, x + 2, flags, 6, attr | A_BOLD);
	draw_text(y, x + 8, " ", 1, attr);
	draw_text(y, x + 9, row->kind, 7, attr);
	draw_text(y, x + 16, " ", 1, attr);
	/* Cut cells end in an ellipsis, as list's do: two ids that share
	   their first columns must not look alike. */
	id = sanitize_str(row->action_id);
	draw_clipped(y, x + 17, id ? id : "?", 9, attr);
	free(id);
	draw_text(y, x + 26, " ", 1, attr);
	draw_clipped(y, x + 27, row->who, 12, attr);
	draw_text(y, x + 39, " ", 1, attr);
	draw_clipped(y, x + 40, row->summary, summary_width, attr);
	x = 40 + summary_width;
	draw_text(y, x, " ", 1, attr);
	draw_text(y, x + 1, _(row->advisory), 5, attr);
	draw_text(y, x + 6, row->local_fail ? _("FAIL") : _("pass"), 4,
	    row->local_fail ? (int)((unsigned)(attr | A_BOLD) ^ A_REVERSE) :
	    attr);
	draw_text(y, x + 10, " ", 1, attr);
	draw_text(y, x + 11, age, 4, attr);
}

void
queue_draw(struct tui *t)
{
	char header[256];
	int y, summary_width = COLS - 55;
	long i;

	if (summary_width < 4)
		summary_width = 4;
	/* L10N: the first line of the queue: how many actions are pending,
	   how many of them are high stakes, how many need care (a local
	   failure or a divergence) */
	snprintf(header, sizeof header, _("countersign  %ld pending \xc2\xb7 "
	    "%ld high stakes \xc2\xb7 %ld need care"), t->pending,
	    t->high_stakes, t->divergent);
	/* The operator and database on the right, when there is room. */
	if (COLS >= 80) {
		char who[300];

		draw_text(0, 0, header, COLS - 24, A_BOLD);
		snprintf(who, sizeof who, "  %s  %s", t->op.login, t->db_path);
		draw_untrusted(0, COLS - 24, who, 24, A_BOLD);
	} else
		draw_text(0, 0, header, COLS, A_BOLD);
	/* L10N: column headings of the queue; each starts where its column
	   does: FLAGS at 2, KIND at 9, ID at 17, WHO at 27, SUMMARY at 40 */
	draw_text(1, 0, _("  FLAGS  KIND    ID        WHO          SUMMARY"),
	    COLS, A_UNDERLINE);
	/* L10N: the last column headings of the queue, in 15 columns: the
	   advisory verdict (ADV, at 1), the local one (LOCAL, at 6) and how
	   long the action has waited (AGE, at 11) */
	draw_text(1, 40 + summary_width, _(" ADV  LOCAL AGE"), 15, A_UNDERLINE);
	for (i = 0, y = 2; i < t->page_count && y < LINES - 3; i++, y++)
		draw_row(t, y, &t->page[i], t->top + i == t->cursor,
		    summary_width);
	draw_escalated(t, y + (t->page_count == 0 ? 2 : 0));
	if (t->page_count == 0)
		draw_text(3, 2, t->search[0] != '\0' || t->query.filter !=
		    QUEUE_ALL ? _("Nothing matches.") : _("No pending actions."),
		    COLS - 2, A_NORMAL);
	/* L10N: the legend of the flag letters H, x, !, L, D, E and *:
	   keep the letters, translate what they mean, in 80 columns at most
	   (the width of most terminals) */
	draw_text(LINES - 3, 0, _("H high stakes  x fails  ! diverges  "
	    "L locked  D deadlocked  E expired  * tagged"), COLS, A_DIM);
	/* L10N: the keys of the queue: a, r, Enter, t, /, f, s, ? and q
	   stay whatever the language; 80 columns at most */
	draw_text(LINES - 2, 0, _("a approve  r reject  Enter open  t tag  "
	    "/ find  f filter  s sort  ? help  q quit"), COLS, A_NORMAL);
	if (t->notice[0] != '\0')
		draw_text(LINES - 1, 0, t->notice, COLS, A_BOLD);
	else {
		/* L10N: the status line: %1$s the filter, %2$s the sort
		   order, then " · search: " and the text searched, or
		   nothing */
		snprintf(header, sizeof header, _("filter: %s \xc2\xb7 sort: %s"
		    "%s%s"), _(filter_names[t->query.filter]),
		    _(sort_names[t->query.sort]), t->search[0] ?
		    _(" \xc2\xb7 search: ") : "", t->search);
		/* The search is typed text: shown through the sanitizer too. */
		draw_untrusted(LINES - 1, 0, header, COLS, A_DIM);
	}
}
