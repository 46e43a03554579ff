/*
 * The service's methods for programs (SPEC 12): status, wait, events,
 * receipt and checkpoint answered from the loop itself, with no child,
 * no lock and no transaction per waiter; submit in a child whose stdout
 * is the answer.  The loop holds one store connection of its own: it
 * hears of every commit (PostgreSQL's NOTIFY on the channel each
 * recording transaction notifies; SQLite's data_version on a timer),
 * reads the records after the last one it saw, once for every client,
 * feeds them to the events subscribers that are live and wakes the
 * waits on their actions.  A subscriber behind the head is filled from
 * the store as fast as it reads; one that falls behind while live by
 * more than FEED_UNREAD_MAX is told where to resume and closed.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "cmd_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "json_strict.h"
#include "json_writer.h"
#include "programs.h"
#include "service.h"
#include "store.h"
#include "store_log.h"
#include "timestamp.h"
#include "utf8.h"
#include "serve_internal.h"

#define FEED_UNREAD_MAX (8UL << 20)	/* SPEC 12 events_dropped */
#define FEED_FILL_BELOW (256UL << 10)	/* catching up: refill under this */
#define FEED_BATCH 256			/* records read at once */
#define WAITS_PER_CONN 1024		/* under the per-account caps */
#define ACTIVE_TICK_MS 250		/* SQLite's look at data_version */
#define JSON_ANSWER_MAX (32UL << 20)	/* submit's answer from its child */

struct waiter {
	cJSON *id;
	char *action_id;		/* the whole id */
	long long deadline_ms;		/* monotonic */
	long long expires_at_ms;	/* wall clock, or -1 */
};

/* A notification queued: its bytes in the connection's output. */
struct fed {
	unsigned long long start, end;	/* in out_queued's count */
	long long seq;
};

struct program_conn {
	struct waiter *waits;
	size_t wait_count, wait_cap;
	bool feeding;
	long long sent_seq;		/* the last record queued */
	struct fed *fed;
	size_t fed_first, fed_count, fed_cap;
	/*
	 * New records' notifications not queued yet, held back while the
	 * client reads too slowly, from owed_from_seq on: they count as
	 * unread as much as what waits in its output.
	 */
	unsigned long long owed;
	long long owed_from_seq;
};

struct program_loop {
	struct store *store;
	long long head_seq;		/* the last record dispatched */
	bool broken;			/* the store failed: opened again */
};

static void
answer_result(struct conn *c, const cJSON *id, cJSON *result)
{
	cJSON *m = message_new(id);

	cJSON_AddItemToObject(m, "result", result);
	conn_send(c, m);
}

/* A refusal with the gate's code in data.code (SPEC 12). */
static void
answer_refusal(struct conn *c, const cJSON *id, const char *code,
    cJSON *matches, const char *fmt, ...)
{
	cJSON *m = message_new(NULL), *error, *data;
	char message[512];
	va_list ap;
	int number = strcmp(code, "bad_request") == 0 ? RPC_INVALID_PARAMS :
	    strcmp(code, "storage") == 0 ? RPC_INTERNAL :
	    strcmp(code, "forbidden") == 0 ? RPC_FORBIDDEN : RPC_REFUSED;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	rpc_utf8_repair(message);	/* no character cut at its end */
	cJSON_AddItemToObject(m, "id", id != NULL ? cJSON_Duplicate(id, true) :
	    cJSON_CreateNull());
	error = cJSON_AddObjectToObject(m, "error");
	cJSON_AddNumberToObject(error, "code", number);
	cJSON_AddStringToObject(error, "message", message);
	data = cJSON_AddObjectToObject(error, "data");
	cJSON_AddStringToObject(data, "code", code);
	cJSON_AddStringToObject(data, "reason", code);
	cJSON_AddNumberToObject(data, "exit_code", strcmp(code, "storage") ==
	    0 ? EXIT_STORAGE : strcmp(code, "bad_request") == 0 ||
	    strcmp(code, "ambiguous_id") == 0 ? EXIT_USAGE : EXIT_REFUSED);
	if (matches != NULL)
		cJSON_AddItemToObject(data, "matches", matches);
	conn_send(c, m);
}

static void
answer_program_error(struct conn *c, const cJSON *id,
    struct program_error *perr)
{
	answer_refusal(c, id, perr->code, perr->matches, "%s", perr->message);
	perr->matches = NULL;
}

