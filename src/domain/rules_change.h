/*
 * Shared by the three files of the change rule pack (SPEC 2.3): reading a
 * packet in rules_change_read.c, the rules in rules_change.c, and what the
 * queue and the detail view show of a change in rules_change_describe.c.
 * The rules and the view must read a packet the same way, so which
 * standard applies and what counts as evidence live in one place.
 */
#ifndef COUNTERSIGN_RULES_CHANGE_H
#define COUNTERSIGN_RULES_CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "detail.h"
#include "rule_pack.h"

/* result_ref.criterion of a result that names no criterion of the action. */
#define NO_CRITERION ((size_t)-1)

/* One advisory ac_result, placed against the criterion it names. */
struct result_ref {
	size_t criterion;	/* in acceptance_criteria, or NO_CRITERION */
	size_t order;		/* index in ac_results */
	const cJSON *result;
};

/* What the verdict's standards list says of one standard id. */
enum standard_claim {
	CLAIM_ABSENT,		/* not assessed */
	CLAIM_MET,		/* every entry for the id says met */
	CLAIM_NOT_MET		/* some entry for the id says not met */
};

/* A string member, or NULL; change_text() gives "" instead of NULL. */
const char *change_string(const cJSON *object, const char *key);
const char *change_text(const cJSON *object, const char *key);

/* The rule pack's validate and read_advisory (struct rule_pack). */
int change_validate(const cJSON *action, const char *path, struct error *);
int change_read_advisory(const cJSON *reviewer_verdict, const char *action_id,
    struct advisory *);

/*
 * ac_results sorted by the criterion they name (in acceptance_criteria
 * order; unknown ones last), then in their own order; *count of them.
 * Newly allocated (free()); NULL when out of memory.
 */
struct result_ref *change_results_sorted(const cJSON *criteria,
    const cJSON *results, size_t *count);

/*
 * fnmatch(3) without FNM_PATHNAME (`*` crosses `/`), where a "**" "/" at
 * the start or after a `/` also matches zero directories; the file as
 * written, or as the repository names it ("./a/x", "/a/x" and "a/b/../x"
 * are "a/x").
 */
bool change_glob_matches(const char *pattern, const char *file);

/*
 * Whether a glob of standard.applies_to.file_patterns matches one of the
 * changed files; the first such pattern and file go to *pattern, *file.
 */
bool change_standard_applies(const cJSON *standard, const cJSON *changed_files,
    const char **pattern, const char **file);
enum standard_claim change_standard_claim(const cJSON *verdict_standards,
    const char *id);

/* Evidence that cites nothing: blank text, or blank command and output. */
bool change_evidence_empty(const cJSON *evidence);

/* The human's judgment of criterion ac_id: "met", "unmet" or NULL. */
const char *change_judgment(const cJSON *po_judgments, const char *ac_id);

const char *change_who(const cJSON *action);
void change_summarize(const cJSON *action, char *buf, size_t size);
int change_describe(const struct check_input *, const struct advisory *,
    struct detail *);

#endif
