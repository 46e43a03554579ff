/* countersign check [ACTION_ID...]: SPEC 3 JSON lines; exit 1 if any fails. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_strict.h"

struct check_run {
	struct store *store;
	long long now_ms;
	int status;
	struct error *err;
};

/* Prints the SPEC 3 line of one re-check. */
static int
check_print(struct check_run *run, const struct recheck *r)
{
	char *text;

	text = check_outcome_text(&r->outcome);
	if (text != NULL)
		printf("%s\n", text);
	if (!r->outcome.verdict.overall_pass && run->status == EXIT_OK)
		run->status = EXIT_REFUSED;
	free(text);
	return text == NULL ? error_set(run->err, EXIT_STORAGE, NULL,
	    _("out of memory")) : 0;
}

static int
check_each(void *ctx, struct recheck *r)
{
	return check_print(ctx, r);
}

static int
check_named(struct check_run *run, const char *action_id)
{
	struct recheck r;
	int rc;

	rc = recheck_action(run->store, action_id, run->now_ms, NULL, &r,
	    run->err);
	if (rc == EXIT_REFUSED) {
		/* An unknown action named on the command line: say so, go on. */
		report_error(run->err);
		run->status = EXIT_REFUSED;
		return 0;
	}
	if (rc != 0)
		return rc;
	rc = check_print(run, &r);
	recheck_free(&r);
	return rc;
}

int
cmd_check(const struct invocation *inv)
{
	struct check_run run;
	struct store *store;
	struct error err;
	char **ids = NULL;
	int rc = 0, i, resolved = 0;

	error_clear(&err);
	if ((rc = open_store(inv, STORE_EXISTING, &store, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	run = (struct check_run){ store, timestamp_now(), EXIT_OK, &err };
	stdout_for_many_lines();
	/* A read-only pass: parse each user's policy once, not per action. */
	store_cache_policy(store, true);
	/*
	 * Every named id resolved before any line is printed: an ambiguous
	 * prefix (SPEC 7) is a usage error, not half a run.
	 */
	if (inv->operand_count > 0 &&
	    (ids = calloc((size_t)inv->operand_count, sizeof *ids)) == NULL)
		rc = error_set(&err, EXIT_STORAGE, NULL, _("out of memory"));
	for (; rc == 0 && resolved < inv->operand_count; resolved++)
		rc = store_resolve_action_id(store, inv->operands[resolved],
		    &ids[resolved], &err);
	if (rc == 0 && inv->operand_count == 0)
		rc = recheck_each(store, false, run.now_ms, check_each, &run, &err);
	for (i = 0; rc == 0 && i < inv->operand_count; i++)
		rc = check_named(&run, ids[i]);
	for (i = 0; i < resolved; i++)
		free(ids[i]);
	free(ids);
	store_close(store);
	if (rc == 0)
		rc = stdout_finish(&err);
	if (rc != 0) {
		report_error(&err);
		return rc;
	}
	return run.status;
}
