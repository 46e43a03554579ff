/*
 * events (SPEC 12) and the loop's look at new records: each record
 * committed since the last look is read once for every client, queued to
 * the subscribers that keep up and counted as owed to the others, which
 * are filled from the store as fast as they read; a subscriber more than
 * FEED_UNREAD_MAX behind is told where to resume and closed.  The same
 * look wakes the waits on the record's action (serve_waits.c).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "json_writer.h"
#include "programs.h"
#include "service.h"
#include "store.h"
#include "timestamp.h"
#include "serve_internal.h"
#include "serve_programs_internal.h"

#define FEED_UNREAD_MAX (8UL << 20)	/* SPEC 12 events_dropped */
#define FEED_FILL_BELOW (256UL << 10)	/* catching up: refill under this */
#define FEED_BATCH 256			/* records read at once */

/* Queues one record for a subscriber, and remembers where it lies. */
static unsigned long long
feed_record(struct conn *c, long long seq, const char *hash,
    const char *record_json)
{
	struct program_conn *pc = c->programs;
	cJSON *m, *params = program_event(seq, hash, record_json);
	unsigned long long start = c->out_queued;
	struct fed *grown;

	if (params == NULL) {
		c->closing = true;
		return 0;
	}
	m = message_new(NULL);
	cJSON_AddStringToObject(m, "method", "event");
	cJSON_AddItemToObject(m, "params", params);
	conn_send(c, m);
	pc->sent_seq = seq;
	if (pc->fed_first > 0 && pc->fed_first == pc->fed_count) {
		pc->fed_first = pc->fed_count = 0;
	}
	if (pc->fed_count == pc->fed_cap) {
		size_t live = pc->fed_count - pc->fed_first;
		size_t cap = pc->fed_cap == 0 ? 256 : pc->fed_cap * 2;

		if (pc->fed_first > 0) {
			memmove(pc->fed, pc->fed + pc->fed_first, live *
			    sizeof *pc->fed);
			pc->fed_first = 0;
			pc->fed_count = live;
		} else if ((grown = realloc(pc->fed, cap * sizeof *grown)) !=
		    NULL) {
			pc->fed = grown;
			pc->fed_cap = cap;
		} else {
			c->closing = true;
			return 0;
		}
	}
	pc->fed[pc->fed_count++] = (struct fed){ start, c->out_queued, seq };
	return c->out_queued - start;
}

/* What a record's notification costs, for a subscriber held back. */
static unsigned long long
notification_size(long long seq, const char *hash, const char *record_json)
{
	cJSON *m = message_new(NULL), *params = program_event(seq, hash,
	    record_json);
	unsigned long long n = 0;
	char *text;

	cJSON_AddStringToObject(m, "method", "event");
	cJSON_AddItemToObject(m, "params", params);
	if ((text = json_message(m)) != NULL)
		n = strlen(text) + 1;
	free(text);
	cJSON_Delete(m);
	return n;
}

/* Notifications the client has taken whole are no longer tracked. */
static void
feed_forget_written(struct conn *c)
{
	struct program_conn *pc = c->programs;

	while (pc->fed_first < pc->fed_count &&
	    pc->fed[pc->fed_first].end <= c->out_written)
		pc->fed_first++;
}

/*
 * SPEC 12: too much unread.  What is not yet written is dropped, but for
 * a notification already partly written (which is finished), so the
 * client reads whole lines up to resume_after_seq, then events_dropped.
 */
