/*
 * Shared by the two halves of the signed log in the store (SPEC 13):
 * store_log.c, which extends, signs and proves, and store_log_verify.c,
 * which audit verify runs.  Not for other files.
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

/* Levels of the tree a right edge holds: any size up to 2^64. */
#define LEVELS 64

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

#endif
