/*
 * The log anyone can check (SPEC 13), in the store: the RFC 6962 tree
 * kept beside the audit log and extended in the same transaction, the
 * log's name, and the signed checkpoints, one per commit that appends.
 */
#ifndef COUNTERSIGN_STORE_LOG_H
#define COUNTERSIGN_STORE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"
#include "merkle.h"
#include "note.h"

struct store;

/*
 * The key this process signs every commit's checkpoint with (NULL: it
 * signs nothing) and the keys of the other services of the log whose
 * checkpoints it extends; both stay the caller's, for the process.
 */
void store_log_keys(const struct note_signer *signer,
    const struct note_verifier *trusted, size_t count);
/* Whether store_log_keys() gave a signing key. */
bool store_log_signing(void);
/* The keys this process trusts: its own verifier first, then the others. */
const struct note_verifier *store_log_trusted(size_t *count);
/*
 * The log's name (SPEC 13: set once).  wanted NULL reads it ("" when
 * none is stored); else it is stored when none is, and a different one
 * stored is EXIT_STORAGE.
 */
int store_log_name(struct store *, const char *wanted, char *name,
    size_t size, struct error *);

/*
 * The last line of the checkpoint file open at fd, file_size bytes long:
 * read from its last size - 1 bytes into buf, without its '\n'.  NULL when
 * the file does not end in one.
 */
char *store_file_last_line(int fd, off_t file_size, char *buf, size_t size);

/*
 * A stored checkpoint: the latest (size 0) or the one of that tree size;
 * *note malloc'd, NULL when there is none.
 */
int store_log_checkpoint(struct store *, long long size, char **note,
    long long *got_size, struct error *);
/*
 * The receipt (C2SP tlog-proof) of the record at seq against the latest
 * checkpoint: EXIT_REFUSED when no checkpoint covers it yet.
 */
int store_log_receipt(struct store *, long long seq, char **text,
    struct error *);
/* The tree's root of its first size leaves, from the stored nodes. */
int store_log_root(struct store *, long long size, merkle_hash root,
    struct error *);
/* The RFC 6962 consistency proof between two sizes of the stored tree. */
int store_log_consistency(struct store *, long long size1, long long size2,
    merkle_hash proof[MERKLE_MAX_PROOF], size_t *count, struct error *);

/*
 * The roots of the tree of the records themselves (not of the stored
 * nodes): of the first size1 and of all of them, *size_all many.
 */
int store_log_records_root(struct store *, long long size1,
    merkle_hash root1, merkle_hash root_all, long long *size_all,
    struct error *);

/* The signed log's side of audit verify. */
struct log_report {
	long long checkpoints;		/* stored ones */
	long long signed_size;		/* the latest one's tree size */
	long long first_size;		/* the first one's: unsigned up to it */
	bool signature_checked;		/* under a key given or this process's */
	long long bad_seq;		/* the first record in question, or 0 */
	char problem[512];
};
/*
 * Recomputes the tree from the records, checks every stored checkpoint's
 * root against it, the latest one's signature under one of keys, the
 * stored nodes, and that no record lies beyond the latest checkpoint.
 * 0 whether intact or not (report->problem says); an error only when it
 * could not read.
 */
int store_log_verify(struct store *, const struct note_verifier *keys,
    size_t count, struct log_report *, struct error *);

/* ---- Called by the store's own transaction code (store.c, audit.c) ---- */
/* Before appending the record at seq: refuses an unattested log. */
int store_log_before_append(struct store *, long long seq, struct error *);
/* After it: the leaf and the subtrees it completes. */
int store_log_after_append(struct store *, long long seq,
    const char *record_json, struct error *);
/* Before COMMIT: signs and stores the checkpoint of the new size. */
int store_log_commit(struct store *, struct error *);
/*
 * A rollback (whole: of the transaction, else to a savepoint): what this
 * process remembered of the tree may be gone.
 */
void store_log_forget(struct store *, bool whole);
void store_log_free(struct store *);
/*
 * The checkpoint file's line of the head of that size, as the last
 * commit signed it ("seq hash time note", note in base64); NULL if none.
 */
const char *store_log_file_line(const struct store *, long long size);

#endif
