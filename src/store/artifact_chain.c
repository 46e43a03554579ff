/*
 * The versions of an artifact as the lockout rule reads them (SPEC 2.4,
 * lockout.c), from the sets artifact.c keeps.  A pass over the queue
 * reads only the versions that answer its questions (reduced_chain),
 * through the locks and pull requests recorded when actions were
 * rejected; a single check and the detail view read every version, by
 * label; a decision those its answers and its record depend on (enum
 * artifact_reading).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "lockout.h"
#include "store_internal.h"
#include "artifact_internal.h"
#include "text.h"

/* Column i of the row as a string member, or null. */
static void
add_text(cJSON *version, const char *key, db_stmt *stmt, int i)
{
	const char *text = (const char *)db_column_text(stmt, i);

	if (text != NULL)
		cJSON_AddStringToObject(version, key, text);
	else
		cJSON_AddNullToObject(version, key);
}

/* Appends each row of stmt to chain as a version (VERSION_COLUMNS). */
static int
add_versions(struct store *s, db_stmt *stmt, cJSON *chain, struct error *err)
{
	const char *contributors;
	cJSON *version, *people;
	int rc;

	while ((rc = db_step(stmt)) == DB_ROW) {
		if ((version = cJSON_CreateObject()) == NULL ||
		    !cJSON_AddItemToArray(chain, version)) {
			cJSON_Delete(version);
			db_reset(stmt);
			return error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
		}
		add_text(version, "action_id", stmt, 0);
		add_text(version, "author", stmt, 1);
		contributors = (const char *)db_column_text(stmt, 5);
		people = contributors != NULL ? cJSON_Parse(contributors) :
		    NULL;
		if (people != NULL)
			cJSON_AddItemToObject(version, "contributors", people);
		else
			cJSON_AddArrayToObject(version, "contributors");
		add_text(version, "status", stmt, 2);
		add_text(version, "revision_of", stmt, 3);
		add_text(version, "artifact_id", stmt, 4);
		add_text(version, "reassign_to", stmt, 6);
		cJSON_AddBoolToObject(version, "escalate",
		    db_column_int(stmt, 7) != 0);
		add_text(version, "blocked_on", stmt, 8);
		add_text(version, "decided_by", stmt, 9);
		add_text(version, "expertise", stmt, 10);
		/* Only where there is one: records before v3 read the same. */
		if (db_column_text(stmt, 11) != NULL)
			add_text(version, "pr_url", stmt, 11);
	}
	db_reset(stmt);
	if (rc != DB_DONE)
		return store_error(s, err, "reading the versions of an artifact");
	return 0;
}

/*
 * Appends the versions statement which reads, given one text parameter,
 * or two (second not NULL).
 */
