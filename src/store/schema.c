/*
 * The schema and its forward migrations.  A database records the version it
 * is at; each migration moves it one step inside one transaction, so a crash
 * leaves it at a version, never between two.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

static const char *const migrations[] = {
	/* 1: imported objects and the queue. */
	"CREATE TABLE security ("
	"  ticker_key TEXT PRIMARY KEY,"	/* upper-cased: lookups ignore case */
	"  ticker TEXT NOT NULL,"
	"  sector TEXT NOT NULL,"
	"  asset_class TEXT NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL);"
	"CREATE TABLE ips ("
	"  ips_id TEXT NOT NULL,"
	"  version INTEGER NOT NULL,"
	"  user_id TEXT NOT NULL,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL,"
	"  PRIMARY KEY (ips_id, version));"
	"CREATE INDEX ips_by_user ON ips (user_id, version);"
	"CREATE TABLE holdings ("
	"  snapshot_id TEXT PRIMARY KEY,"
	"  user_id TEXT NOT NULL,"
	"  as_of_ms INTEGER NOT NULL,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL);"
	"CREATE INDEX holdings_by_user ON holdings (user_id, as_of_ms);"
	"CREATE TABLE policy_document ("	/* standards_index, roster */
	"  type TEXT PRIMARY KEY,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL);"
	"CREATE TABLE action ("
	ACTION_TEXT_COLUMNS_SQL
	"  expires_at_ms INTEGER,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL,"
	"  status TEXT NOT NULL DEFAULT 'pending'"
	"    CHECK (status IN ('pending', 'approved', 'rejected')));"
	"CREATE INDEX action_by_status ON action (status, imported_at_ms);"
	"CREATE INDEX action_by_revision ON action (revision_of);",

	/*
	 * 2: the audit log (SPEC 6) and the decisions it records.  The
	 * triggers catch bugs and careless hands; whoever can write the file
	 * can drop them, which the hash chain and a copy of its head catch.
	 */
	"CREATE TABLE audit_log ("
	"  seq INTEGER PRIMARY KEY,"
	"  record_json TEXT NOT NULL,"
	"  prev_hash TEXT NOT NULL,"
	"  hash TEXT NOT NULL);"
	"CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log"
	" BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;"
	"CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log"
	" BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;"
	/*
	 * INSERT OR REPLACE deletes without firing delete triggers, so an
	 * insert must extend the head: the next seq, chained to the last hash.
	 */
	"CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log"
	" BEGIN SELECT RAISE(ABORT, 'audit_log: an insert must extend the head')"
	"  WHERE NEW.seq IS NOT coalesce((SELECT max(seq) FROM audit_log), 0) + 1"
	"   OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM audit_log"
	"    ORDER BY seq DESC LIMIT 1), '"
	"0000000000000000000000000000000000000000000000000000000000000000');"
	" END;"
	"CREATE TABLE decision ("
	"  action_id TEXT PRIMARY KEY REFERENCES action (action_id),"
	"  decision_id TEXT NOT NULL UNIQUE,"
	"  decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),"
	"  operator_login TEXT NOT NULL,"
	"  operator_uid INTEGER NOT NULL,"
	"  decided_at TEXT NOT NULL,"
	"  audit_seq INTEGER NOT NULL REFERENCES audit_log (seq),"
	"  reassign_to TEXT,"
	"  escalate INTEGER NOT NULL DEFAULT 0);"
	"CREATE TRIGGER decision_no_update BEFORE UPDATE ON decision"
	" BEGIN SELECT RAISE(ABORT, 'a decision is final'); END;"
	"CREATE TRIGGER decision_no_delete BEFORE DELETE ON decision"
	" BEGIN SELECT RAISE(ABORT, 'a decision is final'); END;"
	"CREATE TRIGGER action_decided_once BEFORE UPDATE OF status ON action"
	" WHEN OLD.status <> 'pending'"
	" BEGIN SELECT RAISE(ABORT, 'the action is already decided'); END;"
	/* As for the log: REPLACE would delete without a delete trigger. */
	"CREATE TRIGGER decision_no_replace BEFORE INSERT ON decision"
	" WHEN EXISTS (SELECT 1 FROM decision WHERE action_id = NEW.action_id)"
	" BEGIN SELECT RAISE(ABORT, 'a decision is final'); END;"
	"CREATE TRIGGER action_no_replace BEFORE INSERT ON action"
	" WHEN EXISTS (SELECT 1 FROM action WHERE action_id = NEW.action_id)"
	" BEGIN SELECT RAISE(ABORT, 'an imported action is immutable'); END;",

	/*
	 * 3: the queue index.  Re-checking 100,000 actions takes seconds;
	 * the review screens page through these rows instead, and every
	 * policy import bumps the epoch so that stale rows are re-checked.
	 * Decisions and details always re-check for real.
	 */
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	"INSERT INTO meta VALUES ('policy_epoch', 1);"
	/* One row per pending action; epoch 0 until first checked. */
	"CREATE TABLE queue_index ("
	"  action_id TEXT PRIMARY KEY REFERENCES action (action_id),"
	"  kind TEXT NOT NULL,"
	"  epoch INTEGER NOT NULL,"
	"  care INTEGER NOT NULL,"		/* -1 expired, 0, 1 stakes, 2 fail */
	"  flags INTEGER NOT NULL,"
	"  who TEXT NOT NULL,"
	"  summary TEXT NOT NULL,"
	"  advisory TEXT NOT NULL,"
	"  divergence_count INTEGER NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL,"
	"  expires_at_ms INTEGER);"
	"CREATE INDEX queue_by_care ON queue_index (care DESC, imported_at_ms);"
	"CREATE INDEX queue_by_age ON queue_index (imported_at_ms);"
	"CREATE INDEX queue_by_kind ON queue_index (kind, action_id);"
	"CREATE INDEX queue_by_epoch ON queue_index (epoch);"
	"CREATE INDEX queue_by_expiry ON queue_index (expires_at_ms)"
	"  WHERE expires_at_ms IS NOT NULL;"
	"INSERT INTO queue_index SELECT action_id, kind, 0, 0, 0, '', '', 'n/a',"
	"  0, imported_at_ms, expires_at_ms FROM action WHERE status = 'pending';",

	/*
	 * 4: the review screen's header counts flags over the whole queue.
	 * Read from the table, that scanned every wide row, more than the
	 * rest of the first screen with 100,000 pending; the epoch index
	 * changes whenever flags do, so carrying them there costs nothing.
	 */
	"DROP INDEX queue_by_epoch;"
	"CREATE INDEX queue_by_epoch ON queue_index (epoch, flags);",

	/*
	 * 5: the header's totals kept as the queue changes.  Counted, they
	 * were nine tenths of opening a queue of 100,000, the one part of it
	 * that grew with the queue.  store_queue_put() and
	 * store_queue_remove(), the only writers of queue rows, keep them.
	 * Not triggers: a trigger makes every queue write keep a statement
	 * journal, which cost import a seventh more.
	 */
	"CREATE TABLE queue_totals ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  pending INTEGER NOT NULL,"
	"  high_stakes INTEGER NOT NULL,"	/* flags & 1 */
	"  needs_care INTEGER NOT NULL);"	/* flags & 6: failing, divergent */
	"INSERT INTO queue_totals SELECT 1, count(*),"
	"  coalesce(sum((flags & 1) <> 0), 0), coalesce(sum((flags & 6) <> 0), 0)"
	"  FROM queue_index;",

	/*
	 * 6: an action's packet guarded where careless hands reach it, and
	 * not on insert.  A trigger on INSERT makes SQLite keep a statement
	 * journal for every insert, copying each page it touches: a ninth
	 * of an import.  And the old trigger guarded only against REPLACE,
	 * while a plain UPDATE of raw_json went through.  Now every column
	 * but the status refuses an update; REPLACE, which deletes without
	 * a delete trigger, is what import itself never does (it refuses a
	 * changed packet), and a decided action's replaced row is still
	 * caught: the decision is refused as already made, and audit verify
	 * reports the status that no longer matches the record.
	 */
	/* IF EXISTS: an owner of the file may have dropped it already. */
	"DROP TRIGGER IF EXISTS action_no_replace;"
	"CREATE TRIGGER action_immutable BEFORE UPDATE OF action_id, kind,"
	"  user_id, author, revision_of, requested_by, expires_at_ms, raw_json,"
	"  imported_at_ms ON action"
	" BEGIN SELECT RAISE(ABORT, 'an imported action is immutable'); END;",

	/*
	 * 7: the current holdings are those with the latest as_of (SPEC 1),
	 * and as_of may carry any number of decimals.  Two snapshots in the
	 * same millisecond were ordered by import instead; the digits below
	 * the millisecond, trailing zeros dropped, now break the tie, and as
	 * text they sort as the fractions do.  Existing rows get theirs from
	 * the stored snapshot, whose as_of import has already validated.
	 */
	"ALTER TABLE holdings ADD COLUMN as_of_beyond_ms TEXT NOT NULL"
	"  DEFAULT '';"
	"UPDATE holdings SET as_of_beyond_ms = coalesce((SELECT"
	"  CASE WHEN p > 0 THEN rtrim(substr(t, p + 4, max(length(t) - p - 4,"
	"   0)), '0') ELSE '' END"
	"  FROM (SELECT t, instr(t, '.') AS p FROM (SELECT"
	"   replace(json_extract(holdings.raw_json, '$.as_of'), '+00:00', 'Z')"
	"   AS t))), '');"
	"DROP INDEX holdings_by_user;"
	"CREATE INDEX holdings_by_user ON holdings (user_id, as_of_ms,"
	"  as_of_beyond_ms);",

	/*
	 * issue 22: a rejection held for a missing standard (SPEC 5
	 * blocked_on), which the queue, the history and the lockout read.
	 */
	"ALTER TABLE decision ADD COLUMN blocked_on TEXT;",

	/*
	 * issue 21: the artifact of SPEC 2.4 (v2) joins every version that
	 * shares an artifact_id, so the lockout finds them by index; rows
	 * imported before get theirs from the stored packet.  A rejection's
	 * routing may name the expertise an escalation needs (issue 22's
	 * blocked_on, in the migration before, locks out nobody).
	 */
	"ALTER TABLE action ADD COLUMN artifact_id TEXT;"
	"UPDATE action SET artifact_id = json_extract(raw_json,"
	"  '$.proposed_action.artifact_id') WHERE json_type(raw_json,"
	"  '$.proposed_action.artifact_id') = 'text';"
	"CREATE INDEX action_by_artifact ON action (artifact_id)"
	"  WHERE artifact_id IS NOT NULL;"
	"ALTER TABLE decision ADD COLUMN escalate_expertise TEXT;",

	/*
	 * issue 24: hardening, second round.  INSERT OR REPLACE of an action
	 * swapped a packet under an officer's open detail (SPEC 5 `changed`
	 * catches the decision; this refuses the swap itself).  REPLACE
	 * deletes without a delete trigger, so only an insert trigger sees
	 * it; it costs import a statement journal, which a packet an officer
	 * may approve unseen does not outweigh.
	 */
	/* Dropped first: a database taken back a version may still have it. */
	"DROP TRIGGER IF EXISTS action_refuses_replace;"
	"CREATE TRIGGER action_refuses_replace BEFORE INSERT ON action"
	" WHEN EXISTS (SELECT 1 FROM action WHERE action_id = NEW.action_id)"
	" BEGIN SELECT RAISE(ABORT, 'an imported action is immutable'); END;"
	/* An IPS or holdings import re-checks that user's trades only. */
	"CREATE INDEX IF NOT EXISTS action_by_user ON action (user_id);"
	/*
	 * Policy objects by the SHA-256 of their JSON, named by decision
	 * records instead of copied into each (SPEC v2 6).  Content names
	 * them: an insert of one already there is dropped, never replaced.
	 */
	"CREATE TABLE IF NOT EXISTS policy_object ("
	"  sha256 TEXT PRIMARY KEY,"
	"  type TEXT NOT NULL,"
	"  json TEXT NOT NULL);"
	"DROP TRIGGER IF EXISTS policy_object_no_update;"
	"CREATE TRIGGER policy_object_no_update BEFORE UPDATE ON policy_object"
	" BEGIN SELECT RAISE(ABORT, 'a policy object is immutable'); END;"
	"DROP TRIGGER IF EXISTS policy_object_no_delete;"
	"CREATE TRIGGER policy_object_no_delete BEFORE DELETE ON policy_object"
	" BEGIN SELECT RAISE(ABORT, 'a policy object is immutable'); END;"
	"DROP TRIGGER IF EXISTS policy_object_once;"
	"CREATE TRIGGER policy_object_once BEFORE INSERT ON policy_object"
	" WHEN EXISTS (SELECT 1 FROM policy_object WHERE sha256 = NEW.sha256)"
	" BEGIN SELECT RAISE(IGNORE); END;",

	/*
	 * issue 25: the queue shows and searches who asked for an action and
	 * who drafted it, and counts its age from when it was drafted.  Every
	 * row is checked again (epoch 0) to fill them in.
	 */
	"ALTER TABLE queue_index ADD COLUMN requester TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE queue_index ADD COLUMN author TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE queue_index ADD COLUMN drafted_at_ms INTEGER;"
	"UPDATE queue_index SET epoch = 0;",

	/*
	 * issue 20: nearly every action revises none, and the index of
	 * revision_of held a NULL for each; every query of it asks for one
	 * value ("revision_of = ..."), which a partial index serves.
	 */
	"DROP INDEX IF EXISTS action_by_revision;"
	"CREATE INDEX action_by_revision ON action (revision_of)"
	" WHERE revision_of IS NOT NULL;",

	/*
	 * issue 38: PostgreSQL's text columns declare the C collation and
	 * queue_index gets its foreign key back (pg_schema.c).  SQLite
	 * compares text as bytes already and never lost the key.
	 */
	"",

	/*
	 * issue 34: the artifacts of SPEC 2.4 kept as sets (artifact.c), so
	 * that no check walks one; the indexes answer "a rejected version
	 * of this artifact_id", "an approved revision of this version" by a
	 * probe.  store_artifacts_build() computes the sets of the stored
	 * actions once, after this migration; run again (a database taken
	 * back to an older version), it starts from empty tables.
	 */
	"DROP TABLE IF EXISTS artifact_node;"
	"DROP TABLE IF EXISTS artifact_size;"
	"DROP TABLE IF EXISTS artifact_lock;"
	"DROP TABLE IF EXISTS artifact_pr;"
	"CREATE TABLE artifact_node ("
	"  node TEXT PRIMARY KEY,"
	"  artifact TEXT NOT NULL,"
	"  tree TEXT);"
	"CREATE INDEX artifact_node_by_artifact ON artifact_node (artifact);"
	"CREATE INDEX artifact_node_by_tree ON artifact_node (tree)"
	"  WHERE tree IS NOT NULL;"
	"CREATE TABLE artifact_size ("
	"  kind INTEGER NOT NULL,"
	"  label TEXT NOT NULL,"
	"  size BIGINT NOT NULL,"
	"  PRIMARY KEY (kind, label));"
	"CREATE TABLE artifact_lock ("
	"  artifact TEXT NOT NULL,"
	"  name_key TEXT NOT NULL,"
	"  action_id TEXT NOT NULL,"
	"  PRIMARY KEY (artifact, name_key, action_id));"
	"CREATE TABLE artifact_pr ("
	"  action_id TEXT PRIMARY KEY,"
	"  pr_url TEXT NOT NULL,"
	"  rejected INTEGER NOT NULL);"
	ARTIFACT_INDEXES_SQL,

	/*
	 * issue 32 (SPEC 13): the audit log's RFC 6962 tree, as the hash of
	 * every complete subtree (level 0 the leaves), its signed
	 * checkpoints and the log's name, all append-only like the log.  A
	 * log kept before gets its tree at its next append (store_log.c).
	 * file_size: the checkpoint file's size when the checkpoint was
	 * signed, so that a shorter or missing file is noticed.
	 */
	"CREATE TABLE merkle_node (level INTEGER NOT NULL, idx INTEGER NOT NULL,"
	"  hash TEXT NOT NULL, PRIMARY KEY (level, idx)) WITHOUT ROWID;"
	"CREATE TABLE log_checkpoint (size INTEGER PRIMARY KEY,"
	"  note TEXT NOT NULL, signed_at TEXT NOT NULL, file_size INTEGER);"
	"CREATE TABLE log_name (id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  name TEXT NOT NULL);"
	"CREATE TRIGGER merkle_node_no_update BEFORE UPDATE ON merkle_node"
	" BEGIN SELECT RAISE(ABORT, 'merkle_node is append-only'); END;"
	"CREATE TRIGGER merkle_node_no_delete BEFORE DELETE ON merkle_node"
	" BEGIN SELECT RAISE(ABORT, 'merkle_node is append-only'); END;"
	"CREATE TRIGGER log_checkpoint_no_update BEFORE UPDATE ON log_checkpoint"
	" BEGIN SELECT RAISE(ABORT, 'log_checkpoint is append-only'); END;"
	"CREATE TRIGGER log_checkpoint_no_delete BEFORE DELETE ON log_checkpoint"
	" BEGIN SELECT RAISE(ABORT, 'log_checkpoint is append-only'); END;"
	"CREATE TRIGGER log_name_no_update BEFORE UPDATE ON log_name"
	" BEGIN SELECT RAISE(ABORT, 'a log is named once'); END;"
	"CREATE TRIGGER log_name_no_delete BEFORE DELETE ON log_name"
	" BEGIN SELECT RAISE(ABORT, 'a log is named once'); END;",

	/*
	 * issue 33: approval quorums (SPEC 14).  The approval policies, and
	 * the approvals that did not yet decide their action, each with the
	 * seq of its audit record; final as decisions are.  Like 10, it
	 * adds only what is missing, so it runs again unharmed.
	 */
	"CREATE TABLE IF NOT EXISTS approval_policy ("
	"  policy_id TEXT NOT NULL,"
	"  version INTEGER NOT NULL,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms INTEGER NOT NULL,"
	"  PRIMARY KEY (policy_id, version));"
	"DROP TRIGGER IF EXISTS approval_policy_no_update;"
	"CREATE TRIGGER approval_policy_no_update BEFORE UPDATE ON"
	"  approval_policy"
	" BEGIN SELECT RAISE(ABORT, 'an imported policy is immutable'); END;"
	"DROP TRIGGER IF EXISTS approval_policy_no_delete;"
	"CREATE TRIGGER approval_policy_no_delete BEFORE DELETE ON"
	"  approval_policy"
	" BEGIN SELECT RAISE(ABORT, 'an imported policy is immutable'); END;"
	"CREATE TABLE IF NOT EXISTS approval ("
	"  approval_id TEXT PRIMARY KEY,"
	"  action_id TEXT NOT NULL REFERENCES action (action_id),"
	"  operator_login TEXT NOT NULL,"
	"  operator_uid INTEGER NOT NULL,"
	"  approved_at TEXT NOT NULL,"
	"  reason TEXT,"
	"  needed INTEGER NOT NULL,"
	"  have INTEGER NOT NULL,"
	"  audit_seq INTEGER NOT NULL REFERENCES audit_log (seq));"
	"CREATE INDEX IF NOT EXISTS approval_by_action ON approval"
	"  (action_id, audit_seq);"
	"DROP TRIGGER IF EXISTS approval_no_update;"
	"CREATE TRIGGER approval_no_update BEFORE UPDATE ON approval"
	" BEGIN SELECT RAISE(ABORT, 'an approval is final'); END;"
	"DROP TRIGGER IF EXISTS approval_no_delete;"
	"CREATE TRIGGER approval_no_delete BEFORE DELETE ON approval"
	" BEGIN SELECT RAISE(ABORT, 'an approval is final'); END;"
	/* REPLACE deletes without a delete trigger. */
	"DROP TRIGGER IF EXISTS approval_no_replace;"
	"CREATE TRIGGER approval_no_replace BEFORE INSERT ON approval"
	" WHEN EXISTS (SELECT 1 FROM approval"
	"  WHERE approval_id = NEW.approval_id)"
	" BEGIN SELECT RAISE(ABORT, 'an approval is final'); END;"
	"DROP TRIGGER IF EXISTS approval_policy_no_replace;"
	"CREATE TRIGGER approval_policy_no_replace BEFORE INSERT ON"
	"  approval_policy WHEN EXISTS (SELECT 1 FROM approval_policy"
	"  WHERE policy_id = NEW.policy_id AND version = NEW.version)"
	" BEGIN SELECT RAISE(ABORT, 'an imported policy is immutable'); END;",

	/*
	 * issue 36 (17): a security map entry's optional price_usd (SPEC 2.1
	 * v3), the reference price of a ticker the user does not hold.  Kept
	 * as the text of the number (%.17g, which reads back to the same
	 * double), since the store binds no floating point.
	 */
	"ALTER TABLE security ADD COLUMN price_usd TEXT;",

	/*
	 * issue 36 (18): the product owner's judgments (SPEC 2.3 v3), one
	 * row per criterion, keyed so that the first judgment of a criterion
	 * is the one kept; each names the po_judgment record it came with.
	 * Final as approvals are.
	 */
	"CREATE TABLE IF NOT EXISTS po_judgment ("
	"  action_id TEXT NOT NULL REFERENCES action (action_id),"
	"  ac_id TEXT NOT NULL,"
	"  judgment TEXT NOT NULL,"
	"  judgment_id TEXT NOT NULL,"
	"  operator_login TEXT NOT NULL,"
	"  operator_uid INTEGER NOT NULL,"
	"  judged_at TEXT NOT NULL,"
	"  audit_seq INTEGER NOT NULL REFERENCES audit_log (seq),"
	"  PRIMARY KEY (action_id, ac_id));"
	"DROP TRIGGER IF EXISTS po_judgment_no_update;"
	"CREATE TRIGGER po_judgment_no_update BEFORE UPDATE ON po_judgment"
	" BEGIN SELECT RAISE(ABORT, 'a judgment is final'); END;"
	"DROP TRIGGER IF EXISTS po_judgment_no_delete;"
	"CREATE TRIGGER po_judgment_no_delete BEFORE DELETE ON po_judgment"
	" BEGIN SELECT RAISE(ABORT, 'a judgment is final'); END;"
	/* REPLACE deletes without a delete trigger. */
	"DROP TRIGGER IF EXISTS po_judgment_no_replace;"
	"CREATE TRIGGER po_judgment_no_replace BEFORE INSERT ON po_judgment"
	" WHEN EXISTS (SELECT 1 FROM po_judgment"
	"  WHERE action_id = NEW.action_id AND ac_id = NEW.ac_id)"
	" BEGIN SELECT RAISE(ABORT, 'a judgment is final'); END;",

	/*
	 * issue 35 (19): who imported each action (SPEC 5 v3).  Through the
	 * service (importer_via 'service') the gate refuses that login's
	 * approval; a local import's login is the process's own, shown only.
	 * Actions stored before have NULLs: nobody known.
	 */
	"ALTER TABLE action ADD COLUMN importer_login TEXT;"
	"ALTER TABLE action ADD COLUMN importer_uid INTEGER;"
	"ALTER TABLE action ADD COLUMN importer_via TEXT"
	"  CHECK (importer_via IN ('local', 'service'));",

	/*
	 * issue 35 (20): nothing here.  PostgreSQL's 20 moves the service
	 * role's writes into functions of the owner's; an SQLite file's
	 * privileges are its permissions, and both report the same version.
	 */
	"SELECT 1;",

	/*
	 * issue 34 (21): what list prints of a row beyond the columns above
	 * (the packet's digest, the high-stakes reasons, the divergences),
	 * as JSON written with the row, so that list reads the index instead
	 * of checking every action again.  Rows indexed before have none, so
	 * they are checked again, and given it, by the next refresh.
	 */
	"ALTER TABLE queue_index ADD COLUMN listed TEXT;"
	"UPDATE queue_index SET epoch = 0;",

	/*
	 * issue 38 (22): nothing here.  PostgreSQL's 22 writes the owner's
	 * functions of its 20 again, faster; both report the same version.
	 */
	"SELECT 1;",

	/*
	 * issue 38 (23): nothing here either.  PostgreSQL's 23 adds the
	 * owner's function that appends a decision's record and writes its
	 * row in one call.
	 */
	"SELECT 1;",
};

