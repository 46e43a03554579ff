/*
 * countersign review: the terminal, its signals, and the loop that reads
 * keys and watches for other officers' decisions.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_codes.h"
#include "i18n.h"
#include "sanitize.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"

/* Other officers' work shows up within this long. */
#define WATCH_INTERVAL_MS 1000
#define POLL_MS 250

volatile sig_atomic_t tui_signalled;

static void
on_signal(int signo)
{
	tui_signalled = signo;
}

void
tui_notice(struct tui *t, const char *fmt, ...)
{
	char raw[512], *safe;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	safe = xsanitize(raw);
	snprintf(t->notice, sizeof t->notice, "%s", safe);
	free(safe);
}

void
tui_reload(struct tui *t)
{
	struct error err;
	long visible = LINES - 5, i, matched, got;
	struct audit_head head;

	t->query.now_ms = timestamp_now();
	t->query.search = t->search[0] != '\0' ? t->search : NULL;
	if (t->counts_stale) {
		t->counts_stale = false;
		t->scan_stale = true;
		if (store_queue_totals(t->store, &t->pending, &t->high_stakes,
		    &t->divergent, &err) != 0)
			tui_notice(t, "%s", err.message);
		/* Unfiltered, the query matches the whole queue. */
		if (queue_scanned(t)) {
			if (queue_rows(t, 0, 0, NULL, &got, &t->count,
			    &err) != 0) {
				tui_notice(t, "%s", err.message);
				t->count = 0;
			}
		} else if (t->query.filter == QUEUE_ALL &&
		    t->query.search == NULL)
			t->count = t->pending;
		else if (store_queue_count(t->store, &t->query, &t->count,
		    &err) != 0) {
			tui_notice(t, "%s", err.message);
			t->count = 0;
		}
		if (store_audit_head(t->store, &head, &err) == 0)
			t->head_seq = head.seq;
		queue_free_escalated(t);
		if (queue_escalated(t->store, t->query.now_ms, t->escalated,
		    ESCALATED_MAX, &t->escalated_count, &err) != 0)
			tui_notice(t, "%s", err.message);
	}
	if (t->cursor >= t->count)
		t->cursor = t->count > 0 ? t->count - 1 : 0;
	if (t->cursor < 0)
		t->cursor = 0;
	if (visible < 1)
		visible = 1;
	if (visible > PAGE_MAX)
		visible = PAGE_MAX;
	if (t->cursor < t->top)
		t->top = t->cursor;
	if (t->cursor >= t->top + visible)
		t->top = t->cursor - visible + 1;
	/* A taller window (or a shorter queue) shows the rows above again. */
	if (t->top > t->count - visible)
		t->top = t->count - visible > 0 ? t->count - visible : 0;
	queue_free_page(t);
	if (queue_rows(t, t->top, visible, t->page, &t->page_count, &matched,
	    &err) != 0)
		tui_notice(t, "%s", err.message);
	for (i = 0; i < t->page_count; i++) {
		char *safe = xsanitize(t->page[i].action_id);

		t->page_unique[i] = id_columns(t->store, t->page[i].action_id);
		t->page_full[i] = (int)sanitized_width(safe);
		free(safe);
	}
}

void
tui_edit_key(char *buf, size_t size, int ch)
{
	size_t len = strlen(buf);

	if (ch == 21) {		/* ^U clears, as in a shell */
		buf[0] = '\0';
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
		/* Remove a whole UTF-8 character. */
		do
			len--;
		while (len > 0 && (buf[len] & 0xC0) == 0x80);
		buf[len] = '\0';
	} else if (ch >= 32 && ch < 256 && ch != 127 && len + 1 < size) {
		buf[len++] = (char)ch;
		buf[len] = '\0';
	}
}

/*
 * The next key in window w, or ERR once a signal has come or the terminal
 * has gone.  A blocking getch() cannot be used: a signal that came after
 * the caller looked at tui_signalled and before getch()'s read() began
 * left the read waiting for a key for good, and a service that was
 * stopping waited for these screens (tests/e2e/tui_service_stop.sh hung
 * so with a reject dialog open).  poll() with a timeout bounds that to
 * POLL_MS, as in loop().  Keys curses holds already are read first.
 */
int
tui_key(WINDOW *w)
{
	struct pollfd fd = { STDIN_FILENO, POLLIN, 0 };
	int ch;

	for (;;) {
		if (tui_signalled != 0)
			return ERR;
		nodelay(w, TRUE);
		ch = wgetch(w);
		nodelay(w, FALSE);
		if (ch != ERR)
			return tui_signalled != 0 ? ERR : ch;
		if (poll(&fd, 1, POLL_MS) < 0 && errno != EINTR)
			return ERR;
		/* Gone, as the loop sees it: said as a hangup would be. */
		if (fd.revents & (POLLHUP | POLLERR | POLLNVAL)) {
			tui_signalled = SIGHUP;
			return ERR;
		}
	}
}

