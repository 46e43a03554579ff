/*
 * History (decided actions and their audit records) and help: read-only
 * pages.  History is a list: the selected decision opens (Enter) as its
 * whole record, routing, judgments, acknowledgements and bulk included,
 * and / narrows the list to the decisions that mention a text.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decision.h"
#include "i18n.h"
#include "json_fields.h"
#include "json_strict.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"

/*
 * Records held at a time: a window onto the store's history around the
 * selection, read again when the selection leaves it.  The history is
 * the whole audit log, however long; only this much of it is in memory.
 */
#define HISTORY_WINDOW 200

struct history_entry {
	long long seq;
	char *record;			/* the audit record's JSON */
	char hash[65];
};

struct history_list {
	struct history_entry entries[HISTORY_WINDOW];	/* newest first */
	long window;			/* the place of entries[0], 0 newest */
	long count;			/* entries held */
	bool stale;			/* read the window again */
	long total;			/* decisions shown (the search keeps) */
	long all;			/* decisions in the audit log */
	long first_line[HISTORY_WINDOW];	/* each entry's line on the page */
	long cursor;			/* among those shown, 0 the newest */
	char filter[128];
	/* l: the queue's SPEC 7 filter, over the decided actions. */
	char limit_text[256];
	struct filter limit;
	long long now_ms;
};

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
describe_blocked(struct detail *d, const cJSON *record)
{
	const cJSON *gap;
	cJSON *gaps;

	if (!decision_blocked(record, &gaps)) {
		cJSON_Delete(gaps);
		return;
	}
	if (cJSON_GetArraySize(gaps) == 0)
		detail_add(d, DETAIL_ALERT, "%s", _("    blocked: waiting for "
		    "a standard"));
	cJSON_ArrayForEach(gap, gaps)
		/* L10N: %s is the reviewer's description of the missing
		   standard */
		detail_add(d, DETAIL_ALERT, _("    blocked: waiting for a "
		    "standard: %s"), gap->valuestring);
	cJSON_Delete(gaps);
}

/* The reason a decision's record gives, or that it gives none. */
static const char *
recorded_reason(const cJSON *record)
{
	return cJSON_IsString(json_member(record, "reason")) ?
	    text_of(record, "reason") :
	    /* L10N: in place of a reason when none was recorded */
	    _("(none)");
}

