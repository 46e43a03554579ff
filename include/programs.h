/*
 * Programs as clients (SPEC 12): what the service's methods for programs
 * and the status, wait and events commands share.  Results are JSON
 * values; refusals carry the gate's code, never a translated word.
 */
#ifndef COUNTERSIGN_PROGRAMS_H
#define COUNTERSIGN_PROGRAMS_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "store.h"

/* The longest wait a client may ask for (SPEC 12 wait timeout_ms). */
#define WAIT_TIMEOUT_MAX_MS 3600000LL

/* A refusal: the gate's code, a message, and for ambiguous_id the ids. */
struct program_error {
	const char *code;		/* unknown_action, ambiguous_id, ... */
	char message[512];
	cJSON *matches;			/* ambiguous_id: owned, else NULL */
};

void program_error_free(struct program_error *);

/*
 * The action an id or unique prefix names (SPEC 7): 0 with its whole id
 * newly allocated in *full, or -1 with unknown_action, ambiguous_id (and
 * the matches) or storage in perr.
 */
int program_resolve(struct store *, const char *given, char **full,
    struct program_error *);
/*
 * The status object of SPEC 12 of the action of exactly this id, as it
 * is at now_ms: 0, or -1 with perr.  *expires_at_ms is when a pending
 * action turns expired, or -1.
 */
int program_status(struct store *, const char *action_id, long long now_ms,
    cJSON **status, long long *expires_at_ms, struct program_error *);
/* The status object's state: pending, approved, rejected or expired. */
const char *program_state(const cJSON *status);
/* An events notification's params, from one audit record; NULL: memory. */
cJSON *program_event(long long seq, const char *hash, const char *record_json);
/*
 * submit (SPEC 12): each string of lines one input object, imported all
 * or nothing as one file would be; *result is {"results": [...]}.  0, or
 * -1 with perr (bad_request for params that are no array of strings,
 * storage).
 */
int program_submit(struct store *, const cJSON *lines, cJSON **result,
    struct program_error *);

#endif
