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
/*
 * L10N: the queue's sort orders, shown as "sort: %s"; the last is a
 * trade's estimated value, largest first, which the index cannot give
 */
static const char *const sort_names[QUEUE_SORT_COUNT + 1] = {
	N_("most care first"), N_("oldest first"), N_("newest first"),
	N_("by kind"), N_("value, largest first"),
};

/* The sort order in force: the index's, or by value after them. */
static const char *
sort_name(const struct tui *t)
{
	return _(sort_names[t->by_value ? QUEUE_SORT_COUNT : t->query.sort]);
}

/* Frees what each of count rows holds, not the rows. */
static void
rows_clear(struct queue_row *rows, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		queue_row_free(&rows[i]);
}

void
queue_free_page(struct tui *t)
{
	rows_clear(t->page, (size_t)t->page_count);
	t->page_count = 0;
}

void
queue_free_escalated(struct tui *t)
{
	rows_clear(t->escalated, t->escalated_count);
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
		line = xasprintf(_("  ^      %-7s %-9.9s %-12.12s %s"),
		    t->escalated[i].kind, t->escalated[i].action_id,
		    t->escalated[i].who, t->escalated[i].summary);
		draw_untrusted(y, 0, line, COLS, A_NORMAL);
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

	if (row == NULL)
		return;
	if (queue_tagged(t, row->action_id)) {
		queue_untag(t, row->action_id);
		queue_move(t, 1);
		return;
	}
	grown = realloc(t->tags, (t->tag_count + 1) * sizeof *grown);
	if (grown == NULL)
		return;
	t->tags = grown;
	if ((t->tags[t->tag_count] = text_copy(row->action_id)) != NULL)
		t->tag_count++;
	queue_move(t, 1);
}

bool
queue_scanned(const struct tui *t)
{
	return t->limit.count > 0 || t->by_value;
}

void
queue_free_scanned(struct tui *t)
{
	long i;

	for (i = 0; i < t->scanned_count; i++)
		queue_row_free(&t->scanned[i]);
	free(t->scanned);
	t->scanned = NULL;
	t->scanned_count = 0;
}

/*
 * Every row a limit or the value order shows, read again only when the
 * queue or the query changed (tui_reload() on counts_stale): reading
 * each trade's packet for every cursor move took seconds at 10,000.
 */
static int
scan_refresh(struct tui *t, struct error *err)
{
	long room = (t->pending > 0 ? t->pending : 0) + 64, got, matched;
	int rc;

	queue_free_scanned(t);
	for (;;) {
		t->scanned = xmalloc((size_t)room * sizeof *t->scanned);
		if ((rc = queue_scan_page(t->store, &t->query, &t->limit,
		    t->by_value, 0, room, t->scanned, &got, &matched,
		    err)) != 0)
			break;
		t->scanned_count = got;
		/* More arrived than the totals said: once more, with room. */
		if (matched <= got)
			break;
		queue_free_scanned(t);
		room = matched + 64;
	}
	t->scan_stale = false;
	return rc;
}

/* A copy of row for the page, its text its own. */
static void
row_copy(struct queue_row *to, const struct queue_row *from)
{
	*to = *from;
	to->who = xstrdup(from->who ? from->who : "");
	to->summary = xstrdup(from->summary ? from->summary : "");
	to->requester = xstrdup(from->requester ? from->requester : "");
	to->author = xstrdup(from->author ? from->author : "");
	to->notes = NULL;
}

int
queue_rows(struct tui *t, long offset, long limit, struct queue_row *rows,
    long *got, long *matched, struct error *err)
{
	long i;
	int rc;

	*got = 0;
	if (queue_scanned(t)) {
		if ((t->scan_stale || t->scanned == NULL) &&
		    (rc = scan_refresh(t, err)) != 0)
			return rc;
		for (i = offset; i < t->scanned_count && *got < limit; i++)
			row_copy(&rows[(*got)++], &t->scanned[i]);
		*matched = t->scanned_count;
		return 0;
	}
	queue_free_scanned(t);
	if ((rc = store_queue_page(t->store, &t->query, offset, limit, rows,
	    got, err)) == 0)
		*matched = t->count;
	return rc;
}

