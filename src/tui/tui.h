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
#include "xmalloc.h"

enum tui_view { VIEW_QUEUE, VIEW_DETAIL, VIEW_HELP, VIEW_HISTORY, VIEW_RECORD };

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
	bool demo;			/* quitting deletes the database */
	enum tui_view view;

	/* The queue: a query over the index and the rows on screen. */
	struct queue_query query;
	char search[128];
	/*
	 * The limit (`l`): a SPEC 7 filter over the whole queue, as typed
	 * and parsed; the index cannot answer it, so rows are read through
	 * queue_scan_page() while it is set (limit.count > 0), as they are
	 * while sorted by value (by_value).
	 */
	char limit_text[256];
	struct filter limit;
	char prompt_error[512];		/* sanitized; on the prompt's line */
	bool by_value;			/* sorted by value, largest first */
	/* What the limit or value order shows, all of it (view_queue.c). */
	struct queue_row *scanned;
	long scanned_count;
	bool scan_stale;
	long count;			/* rows the query matches */
	long top;			/* offset of the first row on screen */
	long cursor;			/* offset of the selected row */
	struct queue_row page[PAGE_MAX];
	long page_count;
	/* Columns of each row's id: its shortest unique prefix, and whole. */
	int page_unique[PAGE_MAX];
	int page_full[PAGE_MAX];
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
	bool detail_expired;		/* past its expires_at */
	bool detail_approved;		/* this officer approved it (SPEC 14) */
	/* A change with NEEDS-PO criteria still to judge (SPEC 2.3 v3). */
	bool detail_judgeable;

	/* History: the audit records of decisions, newest first. */
	struct detail history;
	struct page_at history_at;
	struct history_list *history_list;	/* view_history.c's */
	struct detail record;		/* one decision's record, opened */
	struct page_at record_at;

	char notice[512];		/* sanitized */
	/*
	 * The key being handled recorded something, told in notice: a
	 * signal that ends the screens before it is seen (the service
	 * stopping) has it said on the terminal after them.
	 */
	bool recorded_now;
	/* Why the screens ended themselves, said once they are gone (raw). */
	char ended[1024];
	long long head_seq;		/* the audit head's, on the status line */
};

extern volatile sig_atomic_t tui_signalled;

