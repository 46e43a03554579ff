/*
 * The store: one SQLite database shared by every officer on the host.
 * Schema and migrations, strict identities for imported objects, and the
 * queries the commands and the TUI read from.  Only this layer speaks SQL.
 */
#ifndef COUNTERSIGN_STORE_H
#define COUNTERSIGN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "object.h"
#include "rule_pack.h"

struct store;

enum store_open_mode {
	STORE_EXISTING,		/* refuse when there is no database yet */
	STORE_CREATE		/* create it (and its directories) if needed */
};

/* The database path of SPEC 7: option, else $COUNTERSIGN_DB, else XDG. */
int store_default_path(const char *option, char *buf, size_t size,
    struct error *);

int store_open(const char *path, enum store_open_mode, struct store **,
    struct error *);
void store_close(struct store *);
const char *store_path(const struct store *);

/* Every write runs inside BEGIN IMMEDIATE ... COMMIT. */
int store_begin(struct store *, struct error *);
int store_commit(struct store *, struct error *);
void store_rollback(struct store *);

enum store_put_result { STORE_PUT_NEW, STORE_PUT_CHANGED, STORE_PUT_SAME };

/*
 * Stores one loaded object inside the current transaction; raw is its text
 * exactly as read.  A different object under an existing immutable
 * identity is refused with EXIT_DATA.
 */
int store_put(struct store *, const struct loaded_object *, const char *raw,
    size_t raw_len, long long now_ms, enum store_put_result *,
    struct error *);

/* The policy objects one check reads, owned by this structure. */
struct check_data {
	cJSON *packet;
	cJSON *ips;
	cJSON *holdings;
	cJSON *securities;
	cJSON *standards;
	cJSON *roster;
	char *status;			/* pending, approved, rejected */
	long long imported_at_ms;
	bool has_expiry;
	long long expires_at_ms;
	struct check_input input;	/* points at the trees above */
};

/*
 * Loads an action and what its rule pack needs.  Returns EXIT_REFUSED
 * with a message when the action is unknown.
 */
int store_load_check(struct store *, const char *action_id, long long now_ms,
    struct check_data *, struct error *);
void check_data_free(struct check_data *);

/* Calls fn for each action id, pending ones only unless all, oldest first. */
int store_each_action(struct store *, bool all,
    int (*fn)(void *ctx, const char *action_id), void *ctx, struct error *);

#endif
