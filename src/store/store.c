/* Opening the shared database, its pragmas, transactions and statements. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit_codes.h"
#include "store_internal.h"
#include "store_log.h"
#include "text.h"

/*
 * Several officers write at once: a busy database is waited for, never
 * reported.  Ten seconds covers any realistic queue of decisions.
 */
#define BUSY_TIMEOUT_MS 10000

#define AUDIT_INSERT_SQL \
	"INSERT INTO audit_log (seq, record_json, prev_hash, hash)" \
	" VALUES (?1, ?2, ?3, ?4)"

static const char *const statement_sql[SQL_STATEMENT_COUNT] = {
	[SQL_ACTION_GET] =
	    "SELECT kind, raw_json, status, imported_at_ms, expires_at_ms,"
	    " importer_login, importer_uid, importer_via"
	    " FROM action WHERE action_id = ?1",
	[SQL_IPS_GET] =
	    "SELECT raw_json FROM ips WHERE ips_id = ?1 AND version = ?2",
	[SQL_IPS_INSERT] =
	    "INSERT INTO ips (ips_id, version, user_id, raw_json,"
	    " imported_at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
	/* The active IPS: highest version; a tie goes to the latest import. */
	[SQL_IPS_ACTIVE] =
	    "SELECT raw_json FROM ips WHERE user_id = ?1"
	    " ORDER BY version DESC, rowid DESC LIMIT 1",
	[SQL_HOLDINGS_GET] =
	    "SELECT raw_json FROM holdings WHERE snapshot_id = ?1",
	[SQL_HOLDINGS_INSERT] =
	    "INSERT INTO holdings (snapshot_id, user_id, as_of_ms, raw_json,"
	    " imported_at_ms, as_of_beyond_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[SQL_HOLDINGS_CURRENT] =
	    "SELECT raw_json FROM holdings WHERE user_id = ?1"
	    " ORDER BY as_of_ms DESC, as_of_beyond_ms DESC, rowid DESC LIMIT 1",
	[SQL_SECURITY_GET] =
	    "SELECT ticker, sector, asset_class, price_usd FROM security"
	    " WHERE ticker_key = ?1",
	[SQL_SECURITY_PUT] =
	    "INSERT INTO security (ticker_key, ticker, sector, asset_class,"
	    " imported_at_ms, price_usd) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
	    " ON CONFLICT (ticker_key) DO UPDATE SET ticker = excluded.ticker,"
	    " sector = excluded.sector, asset_class = excluded.asset_class,"
	    " imported_at_ms = excluded.imported_at_ms,"
	    " price_usd = excluded.price_usd",
	[SQL_DOCUMENT_GET] =
	    "SELECT raw_json FROM policy_document WHERE type = ?1",
	[SQL_AUDIT_HEAD] =
	    "SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1",
	[SQL_AUDIT_INSERT] = AUDIT_INSERT_SQL,
	/*
	 * A decision's record (store_decision_append): here the audit row
	 * alone, SQL_DECISION_INSERT writing the decision's; PostgreSQL's
	 * text writes both (pg_statements.c).
	 */
	[SQL_DECISION_APPEND] = AUDIT_INSERT_SQL,
	[SQL_DECISION_GET] =
	    "SELECT decision_id, decision, operator_login, operator_uid,"
	    " decided_at, audit_seq, escalate FROM decision WHERE action_id = ?1",
	[SQL_DECISION_INSERT] =
	    "INSERT INTO decision (action_id, decision_id, decision,"
	    " operator_login, operator_uid, decided_at, audit_seq, reassign_to,"
	    " escalate, blocked_on, escalate_expertise)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[SQL_ACTION_SET_STATUS] =
	    "UPDATE action SET status = ?2 WHERE action_id = ?1"
	    " AND status = 'pending'",
	[SQL_DECISION_RECORD] =
	    "SELECT l.record_json FROM decision d JOIN audit_log l"
	    " ON l.seq = d.audit_seq WHERE d.action_id = ?1",
	[SQL_QUEUE_REMOVE] =
	    "DELETE FROM queue_index WHERE action_id = ?1",
	/* ?1 has another version: it revises, is revised or names one. */
	[SQL_QUEUE_FLAGS] =
	    "SELECT flags FROM queue_index WHERE action_id = ?1",
	[SQL_QUEUE_TOTALS_ADD] =
	    "UPDATE queue_totals SET pending = pending + ?1,"
	    " high_stakes = high_stakes + ?2, needs_care = needs_care + ?3",
	/*
	 * Two statements, not "WHERE action_id IN (SELECT ...)": that builds
	 * a temporary table on every run, and import runs it for every new
	 * action, nearly always to find no revision at all.
	 */
	[SQL_REVISIONS_OF] =
	    "SELECT action_id FROM action WHERE revision_of = ?1",
	[SQL_QUEUE_MARK_STALE] =
	    "UPDATE queue_index SET epoch = 0 WHERE action_id = ?1",
	/*
	 * One statement for a new action's row and a re-checked one's:
	 * import writes each new row once, checked, not a placeholder it
	 * then updates (every index of the row written twice).
	 */
	[SQL_QUEUE_PUT] =
	    "INSERT INTO queue_index (action_id, kind, epoch, care, flags, who,"
	    " summary, advisory, divergence_count, imported_at_ms,"
	    " expires_at_ms, requester, author, drafted_at_ms, listed) VALUES"
	    " (?1, ?9, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, ?11, ?12, ?13, ?14, ?15)"
	    " ON CONFLICT (action_id) DO UPDATE SET epoch = excluded.epoch,"
	    " care = excluded.care, flags = excluded.flags, who = excluded.who,"
	    " summary = excluded.summary, advisory = excluded.advisory,"
	    " divergence_count = excluded.divergence_count,"
	    " requester = excluded.requester, author = excluded.author,"
	    " drafted_at_ms = excluded.drafted_at_ms, listed = excluded.listed",
	[SQL_POLICY_EPOCH] =
	    "SELECT value FROM meta WHERE key = 'policy_epoch'",
	/* Prepared once: an --atomic batch opens one per decision. */
	[SQL_SAVEPOINT] = "SAVEPOINT decision",
	[SQL_RELEASE] = "RELEASE decision",
	[SQL_ROLLBACK_TO] = "ROLLBACK TO decision",
	/* Action ids by a unique prefix (action_prefix.c). */
	[SQL_ACTION_EXACT_ID] =
	    "SELECT action_id FROM action WHERE action_id = ?1",
	[SQL_ACTION_ID_RANGE] =
	    "SELECT action_id FROM action WHERE action_id > ?1"
	    " AND action_id < ?2 ORDER BY action_id",
	/* Which of a JSON array of ids some action has, as id or revision_of. */
	[SQL_IDS_KNOWN] =
	    "SELECT j.value FROM json_each(?1) j WHERE EXISTS (SELECT 1"
	    " FROM action WHERE action_id = j.value) OR EXISTS (SELECT 1"
	    " FROM action WHERE revision_of = j.value)",
	[SQL_DOCUMENT_PUT] =
	    "INSERT INTO policy_document (type, raw_json, imported_at_ms)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT (type) DO UPDATE SET"
	    " raw_json = excluded.raw_json,"
	    " imported_at_ms = excluded.imported_at_ms",
	/* SPEC 14: read by every decision, so prepared once (approvals.c). */
	[SQL_APPROVAL_POLICIES] =
	    "SELECT p.raw_json, p.policy_id FROM approval_policy p"
	    " WHERE p.version = (SELECT max(q.version) FROM approval_policy q"
	    " WHERE q.policy_id = p.policy_id) ORDER BY p.policy_id",
	[SQL_APPROVALS_OF] =
	    "SELECT approval_id, operator_login, operator_uid, approved_at,"
	    " reason, needed, have, audit_seq FROM approval"
	    " WHERE action_id = ?1 ORDER BY audit_seq",
	[SQL_JUDGMENTS_OF] =
	    "SELECT ac_id, judgment, judgment_id, operator_login,"
	    " operator_uid, judged_at, audit_seq FROM po_judgment"
	    " WHERE action_id = ?1 ORDER BY audit_seq, ac_id",
	[SQL_ACTION_PACKET] =
	    "SELECT raw_json FROM action WHERE action_id = ?1",
};

