/*
 * Author lockout along a revision chain (SPEC 2.4).  Author names are
 * compared ignoring ASCII case, as names are in SPEC 2.1: "Drafter" must
 * not slip past a lockout of "drafter", nor be refused as a reassignee
 * spelt differently from the roster.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "lockout.h"
#include "text.h"

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
contains(const cJSON *array, const char *text)
{
	const cJSON *item;

	if (text == NULL)
		return false;
	cJSON_ArrayForEach(item, array) {
		if (cJSON_IsString(item) &&
		    text_same_name(item->valuestring, text))
			return true;
	}
	return false;
}

static int
compare_items(const void *a, const void *b)
{
	return strcmp((*(cJSON *const *)a)->valuestring,
	    (*(cJSON *const *)b)->valuestring);
}

/* Sorted, so the set reads the same in every record. */
static cJSON *
sorted(cJSON *array)
{
	int n = cJSON_GetArraySize(array), i;
	cJSON **items, *out;

	if (n < 2)
		return array;
	items = malloc((size_t)n * sizeof *items);
	out = cJSON_CreateArray();
	if (items == NULL || out == NULL) {
		free(items);
		cJSON_Delete(out);
		return array;
	}
	for (i = 0; i < n; i++)
		items[i] = cJSON_GetArrayItem(array, i);
	qsort(items, (size_t)n, sizeof *items, compare_items);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(out, cJSON_CreateString(items[i]->valuestring));
	free(items);
	cJSON_Delete(array);
	return out;
}

cJSON *
lockout_authors(const struct check_input *in, bool this_rejected)
{
	cJSON *set = cJSON_CreateArray();
	const cJSON *version;
	const char *author, *status;

	if (set == NULL)
		return NULL;
	cJSON_ArrayForEach(version, in->revision_chain) {
		author = string_of(version, "author");
		status = string_of(version, "status");
		if (author != NULL && status != NULL &&
		    strcmp(status, "rejected") == 0 && !contains(set, author))
			cJSON_AddItemToArray(set, cJSON_CreateString(author));
	}
	author = string_of(in->action, "author");
	if (this_rejected && author != NULL && !contains(set, author))
		cJSON_AddItemToArray(set, cJSON_CreateString(author));
	return sorted(set);
}

int
lockout_rule(const struct check_input *in, struct verdict *v)
{
	const char *revised = string_of(in->action, "revision_of");
	const char *author = string_of(in->action, "author");
	const cJSON *previous = cJSON_GetArrayItem(in->revision_chain, 0);
	const char *status, *reassigned;
	cJSON *locked;
	int rc;

	if (revised == NULL)
		return 0;
	if (previous == NULL || strcmp(string_of(previous, "action_id") ?
	    string_of(previous, "action_id") : "", revised) != 0)
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "the revised action %s does not exist", revised);
	status = string_of(previous, "status");
	if (status == NULL || strcmp(status, "rejected") != 0)
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "the revised action %s was not rejected (it is %s)",
		    revised, status ? status : "unknown");
	if (author == NULL)
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "the revision names no author, so the lockout cannot be "
		    "checked");
	if ((locked = lockout_authors(in, false)) == NULL)
		return -1;
	if (contains(locked, author)) {
		cJSON_Delete(locked);
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "%s wrote a rejected version of this action and is locked "
		    "out of its revisions", author);
	}
	cJSON_Delete(locked);
	reassigned = string_of(previous, "reassign_to");
	if (reassigned != NULL && !text_same_name(reassigned, author))
		return verdict_add_rule(v, rule_id, rule_description, false,
		    "the rejection of %s reassigned the revision to %s, not %s",
		    revised, reassigned, author);
	rc = verdict_add_rule(v, rule_id, rule_description, true,
	    "%s may revise %s", author, revised);
	return rc;
}

bool
lockout_may_reassign(const struct check_input *in, const char *author,
    const char **why)
{
	const cJSON *authors = json_member(in->roster, "authors");
	cJSON *locked = lockout_authors(in, true);
	bool locked_out = contains(locked, author);

	cJSON_Delete(locked);
	if (locked_out) {
		*why = "is locked out of the next version";
		return false;
	}
	if (in->roster != NULL && !contains(authors, author)) {
		*why = "is not on the roster of eligible authors";
		return false;
	}
	return true;
}

bool
lockout_deadlocked(const struct check_input *in, bool this_rejected)
{
	const cJSON *authors = json_member(in->roster, "authors"), *author;
	cJSON *locked;
	bool all = true;

	if (in->roster == NULL || cJSON_GetArraySize(authors) == 0)
		return false;
	if ((locked = lockout_authors(in, this_rejected)) == NULL)
		return false;
	/* One author still free answers it: a 10,000-name roster is not read. */
	cJSON_ArrayForEach(author, authors) {
		if (!contains(locked, author->valuestring)) {
			all = false;
			break;
		}
	}
	cJSON_Delete(locked);
	return all;
}
