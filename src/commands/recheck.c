/* The one re-check every command and view runs: load, then evaluate. */
#include "config.h"

#include <string.h>

#include "commands.h"

int
recheck_action(struct store *store, const char *action_id, long long now_ms,
    const cJSON *po_judgments, struct recheck *r, struct error *err)
{
	int rc;

	memset(r, 0, sizeof *r);
	if ((rc = store_load_check(store, action_id, now_ms, &r->data,
	    err)) != 0)
		return rc;
	r->data.input.po_judgments = po_judgments;
	if ((rc = check_run(&r->data.input, &r->outcome, err)) != 0) {
		check_data_free(&r->data);
		return rc;
	}
	return 0;
}

void
recheck_free(struct recheck *r)
{
	check_outcome_free(&r->outcome);
	check_data_free(&r->data);
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