/*
 * Every row the queue shows, in one read: a limit is tested on each row
 * of the queue, so reading it a page at a time would test it again for
 * each page.  NULL with *got 0 when there are none.
 */
static struct queue_row *
shown_rows(struct tui *t, long *got)
{
	struct queue_row *rows;
	struct error err;
	long matched;

	*got = 0;
	if (t->count <= 0)
		return NULL;
	rows = xmalloc((size_t)t->count * sizeof *rows);
	if (queue_rows(t, 0, t->count, rows, got, &matched, &err) != 0) {
		tui_notice(t, "%s", err.message);
		*got = 0;
	}
	return rows;
}

static void
free_rows(struct queue_row *rows, long count)
{
	rows_clear(rows, (size_t)count);
	free(rows);
}

/*
 * T: tags every action the current search, filter and limit show, all
 * pages of them; when every one shown is tagged already, untags them
 * instead.  Bulk's plan, reason and confirmation then apply as to any
 * tags.
 */
void
queue_tag_shown(struct tui *t)
{
	struct queue_row *rows;
	long got, i;
	bool untag;
	char **grown, **ids;
	size_t visible;

	/* Untag when all of them are tagged: T twice leaves none. */
	ids = queue_visible_tagged(t, &visible);
	queue_free_ids(ids, visible);
	untag = t->count > 0 && (long)visible == t->count;
	rows = shown_rows(t, &got);
	for (i = 0; i < got; i++) {
		if (untag)
			queue_untag(t, rows[i].action_id);
		else if (!queue_tagged(t, rows[i].action_id) &&
		    (grown = realloc(t->tags, (t->tag_count + 1) *
		    sizeof *grown)) != NULL) {
			t->tags = grown;
			if ((t->tags[t->tag_count] = text_copy(
			    rows[i].action_id)) != NULL)
				t->tag_count++;
		}
	}
	free_rows(rows, got);
	tui_reload(t);
}

/* What the queue shows changed: from its first row, counted again. */
static void
queue_requery(struct tui *t)
{
	t->cursor = t->top = 0;
	t->counts_stale = true;
	tui_reload(t);
}

void
queue_cycle_filter(struct tui *t)
{
	t->query.filter = (t->query.filter + 1) % QUEUE_FILTER_COUNT;
	queue_requery(t);
}

/*
 * s and S: the index's orders, then value, largest first (read from each
 * trade's packet over the whole queue, the queue's order among equals),
 * then the queue's order again; S goes the other way, so that one S
 * from the queue's order sorts by value.
 */
static void
sort_step(struct tui *t, int direction)
{
	int at = t->by_value ? QUEUE_SORT_COUNT : (int)t->query.sort;

	at = (at + direction + QUEUE_SORT_COUNT + 1) % (QUEUE_SORT_COUNT + 1);
	t->by_value = at == QUEUE_SORT_COUNT;
	t->query.sort = t->by_value ? QUEUE_BY_CARE : (enum queue_sort)at;
	queue_requery(t);
}

void
queue_cycle_sort(struct tui *t)
{
	sort_step(t, 1);
}

void
queue_cycle_sort_back(struct tui *t)
{
	sort_step(t, -1);
}

void
queue_clear_search(struct tui *t)
{
	if (t->search[0] == '\0')
		return;
	t->search[0] = '\0';
	queue_requery(t);
}

void
queue_search(struct tui *t)
{
	/* A new search starts empty: the last one is on the status line. */
	char text[sizeof t->search] = "";

	/* L10N: label of the line where a search is typed */
	if (tui_prompt(t, _("search: "), text, sizeof text))
		snprintf(t->search, sizeof t->search, "%s", text);
	else
		t->search[0] = '\0';
	queue_requery(t);
}

