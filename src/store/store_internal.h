/* Shared by the store's files only. */
#ifndef COUNTERSIGN_STORE_INTERNAL_H
#define COUNTERSIGN_STORE_INTERNAL_H

#include "db.h"

#include "store.h"

/*
 * Statements prepared once per connection and reused: preparing one
 * costs more than running it for the small statements a decision makes.
 */
enum statement {
	SQL_ACTION_GET,
	SQL_ACTION_INSERT,
	SQL_IPS_GET,
	SQL_IPS_INSERT,
	SQL_IPS_ACTIVE,
	SQL_HOLDINGS_GET,
	SQL_HOLDINGS_INSERT,
	SQL_HOLDINGS_CURRENT,
	SQL_SECURITY_GET,
	SQL_SECURITY_PUT,
	SQL_DOCUMENT_GET,
	SQL_DOCUMENT_PUT,
	SQL_AUDIT_HEAD,
	SQL_AUDIT_INSERT,
	SQL_DECISION_APPEND,
	SQL_DECISION_GET,
	SQL_DECISION_INSERT,
	SQL_ACTION_SET_STATUS,
	SQL_DECISION_RECORD,
	SQL_QUEUE_REMOVE,
	SQL_QUEUE_FLAGS,
	SQL_QUEUE_TOTALS_ADD,
	SQL_REVISIONS_OF,
	SQL_QUEUE_MARK_STALE,
	SQL_QUEUE_PUT,
	SQL_POLICY_EPOCH,
	SQL_SAVEPOINT,
	SQL_RELEASE,
	SQL_ROLLBACK_TO,
	SQL_ACTION_EXACT_ID,
	SQL_ACTION_ID_RANGE,
	SQL_IDS_KNOWN,
	SQL_QUEUE_INSERT,
	SQL_APPROVAL_POLICIES,		/* approvals.c (SPEC 14) */
	SQL_APPROVALS_OF,
	SQL_JUDGMENTS_OF,		/* judgments.c (SPEC 2.3) */
	SQL_ACTION_PACKET,		/* action_packet.c (SPEC 7) */
	SQL_STATEMENT_COUNT
};

/* The statements of artifact.c, prepared once per connection. */
enum artifact_statement {
	ART_NODE_GET,
	ART_NODE_PUT,
	ART_SIZE_GET,
	ART_SIZE_GROW,
	ART_SIZE_DROP,
	ART_RELABEL,
	ART_RELABEL_TREE,
	ART_RELABEL_LOCKS,
	ART_LOCK_PUT,
	ART_LOCK_FIND,
	ART_PEOPLE,
	ART_PR_PUT,
	ART_PR_REJECTED,
	ART_PR_FIND,
	ART_SIBLING_APPROVED,
	ART_ARTIFACT_ID_REJECTED,
	ART_VERSION,
	ART_VERSIONS,
	ART_LOCKING_VERSIONS,
	ART_QUEUE_STALE,
	ART_LOCKS_ANY,
	ART_LOCKS_BY,
	ART_BUILT,
	ART_TO_BUILD,
	ARTIFACT_STATEMENTS
};

/*
 * The columns of a version as the artifact's reads give them
 * (artifact_chain.c, the statements in artifact.c and their PostgreSQL
 * texts in pg_statements.c): a the action, d its decision, p its pull
 * request.
 */
#define VERSION_COLUMNS \
	"a.action_id, a.author, a.status, a.revision_of, a.artifact_id," \
	" json_extract(a.raw_json, '$.proposed_action.contributors')," \
	" d.reassign_to, d.escalate, d.blocked_on, d.operator_login," \
	" d.escalate_expertise, p.pr_url"

/* PostgreSQL's own texts of some statements, NULL where none (pg_statements.c). */
extern const char *const pg_store_sql[];
extern const char *const pg_artifact_sql[];
/*
 * What each statement of store.c and artifact.c does (db.h's DB_READS,
 * DB_WRITES or DB_MARKS): one declaration for both backends' texts.
 */
extern const int store_statement_use[];
extern const int artifact_statement_use[];

/*
 * policy_prefetch.c: a single re-check's policy reads under the write
 * lock, sent to be prefetched (db_prefetch_add) and waited for in one
 * trip; the securities once the holdings are known.  Nothing on SQLite.
 */
