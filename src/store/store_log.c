/*
 * The log anyone can check (SPEC 13), in the store.  Beside each audit
 * record the tree gains its leaf and every complete subtree the leaf
 * completes (about two rows a record), in the same transaction: a proof
 * of any record reads about 2 log2(n) of them and rehashes nothing.  Each
 * commit that appended signs one checkpoint of the new size before its
 * COMMIT, under the transaction's write lock (on PostgreSQL the chain's
 * lock), so that the latest stored checkpoint always covers the log; a
 * log that has records beyond it was extended by someone without a key.
 * The checkpoint file each signed head also goes to is store_log_file.c's.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "sha256.h"
#include "store.h"
#include "store_internal.h"
#include "store_log.h"
#include "store_log_internal.h"
#include "timestamp.h"

static const char *const log_sql[LOG_SQL_COUNT] = {
	[LOG_NODE_GET] =
	    "SELECT hash FROM merkle_node WHERE level = ?1 AND idx = ?2",
	[LOG_NODE_PUT] =
	    "INSERT INTO merkle_node (level, idx, hash) VALUES (?1, ?2, ?3)",
	[LOG_CHECKPOINT_LATEST] =
	    "SELECT size, note FROM log_checkpoint ORDER BY size DESC LIMIT 1",
	[LOG_CHECKPOINT_SIZE] =
	    "SELECT size, note FROM log_checkpoint WHERE size = ?1",
	[LOG_CHECKPOINT_PUT] =
	    "INSERT INTO log_checkpoint (size, note, signed_at, file_size)"
	    " VALUES (?1, ?2, ?3, ?4)",
	[LOG_CHECKPOINT_DESC] =
	    "SELECT size, note FROM log_checkpoint ORDER BY size DESC",
	[LOG_NAME_GET] = "SELECT name FROM log_name WHERE id = 1",
	[LOG_NAME_PUT] = "INSERT INTO log_name (id, name) VALUES (1, ?1)",
	[LOG_RECORD_GET] = "SELECT record_json FROM audit_log WHERE seq = ?1",
	[LOG_LEAVES] = "SELECT max(idx) FROM merkle_node WHERE level = 0",
	[LOG_RECORDS_AFTER] = "SELECT seq, record_json FROM audit_log"
	    " WHERE seq > ?1 ORDER BY seq",
	[LOG_HASH_AT] = "SELECT hash FROM audit_log WHERE seq = ?1",
	[LOG_FILE_SIZE] = "SELECT file_size, note FROM log_checkpoint"
	    " WHERE file_size IS NOT NULL ORDER BY size DESC",
};

/* What each does (db.h): a read unless listed. */
static const int log_use[LOG_SQL_COUNT] = {
	[LOG_NODE_PUT] = DB_WRITES,
	[LOG_CHECKPOINT_PUT] = DB_WRITES,
	[LOG_NAME_PUT] = DB_WRITES,
};

static const struct note_signer *log_signer;
static struct note_verifier log_trusted[1 + 16];
static size_t log_trusted_count;

void
store_log_keys(const struct note_signer *signer,
    const struct note_verifier *trusted, size_t count)
{
	size_t i;

	log_signer = signer;
	log_trusted_count = 0;
	if (signer != NULL) {
		struct note_verifier *own = &log_trusted[log_trusted_count++];

		snprintf(own->name, sizeof own->name, "%s", signer->name);
		own->id = signer->id;
		memcpy(own->pub, signer->pub, sizeof own->pub);
	}
	for (i = 0; i < count && log_trusted_count < sizeof log_trusted /
	    sizeof log_trusted[0]; i++)
		log_trusted[log_trusted_count++] = trusted[i];
}

bool
store_log_signing(void)
{
	return log_signer != NULL;
}

const struct note_verifier *
store_log_trusted(size_t *count)
{
	*count = log_trusted_count;
	return log_trusted;
}

