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
#include "timestamp.h"

struct store;

enum store_open_mode {
	STORE_EXISTING,		/* refuse when there is no database yet */
	STORE_CREATE		/* create it (and its directories) if needed */
};

/*
 * Process-wide SQLite settings; call once, before the first store_open().
 * Only for a program that uses SQLite from one thread.
 */
void store_library_init(void);

/*
 * Service mode (issue 37): serve sets this before its first client, and
 * its children inherit it, so that what a client is told advises what an
 * officer can do through the service (ask a member of the importers'
 * group, or the service's administrator), never local mode's --db.
 * importers is serve --importers, or NULL.
 */
void store_advise_served(const char *importers);
/* Whether this process serves clients; *importers as given above. */
bool store_served(const char **importers);

/* The database path of SPEC 7: option, else $COUNTERSIGN_DB, else XDG. */
int store_default_path(const char *option, char *buf, size_t size,
    struct error *);

int store_open(const char *path, enum store_open_mode, struct store **,
    struct error *);
void store_close(struct store *);
const char *store_path(const struct store *);

/* Every write runs inside BEGIN IMMEDIATE ... COMMIT. */
int store_begin(struct store *, struct error *);
/*
 * store_begin(), and the transaction's writes are one batch (db.h's
 * db_batch_begin): on PostgreSQL sent without waiting for each, their
 * errors met at the next read or at store_commit(), which then fails.
 * For the transactions that are batches: a decision's, a batch file's
 * group of decisions, an import.  In any other each write runs at once.
 */
int store_begin_batch(struct store *, struct error *);
int store_commit(struct store *, struct error *);
void store_rollback(struct store *);

enum store_put_result { STORE_PUT_NEW, STORE_PUT_CHANGED, STORE_PUT_SAME };

/*
 * (v3) SPEC 5: who imported an action, stored with it.  Through the
 * service it is the socket's peer and the gate compares it; locally it is
 * the process's own login, which proves nothing and is only shown.
 */
struct store_importer {
	const char *login;
	long long uid;
	bool served;			/* imported through the service */
};

/*
 * Stores one loaded object inside the current transaction; raw is its text
 * exactly as read.  A different object under an existing immutable
 * identity is refused with EXIT_DATA.  A new action's queue row is the
 * caller's to write, checked, in the same transaction (store_queue_put()).
 * by is stored with a new action (NULL: nobody known).
 */
int store_put(struct store *, const struct loaded_object *, const char *raw,
    size_t raw_len, long long now_ms, const struct store_importer *by,
    enum store_put_result *, struct error *);
/*
 * What store_put() would find, writing nothing: its refusal, or its result
 * (for a security map, STORE_PUT_CHANGED when any entry differs).  Import
 * records a policy object before storing it, so that on PostgreSQL the
 * owner's functions can hold each row to the record (schema 20).
 */
int store_put_check(struct store *, const struct loaded_object *,
    const char *raw, size_t raw_len, enum store_put_result *,
    struct error *);

/* The policy objects one check reads, owned by this structure. */
struct check_data {
	cJSON *packet;
	cJSON *ips;
	cJSON *holdings;
	cJSON *securities;
	cJSON *standards;
	cJSON *roster;
	cJSON *revision_chain;
	/*
	 * The policy trees in the canonical form of format 2
	 * (json_canonical()), when the load kept them (single re-checks, not
	 * the cached passes); owned.
	 */
	char *ips_printed;
	char *holdings_printed;
	char *standards_printed;
	char *roster_printed;
	/*
	 * The packet's stored text, for a decision's record of the advisory
	 * exactly as received (SPEC 6): kept by the loads of one action by
	 * its id, not by the passes over many; owned, NUL-terminated.
	 */
	char *packet_text;
	size_t packet_length;
	/* SHA-256 of the packet's stored JSON (SPEC 5 `changed`); "" if none. */
	char packet_sha256[65];
	/*
	 * SHA-256 of the stored roster and standards index a single re-check
	 * read, the names a decision record gives them (SPEC v2 6); "" when
	 * none was read.
	 */
	char roster_sha256[65];
	char standards_sha256[65];
	/* And of the IPS and the holdings it read (issue 35); "" if none. */
	char ips_sha256[65];
	char holdings_sha256[65];
	/*
	 * The trees above belong to the store's cache, but for securities:
	 * that map is the action's own, and lends the cache's entries.
	 */
	bool policy_borrowed;
	bool packet_borrowed;		/* packet belongs to the caller */
	char *status;			/* pending, approved, rejected */
	long long imported_at_ms;
	/*
	 * (v3) SPEC 5: who imported it (schema 19); importer_login is ""
	 * for an action stored before, or by a caller that named nobody.
	 */
	char importer_login[257];
	long long importer_uid;
	bool importer_served;		/* through the service */
	bool has_expiry;
	long long expires_at_ms;
	/*
	 * change: the judgments recorded so far (SPEC 2.3 v3), as
	 * {"AC-1": "met"}, owned; NULL when none.  input.po_judgments
	 * points at it after a load.
	 */
	cJSON *judgments;
	struct check_input input;	/* points at the trees above */
};