/*
 * l: the limit, a SPEC 7 filter typed as for list --filter and parsed by
 * the same parser.  A malformed one is refused on the prompt's line,
 * naming the term, and the limit in force stays; an empty one clears it.
 */
void
queue_limit(struct tui *t)
{
	char text[sizeof t->limit_text] = "", *safe;
	struct error err;

	/* L10N: label of the line where the limit (a filter expression
	   such as "ticker:XOM value>1000") is typed */
	if (!tui_prompt(t, _("limit: "), text, sizeof text)) {
		tui_reload(t);
		return;
	}
	if (limit_replace(text, &t->limit, t->limit_text, sizeof t->limit_text,
	    &err) != 0) {
		safe = xsanitize(err.message);
		snprintf(t->prompt_error, sizeof t->prompt_error, "%s", safe);
		free(safe);
		tui_reload(t);
		return;
	}
	queue_requery(t);
}

int
limit_replace(const char *text, struct filter *limit, char *shown,
    size_t size, struct error *err)
{
	struct filter parsed;

	error_clear(err);
	if (filter_parse(text, &parsed, err) != 0) {
		filter_free(&parsed);
		return -1;
	}
	filter_free(limit);
	*limit = parsed;
	snprintf(shown, size, "%s", parsed.count > 0 ? text : "");
	return 0;
}

/* The tagged actions the current query shows: "visible" in the words. */
char **
queue_visible_tagged(struct tui *t, size_t *count)
{
	char **ids = calloc(t->tag_count + 1, sizeof *ids);
	struct queue_row *rows;
	long got = 0, i;

	*count = 0;
	if (ids == NULL)
		return NULL;
	rows = t->tag_count > 0 ? shown_rows(t, &got) : NULL;
	for (i = 0; i < got; i++) {
		if (queue_tagged(t, rows[i].action_id) &&
		    *count < t->tag_count)
			ids[(*count)++] = text_copy(rows[i].action_id);
	}
	free_rows(rows, got);
	return ids;
}

void
queue_free_ids(char **ids, size_t count)
{
	size_t i;

	for (i = 0; ids != NULL && i < count; i++)
		free(ids[i]);
	free(ids);
}

void
queue_untag(struct tui *t, const char *action_id)
{
	size_t i;

	for (i = 0; i < t->tag_count; i++) {
		if (strcmp(t->tags[i], action_id) == 0) {
			free(t->tags[i]);
			t->tags[i] = t->tags[--t->tag_count];
			return;
		}
	}
}

/* Where the queue's columns are at this width (see queue_layout()). */
struct layout {
	int id;			/* columns of the ID cell */
	int requester;		/* 0 when the screen has no room for it */
	int author;		/* 0 when the screen has no room for it */
	int summary;
	int countdown;		/* COUNTDOWN_COLUMNS, or 0: none on the page */
	int verdicts;		/* x of the LEFT, ADV, LOCAL and AGE columns */
};

/*
 * Columns right of the summary: " LEFT  " (the countdown, only while
 * the page has one to show), then " ADV  LOCAL AGE".
 */
#define COUNTDOWN_COLUMNS 7
#define VERDICT_COLUMNS 15
#define DAY_MS 86400000LL
/* A summary this wide keeps a trade's side, ticker, quantity and amount. */
#define SUMMARY_WANTED 24

/* A kind as its 7-column cell shows it: legal_draft is "legal". */
static const char *
kind_shown(const char *kind)
{
	return strcmp(kind, "legal_draft") == 0 ? "legal" : kind;
}

/* The summary a row shows: after the approvals so far under a quorum. */
static char *
row_summary(const struct queue_row *row)
{
	/* SPEC 14: "1/2 ..." while a quorum waits for more officers. */
	if (row->approvals > 0)
		return xasprintf("%d/%d %s", row->approvals,
		    row->quorum_needed, row->summary);
	return xstrdup(row->summary);
}

/* The summary's last word when it is an amount ("$5,500.00"), or NULL. */
static const char *
summary_amount(const char *summary)
{
	const char *last = strrchr(summary, ' ');

	return last != NULL && (last[1] == '$' || (last[1] == '-' &&
	    last[2] == '$')) ? last : NULL;
}