static struct log_state *
log_state(struct store *s, struct error *err)
{
	if (s->log == NULL) {
		if ((s->log = calloc(1, sizeof *s->log)) == NULL) {
			error_set(err, EXIT_STORAGE, NULL, "out of memory");
			return NULL;
		}
		s->log->frontier_size = -1;
	}
	return s->log;
}

db_stmt *
log_stmt(struct store *s, enum log_sql which, struct error *err)
{
	struct log_state *st = log_state(s, err);
	db_stmt *stmt;

	if (st == NULL)
		return NULL;
	if ((stmt = st->stmts[which]) == NULL) {
		if (db_prepare(s->db, log_sql[which], log_use[which] | DB_KEEP,
		    &stmt) != DB_OK) {
			store_error(s, err, "preparing a statement of the tree");
			return NULL;
		}
		st->stmts[which] = stmt;
	}
	db_reset(stmt);
	db_clear_bindings(stmt);
	return stmt;
}

static void
hash_to_hex(const merkle_hash h, char hex[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < MERKLE_HASH_SIZE; i++) {
		hex[2 * i] = digits[h[i] >> 4];
		hex[2 * i + 1] = digits[h[i] & 15];
	}
	hex[64] = '\0';
}

static bool
hex_to_hash(const char *hex, merkle_hash h)
{
	size_t i;
	int hi, lo;

	if (hex == NULL || strlen(hex) != 64)
		return false;
	for (i = 0; i < MERKLE_HASH_SIZE; i++) {
		hi = hex[2 * i] <= '9' ? hex[2 * i] - '0' : hex[2 * i] - 'a' + 10;
		lo = hex[2 * i + 1] <= '9' ? hex[2 * i + 1] - '0' :
		    hex[2 * i + 1] - 'a' + 10;
		if (hi < 0 || hi > 15 || lo < 0 || lo > 15)
			return false;
		h[i] = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

/* The stored complete subtree; merkle_node_fn over a store. */
struct node_reader {
	struct store *s;
	struct error *err;
};

static int
read_node(void *ctx, unsigned level, uint64_t index, merkle_hash out)
{
	struct node_reader *r = ctx;
	db_stmt *stmt;
	int rc;
	bool ok;

	if ((stmt = log_stmt(r->s, LOG_NODE_GET, r->err)) == NULL)
		return r->err->status;
	db_bind_int(stmt, 1, (int)level);
	db_bind_int64(stmt, 2, (long long)index);
	rc = db_step(stmt);
	ok = rc == DB_ROW && hex_to_hash((const char *)db_column_text(stmt, 0),
	    out);
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(r->s, r->err, "reading the tree");
	if (!ok)
		return error_set(r->err, EXIT_STORAGE, NULL, "%s: the tree "
		    "has no node %u/%" PRIu64 "; run countersign audit verify",
		    r->s->path, level, index);
	return 0;
}

static int
put_node(struct store *s, unsigned level, uint64_t index, const merkle_hash h,
    struct error *err)
{
	char hex[SHA256_HEX_SIZE];
	db_stmt *stmt;
	int rc;

	if ((stmt = log_stmt(s, LOG_NODE_PUT, err)) == NULL)
		return err->status;
	hash_to_hex(h, hex);
	db_bind_int(stmt, 1, (int)level);
	db_bind_int64(stmt, 2, (long long)index);
	db_bind_text(stmt, 3, hex, -1, DB_TRANSIENT);
	rc = db_step(stmt);
	db_reset(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err, "extending the tree");
}

/* The right edge of the tree of size leaves, from the stored nodes. */
static int
load_frontier(struct store *s, long long size, struct error *err)
{
	struct node_reader r = { s, err };
	struct log_state *st = s->log;
	unsigned level;
	int rc;

	if (st->frontier_size == size)
		return 0;
	st->frontier_size = -1;
	for (level = 0; level < LEVELS; level++)
		if (((uint64_t)size >> level) & 1) {
			if ((rc = read_node(&r, level, ((uint64_t)size >>
			    level) - 1, st->frontier[level])) != 0)
				return rc;
		}
	st->frontier_size = size;
	return 0;
}

/* The root of a tree from its right edge: the smallest subtree first. */
int
log_frontier_root(const merkle_hash *frontier, uint64_t size, merkle_hash root)
{
	bool have = false;
	unsigned level;

	if (size == 0)
		return merkle_root(NULL, NULL, 0, root);
	for (level = 0; level < LEVELS; level++) {
		if (!((size >> level) & 1))
			continue;
		if (!have)
			memcpy(root, frontier[level], MERKLE_HASH_SIZE);
		else if (merkle_node_hash(frontier[level], root, root) != 0)
			return -1;
		have = true;
	}
	return 0;
}

/*
 * Appends leaf hash h at index size of a right edge; put, when given,
 * stores each node it completes.
 */
int
log_frontier_append(merkle_hash *frontier, uint64_t size,
    const merkle_hash leaf, struct store *put, struct error *err)
{
	merkle_hash h;
	unsigned level = 0;
	int rc;

	memcpy(h, leaf, MERKLE_HASH_SIZE);
	if (put != NULL && (rc = put_node(put, 0, size, h, err)) != 0)
		return rc;
	while ((size >> level) & 1) {
		if (merkle_node_hash(frontier[level], h, h) != 0)
			return error_set(err, EXIT_STORAGE, NULL,
			    "cannot compute SHA-256");
		level++;
		if (put != NULL && (rc = put_node(put, level, size >> level,
		    h, err)) != 0)
			return rc;
	}
	memcpy(frontier[level], h, MERKLE_HASH_SIZE);
	return 0;
}

/* How many leaves the stored tree has. */
int
log_stored_leaves(struct store *s, long long *leaves, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*leaves = 0;
	if ((stmt = log_stmt(s, LOG_LEAVES, err)) == NULL)
		return err->status;
	rc = db_step(stmt);
	if (rc == DB_ROW && db_column_type(stmt, 0) != DB_NULL)
		*leaves = db_column_int64(stmt, 0) + 1;
	db_reset(stmt);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
	    store_error(s, err, "reading the tree");
}

/*
 * The tree of a log kept before it had one (schema version 14) is built
 * at its first append, in that transaction, from the records themselves.
 */
static int
build_tree(struct store *s, long long size, struct error *err)
{
	struct log_state *st = s->log;
	merkle_hash leaf;
	long long leaves, seq;
	db_stmt *stmt = NULL;
	const char *record;
	int rc;

	if ((rc = log_stored_leaves(s, &leaves, err)) != 0)
		return rc;
	if (leaves >= size)
		return 0;
	if ((rc = load_frontier(s, leaves, err)) != 0)
		return rc;
	st->frontier_size = -1;
	if (db_prepare(s->db, log_sql[LOG_RECORDS_AFTER], DB_READS, &stmt) !=
	    DB_OK)
		return store_error(s, err, "reading the audit log");
	db_bind_int64(stmt, 1, leaves);
	while ((rc = db_step(stmt)) == DB_ROW && leaves < size) {
		seq = db_column_int64(stmt, 0);
		record = (const char *)db_column_text(stmt, 1);
		if (seq != leaves + 1 || record == NULL) {
			db_finalize(stmt);
			return error_set(err, EXIT_STORAGE, NULL, "%s: audit "
			    "record %lld is missing; run countersign audit "
			    "verify", s->path, leaves + 1);
		}
		if (merkle_leaf_hash(record, strlen(record), leaf) != 0 ||
		    (rc = log_frontier_append(st->frontier, (uint64_t)leaves, leaf,
		    s, err)) != 0) {
			db_finalize(stmt);
			return err->status ? err->status : error_set(err,
			    EXIT_STORAGE, NULL, "cannot compute SHA-256");
		}
		leaves++;
	}
	db_finalize(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the audit log");
	st->frontier_size = leaves;
	return 0;
}

int
store_log_name(struct store *s, const char *wanted, char *name, size_t size,
    struct error *err)
{
	db_stmt *stmt;
	int rc;

	if (name != NULL)
		*name = '\0';
	if ((stmt = log_stmt(s, LOG_NAME_GET, err)) == NULL)
		return err->status;
	rc = db_step(stmt);
	if (rc == DB_ROW && name != NULL)
		snprintf(name, size, "%s", (const char *)db_column_text(stmt, 0));
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_error(s, err, "reading the log's name");
	if (wanted == NULL)
		return 0;
	if (rc == DB_ROW) {
		char stored[NOTE_NAME_MAX];

		if ((stmt = log_stmt(s, LOG_NAME_GET, err)) == NULL)
			return err->status;
		db_step(stmt);
		snprintf(stored, sizeof stored, "%s",
		    (const char *)db_column_text(stmt, 0));
		db_reset(stmt);
		if (strcmp(stored, wanted) != 0)
			return error_set(err, EXIT_STORAGE, "--log-name",
			    "%s: the log is named %s, not %s (SPEC 13: a "
			    "log's name is set once)", s->path, stored, wanted);
		return 0;
	}
	if (!note_name_valid(wanted))
		return error_set(err, EXIT_USAGE, "--log-name", "a log's name "
		    "must be non-empty and hold no white space and no '+'");
	if ((rc = store_begin(s, err)) != 0)
		return rc;
	if ((stmt = log_stmt(s, LOG_NAME_PUT, err)) == NULL) {
		store_rollback(s);
		return err->status;
	}
	db_bind_text(stmt, 1, wanted, -1, DB_STATIC);
	db_step(stmt);
	db_reset(stmt);
	if ((rc = store_commit(s, err)) != 0)
		return rc;
	if (name != NULL)
		snprintf(name, size, "%s", wanted);
	return 0;
}

int
store_log_checkpoint(struct store *s, long long size, char **note,
    long long *got_size, struct error *err)
{
	db_stmt *stmt;
	int rc;

	*note = NULL;
	*got_size = 0;
	if ((stmt = log_stmt(s, size > 0 ? LOG_CHECKPOINT_SIZE :
	    LOG_CHECKPOINT_LATEST, err)) == NULL)
		return err->status;
	if (size > 0)
		db_bind_int64(stmt, 1, size);
	rc = db_step(stmt);
	if (rc == DB_ROW) {
		*got_size = db_column_int64(stmt, 0);
		if ((*note = strdup((const char *)db_column_text(stmt, 1))) ==
		    NULL)
			rc = DB_NOMEM;
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE) {
		free(*note);
		*note = NULL;
		return store_error(s, err, "reading the checkpoints");
	}
	return 0;
}

int
store_log_root(struct store *s, long long size, merkle_hash root,
    struct error *err)
{
	struct node_reader r = { s, err };
	int rc;

	if (log_state(s, err) == NULL)
		return err->status;
	if ((rc = merkle_root(read_node, &r, (uint64_t)size, root)) != 0)
		return err->status != 0 ? rc : error_set(err, EXIT_STORAGE,
		    NULL, "cannot compute SHA-256");
	return 0;
}

int
store_log_consistency(struct store *s, long long size1, long long size2,
    merkle_hash proof[MERKLE_MAX_PROOF], size_t *count, struct error *err)
{
	struct node_reader r = { s, err };

	*count = 0;
	if (log_state(s, err) == NULL)
		return err->status;
	if (size1 == size2)
		return 0;
	if (merkle_consistency_proof(read_node, &r, (uint64_t)size1,
	    (uint64_t)size2, proof, count) != 0)
		return err->status != 0 ? err->status : error_set(err,
		    EXIT_STORAGE, NULL, "cannot compute SHA-256");
	return 0;
}

int
store_log_receipt(struct store *s, long long seq, char **text,
    struct error *err)
{
	merkle_hash proof[MERKLE_MAX_PROOF];
	struct node_reader r = { s, err };
	char *note = NULL, *record = NULL;
	long long size;
	size_t count;
	db_stmt *stmt;
	int rc;

	*text = NULL;
	error_clear(err);
	if ((rc = store_log_checkpoint(s, 0, &note, &size, err)) != 0)
		return rc;
	if (note == NULL || size < seq) {
		rc = error_set(err, EXIT_REFUSED, NULL, "no signed checkpoint "
		    "covers audit record %lld yet", seq);
		goto cleanup;
	}
	if ((stmt = log_stmt(s, LOG_RECORD_GET, err)) == NULL) {
		rc = err->status;
		goto cleanup;
	}
	db_bind_int64(stmt, 1, seq);
	if ((rc = db_step(stmt)) == DB_ROW)
		record = strdup((const char *)db_column_text(stmt, 0));
	db_reset(stmt);
	if (rc != DB_ROW || record == NULL) {
		rc = rc == DB_DONE ? error_set(err, EXIT_STORAGE, NULL,
		    "%s: no audit record %lld", s->path, seq) :
		    store_error(s, err, "reading an audit record");
		goto cleanup;
	}
	if ((rc = merkle_inclusion_proof(read_node, &r, (uint64_t)seq - 1,
	    (uint64_t)size, proof, &count)) != 0) {
		if (err->status == 0)
			error_set(err, EXIT_STORAGE, NULL,
			    "cannot compute SHA-256");
		rc = err->status;
		goto cleanup;
	}
	if ((*text = tlog_proof_text(record, strlen(record),
	    (uint64_t)seq - 1, (const merkle_hash *)proof, count, note)) ==
	    NULL)
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	rc = err->status;
cleanup:
	free(note);
	free(record);
	return rc;
}

size_t
log_note_text_length_n(const char *note, size_t all)
{
	size_t len = all;

	while (len >= 2 && !(note[len - 1] == '\n' && note[len - 2] == '\n'))
		len--;
	return len >= 2 ? len - 1 : all;
}

size_t
log_note_text_length(const char *note)
{
	return log_note_text_length_n(note, strlen(note));
}

int
log_refuse(struct error *err, const char *fmt, ...)
{
	char message[sizeof err->message];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	store_audit_alarm(message);
	return error_set(err, EXIT_STORAGE, NULL, "%s", message);
}

/* Whether note is a checkpoint of this log signed by a trusted key. */
static bool
note_trusted(struct store *s, const char *note, struct checkpoint *c,
    struct error *why)
{
	const struct note_verifier *by;
	size_t text_len;

	error_clear(why);
	if (note_open(note, strlen(note), log_trusted, log_trusted_count,
	    &text_len, &by, why) != 0 ||
	    checkpoint_parse(note, text_len, c, why) != 0)
		return false;
	if (strcmp(c->origin, s->log->name) != 0) {
		error_set(why, EXIT_STORAGE, NULL, "of the log %s, not %s",
		    c->origin, s->log->name);
		return false;
	}
	return true;
}

/*
 * The tree size of the latest checkpoint a trusted key signed, 0 if none:
 * the records beyond it were attested by nobody this service trusts.
 * Only a refusal looks, so a walk down every checkpoint is affordable.
 */
static int
trusted_size(struct store *s, long long *size, struct error *err)
{
	struct checkpoint c;
	struct error why;
	db_stmt *stmt = NULL;
	int rc;

	*size = 0;
	if (db_prepare(s->db, log_sql[LOG_CHECKPOINT_DESC], DB_READS, &stmt) !=
	    DB_OK)
		return store_error(s, err, "reading the checkpoints");
	while ((rc = db_step(stmt)) == DB_ROW)
		if (note_trusted(s, (const char *)db_column_text(stmt, 1), &c,
		    &why) && (long long)c.size == db_column_int64(stmt, 0)) {
			*size = (long long)c.size;
			rc = DB_DONE;
			break;
		}
	db_finalize(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err,
	    "reading the checkpoints");
}

/*
 * Whether the latest note (of tree size size) is a checkpoint of this log
 * signed by a trusted key, and its tree; else EXIT_STORAGE naming the
 * first record no trusted key attested.
 */
static int
trusted_checkpoint(struct store *s, const char *note, long long size,
    struct checkpoint *c, struct error *err)
{
	struct error why;
	long long trusted;
	int rc;

	if (note_trusted(s, note, c, &why))
		return 0;
	if ((rc = trusted_size(s, &trusted, err)) != 0)
		return rc;
	return log_refuse(err, "%s: audit record %lld lies beyond the latest "
	    "checkpoint signed by a trusted key (tree size %lld): the latest "
	    "checkpoint (tree size %lld) is not (%s); refusing to extend the "
	    "log until an operator looks (countersign audit verify)", s->path,
	    trusted + 1, trusted, size, why.message);
}

int
log_on_chain(struct store *s, long long seq, const char *hash, bool *yes,
    struct error *err)
{
	db_stmt *stmt;
	int rc;

	*yes = false;
	if ((stmt = log_stmt(s, LOG_HASH_AT, err)) == NULL)
		return err->status;
	db_bind_int64(stmt, 1, seq);
	rc = db_step(stmt);
	*yes = rc == DB_ROW && strcmp((const char *)db_column_text(stmt, 0),
	    hash) == 0;
	db_reset(stmt);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
	    store_error(s, err, "reading the audit log");
}

int
store_log_before_append(struct store *s, long long seq, struct error *err)
{
	struct log_state *st;
	struct checkpoint c;
	merkle_hash root;
	char *note = NULL;
	long long size;
	int rc = 0;

	if ((st = log_state(s, err)) == NULL)
		return err->status;
	st->appended = true;
	if (st->attested)
		return 0;
	/* Read once: a name is set once, and a signing commit sets ours. */
	if (!st->named) {
		if ((rc = store_log_name(s, NULL, st->name, sizeof st->name,
		    err)) != 0)
			return rc;
		st->named = true;
	}
	if ((rc = log_file_check(s, err)) != 0)
		return rc;
	if (log_signer == NULL)
		goto attested;
	if ((rc = store_log_checkpoint(s, 0, &note, &size, err)) != 0)
		return rc;
	/* A log kept before it had a key: unsigned up to its first checkpoint. */
	if (note == NULL)
		goto attested;
	/* The note this process signed last needs no second look. */
	if (st->last_note == NULL || strcmp(note, st->last_note) != 0) {
		if ((rc = trusted_checkpoint(s, note, size, &c, err)) != 0)
			goto cleanup;
	} else if ((rc = checkpoint_parse(note, log_note_text_length(note), &c,
	    err)) != 0) {
		goto cleanup;
	}
	if ((long long)c.size != size || size != seq - 1) {
		rc = log_refuse(err, "%s: audit record %lld "
		    "lies beyond the latest signed checkpoint (tree size %lld):"
		    " no service holding a key wrote it; refusing to extend "
		    "the log until an operator looks (countersign audit "
		    "verify)", s->path, size + 1, size);
		goto cleanup;
	}
	/* The right edge this process already holds costs no reads. */
	if (st->frontier_size == size) {
		if (log_frontier_root(st->frontier, (uint64_t)size, root) != 0) {
			rc = error_set(err, EXIT_STORAGE, NULL,
			    "cannot compute SHA-256");
			goto cleanup;
		}
	} else if ((rc = store_log_root(s, size, root, err)) != 0) {
		goto cleanup;
	}
	if (memcmp(root, c.root, MERKLE_HASH_SIZE) != 0) {
		rc = log_refuse(err, "%s: the stored tree "
		    "of %lld records does not have the root the latest "
		    "checkpoint signed; refusing to extend the log until an "
		    "operator looks (countersign audit verify)", s->path, size);
		goto cleanup;
	}
attested:
	st->attested = true;
cleanup:
	free(note);
	return rc;
}

int
store_log_after_append(struct store *s, long long seq,
    const char *record_json, struct error *err)
{
	struct log_state *st = s->log;
	merkle_hash leaf;
	int rc;

	if (st->frontier_size != seq - 1 &&
	    (rc = build_tree(s, seq - 1, err)) != 0)
		return rc;
	if ((rc = load_frontier(s, seq - 1, err)) != 0)
		return rc;
	if (merkle_leaf_hash(record_json, strlen(record_json), leaf) != 0)
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot compute SHA-256");
	st->frontier_size = -1;
	if ((rc = log_frontier_append(st->frontier, (uint64_t)seq - 1, leaf, s,
	    err)) != 0)
		return rc;
	st->frontier_size = seq;
	return 0;
}

int
store_log_commit(struct store *s, struct error *err)
{
	struct log_state *st = s->log;
	struct audit_head head;
	merkle_hash root;
	char when[TIMESTAMP_SIZE], *text = NULL, *note = NULL, *latest = NULL;
	char *line = NULL;
	long long latest_size, file_size = -1;
	db_stmt *stmt;
	int rc;

	if (st == NULL || !st->appended)
		return 0;
	st->appended = false;
	st->attested = false;
	if (log_signer == NULL)
		return 0;
	if ((rc = store_audit_head(s, &head, err)) != 0)
		return rc;
	if ((rc = store_log_checkpoint(s, 0, &latest, &latest_size, err)) != 0)
		return rc;
	free(latest);
	/* An --atomic batch rolled back whole appends nothing to sign. */
	if (head.seq <= latest_size)
		return 0;
	if (st->name[0] == '\0' &&
	    (rc = store_log_name(s, NULL, st->name, sizeof st->name, err)) != 0)
		return rc;
	/* A log first signed here is named by its key, once (SPEC 13). */
	if (st->name[0] == '\0') {
		snprintf(st->name, sizeof st->name, "%s", log_signer->name);
		if ((stmt = log_stmt(s, LOG_NAME_PUT, err)) == NULL)
			return err->status;
		db_bind_text(stmt, 1, st->name, -1, DB_STATIC);
		db_step(stmt);
		db_reset(stmt);
	}
	if ((rc = load_frontier(s, head.seq, err)) != 0)
		return rc;
	if (log_frontier_root(st->frontier, (uint64_t)head.seq, root) != 0 ||
	    (text = checkpoint_text(st->name, (uint64_t)head.seq, root)) ==
	    NULL) {
		rc = error_set(err, EXIT_STORAGE, NULL,
		    "cannot compute the checkpoint");
		goto cleanup;
	}
	if ((rc = note_sign(log_signer, text, &note, err)) != 0)
		goto cleanup;
	if ((stmt = log_stmt(s, LOG_CHECKPOINT_PUT, err)) == NULL) {
		rc = err->status;
		goto cleanup;
	}
	timestamp_format(timestamp_now(), when);
	if ((rc = log_file_line_make(head.seq, head.hash, when, note, &line,
	    &file_size, err)) != 0)
		goto cleanup;
	db_bind_int64(stmt, 1, head.seq);
	db_bind_text(stmt, 2, note, -1, DB_STATIC);
	db_bind_text(stmt, 3, when, -1, DB_TRANSIENT);
	if (file_size >= 0)
		db_bind_int64(stmt, 4, file_size);
	rc = db_step(stmt);
	db_reset(stmt);
	if (rc != DB_DONE) {
		rc = store_error(s, err, "storing the checkpoint");
		goto cleanup;
	}
	rc = 0;
	free(st->last_note);
	free(st->file_line);
	st->last_note = note;
	st->file_line = line;
	st->last_note_size = head.seq;
	note = NULL;
	line = NULL;
cleanup:
	free(text);
	free(note);
	free(line);
	return rc;
}

void
store_log_forget(struct store *s, bool whole)
{
	if (s->log == NULL)
		return;
	s->log->frontier_size = -1;
	if (whole) {
		s->log->appended = false;
		s->log->attested = false;
	}
}

void
store_log_free(struct store *s)
{
	size_t i;

	if (s->log == NULL)
		return;
	for (i = 0; i < LOG_SQL_COUNT; i++)
		db_finalize(s->log->stmts[i]);
	free(s->log->last_note);
	free(s->log->file_line);
	free(s->log);
	s->log = NULL;
}