/*
 * Loads an action and what its rule pack needs.  Returns EXIT_REFUSED
 * with a message when the action is unknown.
 */
int store_load_check(struct store *, const char *action_id, long long now_ms,
    struct check_data *, struct error *);
/*
 * The same for a decision: of the action's artifact, only the versions
 * the lockout's answers and the decision's record depend on (SPEC 2.4:
 * the same answers as every version), so that revision_chain, which the
 * record keeps, does not grow with the artifact.
 */
int store_load_decision_check(struct store *, const char *action_id,
    long long now_ms, struct check_data *, struct error *);
/*
 * The same for a packet stored in this transaction a moment ago, from its
 * parsed tree (lent, not copied) instead of reading it back.
 */
int store_load_check_stored(struct store *, const struct loaded_object *,
    long long imported_at_ms, long long now_ms, struct check_data *,
    struct error *);
void check_data_free(struct check_data *);
/*
 * Keeps policy trees across store_load_check() calls until turned off
 * (turning it on again empties it): for read-only passes, where a policy
 * import by another process in the meantime may go unseen until the next
 * pass, and inside import's write transaction, which empties it at every
 * policy object it stores.  Never for a decision.
 */
void store_cache_policy(struct store *, bool on);

/*
 * Calls fn for each action, pending ones only unless all, oldest first,
 * loaded for its check as store_load_check() would; d is freed after.
 */
int store_each_check(struct store *, bool all, long long now_ms,
    int (*fn)(void *ctx, struct check_data *d), void *ctx, struct error *);



/* ---- The audit log (SPEC 6) and decisions ---- */

#define AUDIT_GENESIS_HASH \
	"0000000000000000000000000000000000000000000000000000000000000000"

struct audit_head {
	long long seq;			/* 0 for an empty log */
	char hash[65];
};

int store_audit_head(struct store *, struct audit_head *, struct error *);
/* Appends a record inside the current transaction; *head becomes the new head. */
int store_audit_append(struct store *, const char *record_json,
    struct audit_head *head, struct error *);

struct audit_report {
	long long records;
	long long decisions;
	struct audit_head head;
	long long bad_seq;		/* first bad seq, 0 when intact */
	char problem[512];
};

/*
 * Recomputes the chain, re-parses every record, checks each decided action
 * has exactly one decision record and, when checkpoint_seq > 0, that the
 * checkpoint row is still on the chain.  Returns 0 whether intact or not
 * (report->bad_seq says); an error only when it could not read.
 */
int store_audit_verify(struct store *, long long checkpoint_seq,
    const char *checkpoint_hash, struct audit_report *, struct error *);

/*
 * The stored packet of action_id, newly allocated into *raw; NULL when
 * there is no such action.
 */
int store_action_packet(struct store *, const char *action_id, char **raw,
    struct error *);
/*
 * history.c: the audit records of decisions, newest first.  Without
 * keep: fn for those in [offset, offset + limit), *total all of them.
 * With keep: only the records keep accepts (given the decided action's
 * packet too) count, in *total, and fn sees those of them in [offset,
 * offset + limit); text (what keep looks for, lower case), or NULL, may
 * narrow the records read in SQL first.
 */
int store_history_page(struct store *, const char *text, long offset,
    long limit, bool (*keep)(void *ctx, const char *record,
    const char *packet),
    int (*fn)(void *ctx, long long seq, const char *record,
    const char *hash), void *ctx, long *total, struct error *);
/* Calls fn for each record in order. */
int store_audit_each(struct store *,
    int (*fn)(void *ctx, long long seq, const char *record_json,
    const char *prev_hash, const char *hash), void *ctx, struct error *);

