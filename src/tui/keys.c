/*
 * The key table: what each key does in each view.  Dispatch and the help
 * screen both read it, so help can never describe a key that does not
 * work (tig's habit).
 */
#include "config.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "tui.h"

enum key_views {
	IN_QUEUE = 1 << VIEW_QUEUE,
	IN_DETAIL = 1 << VIEW_DETAIL,
	IN_HELP = 1 << VIEW_HELP,
	IN_HISTORY = 1 << VIEW_HISTORY,
	IN_RECORD = 1 << VIEW_RECORD,
	/* Pages that scroll; the history moves a selection instead. */
	IN_PAGES = IN_HELP | IN_RECORD
};

/* More entries than the history can hold (it is the whole log): to its ends. */
#define HISTORY_ALL (LONG_MAX / 2)

struct key_binding {
	int key;
	const char *name;
	unsigned views;
	const char *help;
	void (*run)(struct tui *);
};

/*
 * q in the queue ends the session.  In the demo that deletes its
 * database and every decision in it, so one q too many must not: it asks.
 */
static void
quit(struct tui *t)
{
	int ch;

	if (t->demo) {
		draw_clear_line(LINES - 1);
		/* L10N: the demo's question before quitting; y is the key
		   that quits, whatever the language */
		draw_text(LINES - 1, 0, _("Quit the demo? Its database and "
		    "decisions are deleted. y quits, any other key stays."),
		    COLS, A_BOLD);
		refresh();
		ch = tui_key(stdscr);
		if (tui_signalled == 0 && ch != 'y' && ch != 'Y') {
			tui_reload(t);
			return;
		}
	}
	t->quit = true;
}
static void back(struct tui *t) { t->view = VIEW_QUEUE; tui_reload(t); }
static void down(struct tui *t) { queue_move(t, 1); }
static void up(struct tui *t) { queue_move(t, -1); }
static void page_down(struct tui *t) { queue_move(t, LINES - 6); }
static void page_up(struct tui *t) { queue_move(t, -(LINES - 6)); }
static void first(struct tui *t) { queue_move(t, -t->count); }
static void last(struct tui *t) { queue_move(t, t->count); }
static void scroll_down(struct tui *t) { detail_scroll(t, 1); }
static void scroll_up(struct tui *t) { detail_scroll(t, -1); }
static void scroll_page_down(struct tui *t) { detail_page(t, 1); }
static void scroll_page_up(struct tui *t) { detail_page(t, -1); }
static void scroll_home(struct tui *t) { detail_ends(t, -1); }
static void scroll_end(struct tui *t) { detail_ends(t, 1); }
static void next_action(struct tui *t) { detail_step(t, 1); }
static void history_down(struct tui *t) { history_move(t, 1); }
static void history_up(struct tui *t) { history_move(t, -1); }
static void history_page_down(struct tui *t) { history_move(t, (LINES - 2) / 3); }
static void history_page_up(struct tui *t) { history_move(t, -((LINES - 2) / 3)); }
static void history_first(struct tui *t) { history_move(t, -HISTORY_ALL); }
static void history_last(struct tui *t) { history_move(t, HISTORY_ALL); }
static void previous_action(struct tui *t) { detail_step(t, -1); }

static void
open_current(struct tui *t)
{
	struct queue_row *row = queue_current(t);

	if (row != NULL)
		detail_open(t, row->action_id);
}

static const char *
current_id(struct tui *t)
{
	struct queue_row *row;

	if (t->view == VIEW_DETAIL)
		return t->detail_id;
	row = queue_current(t);
	return row != NULL ? row->action_id : NULL;
}

static void
approve(struct tui *t)
{
	const char *id = current_id(t);
	struct queue_row *row = queue_current(t);
	char *shown;

	if (id == NULL)
		return;
	/* The gate refuses it: said at once, as the footer says it. */
	if (t->view == VIEW_DETAIL ? t->detail_expired : row != NULL &&
	    row->expired) {
		shown = short_id(t->store, id);
		/* L10N: %s is the start of an action id; r is the key
		   that rejects: keep it */
		tui_notice(t, _("%s has expired: it cannot be approved "
		    "(r rejects it)"), shown);
		free(shown);
		return;
	}
	if (t->view == VIEW_DETAIL && t->detail_approved) {
		shown = short_id(t->store, id);
		/* L10N: %s is the start of an action id: the officer
		   approved it already, and another officer must (SPEC 14) */
		tui_notice(t, _("you approved %s already: another officer "
		    "must approve it"), shown);
		free(shown);
		return;
	}
	dialog_approve(t, id);
}

