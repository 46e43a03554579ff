/*
 * The boxes the confirmations are drawn in (dialog.c), shared by the
 * single and the bulk decisions.
 */
#ifndef COUNTERSIGN_TUI_DIALOG_H
#define COUNTERSIGN_TUI_DIALOG_H

#include <curses.h>
#include <stdbool.h>

#include "reasons.h"
#include "tui.h"

#define DIALOG_WIDTH 66

/*
 * A dialog's parts, from the top: head (what applies to the action), list
 * (the criteria to judge, scrolled to the one asked now), menu (the
 * standard reasons), tail (the reason, then a refusal) and the key line.
 * All are lines of sanitized text; long ones wrap, marked as in the detail.
 */
struct dialog {
	WINDOW *w;
	char title[300];		/* sanitized */
	int width;			/* text columns inside the box */
	int reason_row;			/* where the reason is typed */
	struct detail head, list, menu, tail;
	long list_cursor;		/* the list's line asked now, or -1 */
	long top;			/* the body's first row in the box */
	long shown_from, shown_to;	/* the body's rows the last draw showed */
	long reason_line;		/* the tail's line where the reason is */
	long tail_rows;			/* the tail's rows the last draw showed */
};

void dialog_clear(struct dialog *);
/* Lays the parts out in a box and draws it; -1 when the screen is too small. */
int dialog_draw(const struct tui *, struct dialog *);
/* Reads a line of text into buf on the dialog's reason row. */
void edit_text(struct dialog *, const char *label, char *buf, size_t size);
/* The same for the decision's reason, labelled as every dialog labels it. */
void edit_reason(struct dialog *, char *reason, size_t size);
/* After KEY_RESIZE: the view under the dialog is cleared. */
void resized(void);
bool confirm_key(int ch);
/*
 * 1 to 9 choose the standard reason of that number (of count) into
 * reason; true when ch was one of them.
 */
bool dialog_reason_key(char reasons[][REASON_SIZE], size_t count, int ch,
    char *reason, size_t size);
/* PgDn, PgUp, Down and Up scroll the body; true when ch was one. */
bool dialog_scroll_key(struct dialog *, int ch);
/*
 * The dialog's key line while a confirmed decision is recorded: the
 * write lock may be waited for, and the officer sees why.  The next
 * draw of the dialog puts its keys back.
 */
void dialog_show_recording(struct dialog *);
/* How a confirmed decision went (dialog_submit). */
enum submitted { SUBMIT_RECORDED, SUBMIT_REFUSED, SUBMIT_FAILED };
/*
 * The one way the approve and reject dialogs record what the officer
 * confirmed: the decision, then, recorded, the notice and the queue;
 * refused or failed, why, in refusal, for the dialog to show.  verb is
 * the translated past tense ("approved").
 */
struct decision_request;
/*
 * The request of a dialog's decision about id, the rest zeroed for the
 * dialog to fill: shown_sha256 is the packet it showed (SPEC 5: one
 * swapped since is refused as `changed`).
 */
void dialog_request(struct decision_request *, const char *id,
    enum decision_kind, const char *reason, const char *shown_sha256);
enum submitted dialog_submit(struct tui *, struct dialog *,
    const struct decision_request *, const char *verb, char *refusal,
    size_t size);
/*
 * The action's re-check as a dialog opens, and the digest of what is
 * shown; false, said on the notice line, when it cannot be read.
 */
struct recheck;
bool dialog_check(struct tui *, const char *id, struct recheck *,
    char shown[65]);
/*
 * The next key of a dialog, with what every dialog does with a key done
 * already: the terminal's new size followed, the text scrolled.
 * DIALOG_LEAVE for Esc, q or a signal; DIALOG_HANDLED for a key taken
 * here; else the key, for the dialog's own.
 */
#define DIALOG_LEAVE (-100)
#define DIALOG_HANDLED (-101)
int dialog_next_key(struct dialog *);

/*
 * What one dialog does with its own state, for dialog_run: draw fills
 * the parts and draws them (dialog_draw), -1 when it cannot; key takes a
 * key that is not Enter and that dialog_next_key left to the dialog;
 * confirm takes Enter.  key and confirm say whether the dialog is done.
 */
enum dialog_step { DIALOG_STAY, DIALOG_CLOSE };
struct dialog_ops {
	int (*draw)(const struct tui *, struct dialog *, void *state);
	enum dialog_step (*key)(struct tui *, struct dialog *, void *state,
	    int ch);
	enum dialog_step (*confirm)(struct tui *, struct dialog *,
	    void *state);
};
/*
 * The one key loop of the dialogs, in a box titled title (raw text that
 * may hold an untrusted action id): draw, the next key, then the
 * dialog's own key or confirmation, until it is left, done or cannot be
 * drawn; then the box is closed.  The state stays the caller's to free.
 */
void dialog_run(struct tui *, const char *title, const struct dialog_ops *,
    void *state);
/* Whether the last draw showed the tail's line (-1: none, false). */
bool tail_line_shown(const struct dialog *, long line);

/*
 * The PO JUDGMENT part of the approve and judge dialogs (SPEC 2.3): the
 * heading and a line per criterion of criteria ([{id, text}]), the one
 * asked now (judging) marked; dialog_judgment_key judges it with m or u
 * into judgments and moves on, true when ch was one of them.
 */
void dialog_judgment_part(struct dialog *, const cJSON *criteria,
    const cJSON *judgments, int judging);
bool dialog_judgment_key(const cJSON *criteria, cJSON *judgments,
    int *judging, int ch);

#endif
