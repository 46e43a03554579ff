/*
 * The quorum of an action (SPEC 14), as the gate counts it and the
 * screens show it: the active policies matched against the action and
 * its re-check of this moment, and the approvals it has so far.
 */
#include "config.h"

#include <string.h>

#include "commands.h"
#include "quorum.h"
#include "text.h"

int
quorum_view_load(struct store *store, const char *action_id,
    const struct recheck *rc, struct quorum_view *q, struct error *err)
{
	cJSON *policies = NULL;
	int status;

	memset(q, 0, sizeof *q);
	q->needed = 1;
	if ((status = store_approval_policies(store, &policies, err)) != 0)
		return status;
	q->needed = quorum_needed(policies, rc->outcome.pack->kind,
	    rc->data.input.action, rc->outcome.verdict.requires_human_approval);
	cJSON_Delete(policies);
	return store_approvals_of(store, action_id, &q->approvals, &q->count,
	    err);
}

void
quorum_view_free(struct quorum_view *q)
{
	store_approvals_free(q->approvals, q->count);
	memset(q, 0, sizeof *q);
}

const struct approval_row *
quorum_view_by(const struct quorum_view *q, const char *login)
{
	size_t i;

	for (i = 0; i < q->count; i++)
		if (text_same_name(q->approvals[i].operator_login, login))
			return &q->approvals[i];
	return NULL;
}
