/*
 * What every confirmation of the review screens shares: the box, its
 * parts and their scrolling, the one key loop (dialog_run) and the keys
 * all of them read, the reason typed, and the one way a confirmed
 * decision is submitted.  The approve and
 * reject dialogs are dialog_approve.c and dialog_reject.c, bulk decisions
 * dialog_bulk.c and a product owner's judgment dialog_judge.c.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "json_fields.h"
#include "lockout.h"
#include "reasons.h"
#include "sanitize.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"
#include "dialog.h"

/* Text columns inside the box: the lines are cut and wrapped to them. */
static int
dialog_width(void)
{
	return (COLS - 2 < DIALOG_WIDTH ? COLS - 2 : DIALOG_WIDTH) - 4;
}

void
dialog_clear(struct dialog *d)
{
	detail_free(&d->head);
	detail_free(&d->list);
	detail_free(&d->menu);
	detail_free(&d->tail);
	d->list_cursor = -1;
	d->reason_line = 0;
	d->width = dialog_width();
}

/* The box and its title: drawn again whenever the box is. */
static void
frame(struct dialog *d)
{
	char *title = clip_text(d->title, getmaxx(d->w) - 4);

	/* The line-drawing set is not there for every locale and terminal. */
	if (draw_utf8())
		box(d->w, 0, 0);
	else
		wborder(d->w, '|', '|', '-', '-', '+', '+', '+', '+');
	wattron(d->w, A_BOLD);
	mvwaddstr(d->w, 0, 2, title);
	wattroff(d->w, A_BOLD);
	free(title);
}

/*
 * Row y of the box cleared, then n bytes of text (-1: all of it) put on
 * it in attr, where the parts' text starts.
 */
static void
put_row(struct dialog *d, int y, const char *text, int n, int attr)
{
	wmove(d->w, y, 1);
	wclrtoeol(d->w);
	frame(d);
	wattron(d->w, attr);
	mvwaddnstr(d->w, y, 2, text, n);
	wattroff(d->w, attr);
}

static long
rows_in(const struct detail *part, int width)
{
	long rows = 0;
	size_t i;

	for (i = 0; i < part->count; i++)
		rows += line_rows(&part->lines[i], width);
	return rows;
}

static long
least(long a, long b)
{
	return a < b ? a : b;
}

/* Draws part's rows from row y, at most max of them; returns the next row. */
static int
put_part(const struct tui *t, struct dialog *d, int y,
    const struct detail *part, size_t from, long max)
{
	size_t i;
	int end = y + (int)max;

	for (i = from; i < part->count && y < end; i++)
		y += draw_line_in(d->w, y, 2, &part->lines[i], 0, end - y,
		    d->width, style_attr(t, part->lines[i].style));
	return end;
}

/* The body's parts, in order: what scrolls. */
static const struct detail *
body_part(const struct dialog *d, int i)
{
	return i == 0 ? &d->head : i == 1 ? &d->list : &d->menu;
}

/* The body row a line of head, list or menu starts on. */
static long
dialog_line_row(const struct dialog *d, const struct detail *part,
    size_t line)
{
	long row = 0;
	size_t i;
	int p;

	for (p = 0; p < 3; p++) {
		const struct detail *b = body_part(d, p);

		for (i = 0; i < b->count; i++) {
			if (b == part && i == line)
				return row;
			row += line_rows(&b->lines[i], d->width);
		}
	}
	return row;
}

/* Draws the body's rows from top, rows of them, from row y of the box. */
static void
put_body(const struct tui *t, struct dialog *d, int y, long top, long rows)
{
	const struct detail *part;
	long row = 0, n, first;
	int end = y + (int)rows, p;
	size_t i;

	for (p = 0; p < 3 && y < end; p++) {
		part = body_part(d, p);
		for (i = 0; i < part->count && y < end; i++) {
			n = line_rows(&part->lines[i], d->width);
			if (row + n > top) {
				first = top > row ? top - row : 0;
				y += draw_line_in(d->w, y, 2, &part->lines[i],
				    first, end - y, d->width,
				    style_attr(t, part->lines[i].style));
			}
			row += n;
		}
	}
}

/* "more above" or "more below" on a row of the box, dim and reversed. */
static void
put_more(struct dialog *d, int y, const char *text)
{
	char *clipped = clip_text(text, d->width);
	char *ascii = NULL;

	if (!draw_utf8())
		ascii = draw_ascii(clipped, strlen(clipped));
	put_row(d, y, ascii ? ascii : clipped, -1, A_REVERSE);
	free(clipped);
	free(ascii);
}

