/* Typed access to input fields; every refusal names the field's path. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "timestamp.h"

#define PATH_SIZE 256

/* Appends text to buf[0..size), truncating as snprintf would. */
static void
append(char *buf, size_t size, size_t *used, const char *text)
{
	size_t len = strlen(text);

	if (len > size - 1 - *used)
		len = size - 1 - *used;
	memcpy(buf + *used, text, len);
	*used += len;
}

const char *
field_path(char *buf, size_t size, const char *path, const char *key)
{
	size_t used = 0;

	/* Every field read renders its path: no printf here. */
	if (size == 0)
		return buf;
	if (path != NULL && *path != '\0') {
		append(buf, size, &used, path);
		append(buf, size, &used, ".");
	}
	append(buf, size, &used, key);
	buf[used] = '\0';
	return buf;
}

/*
 * cJSON_GetObjectItemCaseSensitive()'s answer, the first member so named,
 * without a strcmp() call per member passed: the rules look members up by
 * name thousands of times a second, and a call per member was a seventh
 * of a check (bench/README.md).  Most names differ in their first byte.
 */
const cJSON *
json_member(const cJSON *object, const char *key)
{
	const cJSON *member;

	/* cJSON_IsObject(), without a call into the library each time. */
	if (object == NULL || (object->type & 0xFF) != cJSON_Object ||
	    key == NULL)
		return NULL;
	for (member = object->child; member != NULL; member = member->next) {
		/* cJSON stops at a nameless member too. */
		if (member->string == NULL)
			return NULL;
		if (member->string[0] == key[0] &&
		    strcmp(member->string, key) == 0)
			return member;
	}
	return NULL;
}

static const char *
type_name(const cJSON *item)
{
	if (cJSON_IsString(item))
		return "a string";
	if (cJSON_IsNumber(item))
		return "a number";
	if (cJSON_IsBool(item))
		return "a boolean";
	if (cJSON_IsNull(item))
		return "null";
	if (cJSON_IsArray(item))
		return "an array";
	if (cJSON_IsObject(item))
		return "an object";
	return "an unknown value";
}

/*
 * Finds the member and settles presence: returns 1 when it is there and
 * must be checked, 0 when an optional one is absent, an error otherwise.
 * The field's path is rendered only to name it in a refusal: a check reads
 * some fifty fields a packet, and rendering every path was a tenth of
 * what reading them cost.
 */
static int
member(const cJSON *object, const char *path, const char *key,
    enum field_need need, const cJSON **item, struct error *err)
{
	char field[PATH_SIZE];

	*item = json_member(object, key);
	if (*item == NULL || (need == FIELD_OPTIONAL && cJSON_IsNull(*item))) {
		if (need == FIELD_REQUIRED)
			return -error_set(err, EXIT_DATA,
			    field_path(field, sizeof field, path, key),
			    "required field is missing");
		return 0;
	}
	return 1;
}

static int
wrong_type(const char *field, const char *wanted, const cJSON *item,
    struct error *err)
{
	return error_set(err, EXIT_DATA, field, "must be %s, not %s", wanted,
	    type_name(item));
}

/* A member of one JSON type, named by its article for the message. */
static int
field_typed(const cJSON *object, const char *path, const char *key,
    enum field_need need, cJSON_bool (*is)(const cJSON *const),
    const char *wanted, const cJSON **out, struct error *err)
{
	char field[PATH_SIZE];
	const cJSON *item;
	int found = member(object, path, key, need, &item, err);

	if (found <= 0)
		return -found;
	if (!is(item))
		return wrong_type(field_path(field, sizeof field, path, key),
		    wanted, item, err);
	*out = item;
	return 0;
}

int
field_object(const cJSON *object, const char *path, const char *key,
    enum field_need need, const cJSON **out, struct error *err)
{
	return field_typed(object, path, key, need, cJSON_IsObject,
	    "an object", out, err);
}

int
field_array(const cJSON *object, const char *path, const char *key,
    enum field_need need, const cJSON **out, struct error *err)
{
	return field_typed(object, path, key, need, cJSON_IsArray, "an array",
	    out, err);
}

int
field_string(const cJSON *object, const char *path, const char *key,
    enum field_need need, const char **out, struct error *err)
{
	const cJSON *item = NULL;
	int rc = field_typed(object, path, key, need, cJSON_IsString,
	    "a string", &item, err);

	if (rc == 0 && item != NULL)
		*out = item->valuestring;
	return rc;
}

/* Whether id_check() would accept value (its refusal names the field). */
static bool
id_ok(const char *value)
{
	size_t len = strlen(value);

	return len != 0 && len <= ID_MAX_BYTES;
}

static int
id_check(const char *value, const char *field, struct error *err)
{
	size_t len = strlen(value);

	if (len == 0)
		return error_set(err, EXIT_DATA, field, "must not be empty");
	if (len > ID_MAX_BYTES)
		return error_set(err, EXIT_DATA, field,
		    "is %zu bytes long; at most %d are allowed", len,
		    ID_MAX_BYTES);
	return 0;
}

int
field_id(const cJSON *object, const char *path, const char *key,
    enum field_need need, const char **out, struct error *err)
{
	char field[PATH_SIZE];
	const char *value = NULL;
	int rc;

	if ((rc = field_string(object, path, key, need, &value, err)) != 0)
		return rc;
	if (value == NULL)
		return 0;
	if (!id_ok(value))
		return id_check(value, field_path(field, sizeof field, path,
		    key), err);
	*out = value;
	return 0;
}

int
number_check(const cJSON *item, const char *field, enum number_rule rule,
    struct error *err)
{
	double v;

