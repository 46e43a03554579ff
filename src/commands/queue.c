/* One row of the queue: what an officer scans before opening an action. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json_fields.h"
#include "sanitize.h"

int
queue_row_build(struct store *store, const char *action_id, long long now_ms,
    struct queue_row *row, struct error *err)
{
	const struct rule_pack *pack;
	const cJSON *action;
	struct recheck r;
	const char *who;
	char summary[512];
	int rc;

	memset(row, 0, sizeof *row);
	if ((rc = recheck_action(store, action_id, now_ms, &r, err)) != 0)
		return rc;
	pack = r.outcome.pack;
	action = r.data.input.action;
	snprintf(row->action_id, sizeof row->action_id, "%s", action_id);
	snprintf(row->kind, sizeof row->kind, "%s", pack->kind);
	snprintf(row->status, sizeof row->status, "%s", r.data.status);
	who = pack->who(action);
	if (who == NULL && cJSON_IsString(json_member(action, "author")))
		who = json_member(action, "author")->valuestring;
	pack->summarize(action, summary, sizeof summary);
	row->who = sanitize_str(who ? who : "");
	row->summary = sanitize_str(summary);
	row->high_stakes = r.outcome.verdict.requires_human_approval;
	row->local_fail = !r.outcome.verdict.overall_pass;
	row->divergence_count = (size_t)cJSON_GetArraySize(r.outcome.divergence);
	row->divergent = row->divergence_count > 0;
	row->expired = r.data.has_expiry && r.data.expires_at_ms < now_ms;
	row->advisory = r.outcome.advisory.state != ADVISORY_AVAILABLE ? "n/a" :
	    r.outcome.advisory.overall_pass ? "pass" : "fail";
	row->imported_at_ms = r.data.imported_at_ms;
	recheck_free(&r);
	if (row->who == NULL || row->summary == NULL) {
		queue_row_free(row);
		return error_set(err, 4, NULL, "out of memory");
	}
	return 0;
}

void
queue_row_free(struct queue_row *row)
{
	free(row->who);
	free(row->summary);
	row->who = row->summary = NULL;
}
