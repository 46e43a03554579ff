/* Drawing sanitized text, clipped to a width in terminal columns. */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
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

int
draw_wrapped(int y, int x, const char *text, int width, int attr,
    int max_rows)
{
	size_t bytes, used;
	int rows = 0;

	if (width <= 0)
		return 0;
	do {
		bytes = sanitized_prefix(text, (size_t)width, &used);
		if (bytes == 0 && *text != '\0')
			bytes = strlen(text);	/* a cell wider than the screen */
		if (rows < max_rows) {
			draw_clear_line(y + rows);
			attron(attr);
			mvaddnstr(y + rows, x, text, (int)bytes);
			attroff(attr);
		}
		rows++;
		text += bytes;
	} while (*text != '\0');
	return rows;
}

int
style_attr(const struct tui *t, enum detail_style style)
{
	switch (style) {
	case DETAIL_HEADING:
		return A_BOLD;
	case DETAIL_ALERT:
		return A_BOLD | A_REVERSE | (t->color ? COLOR_PAIR(1) : 0);
	case DETAIL_ADDED:
		return t->color ? COLOR_PAIR(2) : A_BOLD;
	case DETAIL_REMOVED:
		return t->color ? COLOR_PAIR(1) : A_DIM;
	case DETAIL_DIM:
		return A_DIM;
	case DETAIL_PLAIN:
		break;
	}
	return A_NORMAL;
}