/* The loop's store, opened at the first call that needs it. */
static struct store *
loop_store(struct service *sv, struct program_error *perr)
{
	struct program_loop *pl = sv->programs;
	struct audit_head head;
	struct error err;

	memset(perr, 0, sizeof *perr);
	error_clear(&err);
	if (pl == NULL && (pl = sv->programs = calloc(1, sizeof *pl)) ==
	    NULL)
		goto fail;
	if (pl->store != NULL)
		return pl->store;
	if (open_store(sv->inv, STORE_EXISTING, &pl->store, &err) != 0)
		goto fail;
	if (store_watch_start(pl->store, &err) != 0 ||
	    store_audit_head(pl->store, &head, &err) != 0) {
		store_close(pl->store);
		pl->store = NULL;
		goto fail;
	}
	pl->broken = false;
	/* A store opened again goes on from the last record dispatched. */
	if (pl->head_seq == 0 || pl->head_seq > head.seq)
		pl->head_seq = head.seq;
	return pl->store;
fail:
	perr->code = "storage";
	snprintf(perr->message, sizeof perr->message, "%.400s", err.message[0] ?
	    err.message : "out of memory");
	return NULL;
}

static struct program_conn *
conn_programs(struct conn *c)
{
	if (c->programs == NULL)
		c->programs = calloc(1, sizeof *c->programs);
	return c->programs;
}

/* A string param, or NULL (answered bad_request). */
static const char *
string_param(struct conn *c, const cJSON *id, const cJSON *params,
    const char *method, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, name);

	if (cJSON_IsString(v))
		return v->valuestring;
	answer_refusal(c, id, "bad_request", NULL, "%s: params.%s must be a "
	    "string", method, name);
	return NULL;
}

/*
 * An integer param within [low, high]: 1 with *out, 0 when absent, -1
 * when answered bad_request.
 */
static int
integer_param(struct conn *c, const cJSON *id, const cJSON *params,
    const char *method, const char *name, long long low, long long high,
    long long *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, name);

	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long long)
	    v->valuedouble || v->valuedouble < (double)low ||
	    v->valuedouble > (double)high) {
		answer_refusal(c, id, "bad_request", NULL, "%s: params.%s must "
		    "be an integer from %lld to %lld", method, name, low, high);
		return -1;
	}
	*out = (long long)v->valuedouble;
	return 1;
}

/* params: absent or an object holding only what the method takes. */
static bool
params_known(struct conn *c, const cJSON *id, const cJSON *params,
    const char *method)
{
	const struct command_entry *e = command_of_method(method);
	const cJSON *item;

	if (params != NULL && !cJSON_IsObject(params)) {
		answer_refusal(c, id, "bad_request", NULL, "%s: params must be "
		    "an object", method);
		return false;
	}
	cJSON_ArrayForEach(item, params) {
		if (!command_param_known(e, item->string)) {
			answer_refusal(c, id, "bad_request", NULL, "%s: no "
			    "parameter '%.*s'", method, (int)utf8_prefix(
			    item->string, 64), item->string);
			return false;
		}
	}
	return true;
}

/* The action params.action_id names, or NULL once refused. */
static char *
resolve_param(struct service *sv, struct conn *c, const cJSON *id,
    const cJSON *params, const char *method)
{
	struct program_error perr;
	const char *given = string_param(c, id, params, method, "action_id");
	struct store *store;
	char *full;

	if (given == NULL)
		return NULL;
	if ((store = loop_store(sv, &perr)) == NULL ||
	    program_resolve(store, given, &full, &perr) != 0) {
		if (perr.code != NULL && strcmp(perr.code, "storage") == 0 &&
		    sv->programs != NULL)
			sv->programs->broken = true;
		answer_program_error(c, id, &perr);
		return NULL;
	}
	return full;
}

/* The status object now, or NULL once refused. */
static cJSON *
status_now(struct service *sv, struct conn *c, const cJSON *id,
    const char *action_id, long long *expires_at_ms)
{
	struct program_error perr;
	struct store *store = loop_store(sv, &perr);
	cJSON *status;

	if (store == NULL || program_status(store, action_id, timestamp_now(),
	    &status, expires_at_ms, &perr) != 0) {
		if (strcmp(perr.code, "storage") == 0 && sv->programs != NULL)
			sv->programs->broken = true;
		answer_program_error(c, id, &perr);
		return NULL;
	}
	return status;
}