	if (!cJSON_IsNumber(item))
		return wrong_type(field, "a number", item, err);
	v = item->valuedouble;
	if (!isfinite(v))
		return error_set(err, EXIT_DATA, field, "must be finite");
	/*
	 * Beyond 2^53 a double no longer holds every integer, so the figure
	 * checked would not be the figure written.
	 */
	if (fabs(v) >= DECIMAL_MAX_INPUT)
		return error_set(err, EXIT_DATA, field,
		    "is too large to be represented exactly");
	if (rule == NUMBER_POSITIVE && !(v > 0))
		return error_set(err, EXIT_DATA, field,
		    "must be greater than 0");
	/* -0 is 0 (SPEC 1: ">= 0"); the rules read it as +0 (rules_trade.c). */
	if (rule == NUMBER_NON_NEGATIVE && v < 0)
		return error_set(err, EXIT_DATA, field,
		    "must be 0 or more");
	return 0;
}

int
field_number(const cJSON *object, const char *path, const char *key,
    enum field_need need, enum number_rule rule, double *out, bool *present,
    struct error *err)
{
	char field[PATH_SIZE];
	struct error unnamed;
	const cJSON *item;
	int found = member(object, path, key, need, &item, err);

	if (present != NULL)
		*present = false;
	if (found <= 0)
		return -found;
	/* Checked once without its name; a refusal is checked again, named. */
	if (number_check(item, "", rule, &unnamed) != 0)
		return number_check(item, field_path(field, sizeof field, path,
		    key), rule, err);
	*out = item->valuedouble;
	if (present != NULL)
		*present = true;
	return 0;
}

int
field_integer(const cJSON *object, const char *path, const char *key,
    enum field_need need, long long min, long long max, long long *out,
    struct error *err)
{
	char field[PATH_SIZE];
	const cJSON *item;
	int found = member(object, path, key, need, &item, err);
	double v;

	if (found <= 0)
		return -found;
	v = cJSON_IsNumber(item) ? item->valuedouble : NAN;
	if (isfinite(v) && v == floor(v) && v >= (double)min &&
	    v <= (double)max) {
		*out = (long long)v;
		return 0;
	}
	field_path(field, sizeof field, path, key);
	if (!cJSON_IsNumber(item))
		return wrong_type(field, "an integer", item, err);
	if (!isfinite(v) || v != floor(v))
		return error_set(err, EXIT_DATA, field, "must be an integer");
	if (v < (double)min || v > (double)max)
		return error_set(err, EXIT_DATA, field,
		    "must be between %lld and %lld", min, max);
	*out = (long long)v;
	return 0;
}

int
field_bool(const cJSON *object, const char *path, const char *key,
    enum field_need need, bool *out, bool *present, struct error *err)
{
	char field[PATH_SIZE];
	const cJSON *item;
	int found = member(object, path, key, need, &item, err);

	if (present != NULL)
		*present = false;
	if (found <= 0)
		return -found;
	if (!cJSON_IsBool(item))
		return wrong_type(field_path(field, sizeof field, path, key),
		    "a boolean", item, err);
	*out = cJSON_IsTrue(item);
	if (present != NULL)
		*present = true;
	return 0;
}

int
field_timestamp(const cJSON *object, const char *path, const char *key,
    enum field_need need, long long *out_ms, bool *present, struct error *err)
{
	char field[PATH_SIZE];
	const char *value = NULL;
	int rc;

	if (present != NULL)
		*present = false;
	if ((rc = field_string(object, path, key, need, &value, err)) != 0)
		return rc;
	if (value == NULL)
		return 0;
	if (!timestamp_parse(value, out_ms))
		return error_set(err, EXIT_DATA,
		    field_path(field, sizeof field, path, key),
		    "must be an ISO-8601 UTC timestamp such as "
		    "2026-11-29T08:15:00Z");
	if (present != NULL)
		*present = true;
	return 0;
}

int
field_choice(const cJSON *object, const char *path, const char *key,
    enum field_need need, const char *const *choices, const char **out,
    struct error *err)
{
	char field[PATH_SIZE], list[256] = "";
	const char *value = NULL;
	size_t i;
	int rc;

	if ((rc = field_string(object, path, key, need, &value, err)) != 0)
		return rc;
	if (value == NULL)
		return 0;
	for (i = 0; choices[i] != NULL; i++) {
		if (strcmp(value, choices[i]) == 0) {
			*out = choices[i];
			return 0;
		}
		snprintf(list + strlen(list), sizeof list - strlen(list),
		    "%s\"%s\"", i == 0 ? "" : ", ", choices[i]);
	}
	return error_set(err, EXIT_DATA,
	    field_path(field, sizeof field, path, key), "must be one of %s",
	    list);
}

int
field_string_array(const cJSON *object, const char *path, const char *key,
    enum field_need need, bool as_ids, const cJSON **out, struct error *err)
{
	char field[PATH_SIZE], element[PATH_SIZE + 24];
	const cJSON *array = NULL, *item;
	size_t index = 0;
	int rc;

	if ((rc = field_array(object, path, key, need, &array, err)) != 0)
		return rc;
	if (array == NULL)
		return 0;
	cJSON_ArrayForEach(item, array) {
		/* The element's name is only needed to report it. */
		if (!cJSON_IsString(item) || (as_ids &&
		    !id_ok(item->valuestring))) {
			field_path(field, sizeof field, path, key);
			snprintf(element, sizeof element, "%s[%zu]", field,
			    index);
			if (!cJSON_IsString(item))
				return wrong_type(element, "a string", item,
				    err);
			return id_check(item->valuestring, element, err);
		}
		index++;
	}
	*out = array;
	return 0;
}
