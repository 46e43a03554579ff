/*
 * The commands of countersign(1) COMMANDS.  Each returns an exit_code; only main()
 * turns it into the process status.  The TUI calls the same functions.
 */
#ifndef COUNTERSIGN_COMMANDS_H
#define COUNTERSIGN_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "filter.h"
#include "store.h"

/* What the command line said, after the global options were taken. */
struct invocation {
	const char *db_option;		/* --db PATH, or NULL */
	bool all;			/* list --all */
	bool json;			/* list --json */
	bool atomic;			/* batch --atomic */
	bool csv;			/* audit export --csv */
	const char *checkpoint;		/* audit verify --checkpoint SEQ:HASH */
	const char *connect;		/* --connect SOCKET (issue 19) */
	const char *socket;		/* serve --socket PATH */
	const char *officers;		/* serve --officers GROUP */
	const char *importers;		/* serve --importers GROUP */
	const char *readers;		/* (v3) serve --readers GROUP */
	long long timeout_s;		/* (v3) wait --timeout SECONDS, or -1 */
	long long after_seq;		/* (v3) events --after SEQ */
	bool follow;			/* (v3) events --follow */
	const char *checkpoint_file;	/* serve --checkpoint-file PATH */
	long long idle_timeout_s;	/* serve --idle-timeout SECONDS, or 0 */
	long long spool_limit_mib;	/* serve --spool-limit MIB, or 0 */
	const char *filter;		/* list --filter EXPR (SPEC 7) */
	const char *since, *until;	/* audit export --csv --since/--until T */
	bool demo;			/* the screens on demo's throw-away database */
	/* The signed log (SPEC 13, issue 32). */
	const char *signing_key;	/* serve --signing-key FILE */
	const char *log_name;		/* serve --log-name NAME */
	const char *trusted_keys[16];	/* serve --trusted-key FILE... */
	int trusted_key_count;
	const char *keys[16];		/* verify-receipt, audit: --key FILE... */
	int key_count;
	const char *expect_action;	/* verify-receipt --action ID */
	const char *expect_sha256;	/* verify-receipt --expect-sha256 HEX */
	const char *expect_decision;	/* verify-receipt --decision */
	const char *output;		/* receipt -o FILE */
	long long size;			/* audit checkpoint --size N */
	char **operands;
	int operand_count;
	/* The options named (command_table.h OPTION_BIT), global ones apart. */
	uint64_t given;
};

int cmd_import(const struct invocation *);
int cmd_check(const struct invocation *);
int cmd_list(const struct invocation *);
int cmd_demo(const struct invocation *);
/*
 * The data directory (demo data, standard reasons): $COUNTERSIGN_DATA_DIR,
 * else the installed one, else a data/ beside the running program (a
 * build tree).  0 with its path in dir; -1 when none exists, with the
 * places looked at in looked.
 */
int data_dir_find(char *dir, size_t size, char *looked, size_t looked_size);
int cmd_batch(const struct invocation *);
int cmd_audit(const struct invocation *);
/* (v3) SPEC 12: an action's status object, a wait for it, the feed. */
int cmd_status(const struct invocation *);
int cmd_wait(const struct invocation *);
int cmd_events(const struct invocation *);
/*
 * The review screens, for the commands that open them (demo, and the
 * service for a remote terminal).  The terminal layer sits above the
 * commands, so they reach it through this pointer, which main() sets to
 * tui_run(): no command includes a terminal header, and a program
 * without the screens (the unit tests) has none to open.
 */
extern int (*review_screens)(const struct invocation *);
/* Opens them through review_screens; exit 2 when there are none. */
int review_run(const struct invocation *);

/* Parses one batch request line: 0, or -1 with the bad_request message. */
int batch_parse_request(const char *text, size_t len, char *message,
    size_t size);

/* Decides every request line of a file, results to out: stdout or NULL. */
int batch_file(struct store *, const char *path, FILE *out, struct error *);

/* import --json: per-object JSON lines instead of per-file results. */
void import_report_as_json(bool on);
/* Imports files and directories into an open store; prints per-file results. */
int import_paths(struct store *, char *const *paths, int count, FILE *out);
/*
 * The files import reads, in its order: a directory's *.json and *.jsonl
 * by name.  A file that cannot be read is reported on stderr; each one read
 * goes to file() (local mode: into the store; service mode: to the
 * service).  Returns the worst status of the reading (EXIT_DATA) and of
 * the steps (EXIT_STORAGE over EXIT_DATA).
 */
struct import_walk {
	int (*file)(struct import_walk *, const char *path, const char *text,
	    size_t len);
	struct store *store;
	FILE *out;
	void *ctx;
};
int import_walk_paths(struct import_walk *, char *const *paths, int count);
/* One file's bytes imported whole or not at all, reported under path. */
int import_text_named(struct store *, const char *path, const char *text,
    size_t len, FILE *out);
/* Files read elsewhere (service mode) imported as import_paths would. */
struct import_text {
	const char *name;
	const char *text;
	size_t len;
};
int import_texts(struct store *, const struct import_text *, size_t count,
    FILE *out);

/* Loads an action and re-runs its rules: the one re-check every view uses. */
struct recheck {
	struct check_data data;
	struct check_outcome outcome;
	/*
	 * The judgments rule 7 counted: those recorded (data.judgments),
	 * then the caller's for the criteria not yet judged (SPEC 2.3 v3:
	 * the first judgment stands); owned, NULL when the caller gave none.
	 */
	cJSON *judgments_counted;
};
/*
 * po_judgments (or NULL) are the officer's own, counted with the
 * judgments recorded before; data.input.po_judgments points at the union.
 */