static void
call_status(struct service *sv, struct conn *c, const cJSON *params,
    const cJSON *id)
{
	long long expires;
	char *action_id;
	cJSON *status;

	if (!params_known(c, id, params, "status") ||
	    (action_id = resolve_param(sv, c, id, params, "status")) == NULL)
		return;
	if ((status = status_now(sv, c, id, action_id, &expires)) != NULL)
		answer_result(c, id, status);
	free(action_id);
}

static void
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
static bool
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

static void
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

static void
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

/*
 * receipt and checkpoint (SPEC 13): the texts cmd_log.c makes, from the
 * loop's store; no_signing_key when the service signs nothing or no
 * checkpoint covers the record yet.
 */
static void
call_signed(struct service *sv, struct conn *c,
    const struct command_entry *m, const cJSON *params, const cJSON *id)
{
	bool receipt = strcmp(m->method, "receipt") == 0;
	long long size = 0, expires;
	char *action_id = NULL, *text = NULL;
	struct program_error perr;
	struct store *store;
	struct error err;
	cJSON *status, *result;
	int rc;

	if (!params_known(c, id, params, m->method))
		return;
	if (receipt) {
		if ((action_id = resolve_param(sv, c, id, params, "receipt")) ==
		    NULL)
			return;
		status = status_now(sv, c, id, action_id, &expires);
		if (status == NULL) {
			free(action_id);
			return;
		}
		if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(status,
		    "decision"))) {
			answer_refusal(c, id, "not_decided", NULL, "receipt: "
			    "the action is not decided yet");
			cJSON_Delete(status);
			free(action_id);
			return;
		}
		cJSON_Delete(status);
	} else if (integer_param(c, id, params, "checkpoint", "size", 0,
	    (1LL << 53), &size) < 0)
		return;
	if (!store_log_signing()) {
		free(action_id);
		answer_refusal(c, id, "no_signing_key", NULL, "%s: the service "
		    "has no signing key for the log", m->method);
		return;
	}
	if ((store = loop_store(sv, &perr)) == NULL) {
		free(action_id);
		answer_program_error(c, id, &perr);
		return;
	}
	error_clear(&err);
	rc = receipt ? log_receipt_text(store, action_id, &text, &err) :
	    log_checkpoint_text(store, size, &text, &err);
	free(action_id);
	if (rc != 0) {
		answer_refusal(c, id, rc == EXIT_REFUSED ? (strcmp(err.field,
		    "not_decided") == 0 ? "not_decided" : "no_signing_key") :
		    "storage", NULL, "%s: %s", m->method, err.message);
		free(text);
		return;
	}
	if ((result = cJSON_CreateObject()) == NULL ||
	    cJSON_AddStringToObject(result, receipt ? "receipt" :
	    "checkpoint", text) == NULL) {
		cJSON_Delete(result);
		free(text);
		answer_refusal(c, id, "storage", NULL, "%s: out of memory",
		    m->method);
		return;
	}
	free(text);
	answer_result(c, id, result);
}