int store_prefetch_policy(struct store *, const struct rule_pack *,
    const char *user_id, const struct check_input *, struct error *);
int store_prefetch_securities(struct store *, const struct rule_pack *,
    const struct check_input *, const cJSON *holdings, struct error *);

/* One security map entry a cached pass has read (security_cache.c). */
struct security_cached {
	char *key;			/* the ticker in upper case, as stored */
	cJSON *entry;			/* {sector, asset_class}; NULL: not in the map */
	unsigned long wanted_by;	/* the last load that wanted it */
};

struct security_cache {
	void *root;			/* tsearch(3) tree of struct security_cached */
	unsigned long loads;		/* counts the loads, for wanted_by */
};

/* The entry read for key before, or NULL if it was not read yet. */
struct security_cached *security_cache_find(const struct security_cache *,
    const char *key);
/*
 * Keeps entry (the cache's from now on, NULL for "not in the map") under
 * key; NULL if out of memory or key is there already (find it first).
 */
struct security_cached *security_cache_add(struct security_cache *,
    const char *key, cJSON *entry);
void security_cache_clear(struct security_cache *);

/* One user's IPS and holdings, as a policy cache holds them. */
struct user_policy {
	char *user_id;			/* whose they are, or NULL: empty */
	cJSON *ips;
	cJSON *holdings;
};

/*
 * Users a cached pass holds at once, each in the slot a hash of its id
 * picks.  One slot made a queue that interleaves users re-read and
 * re-parse both documents for nearly every action (1.75 times the time
 * of a check of one user's actions, bench/README.md).  With 256, 50
 * users interleaved seldom share a slot (64 left 1.35 times, 256 1.21,
 * bench/scale.sh), and the memory stays bounded by 256 users' documents,
 * some 2 MB.
 */
#define POLICY_USERS 256

/*
 * Policy trees kept across the re-checks of one pass (check, list,
 * refreshing the queue index, indexing what import stores), so that
 * 100,000 actions of one user do not parse that user's IPS and holdings
 * 100,000 times.  The decision path never uses it: it reads afresh
 * inside its own transaction.
 */
struct policy_cache {
	bool enabled;
	struct user_policy users[POLICY_USERS];
	bool roster_loaded;
	cJSON *roster;
	bool standards_loaded;
	cJSON *standards;
	struct security_cache securities; /* every entry read so far */
};

/*
 * The last text of one kind of policy document a single re-check read
 * (a decision's, above all), kept parsed and printed.  The next read
 * compares the bytes it gets, inside its own transaction, and only on a
 * difference parses and prints again: a batch deciding one user's actions
 * parsed that user's IPS and holdings, and printed them for the inputs
 * hash, once per decision.
 */
struct document_memo {
	char *raw;			/* exactly as stored */
	size_t length;
	cJSON *tree;
	char *printed;			/* json_canonical(tree, JSON_FORMAT_CURRENT) */
	char sha256[65];		/* of raw: the policy object's name */
	/*
	 * Held (policy_held.c): read for key (the user's id, or the
	 * document's type) in the write transaction of this generation.
	 */
	char *key;
	unsigned long held;
};

enum document_kind { DOCUMENT_IPS, DOCUMENT_HOLDINGS, DOCUMENT_STANDARDS,
	DOCUMENT_ROSTER, DOCUMENT_KINDS };

/* The header's totals (schema 5) moved by the open transaction's rows. */
struct queue_totals_change {
	long pending;
	long high_stakes;
	long needs_care;
};

