/*
 * Shared by the parts of the signed log in the store (SPEC 13):
 * store_log.c, which extends, signs and proves, store_log_file.c, the
 * checkpoint file, and store_log_verify.c, which audit verify runs.  Not
 * for other files.
 */
#ifndef COUNTERSIGN_STORE_LOG_INTERNAL_H
#define COUNTERSIGN_STORE_LOG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "merkle.h"
#include "note.h"
#include "sha256.h"
#include "store.h"
#include "store_internal.h"

/* Levels of the tree a right edge holds: any size up to 2^64. */
#define LEVELS 64

/* The statements of the tree, prepared once per store (store_log.c). */
enum log_sql {
	LOG_NODE_GET,
	LOG_NODE_PUT,
	LOG_CHECKPOINT_LATEST,
	LOG_CHECKPOINT_SIZE,
	LOG_CHECKPOINT_PUT,
	LOG_CHECKPOINT_DESC,
	LOG_NAME_GET,
	LOG_NAME_PUT,
	LOG_RECORD_GET,
	LOG_LEAVES,
	LOG_RECORDS_AFTER,
	LOG_HASH_AT,
	LOG_FILE_SIZE,
	LOG_SQL_COUNT
};

/*
 * What one store remembers of its tree: the right edge of the tree at
 * frontier_size (the complete subtree of each set bit of the size), so
 * that an append reads nothing; valid only for that size, forgotten at
 * any rollback.
 */
struct log_state {
	db_stmt *stmts[LOG_SQL_COUNT];
	long long frontier_size;	/* -1: not known */
	merkle_hash frontier[LEVELS];
	bool appended;			/* in this transaction */
	bool attested;			/* checked in this transaction */
	bool named;			/* name read from the store */
	char name[NOTE_NAME_MAX];
	char *last_note;		/* this process signed it */
	long long last_note_size;
	char *file_line;		/* its checkpoint file line */
};

/* One of the tree's statements, reset; NULL (and err) if it cannot be. */
db_stmt *log_stmt(struct store *, enum log_sql, struct error *);
/*
 * A refusal to extend the log (EXIT_STORAGE): also on stderr and to
 * syslog (SPEC 13), since the service's client is not who must look.
 */
int log_refuse(struct error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One line of the checkpoint file: "seq hash time [note]". */
struct file_line {
	long long seq;
	char hash[SHA256_HEX_SIZE];
	bool has_note;
	struct checkpoint c;
};

/* Appends a leaf at index size of a right edge; put, if given, stores nodes. */
int log_frontier_append(merkle_hash *frontier, uint64_t size,
    const merkle_hash leaf, struct store *put, struct error *);
/* The root of the tree of size leaves from its right edge. */
int log_frontier_root(const merkle_hash *frontier, uint64_t size,
    merkle_hash root);
/* How many leaves the stored tree has. */
int log_stored_leaves(struct store *, long long *leaves, struct error *);
/* Parses one line of the checkpoint file (without its newline). */
bool log_file_line_parse(const char *line, size_t len, struct file_line *);
/* Whether the record at seq still has that hash. */
int log_on_chain(struct store *, long long seq, const char *hash, bool *yes,
    struct error *);
/* The size this service's checkpoint file had at its latest line; -1. */
int log_file_size_expected(struct store *, long long *size, struct error *);
/* The length of a signed note's text, up to its last blank line. */
size_t log_note_text_length(const char *note);
/* The same of a note of length bytes, which need not end in a NUL. */
size_t log_note_text_length_n(const char *note, size_t length);
/*
 * The checkpoint file's line of a signed head (*line the caller's), and
 * the file's size before it is appended (-1 without a checkpoint file).
 */
int log_file_line_make(long long seq, const char *hash, const char *when,
    const char *note, char **line, long long *file_size, struct error *);
/*
 * The checkpoint file checked whole before a head is appended; 0 or
 * EXIT_STORAGE naming what is wrong (store_log_file.c).
 */
int log_file_check(struct store *, struct error *);

#endif
