/* Building the sanitized, styled lines of a detail view. */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "sanitize.h"
#include "text.h"

/* 4 million cells: 16 MB, two drafts of 2,000 lines each. */
#define DIFF_CELLS_MAX (4u << 20)

static int
append(struct detail *d, enum detail_style style, char *sanitized)
{
	struct detail_line *grown;

	if (sanitized == NULL)
		return -1;
	if (d->count == d->capacity) {
		size_t capacity = d->capacity ? d->capacity * 2 : 32;

		grown = realloc(d->lines, capacity * sizeof *grown);
		if (grown == NULL) {
			free(sanitized);
			return -1;
		}
		d->lines = grown;
		d->capacity = capacity;
	}
	d->lines[d->count].style = style;
	d->lines[d->count].text = sanitized;
	d->lines[d->count].indent = 0;
	d->count++;
	return 0;
}

int
detail_add(struct detail *d, enum detail_style style, const char *fmt, ...)
{
	va_list ap;
	char *raw;
	int len, rc;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0 || (raw = malloc((size_t)len + 1)) == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(raw, (size_t)len + 1, fmt, ap);
	va_end(ap);
	rc = append(d, style, sanitize(raw, (size_t)len));
	free(raw);
	return rc;
}

/*
 * One detail line per line of text; with_newlines keeps each newline on
 * the line it ends, where the sanitizer shows it as ^J.
 */
static int
add_lines(struct detail *d, enum detail_style style, const char *prefix,
    const char *text, bool with_newlines)
{
	const char *line = text ? text : "", *end;
	char *safe_prefix = sanitize_str(prefix), *raw;
	size_t len, indent;
	int rc = -1, first = 1;

	if (safe_prefix == NULL)
		return -1;
	indent = sanitized_width(safe_prefix);
	for (;;) {
		end = strchr(line, '\n');
		len = end ? (size_t)(end - line) + (with_newlines ? 1 : 0) :
		    strlen(line);
		raw = first ? text_printf("%s%.*s", prefix, (int)len, line) :
		    text_printf("%*s%.*s", (int)indent, "", (int)len, line);
		if (raw == NULL)
			break;
		rc = append(d, style, sanitize(raw, strlen(raw)));
		free(raw);
		if (rc != 0)
			break;
		d->lines[d->count - 1].indent = indent;
		first = 0;
		if (end == NULL)
			break;
		line = end + 1;
	}
	free(safe_prefix);
	return rc;
}

int
detail_add_text(struct detail *d, enum detail_style style, const char *prefix,
    const char *text)
{
	return add_lines(d, style, prefix, text, true);
}

int
detail_add_document(struct detail *d, enum detail_style style,
    const char *prefix, const char *text)
{
	return add_lines(d, style, prefix, text, false);
}

/* Splits text into an array of line starts (NUL-terminated copies). */
static char **
split_lines(const char *text, size_t *count)
{
	char **lines = NULL, **grown;
	const char *line = text ? text : "", *end;
	size_t n = 0, len;

	for (;;) {
		end = strchr(line, '\n');
		len = end ? (size_t)(end - line) : strlen(line);
		grown = realloc(lines, (n + 1) * sizeof *lines);
		if (grown == NULL)
			break;
		lines = grown;
		if ((lines[n] = malloc(len + 1)) == NULL)
			break;
		memcpy(lines[n], line, len);
		lines[n++][len] = '\0';
		if (end == NULL)
			break;
		line = end + 1;
	}
	*count = n;
	return lines;
}

/*
 * A longest-common-subsequence line diff: drafts are at most a few
 * thousand lines, so the quadratic table is small enough and exact.
 */
int
detail_add_diff(struct detail *d, const char *old_text, const char *new_text)
{
	size_t n, m, i, j;
	char **a = split_lines(old_text, &n), **b = split_lines(new_text, &m);
	unsigned *table = NULL;
	int rc = -1;

	/*
	 * The table is (n + 1) x (m + 1) cells: bound the product, not each
	 * side, so a hostile pair of drafts cannot ask for gigabytes.
	 */
	if (a == NULL || b == NULL || (n + 1) > DIFF_CELLS_MAX / (m + 1) ||
	    (table = calloc((n + 1) * (m + 1), sizeof *table)) == NULL)
		goto done;
#define CELL(x, y) table[(x) * (m + 1) + (y)]
	for (i = n; i-- > 0;) {
		for (j = m; j-- > 0;)
			CELL(i, j) = strcmp(a[i], b[j]) == 0 ?
			    CELL(i + 1, j + 1) + 1 :
			    (CELL(i + 1, j) > CELL(i, j + 1) ?
			    CELL(i + 1, j) : CELL(i, j + 1));
	}
	rc = 0;
	for (i = 0, j = 0; rc == 0 && (i < n || j < m);) {
		if (i < n && j < m && strcmp(a[i], b[j]) == 0) {
			rc = detail_add_text(d, DETAIL_DIM, "  ", a[i]);
			i++;
			j++;
		} else if (j < m && (i == n || CELL(i, j + 1) >= CELL(i + 1, j)))
			rc = detail_add_text(d, DETAIL_ADDED, "+ ", b[j++]);
		else
			rc = detail_add_text(d, DETAIL_REMOVED, "- ", a[i++]);
	}
#undef CELL
done:
	for (i = 0; a != NULL && i < n; i++)
		free(a[i]);
	for (j = 0; b != NULL && j < m; j++)
		free(b[j]);
	free(a);
	free(b);
	free(table);
	return rc;
}

void
detail_free(struct detail *d)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		free(d->lines[i].text);
	free(d->lines);
	memset(d, 0, sizeof *d);
}