/* A one-line text entry on the bottom line; 1 on Enter, 0 on Esc. */
int
tui_prompt(struct tui *t, const char *label, char *buf, size_t size)
{
	int ch;

	for (;;) {
		draw_clear_line(LINES - 1);
		draw_text(LINES - 1, 0, label, COLS, A_BOLD);
		draw_untrusted(LINES - 1, (int)strlen(label), buf,
		    COLS - (int)strlen(label) - 1, A_NORMAL);
		refresh();
		ch = tui_key(stdscr);
		if (tui_signalled != 0)
			return 0;
		if (ch == '\n' || ch == KEY_ENTER || ch == '\r')
			return 1;
		if (ch == 27)
			return 0;
		tui_edit_key(buf, size, ch);
	}
}

/* Decisions made elsewhere: refresh the index and say what left the queue. */
static void
watch(struct tui *t)
{
	struct decision_row row;
	long long version, now = timestamp_now(), when;
	struct error err;
	bool found;
	long i, n = t->page_count;
	char (*ids)[257], *shown;

	t->checked_at_ms = now;
	if (store_data_version(t->store, &version, &err) != 0 ||
	    version == t->data_version)
		return;
	t->data_version = version;
	ids = calloc((size_t)(n > 0 ? n : 1), sizeof *ids);
	for (i = 0; ids != NULL && i < n; i++)
		memcpy(ids[i], t->page[i].action_id, sizeof ids[i]);
	queue_refresh(t->store, now, NULL, &err);
	t->counts_stale = true;
	tui_reload(t);
	for (i = 0; ids != NULL && i < n; i++) {
		if (store_decision_get(t->store, ids[i], &row, &found, &err) != 0 ||
		    !found)
			continue;
		if (!timestamp_parse(row.decided_at, &when))
			continue;
		shown = short_id(t->store, ids[i]);
		tui_notice(t, strcmp(row.decision, "approve") == 0 ?
		    /* L10N: another officer decided an action on screen:
		       %1$s the start of the action id, %2$s the officer's
		       login, %3$lld the seconds since */
		    _("%s approved by %s %llds ago") :
		    /* L10N: as above, for a rejection */
		    _("%s rejected by %s %llds ago"), shown,
		    row.operator_login, (long long)((now - when) / 1000));
		free(shown);
	}
	free(ids);
	if (t->view == VIEW_DETAIL)
		detail_reopen(t, now);
	store_data_version(t->store, &t->data_version, &err);
}

static void
draw(struct tui *t)
{
	erase();
	switch (t->view) {
	case VIEW_QUEUE:
		queue_draw(t);
		break;
	case VIEW_DETAIL:
		detail_draw(t);
		break;
	case VIEW_HELP:
	case VIEW_HISTORY:
	case VIEW_RECORD:
		history_draw(t);
		break;
	}
	refresh();
}

/*
 * Once the first screen is up, the header's kept totals are checked
 * against the rows (store_queue_totals_repair()): counting them first
 * would make the start as slow as the queue is long.
 */
static void
check_totals(struct tui *t)
{
	struct error err;
	bool repaired;

	t->totals_checked = true;
	error_clear(&err);
	if (store_queue_totals_repair(t->store, &repaired, &err) != 0)
		tui_notice(t, "%s", err.message);
	else if (repaired) {
		t->counts_stale = true;
		tui_reload(t);
		draw(t);
	}
}

bool
tui_end_if_forbidden(struct tui *t, const struct decision_outcome *out)
{
	/* Nothing more can be decided here: each key would be refused. */
	if (out->recorded || out->code == NULL || strcmp(out->code,
	    "forbidden") != 0)
		return false;
	snprintf(t->ended, sizeof t->ended, "%s", out->message);
	t->quit = true;
	return true;
}

/*
 * poll() first: a vanished terminal shows as POLLHUP or POLLERR, where
 * getch() alone would return ERR forever and spin.
 */
