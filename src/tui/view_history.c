/* History (decided actions and their audit records) and help: read-only pages. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "i18n.h"
#include "json_fields.h"
#include "tui.h"

#define HISTORY_MAX 500		/* the newest decisions shown */

struct history_ring {
	char *records[HISTORY_MAX];
	long long seqs[HISTORY_MAX];
	char hashes[HISTORY_MAX][65];
	size_t next;
	size_t count;
};

static int
collect(void *ctx, long long seq, const char *record, const char *prev,
    const char *hash)
{
	struct history_ring *ring = ctx;

	if (strstr(record, "\"event\":\"decision\"") == NULL)
		return 0;
	free(ring->records[ring->next]);
	ring->records[ring->next] = strdup(record);
	ring->seqs[ring->next] = seq;
	snprintf(ring->hashes[ring->next], sizeof ring->hashes[0], "%s", hash);
	ring->next = (ring->next + 1) % HISTORY_MAX;
	if (ring->count < HISTORY_MAX)
		ring->count++;
	return 0;
}

static const char *
text_of(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : "";
}

/*
 * A change held for a missing standard (SPEC 5 blocked_on): not a
 * send-back, so it says what it waits for, in the reviewer's words.
 */
static void
describe_blocked(struct detail *d, const cJSON *gaps)
{
	const cJSON *gap;

	if (cJSON_GetArraySize(gaps) == 0)
		detail_add(d, DETAIL_ALERT, "%s", _("    blocked: waiting for "
		    "a standard"));
	cJSON_ArrayForEach(gap, gaps)
		/* L10N: %s is the reviewer's description of the missing
		   standard */
		detail_add(d, DETAIL_ALERT, _("    blocked: waiting for a "
		    "standard: %s"), gap->valuestring);
}

static void
describe_record(struct detail *d, long long seq, const char *json,
    const char *hash)
{
	cJSON *record = cJSON_Parse(json);
	const cJSON *op = json_member(record, "operator");
	const cJSON *local = json_member(record, "local_verdict");
	cJSON *gaps;
	char *acks;

	if (record == NULL)
		return;
	detail_add(d, strcmp(text_of(record, "decision"), "approve") == 0 ?
	    DETAIL_HEADING : DETAIL_ALERT, strcmp(text_of(record, "decision"),
	    "approve") == 0 ?
	    /* L10N: a decision in the history: %1$lld the audit sequence
	       number, %2$s when (ISO 8601), %3$s the action id, %4$s the
	       officer's login */
	    _("#%lld %s APPROVED %s by %s") :
	    /* L10N: as above, for a rejection */
	    _("#%lld %s REJECTED %s by %s"), seq,
	    text_of(record, "decided_at"), text_of(record, "action_id"),
	    text_of(op, "login"));
	/* L10N: the reason recorded, or "(none)" */
	detail_add(d, DETAIL_PLAIN, _("    reason: %s"),
	    cJSON_IsString(json_member(record, "reason")) ?
	    /* L10N: in place of a reason when none was recorded */
	    text_of(record, "reason") : _("(none)"));
	if (decision_blocked(record, &gaps))
		describe_blocked(d, gaps);
	cJSON_Delete(gaps);
	acks = cJSON_PrintUnformatted(json_member(record, "acknowledged"));
	/* L10N: %1$s the local verdict ("pass" or "FAIL"), %2$d how many
	   divergences, %3$s a JSON list of what was acknowledged
	   (high_stakes, divergence: not translated), %4$.16s the start of
	   the record's hash */
	detail_add(d, DETAIL_DIM, _("    local %s \xc2\xb7 %d divergence(s) "
	    "\xc2\xb7 acknowledged %s \xc2\xb7 hash %.16s\xe2\x80\xa6"),
	    cJSON_IsTrue(json_member(local, "overall_pass")) ? _("pass") :
	    _("FAIL"),
	    cJSON_GetArraySize(json_member(record, "divergence")),
	    acks ? acks : "[]", hash);
	cJSON_free(acks);
	cJSON_Delete(record);
}

void
history_open(struct tui *t)
{
	struct history_ring *ring = calloc(1, sizeof *ring);
	struct error err;
	size_t i, at;

	detail_free(&t->history);
	memset(&t->history_at, 0, sizeof t->history_at);
	t->view = VIEW_HISTORY;
	if (ring == NULL)
		return;
	detail_add(&t->history, DETAIL_HEADING, "%s", _("HISTORY: decisions, "
	    "newest first, from the audit log"));
	if (store_audit_each(t->store, collect, ring, &err) != 0)
		tui_notice(t, "%s", err.message);
	for (i = 0; i < ring->count; i++) {
		at = (ring->next + HISTORY_MAX - 1 - i) % HISTORY_MAX;
		describe_record(&t->history, ring->seqs[at], ring->records[at],
		    ring->hashes[at]);
	}
	if (ring->count == 0)
		detail_add(&t->history, DETAIL_PLAIN, "%s",
		    _("No decision has been recorded yet."));
	for (i = 0; i < HISTORY_MAX; i++)
		free(ring->records[i]);
	free(ring);
}

void
help_open(struct tui *t)
{
	detail_free(&t->history);
	memset(&t->history_at, 0, sizeof t->history_at);
	detail_add(&t->history, DETAIL_HEADING, "%s", _("countersign: keys"));
	keys_help(t, &t->history);
	t->view = VIEW_HELP;
}

void
history_draw(struct tui *t)
{
	/* L10N: the keys of the history and help pages: j, k, Space and q
	   stay whatever the language */
	page_draw(t, &t->history, &t->history_at, _("j/k scroll  "
	    "Space page  q back"));
}
