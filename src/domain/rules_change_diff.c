/*
 * The paths a change's diff writes (SPEC 2.3 rule 10, v3): read from its
 * unified diff file headers, so that what the diff touches is compared
 * with changed_files and a standard's file patterns see both.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rules_change.h"

/* A line: [start, end) without its "\n" (or "\r\n"). */
struct line {
	const char *start, *end;
};

static bool
next_line(const char **cursor, struct line *l)
{
	const char *nl;

	if (**cursor == '\0')
		return false;
	l->start = *cursor;
	nl = strchr(*cursor, '\n');
	*cursor = nl != NULL ? nl + 1 : *cursor + strlen(*cursor);
	l->end = nl != NULL ? nl : *cursor;
	if (l->end > l->start && l->end[-1] == '\r')
		l->end--;
	return true;
}

static bool
starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(l->end - l->start) >= n &&
	    memcmp(l->start, prefix, n) == 0;
}

/* A hunk length of "@@ -a,b +c,d @@": b or d, 1 when omitted. */
static long
hunk_length(const char *p, const char *end, char sign)
{
	char *after;
	long n;

	while (p < end && *p != sign)
		p++;
	if (p >= end)
		return -1;
	(void)strtol(p + 1, &after, 10);
	if (after == p + 1)
		return -1;
	if (*after != ',')
		return 1;
	n = strtol(after + 1, &after, 10);
	return n >= 0 ? n : -1;
}

/*
 * The path of a "--- " or "+++ " header: up to a tab (diff -u puts the
 * time there), quotes taken off, the "a/" or "b/" git writes dropped.
 * NULL for /dev/null (a file created or deleted) or an empty name.
 */
static char *
header_path(const struct line *l, const char *git_prefix)
{
	const char *p = l->start + 4, *end = l->end, *tab;
	size_t n;
	char *path;

	if ((tab = memchr(p, '\t', (size_t)(end - p))) != NULL)
		end = tab;
	while (end > p && end[-1] == ' ')
		end--;
	if (end - p >= 2 && *p == '"' && end[-1] == '"') {
		p++;
		end--;
	}
	n = (size_t)(end - p);
	if (n == 9 && memcmp(p, "/dev/null", 9) == 0)
		return NULL;
	if (n > 2 && memcmp(p, git_prefix, 2) == 0) {
		p += 2;
		n -= 2;
	}
	if (n == 0 || (path = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(path, p, n);
	path[n] = '\0';
	return path;
}

static bool
listed(const cJSON *paths, const char *path)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, paths) {
		if (change_same_path(item->valuestring, path))
			return true;
	}
	return false;
}

/* Adds the header's path, once; -1 when out of memory. */
static int
add_header_path(cJSON *paths, const struct line *l, const char *git_prefix)
{
	char *path = header_path(l, git_prefix);
	int rc = 0;

	if (path == NULL)
		return 0;
	if (!listed(paths, path) &&
	    !cJSON_AddItemToArray(paths, cJSON_CreateString(path)))
		rc = -1;
	free(path);
	return rc;
}

/* Every "--- " line followed by a "+++ " line from text on, as a header. */
static int
add_pairs_from(const char *text, cJSON *paths)
{
	struct line l, header = { NULL, NULL };

	while (text != NULL && next_line(&text, &l)) {
		if (header.start != NULL && starts(&l, "+++ ") &&
		    (add_header_path(paths, &header, "a/") != 0 ||
		    add_header_path(paths, &l, "b/") != 0))
			return -1;
		header.start = starts(&l, "--- ") ? l.start : NULL;
		header.end = l.end;
	}
	return 0;
}

/*
 * A "--- " line followed by a "+++ " line, outside a hunk, is a file
 * header.  Inside a hunk, counted by its "@@" lengths as git counts
 * them, a "--- x" is a removed line "-- x" and not a header; a hunk
 * with a line that no hunk holds, or more lines than its lengths, makes
 * the diff name no file.
 */
int
change_diff_paths(const char *diff, cJSON **paths)
{
	const char *cursor = diff, *hunk_start = NULL;
	struct line l, header = { NULL, NULL };
	long old_left = 0, new_left = 0;

	*paths = NULL;
	if (diff == NULL)
		return 0;
	if ((*paths = cJSON_CreateArray()) == NULL)
		return -1;
	while (next_line(&cursor, &l)) {
		if (old_left > 0 || new_left > 0) {
			if (starts(&l, "-"))
				old_left--;
			else if (starts(&l, "+"))
				new_left--;
			else if (starts(&l, " ") || l.start == l.end) {
				old_left--;
				new_left--;
			} else if (!starts(&l, "\\"))
				goto broken;
			if (old_left < 0 || new_left < 0)
				goto broken;
			continue;
		}
		if (header.start != NULL && starts(&l, "+++ ")) {
			if (add_header_path(*paths, &header, "a/") != 0 ||
			    add_header_path(*paths, &l, "b/") != 0)
				goto oom;
			header.start = NULL;
			continue;
		}
		header.start = NULL;
		if (starts(&l, "--- ")) {
			header = l;
		} else if (starts(&l, "@@ ")) {
			hunk_start = cursor;
			old_left = hunk_length(l.start, l.end, '-');
			new_left = hunk_length(l.start, l.end, '+');
			if (old_left < 0 || new_left < 0)
				goto broken;
		}
	}
	/*
	 * The last hunk ends early (a diff clipped for the packet): nothing
	 * follows it, but a header pair inside it still counts, since more
	 * paths can only make more standards apply and rule 10 fail.
	 */
	if ((old_left > 0 || new_left > 0) &&
	    add_pairs_from(hunk_start, *paths) != 0)
		goto oom;
	return 0;
broken:
	/*
	 * Lengths that do not match the lines: which lines are headers is
	 * then anyone's guess, so the diff names no file (rule 10 fails).
	 */
	cJSON_Delete(*paths);
	if ((*paths = cJSON_CreateArray()) == NULL)
		return -1;
	return 0;
oom:
	cJSON_Delete(*paths);
	*paths = NULL;
	return -1;
}