/*
 * Columns the page's summaries that end in an amount want, to show
 * whole, SUMMARY_WANTED at most; others are cut at their end anyway.
 */
static int
summary_wanted(const struct tui *t)
{
	int want = 10, w;
	char *summary;
	long i;

	for (i = 0; i < t->page_count && want < SUMMARY_WANTED; i++) {
		summary = row_summary(&t->page[i]);
		w = summary_amount(summary) ? (int)sanitized_width(summary) : 0;
		free(summary);
		want = w > want ? w : want;
	}
	return want < SUMMARY_WANTED ? want : SUMMARY_WANTED;
}

/*
 * The ID column is as wide as the widest shortest unique prefix on the
 * page needs (8 at least, with its ellipsis), wider still on a wide
 * screen; then the requester, then the author, as the summary can spare
 * them: a name column is left out before a trade's amount is cut (at
 * 80 columns, "BUY XOM x50 $5,500.00" whole).  The summary keeps 10
 * columns at least.
 */
static struct layout
queue_layout(const struct tui *t)
{
	int mark = draw_utf8() ? 1 : 3, need = 8 + mark, whole = 0, w, rest;
	int want = summary_wanted(t);
	struct layout l;
	long i;

	for (i = 0; i < t->page_count; i++) {
		w = (int)t->page_full[i];
		if (w <= t->page_unique[i] + mark)
			need = need > w ? need : w;
		else if (t->page_unique[i] + mark > need)
			need = t->page_unique[i] + mark;
		whole = whole > w ? whole : w;
	}
	l.countdown = 0;
	for (i = 0; i < t->page_count; i++) {
		if (t->page[i].has_expiry && t->page[i].expires_at_ms >
		    t->query.now_ms && t->page[i].expires_at_ms -
		    t->query.now_ms < DAY_MS)
			l.countdown = COUNTDOWN_COLUMNS;
	}
	/* 17 before the ID; a space, the summary, the verdicts' columns. */
	rest = COLS - 17 - 1 - l.countdown - VERDICT_COLUMNS;
	l.id = need < rest - 10 ? need : rest - 10;
	if (l.id < 8 + mark)
		l.id = 8 + mark;
	/* A wide screen shows more of each id, up to the whole of it. */
	if (COLS > 100 && whole > l.id)
		l.id = whole < l.id + (COLS - 100) / 2 ? whole :
		    l.id + (COLS - 100) / 2;
	rest -= l.id;
	/* Names get more room where the summary has plenty. */
	l.requester = rest - 13 >= 12 && rest - 13 >= want ?
	    COLS >= 140 ? 16 : 12 : 0;
	rest -= l.requester ? l.requester + 1 : 0;
	l.author = COLS >= 100 && rest - 15 >= 20 && rest - 15 >= want ?
	    COLS >= 140 ? 20 : 14 : 0;
	rest -= l.author ? l.author + 1 : 0;
	l.summary = rest > 4 ? rest : 4;
	l.verdicts = 17 + l.id + 1 + (l.requester ? l.requester + 1 : 0) +
	    (l.author ? l.author + 1 : 0) + l.summary;
	return l;
}

/*
 * A summary too wide for its cell keeps its last word when that is an
 * amount ("BUY XOM x5… $5,500.00"): the amount is what an officer reads
 * first, and the end of the text is where a cut falls.
 */
static void
draw_summary(int y, int x, const char *summary, int width, int attr)
{
	const char *last = summary_amount(summary);
	int tail;
	char *head, *line;

	if ((int)sanitized_width(summary) <= width || last == NULL ||
	    (tail = (int)sanitized_width(last)) + 1 > width) {
		draw_clipped(y, x, summary, width, attr);
		return;
	}
	head = xasprintf("%.*s", (int)(last - summary), summary);
	line = clip_text(head, width - tail);
	free(head);
	head = xasprintf("%s%s", line, last);
	draw_text(y, x, head, width, attr);
	free(head);
	free(line);
}