/* The dialog about the detail's action or the queue's row, if there is one. */
static void
dialog_on_current(struct tui *t, void (*open)(struct tui *, const char *))
{
	const char *id = current_id(t);

	if (id != NULL)
		open(t, id);
}

static void reject(struct tui *t) { dialog_on_current(t, dialog_reject); }
/* SPEC 2.3 (v3): the product owner's judgment, open to the requester. */
static void judge(struct tui *t) { dialog_on_current(t, dialog_judge); }

static void bulk_approve(struct tui *t) { dialog_bulk(t, DECISION_APPROVE); }
static void bulk_reject(struct tui *t) { dialog_bulk(t, DECISION_REJECT); }

static const struct key_binding bindings[] = {
	/* L10N: the key names ("Enter", "Down", "Space", ...) name keys on
	   the keyboard, in an 8-column column of the help screen; the
	   descriptions follow them.  The keys themselves never change. */
	{ '\r', N_("Enter"), IN_QUEUE, N_("open the selected action"), open_current },
	{ 'a', "a", IN_QUEUE | IN_DETAIL, N_("approve (asks to confirm)"), approve },
	{ 'r', "r", IN_QUEUE | IN_DETAIL, N_("reject (asks for a reason)"), reject },
	{ 'J', "J", IN_DETAIL, N_("judge a change's NEEDS-PO criteria as its product owner (approves nothing)"), judge },
	{ 't', "t", IN_QUEUE, N_("tag or untag the selected action"), queue_toggle_tag },
	{ 'T', "T", IN_QUEUE, N_("tag every action shown (all pages); again: untag them"), queue_tag_shown },
	{ 'A', "A", IN_QUEUE, N_("approve the tagged clean actions (shows which, asks a reason)"), bulk_approve },
	{ 'R', "R", IN_QUEUE, N_("reject the tagged actions (shows which, asks a reason)"), bulk_reject },
	{ '/', "/", IN_QUEUE, N_("search id, requester, author, kind and summary"), queue_search },
	{ 27, N_("Esc"), IN_QUEUE, N_("clear the search"), queue_clear_search },
	{ 'l', "l", IN_QUEUE, N_("limit to a filter (e.g. ticker:XOM value>1000; empty: all)"), queue_limit },
	{ 'f', "f", IN_QUEUE, N_("cycle filters"), queue_cycle_filter },
	{ 's', "s", IN_QUEUE, N_("cycle sort orders"), queue_cycle_sort },
	{ 'S', "S", IN_QUEUE, N_("cycle sort orders back (once: value, largest first)"), queue_cycle_sort_back },
	{ 'j', "j", IN_QUEUE, N_("down"), down },
	{ KEY_DOWN, N_("Down"), IN_QUEUE, N_("down"), down },
	{ 'k', "k", IN_QUEUE, N_("up"), up },
	{ KEY_UP, N_("Up"), IN_QUEUE, N_("up"), up },
	{ KEY_NPAGE, N_("PgDn"), IN_QUEUE, N_("page down"), page_down },
	{ KEY_PPAGE, N_("PgUp"), IN_QUEUE, N_("page up"), page_up },
	{ 'g', "g", IN_QUEUE, N_("first action"), first },
	{ 'G', "G", IN_QUEUE, N_("last action"), last },
	{ 'n', "n", IN_DETAIL, N_("next action"), next_action },
	{ 'p', "p", IN_DETAIL, N_("previous action"), previous_action },
	{ 'j', "j", IN_DETAIL | IN_PAGES, N_("scroll down"), scroll_down },
	{ KEY_DOWN, N_("Down"), IN_DETAIL | IN_PAGES, N_("scroll down"), scroll_down },
	{ 'k', "k", IN_DETAIL | IN_PAGES, N_("scroll up"), scroll_up },
	{ KEY_UP, N_("Up"), IN_DETAIL | IN_PAGES, N_("scroll up"), scroll_up },
	{ ' ', N_("Space"), IN_DETAIL | IN_PAGES, N_("page down"), scroll_page_down },
	{ KEY_NPAGE, N_("PgDn"), IN_DETAIL | IN_PAGES, N_("page down"), scroll_page_down },
	{ KEY_PPAGE, N_("PgUp"), IN_DETAIL | IN_PAGES, N_("page up"), scroll_page_up },
	{ 'b', "b", IN_DETAIL | IN_PAGES, N_("page up"), scroll_page_up },
	{ KEY_HOME, N_("Home"), IN_DETAIL | IN_PAGES, N_("top of the page"), scroll_home },
	{ 'g', "g", IN_DETAIL | IN_PAGES, N_("top of the page"), scroll_home },
	{ KEY_END, N_("End"), IN_DETAIL | IN_PAGES, N_("end of the page"), scroll_end },
	{ 'G', "G", IN_DETAIL | IN_PAGES, N_("end of the page"), scroll_end },
	{ 'h', "h", IN_QUEUE, N_("history: decided actions and their audit records"), history_open },
	{ 'H', "H", IN_QUEUE | IN_HISTORY, N_("the audit head whole (seq and hash), to copy"), head_show },
	{ 'j', "j", IN_HISTORY, N_("next decision"), history_down },
	{ KEY_DOWN, N_("Down"), IN_HISTORY, N_("next decision"), history_down },
	{ 'k', "k", IN_HISTORY, N_("previous decision"), history_up },
	{ KEY_UP, N_("Up"), IN_HISTORY, N_("previous decision"), history_up },
	{ ' ', N_("Space"), IN_HISTORY, N_("a page of decisions down"), history_page_down },
	{ KEY_NPAGE, N_("PgDn"), IN_HISTORY, N_("a page of decisions down"), history_page_down },
	{ KEY_PPAGE, N_("PgUp"), IN_HISTORY, N_("a page of decisions up"), history_page_up },
	{ 'g', "g", IN_HISTORY, N_("newest decision"), history_first },
	{ 'G', "G", IN_HISTORY, N_("oldest decision"), history_last },
	{ '\r', N_("Enter"), IN_HISTORY, N_("open the decision's audit record"), history_enter },
	{ '/', "/", IN_HISTORY, N_("search the history (id, officer, decision, reason, date, bulk)"), history_search },
	{ 'l', "l", IN_HISTORY, N_("limit the history to a filter, as in the queue (e.g. ticker:XOM value>1000)"), history_limit },
	{ 27, N_("Esc"), IN_HISTORY, N_("show all again, or back to the queue"), history_escape },
	{ 'q', "q", IN_RECORD, N_("back to the history"), history_back },
	{ 27, N_("Esc"), IN_RECORD, N_("back to the history"), history_back },
	{ '?', "?", IN_QUEUE | IN_DETAIL | IN_HISTORY, N_("this help"), help_open },
	{ 'q', "q", IN_DETAIL | IN_PAGES | IN_HISTORY, N_("back to the queue"), back },
	{ 27, N_("Esc"), IN_DETAIL | IN_PAGES, N_("back to the queue"), back },
	{ 'q', "q", IN_QUEUE, N_("quit"), quit },
};

