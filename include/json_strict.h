/*
 * Strict JSON: cJSON 1.7.15 accepts things an audit trail must refuse
 * (FIELD-NOTES.md): a \u0000 escape silently truncates a string, duplicate
 * keys keep the first, trailing garbage is ignored, 1e400 becomes infinity
 * and invalid UTF-8 passes through.  json_parse_strict() refuses all of them.
 */
#ifndef COUNTERSIGN_JSON_STRICT_H
#define COUNTERSIGN_JSON_STRICT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "error.h"

/*
 * Parses text[0..len) as exactly one JSON value (surrounding white space
 * allowed).  Refuses, with an EXIT_DATA error: a NUL byte, invalid UTF-8
 * (overlong forms and surrogates included), a \u0000 escape, malformed JSON,
 * anything after the value, an object with two keys equal when case is
 * ignored, a number that is not finite.  err->field names where the problem
 * is when it is known.  *error_offset (may be NULL) receives the byte offset
 * of a syntax error, for line numbers.
 */
cJSON *json_parse_strict(const char *text, size_t len, size_t *error_offset,
    struct error *err);

/*
 * Whether two trees hold the same JSON value, whatever the order of their
 * keys.  Linear in their size: cJSON_Compare() visits every member twice
 * at every level, which costs 2^depth on nested input (found by fuzzing).
 */
bool json_equal(const cJSON *a, const cJSON *b);

/* cJSON_PrintUnformatted() with terminal controls escaped (sanitize.h). */
char *json_print(const cJSON *);

#endif