static void
loop(struct tui *t)
{
	struct pollfd fd = { STDIN_FILENO, POLLIN, 0 };
	int ch, rc;

	while (!t->quit && tui_signalled == 0) {
		t->recorded_now = false;	/* drawn, then: seen */
		draw(t);
		if (!t->totals_checked)
			check_totals(t);
		rc = poll(&fd, 1, POLL_MS);
		if (tui_signalled != 0)
			break;
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0 && (fd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			break;
		nodelay(stdscr, TRUE);
		while (!t->quit && (ch = getch()) != ERR) {
			nodelay(stdscr, FALSE);
			t->recorded_now = false;
			if (ch == KEY_RESIZE)
				tui_reload(t);
			else
				keys_dispatch(t, ch);
			/* A dialog opened by the next key shows over this state. */
			draw(t);
			nodelay(stdscr, TRUE);
			if (tui_signalled != 0)
				break;
		}
		nodelay(stdscr, FALSE);
		if (timestamp_now() - t->checked_at_ms >= WATCH_INTERVAL_MS)
			watch(t);
	}
}

#if ENABLE_NLS
/* The screens show the rules' own words translated (verdict.h). */
static const char *
translate(const char *fmt)
{
	return gettext(fmt);
}
#endif

static void
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() must wake up to see the flag. */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void
setup_colors(struct tui *t)
{
	const char *no_color = getenv("NO_COLOR");

	t->color = has_colors() && (no_color == NULL || *no_color == '\0');
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	init_pair(1, COLOR_RED, -1);
	init_pair(2, COLOR_GREEN, -1);
	init_pair(3, COLOR_YELLOW, -1);
}

/* Out of memory on screen: the message must land on a usable terminal. */
static void
give_terminal_back(void)
{
	if (!isendwin())
		endwin();
}

/* No terminal curses can drive, or one that cannot address the cursor. */
static void
refuse_terminal(void)
{
	/* $TERM may hold anything, and goes to the terminal it names. */
	char *term = xsanitize(getenv("TERM"));

	/* L10N: %s is the value of $TERM; keep 'countersign batch' */
	fprintf(stderr, _("countersign: cannot use this terminal "
	    "(TERM=%s); for scripts use 'countersign batch'\n"),
	    term);
	free(term);
}

int
tui_run(const struct invocation *inv)
{
	struct tui *t;
	struct error err;
	SCREEN *screen;
	char *cup;
	int rc;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		/* L10N: 'countersign batch' is a command: keep it */
		fprintf(stderr, _("countersign: the review screen needs a "
		    "terminal on stdin and stdout; for scripts use "
		    "'countersign batch'\n"));
		return EXIT_USAGE;
	}
	if ((t = calloc(1, sizeof *t)) == NULL)
		return EXIT_STORAGE;
	error_clear(&err);
	if ((rc = open_store(inv, STORE_EXISTING, &t->store, &err)) != 0) {
		report_error(&err);
		goto cleanup;
	}
	/* A queue index from before the last policy import is brought up to date. */
	if ((rc = queue_refresh(t->store, timestamp_now(), NULL, &err)) != 0) {
		report_error(&err);
		goto cleanup;
	}
	rc = EXIT_USAGE;
	screen = newterm(NULL, stdout, stdin);
	if (screen == NULL) {
		refuse_terminal();
		goto cleanup;
	}
	set_term(screen);
	/*
	 * A terminal that cannot move the cursor (TERM=dumb) would print
	 * every row over the last: nothing on it could be read reliably.
	 */
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1) {
		endwin();
		delscreen(screen);
		refuse_terminal();
		goto cleanup;
	}
	xmalloc_on_failure(give_terminal_back);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(50);
	curs_set(0);
	setup_colors(t);
	install_signals();
	operator_current(&t->op);
#if ENABLE_NLS
	verdict_translate_with(translate);
#endif
	t->db_path = store_path(t->store);
	t->demo = inv->demo;
	t->query.sort = QUEUE_BY_CARE;
	store_data_version(t->store, &t->data_version, &err);
	t->checked_at_ms = timestamp_now();
	t->counts_stale = true;
	tui_reload(t);
	/* stderr is this terminal: a head no sink took is said after. */
	announce_quietly(true);
	loop(t);
	rc = EXIT_OK;

	endwin();
	xmalloc_on_failure(NULL);
	delscreen(screen);
	announce_quietly(false);
	if (tui_signalled != 0 && t->recorded_now)
		/* L10N: %s is the notice of what the last key recorded (an
		   action approved, a bulk), which the screens, ended by a
		   signal, had no time to show */
		fprintf(stderr, _("countersign: recorded before the screens "
		    "ended: %s\n"), t->notice);
	if (t->ended[0] != '\0') {
		char *safe = xsanitize(t->ended);

		/* L10N: %s says why (not translated: the service's words) */
		fprintf(stderr, _("countersign: the review screens ended: "
		    "%s\n"), safe);
		free(safe);
		rc = EXIT_REFUSED;
	}
	queue_free_page(t);
	queue_free_escalated(t);
	queue_free_scanned(t);
	filter_free(&t->limit);
	queue_clear_tags(t);
	detail_free(&t->detail);
	detail_free(&t->history);
	history_close(t);
cleanup:
	store_close(t->store);
	free(t);
	return rc;
}
