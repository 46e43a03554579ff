/*
 * Model output often wraps its JSON in prose or a fenced code block
 * (SPEC 2.2): find the first complete JSON object in such text.
 */
#ifndef COUNTERSIGN_JSON_EXTRACT_H
#define COUNTERSIGN_JSON_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/*
 * The first complete JSON object in text[0..len), parsed strictly
 * (json_strict.h), or NULL when there is none.  Braces inside JSON strings
 * do not count; a '{' that does not start a complete, valid object is
 * skipped and the search goes on after it.
 */
cJSON *json_first_object(const char *text, size_t len);

/*
 * Where the value of the top-level member key lies in text[0..len), one
 * JSON object that has passed json_parse_strict() (keys are unique): true
 * with *start and *length, false when the member is absent.  For a value
 * that must be kept as it was written, which a parse into doubles is not.
 */
bool json_member_text(const char *text, size_t len, const char *key,
    size_t *start, size_t *length);

/*
 * Where the value starting at text[at] ends: just past a string or a
 * closing bracket, at the byte after a number or literal; 0 when it does
 * not end.  Only brackets and strings (with their escapes) are followed,
 * forgivingly: on JSON it finds the value's true end, and on anything
 * else it stops somewhere, leaving the strict parse to say what is wrong.
 */
size_t json_value_end(const char *text, size_t len, size_t at);

#endif