struct store {
	struct db *db;			/* SQLite or PostgreSQL (db.h) */
	char *path;
	bool in_transaction;
	/*
	 * Written to queue_totals once, at the commit: a row per queue row
	 * cost an import a twentieth more.  The copy at the savepoint is
	 * what a rolled-back decision goes back to; one copy, as savepoints
	 * are one level deep (one per decision of an --atomic batch).
	 */
	struct queue_totals_change totals_change;
	struct queue_totals_change totals_at_savepoint;
	db_stmt *statements[SQL_STATEMENT_COUNT];
	struct policy_cache cache;
	struct document_memo memo[DOCUMENT_KINDS];
	/*
	 * What the open write transaction read of the policy (policy_held.c):
	 * its generation, and the security entries a single re-check read.
	 */
	unsigned long policy_generation;
	struct security_cache held_securities;
	cJSON *held_approval_policies;	/* NULL: not read yet */
	struct fresh_ids *fresh;	/* this transaction's (fresh_ids.c) */
	db_stmt *artifact_statements[ARTIFACT_STATEMENTS];
	/* The transaction appended to the audit log: its COMMIT notifies. */
	bool audit_appended;
	long long watched_version;	/* store_watch_changed's last look */
	struct log_state *log;		/* the signed log's (store_log.c) */
};

/* The NOTIFY of a transaction that appended a record (watch.c). */
int store_watch_notify(struct store *, struct error *);

/*
 * Holds a stored object to what import accepts (store_queries.c): 0, or
 * EXIT_STORAGE naming the row by key; o points into tree, which stays
 * the caller's.
 */
int store_object_valid(struct store *, cJSON *tree, enum object_type want,
    const char *key, struct loaded_object *o, struct error *);
/*
 * A policy object by its SHA-256, checked against it and against its
 * type (policy_object.c); *out is the caller's.
 */
int store_policy_object_load(struct store *, const char *sha256,
    enum object_type, cJSON **out, struct error *);

/*
 * fresh_ids.c: what the transaction knows of ids store_expect_actions()
 * found new, kept by the store's writes; each question answers true only
 * when the answer is known, false meaning "ask the database".
 */
bool store_fresh_absent(const struct store *, const char *id);
bool store_fresh_unqueued(const struct store *, const char *id);
bool store_fresh_unnamed(const struct store *, const char *id);
/* No revision names it and its own row neither revises nor has an artifact. */
bool store_fresh_alone(const struct store *, const char *id);
void store_fresh_inserted(struct store *, const char *id,
    const char *revision_of, const char *artifact_id);
void store_fresh_queued(struct store *, const char *id);
/* At the end of the transaction: what it knew no longer holds. */
void store_fresh_forget(struct store *);

/* Drops the document memos (store_close). */
void store_forget_documents(struct store *);
/*
 * document_memo.c: the next row of stmt read through memo m (none: *out
 * NULL, and held as that), or what a memo holds given, without a read;
 * *out and *printed are the caller's copies.
 */
int store_row_json_memo(struct store *, db_stmt *, struct document_memo *m,
    enum object_type want, const char *key, cJSON **out, char **printed,
    struct error *);
int store_memo_give(struct document_memo *m, cJSON **out, char **printed,
    struct error *);

/*
 * policy_held.c: what a single re-check read of the policy inside a write
 * transaction stays true until the transaction ends or the store writes a
 * policy object; store_policy_unhold() says either happened.  A memo held
 * for key is the row; the held securities and approval policies (NULL
 * outside a write transaction) are what was read of them so far.
 */
void store_policy_unhold(struct store *);
bool store_memo_held(const struct store *, const struct document_memo *,
    const char *key);
void store_memo_hold(struct store *, struct document_memo *,
    const char *key);
struct security_cache *store_held_securities(struct store *);
/* The approval policies in force as read (an array), or NULL: read them. */
const cJSON *store_held_approval_policies(const struct store *);
void store_hold_approval_policies(struct store *, const cJSON *policies);
/* The statement, reset and with its bindings cleared; NULL on error. */
db_stmt *store_statement(struct store *, enum statement, struct error *);
/* Sets an EXIT_STORAGE error from the connection's last error. */
int store_error(struct store *, struct error *, const char *doing);

/*
 * How the rows of one action become an array of records (rows.c): the
 * statement, whose ?1 is the action's id, the size of one record, take()
 * filling one from the current row (false when memory ran out; what it
 * took so far is released all the same), release() freeing count of them
 * and the array, and what the store was doing, for errors.
 */
struct rows_spec {
	enum statement sql;
	size_t size;
	bool (*take)(void *record, db_stmt *);
	void (*release)(void *records, size_t count);
	const char *what;
};
/* The spec's rows of action_id into *rows; 0, or an exit code. */
int store_rows_read(struct store *, const struct rows_spec *,
    const char *action_id, void **rows, size_t *count, struct error *);

