/*
 * The commands of SPEC section 7.  Each returns an exit_code; only main()
 * turns it into the process status.  The TUI calls the same functions.
 */
#ifndef COUNTERSIGN_COMMANDS_H
#define COUNTERSIGN_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "store.h"

/* What the command line said, after the global options were taken. */
struct invocation {
	const char *db_option;		/* --db PATH, or NULL */
	bool all;			/* list --all */
	bool json;			/* list --json */
	bool atomic;			/* batch --atomic */
	bool csv;			/* audit export --csv */
	const char *checkpoint;		/* audit verify --checkpoint SEQ:HASH */
	char **operands;
	int operand_count;
};

int cmd_import(const struct invocation *);
int cmd_check(const struct invocation *);
int cmd_list(const struct invocation *);
int cmd_demo(const struct invocation *);
int cmd_batch(const struct invocation *);
int cmd_audit(const struct invocation *);

/* Imports files and directories into an open store; prints per-file results. */
int import_paths(struct store *, char *const *paths, int count, FILE *out);

/* Loads an action and re-runs its rules: the one re-check every view uses. */
struct recheck {
	struct check_data data;
	struct check_outcome outcome;
};
int recheck_action(struct store *, const char *action_id, long long now_ms,
    const cJSON *po_judgments, struct recheck *, struct error *);
void recheck_free(struct recheck *);

/* One row of the queue, as `list` prints it and the TUI shows it. */
struct queue_row {
	char action_id[257];
	char kind[32];
	char status[16];
	char *who;			/* sanitized */
	char *summary;			/* sanitized */
	bool high_stakes;
	bool local_fail;
	bool divergent;
	bool locked_out;		/* the author is locked out (SPEC 2.4) */
	bool deadlocked;		/* only escalation is left */
	bool expired;
	const char *advisory;		/* "pass", "fail" or "n/a" */
	long long imported_at_ms;
	size_t divergence_count;
	char **notes;			/* one sanitized line per divergence */
};
int queue_row_build(struct store *, const char *action_id, long long now_ms,
    struct queue_row *, struct error *);
void queue_row_free(struct queue_row *);

/* Opens the store the invocation names; prints nothing. */
int open_store(const struct invocation *, enum store_open_mode,
    struct store **, struct error *);
/* Prints "countersign: message" on stderr. */
void report_error(const struct error *);

#endif