/*
 * What each statement above does, as db_prepare() must be told (db.h):
 * a read unless listed here.  SQLite refuses a read that writes, so a
 * write missing here fails every test that runs it.
 */
const int store_statement_use[SQL_STATEMENT_COUNT] = {
	[SQL_IPS_INSERT] = DB_WRITES,
	[SQL_HOLDINGS_INSERT] = DB_WRITES,
	[SQL_SECURITY_PUT] = DB_WRITES,
	[SQL_DOCUMENT_PUT] = DB_WRITES,
	[SQL_AUDIT_INSERT] = DB_WRITES,
	[SQL_DECISION_APPEND] = DB_WRITES,
	[SQL_DECISION_INSERT] = DB_WRITES,
	[SQL_ACTION_SET_STATUS] = DB_WRITES,
	[SQL_QUEUE_REMOVE] = DB_WRITES,
	[SQL_QUEUE_TOTALS_ADD] = DB_WRITES,
	[SQL_QUEUE_MARK_STALE] = DB_WRITES,
	[SQL_QUEUE_PUT] = DB_WRITES,
	[SQL_SAVEPOINT] = DB_MARKS,
	[SQL_RELEASE] = DB_MARKS,
	/* Undoes rows nobody counted: as much a change as any write. */
	[SQL_ROLLBACK_TO] = DB_WRITES,
};

