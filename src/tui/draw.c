/* Drawing sanitized text, clipped to a width in terminal columns. */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "text.h"
#include "tui.h"

void
draw_clear_line(int y)
{
	move(y, 0);
	clrtoeol();
}

void
draw_text(int y, int x, const char *text, int width, int attr)
{
	size_t bytes, used = 0;

	if (width <= 0 || text == NULL)
		return;
	bytes = sanitized_prefix(text, (size_t)width, &used);
	attron(attr);
	mvaddnstr(y, x, text, (int)bytes);
	attroff(attr);
	/* Pad with plain spaces so what was there before cannot show. */
	for (; (int)used < width; used++)
		addch(' ');
}

void
draw_untrusted(int y, int x, const char *raw, int width, int attr)
{
	char *safe = sanitize_str(raw);

	draw_text(y, x, safe ? safe : "?", width, attr);
	free(safe);
}

/*
 * Where a line's continuation rows start: its indent, at most half the
 * width, so a narrow screen still shows some text on each row.
 */
static int
hang(const struct detail_line *line, int width)
{
	int indent = line->indent > 0 ? (int)line->indent : 2;

	return indent > width / 2 ? width / 2 : indent;
}

/* Bytes of text on one row of width columns: never none, so rows end. */
static size_t
row_bytes(const char *text, int width)
{
	size_t bytes = sanitized_prefix(text, (size_t)(width > 0 ? width : 1),
	    NULL);

	/* A cell wider than the row still takes one row of its own. */
	if (bytes == 0 && *text != '\0' &&
	    (bytes = sanitized_prefix(text, 2, NULL)) == 0)
		bytes = 1;
	return bytes;
}

long
line_rows(const struct detail_line *line, int width)
{
	const char *text = line->text;
	long rows = 0;
	int room = width;

	if (width <= 0)
		return 1;
	do {
		text += row_bytes(text, room);
		room = width - hang(line, width);
		rows++;
	} while (*text != '\0');
	return rows;
}

/*
 * Draws rows first.. of a wrapped line in w from row y, column x, at most
 * max_rows of them; returns how many it drew.  Rows after a line's first
 * are indented and marked, so untrusted text padded to wrap cannot pass
 * for a line of the screen's own (a fake "HIGH STAKES  no" at column 0).
 */
int
draw_line_in(WINDOW *w, int y, int x, const struct detail_line *line,
    long first, int max_rows, int width, int attr)
{
	const char *text = line->text;
	int drawn = 0, room = width, at = 0, indent = hang(line, width);
	long row = 0;
	size_t bytes;

	if (width <= 0)
		return 0;
	do {
		bytes = row_bytes(text, room);
		if (row >= first && drawn < max_rows) {
			if (row > 0 && indent >= 2) {
				/* U+21AA: this row continues the one above. */
				wattron(w, A_DIM);
				mvwaddstr(w, y + drawn, x + indent - 2,
				    "\xe2\x86\xaa");
				wattroff(w, A_DIM);
			}
			wattron(w, attr);
			mvwaddnstr(w, y + drawn, x + at, text, (int)bytes);
			wattroff(w, attr);
			drawn++;
		}
		text += bytes;
		at = indent;
		room = width - indent;
		row++;
	} while (*text != '\0' && drawn < max_rows);
	return drawn;
}

int
draw_line(int y, const struct detail_line *line, long first, int max_rows,
    int width, int attr)
{
	int i;

	for (i = 0; i < max_rows && i < line_rows(line, width) - first; i++)
		draw_clear_line(y + i);
	return draw_line_in(stdscr, y, 0, line, first, max_rows, width, attr);
}

/*
 * Bytes of sanitized text that fit in columns, never ending inside one of
 * the sanitizer's escapes ("\e", "^G", "<U+202E>"): a cut escape would
 * read as other text.
 */
static size_t
clip_bytes(const char *text, size_t columns)
{
	size_t bytes = sanitized_prefix(text, columns, NULL), i;

	if (text[bytes] == '\0' || bytes == 0)
		return bytes;
	if ((text[bytes - 1] == '\\' && text[bytes] == 'e') ||
	    (text[bytes - 1] == '^' && text[bytes] >= '?' && text[bytes] <= '_'))
		return bytes - 1;
	/* "<U+202E>" or, for a tag character, "<U+E0041>". */
	for (i = bytes > 8 ? bytes - 8 : 0; i < bytes; i++) {
		if (strncmp(text + i, "<U+", 3) == 0 &&
		    ((strlen(text + i) >= 8 && text[i + 7] == '>') ||
		    (strlen(text + i) >= 9 && text[i + 8] == '>')))
			return i;
	}
	return bytes;
}

char *
clip_text(const char *sanitized, int columns)
{
	size_t bytes;
	char *out;

	if (columns < 1)
		columns = 1;
	if (sanitized_width(sanitized) <= (size_t)columns)
		return text_copy(sanitized);
	/* U+2026, as list clips: the cell says it was cut. */
	bytes = clip_bytes(sanitized, (size_t)columns - 1);
	if ((out = malloc(bytes + 4)) == NULL)
		return NULL;
	memcpy(out, sanitized, bytes);
	memcpy(out + bytes, "\xe2\x80\xa6", 4);
	return out;
}

char *
short_id(const char *raw)
{
	char *safe = sanitize_str(raw), *clipped;

	/* Nine columns: the queue's ID column, with its ellipsis. */
	clipped = clip_text(safe ? safe : "", 9);
	free(safe);
	return clipped;
}

void
draw_clipped(int y, int x, const char *sanitized, int width, int attr)
{
	char *clipped = clip_text(sanitized, width);

	draw_text(y, x, clipped ? clipped : "", width, attr);
	free(clipped);
}

int
style_attr(const struct tui *t, enum detail_style style)
{
	switch (style) {
	case DETAIL_HEADING:
		return A_BOLD;
	case DETAIL_ALERT:
		return A_BOLD | A_REVERSE | (t->color ? COLOR_PAIR(1) : 0);
	/* Bold and dim as well as colours: never colour alone. */
	case DETAIL_ADDED:
		return A_BOLD | (t->color ? COLOR_PAIR(2) : 0);
	case DETAIL_REMOVED:
		return A_DIM | (t->color ? COLOR_PAIR(1) : 0);
	case DETAIL_DIM:
		return A_DIM;
	case DETAIL_PLAIN:
		break;
	}
	return A_NORMAL;
}