/* A name's column of a row ("-" for none) and the space after it, from *x. */
static void
draw_name(int y, int *x, const char *name, int width, int attr)
{
	draw_clipped(y, *x, name[0] ? name : "-", width, attr);
	*x += width;
	draw_text(y, (*x)++, " ", 1, attr);
}

static void
draw_row(struct tui *t, int y, const struct queue_row *row, bool selected,
    const struct layout *l)
{
	char flags[8], age[16], left[16], *id, *summary;
	int attr = selected ? A_REVERSE : A_NORMAL, x;

	snprintf(flags, sizeof flags, "%c%c%c%c%c%c",
	    row->high_stakes ? 'H' : ' ', row->local_fail ? 'x' : ' ',
	    row->divergent ? '!' : ' ', row->locked_out ? 'L' : ' ',
	    row->deadlocked ? 'D' : ' ', row->expired ? 'E' : ' ');
	/* How long it has waited since it was drafted, when the packet says. */
	format_age(age, sizeof age, t->query.now_ms - (row->has_drafted ?
	    row->drafted_at_ms : row->imported_at_ms));
	draw_text(y, 0, selected ? ">" : " ", 1, attr);
	draw_text(y, 1, queue_tagged(t, row->action_id) ? "*" : " ", 1,
	    attr | A_BOLD);
	draw_text(y, 2, flags, 6, attr | A_BOLD);
	draw_text(y, 8, " ", 1, attr);
	draw_text(y, 9, kind_shown(row->kind), 7, attr);
	draw_text(y, 16, " ", 1, attr);
	/* Cut ids end in an ellipsis: two ids that share their first
	   columns must not look alike, nor a cut one whole. */
	id = id_shown(row->action_id, l->id);
	draw_text(y, 17, id ? id : "?", l->id, attr);
	free(id);
	x = 17 + l->id;
	draw_text(y, x++, " ", 1, attr);
	if (l->requester > 0)
		draw_name(y, &x, row->requester, l->requester, attr);
	if (l->author > 0)
		draw_name(y, &x, row->author, l->author, attr);
	summary = row_summary(row);
	draw_summary(y, x, summary, l->summary, attr);
	free(summary);
	/* Time left, for those expiring within a day (E once it is past). */
	format_countdown(left, sizeof left, row->has_expiry ?
	    row->expires_at_ms - t->query.now_ms : 0);
	if (l->countdown > 0) {
		draw_text(y, l->verdicts, " ", 1, attr);
		draw_text(y, l->verdicts + 1, left, l->countdown - 1,
		    left[0] ? (int)((unsigned)attr | A_BOLD) : attr);
	}
	x = l->verdicts + l->countdown;
	draw_text(y, x, " ", 1, attr);
	draw_text(y, x + 1, _(row->advisory), 5, attr);
	draw_text(y, x + 6, row->local_fail ? _("FAIL") : _("pass"), 4,
	    row->local_fail ? (int)((unsigned)(attr | A_BOLD) ^ A_REVERSE) :
	    attr);
	draw_text(y, x + 10, " ", 1, attr);
	draw_text(y, x + 11, age, 4, attr);
}

/*
 * The i-th word of a translated line of headings ("  FLAGS  KIND    ID
 * WHO  SUMMARY"): the columns move with the screen's width now, and the
 * words keep their translations.
 */
static void
heading_word(const char *line, int i, char *buf, size_t size)
{
	size_t n;

	buf[0] = '\0';
	for (;;) {
		line += strspn(line, " ");
		n = strcspn(line, " ");
		if (n == 0)
			return;
		if (i-- == 0)
			break;
		line += n;
	}
	snprintf(buf, size, "%.*s", (int)n, line);
}