struct decision_row {
	char decision_id[37];
	char decision[8];		/* approve, reject */
	char operator_login[257];
	long long operator_uid;
	char decided_at[TIMESTAMP_SIZE];
	long long audit_seq;
	const char *reassign_to;	/* borrowed; may be NULL */
	bool escalate;
	const char *blocked_on;		/* borrowed; may be NULL */
	const char *escalate_expertise;	/* borrowed; may be NULL (issue 21) */
};

/*
 * A hint before storing packets of these action ids in this transaction:
 * one query finds which are new, and the store asks no more of those
 * (fresh_ids.c).
 */
int store_expect_actions(struct store *, const char *const *ids, size_t n,
    struct error *);
/* A hint before deciding action_id: its reads fetched together. */
int store_prefetch_decision(struct store *, const char *action_id,
    struct error *);
/*
 * The whole action id that given names (SPEC 7): itself when it is an id,
 * else the one id it is a prefix of; newly allocated in *full.  An id no
 * action has comes back as it is (the caller refuses it as unknown); an
 * ambiguous prefix is EXIT_USAGE, its message listing the matches.
 */
int store_resolve_action_id(struct store *, const char *given, char **full,
    struct error *);

/*
 * Bytes of the shortest prefix of id that no other action's id starts
 * with (the whole id when another id extends it): what the screens must
 * show of an id at least, so that it names one action.
 */
int store_unique_prefix(struct store *, const char *id, size_t *length,
    struct error *);

int store_decision_get(struct store *, const char *action_id,
    struct decision_row *, bool *found, struct error *);
/*
 * What recording a decision of action_id writes from, read before any of
 * the decision's writes (store_decided_read): its queue row's flags, its
 * artifact's label and the actions that revise it.  On PostgreSQL the
 * reads find what the decision's prefetch fetched, where after its first
 * write each would be a trip of its own (issue 38).  None of the
 * decision's own writes changes them (the audit record and its tree, the
 * decision row and status, the artifact's locks, the queue rows of other
 * actions), and the write lock keeps every other writer out.
 */
struct store_decided {
	bool queued;			/* it has a queue row, of these flags */
	unsigned flags;
	char *label;			/* its artifact's; NULL: none */
	char **revisions;		/* the actions naming it revision_of */
	size_t revision_count;
};
int store_decided_read(struct store *, const char *action_id,
    struct store_decided *, struct error *);
void store_decided_free(struct store_decided *);
/*
 * Appends a decision's audit record (as store_audit_append, *head the new
 * head) and records the decision row it describes (row->audit_seq set to
 * the record's seq) and the action's new status, in the transaction, and
 * what follows from them: the artifact's lockout, the action out of the
 * queue, the queue rows of its other versions and of its revisions stale.
 * before is store_decided_read()'s of the action.
 */
int store_decision_append(struct store *, const char *record_json,
    struct audit_head *head, const char *action_id, struct decision_row *,
    const struct store_decided *before, struct error *);
/* The audit record of an action's decision (newly allocated), or NULL. */
int store_decision_record(struct store *, const char *action_id,
    char **record_json, struct error *);

/*
 * Stores the roster and standards index the check_data names by SHA-256
 * as policy objects, once each (SPEC v2 6): a decision record names them
 * instead of copying them.  Inside the deciding transaction, after the
 * single re-check that loaded d.
 */
int store_policy_objects_keep(struct store *, const struct check_data *,
    struct error *);

/* ---- Approval quorums (SPEC 14) ---- */

/* One approval that did not yet decide its action (an approval event). */
struct approval_row {
	char approval_id[37];
	char operator_login[257];
	long long operator_uid;
	char approved_at[TIMESTAMP_SIZE];
	char *reason;			/* owned; NULL when none */
	long long needed;		/* the quorum then */
	long long have;			/* counting this one */
	long long audit_seq;
};

/*
 * The active approval policies, the highest version of each policy_id,
 * as a new array of their trees in policy_id order (empty when none).
 */
int store_approval_policies(struct store *, cJSON **policies,
    struct error *);
/* The approvals of action_id in the order they were given; *rows owned. */
int store_approvals_of(struct store *, const char *action_id,
    struct approval_row **rows, size_t *count, struct error *);
void store_approvals_free(struct approval_row *, size_t count);
/* The audit record of one approval (newly allocated), or NULL. */
int store_approval_record(struct store *, const char *approval_id,
    char **record_json, struct error *);