/* The fields / searches: who, what, when, why, and the bulk. */
static char *
searched_text(const char *json)
{
	cJSON *record = cJSON_Parse(json);
	char *text, *p;

	if (record == NULL)
		return text_copy("");
	text = text_printf("%s %s %s %s %s %s %s", text_of(record, "action_id"),
	    text_of(record, "kind"), text_of(record, "decision"),
	    text_of(record, "reason"), text_of(json_member(record, "operator"),
	    "login"), text_of(record, "decided_at"),
	    text_of(json_member(record, "bulk"), "id"));
	cJSON_Delete(record);
	for (p = text; p != NULL && *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return text;
}

/* Whether a record mentions what / looks for. */
static bool
mentions(const struct history_list *h, const char *record)
{
	char *searched = searched_text(record);
	bool found = strstr(searched, h->filter) != NULL;

	free(searched);
	return found;
}

/*
 * Whether the limit holds for a decided action: the queue's filter over
 * what its record and packet say (flags from the record: x it failed
 * locally, ! it diverged, H high stakes); decided, so expires< never.
 */
static bool
limited_to(const struct history_list *h, const char *record_json,
    const char *packet_json)
{
	cJSON *record = cJSON_Parse(record_json);
	cJSON *packet = cJSON_Parse(packet_json);
	const cJSON *action = json_member(packet, "proposed_action");
	struct queue_row row;
	struct filter_subject subject;
	char flags[FILTER_FLAGS_SIZE];
	bool holds;

	memset(&row, 0, sizeof row);
	snprintf(row.action_id, sizeof row.action_id, "%s",
	    text_of(record, "action_id"));
	snprintf(row.kind, sizeof row.kind, "%s", text_of(record, "kind"));
	snprintf(row.status, sizeof row.status, "%s", "decided");
	row.requester = (char *)text_of(action, "requested_by");
	row.author = (char *)text_of(action, "author");
	row.summary = (char *)"";
	row.high_stakes = cJSON_IsTrue(json_member(record,
	    "requires_human_approval"));
	row.local_fail = !cJSON_IsTrue(json_member(json_member(record,
	    "local_verdict"), "overall_pass"));
	row.divergent = cJSON_GetArraySize(json_member(record,
	    "divergence")) > 0;
	filter_subject_of(&row, action, flags, &subject);
	holds = record != NULL && filter_matches(&h->limit, &subject,
	    h->now_ms);
	cJSON_Delete(packet);
	cJSON_Delete(record);
	return holds;
}

/* The store's keep: the search's text and the limit both hold. */
static bool
kept(void *ctx, const char *record, const char *packet)
{
	struct history_list *h = ctx;

	return (h->filter[0] == '\0' || mentions(h, record)) &&
	    (h->limit.count == 0 || limited_to(h, record, packet));
}

static void
entries_free(struct history_list *h)
{
	long i;

	for (i = 0; i < h->count; i++) {
		free(h->entries[i].record);
		h->entries[i].record = NULL;
	}
	h->count = 0;
}

static int
collect(void *ctx, long long seq, const char *record, const char *hash)
{
	struct history_list *h = ctx;
	struct history_entry *e;

	if (h->count >= HISTORY_WINDOW)
		return 0;
	e = &h->entries[h->count++];
	e->record = text_copy(record);
	e->seq = seq;
	snprintf(e->hash, sizeof e->hash, "%s", hash);
	return 0;
}

/*
 * The window around the cursor, from the store: the whole log counted
 * (and searched, in the store) each time, so the figures stay true.
 */
static void
window_load(struct tui *t)
{
	struct history_list *h = t->history_list;
	struct error err;
	bool searching = h->filter[0] != '\0' || h->limit.count > 0;

	entries_free(h);
	h->window = h->cursor - HISTORY_WINDOW / 2;
	if (h->window < 0)
		h->window = 0;
	h->now_ms = timestamp_now();
	if (store_history_page(t->store, h->filter[0] != '\0' ? h->filter :
	    NULL, h->window, HISTORY_WINDOW, searching ? kept : NULL, collect,
	    h, &h->total, &err) != 0)
		tui_notice(t, "%s", err.message);
	if (!searching)
		h->all = h->total;
	h->stale = false;
}

static void
history_free(struct history_list *h)
{
	if (h == NULL)
		return;
	entries_free(h);
	filter_free(&h->limit);
	free(h);
}

void
history_close(struct tui *t)
{
	history_free(t->history_list);
	t->history_list = NULL;
	detail_free(&t->record);
}

static void
describe_record(struct detail *d, const struct history_entry *e,
    bool selected)
{
	cJSON *record = cJSON_Parse(e->record);
	const cJSON *op = json_member(record, "operator");
	const cJSON *local = json_member(record, "local_verdict");
	const cJSON *bulk = json_member(record, "bulk");
	bool approved = strcmp(text_of(record, "decision"), "approve") == 0;
	char *acks, *heading;

	if (record == NULL)
		return;
	heading = xasprintf(approved ?
	    /* L10N: a decision in the history: %1$lld the audit sequence
	       number, %2$s when (ISO 8601), %3$s the action id, %4$s the
	       officer's login */
	    _("#%lld %s APPROVED %s by %s") :
	    /* L10N: as above, for a rejection */
	    _("#%lld %s REJECTED %s by %s"), e->seq,
	    text_of(record, "decided_at"), text_of(record, "action_id"),
	    text_of(op, "login"));
	/* The selected decision is marked, as the queue marks its row. */
	detail_add(d, approved ? DETAIL_HEADING : DETAIL_ALERT, "%s%s",
	    selected ? "> " : "  ", heading);
	free(heading);
	/* L10N: the reason recorded, or "(none)" */
	detail_add(d, DETAIL_PLAIN, _("    reason: %s"),
	    recorded_reason(record));
	describe_blocked(d, record);
	acks = json_print(json_member(record, "acknowledged"));
	/* L10N: %1$s the local verdict ("pass" or "FAIL"), %2$d how many
	   divergences, %3$s a JSON list of what was acknowledged
	   (high_stakes, divergence: not translated), %4$.16s the start of
	   the record's hash */
	detail_add(d, DETAIL_DIM, _("    local %s \xc2\xb7 %d divergence(s) "
	    "\xc2\xb7 acknowledged %s \xc2\xb7 hash %.16s\xe2\x80\xa6"),
	    cJSON_IsTrue(json_member(local, "overall_pass")) ? _("pass") :
	    _("FAIL"),
	    cJSON_GetArraySize(json_member(record, "divergence")),
	    acks ? acks : "[]", e->hash);
	if (cJSON_IsObject(bulk))
		/* L10N: under a decision taken in bulk: %1$.8s the start of
		   the bulk's id, %2$d how many it decided together */
		detail_add(d, DETAIL_DIM, _("    bulk %.8s of %d"),
		    text_of(bulk, "id"), cJSON_IsNumber(json_member(bulk,
		    "count")) ? json_member(bulk, "count")->valueint : 0);
	free(acks);
	cJSON_Delete(record);
}

/* The list page from the window's entries, the selected marked. */
static void
history_build(struct tui *t)
{
	struct history_list *h = t->history_list;
	long i;

	if (h->stale || (h->total > 0 && (h->cursor < h->window ||
	    h->cursor >= h->window + h->count)))
		window_load(t);
	detail_free(&t->history);
	if (h->limit.count > 0) {
		char *limit = xsanitize(h->limit_text);

		/* L10N: the history's heading under a limit (l): %s is the
		   limit's expression as typed */
		detail_add(&t->history, DETAIL_HEADING, _("HISTORY: decisions "
		    "under the limit %s, newest first (Esc shows all)"), limit);
		free(limit);
		if (h->filter[0] != '\0')
			/* L10N: under the history's heading: a search
			   within the limit */
			detail_add(&t->history, DETAIL_DIM, _("and mentioning "
			    "\"%s\""), h->filter);
		detail_add(&t->history, DETAIL_DIM, _("decisions that "
		    "match: %ld of %ld, the whole audit log searched"),
		    h->total, h->all);
	} else if (h->filter[0] != '\0') {
		/* L10N: the history's heading while / narrows it: %s is the
		   text searched */
		detail_add(&t->history, DETAIL_HEADING, _("HISTORY: decisions "
		    "mentioning \"%s\", newest first (Esc shows all)"),
		    h->filter);
		/* L10N: under the history's heading while / narrows it: how
		   many decisions mention the text, of how many in all */
		detail_add(&t->history, DETAIL_DIM, _("decisions that "
		    "match: %ld of %ld, the whole audit log searched"),
		    h->total, h->all);
	} else {
		detail_add(&t->history, DETAIL_HEADING, "%s", _("HISTORY: "
		    "decisions, newest first, from the audit log"));
		/* L10N: under the history's heading: how many decisions the
		   whole audit log holds */
		detail_add(&t->history, DETAIL_DIM, _("decisions in the audit "
		    "log: %ld"), h->total);
	}
	for (i = 0; i < h->count; i++) {
		h->first_line[i] = (long)t->history.count;
		describe_record(&t->history, &h->entries[i],
		    h->window + i == h->cursor);
	}
	if (h->total == 0)
		detail_add(&t->history, DETAIL_PLAIN, "%s", h->all == 0 ?
		    _("No decision has been recorded yet.") :
		    _("Nothing matches."));
}

void
history_open(struct tui *t)
{
	history_close(t);
	memset(&t->history_at, 0, sizeof t->history_at);
	t->view = VIEW_HISTORY;
	if ((t->history_list = calloc(1, sizeof *t->history_list)) == NULL)
		return;
	t->history_list->stale = true;
	history_build(t);
}

/* Moves the selection by delta entries and keeps it on screen. */
void
history_move(struct tui *t, long delta)
{
	struct history_list *h = t->history_list;

	long i;

	if (h == NULL || h->total == 0)
		return;
	h->cursor += delta;
	if (h->cursor >= h->total)
		h->cursor = h->total - 1;
	if (h->cursor < 0)
		h->cursor = 0;
	history_build(t);
	i = h->cursor - h->window;
	if (i < 0 || i >= h->count)
		return;
	/* The newest shows the heading above it; any other its own lines. */
	page_show_lines(&t->history, &t->history_at,
	    h->cursor == 0 ? 0 : h->first_line[i],
	    i + 1 < h->count ? h->first_line[i + 1] :
	    (long)t->history.count);
}

/* The list narrowed or widened: built again, from the newest. */
static void
history_restart(struct tui *t)
{
	t->history_list->cursor = 0;
	t->history_list->stale = true;
	memset(&t->history_at, 0, sizeof t->history_at);
	history_build(t);
}

void
history_search(struct tui *t)
{
	struct history_list *h = t->history_list;
	char text[sizeof h->filter] = "", *p;

	if (h == NULL)
		return;
	/* L10N: label of the line where the history's search is typed */
	if (!tui_prompt(t, _("search the history: "), text, sizeof text))
		return;
	for (p = text; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	snprintf(h->filter, sizeof h->filter, "%s", text);
	history_restart(t);
}

/*
 * l: the queue's SPEC 7 filter over the decided actions, parsed by the
 * same parser; a malformed one is refused, named, and nothing changes.
 */
void
history_limit(struct tui *t)
{
	struct history_list *h = t->history_list;
	char text[sizeof h->limit_text] = "";
	struct error err;

	if (h == NULL)
		return;
	if (!tui_prompt(t, _("limit: "), text, sizeof text))
		return;
	if (limit_replace(text, &h->limit, h->limit_text,
	    sizeof h->limit_text, &err) != 0) {
		tui_notice(t, "%s", err.message);
		return;
	}
	history_restart(t);
}

/* Esc: a narrowed history shows all again; else back to the queue. */
void
history_escape(struct tui *t)
{
	struct history_list *h = t->history_list;

	if (h != NULL && (h->filter[0] != '\0' || h->limit.count > 0)) {
		h->filter[0] = '\0';
		filter_free(&h->limit);
		h->limit_text[0] = '\0';
		history_restart(t);
		return;
	}
	t->view = VIEW_QUEUE;
	tui_reload(t);
}

static void
judgments_line(struct detail *d, const cJSON *judgments)
{
	const cJSON *j;
	char *list = NULL, *grown;

	cJSON_ArrayForEach(j, judgments) {
		grown = xasprintf("%s%s%s %s", list ? list : "",
		    list ? ", " : "", j->string ? j->string : "?",
		    cJSON_IsString(j) ? j->valuestring : "?");
		free(list);
		list = grown;
	}
	/* L10N: a label of a decision's record (12 columns), then the
	   criteria judged and how (met, unmet: not translated) */
	detail_add(d, DETAIL_PLAIN, _("judgments   %s"), list ? list :
	    _("(none)"));
	free(list);
}

static void
routing_line(struct detail *d, const cJSON *routing)
{
	const cJSON *escalate = json_member(routing, "escalate");

	if (cJSON_IsString(json_member(routing, "reassign_to")))
		/* L10N: a label of a decision's record (12 columns), then
		   where the rejection sent the revision */
		detail_add(d, DETAIL_PLAIN, _("routing     reassigned to %s"),
		    text_of(routing, "reassign_to"));
	else if (cJSON_IsObject(escalate))
		detail_add(d, DETAIL_PLAIN, _("routing     escalated, "
		    "needing: %s"), text_of(escalate, "expertise"));
	else if (cJSON_IsTrue(escalate))
		detail_add(d, DETAIL_PLAIN, "%s", _("routing     escalated"));
	else if (cJSON_IsString(json_member(routing, "blocked_on")))
		detail_add(d, DETAIL_PLAIN, _("routing     blocked on %s"),
		    text_of(routing, "blocked_on"));
	else
		detail_add(d, DETAIL_PLAIN, "%s", _("routing     none"));
}

/* One decision's record as a page: everything the audit log says of it. */
static void
record_build(struct detail *d, const struct history_entry *e)
{
	cJSON *record = cJSON_Parse(e->record);
	const cJSON *item, *local = json_member(record, "local_verdict");
	const cJSON *bulk = json_member(record, "bulk");
	char *acks;

	if (record == NULL) {
		detail_add(d, DETAIL_ALERT, "%s", _("This record cannot be "
		    "read."));
		return;
	}
	/* L10N: the heading of one decision's record: %lld its audit
	   sequence number */
	detail_add(d, DETAIL_HEADING, _("AUDIT RECORD #%lld"), e->seq);
	/* L10N: labels of a decision's record, each 12 columns wide
	   (pad with spaces) followed by its value */
	detail_add(d, DETAIL_DIM, _("hash        %s"), e->hash);
	detail_add(d, DETAIL_PLAIN, _("action      %s (%s)"),
	    text_of(record, "action_id"), text_of(record, "kind"));
	detail_add(d, strcmp(text_of(record, "decision"), "approve") == 0 ?
	    DETAIL_HEADING : DETAIL_ALERT, _("decision    %s by %s (uid %lld) "
	    "at %s"), text_of(record, "decision"),
	    text_of(json_member(record, "operator"), "login"),
	    (long long)cJSON_GetNumberValue(json_member(json_member(record,
	    "operator"), "uid")), text_of(record, "decided_at"));
	detail_add(d, DETAIL_PLAIN, _("reason      %s"),
	    recorded_reason(record));
	describe_blocked(d, record);
	acks = json_print(json_member(record, "acknowledged"));
	detail_add(d, DETAIL_PLAIN, _("acknowledged %s"), acks ? acks : "[]");
	free(acks);
	routing_line(d, json_member(record, "routing"));
	if (cJSON_IsObject(json_member(record, "po_judgments")))
		judgments_line(d, json_member(record, "po_judgments"));
	if (cJSON_IsObject(bulk))
		/* L10N: a label of a decision's record, then the bulk's id and
		   how many it decided together */
		detail_add(d, DETAIL_PLAIN, _("bulk        %s, %d decided "
		    "together"), text_of(bulk, "id"),
		    cJSON_IsNumber(json_member(bulk, "count")) ?
		    json_member(bulk, "count")->valueint : 0);
	else
		detail_add(d, DETAIL_PLAIN, "%s", _("bulk        no: decided "
		    "on its own"));
	if (cJSON_IsString(json_member(record, "approved_artifact_sha256")))
		detail_add(d, DETAIL_PLAIN, _("artifact    sha256 %s"),
		    text_of(record, "approved_artifact_sha256"));
	detail_add(d, DETAIL_PLAIN, "%s", "");
	detail_add(d, cJSON_IsTrue(json_member(record,
	    "requires_human_approval")) ? DETAIL_HEADING : DETAIL_PLAIN, "%s",
	    cJSON_IsTrue(json_member(record, "requires_human_approval")) ?
	    _("HIGH STAKES  a human had to approve this, with a reason") :
	    _("HIGH STAKES  no"));
	cJSON_ArrayForEach(item, json_member(record, "high_stakes_reasons"))
		detail_add(d, DETAIL_PLAIN, "  %s", cJSON_IsString(item) ?
		    item->valuestring : text_of(item, "detail"));
	/* L10N: %d is how many differences there were */
	detail_add(d, DETAIL_PLAIN, _("DIVERGENCE   %d difference(s) with the "
	    "advisory verdict"), cJSON_GetArraySize(json_member(record,
	    "divergence")));
	cJSON_ArrayForEach(item, json_member(record, "divergence"))
		detail_add(d, DETAIL_PLAIN, "  %s: %s", text_of(item, "what"),
		    text_of(item, "note"));
	detail_add(d, DETAIL_PLAIN, "%s", "");
	/* L10N: the heading of the local verdict's rules in a record */
	detail_add(d, DETAIL_HEADING, _("LOCAL VERDICT  %s"),
	    cJSON_IsTrue(json_member(local, "overall_pass")) ? _("pass") :
	    _("FAIL"));
	cJSON_ArrayForEach(item, json_member(local, "rule_results"))
		detail_add(d, cJSON_IsTrue(json_member(item, "passed")) ?
		    DETAIL_PLAIN : DETAIL_ALERT, "  %-27s %-4s %s",
		    text_of(item, "rule_id"),
		    cJSON_IsTrue(json_member(item, "passed")) ? _("pass") :
		    _("FAIL"), text_of(item, "detail"));
	cJSON_Delete(record);
}

void
history_enter(struct tui *t)
{
	struct history_list *h = t->history_list;

	if (h == NULL || h->cursor < h->window ||
	    h->cursor >= h->window + h->count)
		return;
	detail_free(&t->record);
	memset(&t->record_at, 0, sizeof t->record_at);
	record_build(&t->record, &h->entries[h->cursor - h->window]);
	t->view = VIEW_RECORD;
}

void
history_back(struct tui *t)
{
	t->view = t->history_list != NULL ? VIEW_HISTORY : VIEW_QUEUE;
}

void
help_open(struct tui *t)
{
	long at;

	history_close(t);
	detail_free(&t->history);
	memset(&t->history_at, 0, sizeof t->history_at);
	detail_add(&t->history, DETAIL_HEADING, "%s", _("countersign: keys"));
	at = keys_help(t, &t->history);
	/*
	 * Opened at the keys of the view it was asked from: the queue's
	 * come first, but the detail's and the history's had fallen below
	 * the first screen as keys were added.
	 */
	if (at > 1)
		t->history_at.line = at;
	t->view = VIEW_HELP;
}

void
history_draw(struct tui *t)
{
	if (t->view == VIEW_RECORD)
		/* L10N: the keys of a decision's record: j, k, Space and q
		   stay whatever the language */
		page_draw(t, &t->record, &t->record_at, _("j/k scroll  "
		    "Space page  q history"));
	else if (t->view == VIEW_HISTORY)
		/* L10N: the keys of the history: j, k, Enter, / and q stay
		   whatever the language */
		page_draw(t, &t->history, &t->history_at, _("j/k select  "
		    "Enter open  / search  ? help  q back"));
	else
		/* L10N: the keys of the history and help pages: j, k, Space
		   and q stay whatever the language */
		page_draw(t, &t->history, &t->history_at, _("j/k scroll  "
		    "Space page  q back"));
}
