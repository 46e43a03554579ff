/*
 * One line of countersign batch (SPEC 8), shared by batch_line.c, which
 * parses, decides and answers it, and cmd_batch.c, which runs the lines.
 * Not for other files.
 */
#ifndef COUNTERSIGN_BATCH_LINE_H
#define COUNTERSIGN_BATCH_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "decision.h"
#include "error.h"
#include "store.h"

#define LINE_MAX_BYTES (1UL << 20)

struct batch_line {
	size_t number;
	struct decision_request request;
	cJSON *json;			/* owns the request's strings */
	char *action_id;		/* for the result, even when malformed */
	char *resolved_id;		/* the whole id a prefix named; owned */
	struct decision_outcome outcome;
	const char *code;		/* bad_request, or the outcome's */
	char message[sizeof ((struct error *)0)->field +
	    sizeof ((struct error *)0)->message + 2];
};

/* Parses one request line strictly; -1 (and a bad_request) when malformed. */
int batch_line_parse(const char *text, size_t len, struct batch_line *);
/* Decides one parsed line; returns an exit_code only on a storage error. */
int batch_line_decide(struct store *, const struct operator_identity *,
    bool atomic, struct batch_line *, struct error *);
/* The line's JSON result line to out (NULL: none); refused unless recorded. */
void batch_line_print(FILE *out, const struct batch_line *, bool recorded);
void batch_line_free(struct batch_line *);

#endif