/* Records one approval row, in the transaction of its audit record. */
int store_approval_insert(struct store *, const char *action_id,
    const struct approval_row *, struct error *);

/* ---- The product owner's judgments (SPEC 2.3 v3) ---- */

/* One NEEDS-PO criterion judged, as a po_judgment record recorded it. */
struct judgment_row {
	char *ac_id;			/* owned */
	char judgment[8];		/* met, unmet */
	char judgment_id[37];
	char operator_login[257];
	long long operator_uid;
	char judged_at[TIMESTAMP_SIZE];
	long long audit_seq;
};

/* The judgments of action_id, first judged first; *rows owned. */
int store_judgments_of(struct store *, const char *action_id,
    struct judgment_row **rows, size_t *count, struct error *);
void store_judgments_free(struct judgment_row *, size_t count);
/* The same as {"AC-1": "met"} (newly allocated), or NULL when none. */
int store_judgments_load(struct store *, const char *action_id,
    cJSON **judgments, struct error *);
/* Records one judgment row, in the transaction of its audit record. */
int store_judgment_insert(struct store *, const char *action_id,
    const struct judgment_row *, struct error *);

/* Loads the inputs a recorded decision used, for replay (audit replay). */
int store_load_recorded(struct store *, const char *action_id,
    const cJSON *rule_inputs, long long now_ms, struct check_data *,
    struct error *);

/* ---- Programs as clients (SPEC 12): status, waits and the feed ---- */

/* An action's state and, once decided, its decision and that record. */
struct action_status {
	char action_id[257];
	char kind[32];
	char status[16];		/* pending, approved, rejected */
	char *raw_json;			/* the packet as stored; owned */
	size_t raw_length;
	bool has_expiry;
	long long expires_at_ms;
	bool decided;
	struct decision_row decision;	/* when decided; pointers NULL */
	char hash[65];			/* the decision record's, "" if none */
	char *record_json;		/* the decision record, owned, or NULL */
};

/* The action of exactly this id: *found false when there is none. */
int store_action_status(struct store *, const char *action_id,
    struct action_status *, bool *found, struct error *);
void action_status_free(struct action_status *);
/*
 * Up to limit ids that start with prefix (limit + 1 tells "more"), each
 * newly allocated into ids[]; *count how many.
 */
int store_action_matches(struct store *, const char *prefix, char **ids,
    int limit, int *count, struct error *);
/* Calls fn for up to limit records after after_seq, in order. */
int store_audit_after(struct store *, long long after_seq, int limit,
    int (*fn)(void *ctx, long long seq, const char *record_json,
    const char *hash), void *ctx, struct error *);
/*
 * Watching for other writers' commits: store_watch_start once, then
 * store_watch_changed whenever store_watch_fd is readable (PostgreSQL's
 * NOTIFY) or a timer fires (SQLite, fd -1: PRAGMA data_version); it
 * says whether anything may have been committed since the last call.
 */
int store_watch_start(struct store *, struct error *);
int store_watch_fd(struct store *);
int store_watch_changed(struct store *, bool *changed, struct error *);

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
	bool has_expiry;
	long long expires_at_ms;
	char *requester;		/* sanitized requested_by, or "" */
	char *author;			/* sanitized author, or "" */
	bool has_drafted;		/* drafted_at: what AGE counts from */
	long long drafted_at_ms;
	/* SPEC 14: approvals so far and the quorum the last one counted. */
	int approvals;
	int quorum_needed;
	/*
	 * What list prints beyond the fields above, as JSON (schema 21,
	 * queue_row_listed()): stored with the row; NULL when not built.
	 */
	char *listed;
};

void queue_row_free(struct queue_row *);

/*
 * Up to max rejections escalated to a person that no later version has
 * answered yet, newest first (issue 21): *ids, NULL-terminated, newly
 * allocated, each id too.
 */
int store_escalated_candidates(struct store *, size_t max, char ***ids,
    size_t *count, struct error *);

/* ---- The queue index (schema 3): what the review screens page through ---- */

enum queue_filter {
	QUEUE_ALL,
	QUEUE_NEEDS_CARE,		/* local failure or divergence */
	QUEUE_ADVISORY_PASS_LOCAL_FAIL,
	QUEUE_HIGH_STAKES,
	QUEUE_CLEAN,			/* bulk-eligible */
	QUEUE_FILTER_COUNT
};