/* Rows the tail's lines before line take. */
static long
tail_rows_before(const struct dialog *d, long line)
{
	long rows = 0, i;

	for (i = 0; i < line && i < (long)d->tail.count; i++)
		rows += line_rows(&d->tail.lines[i], d->width);
	return rows;
}

bool
tail_line_shown(const struct dialog *d, long line)
{
	return line >= 0 && line < (long)d->tail.count &&
	    tail_rows_before(d, line) < d->tail_rows;
}

/*
 * Lays the parts out and draws them.  The key line and the tail (the
 * reason, a refusal) stay at the bottom: what the officer acts on.  The
 * body above them (head, list, menu) scrolls when it does not fit, with
 * a row saying that there is more above or below, and nothing dropped:
 * it scrolls to the list's line asked now.
 */
int
dialog_draw(const struct tui *t, struct dialog *d)
{
	long body, tail, avail, region, want, from, to, focus = -1;
	int width = dialog_width(), cols = width + 4, y = 1, pass;
	bool above = false, below = false;
	char *footer;

	if (d->w != NULL) {
		/* What the old box covered shows again where the new one
		   is smaller (after a judgment, say). */
		delwin(d->w);
		touchwin(stdscr);
		wnoutrefresh(stdscr);
	}
	d->w = NULL;
	if (width < 1 || LINES < 5)
		return -1;
	d->width = width;
	body = rows_in(&d->head, width) + rows_in(&d->list, width) +
	    rows_in(&d->menu, width);
	tail = rows_in(&d->tail, width);
	want = body + tail + 1 + 2;
	if (want > LINES - 2)
		want = LINES - 2;
	if ((d->w = newwin((int)want, cols, (LINES - (int)want) / 2,
	    (COLS - cols) / 2)) == NULL)
		return -1;
	keypad(d->w, TRUE);
	werase(d->w);
	frame(d);
	avail = want - 2 - 1;		/* the box, the key line */
	tail = least(tail, avail - (body > 0 && avail > 1 ? 1 : 0));
	region = avail - tail;
	if (d->list_cursor >= 0 && d->list_cursor < (long)d->list.count)
		focus = dialog_line_row(d, &d->list, (size_t)d->list_cursor);
	/* Twice: the rows saying "more" take room from what they frame. */
	for (pass = 0; pass < 3; pass++) {
		if (d->top > body - region + (below ? 1 : 0))
			d->top = body - region + (below ? 1 : 0);
		if (d->top < 0)
			d->top = 0;
		above = d->top > 0 && region > 2;
		below = d->top + region < body && region > 2;
		from = d->top + (above ? 1 : 0);
		to = d->top + region - (below ? 1 : 0);
		if (focus >= 0 && focus < from)
			d->top -= from - focus;
		else if (focus >= 0 && focus >= to)
			d->top += focus - to + 1;
		else
			break;
	}
	above = d->top > 0 && region > 2;
	below = d->top + region < body && region > 2;
	d->shown_from = d->top + (above ? 1 : 0);
	d->shown_to = d->top + region - (below ? 1 : 0);
	put_body(t, d, y, d->top, region);
	if (above)
		/* L10N: a dialog's first row when it is scrolled: PgUp is
		   the key */
		put_more(d, y, _("\xe2\x86\x91 more above (PgUp)"));
	if (below)
		/* L10N: a dialog's last row before the reason when more
		   follows: PgDn is the key */
		put_more(d, y + (int)region - 1, _("\xe2\x86\x93 more below "
		    "(PgDn)"));
	y += (int)region;
	d->tail_rows = tail;
	d->reason_row = y + (int)tail_rows_before(d, d->reason_line);
	y = put_part(t, d, y, &d->tail, 0, tail);
	if (y < getmaxy(d->w) - 1) {
		/* L10N: the keys of a dialog: Enter and Esc are key names */
		footer = clip_text(_("Enter confirm \xc2\xb7 Esc cancel"),
		    width);
		if (!draw_utf8()) {
			char *ascii = draw_ascii(footer, strlen(footer));

			free(footer);
			footer = ascii;
		}
		put_row(d, y, footer, -1, A_DIM);
		free(footer);
	}
	wrefresh(d->w);
	return 0;
}

