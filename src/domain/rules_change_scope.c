/*
 * Which standards apply to a change (SPEC 2.3 applies_to): globs of
 * file_patterns with the globstar, paths as the repository names them,
 * domains and decision types, and the words that say why one matched.
 * The rules (rules_change.c), the diff's check (rules_change_diff.c)
 * and the view (rules_change_describe.c) all ask here, so they cannot
 * disagree.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "rules_change.h"
#include "text.h"

/*
 * Globs (SPEC 2.3 file_patterns) are fnmatch(3) without FNM_PATHNAME, so
 * `*` crosses `/`, plus the globstar of git and bash: a "**" "/" at the
 * start of the pattern or right after a `/` matches zero or more whole
 * directories.  fnmatch() alone reads it as "anything, then a slash",
 * which is the "one or more" half; the "zero" half is the same pattern
 * with that "**" "/" left out.  A pattern with k of them therefore
 * matches when one of its 2^k variants (each "**" "/" kept or left out)
 * matches.  The variant that keeps them all is the plain fnmatch() of
 * old, so this only ever widens what applies: a standard that applies
 * to more files is enforced on more changes, the safe direction.
 *
 * Past GLOBSTAR_EXACT of them the rest are written as `*`, which matches
 * the empty string and anything ending in a slash alike: wider still,
 * never narrower, and bounded in cost whatever the index holds.
 */
#define GLOBSTAR_EXACT 8

/* Is pattern[i] the start of a "**" "/" that is a whole path element? */
static bool
globstar_at(const char *pattern, size_t i)
{
	return (i == 0 || pattern[i - 1] == '/') &&
	    strncmp(pattern + i, "**/", 3) == 0;
}

/*
 * The variant of pattern whose first GLOBSTAR_EXACT globstars are left
 * out where mask has their bit set, and whose later ones are `*`.
 */
static void
glob_variant(const char *pattern, unsigned mask, char *out)
{
	unsigned seen = 0;
	size_t i = 0;

	while (pattern[i] != '\0') {
		if (!globstar_at(pattern, i)) {
			*out++ = pattern[i++];
			continue;
		}
		if (seen >= GLOBSTAR_EXACT)
			*out++ = '*';
		else if ((mask & (1u << seen)) == 0) {
			memcpy(out, "**/", 3);
			out += 3;
		}
		seen++;
		i += 3;
	}
	*out = '\0';
}

/*
 * The path as a repository names it: no leading "/" or "./", no empty or
 * "." segments, ".." taking back the segment before it.  "./scripts/x.sh"
 * and "/scripts/x.sh" are the file "scripts/x.sh", which a standard for
 * the shell scripts under scripts/ is about.  Into out, of size at least
 * strlen(file) + 1.
 */
static void
path_as_named(const char *file, char *out)
{
	size_t used = 0, length;
	const char *segment, *end;

	for (segment = file; *segment != '\0'; segment = end) {
		while (*segment == '/')
			segment++;
		if ((end = strchr(segment, '/')) == NULL)
			end = segment + strlen(segment);
		length = (size_t)(end - segment);
		if (length == 0 || (length == 1 && segment[0] == '.'))
			continue;
		if (length == 2 && segment[0] == '.' && segment[1] == '.') {
			while (used > 0 && out[used - 1] != '/')
				used--;
			if (used > 0)
				used--;		/* the '/' before it */
			continue;
		}
		if (used > 0)
			out[used++] = '/';
		memcpy(out + used, segment, length);
		used += length;
	}
	out[used] = '\0';
}

static bool
glob_matches_as_written(const char *pattern, const char *file)
{
	unsigned count = 0, mask;
	size_t i, length = strlen(pattern);
	char *variant;
	bool match = false;

	for (i = 0; i < length; i++) {
		if (globstar_at(pattern, i))
			count++;
	}
	if (count == 0)
		return fnmatch(pattern, file, 0) == 0;
	if (count > GLOBSTAR_EXACT)
		count = GLOBSTAR_EXACT;
	/* Out of memory: say it applies, which fails closed. */
	if ((variant = malloc(length + 1)) == NULL)
		return true;
	for (mask = 0; !match && mask < 1u << count; mask++) {
		glob_variant(pattern, mask, variant);
		match = fnmatch(variant, file, 0) == 0;
	}
	free(variant);
	return match;
}

/*
 * As written, or as the repository names the file: either way the
 * standard applies, since a prefix such as "./" must not dodge it.
 */
bool
change_glob_matches(const char *pattern, const char *file)
{
	char *named;
	bool match;

	if (glob_matches_as_written(pattern, file))
		return true;
	/* Out of memory: say it applies, which fails closed. */
	if ((named = malloc(strlen(file) + 1)) == NULL)
		return true;
	path_as_named(file, named);
	match = strcmp(named, file) != 0 &&
	    glob_matches_as_written(pattern, named);
	free(named);
	return match;
}

bool
change_same_path(const char *a, const char *b)
{
	char *named_a, *named_b;
	bool same;

	if (strcmp(a, b) == 0)
		return true;
	named_a = malloc(strlen(a) + 1);
	named_b = malloc(strlen(b) + 1);
	/* Out of memory: not the same, so rule 10 fails closed. */
	same = false;
	if (named_a != NULL && named_b != NULL) {
		path_as_named(a, named_a);
		path_as_named(b, named_b);
		same = strcmp(named_a, named_b) == 0;
	}
	free(named_a);
	free(named_b);
	return same;
}

/* Whether one of the standard's values of field is among the change's. */
static bool
scope_names(const cJSON *standard, enum scope_field field,
    const cJSON *values, struct scope_match *match)
{
	const cJSON *wanted, *value;

	cJSON_ArrayForEach(wanted, change_scope_list(standard, field)) {
		if (!cJSON_IsString(wanted))
			continue;
		cJSON_ArrayForEach(value, values) {
			if (cJSON_IsString(value) &&
			    (field == SCOPE_FILE_PATTERNS ?
			    change_glob_matches(wanted->valuestring,
			    value->valuestring) :
			    text_equal_nocase(wanted->valuestring,
			    value->valuestring))) {
				match->field = field;
				match->scope = wanted->valuestring;
				match->value = value->valuestring;
				return true;
			}
		}
	}
	return false;
}

bool
change_standard_applies(const cJSON *standard, const cJSON *action,
    const cJSON *diff_paths, struct scope_match *match)
{
	return scope_names(standard, SCOPE_FILE_PATTERNS,
	    json_member(action, "changed_files"), match) ||
	    scope_names(standard, SCOPE_FILE_PATTERNS, diff_paths, match) ||
	    scope_names(standard, SCOPE_DOMAINS, json_member(action,
	    "domains"), match) ||
	    scope_names(standard, SCOPE_DECISION_TYPES, json_member(action,
	    "decision_types"), match);
}

void
change_scope_text(const struct scope_match *match, char *buf, size_t size)
{
	switch (match->field) {
	case SCOPE_FILE_PATTERNS:
		snprintf(buf, size, "%s matches %s", match->scope,
		    match->value);
		return;
	case SCOPE_DOMAINS:
		snprintf(buf, size, "domain %s", match->value);
		return;
	case SCOPE_DECISION_TYPES:
	case SCOPE_FIELDS:
		break;
	}
	snprintf(buf, size, "decision type %s", match->value);
}