/*
 * audit verify's look at the rows a kind of record wrote (record_rows.c):
 * a statement that reads the rows of one id, and how many rows the
 * records walked so far account for.
 */
struct record_rows {
	db_stmt *by_id;
	long long seen;
};
int record_rows_open(struct store *, const char *by_id_sql, const char *what,
    struct record_rows **, struct error *);
void record_rows_close(struct record_rows *);
/* The table's rows (count_sql: one count), to set beside seen. */
int record_rows_count(struct store *, const char *count_sql, const char *what,
    long long *rows, struct error *);
/* object[a] (or object[a][b]) when it is a string, else NULL. */
const char *record_text(const cJSON *object, const char *a, const char *b);
/* Whether column i holds want as text (NULL: holds NULL), or the number. */
bool row_text_is(db_stmt *, int i, const char *want);
bool row_number_is(db_stmt *, int i, const cJSON *want);

/*
 * audit verify's look at approval rows (approvals.c, SPEC 14) and at the
 * product owner's judgments (judgments.c, SPEC 2.3): each record as the
 * walk meets it, then the count; problem is "" when the rows agree.  A
 * status only when the rows could not be read.
 */
int store_approval_check_open(struct store *, struct record_rows **,
    struct error *);
int store_approval_check_record(struct record_rows *, long long seq,
    const cJSON *record, char *problem, size_t size);
int store_approval_check_finish(struct store *, struct record_rows *,
    char *problem, size_t size, struct error *);
int store_judgment_check_open(struct store *, struct record_rows **,
    struct error *);
int store_judgment_check_record(struct record_rows *, long long seq,
    const cJSON *record, char *problem, size_t size);
int store_judgment_check_finish(struct store *, struct record_rows *,
    char *problem, size_t size, struct error *);

/*
 * The policy the audit chain vouches for (policy_audited.c, issue 35):
 * rebuilt from its policy_import records as audit verify walks them.
 * audited_policy_record() takes one record (json parsed on demand, the
 * caller's; type and object_sha256 as json_object_quick() found them, or
 * NULL values): an import changes the state, a decision's or approval's
 * rule_inputs are held to it.  0, 1 with problem set, or -1 when out of
 * memory.  audited_policy_check_tables() holds the policy rows the gate
 * reads to the whole log's imports, setting report's bad_seq and problem.
 */
struct audited_policy;
struct audited_policy *audited_policy_new(void);
void audited_policy_free(struct audited_policy *);
int audited_policy_apply(struct audited_policy *, long long seq,
    const cJSON *record);
bool audited_policy_vouches(const struct audited_policy *,
    const cJSON *record, char *problem, size_t size);
struct json_wanted;
int audited_policy_record(struct audited_policy *, long long seq,
    bool import, bool decided, const struct json_wanted *type,
    const struct json_wanted *sha256, const char *record, size_t length,
    cJSON **json, char *problem, size_t size);
int audited_policy_check_tables(struct store *,
    const struct audited_policy *, struct audit_report *, struct error *);

/*
 * What a store's schema version means, whatever the backend: -1 when it
 * is current, 0 when the migrations may bring it there, else the exit
 * code of the error set (newer than this program, not countersign's —
 * not_ours says what it is then — or empty where nothing may be made).
 */
/* The schema_version table's version, either backend; < -1 on error. */
int schema_version_read(struct store *, struct error *);
int schema_version_judged(const struct store *, int version, int latest,
    bool empty, bool may_create, const char *not_ours, struct error *);
/* Schema: migrations to the current version (schema.c). */
int schema_migrate(struct store *, bool may_create, struct error *);
/*
 * The same on PostgreSQL (pg_schema.c), which refuses a database or a
 * program whose schema is not at sqlite_version.
 */
int pg_schema_migrate(struct store *, int sqlite_version, bool may_create,
    struct error *);
/*
 * Takes a decided action's row out of the queue (on PostgreSQL the
 * decision's function did), and out of its totals; marks its artifact's
 * other versions stale.
 */
int store_queue_remove(struct store *, const char *action_id,
    const struct store_decided *before, struct error *);
/* Marks the queue rows of the revisions d lists stale. */
int store_queue_mark_each(struct store *, const struct store_decided *d,
    struct error *);
