/*
 * wait (SPEC 12): a status answered once the action is decided, expires
 * or the wait times out.  A wait parks on its connection; the loop looks
 * again at it when a record names its action (serve_events.c) and when
 * its deadline or the action's expiry passes (programs_tick()).
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "programs.h"
#include "service.h"
#include "serve_internal.h"
#include "serve_programs_internal.h"

#define WAITS_PER_CONN 1024		/* under the per-account caps */

void
waiter_free(struct waiter *w)
{
	cJSON_Delete(w->id);
	free(w->action_id);
}

/* Answers wait i of c (timed out or not) and forgets it. */
static void
wait_answer(struct service *sv, struct conn *c, size_t i, cJSON *status,
    bool timed_out)
{
	struct program_conn *pc = c->programs;

	if (status != NULL) {
		if (timed_out)
			cJSON_AddBoolToObject(status, "timed_out", true);
		answer_result(c, pc->waits[i].id, status);
	}
	(void)sv;
	waiter_free(&pc->waits[i]);
	pc->waits[i] = pc->waits[--pc->wait_count];
}

/* Looks again at wait i: answered (and gone) unless still pending. */
bool
wait_recheck(struct service *sv, struct conn *c, size_t i, bool timed_out)
{
	struct waiter *w = &c->programs->waits[i];
	long long expires;
	cJSON *status = status_now(sv, c, w->id, w->action_id, &expires);

	if (status == NULL) {
		wait_answer(sv, c, i, NULL, false);	/* refused already */
		return true;
	}
	if (!timed_out && strcmp(program_state(status), "pending") == 0) {
		w->expires_at_ms = expires;
		cJSON_Delete(status);
		return false;
	}
	wait_answer(sv, c, i, status, timed_out &&
	    strcmp(program_state(status), "pending") == 0);
	return true;
}

void
call_wait(struct service *sv, struct conn *c, const cJSON *params,
    const cJSON *id)
{
	struct program_conn *pc;
	struct waiter *grown;
	long long timeout = 0, expires;
	char *action_id;
	cJSON *status;
	int rc;

	if (!params_known(c, id, params, "wait"))
		return;
	if ((rc = integer_param(c, id, params, "wait", "timeout_ms", 0,
	    WAIT_TIMEOUT_MAX_MS, &timeout)) < 0)
		return;
	if (rc == 0) {
		answer_refusal(c, id, "bad_request", NULL, "wait: params."
		    "timeout_ms is required (0 to %lld)", WAIT_TIMEOUT_MAX_MS);
		return;
	}
	if ((action_id = resolve_param(sv, c, id, params, "wait")) == NULL)
		return;
	if ((status = status_now(sv, c, id, action_id, &expires)) == NULL) {
		free(action_id);
		return;
	}
	if (strcmp(program_state(status), "pending") != 0 || timeout == 0) {
		if (strcmp(program_state(status), "pending") == 0)
			cJSON_AddBoolToObject(status, "timed_out", true);
		answer_result(c, id, status);
		free(action_id);
		return;
	}
	cJSON_Delete(status);
	if ((pc = conn_programs(c)) == NULL || pc->wait_count ==
	    WAITS_PER_CONN) {
		answer_refusal(c, id, "bad_request", NULL, "wait: at most %d "
		    "waits at once on one connection", WAITS_PER_CONN);
		free(action_id);
		return;
	}
	if (pc->wait_count == pc->wait_cap) {
		size_t cap = pc->wait_cap == 0 ? 8 : pc->wait_cap * 2;

		if ((grown = realloc(pc->waits, cap * sizeof *grown)) == NULL) {
			answer_refusal(c, id, "storage", NULL, "out of memory");
			free(action_id);
			return;
		}
		pc->waits = grown;
		pc->wait_cap = cap;
	}
	pc->waits[pc->wait_count++] = (struct waiter){ cJSON_Duplicate(id,
	    true), action_id, now_ms() + timeout, expires };
}
