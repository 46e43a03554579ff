/*
 * Standard reasons are data, not code: installed with the program and
 * overridable per user ($XDG_CONFIG_HOME/countersign/reasons).
 */
#include "config.h"

#include <limits.h>
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

size_t
reasons_load(const char *kind, char reasons[][REASON_SIZE], size_t max)
{
	char line[REASON_SIZE + 32], *text, *end;
	size_t count = 0, kind_len = strlen(kind);
	FILE *f = open_reasons();

	if (f == NULL)
		return 0;
	while (count < max && fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, kind, kind_len) != 0 || line[kind_len] != ':')
			continue;
		for (text = line + kind_len + 1; *text == ' '; text++)
			;
		end = text + strlen(text);
		while (end > text && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		if (*text != '\0')
			snprintf(reasons[count++], REASON_SIZE, "%s", text);
	}
	fclose(f);
	return count;
}
