/* Drawing sanitized text, clipped to a width in terminal columns. */
#include "config.h"

#include <curses.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "text.h"
#include "tui.h"

bool
draw_utf8(void)
{
	static int utf8 = -1;

	if (utf8 < 0) {
		const char *codeset = nl_langinfo(CODESET);

		utf8 = codeset != NULL && (strcmp(codeset, "UTF-8") == 0 ||
		    strcmp(codeset, "utf8") == 0);
	}
	return utf8 == 1;
}

/* The program's own glyphs and what a terminal without UTF-8 shows instead. */
static const struct { const char *utf8, *ascii; } glyphs[] = {
	{ "\xe2\x80\xa6", "..." },		/* ellipsis */
	{ "\xc2\xb7", "|" },			/* middle dot, a separator */
	{ "\xe2\x86\xaa", "-" },		/* a row continues the one above */
	{ "\xe2\x80\x94", "-" },		/* em dash */
	{ "\xe2\x86\x93", "v" },		/* more below */
	{ "\xe2\x86\x91", "^" },		/* more above */
};

char *
draw_ascii(const char *text, size_t bytes)
{
	char *out = xmalloc(bytes * 3 + 1), *o = out;
	const char *end = text + bytes;
	size_t i, n;

	while (text < end && *text != '\0') {
		if (((unsigned char)*text & 0x80) == 0) {
			*o++ = *text++;
			continue;
		}
		for (i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++) {
			n = strlen(glyphs[i].utf8);
			if ((size_t)(end - text) >= n &&
			    memcmp(text, glyphs[i].utf8, n) == 0)
				break;
		}
		if (i < sizeof glyphs / sizeof glyphs[0]) {
			n = strlen(glyphs[i].ascii);
			memcpy(o, glyphs[i].ascii, n);
			o += n;
			text += strlen(glyphs[i].utf8);
			continue;
		}
		/* Any other character: one mark, the rest of it skipped. */
		*o++ = '?';
		text++;
		while (text < end && ((unsigned char)*text & 0xC0) == 0x80)
			text++;
	}
	*o = '\0';
	return out;
}

/* Draws bytes of text as the terminal can show them, at most columns wide. */
static void
put_text(WINDOW *w, int y, int x, const char *text, size_t bytes, int columns)
{
	char *ascii;

	if (draw_utf8()) {
		mvwaddnstr(w, y, x, text, (int)bytes);
		return;
	}
	ascii = draw_ascii(text, bytes);
	mvwaddnstr(w, y, x, ascii, (int)sanitized_prefix(ascii,
	    (size_t)(columns > 0 ? columns : 0), NULL));
	free(ascii);
}

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
	char *ascii = NULL;

	if (width <= 0 || text == NULL)
		return;
	/* Measured as drawn: "..." is three columns where U+2026 is one. */
	if (!draw_utf8())
		text = ascii = draw_ascii(text, strlen(text));
	bytes = sanitized_prefix(text, (size_t)width, &used);
	attron(attr);
	mvaddnstr(y, x, text, (int)bytes);
	attroff(attr);
	/* Pad with plain spaces so what was there before cannot show. */
	for (; (int)used < width; used++)
		addch(' ');
	free(ascii);
}