/* Writes the transaction's change of the totals, before its commit. */
int store_queue_totals_flush(struct store *, struct error *);

/*
 * Which versions of an artifact a check reads (artifact_chain.c); each
 * reading gives the lockout rule of SPEC 2.4 the same answers.
 * ARTIFACT_EVERY_VERSION: all of them (a single check, the detail view).
 * ARTIFACT_FOR_DECISION: those a decision's answers and its record
 * depend on: the version revised, its first approved revision, a
 * rejected version sharing the artifact_id or pull request, and every
 * rejection that locks people out (the record's locked_out, a
 * reassign_to, the deadlock); so the record's revision_chain grows with
 * the rejections, not with the versions (issue 34).
 * ARTIFACT_FOR_PASS: a pass over the queue, only those the rule and the
 * deadlock flag need for an action of this status and roster.
 */
enum artifact_reading {
	ARTIFACT_EVERY_VERSION,
	ARTIFACT_FOR_DECISION,
	ARTIFACT_FOR_PASS
};

/*
 * The artifacts of SPEC 2.4 as the store keeps them (artifact.c; the
 * chain is read in artifact_chain.c).
 * store_artifact_stored: the action o, just stored, joins what it names
 * (EXIT_DATA for a revision_of that makes a cycle).
 * store_artifact_decided: a rejection (blocked: held for a standard)
 * locks its people out of the artifact of that label (NULL: none).
 * store_artifact_mark_stale: every other version's queue row is checked
 * again.
 * store_artifact_label: the label of action_id's artifact (the caller's),
 * or NULL: it has none, or is alone in the store's fresh ids.
 * store_artifact_chain: the other versions of the packet's action as the
 * lockout rule reads them (check_input.revision_chain), NULL when alone,
 * as the reading says (enum artifact_reading).
 * store_artifacts_build: after a migration that made the tables, the
 * artifacts of the stored actions, computed once.
 * store_artifact_prefetch: the first read of action_id's artifact, sent
 * to be prefetched (db_prefetch_add).
 */
int store_artifact_stored(struct store *, const struct loaded_object *,
    struct error *);
int store_artifact_decided(struct store *, const char *action_id,
    const char *label, bool rejected, bool blocked, struct error *);
int store_artifact_mark_stale(struct store *, const char *action_id,
    const char *label, struct error *);
int store_artifact_label(struct store *, const char *action_id,
    char **label, struct error *);
int store_artifact_chain(struct store *, const cJSON *packet,
    const char *status, enum artifact_reading, const cJSON *roster,
    cJSON **out, struct error *);
int store_artifacts_build(struct store *, struct error *);
int store_artifact_prefetch(struct store *, const char *action_id,
    struct error *);
void store_artifact_statements_close(struct store *);

/*
 * Migration 14's indexes and its mark that the artifact sets are to be
 * built (artifact.c), which both backends' schemas write alike: once here,
 * so that they cannot drift apart.
 */
#define ARTIFACT_INDEXES_SQL \
	"CREATE INDEX artifact_pr_rejected ON artifact_pr (pr_url, rejected);" \
	"DROP INDEX IF EXISTS action_by_artifact;" \
	"CREATE INDEX action_by_artifact ON action (artifact_id, status)" \
	"  WHERE artifact_id IS NOT NULL;" \
	"DROP INDEX IF EXISTS action_by_revision;" \
	"CREATE INDEX action_by_revision ON action (revision_of, status)" \
	"  WHERE revision_of IS NOT NULL;" \
	"DELETE FROM meta WHERE key = 'artifacts_built';" \
	"INSERT INTO meta VALUES ('artifacts_built', 0);"

/*
 * The action table's text columns, which migration 1 (schema.c) and
 * PostgreSQL's 10 (pg_schema.c) declare alike; its times differ (INTEGER,
 * BIGINT), so only these are written once.
 */
#define ACTION_TEXT_COLUMNS_SQL \
	"  action_id TEXT PRIMARY KEY," \
	"  kind TEXT NOT NULL," \
	"  user_id TEXT," \
	"  author TEXT," \
	"  revision_of TEXT," \
	"  requested_by TEXT,"

#endif