static int
read_versions(struct store *s, enum artifact_statement which,
    const char *first, const char *second, cJSON *chain, struct error *err)
{
	db_stmt *stmt;

	if ((stmt = artifact_statement(s, which, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, first, -1, DB_STATIC);
	if (second != NULL)
		db_bind_text(stmt, 2, second, -1, DB_STATIC);
	return add_versions(s, stmt, chain, err);
}

/* The versions a reduced chain holds, each once. */
struct witnesses {
	char **ids;
	size_t count;
	bool failed;
};

static void
witness_add(struct witnesses *w, const char *id)
{
	char **grown;
	size_t i;

	if (id == NULL || w->failed)
		return;
	for (i = 0; i < w->count; i++)
		if (strcmp(w->ids[i], id) == 0)
			return;
	if ((grown = realloc(w->ids, (w->count + 1) * sizeof *grown)) ==
	    NULL || (grown[w->count] = text_copy(id)) == NULL) {
		if (grown != NULL)
			w->ids = grown;
		w->failed = true;
		return;
	}
	w->ids = grown;
	w->count++;
}

static void
witnesses_free(struct witnesses *w)
{
	size_t i;

	for (i = 0; i < w->count; i++)
		free(w->ids[i]);
	free(w->ids);
}

/*
 * The first row of a statement of two text parameters, an action id, as
 * a witness.
 */
static int
find_witness(struct store *s, enum artifact_statement which, const char *one,
    const char *two, struct witnesses *w, struct error *err)
{
	db_stmt *stmt;
	int rc;

	if ((stmt = artifact_statement(s, which, err)) == NULL)
		return err->status;
	db_bind_text(stmt, 1, one, -1, DB_STATIC);
	db_bind_text(stmt, 2, two, -1, DB_STATIC);
	if ((rc = db_step(stmt)) == DB_ROW)
		witness_add(w, (const char *)db_column_text(stmt, 0));
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the versions of an artifact");
	return 0;
}

/* Whether the person by name is locked out of label (not by id itself). */
static int
find_lock(struct store *s, const char *label, const char *name,
    const char *id, struct witnesses *w, bool *found, struct error *err)
{
	db_stmt *stmt;
	char *key;
	int rc;

	*found = false;
	if ((key = lockout_name_key(name)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if ((stmt = artifact_statement(s, ART_LOCK_FIND, err)) == NULL) {
		free(key);
		return err->status;
	}
	db_bind_text(stmt, 1, label, -1, DB_STATIC);
	db_bind_text(stmt, 2, key, -1, DB_TRANSIENT);
	db_bind_text(stmt, 3, id, -1, DB_STATIC);
	free(key);
	if ((rc = db_step(stmt)) == DB_ROW) {
		witness_add(w, (const char *)db_column_text(stmt, 0));
		*found = true;
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading who is locked out");
	return 0;
}

/* Whether the chain holds the version id. */
static bool
in_chain(const cJSON *chain, const char *id)
{
	const cJSON *version;
	const char *other;

	cJSON_ArrayForEach(version, chain) {
		other = cJSON_GetStringValue(json_member(version, "action_id"));
		if (other != NULL && strcmp(other, id) == 0)
			return true;
	}
	return false;
}

/* Whether name is one of the people of action (the author or a contributor). */
static bool
person_of(const cJSON *action, const char *name)
{
	const cJSON *contributor;
	const cJSON *author = json_member(action, "author");
	bool same = cJSON_IsString(author) &&
	    text_same_name(author->valuestring, name);

	cJSON_ArrayForEach(contributor, json_member(action, "contributors")) {
		if (!same && cJSON_IsString(contributor))
			same = text_same_name(contributor->valuestring, name);
	}
	return same;
}

/*
 * The versions the links of this action ask about (lockout.c): the
 * revised version, the first approved sibling, a rejected version sharing
 * its artifact_id or pull request.
 */
static int
link_witnesses(struct store *s, const cJSON *packet, struct witnesses *w,
    struct error *err)
{
	const cJSON *action = json_member(packet, "proposed_action");
	const char *id = cJSON_GetStringValue(json_member(action,
	    "action_id"));
	const char *revised = cJSON_GetStringValue(json_member(action,
	    "revision_of"));
	const char *artifact_id = cJSON_GetStringValue(json_member(action,
	    "artifact_id"));
	const char *pr_url = lockout_pr_url(packet);
	int rc = 0;

	if (revised != NULL) {
		witness_add(w, revised);
		rc = find_witness(s, ART_SIBLING_APPROVED, revised, id, w, err);
	}
	if (rc == 0 && artifact_id != NULL)
		rc = find_witness(s, ART_ARTIFACT_ID_REJECTED, artifact_id, id,
		    w, err);
	if (rc == 0 && pr_url != NULL)
		rc = find_witness(s, ART_PR_FIND, pr_url, id, w, err);
	return rc;
}

/*
 * The versions that answer every question the lockout rule and the
 * queue's deadlock flag ask of this action (lockout.c), found by index:
 * those of link_witnesses(), one rejection locking out each of its
 * people, and, when every roster author is out, one locking out each of
 * them.  Their answers are the whole chain's: each is a version of the
 * artifact, and none is left out that would change one.
 */
static int
reduced_chain(struct store *s, const char *label, const cJSON *packet,
    bool rejected, const cJSON *roster, struct witnesses *w,
    struct error *err)
{
	const cJSON *action = json_member(packet, "proposed_action");
	const char *id = cJSON_GetStringValue(json_member(action,
	    "action_id"));
	const cJSON *person, *authors = json_member(roster, "authors");
	struct witnesses roster_out = { NULL, 0, false };
	bool found, all = true;
	size_t i;
	int rc;

	rc = link_witnesses(s, packet, w, err);
	person = json_member(action, "author");
	if (rc == 0 && cJSON_IsString(person))
		rc = find_lock(s, label, person->valuestring, id, w, &found,
		    err);
	cJSON_ArrayForEach(person, json_member(action, "contributors")) {
		if (rc == 0 && cJSON_IsString(person))
			rc = find_lock(s, label, person->valuestring, id, w,
			    &found, err);
	}
	/* Deadlocked only if every roster author is out; else no witness. */
	if (rc == 0 && cJSON_GetArraySize(authors) > 0) {
		cJSON_ArrayForEach(person, authors) {
			if (rc != 0 || !all)
				break;
			if (!cJSON_IsString(person) || (rejected &&
			    person_of(action, person->valuestring)))
				continue;
			rc = find_lock(s, label, person->valuestring, id,
			    &roster_out, &found, err);
			all = found;
		}
		for (i = 0; rc == 0 && all && i < roster_out.count; i++)
			witness_add(w, roster_out.ids[i]);
		if (roster_out.failed)
			w->failed = true;
	}
	witnesses_free(&roster_out);
	if (rc == 0 && w->failed)
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	return rc;
}

/*
 * A decision's reading: every version whose rejection locks people out,
 * in the order of the whole chain (the record's locked_out keeps the
 * first spelling of each name, as lockout_authors() meets them), then
 * those of link_witnesses() not among them.  lockout.c's answers over
 * the whole chain depend on no other version: the people locked out are
 * exactly those of these rejections.
 */
static int
decision_chain(struct store *s, const char *label, const cJSON *packet,
    const char *id, cJSON *chain, struct error *err)
{
	struct witnesses links = { NULL, 0, false };
	size_t i;
	int rc;

	if ((rc = read_versions(s, ART_LOCKING_VERSIONS, label, id, chain,
	    err)) != 0)
		return rc;
	rc = link_witnesses(s, packet, &links, err);
	if (rc == 0 && links.failed)
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	/* At most four links: each looked for in the chain so far. */
	for (i = 0; rc == 0 && i < links.count; i++) {
		if (strcmp(links.ids[i], id) != 0 &&
		    !in_chain(chain, links.ids[i]))
			rc = read_versions(s, ART_VERSION, links.ids[i], NULL,
			    chain, err);
	}
	witnesses_free(&links);
	return rc;
}

int
store_artifact_chain(struct store *s, const cJSON *packet, const char *status,
    enum artifact_reading reading, const cJSON *roster, cJSON **out,
    struct error *err)
{
	const cJSON *action = json_member(packet, "proposed_action");
	const char *id = cJSON_GetStringValue(json_member(action,
	    "action_id"));
	struct witnesses w = { NULL, 0, false };
	cJSON *chain = NULL;
	char *label = NULL;
	size_t i;
	int rc;

	*out = NULL;
	if (id == NULL || store_fresh_alone(s, id))
		return 0;
	if ((rc = artifact_label_of(s, id, &label, err)) != 0 || label == NULL)
		return rc;
	if ((chain = cJSON_CreateArray()) == NULL) {
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
		goto cleanup;
	}
	if (reading == ARTIFACT_FOR_DECISION) {
		rc = decision_chain(s, label, packet, id, chain, err);
		goto cleanup;
	}
	if (reading == ARTIFACT_EVERY_VERSION) {
		rc = read_versions(s, ART_VERSIONS, label, id, chain, err);
		goto cleanup;
	}
	if ((rc = reduced_chain(s, label, packet, status != NULL &&
	    strcmp(status, "rejected") == 0, roster, &w, err)) != 0)
		goto cleanup;
	for (i = 0; rc == 0 && i < w.count; i++) {
		if (strcmp(w.ids[i], id) != 0)
			rc = read_versions(s, ART_VERSION, w.ids[i], NULL,
			    chain, err);
	}
cleanup:
	witnesses_free(&w);
	free(label);
	/* A version alone, as before artifacts: no chain at all. */
	if (rc == 0 && cJSON_GetArraySize(chain) > 0)
		*out = chain;
	else
		cJSON_Delete(chain);
	return rc;
}