static void
draw_headings(const struct layout *l)
{
	/* L10N: column headings of the queue, one word each, in this
	   order: the flags, the kind, the action id, who the action is
	   for, its summary.  Columns are laid out by the program */
	const char *line = _("  FLAGS  KIND    ID        WHO          SUMMARY");
	char word[64];
	int x;

	draw_clear_line(1);
	heading_word(line, 0, word, sizeof word);
	draw_text(1, 2, word, 7, A_UNDERLINE);
	heading_word(line, 1, word, sizeof word);
	draw_text(1, 9, word, 8, A_UNDERLINE);
	heading_word(line, 2, word, sizeof word);
	draw_text(1, 17, word, l->id + 1, A_UNDERLINE);
	x = 18 + l->id;
	if (l->requester > 0) {
		/* L10N: column heading of the queue: who asked for the action
		   (requested_by), 12 columns */
		draw_text(1, x, _("REQUESTER"), l->requester + 1, A_UNDERLINE);
		x += l->requester + 1;
	}
	if (l->author > 0) {
		/* L10N: column heading of the queue: who drafted the action,
		   14 columns */
		draw_text(1, x, _("AUTHOR"), l->author + 1, A_UNDERLINE);
		x += l->author + 1;
	}
	heading_word(line, 4, word, sizeof word);
	draw_text(1, x, word, l->verdicts - x, A_UNDERLINE);
	/* L10N: the last column headings of the queue, in 15 columns: the
	   advisory verdict (ADV, at 1), the local one (LOCAL, at 6) and how
	   long the action has waited (AGE, at 11) */
	/* L10N: column heading of the queue over the time left before
	   an expiry within a day ("3h12m"), in 6 columns */
	snprintf(word, sizeof word, " %s", _("LEFT"));
	if (l->countdown > 0)
		draw_text(1, l->verdicts, word, l->countdown, A_UNDERLINE);
	draw_text(1, l->verdicts + l->countdown, _(" ADV  LOCAL AGE"), 15,
	    A_UNDERLINE);
}