void
draw_untrusted(int y, int x, const char *raw, int width, int attr)
{
	char *safe = xsanitize(raw);

	draw_text(y, x, safe, width, attr);
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

/*
 * Bytes of text on one row of width columns: never none, so rows end.
 * A row ends before the last space that fits, when that keeps a third of
 * it: a word is not cut in two ("by roo" and "t").  The space starts the
 * next row, so that the rows joined give the text back.
 */
static size_t
row_bytes(const char *text, int width)
{
	size_t bytes = sanitized_prefix(text, (size_t)(width > 0 ? width : 1),
	    NULL), space;

	if (text[bytes] != '\0' && text[bytes] != ' ') {
		for (space = bytes; space > 0 && text[space - 1] != ' '; space--)
			;
		if (space > 1 && space - 1 >= bytes / 3)
			bytes = space - 1;
	}

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
				put_text(w, y + drawn, x + indent - 2,
				    "\xe2\x86\xaa", 3, 1);
				wattroff(w, A_DIM);
			}
			wattron(w, attr);
			put_text(w, y + drawn, x + at, text, bytes, room);
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
	const char *ellipsis;
	size_t bytes;
	char *out;
	int mark;

	if (columns < 1)
		columns = 1;
	if (sanitized_width(sanitized) <= (size_t)columns)
		return xstrdup(sanitized);
	/*
	 * U+2026, as list clips: the cell says it was cut.  Without UTF-8,
	 * "...": a cut that showed nothing would read as a whole id.
	 */
	ellipsis = draw_utf8() ? "\xe2\x80\xa6" : "...";
	mark = draw_utf8() ? 1 : 3;
	bytes = clip_bytes(sanitized, (size_t)(columns > mark ? columns - mark :
	    0));
	out = xmalloc(bytes + 4);
	memcpy(out, sanitized, bytes);
	memcpy(out + bytes, ellipsis, 4);
	return out;
}

int
id_columns(struct store *store, const char *raw)
{
	size_t length = strlen(raw), width;
	struct error err;
	char *prefix;

	if (store != NULL && store_unique_prefix(store, raw, &length,
	    &err) != 0)
		length = strlen(raw);
	prefix = xcheck(sanitize(raw, length));
	width = sanitized_width(prefix);
	free(prefix);
	return width < 8 ? 8 : (int)width;
}

char *
id_shown(const char *raw, int columns)
{
	char *safe = xsanitize(raw), *clipped;

	clipped = clip_text(safe, columns);
	free(safe);
	return clipped;
}

char *
short_id(struct store *store, const char *raw)
{
	return id_shown(raw, id_columns(store, raw) + (draw_utf8() ? 1 : 3));
}

/*
 * A key line ("a approve  r reject  ? help  q quit") in columns: whole
 * when it fits, else without the items that do not, from the end; the
 * ones for help and quit or back stay, so no key is ever shown cut.
 */
char *
keys_fit(const char *line, int columns)
{
	enum { ITEMS_MAX = 32 };
	const char *item[ITEMS_MAX];
	size_t length[ITEMS_MAX], width[ITEMS_MAX], len = strlen(line);
	bool kept[ITEMS_MAX];
	size_t count = 0, i, need = 0, used = 0;
	const char *p = line, *end;
	char *out = xmalloc(len + 1), *one;

	if ((int)sanitized_width(line) <= columns) {
		memcpy(out, line, len + 1);
		return out;
	}
	while (count < ITEMS_MAX && *(p += strspn(p, " ")) != '\0') {
		if ((end = strstr(p, "  ")) == NULL)
			end = p + strlen(p);
		item[count] = p;
		length[count] = (size_t)(end - p);
		one = xasprintf("%.*s", (int)length[count], p);
		width[count] = sanitized_width(one);
		free(one);
		kept[count] = p[0] == '?' || (p[0] == 'q' && p[1] == ' ');
		if (kept[count])
			need += width[count] + 2;
		count++;
		p = end;
	}
	/* The others, from the first, while they leave room for the kept. */
	for (i = 0; i < count; i++) {
		if (!kept[i] && (int)(used + width[i] + 2 + need) > columns + 2)
			kept[i] = false, width[i] = 0;
		else if (!kept[i])
			used += width[i] + 2;
	}
	out[0] = '\0';
	for (i = 0; i < count; i++) {
		if (width[i] == 0 && !(item[i][0] == '?' || (item[i][0] == 'q' &&
		    item[i][1] == ' ')))
			continue;
		if (out[0] != '\0')
			strcat(out, "  ");
		strncat(out, item[i], length[i]);
	}
	return out;
}

void
draw_keys(int y, const char *line, int attr)
{
	char *fit = keys_fit(line, COLS);

	draw_text(y, 0, fit, COLS, attr);
	free(fit);
}

void
draw_clipped(int y, int x, const char *sanitized, int width, int attr)
{
	char *clipped = clip_text(sanitized, width);

	draw_text(y, x, clipped, width, attr);
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
