/*
 * Batch mode's request lines (countersign-packets(5) BATCH LINES), read
 * from a descriptor with a cap on a line's length, and a way to ask
 * whether more are ready: group commit shares one commit among the lines
 * already at hand, and must never hold one while it waits for a writer
 * who is waiting for an answer.
 */
#ifndef COUNTERSIGN_BATCH_INPUT_H
#define COUNTERSIGN_BATCH_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

struct batch_input {
	int fd;
	const char *name;		/* for messages: a file or "the standard input" */
	size_t max_line;		/* longer lines come back cut to max_line + 1 */
	char *buf;			/* read ahead: bytes [start, end) */
	size_t start, end, size;
	bool eof;
	char *line;			/* the current line, NUL-terminated */
	size_t line_size;
};

/* Reads in's descriptor from here on; stdio must not have read from it. */
int batch_input_open(struct batch_input *, FILE *in, const char *name,
    size_t max_line, struct error *);
/*
 * The next line, with its newline if it had one: EXIT_OK with *line and
 * *len, or *line NULL at the end.  A line longer than max_line is read to
 * its end but kept only to max_line + 1 bytes, so that a single line can
 * cost no more memory than the limit, however long it is.
 */
int batch_input_next(struct batch_input *, const char **line, size_t *len,
    struct error *);
/* True when the next batch_input_next() will not wait for a writer. */
bool batch_input_ready(struct batch_input *);
void batch_input_close(struct batch_input *);

#endif