bool
dialog_scroll_key(struct dialog *d, int ch)
{
	long page = d->shown_to - d->shown_from > 1 ?
	    d->shown_to - d->shown_from - 1 : 1;

	switch (ch) {
	case KEY_NPAGE:
		d->top += page;
		return true;
	case KEY_PPAGE:
		d->top -= page;
		return true;
	case KEY_DOWN:
		d->top++;
		return true;
	case KEY_UP:
		d->top--;
		return true;
	default:
		return false;
	}
}

int
dialog_next_key(struct dialog *d)
{
	int ch = tui_key(d->w);

	if (tui_signalled != 0 || ch == 27 || ch == 'q')
		return DIALOG_LEAVE;
	if (ch == KEY_RESIZE) {
		resized();
		return DIALOG_HANDLED;
	}
	return dialog_scroll_key(d, ch) ? DIALOG_HANDLED : ch;
}

/*
 * Reads a line of text into buf on the dialog's reason row; Enter or Tab
 * ends it.  The end of a long line stays in view: it is what is typed.
 */
void
edit_text(struct dialog *d, const char *label, char *buf, size_t size)
{
	char *line, *safe;
	size_t width, skip;
	int ch;

	curs_set(1);
	for (;;) {
		line = xasprintf("%s%s_", label, buf);
		safe = xsanitize(line);
		free(line);
		width = sanitized_width(safe);
		skip = width > (size_t)d->width ? sanitized_prefix(safe,
		    width - (size_t)d->width, NULL) : 0;
		put_row(d, d->reason_row, safe + skip, (int)sanitized_prefix(
		    safe + skip, (size_t)d->width, NULL), A_BOLD);
		free(safe);
		wrefresh(d->w);
		ch = tui_key(d->w);
		if (tui_signalled != 0 || ch == '\n' || ch == '\r' ||
		    ch == KEY_ENTER || ch == '\t' || ch == 27)
			break;
		tui_edit_key(buf, size, ch);
	}
	curs_set(0);
}

void
edit_reason(struct dialog *d, char *reason, size_t size)
{
	/* L10N: label of the line where a reason is typed */
	edit_text(d, _("Reason: "), reason, size);
}

/* The title, from raw text that may hold an untrusted action id. */
static void
dialog_title(struct dialog *d, const char *raw)
{
	char *safe = xsanitize(raw);

	snprintf(d->title, sizeof d->title, " %s ", safe);
	free(safe);
}

void
dialog_run(struct tui *t, const char *title, const struct dialog_ops *ops,
    void *state)
{
	enum dialog_step step = DIALOG_STAY;
	struct dialog d;
	int ch;

	memset(&d, 0, sizeof d);
	dialog_title(&d, title);
	while (step == DIALOG_STAY) {
		if (ops->draw(t, &d, state) != 0)
			break;
		if ((ch = dialog_next_key(&d)) == DIALOG_LEAVE)
			break;
		if (ch == DIALOG_HANDLED)
			continue;
		step = confirm_key(ch) ? ops->confirm(t, &d, state) :
		    ops->key(t, &d, state, ch);
	}
	if (d.w != NULL)
		delwin(d.w);
	dialog_clear(&d);
	touchwin(stdscr);
}

/*
 * The view under the dialog was laid out for the old size: cleared rather
 * than left in pieces; it is drawn anew when the dialog closes.
 */
void
resized(void)
{
	erase();
	refresh();
}

