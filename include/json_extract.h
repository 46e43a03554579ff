/*
 * Model output often wraps its JSON in prose or a fenced code block
 * (SPEC 2.2): find the first complete JSON object in such text.
 */
#ifndef COUNTERSIGN_JSON_EXTRACT_H
#define COUNTERSIGN_JSON_EXTRACT_H

#include <stddef.h>
#include <cjson/cJSON.h>

/*
 * The first complete JSON object in text[0..len), parsed strictly
 * (json_strict.h), or NULL when there is none.  Braces inside JSON strings
 * do not count; a '{' that does not start a complete, valid object is
 * skipped and the search goes on after it.
 */
cJSON *json_first_object(const char *text, size_t len);

#endif
