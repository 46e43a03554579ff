/*
 * Shared by the files of the change rule pack (SPEC 2.3): reading a
 * packet in rules_change_read.c, which standards apply to it in
 * rules_change_scope.c, the rules in rules_change.c and
 * rules_change_diff.c, and what the queue and the detail view show of a
 * change in rules_change_describe.c.
 * The rules and the view must read a packet the same way, so which
 * standard applies and what counts as evidence live in one place.
 */
#ifndef COUNTERSIGN_RULES_CHANGE_H
#define COUNTERSIGN_RULES_CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "detail.h"
#include "error.h"
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


/* The scope of a standard (SPEC 2.3 applies_to). */
enum scope_field {
	SCOPE_FILE_PATTERNS,
	SCOPE_DOMAINS,
	SCOPE_DECISION_TYPES,
	SCOPE_FIELDS
};

/* Why a standard applies: its scope value and the change's that meet. */
struct scope_match {
	enum scope_field field;
	const char *scope;	/* the glob, domain or decision type */
	const char *value;	/* the changed file, domain or decision type */
};

/*
 * Validates a standards_index object (SPEC 1), in SPEC 1's spelling or
 * the backlog tool's (applies-to, file-patterns, decision-types).
 */
int change_standards_validate(const cJSON *index, struct error *);

/* A standard's list for one scope field, in either spelling; or NULL. */
const cJSON *change_scope_list(const cJSON *standard, enum scope_field);

/*
 * Whether the standard applies to the change: a glob of its file
 * patterns matches a changed file, or one of its domains or decision
 * types is one of the change's (ignoring ASCII case).  The first such
 * pair goes to *match.
 */
bool change_standard_applies(const cJSON *standard, const cJSON *action,
    const cJSON *diff_paths, struct scope_match *match);

/*
 * (v3) The paths the diff's file headers name ("--- a/PATH", "+++
 * b/PATH"; /dev/null aside), each once: *paths a new array of strings
 * (cJSON_Delete), empty for text that is no unified diff, NULL for no
 * diff.  -1 when out of memory.  Standards apply by these paths as by
 * changed_files (SPEC 2.3 rule 10), so a diff cannot hide a file.
 */
int change_diff_paths(const char *diff, cJSON **paths);
/* Two paths naming one file, as written or as the repository names it. */
bool change_same_path(const char *a, const char *b);
/* "<glob> matches <file>", "domain auth", "decision type ..." */
void change_scope_text(const struct scope_match *, char *buf, size_t size);

/* The index's standards sorted by id, to look up what a verdict cites. */
struct standard_lookup {
	const cJSON **sorted;
	size_t count;
};

/* -1 when out of memory; free with change_lookup_free(). */
int change_lookup_init(struct standard_lookup *, const cJSON *standards);
void change_lookup_free(struct standard_lookup *);
/*
 * The standard id of the index, or NULL.  With rule_id, *rule is that
 * rule of the standard (of any entry for id that has it), else NULL.
 */
const cJSON *change_lookup(const struct standard_lookup *, const char *id,
    const char *rule_id, const cJSON **rule);

enum standard_claim change_standard_claim(const cJSON *verdict_standards,
    const char *id);

/*
 * Evidence that cites something: non-blank text, a non-blank command
 * with its non-blank output, or a non-blank file.
 */
bool change_evidence_cites(const cJSON *evidence);

/* The human's judgment of criterion ac_id: "met", "unmet" or NULL. */
const char *change_judgment(const cJSON *po_judgments, const char *ac_id);

const char *change_who(const cJSON *action);
void change_summarize(const cJSON *action, char *buf, size_t size);
int change_describe(const struct check_input *, const struct advisory *,
    struct detail *);

#endif