/*
 * The inserts an import chunk makes a row a packet, made by
 * db_prepare_rows() so that PostgreSQL may send many rows to a statement:
 * their tables' columns, bound ?1, ?2, ... in this order, and the order
 * of their rows (a queue row names its action: a foreign key on SQLite,
 * the store's own rule on PostgreSQL since schema 12).  Neither table has
 * a trigger that reads the table itself.
 */
static const struct {
	const char *into;
	int ncolumns, order;
} statement_rows[SQL_STATEMENT_COUNT] = {
	[SQL_ACTION_INSERT] = { "action (action_id, kind, user_id, author,"
	    " revision_of, requested_by, expires_at_ms, raw_json,"
	    " imported_at_ms, artifact_id, importer_login, importer_uid,"
	    " importer_via)", 13, 0 },
	/* SQL_QUEUE_PUT's parameters, for a row known not to exist. */
	[SQL_QUEUE_INSERT] = { "queue_index (action_id, epoch, care, flags,"
	    " who, summary, advisory, divergence_count, kind, imported_at_ms,"
	    " expires_at_ms, requester, author, drafted_at_ms, listed)", 15, 1 },
};

int
store_error(struct store *s, struct error *err, const char *doing)
{
	return error_set(err, EXIT_STORAGE, NULL, "%s: %s while %s",
	    s->path, db_errmsg(s->db), doing);
}

/* mkdir -p for the directories above path. */
static int
make_parents(const char *path, struct error *err)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
		return error_set(err, EXIT_STORAGE, NULL,
		    "database path is too long");
	for (slash = strchr(dir + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		/* 0700: a private database stays private until shared on purpose. */
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return error_set(err, EXIT_STORAGE, NULL,
			    "cannot create directory %s: %s", dir,
			    strerror(errno));
		*slash = '/';
	}
	return 0;
}

/*
 * In a setgid directory the database is shared by a group: create it
 * group-writable whatever the umask, since SQLite gives the -wal and -shm
 * files the database's own permissions.  Anywhere else it is the
 * officer's alone, 0600 whatever the umask (issue 24: a umask of 022
 * left it, its decisions and its log readable by every user).  This
 * runs before SQLite opens the file, so closing our descriptor cannot
 * drop any of its locks.
 */
