/*
 * The schema on PostgreSQL (SPEC v2 10, issue 20): the same tables,
 * columns and guarantees as the SQLite migrations of schema.c, at the
 * same version, with PostgreSQL's triggers.  A database records the
 * version it is at; each step runs in one transaction under the write
 * lock, so hosts starting at once migrate once.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "exit_codes.h"
#include "store_internal.h"

/* Refuses a statement on a table whose rows are final. */
#define REFUSE(name, message) \
	"CREATE FUNCTION " name "() RETURNS trigger LANGUAGE plpgsql AS $$" \
	" BEGIN RAISE EXCEPTION '" message "'; END $$;"

/* What every function of schema 20 runs as: the owner, on its own tables. */
#define DEFINER \
	" SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp"

/*
 * The owner's functions that write a row each (issue 35), as PL/pgSQL:
 * PostgreSQL before 18 plans an SQL function's body again at every
 * statement that calls it, where PL/pgSQL keeps its plans for the
 * session (issue 38: most of a decision's time on the server).  Schema
 * 20 makes them, and 22 makes them again where an older 20 made them in
 * SQL; each is written once, here.
 */
#define OWNER_WRITE(signature, body) \
	"CREATE OR REPLACE FUNCTION " signature " RETURNS void" \
	" LANGUAGE plpgsql" DEFINER " AS $$ BEGIN " body "; END $$;"

#define PG_AUDIT_APPEND \
	OWNER_WRITE("cs_audit_append(bigint, text, text, text)", \
	"INSERT INTO audit_log (seq, record_json, prev_hash, hash)" \
	" VALUES ($1, $2, $3, $4)")

/*
 * A decision row, given as the eleven parameters of SQL_DECISION_INSERT
 * from $n on (action_id, decision_id, decision, login, uid, decided_at,
 * audit_seq, reassign_to, escalate, blocked_on, expertise): refused
 * unless the record r describes it, then written with its action's
 * status.  cs_decision_insert reads r from the log; cs_decision_append
 * (23) appends it first.
 */
#define DECISION_ROW(a, id, d, login, uid, at, seq, to, esc, on, exp) \
	"  IF r IS NULL OR r->>'event' IS DISTINCT FROM 'decision'" \
	"   OR r->>'action_id' IS DISTINCT FROM " a \
	"   OR r->>'decision_id' IS DISTINCT FROM " id \
	"   OR r->>'decision' IS DISTINCT FROM " d \
	"   OR r->'operator'->>'login' IS DISTINCT FROM " login \
	"   OR r->'operator'->>'uid' IS DISTINCT FROM " uid "::text THEN" \
	"   RAISE EXCEPTION 'decision %: audit record % does not record it'," \
	"    " id ", " seq "; END IF;" \
	"  INSERT INTO decision (action_id, decision_id, decision," \
	"   operator_login, operator_uid, decided_at, audit_seq, reassign_to," \
	"   escalate, blocked_on, escalate_expertise) VALUES (" a ", " id ", " \
	d ", " login ", " uid ", " at ", " seq ", " to ", " esc ", " on ", " \
	exp ");" \
	"  UPDATE action SET status = CASE " d " WHEN 'approve' THEN" \
	"   'approved' ELSE 'rejected' END WHERE action_id = " a \
	"   AND status = 'pending';" \
	"  IF NOT FOUND THEN" \
	"   RAISE EXCEPTION 'action % was not pending', " a "; END IF;"

/*
 * A decision's, an approval's and a judgment's row, refused unless the
 * audit record it names describes it.  The record is parsed once, as
 * jsonb: as json, each ->> parsed it again.
 */
#define PG_RECORDED_ROWS \
	"CREATE OR REPLACE FUNCTION cs_decision_insert(text, text, text, text," \
	"  bigint, text, bigint, text, bigint, text, text) RETURNS void" \
	"  LANGUAGE plpgsql" DEFINER " AS $$ DECLARE r jsonb; BEGIN" \
	"  SELECT record_json::jsonb INTO r FROM audit_log WHERE seq = $7;" \
	DECISION_ROW("$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", \
	    "$10", "$11") \
	"  END $$;" \
	"CREATE OR REPLACE FUNCTION cs_approval_insert(text, text, text, bigint," \
	"  text, text, bigint, bigint, bigint) RETURNS void" \
	"  LANGUAGE plpgsql" DEFINER " AS $$ DECLARE r jsonb; BEGIN" \
	"  SELECT record_json::jsonb INTO r FROM audit_log WHERE seq = $9;" \
	"  IF r IS NULL OR r->>'event' IS DISTINCT FROM 'approval'" \
	"   OR r->>'approval_id' IS DISTINCT FROM $1" \
	"   OR r->>'action_id' IS DISTINCT FROM $2" \
	"   OR r->'operator'->>'login' IS DISTINCT FROM $3" \
	"   OR r->'operator'->>'uid' IS DISTINCT FROM $4::text THEN" \
	"   RAISE EXCEPTION 'approval %: audit record % does not record it'," \
	"    $1, $9; END IF;" \
	"  IF NOT EXISTS (SELECT 1 FROM action WHERE action_id = $2" \
	"   AND status = 'pending') THEN" \
	"   RAISE EXCEPTION 'action % was not pending', $2; END IF;" \
	"  INSERT INTO approval (approval_id, action_id, operator_login," \
	"   operator_uid, approved_at, reason, needed, have, audit_seq)" \
	"   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9); END $$;" \
	"CREATE OR REPLACE FUNCTION cs_judgment_insert(text, text, text, text," \
	"  text, bigint, text, bigint) RETURNS void" \
	"  LANGUAGE plpgsql" DEFINER " AS $$ DECLARE r jsonb; BEGIN" \
	"  SELECT record_json::jsonb INTO r FROM audit_log WHERE seq = $8;" \
	"  IF r IS NULL OR r->>'event' IS DISTINCT FROM 'po_judgment'" \
	"   OR r->>'action_id' IS DISTINCT FROM $1" \
	"   OR r->'po_judgments'->>$2 IS DISTINCT FROM $3" \
	"   OR r->>'judgment_id' IS DISTINCT FROM $4" \
	"   OR r->'operator'->>'login' IS DISTINCT FROM $5" \
	"   OR r->'operator'->>'uid' IS DISTINCT FROM $6::text THEN" \
	"   RAISE EXCEPTION 'judgment %: audit record % does not record it'," \
	"    $4, $8; END IF;" \
	"  INSERT INTO po_judgment (action_id, ac_id, judgment, judgment_id," \
	"   operator_login, operator_uid, judged_at, audit_seq)" \
	"   VALUES ($1, $2, $3, $4, $5, $6, $7, $8); END $$;"

