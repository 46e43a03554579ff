/*
 * The log anyone can check (SPEC 13): keys, receipts, checkpoints and
 * consistency, countersign(1) COMMANDS; the formats are
 * countersign-packets(5) SIGNED LOG.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd_log.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_writer.h"
#include "sanitize.h"
#include "store.h"
#include "store_log.h"
#include "xmalloc.h"

#define KEY_FILE_MAX 4096
#define RECEIPT_MAX (4UL << 20)

/* A small file whole; EXIT_DATA naming why not. */
static int
read_small(const char *path, size_t max, char **text, size_t *len,
    struct stat *st_out, struct error *err)
{
	struct stat st;
	size_t done = 0;
	int fd;

	*text = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		/* L10N: %s is the system's reason (strerror) */
		return error_set(err, EXIT_DATA, path, _("cannot open: %s"),
		    strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (unsigned long long)st.st_size > max) {
		close(fd);
		return error_set(err, EXIT_DATA, path,
		    _("not a regular file of at most %zu bytes"), max);
	}
	if (st_out != NULL)
		*st_out = st;
	*text = xmalloc((size_t)st.st_size + 1);
	done = read_up_to(fd, *text, (size_t)st.st_size);
	close(fd);
	(*text)[done] = '\0';
	*len = done;
	if (done != (size_t)st.st_size || memchr(*text, '\0', done) != NULL) {
		free(*text);
		*text = NULL;
		return error_set(err, EXIT_DATA, path, _("cannot read it whole"));
	}
	return 0;
}

/* The verifier keys of --key files (or --trusted-key). */
static int
load_verifiers(const char *const *paths, int count, struct note_verifier *out,
    struct error *err)
{
	char *text;
	size_t len;
	int i, rc;

	for (i = 0; i < count; i++) {
		if ((rc = read_small(paths[i], KEY_FILE_MAX, &text, &len, NULL,
		    err)) != 0)
			return rc;
		rc = note_verifier_parse(text, &out[i], err);
		free(text);
		if (rc != 0) {
			snprintf(err->field, sizeof err->field, "%s", paths[i]);
			return EXIT_DATA;
		}
	}
	return 0;
}

/* Writes text to a new file of that mode; it must not exist yet. */
static int
write_new(const char *path, const char *text, mode_t mode, struct error *err)
{
	size_t len = strlen(text);
	int fd, rc = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, mode)) < 0)
		return error_set(err, EXIT_STORAGE, path, _("cannot create: %s"),
		    strerror(errno));
	if (fchmod(fd, mode) != 0 || write(fd, text, len) != (ssize_t)len ||
	    fsync(fd) != 0)
		rc = error_set(err, EXIT_STORAGE, path, _("cannot write: %s"),
		    strerror(errno));
	if (close(fd) != 0 && rc == 0)
		rc = error_set(err, EXIT_STORAGE, path, _("cannot write: %s"),
		    strerror(errno));
	if (rc != 0)
		unlink(path);
	return rc;
}

int
cmd_keygen(const struct invocation *inv)
{
	struct error err;
	char *skey = NULL, *vkey = NULL, *path = NULL, *line = NULL;
	int rc;

	error_clear(&err);
	if (inv->operand_count != 2) {
		/* L10N: keep the command line: it is typed */
		fprintf(stderr, _("Usage: countersign keygen NAME PREFIX\n"));
		return EXIT_USAGE;
	}
	if ((rc = note_keygen(inv->operands[0], &skey, &vkey, &err)) != 0)
		goto cleanup;
	line = xasprintf("%s\n", skey);
	path = xasprintf("%s.key", inv->operands[1]);
	if ((rc = write_new(path, line, 0600, &err)) != 0)
		goto cleanup;
	free(line);
	free(path);
	line = xasprintf("%s\n", vkey);
	path = xasprintf("%s.pub", inv->operands[1]);
	if ((rc = write_new(path, line, 0644, &err)) != 0) {
		char *key = xasprintf("%s.key", inv->operands[1]);

		unlink(key);
		free(key);
		goto cleanup;
	}
	printf("%s\n", vkey);
cleanup:
	if (rc != 0)
		report_error(&err);
	if (skey != NULL)
		memset(skey, 0, strlen(skey));
	if (line != NULL)
		memset(line, 0, strlen(line));
	free(skey);
	free(vkey);
	free(line);
	free(path);
	return rc;
}

