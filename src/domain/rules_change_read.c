/*
 * Reading a change packet (SPEC 1 and 2.3): the proposed change as import
 * validates it, the reviewer's verdict as the gate parses it, and the
 * lookups that the rules (rules_change.c) and the view
 * (rules_change_describe.c) must both make the same way.  Which
 * standards apply to the change is rules_change_scope.c's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "rule_pack.h"
#include "rules_change.h"
#include "text.h"

#define PATH_SIZE 256
/* A path with an index and a key after it ("...[12].id"). */
#define ELEMENT_SIZE (PATH_SIZE + 32)

static const char *const ci_states[] = { "green", "red", "pending", NULL };
static const char *const outcomes[] = { "accepted", "sent_back", "needs_po",
    "block", NULL };
static const char *const ac_states[] = { "MET", "UNMET", "NEEDS-PO", NULL };
static const char *const gap_classes[] = { "missing_standard",
    "missing_fact", NULL };

const char *
change_string(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

const char *
change_text(const cJSON *object, const char *key)
{
	const char *s = change_string(object, key);

	return s != NULL ? s : "";
}

static bool
one_of(const char *value, const char *const *choices)
{
	size_t i;

	for (i = 0; value != NULL && choices[i] != NULL; i++) {
		if (strcmp(value, choices[i]) == 0)
			return true;
	}
	return false;
}


/* ---- criteria, looked up by id ---- */

/*
 * Criteria sorted by id, so that a packet with thousands of criteria and
 * results (the verdict is untrusted model output) is matched in n log n.
 */
struct criterion_entry {
	const char *id;
	size_t index;		/* in acceptance_criteria */
};

static int
entry_compare(const void *a, const void *b)
{
	const struct criterion_entry *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return (x->index > y->index) - (x->index < y->index);
}

static int
entry_find(const void *key, const void *member)
{
	const struct criterion_entry *entry = member;

	return strcmp(key, entry->id);
}

/* The sorted criteria, *count of them; NULL when out of memory. */
static struct criterion_entry *
criteria_sorted(const cJSON *criteria, size_t *count)
{
	struct criterion_entry *entries;
	const cJSON *criterion;
	size_t n = (size_t)cJSON_GetArraySize(criteria);

	*count = 0;
	if ((entries = calloc(n + 1, sizeof *entries)) == NULL)
		return NULL;
	cJSON_ArrayForEach(criterion, criteria) {
		entries[*count].id = change_text(criterion, "id");
		entries[*count].index = *count;
		(*count)++;
	}
	qsort(entries, *count, sizeof *entries, entry_compare);
	return entries;
}

/* The index of criterion id, or NO_CRITERION. */
static size_t
criteria_find(const struct criterion_entry *entries, size_t count,
    const char *id)
{
	const struct criterion_entry *found;

	if (id == NULL || count == 0)
		return NO_CRITERION;
	found = bsearch(id, entries, count, sizeof *entries, entry_find);
	return found != NULL ? found->index : NO_CRITERION;
}

static int
ref_compare(const void *a, const void *b)
{
	const struct result_ref *x = a, *y = b;

	if (x->criterion != y->criterion)
		return x->criterion < y->criterion ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

struct result_ref *
change_results_sorted(const cJSON *criteria, const cJSON *results,
    size_t *count)
{
	struct criterion_entry *entries;
	struct result_ref *refs;
	const cJSON *result;
	size_t n, i = 0;

	*count = 0;
	if ((entries = criteria_sorted(criteria, &n)) == NULL)
		return NULL;
	refs = calloc((size_t)cJSON_GetArraySize(results) + 1, sizeof *refs);
	if (refs == NULL) {
		free(entries);
		return NULL;
	}
	cJSON_ArrayForEach(result, results) {
		refs[i].criterion = criteria_find(entries, n,
		    change_string(result, "ac_id"));
		refs[i].order = i;
		refs[i].result = result;
		i++;
	}
	free(entries);
	qsort(refs, i, sizeof *refs, ref_compare);
	*count = i;
	return refs;
}

/* ---- validation (SPEC 1 and 2.3) ---- */

/* Criterion ids must be unique: a result could not say which it judged. */
static int
criteria_unique(const cJSON *criteria, const char *path, struct error *err)
{
	struct criterion_entry *entries, *later = NULL;
	char field[ELEMENT_SIZE];
	size_t count, i;

	if ((entries = criteria_sorted(criteria, &count)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	/* Name the duplicate that comes first in the file. */
	for (i = 1; i < count; i++) {
		if (strcmp(entries[i - 1].id, entries[i].id) == 0 &&
		    (later == NULL || entries[i].index < later->index))
			later = &entries[i];
	}
	if (later != NULL) {
		snprintf(field, sizeof field, "%s[%zu].id", path, later->index);
		error_set(err, EXIT_DATA, field, "duplicate criterion id "
		    "\"%.64s\"", later->id);
	}
	free(entries);
	return later != NULL ? EXIT_DATA : 0;
}

static int
criteria_validate(const cJSON *criteria, const char *path, struct error *err)
{
	char element[ELEMENT_SIZE];
	const cJSON *criterion;
	const char *text;
	size_t index = 0;
	int rc;

	cJSON_ArrayForEach(criterion, criteria) {
		snprintf(element, sizeof element, "%s[%zu]", path, index++);
		if (!cJSON_IsObject(criterion))
			return error_set(err, EXIT_DATA, element,
			    "must be an object with id and text");
		if ((rc = field_id(criterion, element, "id", FIELD_REQUIRED,
		    &text, err)) != 0 ||
		    (rc = field_string(criterion, element, "text",
		    FIELD_REQUIRED, &text, err)) != 0)
			return rc;
	}
	return criteria_unique(criteria, path, err);
}

/* The commit reviewed: a SHA-1 or SHA-256 object name (SPEC 2.3). */
static int
head_sha_validate(const cJSON *action, const char *path, struct error *err)
{
	char field[PATH_SIZE];
	const char *sha = NULL;
	size_t length, i;
	int rc;

	if ((rc = field_string(action, path, "head_sha", FIELD_OPTIONAL, &sha,
	    err)) != 0 || sha == NULL)
		return rc;
	length = strlen(sha);
	for (i = 0; i < length && strchr("0123456789abcdefABCDEF", sha[i]) !=
	    NULL; i++)
		;
	if (i != length || (length != 40 && length != 64))
		return error_set(err, EXIT_DATA, field_path(field, sizeof field,
		    path, "head_sha"), "must be a commit id of 40 or 64 hex "
		    "digits");
	return 0;
}

int
change_validate(const cJSON *action, const char *path, struct error *err)
{
	const cJSON *criteria = NULL, *files;
	char criteria_path[PATH_SIZE];
	const char *text;
	int rc;

	if ((rc = field_string(action, path, "title", FIELD_REQUIRED, &text,
	    err)) != 0 ||
	    (rc = field_array(action, path, "acceptance_criteria",
	    FIELD_REQUIRED, &criteria, err)) != 0 ||
	    (rc = field_string_array(action, path, "changed_files",
	    FIELD_REQUIRED, false, &files, err)) != 0 ||
	    (rc = field_choice(action, path, "ci_status", FIELD_REQUIRED,
	    ci_states, &text, err)) != 0 ||
	    (rc = field_string(action, path, "pr_url", FIELD_OPTIONAL, &text,
	    err)) != 0 ||
	    (rc = head_sha_validate(action, path, err)) != 0 ||
	    (rc = field_string(action, path, "diff", FIELD_OPTIONAL, &text,
	    err)) != 0 ||
	    (rc = field_string_array(action, path, "domains", FIELD_OPTIONAL,
	    false, &files, err)) != 0 ||
	    (rc = field_string_array(action, path, "decision_types",
	    FIELD_OPTIONAL, false, &files, err)) != 0)
		return rc;
	field_path(criteria_path, sizeof criteria_path, path,
	    "acceptance_criteria");
	return criteria_validate(criteria, criteria_path, err);
}

/* ---- the standards index (SPEC 1) ---- */

/* The scope fields, as SPEC 1 spells them and as the backlog tool does. */
static const struct {
	const char *key;
	const char *hyphen;
} scope_keys[SCOPE_FIELDS] = {
	[SCOPE_FILE_PATTERNS] = { "file_patterns", "file-patterns" },
	[SCOPE_DOMAINS] = { "domains", "domains" },
	[SCOPE_DECISION_TYPES] = { "decision_types", "decision-types" },
};

static const char *const rule_levels[] = { "MUST", "SHOULD", NULL };

/* The member spelled key or hyphen (validation refused both), or NULL. */
static const cJSON *
spelled(const cJSON *object, const char *key, const char *hyphen)
{
	const cJSON *item = json_member(object, key);

	return item != NULL ? item : json_member(object, hyphen);
}

const cJSON *
change_scope_list(const cJSON *standard, enum scope_field field)
{
	return spelled(spelled(standard, "applies_to", "applies-to"),
	    scope_keys[field].key, scope_keys[field].hyphen);
}

/*
 * Which spelling of a field object uses, into *chosen; when neither is
 * there, the file's own (hyphenated in the backlog tool's), so that the
 * error names the field as its writer spells it.  Both in one object is
 * refused: they could disagree, and either reading would be a guess.
 */
static int
spelling(const cJSON *object, const char *path, const char *key,
    const char *hyphen, bool backlog, const char **chosen, struct error *err)
{
	char field[ELEMENT_SIZE];

	*chosen = backlog && json_member(object, key) == NULL ? hyphen : key;
	if (json_member(object, hyphen) == NULL || strcmp(key, hyphen) == 0)
		return 0;
	if (json_member(object, key) != NULL)
		return error_set(err, EXIT_DATA, field_path(field, sizeof field,
		    path, hyphen), "both %s and %s are given: an entry "
		    "spells each field one way", key, hyphen);
	*chosen = hyphen;
	return 0;
}

static int
rules_validate(const cJSON *standard, const char *path, struct error *err)
{
	char rules_path[ELEMENT_SIZE], element[ELEMENT_SIZE + 32];
	const cJSON *rules = NULL, *rule;
	const char *text;
	size_t index = 0;
	int rc;

	if ((rc = field_array(standard, path, "rules", FIELD_OPTIONAL, &rules,
	    err)) != 0)
		return rc;
	field_path(rules_path, sizeof rules_path, path, "rules");
	cJSON_ArrayForEach(rule, rules) {
		snprintf(element, sizeof element, "%s[%zu]", rules_path,
		    index++);
		if (!cJSON_IsObject(rule))
			return error_set(err, EXIT_DATA, element, "must be an "
			    "object with id, level, assertion and fix");
		if ((rc = field_id(rule, element, "id", FIELD_REQUIRED, &text,
		    err)) != 0 ||
		    (rc = field_choice(rule, element, "level", FIELD_REQUIRED,
		    rule_levels, &text, err)) != 0 ||
		    (rc = field_string(rule, element, "assertion",
		    FIELD_REQUIRED, &text, err)) != 0 ||
		    (rc = field_string(rule, element, "fix", FIELD_REQUIRED,
		    &text, err)) != 0)
			return rc;
	}
	return 0;
}

static int
standard_validate(const cJSON *standard, const char *path, bool backlog,
    struct error *err)
{
	char scope_path[ELEMENT_SIZE];
	const cJSON *applies = NULL, *list;
	const char *text, *key;
	bool scoped = false;
	size_t i;
	int rc;

	if (!cJSON_IsObject(standard))
		return error_set(err, EXIT_DATA, path, "must be an object");
	if ((rc = field_id(standard, path, "id", FIELD_REQUIRED, &text,
	    err)) != 0 ||
	    (rc = field_string(standard, path, "assertion", FIELD_REQUIRED,
	    &text, err)) != 0 ||
	    (rc = field_string(standard, path, "status", FIELD_REQUIRED,
	    &text, err)) != 0 ||
	    (rc = field_string(standard, path, "title", FIELD_OPTIONAL,
	    &text, err)) != 0 ||
	    (rc = spelling(standard, path, "applies_to", "applies-to", backlog,
	    &key, err)) != 0 ||
	    (rc = field_object(standard, path, key, FIELD_REQUIRED, &applies,
	    err)) != 0)
		return rc;
	field_path(scope_path, sizeof scope_path, path, key);
	for (i = 0; i < SCOPE_FIELDS; i++) {
		list = NULL;
		if ((rc = spelling(applies, scope_path, scope_keys[i].key,
		    scope_keys[i].hyphen, backlog, &key, err)) != 0 ||
		    (rc = field_string_array(applies, scope_path, key,
		    FIELD_OPTIONAL, false, &list, err)) != 0)
			return rc;
		if (cJSON_GetArraySize(list) > 0)
			scoped = true;
	}
	/* A standard that applies to nothing would never be enforced. */
	if (!scoped)
		return error_set(err, EXIT_DATA, scope_path, "names no "
		    "file_patterns, domains or decision_types: a standard "
		    "must say what it applies to");
	return rules_validate(standard, path, err);
}

int
change_standards_validate(const cJSON *index, struct error *err)
{
	const cJSON *standards = NULL, *standard;
	char path[PATH_SIZE];
	size_t index_no = 0;
	bool backlog;
	int rc;

	if ((rc = field_array(index, "", "standards", FIELD_REQUIRED,
	    &standards, err)) != 0)
		return rc;
	/* At most 10,000 of them: an import rule (object.c), not a shape. */
	/* The backlog tool's file has no type (object.c). */
	backlog = json_member(index, "type") == NULL;
	cJSON_ArrayForEach(standard, standards) {
		snprintf(path, sizeof path, "standards[%zu]", index_no++);
		if ((rc = standard_validate(standard, path, backlog,
		    err)) != 0)
			return rc;
	}
	return 0;
}

/* ---- the advisory verdict (SPEC 2.3 and 4) ---- */

/* Absent or null lists and evidence read as empty: see below. */
static bool
absent(const cJSON *item)
{
	return item == NULL || cJSON_IsNull(item);
}

static bool
string_or_absent(const cJSON *item)
{
	return absent(item) || cJSON_IsString(item);
}

/*
 * A string, or {command, output, proved} or {file, line, proved} with
 * each a string (line a number too) or absent; absent or null evidence,
 * and an absent command, output or file, are empty.  Empty
 * evidence is not a reason to distrust the whole verdict: it fails
 * met_has_evidence for a MET result, and only that rule.
 */
static bool
evidence_readable(const cJSON *evidence)
{
	const cJSON *line = json_member(evidence, "line");

	if (string_or_absent(evidence))
		return true;
	return cJSON_IsObject(evidence) &&
	    string_or_absent(json_member(evidence, "command")) &&
	    string_or_absent(json_member(evidence, "output")) &&
	    string_or_absent(json_member(evidence, "file")) &&
	    string_or_absent(json_member(evidence, "proved")) &&
	    (string_or_absent(line) || cJSON_IsNumber(line));
}

static bool
results_readable(const cJSON *results)
{
	const cJSON *result;

	if (!cJSON_IsArray(results))
		return false;
	cJSON_ArrayForEach(result, results) {
		if (!cJSON_IsString(json_member(result, "ac_id")) ||
		    !one_of(change_string(result, "state"), ac_states) ||
		    !evidence_readable(json_member(result, "evidence")))
			return false;
	}
	return true;
}

static bool
standards_readable(const cJSON *standards)
{
	const cJSON *standard, *note;

	if (absent(standards))
		return true;
	if (!cJSON_IsArray(standards))
		return false;
	cJSON_ArrayForEach(standard, standards) {
		note = json_member(standard, "note");
		if (!cJSON_IsString(json_member(standard, "id")) ||
		    !cJSON_IsBool(json_member(standard, "met")) ||
		    !string_or_absent(note) ||
		    !string_or_absent(json_member(standard, "rule")))
			return false;
	}
	return true;
}

/*
 * flagged_assumptions: absent, or strings, each quoted as a high-stakes
 * reason.  deferred_checks: absent or an array; an entry of any other
 * shape did not run and pass, which deferred_checks_passed reports.
 */
static bool
extras_readable(const cJSON *verdict)
{
	const cJSON *flagged = json_member(verdict, "flagged_assumptions");
	const cJSON *deferred = json_member(verdict, "deferred_checks");
	const cJSON *item;

	if (!absent(flagged)) {
		if (!cJSON_IsArray(flagged))
			return false;
		cJSON_ArrayForEach(item, flagged) {
			if (!cJSON_IsString(item))
				return false;
		}
	}
	return absent(deferred) || cJSON_IsArray(deferred);
}

static bool
gaps_readable(const cJSON *gaps)
{
	const cJSON *gap;

	if (absent(gaps))
		return true;
	if (!cJSON_IsArray(gaps))
		return false;
	cJSON_ArrayForEach(gap, gaps) {
		if (!one_of(change_string(gap, "class"), gap_classes) ||
		    !cJSON_IsString(json_member(gap, "text")))
			return false;
	}
	return true;
}

/*
 * Parseable: an object with a known outcome and readable ac_results.  A
 * reviewer that found no standard to assess or no gap may leave standards
 * or gaps out: they read as empty, which costs nothing, since an
 * applicable standard the verdict does not list fails rule 5 anyway.
 * The change shape has no action_id, but a verdict that names another
 * action is about another action (SPEC 1) whatever its kind, and is
 * reported so (SPEC 4) whatever else is wrong with it.
 */
int
change_read_advisory(const cJSON *verdict, const char *action_id,
    struct advisory *advisory)
{
	const char *about;

	memset(advisory, 0, sizeof *advisory);
	if (absent(verdict)) {
		advisory->state = ADVISORY_MISSING;
		return 0;
	}
	advisory->state = ADVISORY_UNPARSEABLE;
	if (!cJSON_IsObject(verdict))
		return 0;
	about = change_string(verdict, "action_id");
	if (about != NULL && strcmp(about, action_id) != 0) {
		advisory->state = ADVISORY_OTHER_ACTION;
		advisory->other_action_id = about;
		return 0;
	}
	if (!one_of(change_string(verdict, "outcome"), outcomes) ||
	    !results_readable(json_member(verdict, "ac_results")) ||
	    !standards_readable(json_member(verdict, "standards")) ||
	    !gaps_readable(json_member(verdict, "gaps")) ||
	    !extras_readable(verdict))
		return 0;
	advisory->state = ADVISORY_AVAILABLE;
	advisory->verdict = verdict;
	advisory->overall_pass = one_of(change_string(verdict, "outcome"),
	    (const char *const[]){ "accepted", "needs_po", NULL });
	return 0;
}

/* ---- what the rules share ---- */

bool
change_evidence_cites(const cJSON *evidence)
{
	if (cJSON_IsString(evidence))
		return !text_blank(evidence->valuestring);
	/* A command proves nothing without what it printed. */
	return (!text_blank(change_string(evidence, "command")) &&
	    !text_blank(change_string(evidence, "output"))) ||
	    !text_blank(change_string(evidence, "file"));
}

const char *
change_judgment(const cJSON *po_judgments, const char *ac_id)
{
	const char *judgment;

	if (ac_id == NULL)
		return NULL;
	judgment = change_string(po_judgments, ac_id);
	return one_of(judgment, (const char *const[]){ "met", "unmet",
	    NULL }) ? judgment : NULL;
}

/* Two entries for one standard that disagree: the "not met" one counts. */
enum standard_claim
change_standard_claim(const cJSON *verdict_standards, const char *id)
{
	enum standard_claim claim = CLAIM_ABSENT;
	const cJSON *entry;

	cJSON_ArrayForEach(entry, verdict_standards) {
		if (strcmp(change_text(entry, "id"), id) != 0)
			continue;
		if (!cJSON_IsTrue(json_member(entry, "met")))
			return CLAIM_NOT_MET;
		claim = CLAIM_MET;
	}
	return claim;
}


/* ---- the standards a verdict cites ---- */

static int
standard_compare(const void *a, const void *b)
{
	const cJSON *const *x = a, *const *y = b;

	return strcmp(change_text(*x, "id"), change_text(*y, "id"));
}

int
change_lookup_init(struct standard_lookup *lookup, const cJSON *standards)
{
	const cJSON *standard;

	memset(lookup, 0, sizeof *lookup);
	lookup->sorted = calloc((size_t)cJSON_GetArraySize(standards) + 1,
	    sizeof *lookup->sorted);
	if (lookup->sorted == NULL)
		return -1;
	cJSON_ArrayForEach(standard, standards)
		lookup->sorted[lookup->count++] = standard;
	/* Stable enough: entries with one id are all looked at below. */
	qsort(lookup->sorted, lookup->count, sizeof *lookup->sorted,
	    standard_compare);
	return 0;
}

void
change_lookup_free(struct standard_lookup *lookup)
{
	free(lookup->sorted);
	memset(lookup, 0, sizeof *lookup);
}

static const cJSON *
rule_named(const cJSON *standard, const char *rule_id)
{
	const cJSON *rule;

	cJSON_ArrayForEach(rule, json_member(standard, "rules")) {
		if (strcmp(change_text(rule, "id"), rule_id) == 0)
			return rule;
	}
	return NULL;
}

const cJSON *
change_lookup(const struct standard_lookup *lookup, const char *id,
    const char *rule_id, const cJSON **rule)
{
	size_t low = 0, high = lookup->count, mid, i;

	*rule = NULL;
	/* The first entry whose id is not below id. */
	while (low < high) {
		mid = low + (high - low) / 2;
		if (strcmp(change_text(lookup->sorted[mid], "id"), id) < 0)
			low = mid + 1;
		else
			high = mid;
	}
	if (low == lookup->count ||
	    strcmp(change_text(lookup->sorted[low], "id"), id) != 0)
		return NULL;
	for (i = low; rule_id != NULL && i < lookup->count &&
	    strcmp(change_text(lookup->sorted[i], "id"), id) == 0; i++) {
		if ((*rule = rule_named(lookup->sorted[i], rule_id)) != NULL)
			return lookup->sorted[i];
	}
	return lookup->sorted[low];
}
