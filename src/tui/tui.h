/*
 * The review screens: views over the same functions the commands use.
 * Only files in this folder include curses; they draw text that is
 * already sanitized (queue rows, detail lines) or sanitize it themselves.
 */
#ifndef COUNTERSIGN_TUI_H
#define COUNTERSIGN_TUI_H

#include <curses.h>
#include <signal.h>
#include <stdbool.h>

#include "commands.h"
#include "decision.h"
#include "detail.h"
#include "store.h"

enum tui_view { VIEW_QUEUE, VIEW_DETAIL, VIEW_HELP, VIEW_HISTORY };

#define PAGE_MAX 256		/* rows on one screen, whatever its height */
#define ESCALATED_MAX 8		/* escalated artifacts shown under the queue */

/* The first screen row of a page: a line and a wrapped row of it. */
struct page_at {
	long line;
	long row;
};

struct tui {
	struct store *store;
	struct operator_identity op;
	const char *db_path;
	bool color;
	bool quit;
	enum tui_view view;

	/* The queue: a query over the index and the rows on screen. */
	struct queue_query query;
	char search[128];
	long count;			/* rows the query matches */
	long top;			/* offset of the first row on screen */
	long cursor;			/* offset of the selected row */
	struct queue_row page[PAGE_MAX];
	long page_count;
	long pending, high_stakes, divergent;
	/*
	 * Deadlocked artifacts escalated to a person, kept in view under
	 * the queue until a new version arrives (issue 21).
	 */
	struct queue_row escalated[ESCALATED_MAX];
	size_t escalated_count;
	/*
	 * The counts: a filter's scans the index, the header's are kept
	 * (schema 5).  Redone only when the queue or the query changed,
	 * never for a cursor move (set before tui_reload()).
	 */
	bool counts_stale;
	bool totals_checked;		/* the kept totals recounted once */
	long long data_version;
	long long checked_at_ms;	/* last look for other officers' work */

	char **tags;			/* action ids */
	size_t tag_count;

	/* The detail view of one action. */
	char detail_id[257];
	struct detail detail;
	struct page_at detail_at;
	bool detail_blocked;		/* approval is refused as it stands */
	char detail_sha256[65];		/* the packet shown (SPEC 5 `changed`) */

	/* History: the audit records of decisions, newest first. */
	struct detail history;
	struct page_at history_at;

	char notice[512];		/* sanitized */
};

extern volatile sig_atomic_t tui_signalled;

/* tui.c */
void tui_notice(struct tui *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tui_reload(struct tui *);
int tui_prompt(struct tui *, const char *label, char *buf, size_t size);
/* Applies one key to a line being typed: ^U, Backspace or a character. */
void tui_edit_key(char *buf, size_t size, int ch);

/* draw.c */
void draw_text(int y, int x, const char *sanitized, int width, int attr);
void draw_untrusted(int y, int x, const char *raw, int width, int attr);
/* Screen rows a detail line takes once wrapped to width columns. */
long line_rows(const struct detail_line *, int width);
int draw_line(int y, const struct detail_line *, long first_row, int max_rows,
    int width, int attr);
int draw_line_in(WINDOW *, int y, int x, const struct detail_line *,
    long first_row, int max_rows, int width, int attr);
/*
 * A copy of sanitized text cut to columns with an ellipsis when it is
 * wider, never inside a character or one of the sanitizer's escapes.
 */
char *clip_text(const char *sanitized, int columns);
void draw_clipped(int y, int x, const char *sanitized, int width, int attr);
/* An action id as notices quote it: sanitized, cut to the queue's column. */
char *short_id(const char *raw_id);
void draw_clear_line(int y);
int style_attr(const struct tui *, enum detail_style);

/* keys.c: one table drives dispatch and the help screen. */
bool keys_dispatch(struct tui *, int key);
void keys_help(struct tui *, struct detail *);

/* view_queue.c */
void queue_draw(struct tui *);
void queue_move(struct tui *, long delta);
struct queue_row *queue_current(struct tui *);
bool queue_tagged(const struct tui *, const char *action_id);
void queue_toggle_tag(struct tui *);
void queue_cycle_filter(struct tui *);
void queue_cycle_sort(struct tui *);
void queue_search(struct tui *);
void queue_bulk_approve(struct tui *);
void queue_bulk_reject(struct tui *);
void queue_free_page(struct tui *);
void queue_free_escalated(struct tui *);
void queue_clear_tags(struct tui *);

/* view_detail.c */
void detail_open(struct tui *, const char *action_id);
void detail_draw(struct tui *);
/*
 * Scrolling moves by screen rows, not by lines: a line longer than the
 * screen (a 12 KB clause) must be readable to its last word.
 */
void detail_scroll(struct tui *, long rows);
void detail_page(struct tui *, int direction);
void detail_ends(struct tui *, int direction);	/* Home, End */
void detail_step(struct tui *, int direction);
/* Wrapped lines from at, with a footer (or the notice) on the last line. */
void page_draw(struct tui *, const struct detail *, struct page_at *at,
    const char *footer);

/* view_history.c */
void history_open(struct tui *);
void history_draw(struct tui *);
void help_open(struct tui *);

/* dialog.c: the approve and reject confirmations. */
void dialog_approve(struct tui *, const char *action_id);
void dialog_reject(struct tui *, const char *action_id);

#endif