bool
confirm_key(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

bool
dialog_reason_key(char reasons[][REASON_SIZE], size_t count, int ch,
    char *reason, size_t size)
{
	if (ch < '1' || ch >= '1' + (int)count)
		return false;
	snprintf(reason, size, "%s", reasons[ch - '1']);
	return true;
}

void
dialog_request(struct decision_request *req, const char *id,
    enum decision_kind decision, const char *reason,
    const char *shown_sha256)
{
	memset(req, 0, sizeof *req);
	req->action_id = id;
	req->decision = decision;
	req->reason = reason;
	req->expect_sha256 = shown_sha256;
}

static void
report(struct tui *t, const struct decision_outcome *out, const char *verb,
    const char *action_id)
{
	/* Characters of what the screen shows, not bytes of the raw id. */
	char *id = short_id(t->store, action_id);
	struct error err;

	if (out->partial) {
		/* L10N: after an approval under a quorum (SPEC 14) that does
		   not decide yet: %1$s the start of the action id, %2$d and
		   %3$d the approvals so far and needed, %4$.8s the start of
		   the approval id, %5$d how many more officers must approve */
		tui_notice(t, _("%1$s: approval %2$d of %3$d recorded "
		    "(approval %4$.8s); waiting for %5$d more"), id,
		    out->quorum_have, out->quorum_needed, out->approval_id,
		    out->quorum_needed - out->quorum_have);
		if (out->head_unsunk)
			/* L10N: as above, then the new audit head's seq and
			   hash, which no syslog took (SPEC 6) */
			tui_notice(t, _("%1$s: approval %2$d of %3$d recorded; "
			    "waiting for %4$d more; no syslog took audit head "
			    "%5$lld %6$s"), id, out->quorum_have,
			    out->quorum_needed, out->quorum_needed -
			    out->quorum_have, out->head.seq, out->head.hash);
	} else {
		/* L10N: after a decision: %1$s the start of the action id,
		   %2$s "approved" or "rejected" (translated on their own),
		   %3$.8s the first 8 characters of the decision id */
		tui_notice(t, _("%s %s (decision %.8s)"), id, verb,
		    out->decision_id);
		if (out->head_unsunk)
			/* L10N: as above, then the new audit head's seq and
			   hash, which no syslog took (SPEC 6) */
			tui_notice(t, _("%s %s (decision %.8s); no syslog took "
			    "audit head %lld %s"), id, verb, out->decision_id,
			    out->head.seq, out->head.hash);
	}
	free(id);
	t->recorded_now = true;
	/* The decision marked its revisions' rows for a re-check (SPEC 2.4). */
	if (queue_refresh(t->store, timestamp_now(), NULL, &err) != 0)
		tui_notice(t, "%s", err.message);
	t->view = VIEW_QUEUE;
	t->counts_stale = true;
	tui_reload(t);
}

/*
 * The dialog's key line while a confirmed decision is recorded (dialog.h).
 */
void
dialog_show_recording(struct dialog *d)
{
	int row = d->w != NULL ? getmaxy(d->w) - 2 : 0;
	char *text;

	if (row < 1)
		return;
	/* L10N: a dialog's key line while its decision is recorded */
	text = clip_text(_("Recording the decision..."), d->width);
	put_row(d, row, text, -1, A_BOLD);
	free(text);
	wrefresh(d->w);
}

/*
 * The one way both dialogs record what the officer confirmed: the
 * decision (its re-check runs again inside the transaction), then,
 * recorded, the notice and the queue (report); refused or failed, why,
 * in refusal, for the dialog to show.
 */
enum submitted
dialog_submit(struct tui *t, struct dialog *d,
    const struct decision_request *req, const char *verb, char *refusal,
    size_t size)
{
	struct decision_outcome out;
	struct error err;

	dialog_show_recording(d);
	if (decision_record(t->store, req, &t->op, DECISION_NOW, false, &out,
	    &err) != 0) {
		snprintf(refusal, size, "%s", err.message);
		return SUBMIT_FAILED;
	}
	if (!out.recorded) {
		/* SPEC 10 (v3): the role is gone; the screens end, saying why. */
		if (tui_end_if_forbidden(t, &out))
			return SUBMIT_REFUSED;
		snprintf(refusal, size,
		    /* L10N: %1$s is the refusal code (e.g. rules_failed, not
		       translated), %2$s its message (not translated
		       either) */
		    _("Refused (%s): %s"), out.code, out.message);
		return SUBMIT_REFUSED;
	}
	report(t, &out, verb, req->action_id);
	return SUBMIT_RECORDED;
}

/*
 * The digest of the packet the officer looked at: the detail's when the
 * dialog was opened over it, else what the dialog's own first re-check
 * showed.  Taken once: a packet swapped while the dialog is open is then
 * refused as `changed` (SPEC 5), never approved unseen.
 */
static void
shown_sha256(const struct tui *t, const char *id, const struct recheck *r,
    char out[65])
{
	snprintf(out, 65, "%s", t->view == VIEW_DETAIL &&
	    strcmp(t->detail_id, id) == 0 && t->detail_sha256[0] != '\0' ?
	    t->detail_sha256 : r->data.packet_sha256);
}

/*
 * The action's re-check as a dialog opens, and the digest of what is
 * shown; false, said on the notice line, when it cannot be read.
 */
bool
dialog_check(struct tui *t, const char *id, struct recheck *check,
    char shown[65])
{
	struct error err;

	if (recheck_action(t->store, id, timestamp_now(), NULL, check,
	    &err) != 0) {
		tui_notice(t, "%s", err.message);
		return false;
	}
	shown_sha256(t, id, check, shown);
	return true;
}