static void
feed_drop(struct conn *c)
{
	struct program_conn *pc = c->programs;
	unsigned long long keep_to = c->out_written;
	long long resume = pc->sent_seq;
	cJSON *m;

	feed_forget_written(c);
	if (pc->fed_first < pc->fed_count) {
		struct fed *e = &pc->fed[pc->fed_first];

		if (e->start < c->out_written) {
			keep_to = e->end;
			resume = e->seq;
		} else
			resume = e->seq - 1;
	}
	c->out_len = c->out_sent + (size_t)(keep_to - c->out_written);
	c->out_queued = keep_to;
	pc->feeding = false;
	pc->fed_first = pc->fed_count = 0;
	m = message_new(NULL);
	cJSON_AddStringToObject(m, "method", "events_dropped");
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "params"),
	    "resume_after_seq", (double)resume);
	conn_send(c, m);
	c->closing = true;
	fprintf(stderr, "countersign serve: uid %lu: events dropped after seq "
	    "%lld (more than %lu MiB unread)\n", (unsigned long)c->uid, resume,
	    FEED_UNREAD_MAX >> 20);
}

static unsigned long long
unread(const struct conn *c)
{
	return c->out_queued - c->out_written;
}

struct fill {
	struct conn *c;
};

static int
fill_one(void *ctx, long long seq, const char *record_json,
    const char *hash)
{
	struct fill *f = ctx;
	struct program_conn *pc = f->c->programs;
	unsigned long long n = feed_record(f->c, seq, hash, record_json);

	if (pc->owed > 0 && seq >= pc->owed_from_seq)
		pc->owed = n < pc->owed ? pc->owed - n : 0;
	return f->c->closing ? 1 : 0;
}

/* A subscriber behind the head: the next records, as fast as it reads. */
static void
feed_fill(struct service *sv, struct conn *c)
{
	struct program_conn *pc = c->programs;
	struct program_error perr;
	struct store *store;
	struct fill f = { c };
	struct error err;

	error_clear(&err);
	while (pc->feeding && !c->closing && c->fd >= 0 &&
	    pc->sent_seq < sv->programs->head_seq &&
	    unread(c) < FEED_FILL_BELOW) {
		long long before = pc->sent_seq;

		if ((store = loop_store(sv, &perr)) == NULL)
			return;
		if (store_audit_after(store, pc->sent_seq, FEED_BATCH,
		    fill_one, &f, &err) != 0 && err.status != 0) {
			sv->programs->broken = true;
			return;
		}
		if (pc->sent_seq == before)
			return;
	}
}

void
call_events(struct service *sv, struct conn *c, const cJSON *params,
    const cJSON *id)
{
	struct program_error perr;
	struct program_conn *pc;
	long long after = 0;
	cJSON *result;
	int rc;

	if (!params_known(c, id, params, "events"))
		return;
	if ((rc = integer_param(c, id, params, "events", "after_seq", 0,
	    (1LL << 53), &after)) < 0)
		return;
	if (rc == 0) {
		answer_refusal(c, id, "bad_request", NULL, "events: params."
		    "after_seq is required (an integer >= 0)");
		return;
	}
	if (loop_store(sv, &perr) == NULL) {
		answer_program_error(c, id, &perr);
		return;
	}
	if ((pc = conn_programs(c)) == NULL || pc->feeding) {
		answer_refusal(c, id, "bad_request", NULL, "events: one feed "
		    "per connection");
		return;
	}
	programs_tick(sv, true);	/* the head as it is now */
	result = cJSON_CreateObject();
	cJSON_AddNumberToObject(result, "after_seq", (double)after);
	/* Beyond SPEC 12: where the log ended, for a reader that stops. */
	cJSON_AddNumberToObject(result, "head_seq",
	    (double)sv->programs->head_seq);
	answer_result(c, id, result);
	pc->feeding = true;
	pc->sent_seq = after;
	feed_fill(sv, c);
}

struct dispatch {
	struct service *sv;
	long long last;
};

