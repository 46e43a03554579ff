/*
 * Author lockout over the whole artifact (SPEC 2.4).  The artifact is
 * every version reachable from the action by revision_of, in either
 * direction, and every version sharing an artifact_id with one of them:
 * the store walks it (store_queries.c) and hands it over as
 * check_input.revision_chain, every version but the action itself.
 * Names are compared as a reader sees them (text_same_name()), through
 * keys computed once per name: a roster can hold 10,000.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "lockout.h"
#include "text.h"
#include "unicode_text.h"

static const char rule_id[] = "author_lockout";
static const char rule_description[] =
    "Author is not locked out of this revision";

static const char *
string_of(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

static bool
is_status(const cJSON *version, const char *status)
{
	const char *s = string_of(version, "status");

	return s != NULL && strcmp(s, status) == 0;
}

/*
 * A rejection that locks out its people: one held for a missing standard
 * (blocked_on) locks out nobody.
 */
static bool
locks_out(const cJSON *version)
{
	return is_status(version, "rejected") &&
	    string_of(version, "blocked_on") == NULL;
}

static const cJSON *
find_version(const cJSON *chain, const char *action_id)
{
	const cJSON *version;
	const char *id;

	cJSON_ArrayForEach(version, chain) {
		if ((id = string_of(version, "action_id")) != NULL &&
		    strcmp(id, action_id) == 0)
			return version;
	}
	return NULL;
}

/* Names, each with its key, without two of one key. */
struct name_set {
	const char **names;
	char **keys;
	size_t count, size;
	bool failed;
};

/* The key of a name; should ICU fail, the name as spelt. */
char *
lockout_name_key(const char *name)
{
	char *key = unicode_name_key(name);

	return key != NULL ? key : text_copy(name);
}

static bool
set_has_key(const struct name_set *set, const char *key)
{
	size_t i;

	for (i = 0; i < set->count; i++) {
		if (strcmp(set->keys[i], key) == 0)
			return true;
	}
	return false;
}

static bool
set_has(const struct name_set *set, const char *name)
{
	char *key;
	bool found;

	if (name == NULL || (key = lockout_name_key(name)) == NULL)
		return false;
	found = set_has_key(set, key);
	free(key);
	return found;
}

static void
set_add(struct name_set *set, const char *name)
{
	const char **names;
	char *key, **keys;
	size_t size;

	if (name == NULL)
		return;
	if ((key = lockout_name_key(name)) == NULL) {
		set->failed = true;
		return;
	}
	if (set_has_key(set, key)) {
		free(key);
		return;
	}
	if (set->count == set->size) {
		size = set->size ? set->size * 2 : 8;
		names = realloc(set->names, size * sizeof *names);
		if (names != NULL)
			set->names = names;
		keys = realloc(set->keys, size * sizeof *keys);
		if (keys != NULL)
			set->keys = keys;
		if (names == NULL || keys == NULL) {
			free(key);
			set->failed = true;
			return;
		}
		set->size = size;
	}
	set->names[set->count] = name;
	set->keys[set->count++] = key;
}

static void
set_free(struct name_set *set)
{
	size_t i;

	for (i = 0; i < set->count; i++)
		free(set->keys[i]);
	free(set->keys);
	free(set->names);
	memset(set, 0, sizeof *set);
}

/* The people of a version (SPEC 2.4): its author and contributors. */
static void
set_add_people(struct name_set *set, const cJSON *version)
{
	const cJSON *contributor;

	set_add(set, string_of(version, "author"));
	cJSON_ArrayForEach(contributor, json_member(version, "contributors")) {
		if (cJSON_IsString(contributor))
			set_add(set, contributor->valuestring);
	}
}

/* The people of every rejected version, and of the action when it is. */
static void
locked_set(const struct check_input *in, bool this_rejected,
    struct name_set *set)
{
	const cJSON *version;

	memset(set, 0, sizeof *set);
	cJSON_ArrayForEach(version, in->revision_chain) {
		if (locks_out(version))
			set_add_people(set, version);
	}
	if (this_rejected)
		set_add_people(set, in->action);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

cJSON *
lockout_authors(const struct check_input *in, bool this_rejected)
{
	struct name_set set;
	cJSON *out;
	size_t i;

	locked_set(in, this_rejected, &set);
	/* Sorted, so the set reads the same in every record. */
	if (set.count > 1)
		qsort(set.names, set.count, sizeof *set.names, compare_names);
	out = set.failed ? NULL : cJSON_CreateArray();
	for (i = 0; out != NULL && i < set.count; i++) {
		if (!cJSON_AddItemToArray(out,
		    cJSON_CreateString(set.names[i]))) {
			cJSON_Delete(out);
			out = NULL;
		}
	}
	set_free(&set);
	return out;
}

const char *
lockout_pr_url(const cJSON *packet)
{
	const char *kind = string_of(packet, "kind");
	const char *url = string_of(json_member(packet, "proposed_action"),
	    "pr_url");

	return kind != NULL && strcmp(kind, "change") == 0 && url != NULL &&
	    *url != '\0' ? url : NULL;
}

/* A version of the chain with this key's value that was rejected. */
static bool
rejected_sharing(const struct check_input *in, const char *key,
    const char *value)
{
	const cJSON *version;
	const char *other;

	if (value == NULL)
		return false;
	cJSON_ArrayForEach(version, in->revision_chain) {
		other = string_of(version, key);
		if (other != NULL && strcmp(other, value) == 0 &&
		    is_status(version, "rejected"))
			return true;
	}
	return false;
}

/*
 * The rule is present for a declared revision and for an undeclared
 * version of an artifact that already had a rejection: one sharing its
 * artifact_id (SPEC 2.4 v2) or, for a change, its pull request (v3).
 */
static bool
rule_applies(const struct check_input *in)
{
	if (string_of(in->action, "revision_of") != NULL)
		return true;
	return rejected_sharing(in, "artifact_id",
	    string_of(in->action, "artifact_id")) ||
	    rejected_sharing(in, "pr_url", lockout_pr_url(in->packet));
}

/* The first person of the action who is locked out, or NULL. */
static const char *
locked_person(const struct check_input *in, const struct name_set *locked)
{
	const cJSON *contributor;
	const char *author = string_of(in->action, "author");

	if (set_has(locked, author))
		return author;
	cJSON_ArrayForEach(contributor,
	    json_member(in->action, "contributors")) {
		if (cJSON_IsString(contributor) &&
		    set_has(locked, contributor->valuestring))
			return contributor->valuestring;
	}
	return NULL;
}

/* Another revision of the same rejected action, already approved. */
static const char *
approved_sibling(const struct check_input *in, const char *revised)
{
	const cJSON *version;
	const char *of;

	cJSON_ArrayForEach(version, in->revision_chain) {
		of = string_of(version, "revision_of");
		if (of != NULL && strcmp(of, revised) == 0 &&
		    is_status(version, "approved"))
			return string_of(version, "action_id");
	}
	return NULL;
}

/* The checks on the revised action itself; 1 when the rule failed. */
static int
revised_action_fails(const struct check_input *in, const char *revised,
    struct verdict *v, int *rc)
{
	const cJSON *previous = find_version(in->revision_chain, revised);
	const char *status, *reassigned, *author, *sibling;