static const char *
record_string(const cJSON *record, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(record, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* verify-receipt's failures: exit 1 naming the step, on stderr. */
static int
receipt_fails(const char *step, const char *why)
{
	char *safe = xsanitize(why);

	/* L10N: %1$s is the step that failed (untranslated: checkpoint,
	   signature, inclusion, record, action, sha256, decision), %2$s why */
	fprintf(stderr, _("countersign: receipt NOT verified: %s: %s\n"),
	    step, safe);
	free(safe);
	return EXIT_REFUSED;
}

int
cmd_verify_receipt(const struct invocation *inv)
{
	struct note_verifier keys[16];
	const struct note_verifier *by;
	struct tlog_proof proof;
	struct checkpoint c;
	struct json_writer w;
	struct error err;
	merkle_hash leaf;
	cJSON *record = NULL;
	const cJSON *op;
	char *text = NULL, *out;
	size_t len, text_len;
	int rc;

	error_clear(&err);
	memset(&proof, 0, sizeof proof);
	if (inv->operand_count != 1 || inv->key_count == 0 ||
	    (inv->expect_decision != NULL &&
	    strcmp(inv->expect_decision, "approve") != 0 &&
	    strcmp(inv->expect_decision, "reject") != 0)) {
		/* L10N: keep the command line: it is typed */
		fprintf(stderr, _("Usage: countersign verify-receipt FILE "
		    "--key PUBFILE [--key PUBFILE...] [--action ID] "
		    "[--expect-sha256 HEX] [--decision approve|reject]\n"));
		return EXIT_USAGE;
	}
	if ((rc = load_verifiers(inv->keys, inv->key_count, keys, &err)) != 0 ||
	    (rc = read_small(inv->operands[0], RECEIPT_MAX, &text, &len, NULL,
	    &err)) != 0 ||
	    (rc = tlog_proof_parse(text, len, &proof, &err)) != 0) {
		report_error(&err);
		goto cleanup;
	}
	/* The signature over the checkpoint, by a key given (C2SP signed-note). */
	if ((rc = note_open(proof.note, proof.note_len, keys,
	    (size_t)inv->key_count, &text_len, &by, &err)) != 0) {
		rc = rc == EXIT_DATA ? (report_error(&err), EXIT_DATA) :
		    receipt_fails("signature", err.message);
		goto cleanup;
	}
	if ((rc = checkpoint_parse(proof.note, text_len, &c, &err)) != 0) {
		report_error(&err);
		goto cleanup;
	}
	/* A key of another log cannot vouch for this one (SPEC 13). */
	if (strcmp(c.origin, by->name) != 0) {
		rc = receipt_fails("checkpoint", "the checkpoint is of another "
		    "log than the key that signed it");
		goto cleanup;
	}
	if (proof.extra == NULL) {
		rc = receipt_fails("record", "the receipt has no extra line");
		goto cleanup;
	}
	if (merkle_leaf_hash(proof.extra, proof.extra_len, leaf) != 0 ||
	    !merkle_verify_inclusion(proof.index, c.size, leaf,
	    (const merkle_hash *)proof.proof, proof.count, c.root)) {
		rc = receipt_fails("inclusion", "the proof does not bind the "
		    "record to the checkpoint's root");
		goto cleanup;
	}
	record = cJSON_ParseWithLength((const char *)proof.extra,
	    proof.extra_len);
	if (!cJSON_IsObject(record) || record_string(record, "event") == NULL ||
	    strcmp(record_string(record, "event"), "decision") != 0 ||
	    record_string(record, "action_id") == NULL ||
	    record_string(record, "decision") == NULL) {
		rc = receipt_fails("record", "extra is not a decision record");
		goto cleanup;
	}
	if (inv->expect_action != NULL &&
	    strcmp(inv->expect_action, record_string(record, "action_id")) != 0) {
		rc = receipt_fails("action", "the record is of another action");
		goto cleanup;
	}
	if (inv->expect_sha256 != NULL &&
	    (record_string(record, "packet_sha256") == NULL ||
	    strcasecmp(inv->expect_sha256, record_string(record,
	    "packet_sha256")) != 0)) {
		rc = receipt_fails("sha256", "the record's packet_sha256 is "
		    "not the one expected");
		goto cleanup;
	}
	if (inv->expect_decision != NULL && strcmp(inv->expect_decision,
	    record_string(record, "decision")) != 0) {
		rc = receipt_fails("decision", "the record's decision is not "
		    "the one expected");
		goto cleanup;
	}
	op = cJSON_GetObjectItemCaseSensitive(record, "operator");
	json_writer_init(&w);
	json_writer_object(&w);
	json_writer_key(&w, "action_id");
	json_writer_string(&w, record_string(record, "action_id"));
	json_writer_key(&w, "decision");
	json_writer_string(&w, record_string(record, "decision"));
	json_writer_key(&w, "operator");
	json_writer_string(&w, record_string(op, "login"));
	json_writer_key(&w, "decided_at");
	json_writer_string(&w, record_string(record, "decided_at"));
	json_writer_key(&w, "packet_sha256");
	json_writer_string(&w, record_string(record, "packet_sha256"));
	json_writer_key(&w, "decision_id");
	json_writer_string(&w, record_string(record, "decision_id"));
	json_writer_end(&w, '}');
	if ((out = json_writer_finish(&w)) == NULL) {
		fprintf(stderr, "countersign: out of memory\n");
		rc = EXIT_STORAGE;
		goto cleanup;
	}
	printf("%s\n", out);
	free(out);
	rc = stdout_finish(&err);
	if (rc != 0)
		report_error(&err);
cleanup:
	cJSON_Delete(record);
	tlog_proof_free(&proof);
	free(text);
	return rc;
}

int
log_receipt_text(struct store *store, const char *action_id, char **text,
    struct error *err)
{
	struct decision_row row;
	bool found;
	int rc;

	*text = NULL;
	if ((rc = store_decision_get(store, action_id, &row, &found, err)) != 0)
		return rc;
	if (!found)
		return error_set(err, EXIT_REFUSED, "not_decided",
		    _("action %s is not decided yet"), action_id);
	if ((rc = store_log_receipt(store, row.audit_seq, text, err)) != 0 &&
	    rc == EXIT_REFUSED)
		snprintf(err->field, sizeof err->field, "no_signing_key");
	return rc;
}

int
log_checkpoint_text(struct store *store, long long size, char **text,
    struct error *err)
{
	long long got;
	int rc;

	if ((rc = store_log_checkpoint(store, size, text, &got, err)) != 0)
		return rc;
	if (*text == NULL)
		return error_set(err, EXIT_REFUSED, "no_signing_key",
		    size > 0 ? _("no signed checkpoint of tree size %lld is "
		    "stored") : _("no signed checkpoint is stored"), size);
	return 0;
}

/*
 * Stored text printed as it is (a receipt must keep every byte) only when
 * it holds no control character but the newline: a note cannot, so one
 * that does was written by someone else, and is not shown.
 */
static int
printable_note(const char *text, struct error *err)
{
	const unsigned char *p;

	for (p = (const unsigned char *)text; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			return error_set(err, EXIT_STORAGE, NULL,
			    _("the stored checkpoint is not a signed note; run "
			    "countersign audit verify"));
	return 0;
}

/* A signed note where the officer asked for it (cmd_log.h). */
int
note_output(const char *text, const struct invocation *inv,
    struct error *err)
{
	int rc;

	if ((rc = printable_note(text, err)) != 0)
		return rc;
	if (inv->output != NULL)
		return write_new(inv->output, text, 0644, err);
	/* Base64 and the log's name, which holds no control character. */
	fputs(text, stdout);
	return stdout_finish(err);
}

int
cmd_receipt(const struct invocation *inv)
{
	struct store *store = NULL;
	struct error err;
	char *action_id = NULL, *text = NULL;
	int rc;

	error_clear(&err);
	if (inv->operand_count != 1) {
		/* L10N: keep the command line: it is typed */
		fprintf(stderr, _("Usage: countersign receipt ACTION_ID "
		    "[-o FILE]\n"));
		return EXIT_USAGE;
	}
	if ((rc = open_store(inv, STORE_EXISTING, &store, &err)) != 0 ||
	    (rc = store_resolve_action_id(store, inv->operands[0], &action_id,
	    &err)) != 0 ||
	    (rc = log_receipt_text(store, action_id, &text, &err)) != 0)
		goto cleanup;
	rc = note_output(text, inv, &err);
cleanup:
	if (rc != 0)
		report_error(&err);
	free(text);
	free(action_id);
	store_close(store);
	return rc;
}

int
audit_checkpoint(struct store *store, const struct invocation *inv)
{
	struct error err;
	char *text = NULL;
	int rc;

	error_clear(&err);
	if ((rc = log_checkpoint_text(store, inv->size, &text, &err)) != 0 ||
	    (rc = printable_note(text, &err)) != 0) {
		report_error(&err);
		free(text);
		return rc;
	}
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}

/* "NOT consistent" on stdout, as audit verify says BROKEN. */
static int
inconsistent(const char *why)
{
	/* L10N: %s says why (untranslated) */
	printf(_("checkpoint NOT consistent with the log: %s\n"), why);
	return EXIT_REFUSED;
}

int
audit_consistency(struct store *store, const struct invocation *inv)
{
	struct note_verifier keys[16];
	const struct note_verifier *by;
	merkle_hash proof[MERKLE_MAX_PROOF], root1, root_now, stored_now;
	struct checkpoint c;
	struct error err;
	char name[NOTE_NAME_MAX], *note = NULL, *sep;
	long long size_now;
	size_t len, text_len, count;
	int rc;

	error_clear(&err);
	if ((rc = load_verifiers(inv->keys, inv->key_count, keys, &err)) != 0 ||
	    (rc = read_small(inv->operands[1], RECEIPT_MAX, &note, &len, NULL,
	    &err)) != 0)
		goto report;
	if (inv->key_count > 0) {
		if ((rc = note_open(note, len, keys, (size_t)inv->key_count,
		    &text_len, &by, &err)) != 0) {
			if (rc == EXIT_REFUSED)
				rc = inconsistent(err.message);
			else
				goto report;
			goto cleanup;
		}
	} else {
		/* Unsigned, or signed by keys not given: the text alone. */
		sep = strstr(note, "\n\n");
		text_len = sep != NULL ? (size_t)(sep - note) + 1 : len;
	}
	if ((rc = checkpoint_parse(note, text_len, &c, &err)) != 0)
		goto report;
	if ((rc = store_log_name(store, NULL, name, sizeof name, &err)) != 0)
		goto report;
	if (strcmp(c.origin, name) != 0) {
		rc = inconsistent("the checkpoint is of another log");
		goto cleanup;
	}
	/*
	 * Both roots from the records themselves, the proof from the
	 * stored tree: a record rewritten under the checkpoint fails,
	 * whether or not the tree was rewritten with it.
	 */
	if ((rc = store_log_records_root(store, (long long)c.size, root1,
	    root_now, &size_now, &err)) != 0)
		goto report;
	if ((long long)c.size > size_now) {
		rc = inconsistent("the log is shorter than the checkpoint");
		goto cleanup;
	}
	if (c.size == 0) {
		rc = inconsistent("a checkpoint of the empty tree proves nothing");
		goto cleanup;
	}
	if (memcmp(root1, c.root, MERKLE_HASH_SIZE) != 0) {
		rc = inconsistent("the records the checkpoint covered no "
		    "longer have its root");
		goto cleanup;
	}
	if ((rc = store_log_root(store, size_now, stored_now, &err)) != 0 ||
	    (rc = store_log_consistency(store, (long long)c.size, size_now,
	    proof, &count, &err)) != 0)
		goto report;
	if (memcmp(stored_now, root_now, MERKLE_HASH_SIZE) != 0 ||
	    !merkle_verify_consistency(c.size, (uint64_t)size_now, c.root,
	    root_now, (const merkle_hash *)proof, count)) {
		rc = inconsistent("the consistency proof fails");
		goto cleanup;
	}
	/* L10N: %1$lld and %2$lld are tree sizes */
	printf(_("checkpoint consistent with the log: tree size %lld extends "
	    "to %lld\n"), (long long)c.size, size_now);
	rc = EXIT_OK;
	goto cleanup;
report:
	report_error(&err);
cleanup:
	free(note);
	return rc;
}

int
audit_verify_log(struct store *store, const struct invocation *inv)
{
	struct note_verifier given[16];
	const struct note_verifier *keys = given;
	struct log_report r;
	struct error err;
	size_t count = (size_t)inv->key_count;
	char *safe;
	int rc;

	error_clear(&err);
	if ((rc = load_verifiers(inv->keys, inv->key_count, given, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	/* Through the service: the keys it signs and trusts. */
	if (count == 0)
		keys = store_log_trusted(&count);
	if ((rc = store_log_verify(store, keys, count, &r, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	if (r.problem[0] != '\0') {
		safe = xsanitize(r.problem);
		printf(_("audit log BROKEN at seq %lld: %s\n"), r.bad_seq, safe);
		free(safe);
		return EXIT_REFUSED;
	}
	if (r.checkpoints == 0)
		/* L10N: the log has no signed checkpoint (SPEC 13) */
		printf(_("signed log: unsigned: no checkpoint is stored\n"));
	else
		/* L10N: %1$lld checkpoints, %2$lld the latest tree size;
		   the last %s says whether its signature was checked */
		printf(_("signed log: %lld checkpoints agree with the tree, the "
		    "latest of tree size %lld, %s\n"), r.checkpoints,
		    r.signed_size, r.signature_checked ?
		    _("its signature verified") :
		    _("its signature not checked (no --key)"));
	/*
	 * SPEC 13: a log kept before it had a key is unsigned up to its
	 * first checkpoint, which signed those records as it found them.
	 */
	if (r.first_size > 1)
		/* L10N: %1$lld and %2$lld are the same tree size */
		printf(_("signed log: unsigned up to its first checkpoint (tree "
		    "size %lld): records 1 to %lld were signed only then, as "
		    "the service found them\n"), r.first_size, r.first_size);
	return EXIT_OK;
}

int
log_serve_setup(const struct invocation *inv, struct error *err)
{
	static struct note_signer signer;
	static struct note_verifier trusted[16];
	struct store *store = NULL;
	struct stat st;
	char *text = NULL, name[NOTE_NAME_MAX];
	const char *wanted;
	size_t len;
	int rc;

	if ((rc = load_verifiers(inv->trusted_keys, inv->trusted_key_count,
	    trusted, err)) != 0)
		return rc;
	if (inv->signing_key == NULL) {
		store_log_keys(NULL, trusted, (size_t)inv->trusted_key_count);
		/* L10N: keep --signing-key: it is typed */
		fprintf(stderr, _("countersign serve: no --signing-key: "
		    "nothing is signed, and receipt and checkpoint answer "
		    "no_signing_key\n"));
		return 0;
	}
	if ((rc = read_small(inv->signing_key, KEY_FILE_MAX, &text, &len, &st,
	    err)) != 0)
		return rc;
	/* The key signs for the log: nobody but its owner may read it. */
	if ((st.st_mode & 077) != 0 || st.st_uid != geteuid()) {
		rc = error_set(err, EXIT_USAGE, inv->signing_key,
		    _("a signing key must be a file of this account that "
		    "nobody else may read or write (chmod 600)"));
		goto cleanup;
	}
	if ((rc = note_signer_parse(text, &signer, err)) != 0) {
		snprintf(err->field, sizeof err->field, "%s", inv->signing_key);
		goto cleanup;
	}
	wanted = inv->log_name != NULL ? inv->log_name : signer.name;
	if (strcmp(wanted, signer.name) != 0) {
		rc = error_set(err, EXIT_USAGE, "--log-name",
		    _("the signing key's name %s is not the log's name %s"),
		    signer.name, wanted);
		goto cleanup;
	}
	if ((rc = open_store(inv, STORE_CREATE, &store, err)) != 0 ||
	    (rc = store_log_name(store, wanted, name, sizeof name, err)) != 0)
		goto cleanup;
	store_log_keys(&signer, trusted, (size_t)inv->trusted_key_count);
	/* L10N: %s is the log's name */
	fprintf(stderr, _("countersign serve: signing checkpoints of the log "
	    "%s\n"), name);
cleanup:
	if (text != NULL)
		memset(text, 0, len);
	free(text);
	store_close(store);
	return rc;
}