static int
create_shared(const char *path, struct error *err)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	mode_t mode = 0660;
	int fd;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		snprintf(dir, sizeof dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0 || !(st.st_mode & S_ISGID))
		mode = 0600;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    mode);
	if (fd < 0)
		return errno == EEXIST ? 0 : error_set(err, EXIT_STORAGE, NULL,
		    "cannot create %s: %s", path, strerror(errno));
	if (fchmod(fd, mode) != 0) {
		close(fd);
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot set the mode of %s: %s", path, strerror(errno));
	}
	close(fd);
	return 0;
}

/* Set once, before any client, by serve (store_advise_served). */
static struct {
	bool served;
	const char *importers;
} advice;

void
store_advise_served(const char *importers)
{
	advice.served = true;
	advice.importers = importers;
}

bool
store_served(const char **importers)
{
	if (importers != NULL)
		*importers = advice.importers;
	return advice.served;
}

int
store_default_path(const char *option, char *buf, size_t size,
    struct error *err)
{
	const char *env = getenv("COUNTERSIGN_DB"), *data, *home;
	int n;

	if (option != NULL && *option != '\0')
		n = snprintf(buf, size, "%s", option);
	else if (env != NULL && *env != '\0')
		n = snprintf(buf, size, "%s", env);
	else if ((data = getenv("XDG_DATA_HOME")) != NULL && *data == '/')
		n = snprintf(buf, size, "%s/countersign/countersign.db", data);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		n = snprintf(buf, size,
		    "%s/.local/share/countersign/countersign.db", home);
	else if (advice.served)
		return error_set(err, EXIT_STORAGE, NULL, "the service has no "
		    "database: ask its administrator to start it with "
		    "serve --db");
	else
		return error_set(err, EXIT_USAGE, NULL,
		    "no database: give --db, or set COUNTERSIGN_DB or HOME");
	if (n < 0 || (size_t)n >= size)
		return error_set(err, EXIT_USAGE, NULL,
		    "database path is too long");
	return 0;
}

/* SQLite's settings for a program of one thread (db_sqlite.c). */
void
store_library_init(void)
{
	db_sqlite_library_init();
}

/*
 * A database its group shares (0660 in a setgid directory) must leave the
 * -wal and -shm files SQLite makes beside it group-writable too.  SQLite
 * creates them under the process's umask and only then widens them to
 * the database's mode, so an officer whose umask is 077 made them 0600
 * for a moment, and another officer opening the database just then got
 * "unable to open database file" (tests/shared_host.sh, eight at once).
 * Such a process keeps the group's bits out of its umask; it creates no
 * other file that the group must not read (its temporary files are
 * unlinked, the checkpoint file is made 0600 by name).
 */
static void
keep_group_access(const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) != 0 || (st.st_mode & 0060) != 0060)
		return;
	mask = umask(0);
	umask(mask & ~(mode_t)0070);
}

/*
 * No database yet behind a service: its importers make it by importing;
 * the client can give no --db of its own.
 */
static int
no_served_database(const char *path, struct error *err)
{
	int saved = errno;

	if (advice.importers == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "the service has no "
		    "database at %s yet (%s), and gives no group the import "
		    "role: ask its administrator (serve --importers)", path,
		    strerror(saved));
	return error_set(err, EXIT_STORAGE, NULL, "the service has no "
	    "database at %s yet (%s): ask a member of the group '%s' to "
	    "import something (serve --importers)", path, strerror(saved),
	    advice.importers);
}

/* Opens path with SQLite, WAL and durable commits, into s->db. */
static int
open_sqlite(struct store *s, const char *path, enum store_open_mode mode,
    struct error *err)
{
	char message[512];
	struct stat st;
	bool create = false;
	int rc;

	if (stat(path, &st) != 0) {
		if ((errno != ENOENT || mode != STORE_CREATE) && advice.served)
			return no_served_database(path, err);
		if (errno != ENOENT || mode != STORE_CREATE)
			return error_set(err, EXIT_STORAGE, NULL,
			    "no database at %s (%s); import something first "
			    "or give --db", path, strerror(errno));
		if ((rc = make_parents(path, err)) != 0)
			return rc;
		if ((rc = create_shared(path, err)) != 0)
			return rc;
		create = true;
	} else if (!S_ISREG(st.st_mode))
		return error_set(err, EXIT_STORAGE, NULL,
		    "%s is not a regular file", path);

