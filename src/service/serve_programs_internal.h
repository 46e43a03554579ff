/*
 * What the methods for programs share (serve_programs.c, serve_waits.c,
 * serve_events.c, serve_submit.c): a connection's waits and feed, the
 * loop's store and where it has read to, the answers and the params.
 */
#ifndef COUNTERSIGN_SERVE_PROGRAMS_INTERNAL_H
#define COUNTERSIGN_SERVE_PROGRAMS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "programs.h"
#include "serve_internal.h"

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

/* serve_programs.c */
void answer_result(struct conn *, const cJSON *id, cJSON *result);
/* A refusal with the gate's code in data.code (SPEC 12). */
void answer_refusal(struct conn *, const cJSON *id, const char *code,
    cJSON *matches, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void answer_program_error(struct conn *, const cJSON *id,
    struct program_error *);
/* The loop's store, opened at the first call that needs it. */
struct store *loop_store(struct service *, struct program_error *);
struct program_conn *conn_programs(struct conn *);
/*
 * An integer param within [low, high]: 1 with *out, 0 when absent, -1
 * when answered bad_request.
 */
int integer_param(struct conn *, const cJSON *id, const cJSON *params,
    const char *method, const char *name, long long low, long long high,
    long long *out);
/* params: absent or an object holding only what the method takes. */
bool params_known(struct conn *, const cJSON *id, const cJSON *params,
    const char *method);
/* The action params.action_id names, or NULL once refused. */
char *resolve_param(struct service *, struct conn *, const cJSON *id,
    const cJSON *params, const char *method);
/* The status object now, or NULL once refused. */
cJSON *status_now(struct service *, struct conn *, const cJSON *id,
    const char *action_id, long long *expires_at_ms);

/* serve_waits.c */
void waiter_free(struct waiter *);
/* Looks again at wait i: answered (and gone) unless still pending. */
bool wait_recheck(struct service *, struct conn *, size_t i, bool timed_out);
void call_wait(struct service *, struct conn *, const cJSON *params,
    const cJSON *id);

/* serve_events.c */
void call_events(struct service *, struct conn *, const cJSON *params,
    const cJSON *id);

#endif