/* tui.c: countersign(1) THE REVIEW SCREENS, what review_screens points at. */
int tui_run(const struct invocation *);
void tui_notice(struct tui *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tui_reload(struct tui *);
/*
 * (v3) SPEC 10: a decision refused `forbidden` (the officer left the
 * group while the screens were open) ends the screens: true, and
 * t->quit set, when out is such a refusal.
 */
bool tui_end_if_forbidden(struct tui *, const struct decision_outcome *);
/* The next key, ERR once signalled: every key the screens wait for. */
int tui_key(WINDOW *);
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
 * This and the other allocating helpers below never return NULL: they
 * allocate with xmalloc.h.
 */
char *clip_text(const char *sanitized, int columns);
void draw_clipped(int y, int x, const char *sanitized, int width, int attr);
/* Whether the terminal's locale is UTF-8: else the ASCII glyphs are drawn. */
bool draw_utf8(void);
/* bytes of sanitized text with the program's glyphs in ASCII (allocated). */
char *draw_ascii(const char *sanitized, size_t bytes);
/*
 * Columns an id needs on screen so that it names one action: its
 * shortest unique prefix, 8 columns at least (store may be NULL).
 */
int id_columns(struct store *, const char *raw_id);
/* The id sanitized, whole when it fits columns, else cut with an ellipsis. */
char *id_shown(const char *raw_id, int columns);
/* An action id as notices quote it: its unique prefix, marked when cut. */
char *short_id(struct store *, const char *raw_id);
/*
 * The SPEC 3 notes of a verdict as a section (view_detail.c): the detail
 * and the approve dialog show the same (issue 37).
 */
struct detail;
struct verdict;
void detail_notes(struct detail *, const struct verdict *);
/*
 * A key line ("a approve  r reject  ? help  q quit", items two spaces
 * apart) cut to columns by leaving out whole items from the end, never
 * help or quit/back; newly allocated.
 */
char *keys_fit(const char *line, int columns);
void draw_keys(int y, const char *line, int attr);
void draw_clear_line(int y);
int style_attr(const struct tui *, enum detail_style);

/* keys.c: one table drives dispatch and the help screen. */
bool keys_dispatch(struct tui *, int key);
/* The help's lines into d; returns the line of the current view's keys. */
long keys_help(struct tui *, struct detail *);

/* view_queue.c */
void queue_draw(struct tui *);
void queue_move(struct tui *, long delta);
struct queue_row *queue_current(struct tui *);
bool queue_tagged(const struct tui *, const char *action_id);
void queue_toggle_tag(struct tui *);
/* T: tags all the query shows, or untags them when all are tagged. */
void queue_tag_shown(struct tui *);
void queue_cycle_filter(struct tui *);
void queue_cycle_sort(struct tui *);
void queue_cycle_sort_back(struct tui *);
void queue_search(struct tui *);
/* l: asks for the limit's expression; a malformed one changes nothing. */
void queue_limit(struct tui *);
/*
 * The limit typed as text, parsed by the SPEC 7 parser, in place of
 * limit, and the text shown for it in shown (none for an empty one); -1,
 * limit and shown kept, err said, when it is malformed.  The queue's
 * and the history's l.
 */
int limit_replace(const char *text, struct filter *limit, char *shown,
    size_t size, struct error *);
/* Whether rows come through queue_scan_page(), not the index alone. */
bool queue_scanned(const struct tui *);
/*
 * Rows [offset, offset + limit) of what the queue shows, into rows
 * (*got); *matched how many it shows in all.
 */
int queue_rows(struct tui *, long offset, long limit, struct queue_row *rows,
    long *got, long *matched, struct error *);
void queue_clear_search(struct tui *);
/* The tagged actions the query shows, in its order (free with queue_free_ids). */
char **queue_visible_tagged(struct tui *, size_t *count);
void queue_free_ids(char **ids, size_t count);
void queue_untag(struct tui *, const char *action_id);
void queue_free_page(struct tui *);
void queue_free_scanned(struct tui *);
void queue_free_escalated(struct tui *);
void queue_clear_tags(struct tui *);

/*
 * view_quorum.c: the approvals so far of an action under a quorum (SPEC
 * 14) on its detail; true when the operator is one of them.
 */
bool quorum_section(struct tui *, struct detail *, const char *action_id,
    const struct recheck *);

/*
 * view_judgments.c: a change's NEEDS-PO criteria on its detail (SPEC 2.3
 * v3), each with the judgment recorded and who made it, or awaiting one;
 * true when some still await one (then J judges them).
 */
bool judgments_section(struct tui *, struct detail *, const char *action_id,
    const struct recheck *);

/* view_detail.c */
void detail_open(struct tui *, const char *action_id);
void detail_draw(struct tui *);
/* The open detail built again (data changed elsewhere), at the same place. */
void detail_reopen(struct tui *, long long now_ms);
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

/*
 * detail_header.c: the detail's first lines (kind, id, state, requester,
 * author, contributors, drafted and expiry times); true when expired.
 */
bool detail_header(struct detail *, const struct recheck *,
    const char *action_id, long long now_ms);

/*
 * Scrolls at so that lines [first, end) show, as many of them as fit,
 * the first one at least.
 */
void page_show_lines(const struct detail *, struct page_at *at, long first,
    long end);

/* view_history.c */
void history_open(struct tui *);
void history_draw(struct tui *);
void history_close(struct tui *);
void history_move(struct tui *, long delta);
void history_search(struct tui *);
/* l in the history: the queue's filter over the decided actions. */
void history_limit(struct tui *);
void history_escape(struct tui *);
void history_enter(struct tui *);
void history_back(struct tui *);
void help_open(struct tui *);

/* view_head.c: H, the audit head whole, to copy from the screen. */
void head_show(struct tui *);

/* dialog.c: the approve and reject confirmations. */
void dialog_approve(struct tui *, const char *action_id);
void dialog_reject(struct tui *, const char *action_id);
/* dialog_judge.c: J, the product owner's judgment, which decides nothing. */
void dialog_judge(struct tui *, const char *action_id);
/* dialog_bulk.c: A and R over the tagged actions the queue shows. */
void dialog_bulk(struct tui *, enum decision_kind);

#endif