void
queue_draw(struct tui *t)
{
	struct layout l = queue_layout(t);
	char header[512];
	bool limited = t->limit.count > 0;
	bool narrowed = t->search[0] != '\0' || t->query.filter != QUEUE_ALL ||
	    limited;
	int y, right;
	long i;

	if (limited) {
		char *limit = xsanitize(t->limit_text);

		/* L10N: the first line of the queue under a limit (l): how
		   many are shown, how many are pending, and the limit's
		   expression as typed */
		snprintf(header, sizeof header, _("countersign  %ld of %ld "
		    "shown \xc2\xb7 limit: %s"), t->count, t->pending, limit);
		free(limit);
	} else if (narrowed)
		/* L10N: the first line of the queue while a search or a
		   filter hides some actions: how many are shown, how many are
		   pending, how many of them are high stakes, how many need
		   care (a local failure or a divergence) */
		snprintf(header, sizeof header, _("countersign  %ld of %ld "
		    "shown \xc2\xb7 %ld high stakes \xc2\xb7 %ld need care"),
		    t->count, t->pending, t->high_stakes, t->divergent);
	else
		/* L10N: the first line of the queue: how many actions are
		   pending, how many of them are high stakes, how many need
		   care (a local failure or a divergence) */
		snprintf(header, sizeof header, _("countersign  %ld pending "
		    "\xc2\xb7 %ld high stakes \xc2\xb7 %ld need care"),
		    t->pending, t->high_stakes, t->divergent);
	/*
	 * A filter or sort other than the first: said at the top, in place
	 * of the totals (which count the whole queue) when it fits.
	 */
	if (!limited && (t->query.filter != QUEUE_ALL ||
	    t->query.sort != QUEUE_BY_CARE || t->by_value)) {
		char count[128], state[256], line[sizeof header];

		if (narrowed)
			/* L10N: the first line of the queue under a filter or
			   sort, before them: how many are shown of how many */
			snprintf(count, sizeof count, _("countersign  %ld of %ld "
			    "shown"), t->count, t->pending);
		else
			/* L10N: as above, when all are shown */
			snprintf(count, sizeof count, _("countersign  %ld "
			    "pending"), t->pending);
		snprintf(state, sizeof state, _("filter: %s \xc2\xb7 sort: %s"
		    "%s%s"), _(filter_names[t->query.filter]),
		    sort_name(t), "", "");
		snprintf(line, sizeof line, "%s \xc2\xb7 %s", count, state);
		if ((int)sanitized_width(line) <= COLS)
			snprintf(header, sizeof header, "%s", line);
	}
	/* The operator and database on the right, when there is room. */
	right = COLS - (int)sanitized_width(header) - 2;
	if (right >= 16) {
		char who[300];

		if (right > 40)
			right = 40;
		draw_text(0, 0, header, COLS - right, A_BOLD);
		snprintf(who, sizeof who, "  %s  %s", t->op.login, t->db_path);
		draw_untrusted(0, COLS - right, who, right, A_BOLD);
	} else
		draw_text(0, 0, header, COLS, A_BOLD);
	draw_headings(&l);
	for (i = 0, y = 2; i < t->page_count && y < LINES - 3; i++, y++)
		draw_row(t, y, &t->page[i], t->top + i == t->cursor, &l);
	draw_escalated(t, y + (t->page_count == 0 ? 2 : 0));
	if (t->page_count == 0)
		draw_text(3, 2, narrowed ? _("Nothing matches.") :
		    _("No pending actions."), COLS - 2, A_NORMAL);
	/* A notice takes the legend's line: the keys and the state of the
	   query below it stay in view. */
	if (t->notice[0] != '\0')
		draw_text(LINES - 3, 0, t->notice, COLS, A_BOLD);
	else
		/* L10N: the legend of the flag letters H, x, !, L, D, E and *:
		   keep the letters, translate what they mean, in 80 columns
		   at most (the width of most terminals) */
		draw_keys(LINES - 3, _("H high stakes  x fails  ! diverges  "
		    "L locked  D deadlocked  E expired  * tagged"), A_DIM);
	/* L10N: the keys of the queue: a, r, Enter, t, /, l, f, s, ? and q
	   stay whatever the language; items are separated by two spaces,
	   and on a narrow screen the ones that do not fit are left out
	   (? and q stay) */
	if (t->tag_count > 0) {
		/* L10N: the keys of the queue while actions are tagged: %zu
		   how many; A, R, t, /, ? and q stay whatever the language;
		   items are separated by two spaces */
		snprintf(header, sizeof header, _("%zu tagged: A approve them  "
		    "R reject them  t tag  Enter open  / find  ? help  q quit"),
		    t->tag_count);
		draw_keys(LINES - 2, header, A_NORMAL);
	} else
		draw_keys(LINES - 2, _("a approve  r reject  Enter open  t tag  "
		    "/ find  l limit  f filter  s sort  ? help  q quit"),
		    A_NORMAL);
	/* L10N: the status line: %1$s the filter, %2$s the sort
	   order, then " · search: " and the text searched, or
	   nothing */
	snprintf(header, sizeof header, _("filter: %s \xc2\xb7 sort: %s"
	    "%s%s"), _(filter_names[t->query.filter]),
	    sort_name(t), t->search[0] ?
	    _(" \xc2\xb7 search: ") : "", t->search);
	/* The search is typed text: shown through the sanitizer too. */
	if (t->prompt_error[0] != '\0')
		draw_text(LINES - 1, 0, t->prompt_error, COLS, A_BOLD);
	else {
		char head[64];
		int at;

		draw_untrusted(LINES - 1, 0, header, COLS, A_DIM);
		/* The way to the whole audit head, at the right when it fits. */
		/* L10N: at the right of the status line: H is the key that
		   shows the audit head whole, %lld its sequence number */
		snprintf(head, sizeof head, _("H audit head #%lld"),
		    t->head_seq);
		at = COLS - (int)sanitized_width(head);
		if (t->head_seq > 0 && at > (int)sanitized_width(header) + 2)
			draw_text(LINES - 1, at, head, COLS - at, A_DIM);
	}
}
