/*
 * Strict JSON: cJSON 1.7.15 accepts things an audit trail must refuse
 * (seen with Debian 12's libcjson): a \u0000 escape silently truncates a string, duplicate
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
 * anything after the value, an object with two equal keys (spelt exactly
 * alike: keys differing in case are distinct), a number that is not
 * finite, a negative number that reads as -0 (-1e-400; a written -0 is
 * 0 and passes).  err->field names where the problem is when it is known:
 * for a bad byte, escape or number, the field whose value (or key: the
 * message then ends "(in a key)") holds it.  *error_offset (may be NULL)
 * receives the byte offset of a syntax error, for line numbers.
 */
cJSON *json_parse_strict(const char *text, size_t len, size_t *error_offset,
    struct error *err);
/*
 * The same, always by the full checks, never by json_object_quick(): the
 * reference the tests and the fuzz target hold the quick path to.
 */
cJSON *json_parse_strict_full(const char *text, size_t len,
    size_t *error_offset, struct error *err);

/*
 * Where, in text that json_parse_strict() accepted, the value named by a
 * field path as errors give it ("positions[3].ticker", "a.b") starts: sets
 * *offset and returns true, or false when no value has that path.  Of two
 * values with one path (a duplicate key), the later.  Linear in len; meant
 * for reporting an error's line, never on the way to accepting input.
 */
bool json_locate(const char *text, size_t len, const char *path,
    size_t *offset);

/*
 * Whether two trees hold the same JSON value, whatever the order of their
 * keys.  Linear in their size: cJSON_Compare() visits every member twice
 * at every level, which costs 2^depth on nested input (found by fuzzing).
 */
bool json_equal(const cJSON *a, const cJSON *b);

/*
 * The end of the RFC 8259 number starting at text[i] (i < len), or 0 if
 * it is malformed there; "01" and "1.5.2" are malformed, not two tokens.
 */
size_t json_number_end(const char *text, size_t len, size_t i);

/* A top-level member json_object_quick() is asked to find. */
struct json_wanted {
	const char *key;	/* in: the member's name, case-sensitive */
	const char *value;	/* out: its string value, or NULL */
	size_t length;
};

/*
 * Whether text[0..len) is certainly one JSON object that
 * json_parse_strict() accepts, decided in one pass without allocating.
 * false means only "not certain": ask json_parse_strict(), which decides
 * and says why.  On true, each wanted member that is a string points into
 * text (not NUL-terminated; escaped strings make the answer false), and
 * is NULL when the member is absent or not a string.  On false, every
 * value is NULL.
 */
bool json_object_quick(const char *text, size_t len,
    struct json_wanted *wanted, size_t wanted_count);
/*
 * json_object_quick() without members, and *compact: whether, when true,
 * the text is already compact printable ASCII (no white space between
 * tokens, no byte from DEL up), which json_writer_verbatim() writes as it
 * is.
 */
bool json_object_quick_compact(const char *text, size_t len, bool *compact);

/* A tree as one line, terminal controls escaped (json_writer.h). */
char *json_print(const cJSON *);

#endif