	keep_group_access(path);
	if (db_open_sqlite(s->db, path, create, BUSY_TIMEOUT_MS, message,
	    sizeof message) != DB_OK)
		return error_set(err, EXIT_STORAGE, NULL, "cannot open %s: %s",
		    path, message);
	return 0;
}

int
store_open(const char *path, enum store_open_mode mode, struct store **out,
    struct error *err)
{
	struct store *s;
	char message[512];

	*out = NULL;
	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (s->db = calloc(1, sizeof *s->db)) == NULL ||
	    (s->path = text_copy(path)) == NULL) {
		if (s != NULL)
			free(s->db);
		free(s);
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	if (db_is_uri(path)) {
		/* The backend names the database without its password. */
		if (db_open_postgresql(s->db, path, message, sizeof message) !=
		    DB_OK) {
			error_set(err, EXIT_STORAGE, NULL,
			    "cannot connect to PostgreSQL: %s", message);
			goto fail;
		}
		free(s->path);
		if ((s->path = text_copy(message)) == NULL) {
			error_set(err, EXIT_STORAGE, NULL, "out of memory");
			goto fail;
		}
	} else if (open_sqlite(s, path, mode, err) != 0)
		goto fail;
	if (schema_migrate(s, mode == STORE_CREATE, err) != 0)
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return err->status;
}

void
store_close(struct store *s)
{
	size_t i;

	if (s == NULL)
		return;
	if (s->in_transaction)
		store_rollback(s);
	store_cache_policy(s, false);
	store_forget_documents(s);
	store_policy_unhold(s);
	store_log_free(s);
	for (i = 0; i < SQL_STATEMENT_COUNT; i++)
		db_finalize(s->statements[i]);
	store_artifact_statements_close(s);
	db_close(s->db);
	free(s->db);
	free(s->path);
	free(s);
}

const char *
store_path(const struct store *s)
{
	return s->path;
}

db_stmt *
store_statement(struct store *s, enum statement which, struct error *err)
{
	db_stmt *stmt = s->statements[which];

	if (stmt == NULL) {
		const char *sql = statement_sql[which];
		int rc;

		if (db_is_postgresql(s->db) && pg_store_sql[which] != NULL)
			sql = pg_store_sql[which];
		rc = statement_rows[which].into != NULL ? db_prepare_rows(s->db,
		    statement_rows[which].into, statement_rows[which].ncolumns,
		    statement_rows[which].order, &stmt) :
		    db_prepare(s->db, sql, store_statement_use[which] | DB_KEEP, &stmt);
		if (rc != DB_OK) {
			store_error(s, err, "preparing a statement");
			return NULL;
		}
		s->statements[which] = stmt;
	}
	db_reset(stmt);
	db_clear_bindings(stmt);
	return stmt;
}

/*
 * The reads deciding action_id will make, asked for at once: on
 * PostgreSQL one trip instead of one each (issue 20, db_prefetch).
 * The trip also brings the results of the writes sent before it, so an
 * error here may be theirs.
 */
int
store_prefetch_decision(struct store *s, const char *action_id,
    struct error *err)
{
	static const enum statement reads[] = {
		SQL_ACTION_EXACT_ID, SQL_ACTION_GET, SQL_DECISION_GET,
		SQL_QUEUE_FLAGS, SQL_REVISIONS_OF, SQL_AUDIT_HEAD,
		SQL_APPROVAL_POLICIES, SQL_APPROVALS_OF, SQL_JUDGMENTS_OF,
	};
	db_stmt *stmts[sizeof reads / sizeof reads[0]];
	size_t i, n;
	int rc;

