/*
 * audit verify's part of the signed log (SPEC 13): the tree recomputed
 * from the records, every stored checkpoint and every note of the
 * checkpoint file held to it, in one snapshot of the store.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit_codes.h"
#include "store.h"
#include "store_internal.h"
#include "store_log.h"
#include "store_log_internal.h"

/* One stored checkpoint, as audit verify reads them all. */
struct stored_checkpoint {
	long long size;
	struct checkpoint c;
	char *note;
};

/* A note of the checkpoint file, by its line. */
struct file_note {
	long long size;
	merkle_hash root;
	long line;
};

/* The tree of the records as they are, which both walks build. */
struct records_tree {
	merkle_hash frontier[LEVELS];
	uint64_t size;
};

/* The record at seq, appended as the tree's next leaf. */
static int
records_tree_add(struct records_tree *t, long long seq,
    const char *record_json, struct error *err)
{
	merkle_hash leaf;

	if (merkle_leaf_hash(record_json, strlen(record_json), leaf) != 0 ||
	    log_frontier_append(t->frontier, t->size, leaf, NULL, err) != 0)
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot compute SHA-256");
	t->size = (uint64_t)seq;
	return 0;
}

/* The tree's root as it is now. */
static int
records_tree_root(const struct records_tree *t, merkle_hash root,
    struct error *err)
{
	if (log_frontier_root(t->frontier, t->size, root) != 0)
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot compute SHA-256");
	return 0;
}

struct tree_walk {
	struct records_tree tree;
	struct stored_checkpoint *cps;
	size_t ncps, next;
	struct file_note *fns;
	size_t nfns, fnext;
	struct log_report *r;
	struct error *err;
};

/* Each record: its leaf appended, and any checkpoint of this size compared. */
static int
tree_walk_record(void *ctx, long long seq, const char *record_json,
    const char *prev_hash, const char *hash)
{
	struct tree_walk *w = ctx;
	merkle_hash root;
	int rc;

	(void)prev_hash;
	(void)hash;
	if ((rc = records_tree_add(&w->tree, seq, record_json, w->err)) != 0)
		return rc;
	/* Only a size some checkpoint names needs the root. */
	if (((w->next < w->ncps && w->cps[w->next].size == seq) ||
	    (w->fnext < w->nfns && w->fns[w->fnext].size == seq)) &&
	    (rc = records_tree_root(&w->tree, root, w->err)) != 0)
		return rc;
	while (w->next < w->ncps && w->cps[w->next].size == seq) {
		if (memcmp(root, w->cps[w->next].c.root, MERKLE_HASH_SIZE) != 0 &&
		    w->r->bad_seq == 0) {
			w->r->bad_seq = seq;
			snprintf(w->r->problem, sizeof w->r->problem,
			    "the first %lld records no longer have the root "
			    "their signed checkpoint gave: a record it covered "
			    "was rewritten", seq);
		}
		w->next++;
	}
	while (w->fnext < w->nfns && w->fns[w->fnext].size == seq) {
		if (memcmp(root, w->fns[w->fnext].root, MERKLE_HASH_SIZE) != 0 &&
		    w->r->bad_seq == 0) {
			w->r->bad_seq = seq;
			snprintf(w->r->problem, sizeof w->r->problem, "line %ld "
			    "of the checkpoint file: the first %lld records no "
			    "longer have the root its checkpoint gave",
			    w->fns[w->fnext].line, seq);
		}
		w->fnext++;
	}
	return 0;
}

static int
file_note_order(const void *a, const void *b)
{
	const struct file_note *x = a, *y = b;

	return x->size < y->size ? -1 : x->size > y->size ? 1 :
	    (x->line > y->line) - (x->line < y->line);
}

/* The checkpoint file as it is now (SPEC 13), whole; missing says so. */
struct file_text {
	char *text;
	size_t len;
	bool missing;
};

static int
file_text_read(struct file_text *f, struct error *err)
{
	const char *path = store_checkpoint_file_path();
	struct stat st;
	size_t cap;
	ssize_t n;
	int fd;

	memset(f, 0, sizeof *f);
	if (path == NULL)
		return 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0 ||
	    fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		f->missing = true;
		return 0;
	}
	cap = (size_t)st.st_size;
	if ((f->text = malloc(cap + 1)) == NULL) {
		close(fd);
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	while (f->len < cap && (n = read(fd, f->text + f->len, cap -
	    f->len)) > 0)
		f->len += (size_t)n;
	close(fd);
	f->text[f->len] = '\0';
	return 0;
}

/*
 * Every line of the checkpoint file (SPEC 13), read before the snapshot
 * of the store, so that each line's head was committed before it: its
 * head on the chain, its note kept for the walk; the file neither missing
 * nor shorter than the log left it.  A problem goes to the report.
 */