/* The derived tables' changes (queue_index.c, artifact.c). */
#define PG_QUEUE_WRITES \
	OWNER_WRITE("cs_queue_remove(text)", \
	"DELETE FROM queue_index WHERE action_id = $1") \
	OWNER_WRITE("cs_queue_mark_stale(text)", \
	"UPDATE queue_index SET epoch = 0 WHERE action_id = $1") \
	"CREATE OR REPLACE FUNCTION cs_queue_mark_touched(text, text)" \
	"  RETURNS void LANGUAGE plpgsql" DEFINER " AS $$ BEGIN" \
	"  IF $1 = 'user' THEN UPDATE queue_index SET epoch = 0" \
	"   WHERE action_id IN (SELECT action_id FROM action" \
	"   WHERE user_id = $2 AND kind = 'trade');" \
	"  ELSIF $1 = 'all' THEN UPDATE queue_index SET epoch = 0;" \
	"  ELSE UPDATE queue_index SET epoch = 0 WHERE kind = $1; END IF;" \
	"  END $$;" \
	OWNER_WRITE("cs_queue_totals_add(bigint, bigint, bigint)", \
	"UPDATE queue_totals SET pending = pending + $1," \
	" high_stakes = high_stakes + $2, needs_care = needs_care + $3") \
	OWNER_WRITE("cs_queue_totals_set(bigint, bigint, bigint)", \
	"INSERT INTO queue_totals VALUES (1, $1, $2, $3) ON CONFLICT (id)" \
	" DO UPDATE SET pending = excluded.pending," \
	" high_stakes = excluded.high_stakes," \
	" needs_care = excluded.needs_care")

#define PG_ARTIFACT_WRITES \
	OWNER_WRITE("cs_artifact_size_grow(integer, text, bigint)", \
	"INSERT INTO artifact_size (kind, label, size) VALUES ($1, $2, $3)" \
	" ON CONFLICT (kind, label) DO UPDATE" \
	" SET size = artifact_size.size + excluded.size") \
	OWNER_WRITE("cs_artifact_size_drop(integer, text)", \
	"DELETE FROM artifact_size WHERE kind = $1 AND label = $2") \
	OWNER_WRITE("cs_artifact_relabel(text, text)", \
	"UPDATE artifact_node SET artifact = $1 WHERE artifact = $2") \
	OWNER_WRITE("cs_artifact_relabel_tree(text, text)", \
	"UPDATE artifact_node SET tree = $1 WHERE tree = $2" \
	" AND tree IS NOT NULL") \
	OWNER_WRITE("cs_artifact_relabel_locks(text, text)", \
	"UPDATE artifact_lock SET artifact = $1 WHERE artifact = $2") \
	OWNER_WRITE("cs_artifact_pr_rejected(text)", \
	"UPDATE artifact_pr SET rejected = 1 WHERE action_id = $1") \
	OWNER_WRITE("cs_artifact_queue_stale(text, text)", \
	"UPDATE queue_index SET epoch = 0 WHERE action_id = ANY (ARRAY(" \
	" SELECT substr(node, 3) FROM artifact_node WHERE artifact = $1" \
	" AND node >= 'v:' AND node < 'v;')) AND action_id <> $2")

/* schema.c's 21's: a queue row with what list prints beyond its columns. */
#define PG_QUEUE_PUT \
	OWNER_WRITE("cs_queue_put(text, bigint, bigint, bigint, text, text," \
	" text, bigint, text, bigint, bigint, text, text, bigint, text)", \
	"INSERT INTO queue_index (action_id, kind, epoch, care, flags, who," \
	" summary, advisory, divergence_count, imported_at_ms," \
	" expires_at_ms, requester, author, drafted_at_ms, listed) VALUES" \
	" ($1, $9, $2, $3, $4, $5, $6, $7, $8, $10, $11, $12, $13, $14, $15)" \
	" ON CONFLICT (action_id) DO UPDATE SET epoch = excluded.epoch," \
	" care = excluded.care, flags = excluded.flags, who = excluded.who," \
	" summary = excluded.summary, advisory = excluded.advisory," \
	" divergence_count = excluded.divergence_count," \
	" requester = excluded.requester, author = excluded.author," \
	" drafted_at_ms = excluded.drafted_at_ms, listed = excluded.listed")

struct pg_migration {
	int version;		/* the SQLite schema version it reaches */
	const char *sql;
};