	if (!db_is_postgresql(s->db))
		return 0;
	for (n = i = 0; i < sizeof reads / sizeof reads[0]; i++) {
		/* Held from an earlier decision (policy_held.c). */
		if (reads[i] == SQL_APPROVAL_POLICIES &&
		    store_held_approval_policies(s) != NULL)
			continue;
		if ((stmts[n] = store_statement(s, reads[i], err)) == NULL)
			return err->status;
		if (reads[i] != SQL_AUDIT_HEAD &&
		    reads[i] != SQL_APPROVAL_POLICIES)
			db_bind_text(stmts[n], 1, action_id, -1, DB_STATIC);
		n++;
	}
	/*
	 * The action's artifact node too, which the re-check reads with its
	 * policy: once the policy is held (policy_held.c) the decision then
	 * waits for the server once before its writes.
	 */
	if ((rc = store_artifact_prefetch(s, action_id, err)) != 0)
		return rc;
	rc = db_prefetch(s->db, stmts, (int)n);
	for (i = 0; i < n; i++)
		db_clear_bindings(stmts[i]);
	return rc == DB_OK ? 0 : store_error(s, err, "reading");
}

/* The one write lock of the database, for the whole transaction (db.h). */
int
store_begin(struct store *s, struct error *err)
{
	if (db_begin_write(s->db) != DB_OK)
		return store_error(s, err, "starting a transaction");
	s->in_transaction = true;
	store_policy_unhold(s);
	s->audit_appended = false;
	memset(&s->totals_change, 0, sizeof s->totals_change);
	return 0;
}

int
store_begin_batch(struct store *s, struct error *err)
{
	int rc;

	if ((rc = store_begin(s, err)) != 0)
		return rc;
	if (db_batch_begin(s->db) != DB_OK) {
		store_error(s, err, "starting a batch of writes");
		store_rollback(s);
		return err->status;
	}
	return 0;
}

int
store_commit(struct store *s, struct error *err)
{
	if (store_queue_totals_flush(s, err) != 0 ||
	    store_log_commit(s, err) != 0) {
		store_rollback(s);
		return err->status;
	}
	/* Every write's result, before anything says it is recorded. */
	if (db_batch_end(s->db) != DB_OK) {
		store_error(s, err, "writing");
		store_rollback(s);
		return err->status;
	}
	/*
	 * Services waiting on this database hear of a new record from the
	 * transaction that wrote it, delivered at its COMMIT (SPEC 12).
	 */
	if (s->audit_appended && store_watch_notify(s, err) != 0) {
		store_rollback(s);
		return err->status;
	}
	if (db_commit(s->db) != DB_OK) {
		store_error(s, err, "committing");
		store_rollback(s);
		return err->status;
	}
	s->in_transaction = false;
	store_fresh_forget(s);
	store_policy_unhold(s);
	return 0;
}

void
store_rollback(struct store *s)
{
	if (db_in_transaction(s->db))
		db_rollback(s->db);
	s->in_transaction = false;
	store_log_forget(s, true);
	store_fresh_forget(s);
	store_policy_unhold(s);
	memset(&s->totals_change, 0, sizeof s->totals_change);
}

/* Steps a statement that takes no parameters and returns no rows. */
static int
store_run(struct store *s, enum statement which, const char *doing,
    struct error *err)
{
	db_stmt *stmt = store_statement(s, which, err);
	int rc;

	if (stmt == NULL)
		return err->status;
	rc = db_step(stmt);
	db_reset(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, doing);
}

int
store_savepoint(struct store *s, struct error *err)
{
	s->totals_at_savepoint = s->totals_change;
	return store_run(s, SQL_SAVEPOINT, "starting a savepoint", err);
}

int
store_release(struct store *s, struct error *err)
{
	return store_run(s, SQL_RELEASE, "releasing a savepoint", err);
}

void
store_rollback_savepoint(struct store *s)
{
	struct error ignored;

	/* The transaction goes on without this decision's changes. */
	if (store_run(s, SQL_ROLLBACK_TO, "rolling back a savepoint",
	    &ignored) == 0) {
		s->totals_change = s->totals_at_savepoint;
		store_log_forget(s, false);
		store_policy_unhold(s);
		store_run(s, SQL_RELEASE, "releasing a savepoint", &ignored);
	}
}
