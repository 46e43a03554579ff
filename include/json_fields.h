/*
 * Typed, case-sensitive access to the fields of an input object.  Each
 * function fills *out and returns 0, or sets an EXIT_DATA error naming the
 * field by its dotted path ("proposed_action.quantity") and returns it.
 * A field that is optional and absent leaves *out untouched and *present
 * (when given) false; JSON null counts as absent for optional fields only.
 */
#ifndef COUNTERSIGN_JSON_FIELDS_H
#define COUNTERSIGN_JSON_FIELDS_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "error.h"

#define ID_MAX_BYTES 256

enum field_need { FIELD_OPTIONAL, FIELD_REQUIRED };

enum number_rule {
	NUMBER_POSITIVE,	/* finite and > 0 (quantities, trade values) */
	NUMBER_NON_NEGATIVE	/* finite and >= 0 (money, percents) */
};

/* The member named key, compared case-sensitively; NULL when absent. */
const cJSON *json_member(const cJSON *object, const char *key);

/* "path.key", or "key" when path is empty, into buf. */
const char *field_path(char *buf, size_t size, const char *path,
    const char *key);

int field_object(const cJSON *object, const char *path, const char *key,
    enum field_need, const cJSON **out, struct error *);
int field_array(const cJSON *object, const char *path, const char *key,
    enum field_need, const cJSON **out, struct error *);
int field_string(const cJSON *object, const char *path, const char *key,
    enum field_need, const char **out, struct error *);
/* A non-empty string of at most ID_MAX_BYTES bytes. */
int field_id(const cJSON *object, const char *path, const char *key,
    enum field_need, const char **out, struct error *);
int field_number(const cJSON *object, const char *path, const char *key,
    enum field_need, enum number_rule, double *out, bool *present,
    struct error *);
/* An integral number in [min, max]. */
int field_integer(const cJSON *object, const char *path, const char *key,
    enum field_need, long long min, long long max, long long *out,
    struct error *);
int field_bool(const cJSON *object, const char *path, const char *key,
    enum field_need, bool *out, bool *present, struct error *);
/* An ISO-8601 UTC timestamp, as milliseconds since the epoch. */
int field_timestamp(const cJSON *object, const char *path, const char *key,
    enum field_need, long long *out_ms, bool *present, struct error *);
/* One of the NULL-terminated choices. */
int field_choice(const cJSON *object, const char *path, const char *key,
    enum field_need, const char *const *choices, const char **out,
    struct error *);
/* An array whose every element is a string (ids when as_ids). */
int field_string_array(const cJSON *object, const char *path,
    const char *key, enum field_need, bool as_ids, const cJSON **out,
    struct error *);

/* Checks one value against a number rule; path names it in the error. */
int number_check(const cJSON *value, const char *path, enum number_rule,
    struct error *);

#endif
