/*
 * What the import's files share (cmd_import.c reads a file's text into
 * objects, import_object.c stores each object and runs submit,
 * import_walk.c finds and reads the files).
 */
#ifndef COUNTERSIGN_IMPORT_OBJECT_H
#define COUNTERSIGN_IMPORT_OBJECT_H
#include <stdbool.h>
#include <stdio.h>

#include "decision.h"
#include "error.h"
#include "import_results.h"
#include "object.h"
#include "store.h"

struct file_counts {
	size_t added;
	size_t unchanged;
};

/* What one file's import carries from object to object. */
struct import_context {
	struct store *store;
	const char *path;
	long long now_ms;
	struct operator_identity op;
	struct store_importer importer;	/* op, as stored with each action */
	struct audit_head head;		/* after the last policy record */
	long long epoch;		/* the policy epoch now in force */
	struct file_counts counts;
	/* submit (SPEC 12): what the last object was, for its result. */
	struct import_seen *seen;
	bool json;			/* import --json: fill results */
	struct import_results results;	/* import --json */
};

struct import_seen {
	enum object_type type;
	bool loaded;
	char action_id[257];		/* packets; "" otherwise */
	enum store_put_result result;
};

/* SPEC 5 (v3): the importer, trusted as such only through the service. */
void import_context_operator(struct import_context *);
/* Imports one object starting at line; *error_offset locates a bad byte. */
int import_object(struct import_context *, const char *text, size_t len,
    size_t line, size_t *error_offset, struct error *);
/* A file that could not be read: why, on stderr, and its --json line. */
void import_report_unread(FILE *out, const char *path, int rc,
    const struct error *);
#endif
