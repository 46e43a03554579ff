/*
 * JSON written straight into one growing buffer, for the lines and records
 * countersign prints by the thousand.  Building a cJSON tree only to print
 * and free it cost more than the rules themselves (bench/README.md).
 *
 * This is the program's one JSON printer: json_print() is a tree written
 * here, and the canonical form that digests are taken over (the CANONICAL
 * JSON section of countersign-packets(5)) is written here too, never by
 * cJSON, so no digest depends on the cJSON installed.  For display and
 * records, json_escape_controls() goes on top of the canonical escapes.
 * Memory failures are remembered; json_writer_finish() then returns NULL.
 */
#ifndef COUNTERSIGN_JSON_WRITER_H
#define COUNTERSIGN_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/*
 * Versions of the canonical form.  A decision record names the one its
 * digests were taken in ("format"); a record without it is format 1.
 * Only numbers differ: format 1 printed them as cJSON 1.7.15 did.
 */
#define JSON_FORMAT_LEGACY 1
#define JSON_FORMAT_CURRENT 2

/* Containers nest no deeper than this; deeper ones mark the writer failed. */
#define JSON_WRITER_DEPTH 16

struct json_writer {
	char *text;
	size_t length;
	size_t size;
	bool failed;
	bool after_key;			/* a member's name is written, not its value */
	bool canonical;			/* without json_escape_controls() */
	int format;			/* of the canonical form: JSON_FORMAT_* */
	unsigned depth;
	bool empty[JSON_WRITER_DEPTH];	/* nothing in this container yet */
};

void json_writer_init(struct json_writer *);
/* For the canonical form of that format: json_escape_controls() left out. */
void json_writer_init_canonical(struct json_writer *, int format);
/* The canonical form of JSON_FORMAT_CURRENT (the name is historical). */
void json_writer_init_cjson(struct json_writer *);
void json_writer_object(struct json_writer *);
void json_writer_array(struct json_writer *);
/* Ends the innermost object or array. */
void json_writer_end(struct json_writer *, char closing);
/*
 * A member's name; its value is the next thing written.  The name must
 * be a string literal (the ""s make anything else a compile error) of
 * plain ASCII: no '"', '\\', control byte or DEL.  Every name countersign
 * writes is its own, so it is copied as it is, without the scan that a
 * string from a packet needs; tests/fuzz/fuzz_check and the unit tests
 * hold the lines to json_print()'s bytes all the same.
 */
#define json_writer_key(w, name) \
	json_writer_name((w), "" name "", sizeof("" name "") - 1)
void json_writer_name(struct json_writer *, const char *name, size_t length);
/* A string value; NULL writes null. */
void json_writer_string(struct json_writer *, const char *);
void json_writer_bool(struct json_writer *, bool);
void json_writer_null(struct json_writer *);
void json_writer_integer(struct json_writer *, long long);
/*
 * A whole tree, members in their order; NULL writes null.  Raw items and
 * nesting deeper than cJSON parses mark the writer failed.
 */
void json_writer_tree(struct json_writer *, const cJSON *);
/*
 * Text that is already one JSON value as json_print() gives it (the
 * caller vouches for it).
 */
void json_writer_raw(struct json_writer *, const char *, size_t);
/*
 * One JSON value from input, which json_parse_strict() has accepted (the
 * caller vouches for it), as it was written: a parse would turn its
 * numbers into doubles, and 2^53 + 1, 1E2 or 1.0 would come back changed.
 * Only white space between tokens is dropped, and DEL, C1 and format
 * controls in strings are escaped as json_print() escapes them (not for
 * a canonical writer); numbers, literals and every
 * other byte of a string are kept.
 */
void json_writer_verbatim(struct json_writer *, const char *, size_t);
/* The canonical text of a tree (malloc'd), NULL for none or no memory. */
char *json_canonical(const cJSON *, int format);
/*
 * A message of the service's protocol (countersign-protocol(7)), its
 * line without the newline (malloc'd), NULL for none or no memory.  The
 * canonical form: its escapes are cJSON's, so a message is as long as
 * cJSON printed it and the 1 MiB limit on it means what it did; display
 * escapes are the client's, where the text reaches a screen.
 */
char *json_message(const cJSON *);
/* The text, the caller's to free; NULL if anything failed. */
char *json_writer_finish(struct json_writer *);
/* Frees what was written, for a path that gives up. */
void json_writer_discard(struct json_writer *);
/*
 * The text written so far (not NUL-terminated) and its length; NULL if
 * anything failed or a container is open.  The writer keeps it.
 */
const char *json_writer_text(const struct json_writer *, size_t *length);
/*
 * Starts the writer afresh with its buffer kept: a line each of many
 * without an allocation each.  A failure is forgotten with the text.
 */
void json_writer_reset(struct json_writer *);

#endif