static int
read_checkpoint_file(struct store *s, struct tree_walk *w,
    const struct file_text *f, long long records, struct error *err)
{
	struct log_report *r = w->r;
	struct file_line fl;
	long long expected;
	const char *text = f->text, *line, *eol;
	size_t done = f->len;
	long number = 0;
	bool yes;
	int rc;

	if (store_checkpoint_file_path() == NULL)
		return 0;
	if ((rc = log_file_size_expected(s, &expected, err)) != 0)
		return rc;
	if (f->missing) {
		if (expected > 0) {
			r->bad_seq = records > 0 ? records : 1;
			snprintf(r->problem, sizeof r->problem, "the checkpoint "
			    "file is missing, but the log wrote %lld bytes to it",
			    expected);
		}
		return 0;
	}
	if ((long long)done < expected) {
		r->bad_seq = records > 0 ? records : 1;
		snprintf(r->problem, sizeof r->problem, "the checkpoint file "
		    "is shorter than the log left it (%zu bytes, not %lld)",
		    done, expected);
		return 0;
	}
	for (line = text; line < text + done; line = eol + 1) {
		number++;
		if ((eol = memchr(line, '\n', (size_t)(text + done - line))) ==
		    NULL || !log_file_line_parse(line, (size_t)(eol - line), &fl)) {
			r->bad_seq = records > 0 ? records : 1;
			snprintf(r->problem, sizeof r->problem, "line %ld of the "
			    "checkpoint file is not \"seq hash time [note]\"",
			    number);
			goto cleanup;
		}
		if ((rc = log_on_chain(s, fl.seq, fl.hash, &yes, err)) != 0)
			goto cleanup;
		if (!yes) {
			r->bad_seq = fl.seq;
			snprintf(r->problem, sizeof r->problem, "line %ld of the "
			    "checkpoint file: head seq %lld is no longer on the "
			    "chain", number, fl.seq);
			goto cleanup;
		}
		if (!fl.has_note)
			continue;
		if (w->nfns % 256 == 0) {
			struct file_note *grown = realloc(w->fns, (w->nfns +
			    256) * sizeof *grown);

			if (grown == NULL) {
				rc = error_set(err, EXIT_STORAGE, NULL,
				    "out of memory");
				goto cleanup;
			}
			w->fns = grown;
		}
		w->fns[w->nfns].size = fl.seq;
		memcpy(w->fns[w->nfns].root, fl.c.root, MERKLE_HASH_SIZE);
		w->fns[w->nfns].line = number;
		w->nfns++;
	}
	/* An empty file leaves fns NULL, which qsort may not be given. */
	if (w->nfns > 1)
		qsort(w->fns, w->nfns, sizeof *w->fns, file_note_order);
cleanup:
	return rc;
}