/* One new record: to each live subscriber, and to the waits it touches. */
static int
dispatch_one(void *ctx, long long seq, const char *record_json,
    const char *hash)
{
	struct dispatch *d = ctx;
	struct service *sv = d->sv;
	cJSON *record = cJSON_Parse(record_json);
	const cJSON *action = cJSON_GetObjectItemCaseSensitive(record,
	    "action_id");
	unsigned long long size = 0;
	int slot;
	size_t i;

	for (slot = 0; slot < MAX_CONNECTIONS; slot++) {
		struct conn *c = sv->conns[slot];
		struct program_conn *pc = c != NULL ? c->programs : NULL;

		if (pc == NULL || c->fd < 0)
			continue;
		/*
		 * Live and keeping up: queued now.  Else held back, counted,
		 * and filled from the store as the client reads (feed_fill).
		 */
		if (pc->feeding && !c->closing && pc->sent_seq == seq - 1 &&
		    unread(c) < FEED_FILL_BELOW)
			feed_record(c, seq, hash, record_json);
		else if (pc->feeding && !c->closing && pc->sent_seq < seq) {
			if (size == 0)
				size = notification_size(seq, hash,
				    record_json);
			if (pc->owed == 0)
				pc->owed_from_seq = seq;
			pc->owed += size;
		}
		for (i = 0; cJSON_IsString(action) && i < pc->wait_count;) {
			if (strcmp(pc->waits[i].action_id,
			    action->valuestring) == 0 &&
			    wait_recheck(sv, c, i, false))
				continue;	/* i holds another wait now */
			i++;
		}
	}
	cJSON_Delete(record);
	d->last = seq;
	return 0;
}

/* The records committed since the last dispatch, in order. */
static void
dispatch_new(struct service *sv)
{
	struct program_loop *pl = sv->programs;
	struct dispatch d = { sv, pl->head_seq };
	struct error err;

	for (;;) {
		error_clear(&err);
		d.last = pl->head_seq;
		if (store_audit_after(pl->store, pl->head_seq, FEED_BATCH,
		    dispatch_one, &d, &err) != 0) {
			pl->broken = true;
			fprintf(stderr, "countersign serve: %s\n", err.message);
			return;
		}
		if (d.last == pl->head_seq)
			return;
		pl->head_seq = d.last;
	}
}

void
programs_tick(struct service *sv, bool child_ended)
{
	struct program_loop *pl = sv->programs;
	struct program_error perr;
	struct error err;
	bool changed = false;
	long long mono = now_ms(), wall = timestamp_now();
	int slot;
	size_t i;

	if (pl == NULL)
		return;
	/*
	 * A store that failed is opened again here, between passes, never
	 * under a read of it (a wait's status inside a dispatch).
	 */
	if (pl->broken && pl->store != NULL) {
		store_close(pl->store);
		pl->store = NULL;
	}
	if (loop_store(sv, &perr) == NULL)
		return;
	error_clear(&err);
	if (store_watch_changed(pl->store, &changed, &err) != 0) {
		pl->broken = true;
		fprintf(stderr, "countersign serve: %s\n", err.message);
		return;
	}
	if (changed || child_ended)
		dispatch_new(sv);
	for (slot = 0; slot < MAX_CONNECTIONS; slot++) {
		struct conn *c = sv->conns[slot];
		struct program_conn *pc = c != NULL ? c->programs : NULL;

		if (pc == NULL || c->fd < 0)
			continue;
		for (i = 0; i < pc->wait_count;) {
			struct waiter *w = &pc->waits[i];

			if ((mono >= w->deadline_ms || (w->expires_at_ms >= 0 &&
			    wall >= w->expires_at_ms)) && wait_recheck(sv, c, i,
			    mono >= w->deadline_ms))
				continue;
			i++;
		}
		if (pc->feeding) {
			feed_forget_written(c);
			feed_fill(sv, c);
			/*
			 * SPEC 12: more than 8 MiB unread, however fast it
			 * reads otherwise; a burst that big costs a reader a
			 * reconnect, never the service memory.
			 */
			if (pc->feeding && unread(c) + pc->owed >
			    FEED_UNREAD_MAX)
				feed_drop(c);
		}
	}
}