static const struct pg_migration pg_migrations[] = {
	/*
	 * SQLite's versions 1 to 10 at once (schema.c): a PostgreSQL
	 * store starts at 10.  Times are milliseconds, so BIGINT; rowid
	 * is SQLite's implicit column, which the queries order by.
	 */
	{ 10,
	"CREATE TABLE security ("
	"  ticker_key TEXT PRIMARY KEY,"
	"  ticker TEXT NOT NULL,"
	"  sector TEXT NOT NULL,"
	"  asset_class TEXT NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL);"
	"CREATE TABLE ips ("
	"  ips_id TEXT NOT NULL,"
	"  version BIGINT NOT NULL,"
	"  user_id TEXT NOT NULL,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL,"
	"  rowid BIGINT GENERATED ALWAYS AS IDENTITY,"
	"  PRIMARY KEY (ips_id, version));"
	"CREATE INDEX ips_by_user ON ips (user_id, version);"
	"CREATE TABLE holdings ("
	"  snapshot_id TEXT PRIMARY KEY,"
	"  user_id TEXT NOT NULL,"
	"  as_of_ms BIGINT NOT NULL,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL,"
	"  as_of_beyond_ms TEXT NOT NULL DEFAULT '',"
	"  rowid BIGINT GENERATED ALWAYS AS IDENTITY);"
	"CREATE INDEX holdings_by_user ON holdings (user_id, as_of_ms,"
	"  as_of_beyond_ms);"
	"CREATE TABLE policy_document ("
	"  type TEXT PRIMARY KEY,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL);"
	"CREATE TABLE action ("
	ACTION_TEXT_COLUMNS_SQL
	"  expires_at_ms BIGINT,"
	"  raw_json TEXT NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL,"
	"  status TEXT NOT NULL DEFAULT 'pending'"
	"    CHECK (status IN ('pending', 'approved', 'rejected')),"
	"  artifact_id TEXT,"
	"  rowid BIGINT GENERATED ALWAYS AS IDENTITY);"
	"CREATE INDEX action_by_status ON action (status, imported_at_ms);"
	"CREATE INDEX action_by_revision ON action (revision_of);"
	"CREATE INDEX action_by_artifact ON action (artifact_id)"
	"  WHERE artifact_id IS NOT NULL;"
	"CREATE INDEX action_by_user ON action (user_id);"
	"CREATE TABLE audit_log ("
	"  seq BIGINT PRIMARY KEY,"
	"  record_json TEXT NOT NULL,"
	"  prev_hash TEXT NOT NULL,"
	"  hash TEXT NOT NULL);"
	"CREATE TABLE decision ("
	"  action_id TEXT PRIMARY KEY REFERENCES action (action_id),"
	"  decision_id TEXT NOT NULL UNIQUE,"
	"  decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),"
	"  operator_login TEXT NOT NULL,"
	"  operator_uid BIGINT NOT NULL,"
	"  decided_at TEXT NOT NULL,"
	"  audit_seq BIGINT NOT NULL REFERENCES audit_log (seq),"
	"  reassign_to TEXT,"
	"  escalate BIGINT NOT NULL DEFAULT 0,"
	"  blocked_on TEXT,"
	"  escalate_expertise TEXT,"
	"  rowid BIGINT GENERATED ALWAYS AS IDENTITY);"
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);"
	"INSERT INTO meta VALUES ('policy_epoch', 1);"
	"CREATE TABLE queue_index ("
	"  action_id TEXT PRIMARY KEY REFERENCES action (action_id),"
	"  kind TEXT NOT NULL,"
	"  epoch BIGINT NOT NULL,"
	"  care BIGINT NOT NULL,"
	"  flags BIGINT NOT NULL,"
	"  who TEXT NOT NULL,"
	"  summary TEXT NOT NULL,"
	"  advisory TEXT NOT NULL,"
	"  divergence_count BIGINT NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL,"
	"  expires_at_ms BIGINT);"
	"CREATE INDEX queue_by_care ON queue_index (care DESC, imported_at_ms);"
	"CREATE INDEX queue_by_age ON queue_index (imported_at_ms);"
	"CREATE INDEX queue_by_kind ON queue_index (kind, action_id);"
	"CREATE INDEX queue_by_epoch ON queue_index (epoch, flags);"
	"CREATE INDEX queue_by_expiry ON queue_index (expires_at_ms)"
	"  WHERE expires_at_ms IS NOT NULL;"
	"CREATE TABLE queue_totals ("
	"  id BIGINT PRIMARY KEY CHECK (id = 1),"
	"  pending BIGINT NOT NULL,"
	"  high_stakes BIGINT NOT NULL,"
	"  needs_care BIGINT NOT NULL);"
	"INSERT INTO queue_totals VALUES (1, 0, 0, 0);"
	"CREATE TABLE policy_object ("
	"  sha256 TEXT PRIMARY KEY,"
	"  type TEXT NOT NULL,"
	"  json TEXT NOT NULL);"

	/* SQLite's functions the store's queries call. */
	"CREATE FUNCTION json_extract(doc TEXT, path TEXT) RETURNS TEXT"
	"  LANGUAGE sql IMMUTABLE STRICT AS"
	"  $$ SELECT doc::json #>> string_to_array(substr(path, 3), '.') $$;"
	"CREATE FUNCTION julianday(t TEXT) RETURNS DOUBLE PRECISION"
	"  LANGUAGE sql STABLE STRICT AS $$ SELECT"
	"  extract(epoch FROM t::timestamptz)::double precision / 86400"
	"  + 2440587.5 $$;"
	"CREATE FUNCTION instr(haystack TEXT, needle TEXT) RETURNS INTEGER"
	"  LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT strpos(haystack, needle) $$;"
	/* SQLite sums comparisons as 1 and 0. */
	"CREATE FUNCTION cs_add_true(total BIGINT, b BOOLEAN) RETURNS BIGINT"
	"  LANGUAGE sql IMMUTABLE AS"
	"  $$ SELECT total + CASE WHEN b THEN 1 ELSE 0 END $$;"
	"CREATE AGGREGATE sum(BOOLEAN) (SFUNC = cs_add_true, STYPE = BIGINT,"
	"  INITCOND = '0');"

	/*
	 * The guarantees of SPEC 6 and 10, as schema.c's triggers give
	 * them: the log and the decisions refuse UPDATE, DELETE and
	 * TRUNCATE, and an insert into the log must extend the head.
	 */
	REFUSE("audit_log_append_only_refuse", "audit_log is append-only")
	"CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log"
	"  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only_refuse();"
	"CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log"
	"  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only_refuse();"
	"CREATE FUNCTION audit_log_extends_head() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$"
	" DECLARE head_seq BIGINT; head_hash TEXT;"
	" BEGIN"
	"  SELECT seq, hash INTO head_seq, head_hash FROM audit_log"
	"   ORDER BY seq DESC LIMIT 1;"
	"  IF NEW.seq IS DISTINCT FROM coalesce(head_seq, 0) + 1"
	"   OR NEW.prev_hash IS DISTINCT FROM coalesce(head_hash,"
	"   '" AUDIT_GENESIS_HASH "') THEN"
	"   RAISE EXCEPTION 'audit_log: an insert must extend the head';"
	"  END IF;"
	"  RETURN NEW;"
	" END $$;"
	"CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log"
	"  FOR EACH ROW EXECUTE FUNCTION audit_log_extends_head();"
	REFUSE("decision_final_refuse", "a decision is final")
	"CREATE TRIGGER decision_no_update BEFORE UPDATE OR DELETE ON decision"
	"  FOR EACH ROW EXECUTE FUNCTION decision_final_refuse();"
	"CREATE TRIGGER decision_no_truncate BEFORE TRUNCATE ON decision"
	"  FOR EACH STATEMENT EXECUTE FUNCTION decision_final_refuse();"
	REFUSE("action_decided_refuse", "the action is already decided")
	"CREATE TRIGGER action_decided_once BEFORE UPDATE OF status ON action"
	"  FOR EACH ROW WHEN (OLD.status <> 'pending')"
	"  EXECUTE FUNCTION action_decided_refuse();"
	REFUSE("action_immutable_refuse", "an imported action is immutable")
	"CREATE TRIGGER action_immutable BEFORE UPDATE OF action_id, kind,"
	"  user_id, author, revision_of, requested_by, expires_at_ms, raw_json,"
	"  imported_at_ms, artifact_id ON action"
	"  FOR EACH ROW EXECUTE FUNCTION action_immutable_refuse();"
	REFUSE("policy_object_refuse", "a policy object is immutable")
	"CREATE TRIGGER policy_object_no_update BEFORE UPDATE OR DELETE"
	"  ON policy_object FOR EACH ROW EXECUTE FUNCTION policy_object_refuse();"
	/* Content names a policy object: one already there is kept. */
	"CREATE FUNCTION policy_object_once() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF EXISTS (SELECT 1 FROM policy_object WHERE sha256 = NEW.sha256)"
	"   THEN RETURN NULL; END IF; RETURN NEW; END $$;"
	"CREATE TRIGGER policy_object_once BEFORE INSERT ON policy_object"
	"  FOR EACH ROW EXECUTE FUNCTION policy_object_once();" },
	/*
	 * schema.c's 11 (issue 25): who asked for an action, who drafted
	 * it and when, shown and searched in the queue; every row is
	 * checked again (epoch 0) to fill them in.
	 */
	{ 11,
	"ALTER TABLE queue_index ADD COLUMN requester TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE queue_index ADD COLUMN author TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE queue_index ADD COLUMN drafted_at_ms BIGINT;"
	"UPDATE queue_index SET epoch = 0;" },
	/*
	 * schema.c's 12 (issue 20): the index of revision_of only where
	 * there is one.  Here also: queue_index, the queue's derived index,
	 * loses its foreign key to action.  Its rows are written only with
	 * their action, in the same transaction, and removed only when the
	 * action is decided; the check of each row cost a fifth of an import
	 * on the server (bench/README.md).  The records keep theirs:
	 * decision still references action and audit_log.
	 */
	{ 12,
	"DROP INDEX IF EXISTS action_by_revision;"
	"CREATE INDEX action_by_revision ON action (revision_of)"
	" WHERE revision_of IS NOT NULL;"
	"ALTER TABLE queue_index DROP CONSTRAINT IF EXISTS"
	" queue_index_action_id_fkey;" },
	/*
	 * schema.c's 13 (issue 38): every text column collates C, as SQLite
	 * compares, whatever the database's default: action ids are looked
	 * up by range and their shortest unique prefixes found from their
	 * neighbours in byte order (action_prefix.c), which a language's
	 * collation (en-US ignores '-') gets wrong.  Columns rather than
	 * the database, because DBAs create databases with their site's
	 * defaults.  A table added later declares COLLATE "C" itself.  The
	 * two triggers that name action's columns must go while their
	 * columns change, and come back as they were.
	 * And queue_index's foreign key to action is back: the schema test
	 * (tests/e2e/schema_compare.sh) holds both backends to one schema.
	 */
	{ 13,
	"DROP TRIGGER action_decided_once ON action;"
	"DROP TRIGGER action_immutable ON action;"
	"DO $$ DECLARE c record; BEGIN"
	" FOR c IN SELECT table_name, column_name"
	"  FROM information_schema.columns"
	"  WHERE table_schema = current_schema() AND data_type = 'text'"
	"  AND collation_name IS DISTINCT FROM 'C' LOOP"
	"  EXECUTE format('ALTER TABLE %I ALTER COLUMN %I TYPE text"
	"   COLLATE \"C\"', c.table_name, c.column_name);"
	" END LOOP; END $$;"
	"CREATE TRIGGER action_decided_once BEFORE UPDATE OF status ON action"
	"  FOR EACH ROW WHEN (OLD.status <> 'pending')"
	"  EXECUTE FUNCTION action_decided_refuse();"
	"CREATE TRIGGER action_immutable BEFORE UPDATE OF action_id, kind,"
	"  user_id, author, revision_of, requested_by, expires_at_ms, raw_json,"
	"  imported_at_ms, artifact_id ON action"
	"  FOR EACH ROW EXECUTE FUNCTION action_immutable_refuse();"
	"ALTER TABLE queue_index ADD CONSTRAINT queue_index_action_id_fkey"
	" FOREIGN KEY (action_id) REFERENCES action (action_id);" },
	/* schema.c's 14 (issue 34): the artifacts as sets (artifact.c). */
	{ 14,
	"DROP TABLE IF EXISTS artifact_node;"
	"DROP TABLE IF EXISTS artifact_size;"
	"DROP TABLE IF EXISTS artifact_lock;"
	"DROP TABLE IF EXISTS artifact_pr;"
	"CREATE TABLE artifact_node ("
	"  node TEXT COLLATE \"C\" PRIMARY KEY,"
	"  artifact TEXT COLLATE \"C\" NOT NULL,"
	"  tree TEXT COLLATE \"C\");"
	"CREATE INDEX artifact_node_by_artifact ON artifact_node (artifact);"
	"CREATE INDEX artifact_node_by_tree ON artifact_node (tree)"
	"  WHERE tree IS NOT NULL;"
	"CREATE TABLE artifact_size ("
	"  kind INTEGER NOT NULL,"
	"  label TEXT COLLATE \"C\" NOT NULL,"
	"  size BIGINT NOT NULL,"
	"  PRIMARY KEY (kind, label));"
	"CREATE TABLE artifact_lock ("
	"  artifact TEXT COLLATE \"C\" NOT NULL,"
	"  name_key TEXT COLLATE \"C\" NOT NULL,"
	"  action_id TEXT COLLATE \"C\" NOT NULL,"
	"  PRIMARY KEY (artifact, name_key, action_id));"
	"CREATE TABLE artifact_pr ("
	"  action_id TEXT COLLATE \"C\" PRIMARY KEY,"
	"  pr_url TEXT COLLATE \"C\" NOT NULL,"
	"  rejected INTEGER NOT NULL);"
	ARTIFACT_INDEXES_SQL },
	/*
	 * schema.c's 15 (issue 32, SPEC 13): the audit log's tree, its
	 * signed checkpoints and the log's name, append-only.
	 */
	{ 15,
	"CREATE TABLE merkle_node (level INTEGER NOT NULL, idx BIGINT NOT NULL,"
	"  hash TEXT COLLATE \"C\" NOT NULL, PRIMARY KEY (level, idx));"
	"CREATE TABLE log_checkpoint (size BIGINT PRIMARY KEY,"
	"  note TEXT COLLATE \"C\" NOT NULL, signed_at TEXT COLLATE \"C\" NOT NULL,"
	"  file_size BIGINT);"
	"CREATE TABLE log_name (id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  name TEXT COLLATE \"C\" NOT NULL);"
	REFUSE("log_append_only_refuse", "the signed log is append-only")
	"CREATE TRIGGER merkle_node_append_only BEFORE UPDATE OR DELETE"
	"  ON merkle_node FOR EACH ROW EXECUTE FUNCTION log_append_only_refuse();"
	"CREATE TRIGGER merkle_node_no_truncate BEFORE TRUNCATE ON merkle_node"
	"  FOR EACH STATEMENT EXECUTE FUNCTION log_append_only_refuse();"
	"CREATE TRIGGER log_checkpoint_append_only BEFORE UPDATE OR DELETE"
	"  ON log_checkpoint FOR EACH ROW"
	"  EXECUTE FUNCTION log_append_only_refuse();"
	"CREATE TRIGGER log_checkpoint_no_truncate BEFORE TRUNCATE"
	"  ON log_checkpoint FOR EACH STATEMENT"
	"  EXECUTE FUNCTION log_append_only_refuse();"
	"CREATE TRIGGER log_name_append_only BEFORE UPDATE OR DELETE"
	"  ON log_name FOR EACH ROW EXECUTE FUNCTION log_append_only_refuse();"
	"CREATE TRIGGER log_name_no_truncate BEFORE TRUNCATE ON log_name"
	"  FOR EACH STATEMENT EXECUTE FUNCTION log_append_only_refuse();" },
	/*
	 * schema.c's 16 (issue 33): approval policies and partial approvals.
	 * It adds only what is missing, as 12 does: an upgrade run again by
	 * the owner (postgresql.sh) must not fail on what the first made.
	 * Its text columns collate C themselves, as 13 made every other.
	 */
	{ 16,
	"CREATE TABLE IF NOT EXISTS approval_policy ("
	"  policy_id TEXT COLLATE \"C\" NOT NULL,"
	"  version BIGINT NOT NULL,"
	"  raw_json TEXT COLLATE \"C\" NOT NULL,"
	"  imported_at_ms BIGINT NOT NULL,"
	"  PRIMARY KEY (policy_id, version));"
	"CREATE OR REPLACE FUNCTION approval_policy_refuse() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  RAISE EXCEPTION 'an imported policy is immutable'; END $$;"
	"DROP TRIGGER IF EXISTS approval_policy_no_update ON approval_policy;"
	"CREATE TRIGGER approval_policy_no_update BEFORE UPDATE OR DELETE"
	"  ON approval_policy FOR EACH ROW"
	"  EXECUTE FUNCTION approval_policy_refuse();"
	"CREATE TABLE IF NOT EXISTS approval ("
	"  approval_id TEXT COLLATE \"C\" PRIMARY KEY,"
	"  action_id TEXT COLLATE \"C\" NOT NULL REFERENCES action (action_id),"
	"  operator_login TEXT COLLATE \"C\" NOT NULL,"
	"  operator_uid BIGINT NOT NULL,"
	"  approved_at TEXT COLLATE \"C\" NOT NULL,"
	"  reason TEXT COLLATE \"C\","
	"  needed BIGINT NOT NULL,"
	"  have BIGINT NOT NULL,"
	"  audit_seq BIGINT NOT NULL REFERENCES audit_log (seq));"
	"CREATE INDEX IF NOT EXISTS approval_by_action ON approval"
	"  (action_id, audit_seq);"
	"CREATE OR REPLACE FUNCTION approval_refuse() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  RAISE EXCEPTION 'an approval is final'; END $$;"
	"DROP TRIGGER IF EXISTS approval_no_update ON approval;"
	"CREATE TRIGGER approval_no_update BEFORE UPDATE OR DELETE ON approval"
	"  FOR EACH ROW EXECUTE FUNCTION approval_refuse();"
	"DROP TRIGGER IF EXISTS approval_no_truncate ON approval;"
	"CREATE TRIGGER approval_no_truncate BEFORE TRUNCATE ON approval"
	"  FOR EACH STATEMENT EXECUTE FUNCTION approval_refuse();" },
	/*
	 * schema.c's 17 (issue 36): a security's reference price, as text,
	 * collated C as every text column is (13).  IF NOT EXISTS: the
	 * latest step may run again by the owner (postgresql.sh section 5).
	 */
	{ 17,
	"ALTER TABLE security ADD COLUMN IF NOT EXISTS price_usd TEXT"
	" COLLATE \"C\";" },
	/*
	 * schema.c's 18 (issue 36): the product owner's judgments.  Only
	 * what is missing, so the owner may run it again (postgresql.sh
	 * section 5).
	 */
	{ 18,
	"CREATE TABLE IF NOT EXISTS po_judgment ("
	"  action_id TEXT COLLATE \"C\" NOT NULL"
	"    REFERENCES action (action_id),"
	"  ac_id TEXT COLLATE \"C\" NOT NULL,"
	"  judgment TEXT COLLATE \"C\" NOT NULL,"
	"  judgment_id TEXT COLLATE \"C\" NOT NULL,"
	"  operator_login TEXT COLLATE \"C\" NOT NULL,"
	"  operator_uid BIGINT NOT NULL,"
	"  judged_at TEXT COLLATE \"C\" NOT NULL,"
	"  audit_seq BIGINT NOT NULL REFERENCES audit_log (seq),"
	"  PRIMARY KEY (action_id, ac_id));"
	"CREATE OR REPLACE FUNCTION po_judgment_refuse() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  RAISE EXCEPTION 'a judgment is final'; END $$;"
	"DROP TRIGGER IF EXISTS po_judgment_no_update ON po_judgment;"
	"CREATE TRIGGER po_judgment_no_update BEFORE UPDATE OR DELETE"
	"  ON po_judgment FOR EACH ROW EXECUTE FUNCTION po_judgment_refuse();"
	"DROP TRIGGER IF EXISTS po_judgment_no_truncate ON po_judgment;"
	"CREATE TRIGGER po_judgment_no_truncate BEFORE TRUNCATE ON po_judgment"
	"  FOR EACH STATEMENT EXECUTE FUNCTION po_judgment_refuse();" },
	/*
	 * schema.c's 19 (issue 35): who imported each action.  IF NOT
	 * EXISTS: the owner may run it again (postgresql.sh section 5).
	 */
	{ 19,
	"ALTER TABLE action ADD COLUMN IF NOT EXISTS importer_login TEXT"
	" COLLATE \"C\";"
	"ALTER TABLE action ADD COLUMN IF NOT EXISTS importer_uid BIGINT;"
	"ALTER TABLE action ADD COLUMN IF NOT EXISTS importer_via TEXT"
	" COLLATE \"C\" CHECK (importer_via IN ('local', 'service'));" },
	/*
	 * schema.c's 20 (issue 35): the service's role keeps no UPDATE on
	 * any table and no INSERT on audit_log, decision, approval or
	 * po_judgment.  What needs more is a function of the schema's
	 * owner, SECURITY DEFINER with a fixed search_path, that the store
	 * calls as "SELECT cs_...(...)" (pg_statements.c).  A decision's,
	 * an approval's and a judgment's function refuse a row that the
	 * audit record it names does not describe, and the decision's sets
	 * the action's status with its row.  The write lock is a row lock
	 * on schema_version, which only the owner may lock: the advisory
	 * lock it replaces was anyone's to take.  CREATE OR REPLACE: the
	 * owner may run it again (postgresql.sh section 5).
	 */
	{ 20,
	"CREATE OR REPLACE FUNCTION cs_write_lock() RETURNS void"
	"  LANGUAGE plpgsql" DEFINER " SET lock_timeout = '10s' AS $$ BEGIN"
	"  PERFORM 1 FROM schema_version FOR UPDATE; END $$;"
	PG_AUDIT_APPEND
	PG_RECORDED_ROWS
	/*
	 * A policy object's rows, each held to the audit head, which import
	 * appends first (import_object.c): the policy_import record of that
	 * type, whose object_sha256 is the row's text's, or, for a
	 * security, whose object has the entry.  No policy changes without
	 * its record on the chain.
	 */
	"CREATE OR REPLACE FUNCTION cs_policy_head(text, text) RETURNS json"
	"  LANGUAGE plpgsql" DEFINER " AS $$ DECLARE r json; BEGIN"
	"  SELECT record_json::json INTO r FROM audit_log"
	"   ORDER BY seq DESC LIMIT 1;"
	"  IF r IS NULL OR r->>'event' IS DISTINCT FROM 'policy_import'"
	"   OR r->>'type' IS DISTINCT FROM $1 OR ($2 IS NOT NULL AND"
	"   r->>'object_sha256' IS DISTINCT FROM"
	"   encode(sha256(convert_to($2, 'UTF8')), 'hex')) THEN"
	"   RAISE EXCEPTION '%: the audit head does not record this import',"
	"    $1; END IF;"
	"  RETURN r; END $$;"
	"CREATE OR REPLACE FUNCTION cs_ips_put(text, bigint, text, text,"
	"  bigint) RETURNS void LANGUAGE plpgsql" DEFINER " AS $$ BEGIN"
	"  PERFORM cs_policy_head('ips', $4);"
	"  INSERT INTO ips (ips_id, version, user_id, raw_json,"
	"   imported_at_ms) VALUES ($1, $2, $3, $4, $5); END $$;"
	"CREATE OR REPLACE FUNCTION cs_holdings_put(text, text, bigint, text,"
	"  bigint, text) RETURNS void LANGUAGE plpgsql" DEFINER " AS $$ BEGIN"
	"  PERFORM cs_policy_head('holdings', $4);"
	"  INSERT INTO holdings (snapshot_id, user_id, as_of_ms, raw_json,"
	"   imported_at_ms, as_of_beyond_ms)"
	"   VALUES ($1, $2, $3, $4, $5, $6); END $$;"
	"CREATE OR REPLACE FUNCTION cs_approval_policy_put(text, bigint, text,"
	"  bigint) RETURNS void LANGUAGE plpgsql" DEFINER " AS $$ BEGIN"
	"  PERFORM cs_policy_head('approval_policy', $3);"
	"  INSERT INTO approval_policy (policy_id, version, raw_json,"
	"   imported_at_ms) VALUES ($1, $2, $3, $4); END $$;"
	"CREATE OR REPLACE FUNCTION cs_document_put(text, text, bigint)"
	"  RETURNS void LANGUAGE plpgsql" DEFINER " AS $$ BEGIN"
	"  PERFORM cs_policy_head($1, $2);"
	"  INSERT INTO policy_document (type, raw_json, imported_at_ms)"
	"  VALUES ($1, $2, $3) ON CONFLICT (type) DO UPDATE SET"
	"  raw_json = excluded.raw_json,"
	"  imported_at_ms = excluded.imported_at_ms; END $$;"
	"CREATE OR REPLACE FUNCTION cs_security_put(text, text, text, text,"
	"  bigint, text) RETURNS void LANGUAGE plpgsql" DEFINER " AS $$"
	"  DECLARE e json; BEGIN"
	"  e := cs_policy_head('security_map', NULL)->'object'->'securities'"
	"   ->$2;"
	"  IF e IS NULL OR $1 IS DISTINCT FROM upper($2 COLLATE \"C\")"
	"   OR e->>'sector' IS DISTINCT FROM $3"
	"   OR e->>'asset_class' IS DISTINCT FROM $4"
	"   OR (e->>'price_usd')::float8 IS DISTINCT FROM $6::float8 THEN"
	"   RAISE EXCEPTION 'security %: the audit head does not record it',"
	"    $2; END IF;"
	"  INSERT INTO security (ticker_key, ticker, sector, asset_class,"
	"  imported_at_ms, price_usd) VALUES ($1, $2, $3, $4, $5, $6)"
	"  ON CONFLICT (ticker_key) DO UPDATE SET ticker = excluded.ticker,"
	"  sector = excluded.sector, asset_class = excluded.asset_class,"
	"  imported_at_ms = excluded.imported_at_ms,"
	"  price_usd = excluded.price_usd; END $$;"
	/* The derived tables' changes (queue_index.c, artifact.c). */
	"CREATE OR REPLACE FUNCTION cs_queue_put(text, bigint, bigint, bigint,"
	"  text, text, text, bigint, text, bigint, bigint, text, text, bigint)"
	"  RETURNS void LANGUAGE sql" DEFINER " AS $$"
	"  INSERT INTO queue_index (action_id, kind, epoch, care, flags, who,"
	"  summary, advisory, divergence_count, imported_at_ms,"
	"  expires_at_ms, requester, author, drafted_at_ms) VALUES ($1, $9,"
	"  $2, $3, $4, $5, $6, $7, $8, $10, $11, $12, $13, $14)"
	"  ON CONFLICT (action_id) DO UPDATE SET epoch = excluded.epoch,"
	"  care = excluded.care, flags = excluded.flags, who = excluded.who,"
	"  summary = excluded.summary, advisory = excluded.advisory,"
	"  divergence_count = excluded.divergence_count,"
	"  requester = excluded.requester, author = excluded.author,"
	"  drafted_at_ms = excluded.drafted_at_ms $$;"
	PG_QUEUE_WRITES
	PG_ARTIFACT_WRITES
	/* Called by the service's role only: granted by postgresql-grants.sql. */
	"REVOKE ALL ON FUNCTION cs_write_lock(), cs_audit_append(bigint, text,"
	"  text, text), cs_decision_insert(text, text, text, text, bigint, text,"
	"  bigint, text, bigint, text, text), cs_approval_insert(text, text,"
	"  text, bigint, text, text, bigint, bigint, bigint),"
	"  cs_judgment_insert(text, text, text, text, text, bigint, text,"
	"  bigint), cs_policy_head(text, text), cs_ips_put(text, bigint, text,"
	"  text, bigint), cs_holdings_put(text, text, bigint, text, bigint,"
	"  text), cs_approval_policy_put(text, bigint, text, bigint),"
	"  cs_security_put(text, text, text, text, bigint, text),"
	"  cs_document_put(text, text, bigint), cs_queue_put(text, bigint,"
	"  bigint, bigint, text, text, text, bigint, text, bigint, bigint, text,"
	"  text, bigint), cs_queue_remove(text), cs_queue_mark_stale(text),"
	"  cs_queue_mark_touched(text, text), cs_queue_totals_add(bigint,"
	"  bigint, bigint), cs_queue_totals_set(bigint, bigint, bigint),"
	"  cs_artifact_size_grow(integer, text, bigint),"
	"  cs_artifact_size_drop(integer, text), cs_artifact_relabel(text,"
	"  text), cs_artifact_relabel_tree(text, text),"
	"  cs_artifact_relabel_locks(text, text), cs_artifact_pr_rejected(text),"
	"  cs_artifact_queue_stale(text, text) FROM PUBLIC;" },
	/*
	 * schema.c's 21 (issue 34): the part of a queue row list prints
	 * beyond its columns.  cs_queue_put takes it as a 15th argument: the
	 * old one goes (postgresql-grants.sql grants the new one).  Run
	 * again, each statement finds its work done.
	 */
	{ 21,
	"ALTER TABLE queue_index ADD COLUMN IF NOT EXISTS listed TEXT"
	"  COLLATE \"C\";"
	"UPDATE queue_index SET epoch = 0 WHERE listed IS NULL;"
	"DROP FUNCTION IF EXISTS cs_queue_put(text, bigint, bigint, bigint,"
	"  text, text, text, bigint, text, bigint, bigint, text, text, bigint);"
	PG_QUEUE_PUT
	"REVOKE ALL ON FUNCTION cs_queue_put(text, bigint, bigint, bigint,"
	"  text, text, text, bigint, text, bigint, bigint, text, text, bigint,"
	"  text) FROM PUBLIC;" },
	/*
	 * schema.c's 22 (issue 38): the owner's functions again, written in
	 * PL/pgSQL and reading a record as jsonb (see OWNER_WRITE above).
	 * The same arguments and results, so the grants stand.  And the
	 * long texts every decision and import writes are compressed with
	 * lz4, where the server has it: pglz took a tenth of the server's
	 * time in a batch.  Rows written before keep theirs.
	 */
	{ 22,
	"DO $$ BEGIN"
	"  ALTER TABLE audit_log ALTER COLUMN record_json SET COMPRESSION lz4;"
	"  ALTER TABLE action ALTER COLUMN raw_json SET COMPRESSION lz4;"
	" EXCEPTION WHEN feature_not_supported THEN NULL; END $$;"
	PG_AUDIT_APPEND
	PG_RECORDED_ROWS
	PG_QUEUE_WRITES
	PG_ARTIFACT_WRITES
	PG_QUEUE_PUT },
	/*
	 * schema.c's 23 (issue 38): a decision in one call.  The record
	 * ($1-$4, as cs_audit_append's) is appended and parsed as given, so
	 * it is not read back; the row ($5-$15, as cs_decision_insert's)
	 * must name it and be described by it; and the decided action
	 * leaves the queue.  Three calls and a read of the record became
	 * one call: a third of a decision's time on the server.
	 * postgresql-grants.sql grants it.
	 */
	{ 23,
	"CREATE OR REPLACE FUNCTION cs_decision_append(bigint, text, text, text,"
	"  text, text, text, text, bigint, text, bigint, text, bigint, text,"
	"  text) RETURNS void"
	"  LANGUAGE plpgsql" DEFINER " AS $$ DECLARE r jsonb; BEGIN"
	"  INSERT INTO audit_log (seq, record_json, prev_hash, hash)"
	"   VALUES ($1, $2, $3, $4);"
	"  r := CASE WHEN $11 = $1 THEN $2::jsonb END;"
	DECISION_ROW("$5", "$6", "$7", "$8", "$9", "$10", "$11", "$12", "$13",
	    "$14", "$15")
	"  DELETE FROM queue_index WHERE action_id = $5;"
	"  END $$;"
	"REVOKE ALL ON FUNCTION cs_decision_append(bigint, text, text, text,"
	"  text, text, text, text, bigint, text, bigint, text, bigint, text,"
	"  text) FROM PUBLIC;" },
};

