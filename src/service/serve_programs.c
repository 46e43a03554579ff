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
 *
 * This file is what the methods share (their answers, their params, the
 * loop's store), status, receipt and checkpoint; wait is serve_waits.c,
 * events and the loop's look at new records serve_events.c, submit
 * serve_submit.c.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "cmd_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "programs.h"
#include "service.h"
#include "store.h"
#include "store_log.h"
#include "timestamp.h"
#include "utf8.h"
#include "serve_internal.h"
#include "serve_programs_internal.h"

#define ACTIVE_TICK_MS 250		/* SQLite's look at data_version */

void
answer_result(struct conn *c, const cJSON *id, cJSON *result)
{
	cJSON *m = message_new(id);

	cJSON_AddItemToObject(m, "result", result);
	conn_send(c, m);
}

/* A refusal with the gate's code in data.code (SPEC 12). */
void
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

void
answer_program_error(struct conn *c, const cJSON *id,
    struct program_error *perr)
{
	answer_refusal(c, id, perr->code, perr->matches, "%s", perr->message);
	perr->matches = NULL;
}

/* The loop's store, opened at the first call that needs it. */
struct store *
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

struct program_conn *
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
int
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
bool
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

/*
 * The error of a call on the loop's store answered; a storage error
 * marks that store broken, to be opened again.
 */
static void
answer_loop_error(struct service *sv, struct conn *c, const cJSON *id,
    struct program_error *perr)
{
	if (perr->code != NULL && strcmp(perr->code, "storage") == 0 &&
	    sv->programs != NULL)
		sv->programs->broken = true;
	answer_program_error(c, id, perr);
}

/* The action params.action_id names, or NULL once refused. */
char *
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
		answer_loop_error(sv, c, id, &perr);
		return NULL;
	}
	return full;
}

/* The status object now, or NULL once refused. */
cJSON *
status_now(struct service *sv, struct conn *c, const cJSON *id,
    const char *action_id, long long *expires_at_ms)
{
	struct program_error perr;
	struct store *store = loop_store(sv, &perr);
	cJSON *status;

	if (store == NULL || program_status(store, action_id, timestamp_now(),
	    &status, expires_at_ms, &perr) != 0) {
		answer_loop_error(sv, c, id, &perr);
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
