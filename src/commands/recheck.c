/* The one re-check every command and view runs: load, then evaluate. */
#include "config.h"

#include <string.h>

#include "commands.h"
#include "exit_codes.h"

/*
 * The judgments recorded, then the officer's for criteria not judged
 * yet: a criterion judged twice keeps its first judgment (SPEC 2.3).
 * A different later one is the gate's to refuse (po_judgment_conflict).
 */
static cJSON *
judgments_union(const cJSON *recorded, const cJSON *given)
{
	cJSON *all = recorded != NULL ? cJSON_Duplicate(recorded, 1) :
	    cJSON_CreateObject();
	const cJSON *item;
	cJSON *copy;

	if (all == NULL)
		return NULL;
	cJSON_ArrayForEach(item, given) {
		if (item->string == NULL ||
		    cJSON_GetObjectItemCaseSensitive(all, item->string) != NULL)
			continue;
		if ((copy = cJSON_Duplicate(item, 1)) == NULL) {
			cJSON_Delete(all);
			return NULL;
		}
		cJSON_AddItemToObject(all, item->string, copy);
	}
	return all;
}

/* The re-check, its action loaded by load (a reading of the artifact). */
static int
recheck_loaded_by(int (*load)(struct store *, const char *, long long,
    struct check_data *, struct error *), struct store *store,
    const char *action_id, long long now_ms, const cJSON *po_judgments,
    struct recheck *r, struct error *err)
{
	int rc;

	memset(r, 0, sizeof *r);
	if ((rc = load(store, action_id, now_ms, &r->data, err)) != 0)
		return rc;
	if (po_judgments != NULL) {
		r->judgments_counted = judgments_union(r->data.judgments,
		    po_judgments);
		if (r->judgments_counted == NULL) {
			check_data_free(&r->data);
			return error_set(err, EXIT_STORAGE, NULL,
			    "out of memory");
		}
		r->data.input.po_judgments = r->judgments_counted;
	}
	if ((rc = check_run(&r->data.input, &r->outcome, err)) != 0) {
		cJSON_Delete(r->judgments_counted);
		check_data_free(&r->data);
		return rc;
	}
	return 0;
}

int
recheck_action(struct store *store, const char *action_id, long long now_ms,
    const cJSON *po_judgments, struct recheck *r, struct error *err)
{
	return recheck_loaded_by(store_load_check, store, action_id, now_ms,
	    po_judgments, r, err);
}

int
recheck_for_decision(struct store *store, const char *action_id,
    long long now_ms, const cJSON *po_judgments, struct recheck *r,
    struct error *err)
{
	return recheck_loaded_by(store_load_decision_check, store, action_id,
	    now_ms, po_judgments, r, err);
}

void
recheck_free(struct recheck *r)
{
	check_outcome_free(&r->outcome);
	check_data_free(&r->data);
	cJSON_Delete(r->judgments_counted);
	r->judgments_counted = NULL;
}

struct recheck_pass {
	int (*fn)(void *, struct recheck *);
	void *ctx;
	struct error *err;
};

static int
recheck_loaded(void *ctx, struct check_data *d)
{
	struct recheck_pass *pass = ctx;
	struct recheck r;
	int rc;

	memset(&r, 0, sizeof r);
	/* Lent for the call: the store frees d's trees afterwards. */
	r.data = *d;
	if ((rc = check_run(&d->input, &r.outcome, pass->err)) != 0)
		return rc;
	rc = pass->fn(pass->ctx, &r);
	check_outcome_free(&r.outcome);
	return rc;
}

int
recheck_each(struct store *store, bool all, long long now_ms,
    int (*fn)(void *ctx, struct recheck *), void *ctx, struct error *err)
{
	struct recheck_pass pass = { fn, ctx, err };

	return store_each_check(store, all, now_ms, recheck_loaded, &pass,
	    err);
}