int
store_log_verify(struct store *s, const struct note_verifier *keys,
    size_t count, struct log_report *r, struct error *err)
{
	struct tree_walk w;
	struct file_text file;
	struct stored_checkpoint *cp;
	merkle_hash root, stored;
	char name[NOTE_NAME_MAX];
	db_stmt *stmt = NULL;
	size_t i, cap = 0, text_len;
	long long leaves, records;
	struct audit_head head;
	int rc;

	memset(r, 0, sizeof *r);
	memset(&w, 0, sizeof w);
	w.r = r;
	w.err = err;
	if ((rc = file_text_read(&file, err)) != 0)
		return rc;
	/*
	 * One snapshot: the records, the tree and the checkpoints of the
	 * same commits, whatever a service appends meanwhile.
	 */
	if (db_begin_read(s->db) != DB_OK) {
		rc = store_error(s, err, "starting to read");
		free(file.text);
		return rc;
	}
	if ((rc = store_log_name(s, NULL, name, sizeof name, err)) != 0 ||
	    (rc = store_audit_head(s, &head, err)) != 0)
		goto cleanup;
	records = head.seq;
	if (db_prepare(s->db, "SELECT size, note FROM log_checkpoint"
	    " ORDER BY size", DB_READS, &stmt) != DB_OK) {
		rc = store_error(s, err, "reading the checkpoints");
		goto cleanup;
	}
	while ((rc = db_step(stmt)) == DB_ROW) {
		if (w.ncps == cap) {
			cap = cap ? 2 * cap : 64;
			cp = realloc(w.cps, cap * sizeof *cp);
			if (cp == NULL) {
				rc = DB_NOMEM;
				break;
			}
			w.cps = cp;
		}
		cp = &w.cps[w.ncps];
		cp->size = db_column_int64(stmt, 0);
		cp->note = strdup((const char *)db_column_text(stmt, 1));
		if (cp->note == NULL) {
			rc = DB_NOMEM;
			break;
		}
		w.ncps++;
	}
	db_finalize(stmt);
	if (rc != DB_DONE) {
		rc = store_error(s, err, "reading the checkpoints");
		goto cleanup;
	}
	rc = 0;
	r->checkpoints = (long long)w.ncps;
	/* Every stored note must be a checkpoint of this log of its size. */
	for (i = 0; i < w.ncps && r->problem[0] == '\0'; i++) {
		struct error why;

		if (checkpoint_parse(w.cps[i].note,
		    log_note_text_length(w.cps[i].note), &w.cps[i].c, &why) != 0 ||
		    (long long)w.cps[i].c.size != w.cps[i].size ||
		    strcmp(w.cps[i].c.origin, name) != 0) {
			r->bad_seq = w.cps[i].size > 0 ? w.cps[i].size : 1;
			snprintf(r->problem, sizeof r->problem, "the stored "
			    "checkpoint of size %lld is not a checkpoint of "
			    "this log of that size", w.cps[i].size);
		}
	}
	if (r->problem[0] != '\0')
		goto cleanup;
	if (w.ncps > 0) {
		const struct note_verifier *by;
		struct error why;

		cp = &w.cps[w.ncps - 1];
		r->signed_size = cp->size;
		r->first_size = w.cps[0].size;
		if (count > 0) {
			r->signature_checked = true;
			error_clear(&why);
			if (note_open(cp->note, strlen(cp->note), keys, count,
			    &text_len, &by, &why) != 0) {
				r->bad_seq = cp->size;
				snprintf(r->problem, sizeof r->problem, "the "
				    "latest checkpoint (size %lld) is not signed"
				    " by a key given: %.400s", cp->size, why.message);
				goto cleanup;
			}
		}
	}
	if ((rc = read_checkpoint_file(s, &w, &file, records, err)) != 0 ||
	    r->problem[0] != '\0')
		goto cleanup;
	if ((rc = store_audit_each(s, tree_walk_record, &w, err)) != 0)
		goto cleanup;
	if (r->problem[0] != '\0')
		goto cleanup;
	if (w.next < w.ncps) {
		r->bad_seq = (long long)w.tree.size + 1;
		snprintf(r->problem, sizeof r->problem, "a checkpoint signed a "
		    "tree of %lld records, but the log has %lld: records were "
		    "removed", w.cps[w.ncps - 1].size, (long long)w.tree.size);
		goto cleanup;
	}
	if (w.ncps > 0 && (long long)w.tree.size > r->signed_size) {
		r->bad_seq = r->signed_size + 1;
		snprintf(r->problem, sizeof r->problem, "audit record %lld lies "
		    "beyond the latest signed checkpoint (size %lld): no service "
		    "holding a key wrote it", r->signed_size + 1,
		    r->signed_size);
		goto cleanup;
	}
	/*
	 * The stored nodes answer the receipts: they must be this tree's.
	 * A log kept before it had a tree gets one at its next append.
	 */
	if ((rc = log_stored_leaves(s, &leaves, err)) != 0)
		goto cleanup;
	if (leaves > (long long)w.tree.size) {
		r->bad_seq = (long long)w.tree.size + 1;
		snprintf(r->problem, sizeof r->problem, "the stored tree has "
		    "%lld leaves, the log %lld records: records were removed",
		    leaves, (long long)w.tree.size);
	} else if (leaves == (long long)w.tree.size && w.tree.size > 0) {
		if ((rc = store_log_root(s, (long long)w.tree.size, stored,
		    err)) != 0)
			goto cleanup;
		if ((rc = records_tree_root(&w.tree, root, err)) != 0)
			goto cleanup;
		if (memcmp(root, stored, MERKLE_HASH_SIZE) != 0) {
			r->bad_seq = (long long)w.tree.size;
			snprintf(r->problem, sizeof r->problem, "the stored "
			    "tree does not match the records");
		}
	}
cleanup:
	db_commit(s->db);
	for (i = 0; i < w.ncps; i++)
		free(w.cps[i].note);
	free(w.cps);
	free(w.fns);
	free(file.text);
	return rc;
}

/* The tree of the records, and its root when it reaches size1. */
struct root_walk {
	struct records_tree tree;
	uint64_t size1;
	unsigned char *root1;
	struct error *err;
};

static int
root_walk_record(void *ctx, long long seq, const char *record_json,
    const char *prev_hash, const char *hash)
{
	struct root_walk *w = ctx;
	int rc;

	(void)prev_hash;
	(void)hash;
	if ((rc = records_tree_add(&w->tree, seq, record_json, w->err)) != 0)
		return rc;
	return w->tree.size == w->size1 ? records_tree_root(&w->tree,
	    w->root1, w->err) : 0;
}

int
store_log_records_root(struct store *s, long long size1, merkle_hash root1,
    merkle_hash root_all, long long *size_all, struct error *err)
{
	struct root_walk w;
	int rc;

	memset(&w, 0, sizeof w);
	memset(root1, 0, MERKLE_HASH_SIZE);
	w.size1 = (uint64_t)size1;
	w.root1 = root1;
	w.err = err;
	if ((rc = store_audit_each(s, root_walk_record, &w, err)) != 0)
		return rc;
	*size_all = (long long)w.tree.size;
	return records_tree_root(&w.tree, root_all, err);
}