bool
keys_dispatch(struct tui *t, int key)
{
	size_t i;

	if (key == '\n' || key == KEY_ENTER)
		key = '\r';
	for (i = 0; i < sizeof bindings / sizeof bindings[0]; i++) {
		if (bindings[i].key == key &&
		    (bindings[i].views & (1u << t->view)) != 0) {
			t->notice[0] = t->prompt_error[0] = '\0';
			bindings[i].run(t);
			return true;
		}
	}
	return false;
}

long
keys_help(struct tui *t, struct detail *d)
{
	long at = 0;
	static const struct { unsigned view; const char *title; } sections[] = {
		/* L10N: headings of the help screen: the keys of the queue,
		   of the detail of one action, and of the history and help
		   pages */
		{ IN_QUEUE, N_("Queue") },
		{ IN_DETAIL, N_("Detail") },
		{ IN_HISTORY, N_("History") },
		{ IN_PAGES, N_("Records and help") },
	};
	size_t s, i;

	for (s = 0; s < sizeof sections / sizeof sections[0]; s++) {
		/* The section of the view help was asked from, to open at. */
		if ((sections[s].view & (1u << t->view)) != 0 && at == 0)
			at = (long)d->count;
		detail_add(d, DETAIL_HEADING, "%s", _(sections[s].title));
		for (i = 0; i < sizeof bindings / sizeof bindings[0]; i++) {
			if ((bindings[i].views & sections[s].view) != 0)
				detail_add(d, DETAIL_PLAIN, "  %-8s %s",
				    _(bindings[i].name), _(bindings[i].help));
		}
		detail_add(d, DETAIL_PLAIN, "%s", "");
	}
	/* L10N: heading of the legend of the queue's flag letters */
	detail_add(d, DETAIL_HEADING, "%s", _("Flags"));
	/* L10N: the flag letters H, x, !, L, D, E and * are what the queue
	   shows whatever the language: keep each letter, translate what
	   it means */
	detail_add(d, DETAIL_PLAIN, "  %s", _("H high stakes  x local rules "
	    "fail  ! divergence  L author locked out"));
	/* L10N: flag letters D, E and *: keep the letters */
	detail_add(d, DETAIL_PLAIN, "  %s", _("D deadlocked (only escalation) "
	    " E expired  * tagged"));
	return at;
}
