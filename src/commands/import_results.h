/*
 * import --json (issue 37): one JSON line per object read, with its file,
 * line, type, id, status and error, for programs that import.
 */
#ifndef COUNTERSIGN_IMPORT_RESULTS_H
#define COUNTERSIGN_IMPORT_RESULTS_H
#include <stdbool.h>
#include <stdio.h>

#include "error.h"

struct import_result {
	size_t line;
	char *type;		/* NULL when the object could not be read */
	char *id;		/* NULL when it has none or could not be read */
	bool unchanged;		/* already stored as it is */
};

/* The objects of one file, in the order read. */
struct import_results {
	struct import_result *items;
	size_t count, size;
	bool last_failed;	/* the last one is where the file failed */
};

/* Adds an object read at line; EXIT_STORAGE when out of memory. */
int import_results_add(struct import_results *, size_t line,
    const char *type, const char *id, struct error *);
/*
 * Prints the file's lines to out: each object imported or unchanged when
 * rc is 0; otherwise the one that failed refused with err's message at
 * error_line, and the ones before it rolled back with the file.
 */
void import_results_print(const struct import_results *, FILE *out,
    const char *path, int rc, size_t error_line, const struct error *err);
void import_results_free(struct import_results *);
#endif