#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

int
schema_version_read(struct store *s, struct error *err)
{
	db_stmt *stmt = NULL;
	int version;

	if (db_prepare(s->db, "SELECT max(version) FROM schema_version",
	    DB_READS, &stmt) != DB_OK || db_step(stmt) != DB_ROW) {
		db_finalize(stmt);
		return -2 - store_error(s, err, "reading the schema version");
	}
	version = db_column_int(stmt, 0);
	db_finalize(stmt);
	return version;
}

/* -1: no schema_version table (and *empty says if the file has no tables). */
static int
current_version(struct store *s, bool *empty, struct error *err)
{
	db_stmt *stmt = NULL;
	int rc;

	*empty = false;
	rc = db_prepare(s->db,
	    "SELECT (SELECT count(*) FROM sqlite_master),"
	    " (SELECT count(*) FROM sqlite_master WHERE name = 'schema_version')", DB_READS, &stmt);
	if (rc != DB_OK || db_step(stmt) != DB_ROW) {
		db_finalize(stmt);
		return -2 - store_error(s, err, "reading the schema");
	}
	*empty = db_column_int(stmt, 0) == 0;
	rc = db_column_int(stmt, 1);
	db_finalize(stmt);
	if (rc == 0)
		return -1;
	return schema_version_read(s, err);
}