enum queue_sort {
	QUEUE_BY_CARE,			/* failures and divergences, then stakes, then oldest */
	QUEUE_OLDEST,
	QUEUE_NEWEST,
	QUEUE_BY_KIND,
	QUEUE_SORT_COUNT
};

struct queue_query {
	enum queue_filter filter;
	enum queue_sort sort;
	/* substring of id, who, requester, author, kind or summary; or NULL */
	const char *search;
	long long now_ms;		/* what "expired" means */
};

/* The policy epoch: bumped by every policy import, so index rows go stale. */
int store_policy_epoch(struct store *, long long *epoch, struct error *);
/*
 * Marks stale the index rows of the pending actions a policy object just
 * stored can change (issue 24): an IPS or holdings, its user's trades; the
 * security map, every trade; a standards index, every change; a roster,
 * every action (the lockout of every kind reads it).  A new object
 * re-checked all 200,000 pending actions for minutes otherwise.
 */
int store_queue_mark_touched(struct store *, const struct loaded_object *,
    struct error *);
/* Marks action_id's index row stale: a judgment changed its verdict. */
int store_queue_mark_stale(struct store *, const char *action_id,
    struct error *);
/* Marks the index rows of actions revising action_id stale. */
int store_queue_mark_revisions(struct store *, const char *action_id,
    struct error *);
/* Calls fn for each pending action whose index row is stale or has expired. */
int store_queue_each_stale(struct store *, long long now_ms,
    int (*fn)(void *ctx, const char *action_id), void *ctx, struct error *);
int store_queue_put(struct store *, const struct queue_row *, long long epoch,
    struct error *);
int store_queue_count(struct store *, const struct queue_query *,
    long *count, struct error *);
/* The header's figures, kept as the queue changes (schema 5). */
int store_queue_totals(struct store *, long *pending, long *high_stakes,
    long *needs_care, struct error *);
/* Recounts them if they disagree with the rows; *repaired if they did. */
int store_queue_totals_repair(struct store *, bool *repaired,
    struct error *);
/*
 * An action as list reads it (schema 21): its row of the action table
 * and, when indexed, its queue row of the current policy epoch with what
 * list prints beyond it (row.listed); else list checks it again.
 */
struct listed_action {
	struct queue_row row;		/* id, kind, status, times always */
	bool indexed;
	char importer_login[257];	/* "" when nobody is known (schema 19) */
	long long importer_uid;
	bool importer_served;
	char indexed_kind[32];		/* the queue row's kind, "" if none */
	const char *packet;		/* the stored packet, NULL if none */
	size_t packet_length;
};
/*
 * Each action, pending ones only unless all, in the order
 * store_each_check() reads them; a is fn's for the call only.
 */
int store_each_listed(struct store *, bool all,
    int (*fn)(void *ctx, struct listed_action *a), void *ctx,
    struct error *);
/* Up to limit rows from offset; *got says how many (rows to queue_row_free). */
int store_queue_page(struct store *, const struct queue_query *, long offset,
    long limit, struct queue_row *rows, long *got, struct error *);
/* Changes whenever another connection commits (PRAGMA data_version). */
int store_data_version(struct store *, long long *version, struct error *);

/* Savepoints inside the current transaction (batch --atomic). */
int store_savepoint(struct store *, struct error *);
int store_release(struct store *, struct error *);
void store_rollback_savepoint(struct store *);
/*
 * Writes the audit head to syslog (authpriv) for an outside copy; false
 * when no syslog listens, so that nothing took it (SPEC v2 6: the
 * command says so, announce_head() in commands.h).
 */
bool store_audit_announce(const struct store *, const struct audit_head *);
/*
 * A refusal to extend the log (SPEC 13: records beyond the latest signed
 * checkpoint, a checkpoint file no longer on the chain), to syslog
 * (authpriv.err) and to the fd of store_audit_alarm_fd(): the operator
 * who must look reads one of them; the command itself reports the error.
 */
void store_audit_alarm(const char *message);
/* A service's own stderr, for a request whose stderr is its client's. */
void store_audit_alarm_fd(int fd);
/*
 * Service mode (issue 19): every head announced is also appended to path
 * as "seq hash time", a file the database's writers cannot rewrite.
 */
void store_checkpoint_file(const char *path);
/* That path, or NULL (SPEC 13: the file is checked whole). */
const char *store_checkpoint_file_path(void);
#endif
