/*
 * The approve and reject confirmations.  Only what applies is shown; what
 * is dangerous cannot be rushed: high stakes and divergence each need
 * their own key, and Enter runs the whole re-check again through the one
 * decision path, which may still refuse.
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
	wmove(d->w, y, 1);
	wclrtoeol(d->w);
	wattron(d->w, A_REVERSE);
	mvwaddstr(d->w, y, 2, ascii ? ascii : clipped);
	wattroff(d->w, A_REVERSE);
	free(clipped);
	free(ascii);
	frame(d);
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
		wattron(d->w, A_DIM);
		mvwaddstr(d->w, y, 2, footer);
		wattroff(d->w, A_DIM);
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
	int ch = wgetch(d->w);

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
		wmove(d->w, d->reason_row, 1);
		wclrtoeol(d->w);
		frame(d);
		width = sanitized_width(safe);
		skip = width > (size_t)d->width ? sanitized_prefix(safe,
		    width - (size_t)d->width, NULL) : 0;
		wattron(d->w, A_BOLD);
		mvwaddnstr(d->w, d->reason_row, 2, safe + skip,
		    (int)sanitized_prefix(safe + skip, (size_t)d->width, NULL));
		wattroff(d->w, A_BOLD);
		free(safe);
		wrefresh(d->w);
		ch = wgetch(d->w);
		if (tui_signalled != 0 || ch == '\n' || ch == '\r' ||
		    ch == KEY_ENTER || ch == '\t' || ch == 27)
			break;
		tui_edit_key(buf, size, ch);
	}
	curs_set(0);
}

/* The title, from raw text that may hold an untrusted action id. */
void
dialog_title(struct dialog *d, const char *raw)
{
	char *safe = xsanitize(raw);

	snprintf(d->title, sizeof d->title, " %s ", safe);
	free(safe);
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
	/* The decision marked its revisions' rows for a re-check (SPEC 2.4). */
	if (queue_refresh(t->store, timestamp_now(), NULL, &err) != 0)
		tui_notice(t, "%s", err.message);
	t->view = VIEW_QUEUE;
	t->counts_stale = true;
	tui_reload(t);
}

enum submitted { SUBMIT_RECORDED, SUBMIT_REFUSED, SUBMIT_FAILED };

/*
 * The one way both dialogs record what the officer confirmed: the
 * decision (its re-check runs again inside the transaction), then,
 * recorded, the notice and the queue (report); refused or failed, why,
 * in refusal, for the dialog to show.
 */