static int
apply(struct store *s, int from, struct error *err)
{
	char sql[64];
	int version;

	for (version = from + 1; version <= SCHEMA_VERSION; version++) {
		if (db_exec(s->db, migrations[version - 1]) != DB_OK)
			return store_error(s, err, "migrating the schema");
		snprintf(sql, sizeof sql,
		    "UPDATE schema_version SET version = %d", version);
		if (db_exec(s->db, sql) != DB_OK)
			return store_error(s, err, "migrating the schema");
	}
	return 0;
}

int
schema_version_judged(const struct store *s, int version, int latest,
    bool empty, bool may_create, const char *not_ours, struct error *err)
{
	if (version < -1)
		return err->status;
	if (version == latest)
		return -1;
	if (version > latest)
		return error_set(err, EXIT_STORAGE, NULL,
		    "%s has schema version %d, newer than this countersign "
		    "understands (%d); use a newer countersign", s->path,
		    version, latest);
	if (version == -1 && !empty)
		return error_set(err, EXIT_STORAGE, NULL, "%s is %s", s->path,
		    not_ours);
	if (version == -1 && !may_create)
		return error_set(err, EXIT_STORAGE, NULL,
		    "%s has no countersign data yet", s->path);
	return 0;
}

int
schema_migrate(struct store *s, bool may_create, struct error *err)
{
	bool empty;
	int version, rc;

	if (db_is_postgresql(s->db))
		return pg_schema_migrate(s, SCHEMA_VERSION, may_create, err);
	version = current_version(s, &empty, err);
	if ((rc = schema_version_judged(s, version, SCHEMA_VERSION, empty,
	    may_create, "an SQLite database but not a countersign one",
	    err)) != 0)
		return rc < 0 ? 0 : rc;

	if ((rc = store_begin(s, err)) != 0)
		return rc;
	/* Another process may have migrated while we waited for the lock. */
	version = current_version(s, &empty, err);
	if (version < -1)
		goto fail;
	if (version == -1) {
		if (db_exec(s->db,
		    "CREATE TABLE schema_version (version INTEGER NOT NULL);"
		    "INSERT INTO schema_version VALUES (0);") != DB_OK) {
			store_error(s, err, "creating the schema");
			goto fail;
		}
		version = 0;
	}
	if (version < SCHEMA_VERSION && (apply(s, version, err) != 0 ||
	    store_artifacts_build(s, err) != 0))
		goto fail;
	return store_commit(s, err);
fail:
	store_rollback(s);
	return err->status;
}
