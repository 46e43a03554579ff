/*
 * The audit head, whole (H): the status line has room for its seq only,
 * and notices cut its hash, yet it is what the officer keeps for audit
 * verify --checkpoint.  Drawn as plain text, not reversed or boxed, so
 * that the terminal selects and copies it as it stands.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tui.h"

void
head_show(struct tui *t)
{
	struct audit_head head;
	struct error err;
	/* Its lines, and the checkpoint as audit verify --checkpoint
	   takes it, SEQ:HASH, whole only: a cut one is worse than none. */
	char line[128];
	int y = 2, ch;

	if (store_audit_head(t->store, &head, &err) != 0) {
		tui_notice(t, "%s", err.message);
		return;
	}
	for (ch = 2; ch < LINES - 1; ch++)
		draw_clear_line(ch);
	/* L10N: the heading of the dialog that shows the audit head */
	draw_text(y++, 0, _("AUDIT HEAD: the newest record of the audit log"),
	    COLS, A_BOLD);
	y++;
	/* L10N: the audit head's sequence number, after a label of 6
	   columns */
	snprintf(line, sizeof line, _("seq   %lld"), head.seq);
	draw_text(y++, 0, line, COLS, A_NORMAL);
	/* A hash wider than the screen is split, never cut. */
	if (COLS >= 70) {
		/* L10N: the audit head's hash, after a label of 6 columns */
		snprintf(line, sizeof line, _("hash  %s"), head.hash);
		draw_text(y++, 0, line, COLS, A_NORMAL);
	} else {
		snprintf(line, sizeof line, _("hash  %s"), "");
		draw_text(y++, 0, line, COLS, A_NORMAL);
		snprintf(line, sizeof line, "%.32s", head.hash);
		draw_text(y++, 0, line, COLS, A_NORMAL);
		snprintf(line, sizeof line, "%s", head.hash + 32);
		draw_text(y++, 0, line, COLS, A_NORMAL);
	}
	y++;
	if (t->demo)
		/* L10N: in the demo, under its audit head */
		draw_text(y++, 0, _("The demo's database is deleted when it "
		    "ends: there is nothing to keep."), COLS, A_NORMAL);
	else {
		/* L10N: under the audit head: what to keep it for; keep
		   "audit verify --checkpoint" */
		draw_text(y++, 0, _("Keep it for audit verify --checkpoint:"),
		    COLS, A_NORMAL);
		snprintf(line, sizeof line, "%lld:%s", head.seq, head.hash);
		if ((int)strlen(line) <= COLS)
			draw_text(y++, 0, line, COLS, A_NORMAL);
	}
	y++;
	/* L10N: how to leave the audit head's dialog */
	draw_text(y, 0, _("Any key goes back."), COLS, A_DIM);
	refresh();
	ch = tui_key(stdscr);
	(void)ch;
	tui_reload(t);
}