static enum submitted
submit(struct tui *t, const struct decision_request *req, const char *verb,
    char *refusal, size_t size)
{
	struct decision_outcome out;
	struct error err;

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
static bool
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

struct approve_state {
	struct recheck check;
	bool ack_high_stakes;
	bool ack_divergence;
	char reason[REASON_SIZE];
	cJSON *criteria;		/* change: [{id, text}] to judge */
	cJSON *judgments;		/* {"AC-3": "met"} */
	int judging;			/* index of the criterion asked now */
	char refusal[1400];
	char shown_sha256[65];
	/* The head's lines of the check boxes, as last drawn, or -1. */
	long high_stakes_box, divergence_box;
};

static int
approve_draw(const struct tui *t, struct dialog *d,
    struct approve_state *s, char reasons[][REASON_SIZE],
    size_t reason_count)
{
	const struct verdict *v = &s->check.outcome.verdict;
	int divergence = cJSON_GetArraySize(s->check.outcome.divergence);
	char *failing;
	size_t r;

	dialog_clear(d);
	s->high_stakes_box = s->divergence_box = -1;
	if (!v->overall_pass) {
		failing = xcheck(verdict_failing_rules(v));
		/* L10N: %s lists the failing rule ids */
		detail_add(&d->head, DETAIL_ALERT, _("LOCAL RULES FAIL: %s"),
		    failing);
		free(failing);
	}
	if (v->requires_human_approval) {
		/* L10N: a label and the first reason why the action is high
		   stakes (translated on its own) */
		detail_add(&d->head, DETAIL_HEADING, _("HIGH STAKES  %s"),
		    v->reason_count > 0 ?
		    VERDICT_SHOWN(&v->high_stakes_reasons[0]) : "");
		for (r = 1; r < v->reason_count; r++)
			detail_add(&d->head, DETAIL_PLAIN, "%s",
			    VERDICT_SHOWN(&v->high_stakes_reasons[r]));
	}
	/* What the officer judges by, which the rules leave to them. */
	detail_notes(&d->head, v);
	if (divergence > 0) {
		/* L10N: %d is how many differences there are */
		detail_add(&d->head, DETAIL_HEADING, _("DIVERGENCE  %d "
		    "difference(s) with the advisory verdict"), divergence);
	}
	dialog_judgment_part(d, s->criteria, s->judgments, s->judging);
	for (r = 0; r < reason_count; r++)
		detail_add(&d->menu, DETAIL_DIM, "%zu %s", r + 1, reasons[r]);
	/*
	 * The boxes stay with the reason, below what scrolls: what the
	 * officer must act on is on screen however small it is.
	 */
	if (v->requires_human_approval) {
		/* L10N: a check box: %c is x when ticked.  The key is h
		   whatever the language: keep "h" */
		detail_add(&d->tail, DETAIL_PLAIN, _("[%c] I have reviewed the "
		    "high stakes   (press h)"), s->ack_high_stakes ? 'x' : ' ');
		s->high_stakes_box = (long)d->tail.count - 1;
	}
	if (divergence > 0) {
		/* L10N: a check box: %c is x when ticked.  The key is d
		   whatever the language: keep "d" */
		detail_add(&d->tail, DETAIL_PLAIN, _("[%c] I have reviewed the "
		    "divergence   (press d)"), s->ack_divergence ? 'x' : ' ');
		s->divergence_box = (long)d->tail.count - 1;
	}
	d->reason_line = (long)d->tail.count;
	/* L10N: %1$s is "required" or "optional", %2$s the reason chosen
	   so far; Tab is the key */
	detail_add(&d->tail, DETAIL_PLAIN, _("Reason (%s, Tab to type): %s"),
	    /* L10N: whether the approval needs a reason */
	    v->requires_human_approval ? _("required") : _("optional"),
	    s->reason);
	if (s->refusal[0] != '\0')
		detail_add(&d->tail, DETAIL_ALERT, "%s", s->refusal);
	return dialog_draw(t, d);
}

/*
 * A PO judgment changes what the re-check says (a judged criterion can
 * end a failure, and with it the high stakes and the divergence): the
 * dialog asks the same re-check the decision runs, so it never shows
 * requirements that no longer hold, nor hides new ones.
 */
static int
rejudge(struct tui *t, struct approve_state *s, const char *id)
{
	struct error err;

	recheck_free(&s->check);
	s->refusal[0] = '\0';
	if (recheck_action(t->store, id, timestamp_now(), s->judgments,
	    &s->check, &err) != 0) {
		tui_notice(t, "%s", err.message);
		return -1;
	}
	return 0;
}

/* The approval the officer confirmed, as the approve dialog holds it. */
static void
approve_request(const struct approve_state *s, const char *id,
    struct decision_request *req)
{
	memset(req, 0, sizeof *req);
	req->action_id = id;
	req->decision = DECISION_APPROVE;
	req->reason = s->reason;
	req->ack_high_stakes = s->ack_high_stakes;
	req->ack_divergence = s->ack_divergence;
	req->po_judgments = cJSON_GetArraySize(s->judgments) > 0 ?
	    s->judgments : NULL;
	req->expect_sha256 = s->shown_sha256;
}

/*
 * A key that ticks a box, judges a NEEDS-PO criterion or chooses the
 * reason.  -1 when the re-check a judgment asks for failed (said in a
 * notice): the dialog closes.
 */
static int
approve_key(struct tui *t, struct dialog *d, struct approve_state *s,
    const char *id, int ch, char reasons[][REASON_SIZE], size_t reason_count)
{
	const cJSON *c = cJSON_GetArrayItem(s->criteria, s->judging);

	/*
	 * Only a box on the screen can be ticked: the record says the officer
	 * acknowledged what the dialog showed them.  (A screen too small for
	 * the boxes shows none.)
	 */
	if ((ch == 'h' && !tail_line_shown(d, s->high_stakes_box)) ||
	    (ch == 'd' && !tail_line_shown(d, s->divergence_box)))
		return 0;
	else if (ch == 'h' && s->check.outcome.verdict.requires_human_approval)
		s->ack_high_stakes = !s->ack_high_stakes;
	else if (ch == 'd' &&
	    cJSON_GetArraySize(s->check.outcome.divergence) > 0)
		s->ack_divergence = !s->ack_divergence;
	else if (ch == 'h' || ch == 'd')
		return 0;
	else if ((ch == 'm' || ch == 'u') && c != NULL) {
		dialog_judgment_key(s->criteria, s->judgments, &s->judging, ch);
		return rejudge(t, s, id);
	} else if (ch >= '1' && ch < '1' + (int)reason_count)
		snprintf(s->reason, sizeof s->reason, "%s", reasons[ch - '1']);
	else if (ch == '\t')
		/* L10N: label of the line where a reason is typed */
		edit_text(d, _("Reason: "), s->reason, sizeof s->reason);
	return 0;
}

/*
 * Issue 37: an approval the gate can only refuse is said at once, as
 * expiry is, rather than in a dialog that ends in the refusal: an action
 * decided already, or local rules that fail, but for the NEEDS-PO
 * judgment the dialog itself settles.  True when it was said.
 */
static bool
approval_unavailable(struct tui *t, const char *id, const struct recheck *r)
{
	const struct verdict *v = &r->outcome.verdict;
	char *shown, *failing;

	if (r->data.status != NULL && strcmp(r->data.status, "pending") != 0) {
		shown = short_id(t->store, id);
		/* L10N: %1$s is the start of an action id, %2$s approved or
		   rejected (the store's word, not translated) */
		tui_notice(t, _("%s is decided already (%s): there is nothing "
		    "to approve"), shown, r->data.status);
		free(shown);
		return true;
	}
	if (v->overall_pass || verdict_fails_only(v, "needs_po_judged"))
		return false;
	shown = short_id(t->store, id);
	failing = xcheck(verdict_failing_rules(v));
	/* L10N: %1$s is the start of an action id, %2$s the failing rule
	   ids; r is the key that rejects: keep it */
	tui_notice(t, _("%s cannot be approved: local rules fail (%s); r "
	    "rejects it"), shown, failing);
	free(failing);
	free(shown);
	return true;
}

void
dialog_approve(struct tui *t, const char *action_id)
{
	struct approve_state s;
	struct decision_request req;
	struct dialog d;
	char reasons[REASONS_MAX][REASON_SIZE], id[257], line[300];
	char refusal[sizeof s.refusal];
	size_t reason_count = 0;
	enum submitted submitted;
	bool checked;
	int ch;

	snprintf(id, sizeof id, "%s", action_id);
	memset(&s, 0, sizeof s);
	memset(&d, 0, sizeof d);
	if (!dialog_check(t, id, &s.check, s.shown_sha256))
		return;
	if (approval_unavailable(t, id, &s.check)) {
		recheck_free(&s.check);
		return;
	}
	checked = true;
	reason_count = reasons_load("approve", s.check.outcome.pack->kind,
	    reasons, REASONS_MAX);
	/* L10N: title of the approve dialog; %s is the action id */
	snprintf(line, sizeof line, _("Approve %s"), id);
	dialog_title(&d, line);
	if (s.check.outcome.pack->judgment_criteria != NULL)
		s.criteria = s.check.outcome.pack->judgment_criteria(
		    &s.check.data.input, &s.check.outcome.advisory);
	s.judgments = cJSON_CreateObject();
	for (;;) {
		if (approve_draw(t, &d, &s, reasons, reason_count) != 0)
			break;
		if ((ch = dialog_next_key(&d)) == DIALOG_LEAVE)
			break;
		if (ch == DIALOG_HANDLED)
			continue;
		if (!confirm_key(ch)) {
			if (approve_key(t, &d, &s, id, ch, reasons,
			    reason_count) != 0) {
				checked = false;
				break;
			}
			continue;
		}
		approve_request(&s, id, &req);
		/* L10N: the verb in "%s %s (decision %.8s)" */
		submitted = submit(t, &req, _("approved"), refusal,
		    sizeof refusal);
		if (submitted == SUBMIT_RECORDED || t->quit)
			break;
		/*
		 * Refused by the check the decision ran: show what it found
		 * (a policy imported since the dialog opened may have made
		 * the action high stakes), then why it was refused.
		 */
		if (submitted == SUBMIT_REFUSED &&
		    (checked = rejudge(t, &s, id) == 0) == false)
			break;
		memcpy(s.refusal, refusal, sizeof s.refusal);
	}
	if (d.w != NULL)
		delwin(d.w);
	dialog_clear(&d);
	cJSON_Delete(s.criteria);
	cJSON_Delete(s.judgments);
	if (checked)
		recheck_free(&s.check);
	touchwin(stdscr);
}

/* The roster authors who may write the next version, after this rejection. */
static cJSON *
eligible_authors(const struct check_input *in)
{
	cJSON *list = cJSON_CreateArray();
	const cJSON *author;
	const char *why;

	cJSON_ArrayForEach(author, json_member(in->roster, "authors")) {
		if (cJSON_IsString(author) &&
		    lockout_may_reassign(in, author->valuestring, &why))
			cJSON_AddItemToArray(list,
			    cJSON_CreateString(author->valuestring));
	}
	return list;
}

enum routing { ROUTE_NONE, ROUTE_REASSIGN, ROUTE_ESCALATE, ROUTE_BLOCKED };

/* What the reject dialog holds while the officer builds a rejection. */
struct reject_state {
	struct recheck check;
	char reason[REASON_SIZE];
	char assignee[257];		/* who writes the revision */
	char expertise[REASON_SIZE];	/* what an escalation asks for */
	char refusal[1400];
	char shown_sha256[65];
	enum routing route;
	cJSON *eligible;		/* the authors r cycles through */
	int next;			/* the one r names next */
	bool deadlocked;		/* every roster author locked out */
	bool blocked;			/* "blocked on a standard" offered */
};

static int
reject_draw(const struct tui *t, struct dialog *d,
    const struct reject_state *s, char reasons[][REASON_SIZE],
    size_t reason_count)
{
	size_t r;

	dialog_clear(d);
	for (r = 0; r < reason_count; r++)
		detail_add(&d->menu, strcmp(s->reason, reasons[r]) ?
		    DETAIL_PLAIN : DETAIL_HEADING, "%zu %s", r + 1,
		    reasons[r]);
	/* L10N: 0 is the key that lets the officer type a reason */
	detail_add(&d->menu, DETAIL_PLAIN, "%s", _("0 Other (type it)"));
	/* L10N: the reason chosen so far, or "(required)" */
	detail_add(&d->tail, DETAIL_HEADING, _("Reason: %s"), s->reason[0] ?
	    s->reason :
	    /* L10N: in place of a reason not given yet */
	    _("(required)"));
	if (s->route == ROUTE_BLOCKED)
		/* L10N: the change waits, nobody is locked out */
		detail_add(&d->tail, DETAIL_HEADING, "%s", _("Revision: "
		    "none: blocked, waiting for a standard (nobody is "
		    "locked out)"));
	else if (s->deadlocked)
		/* L10N: a revision is the next version of the rejected
		   action; a roster lists the authors who may write one */
		detail_add(&d->tail, DETAIL_HEADING, "%s", _("Revision: "
		    "every roster author is locked out; only escalation "
		    "is possible"));
	if (s->route == ROUTE_ESCALATE)
		/* L10N: the expertise the escalation asks for, typed
		   after the key x; "(any)" when none is named */
		detail_add(&d->tail, DETAIL_PLAIN, _("  x expertise "
		    "needed: %s"), s->expertise[0] ? s->expertise :
		    _("(any)"));
	if (!s->deadlocked) {
		/* L10N: who writes the revision: %s is an author's
		   name, "escalate" or "none" */
		detail_add(&d->tail, DETAIL_HEADING, _("Revision: %s"),
		    s->route == ROUTE_REASSIGN ? s->assignee : s->route ==
		    /* L10N: the revision goes to a superior
		       ("escalate") or to no one ("none") */
		    ROUTE_ESCALATE ? _("escalate") : _("none"));
		/* L10N: the keys r, e and n stay whatever the
		   language */
		detail_add(&d->tail, DETAIL_PLAIN, "%s", _("  r reassign "
		    "(cycles eligible authors)  e escalate  n no "
		    "revision"));
	}
	if (s->blocked)
		/* L10N: the key b stays whatever the language */
		detail_add(&d->tail, DETAIL_PLAIN, "%s", _("  b blocked: "
		    "hold it until the missing standard is defined"));
	if (s->refusal[0] != '\0')
		detail_add(&d->tail, DETAIL_ALERT, "%s", s->refusal);
	return dialog_draw(t, d);
}

/* A key that chooses the reason or where the revision goes. */
static void
reject_key(struct dialog *d, struct reject_state *s, int ch,
    char reasons[][REASON_SIZE], size_t reason_count)
{
	if (ch >= '1' && ch < '1' + (int)reason_count)
		snprintf(s->reason, sizeof s->reason, "%s", reasons[ch - '1']);
	else if (ch == '0' || ch == '\t') {
		s->reason[0] = '\0';
		edit_text(d, _("Reason: "), s->reason, sizeof s->reason);
	} else if (ch == 'r' && !s->deadlocked) {
		if (cJSON_GetArraySize(s->eligible) > 0) {
			snprintf(s->assignee, sizeof s->assignee, "%s",
			    cJSON_GetArrayItem(s->eligible, s->next %
			    cJSON_GetArraySize(s->eligible))->valuestring);
			s->next++;
		} else {
			/* The name is typed on the revision's row. */
			d->reason_row += (int)line_rows(&d->tail.lines[0],
			    d->width);
			/* L10N: label of the line where an author's
			   name is typed */
			edit_text(d, _("Reassign to: "), s->assignee,
			    sizeof s->assignee);
		}
		s->route = s->assignee[0] != '\0' ? ROUTE_REASSIGN : ROUTE_NONE;
	} else if (ch == 'e')
		s->route = ROUTE_ESCALATE;
	else if (ch == 'b' && s->blocked)
		s->route = ROUTE_BLOCKED;
	else if (ch == 'x' && s->route == ROUTE_ESCALATE) {
		s->expertise[0] = '\0';
		/* L10N: label of the line where the expertise an
		   escalation needs is typed */
		edit_text(d, _("Expertise needed: "), s->expertise,
		    sizeof s->expertise);
	} else if (ch == 'n' && !s->deadlocked)
		s->route = ROUTE_NONE;
}

/* The rejection the officer confirmed, as the reject dialog holds it. */
static void
reject_request(const struct reject_state *s, const char *id,
    struct decision_request *req)
{
	memset(req, 0, sizeof *req);
	req->action_id = id;
	req->decision = DECISION_REJECT;
	req->reason = s->reason;
	req->reassign_to = s->route == ROUTE_REASSIGN ? s->assignee : NULL;
	req->escalate = s->route == ROUTE_ESCALATE;
	req->blocked_on = s->route == ROUTE_BLOCKED ? "missing_standard" :
	    NULL;
	req->escalate_expertise = req->escalate && !text_blank(s->expertise) ?
	    s->expertise : NULL;
	req->expect_sha256 = s->shown_sha256;
}

void
dialog_reject(struct tui *t, const char *action_id)
{
	char reasons[REASONS_MAX][REASON_SIZE], line[300], id[257];
	size_t reason_count = 0;
	struct reject_state s;
	struct decision_request req;
	struct dialog d;
	int ch;

	snprintf(id, sizeof id, "%s", action_id);
	memset(&s, 0, sizeof s);
	memset(&d, 0, sizeof d);
	if (!dialog_check(t, id, &s.check, s.shown_sha256))
		return;
	reason_count = reasons_load("reject", s.check.outcome.pack->kind,
	    reasons, REASONS_MAX);
	/* L10N: title of the reject dialog; %s is the action id */
	snprintf(line, sizeof line, _("Reject %s"), id);
	dialog_title(&d, line);
	s.eligible = eligible_authors(&s.check.data.input);
	s.deadlocked = lockout_deadlocked(&s.check.data.input, true);
	s.blocked = decision_may_block(&s.check);
	s.route = s.deadlocked ? ROUTE_ESCALATE : ROUTE_NONE;
	for (;;) {
		if (reject_draw(t, &d, &s, reasons, reason_count) != 0)
			break;
		if ((ch = dialog_next_key(&d)) == DIALOG_LEAVE)
			break;
		if (ch == DIALOG_HANDLED)
			continue;
		if (!confirm_key(ch)) {
			reject_key(&d, &s, ch, reasons, reason_count);
			continue;
		}
		reject_request(&s, id, &req);
		/* L10N: the verb in "%s %s (decision %.8s)" */
		if (submit(t, &req, _("rejected"), s.refusal,
		    sizeof s.refusal) == SUBMIT_RECORDED || t->quit)
			break;
	}
	if (d.w != NULL)
		delwin(d.w);
	dialog_clear(&d);
	cJSON_Delete(s.eligible);
	recheck_free(&s.check);
	touchwin(stdscr);
}