	author = string_of(in->action, "author");
	if (previous == NULL) {
		*rc = verdict_add_rule(v, rule_id, rule_description, false,
		    "the revised action %s does not exist", revised);
		return 1;
	}
	status = string_of(previous, "status");
	if (status == NULL || strcmp(status, "rejected") != 0) {
		*rc = verdict_add_rule(v, rule_id, rule_description, false,
		    "the revised action %s was not rejected (it is %s)",
		    revised, status ? status : "unknown");
		return 1;
	}
	reassigned = string_of(previous, "reassign_to");
	if (author != NULL && reassigned != NULL &&
	    !text_same_name(reassigned, author)) {
		*rc = verdict_add_rule(v, rule_id, rule_description, false,
		    "the rejection of %s reassigned the revision to %s, not %s",
		    revised, reassigned, author);
		return 1;
	}
	if ((sibling = approved_sibling(in, revised)) != NULL) {
		*rc = verdict_add_rule(v, rule_id, rule_description, false,
		    "%s, another revision of %s, was already approved: one "
		    "next version per rejection", sibling, revised);
		return 1;
	}
	return 0;
}

int
lockout_rule(const struct check_input *in, struct verdict *v)
{
	const char *revised = string_of(in->action, "revision_of");
	const char *author = string_of(in->action, "author");
	const char *person;
	struct name_set locked;
	int rc = 0;

	if (!rule_applies(in))
		return 0;
	if (revised != NULL && revised_action_fails(in, revised, v, &rc))
		return rc;
	if (author == NULL)
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "the revision names no author, so the lockout cannot be "
		    "checked");
	locked_set(in, false, &locked);
	if (locked.failed) {
		set_free(&locked);
		return -1;
	}
	person = locked_person(in, &locked);
	set_free(&locked);
	if (person != NULL)
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "%s wrote or contributed to a rejected version of this "
		    "artifact and is locked out of its later versions, in any "
		    "role", person);
	if (revised != NULL)
		return verdict_add_rule(v, rule_id, rule_description, true,
		    "%s may revise %s", author, revised);
	if (string_of(in->action, "artifact_id") == NULL)
		return verdict_add_rule(v, rule_id, rule_description, true,
		    "%s may write a version of pull request %s", author,
		    lockout_pr_url(in->packet));
	return verdict_add_rule(v, rule_id, rule_description, true,
	    "%s may write a version of artifact %s", author,
	    string_of(in->action, "artifact_id"));
}

/* Whether name is on the roster, compared as read. */
static bool
on_roster(const cJSON *roster, const char *name)
{
	const cJSON *author;
	char *key = lockout_name_key(name), *other;
	bool found = false;

	cJSON_ArrayForEach(author, json_member(roster, "authors")) {
		if (found || key == NULL || !cJSON_IsString(author))
			continue;
		if ((other = lockout_name_key(author->valuestring)) != NULL)
			found = strcmp(key, other) == 0;
		free(other);
	}
	free(key);
	return found;
}

bool
lockout_may_reassign(const struct check_input *in, const char *author,
    const char **why)
{
	struct name_set locked;
	bool locked_out;

	locked_set(in, true, &locked);
	/* Out of memory: not shown to be free, so not free. */
	locked_out = locked.failed || set_has(&locked, author);
	set_free(&locked);
	if (locked_out) {
		*why = "is locked out of the next version";
		return false;
	}
	if (in->roster != NULL && !on_roster(in->roster, author)) {
		*why = "is not on the roster of eligible authors";
		return false;
	}
	return true;
}

bool
lockout_deadlocked(const struct check_input *in, bool this_rejected)
{
	const cJSON *authors = json_member(in->roster, "authors"), *author;
	struct name_set locked;
	bool all = true;

	if (in->roster == NULL || cJSON_GetArraySize(authors) == 0)
		return false;
	locked_set(in, this_rejected, &locked);
	/* Nothing rejected yet (the common case): nobody is out. */
	if (locked.count == 0)
		all = false;
	cJSON_ArrayForEach(author, authors) {
		if (!all)
			break;
		if (cJSON_IsString(author) &&
		    !set_has(&locked, author->valuestring))
			all = false;
	}
	set_free(&locked);
	return all;
}