#define PG_MIGRATIONS (sizeof pg_migrations / sizeof pg_migrations[0])

/*
 * -1: no schema yet (*empty: no tables at all); < -1: an error.  Any
 * database collation will do: the columns declare their own (13).
 */
static int
pg_current_version(struct store *s, bool *empty, struct error *err)
{
	db_stmt *stmt = NULL;
	int has;

	if (db_prepare(s->db, "SELECT (SELECT count(*) FROM pg_tables"
	    " WHERE schemaname = current_schema()),"
	    " to_regclass('schema_version') IS NOT NULL", DB_READS, &stmt) !=
	    DB_OK || db_step(stmt) != DB_ROW) {
		db_finalize(stmt);
		return -2 - store_error(s, err, "reading the schema");
	}
	*empty = db_column_int(stmt, 0) == 0;
	has = db_column_int(stmt, 1);
	db_finalize(stmt);
	if (!has)
		return -1;
	return schema_version_read(s, err);
}

int
pg_schema_migrate(struct store *s, int sqlite_version, bool may_create,
    struct error *err)
{
	int latest = pg_migrations[PG_MIGRATIONS - 1].version;
	char sql[64];
	bool empty;
	size_t i;
	int version, rc;

	/*
	 * A migration schema.c has and this file has not yet: the store
	 * refuses rather than run on tables that lack it.
	 */
	if (latest != sqlite_version)
		return error_set(err, EXIT_STORAGE, NULL, "%s: schema version "
		    "%d is not supported on PostgreSQL yet (it is at %d)",
		    s->path, sqlite_version, latest);
	version = pg_current_version(s, &empty, err);
	if ((rc = schema_version_judged(s, version, latest, empty, may_create,
	    "a PostgreSQL database with tables, but not a countersign one",
	    err)) != 0)
		return rc < 0 ? 0 : rc;
	if (store_begin(s, err) != 0)
		return err->status;
	/* Another host may have migrated while we waited for the lock. */
	version = pg_current_version(s, &empty, err);
	if (version < -1)
		goto fail;
	if (version == -1) {
		if (db_exec(s->db, "CREATE TABLE schema_version"
		    " (version INTEGER NOT NULL);"
		    "INSERT INTO schema_version VALUES (0);") != DB_OK) {
			store_error(s, err, "creating the schema");
			goto fail;
		}
		version = 0;
	}
	for (i = 0; i < PG_MIGRATIONS; i++) {
		if (pg_migrations[i].version <= version)
			continue;
		if (db_exec(s->db, pg_migrations[i].sql) != DB_OK) {
			/* Most often the service's role, which may not. */
			store_error(s, err, store_served(NULL) ?
			    "migrating the schema (only the schema's owner "
			    "may: ask the service's administrator to run one "
			    "command as the owner)" : "migrating the schema "
			    "(only the schema's owner may: run one command as "
			    "the owner, countersign(1) --db)");
			goto fail;
		}
		snprintf(sql, sizeof sql, "UPDATE schema_version SET version"
		    " = %d", pg_migrations[i].version);
		if (db_exec(s->db, sql) != DB_OK) {
			store_error(s, err, "migrating the schema");
			goto fail;
		}
	}
	if (version < latest && store_artifacts_build(s, err) != 0)
		goto fail;
	return store_commit(s, err);
fail:
	store_rollback(s);
	return err->status;
}