void
programs_call(struct service *sv, struct conn *c,
    const struct command_entry *m, const cJSON *params, const cJSON *id)
{
	if (strcmp(m->method, "status") == 0)
		call_status(sv, c, params, id);
	else if (strcmp(m->method, "wait") == 0)
		call_wait(sv, c, params, id);
	else if (strcmp(m->method, "events") == 0)
		call_events(sv, c, params, id);
	else
		call_signed(sv, c, m, params, id);
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

int
programs_watch_fd(const struct service *sv)
{
	return sv->programs != NULL && sv->programs->store != NULL ?
	    store_watch_fd(sv->programs->store) : -1;
}

long
programs_tick_ms(const struct service *sv)
{
	int slot;

	for (slot = 0; sv->programs != NULL && slot < MAX_CONNECTIONS; slot++)
		if (sv->conns[slot] != NULL && sv->conns[slot]->programs !=
		    NULL && (sv->conns[slot]->programs->wait_count > 0 ||
		    sv->conns[slot]->programs->feeding))
			return ACTIVE_TICK_MS;
	return 1000;
}

bool
programs_conn_holds(const struct conn *c)
{
	return c->programs != NULL && (c->programs->wait_count > 0 ||
	    c->programs->feeding);
}

void
programs_conn_free(struct service *sv, struct conn *c)
{
	struct program_conn *pc = c->programs;
	size_t i;

	(void)sv;
	free(c->json_out);
	c->json_out = NULL;
	if (pc == NULL)
		return;
	for (i = 0; i < pc->wait_count; i++)
		waiter_free(&pc->waits[i]);
	free(pc->waits);
	free(pc->fed);
	free(pc);
	c->programs = NULL;
}

void
programs_stop(struct service *sv)
{
	if (sv->programs == NULL)
		return;
	if (sv->programs->store != NULL)
		store_close(sv->programs->store);
	free(sv->programs);
	sv->programs = NULL;
}

/* ---- submit, in a child: stdout carries the answer ---- */

int
programs_submit_child(const struct invocation *inv, const cJSON *params)
{
	static const char *const names[] = { "lines", NULL };
	struct program_error perr;
	struct store *store;
	struct error err;
	cJSON *answer = cJSON_CreateObject(), *result, *e;
	const cJSON *item;
	char *text;
	size_t i;
	int rc;

	memset(&perr, 0, sizeof perr);
	error_clear(&err);
	cJSON_ArrayForEach(item, params) {
		for (i = 0; names[i] != NULL && strcmp(item->string, names[i]);
		    i++)
			;
		if (names[i] == NULL) {
			perr.code = "bad_request";
			snprintf(perr.message, sizeof perr.message, "submit: "
			    "no parameter '%.*s'", (int)utf8_prefix(
			    item->string, 64), item->string);
			goto refused;
		}
	}
	if ((rc = open_store(inv, STORE_CREATE, &store, &err)) != 0) {
		perr.code = "storage";
		snprintf(perr.message, sizeof perr.message, "%.400s", err.message);
		goto refused;
	}
	rc = program_submit(store, cJSON_GetObjectItemCaseSensitive(params,
	    "lines"), &result, &perr);
	store_close(store);
	if (rc != 0)
		goto refused;
	cJSON_AddItemToObject(answer, "result", result);
	goto print;
refused:
	e = cJSON_AddObjectToObject(answer, "error");
	cJSON_AddStringToObject(e, "code", perr.code);
	cJSON_AddStringToObject(e, "message", perr.message);
	program_error_free(&perr);
print:
	text = json_message(answer);
	cJSON_Delete(answer);
	if (text == NULL)
		return EXIT_STORAGE;
	rc = rpc_write_all(STDOUT_FILENO, text, strlen(text)) == 0 ? EXIT_OK :
	    EXIT_STORAGE;
	free(text);
	return rc;
}

void
programs_child_output(struct conn *c, int which, const char *buf, size_t len)
{
	char *grown;

	if (which == 1) {
		/* A head no sink took, and the like: the service's log. */
		fprintf(stderr, "countersign serve: uid %lu: %.*s",
		    (unsigned long)c->uid, (int)len, buf);
		return;
	}
	if (c->json_len + len > JSON_ANSWER_MAX)
		return;		/* cut short: answered as broken below */
	if ((grown = realloc(c->json_out, c->json_len + len + 1)) == NULL)
		return;
	c->json_out = grown;
	memcpy(c->json_out + c->json_len, buf, len);
	c->json_len += len;
	c->json_out[c->json_len] = '\0';
}

void
programs_child_done(struct conn *c, const cJSON *id, int exit_code)
{
	cJSON *answer = c->json_out != NULL ? cJSON_ParseWithLength(
	    c->json_out, c->json_len) : NULL;
	cJSON *result = cJSON_DetachItemFromObjectCaseSensitive(answer,
	    "result");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(answer, "error");
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
	const cJSON *message = cJSON_GetObjectItemCaseSensitive(e, "message");

	if (c->fd >= 0) {
		if (result != NULL)
			answer_result(c, id, result);
		else if (cJSON_IsString(code) && cJSON_IsString(message))
			answer_refusal(c, id, code->valuestring, NULL, "%s",
			    message->valuestring);
		else
			answer_refusal(c, id, "storage", NULL, "the service's "
			    "run of the request ended without an answer "
			    "(status %d)", exit_code);
	} else
		cJSON_Delete(result);
	cJSON_Delete(answer);
	free(c->json_out);
	c->json_out = NULL;
	c->json_len = 0;
	c->json_child = false;
}