int recheck_action(struct store *, const char *action_id, long long now_ms,
    const cJSON *po_judgments, struct recheck *, struct error *);
/*
 * The same inside decision_record(): the artifact read as a decision
 * needs it (store_load_decision_check()), the same answers.
 */
int recheck_for_decision(struct store *, const char *action_id,
    long long now_ms, const cJSON *po_judgments, struct recheck *,
    struct error *);
void recheck_free(struct recheck *);
/*
 * SPEC 14: the quorum a re-checked action is under at this moment, and
 * the approvals it has been given so far (quorum_view.c).
 */
struct quorum_view {
	int needed;			/* 1: no quorum applies */
	struct approval_row *approvals;	/* in the order given */
	size_t count;
};
int quorum_view_load(struct store *, const char *action_id,
    const struct recheck *, struct quorum_view *, struct error *);
void quorum_view_free(struct quorum_view *);
/* The approval login gave, names compared as SPEC 2.4 says; or NULL. */
const struct approval_row *quorum_view_by(const struct quorum_view *,
    const char *login);
/*
 * The same re-check of each action, pending ones only unless all, oldest
 * first, in one pass over the store; r is fn's for the call only.
 */
int recheck_each(struct store *, bool all, long long now_ms,
    int (*fn)(void *ctx, struct recheck *r), void *ctx, struct error *);

/* Re-checks an action into a queue row (with divergence notes). */
/* The row from a re-check already run; r stays the caller's. */
int queue_row_from_recheck(const struct recheck *r, const char *action_id,
    struct queue_row *, long long now_ms, struct error *);
int queue_row_build(struct store *, const char *action_id, long long now_ms,
    struct queue_row *, struct error *);
/* SPEC 3 (v2): a verdict's high-stakes reasons, [{code, detail}]; or NULL. */
cJSON *queue_reasons_json(const struct verdict *);
/*
 * row->listed from the re-check the row was made from: what list prints
 * beyond the index's columns (schema 21).  packet_sha256, when not NULL,
 * is the digest of the stored text, which r did not take.
 */
int queue_row_listed(const struct recheck *r, const char *packet_sha256,
    struct queue_row *, struct error *);
/* row->notes, one per divergence, from the listed JSON's "divergence". */
int queue_row_notes_listed(struct queue_row *, const cJSON *divergence,
    struct error *);
/*
 * What the SPEC 7 filter tests of a row: action, its packet's action (or
 * NULL), gives a trade's user, ticker and value; flags holds the row's
 * flag characters for s to point at.
 */
#define FILTER_FLAGS_SIZE 8
void filter_subject_of(const struct queue_row *row, const cJSON *action,
    char flags[FILTER_FLAGS_SIZE], struct filter_subject *s);
/*
 * queue_scan.c: the rows of q that filter (or NULL) matches, in the
 * query's order or, value_order, a trade's estimated value largest
 * first (other kinds after, as queued): up to limit from offset into
 * rows (*got, to queue_row_free), *matched how many match in all.
 * Reads every row of q: the index keeps no user, ticker or value.
 */
int queue_scan_page(struct store *, const struct queue_query *q,
    const struct filter *filter, bool value_order, long offset, long limit,
    struct queue_row *rows, long *got, long *matched, struct error *);
/*
 * The deadlocked artifacts escalated to a person and waiting for a new
 * version (SPEC 2.4, issue 21), as queue rows of their escalated
 * rejection, newest first: up to max into rows, the number in *count.
 */
int queue_escalated(struct store *, long long now_ms, struct queue_row *rows,
    size_t max, size_t *count, struct error *);
/*
 * Indexes an action import has just stored, from its parsed tree, under
 * the policy epoch in force; saves reading and parsing it back.
 */
int queue_index_stored(struct store *, const struct loaded_object *,
    const char *raw, size_t raw_len, long long imported_at_ms,
    long long now_ms, long long epoch, struct error *);
/*
 * Brings the queue index up to date: re-checks every pending action whose
 * row is missing or older than the policy in force.  Returns how many.
 */
int queue_refresh(struct store *, long long now_ms, long *refreshed,
    struct error *);

/* Opens the store the invocation names; prints nothing. */
int open_store(const struct invocation *, enum store_open_mode,
    struct store **, struct error *);
/* Prints "countersign: message" on stderr. */
void report_error(const struct error *);
/* Before the first output of a command that prints a line per action. */
void stdout_for_many_lines(void);
/* Flushes stdout: EXIT_STORAGE, with the reason, when a write failed. */
int stdout_finish(struct error *);
/* Reads fd until size bytes or its end; how many were read. */
size_t read_up_to(int fd, char *buf, size_t size);
/*
 * Sends a new audit head to the outside sinks; when none took it, says
 * so on stderr once per command (SPEC v2 6), naming the first such head.
 * announce_quietly(true) holds that back while the review screens own
 * the terminal, and (false) says it then.  True when no sink took it.
 */
bool announce_head(const struct store *, const struct audit_head *);
void announce_quietly(bool);
/*
 * The demo's database is deleted when it ends: no head of it is worth
 * keeping, so none is said to need it (announce_head() then false).
 */
void announce_throwaway(void);

#endif
