/*
 * Standard reasons are data, not code: installed with the program and
 * overridable per user ($XDG_CONFIG_HOME/countersign/reasons).
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "reasons.h"

static FILE *
open_reasons(void)
{
	char path[PATH_MAX], data[PATH_MAX], looked[2 * PATH_MAX + 8];
	const char *config = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	FILE *f = NULL;

	if (config != NULL && *config == '/' && snprintf(path, sizeof path,
	    "%s/countersign/reasons", config) < (int)sizeof path)
		f = fopen(path, "r");
	else if (home != NULL && *home == '/' && snprintf(path, sizeof path,
	    "%s/.config/countersign/reasons", home) < (int)sizeof path)
		f = fopen(path, "r");
	/* The same data directory the demo uses, found the same way. */
	if (f == NULL && data_dir_find(data, sizeof data, looked,
	    sizeof looked) == 0 && snprintf(path, sizeof path, "%s/reasons",
	    data) < (int)sizeof path)
		f = fopen(path, "r");
	return f;
}

/* Whether reason is among the first count of reasons already. */
static bool
listed(char reasons[][REASON_SIZE], size_t count, const char *reason)
{
	size_t i;

	for (i = 0; i < count; i++) {
		if (strcmp(reasons[i], reason) == 0)
			return true;
	}
	return false;
}

/*
 * The reasons for decision in the section named section (NULL: those
 * before any section), appended after the count already in reasons.
 */
static size_t
load_section(FILE *f, const char *decision, const char *section,
    char reasons[][REASON_SIZE], size_t count, size_t max)
{
	char line[REASON_SIZE + 32], *text, *end;
	size_t decision_len = strlen(decision);
	bool in = section == NULL;

	rewind(f);
	while (count < max && fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '[') {
			end = strchr(line, ']');
			in = section != NULL && end != NULL &&
			    (size_t)(end - line - 1) == strlen(section) &&
			    strncmp(line + 1, section, strlen(section)) == 0;
			continue;
		}
		if (!in || strncmp(line, decision, decision_len) != 0 ||
		    line[decision_len] != ':')
			continue;
		for (text = line + decision_len + 1; *text == ' '; text++)
			;
		end = text + strlen(text);
		while (end > text && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		if (*text != '\0' && !listed(reasons, count, text))
			snprintf(reasons[count++], REASON_SIZE, "%s", text);
	}
	return count;
}

size_t
reasons_load(const char *decision, const char *kind,
    char reasons[][REASON_SIZE], size_t max)
{
	size_t count = 0;
	FILE *f = open_reasons();

	if (f == NULL)
		return 0;
	/* The kind's own first: they are what fits this action. */
	if (kind != NULL)
		count = load_section(f, decision, kind, reasons, count, max);
	count = load_section(f, decision, NULL, reasons, count, max);
	fclose(f);
	return count;
}
