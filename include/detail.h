/*
 * What the detail view shows of a proposal, as styled lines of sanitized
 * text.  Each rule pack describes its own kind; the TUI only draws the
 * lines, so what a packet says is escaped before any terminal code runs.
 */
#ifndef COUNTERSIGN_DETAIL_H
#define COUNTERSIGN_DETAIL_H

#include <stddef.h>

enum detail_style {
	DETAIL_PLAIN,
	DETAIL_HEADING,		/* a section title */
	DETAIL_ALERT,		/* must not be missed: shown bold and reversed */
	DETAIL_ADDED,		/* a diff line only in the new text */
	DETAIL_REMOVED,		/* a diff line only in the old text */
	DETAIL_DIM		/* context */
};

struct detail_line {
	enum detail_style style;
	char *text;		/* sanitized: safe to draw as is */
	/*
	 * Columns the rows a long line wraps onto are indented by: the width
	 * of its field's label, so that untrusted text can never start a
	 * row where the screen's own labels start.  0 lets the view choose.
	 */
	size_t indent;
};

struct detail {
	struct detail_line *lines;
	size_t count;
	size_t capacity;
};

/*
 * Appends one line: the printf-style result is sanitized whole, so
 * arguments may be untrusted.  A newline in it shows as ^J; use
 * detail_add_text() for text that has lines of its own.
 */
int detail_add(struct detail *, enum detail_style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * Appends untrusted multi-line text, one detail line per line of it.  The
 * first starts with prefix (trusted, e.g. "  - "); the others are indented
 * by its width instead of repeating it, so a newline in the text cannot
 * fake another item of a list.  Each newline still shows as ^J, as in
 * every other field, at the end of the line it ends.
 */
int detail_add_text(struct detail *, enum detail_style, const char *prefix,
    const char *text);
/*
 * As detail_add_text(), for a document read as such (a legal draft): its
 * newlines end lines and are not shown; every other control character,
 * a carriage return included, still shows as the sanitizer writes it.
 */
int detail_add_document(struct detail *, enum detail_style,
    const char *prefix, const char *text);
/* A line diff of old_text against new_text ("  ", "- ", "+ " prefixes). */
int detail_add_diff(struct detail *, const char *old_text,
    const char *new_text);
void detail_free(struct detail *);

#endif
