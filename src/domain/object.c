/* Strict loaders for the input objects of SPEC section 1. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "json_fields.h"
#include "json_strict.h"
#include "object.h"
#include "quorum.h"
#include "rule_pack.h"
#include "rules_change.h"
#include "text.h"
#include "timestamp.h"

#define PATH_SIZE 256
#define VERSION_MAX 2147483647LL
/* The "version" of the backlog tool's standards index. */
#define BACKLOG_STANDARDS_VERSION "backlogd-standards/v1"

static const char *const type_names[] = {
	[OBJECT_SECURITY_MAP] = "security_map",
	[OBJECT_IPS] = "ips",
	[OBJECT_HOLDINGS] = "holdings",
	[OBJECT_PACKET] = "packet",
	[OBJECT_STANDARDS_INDEX] = "standards_index",
	[OBJECT_ROSTER] = "roster",
	[OBJECT_APPROVAL_POLICY] = "approval_policy",
};

const char *
object_type_name(enum object_type type)
{
	return type_names[type];
}

struct named {
	const char *name;
	size_t order;
};

static int
compare_folded(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	const unsigned char *p = (const unsigned char *)x->name,
	    *q = (const unsigned char *)y->name;
	int cp, cq;

	for (;; p++, q++) {
		cp = *p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p;
		cq = *q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q;
		if (cp != cq || cp == '\0')
			break;
	}
	if (cp != cq)
		return cp - cq;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Refuses two members of object whose names differ only in case, where
 * the names are data that the rules compare ignoring case (tickers and
 * asset classes, SPEC 2.1): either would answer for the other, and the
 * security table keeps one row per ticker whatever its case.  Other keys
 * compare exactly (json_strict.h), so elsewhere such names are distinct.
 * The later of the two is named.
 */
static int
refuse_case_twins(const cJSON *object, const char *path, const char *what,
    struct error *err)
{
	const cJSON *member;
	struct named *names;
	size_t count = 0, i;
	char field[PATH_SIZE];
	int rc = 0;

	cJSON_ArrayForEach(member, object)
		count++;
	if (count < 2)
		return 0;
	if ((names = malloc(count * sizeof *names)) == NULL)
		return error_set(err, EXIT_DATA, NULL, "out of memory");
	i = 0;
	cJSON_ArrayForEach(member, object) {
		names[i].name = member->string;
		names[i].order = i;
		i++;
	}
	qsort(names, count, sizeof *names, compare_folded);
	for (i = 1; i < count; i++) {
		if (text_equal_nocase(names[i - 1].name, names[i].name)) {
			rc = error_set(err, EXIT_DATA, field_path(field,
			    sizeof field, path, names[i].name),
			    "duplicate %s (differs only in case from \"%.64s\")",
			    what, names[i - 1].name);
			break;
		}
	}
	free(names);
	return rc;
}

static int
load_security_map(struct loaded_object *o, struct error *err)
{
	const cJSON *securities = NULL, *entry;
	char path[PATH_SIZE];
	const char *unused;
	double price;
	int rc;

	if ((rc = field_object(o->json, "", "securities", FIELD_REQUIRED,
	    &securities, err)) != 0)
		return rc;
	cJSON_ArrayForEach(entry, securities) {
		field_path(path, sizeof path, "securities", entry->string);
		if (entry->string[0] == '\0' ||
		    strlen(entry->string) > ID_MAX_BYTES)
			return error_set(err, EXIT_DATA, path,
			    "a ticker must be 1 to %d bytes long", ID_MAX_BYTES);
		if (!cJSON_IsObject(entry))
			return error_set(err, EXIT_DATA, path,
			    "must be an object with sector and asset_class");
		if ((rc = field_string(entry, path, "sector", FIELD_REQUIRED,
		    &unused, err)) != 0 ||
		    (rc = field_string(entry, path, "asset_class",
		    FIELD_REQUIRED, &unused, err)) != 0 ||
		    /* SPEC 2.1 (v3): the reference price of an unheld ticker. */
		    (rc = field_number(entry, path, "price_usd", FIELD_OPTIONAL,
		    NUMBER_POSITIVE, &price, NULL, err)) != 0)
			return rc;
	}
	return refuse_case_twins(securities, "securities", "ticker", err);
}

static int
load_ips(struct loaded_object *o, struct error *err)
{
	const cJSON *constraints = NULL, *allocation = NULL, *band, *unused;
	char path[PATH_SIZE];
	double number, low, high;
	int rc;

	if ((rc = field_id(o->json, "", "ips_id", FIELD_REQUIRED, &o->id,
	    err)) != 0 ||
	    (rc = field_id(o->json, "", "user_id", FIELD_REQUIRED, &o->user_id,
	    err)) != 0 ||
	    (rc = field_integer(o->json, "", "version", FIELD_REQUIRED, 1,
	    VERSION_MAX, &o->version, err)) != 0 ||
	    (rc = field_object(o->json, "", "constraints", FIELD_REQUIRED,
	    &constraints, err)) != 0 ||
	    (rc = field_object(o->json, "", "target_allocation",
	    FIELD_REQUIRED, &allocation, err)) != 0)
		return rc;

	/* Optional, but a wrong type must not silently disable a rule. */
	if ((rc = field_string_array(constraints, "constraints",
	    "excluded_tickers", FIELD_OPTIONAL, false, &unused, err)) != 0 ||
	    (rc = field_string_array(constraints, "constraints",
	    "excluded_sectors", FIELD_OPTIONAL, false, &unused, err)) != 0 ||
	    (rc = field_number(constraints, "constraints",
	    "concentration_limit_percent", FIELD_OPTIONAL, NUMBER_NON_NEGATIVE,
	    &number, NULL, err)) != 0 ||
	    (rc = field_number(o->json, "", "approval_required_above_usd",
	    FIELD_OPTIONAL, NUMBER_NON_NEGATIVE, &number, NULL, err)) != 0 ||
	    (rc = field_number(o->json, "", "approval_required_above_percent",
	    FIELD_OPTIONAL, NUMBER_NON_NEGATIVE, &number, NULL, err)) != 0)
		return rc;

	cJSON_ArrayForEach(band, allocation) {
		field_path(path, sizeof path, "target_allocation", band->string);
		if (!cJSON_IsObject(band))
			return error_set(err, EXIT_DATA, path,
			    "must be an object with min_percent and max_percent");
		if ((rc = field_number(band, path, "min_percent",
		    FIELD_REQUIRED, NUMBER_NON_NEGATIVE, &low, NULL, err)) != 0 ||
		    (rc = field_number(band, path, "max_percent",
		    FIELD_REQUIRED, NUMBER_NON_NEGATIVE, &high, NULL, err)) != 0 ||
		    (rc = field_number(band, path, "target_percent",
		    FIELD_OPTIONAL, NUMBER_NON_NEGATIVE, &number, NULL,
		    err)) != 0)
			return rc;
		if (low > high)
			return error_set(err, EXIT_DATA, path,
			    "min_percent is greater than max_percent");
	}
	return refuse_case_twins(allocation, "target_allocation", "asset class",
	    err);
}

static int
load_holdings(struct loaded_object *o, struct error *err)
{
	const cJSON *positions = NULL, *position;
	char path[PATH_SIZE];
	const char *ticker, *as_of = NULL;
	double number;
	size_t index = 0;
	int rc;

	if ((rc = field_id(o->json, "", "user_id", FIELD_REQUIRED, &o->user_id,
	    err)) != 0 ||
	    (rc = field_id(o->json, "", "snapshot_id", FIELD_REQUIRED, &o->id,
	    err)) != 0 ||
	    (rc = field_timestamp(o->json, "", "as_of", FIELD_REQUIRED,
	    &o->as_of_ms, NULL, err)) != 0 ||
	    (rc = field_string(o->json, "", "as_of", FIELD_REQUIRED, &as_of,
	    err)) != 0 ||
	    (rc = field_number(o->json, "", "cash_usd", FIELD_REQUIRED,
	    NUMBER_NON_NEGATIVE, &number, NULL, err)) != 0 ||
	    (rc = field_array(o->json, "", "positions", FIELD_REQUIRED,
	    &positions, err)) != 0)
		return rc;
	timestamp_beyond_ms(as_of, &o->as_of_beyond_ms,
	    &o->as_of_beyond_ms_length);
	cJSON_ArrayForEach(position, positions) {
		snprintf(path, sizeof path, "positions[%zu]", index++);
		if (!cJSON_IsObject(position))
			return error_set(err, EXIT_DATA, path,
			    "must be an object with ticker and market_value_usd");
		if ((rc = field_id(position, path, "ticker", FIELD_REQUIRED,
		    &ticker, err)) != 0 ||
		    (rc = field_number(position, path, "market_value_usd",
		    FIELD_REQUIRED, NUMBER_NON_NEGATIVE, &number, NULL,
		    err)) != 0 ||
		    (rc = field_number(position, path, "quantity",
		    FIELD_OPTIONAL, NUMBER_POSITIVE, &number, NULL, err)) != 0)
			return rc;
	}
	return 0;
}

static int
load_packet(struct loaded_object *o, struct error *err)
{
	const cJSON *action = NULL;
	const struct rule_pack *pack;
	char field[PATH_SIZE];
	int rc;

	if ((rc = field_string(o->json, "", "kind", FIELD_REQUIRED, &o->kind,
	    err)) != 0 ||
	    (rc = field_object(o->json, "", "proposed_action", FIELD_REQUIRED,
	    &action, err)) != 0)
		return rc;
	pack = rule_pack_find(o->kind);
	if (pack == NULL)
		return error_set(err, EXIT_DATA, "kind",
		    "unknown packet kind \"%.64s\"", o->kind);
	if ((rc = field_id(action, "proposed_action", "action_id",
	    FIELD_REQUIRED, &o->id, err)) != 0 ||
	    (rc = field_id(action, "proposed_action", "author", FIELD_OPTIONAL,
	    &o->author, err)) != 0 ||
	    (rc = field_id(action, "proposed_action", "revision_of",
	    FIELD_OPTIONAL, &o->revision_of, err)) != 0 ||
	    (rc = field_id(action, "proposed_action", "requested_by",
	    FIELD_OPTIONAL, &o->requested_by, err)) != 0 ||
	    (rc = field_timestamp(action, "proposed_action", "expires_at",
	    FIELD_OPTIONAL, &o->expires_at_ms, &o->has_expiry, err)) != 0 ||
	    /* The people and the artifact of SPEC 1.1 and 2.4 (v2). */
	    (rc = field_string_array(action, "proposed_action",
	    "contributors", FIELD_OPTIONAL, true, &o->contributors,
	    err)) != 0 ||
	    (rc = field_id(action, "proposed_action", "artifact_id",
	    FIELD_OPTIONAL, &o->artifact_id, err)) != 0)
		return rc;
	if ((rc = pack->validate(action, "proposed_action", err)) != 0)
		return rc;
	if (cJSON_IsString(json_member(action, "user_id")))
		o->user_id = json_member(action, "user_id")->valuestring;
	(void)field;
	return 0;
}

/* The change rule pack reads the index: it knows its shape (SPEC 1). */
static int
load_standards_index(struct loaded_object *o, struct error *err)
{
	return change_standards_validate(o->json, err);
}

static int
load_roster(struct loaded_object *o, struct error *err)
{
	const cJSON *authors;

	return field_string_array(o->json, "", "authors", FIELD_REQUIRED, true,
	    &authors, err);
}

/* SPEC 14: (policy_id, version) is its identity; quorum says the rest. */
static int
load_approval_policy(struct loaded_object *o, struct error *err)
{
	int rc;

	if ((rc = field_id(o->json, "", "policy_id", FIELD_REQUIRED, &o->id,
	    err)) != 0 ||
	    (rc = field_integer(o->json, "", "version", FIELD_REQUIRED, 1,
	    VERSION_MAX, &o->version, err)) != 0)
		return rc;
	return quorum_policy_validate(o->json, err);
}

/* SPEC 1 (v2): how far ahead of the importing clock an as_of may be. */
#define AS_OF_AHEAD_MAX_MS (5LL * 60 * 1000)

int
object_check_clock(const struct loaded_object *o, long long now_ms,
    struct error *err)
{
	long long limit = now_ms + AS_OF_AHEAD_MAX_MS;
	char now[TIMESTAMP_SIZE];

	if (o->type != OBJECT_HOLDINGS)
		return 0;
	/* Digits below the millisecond put an as_of at the limit past it. */
	if (o->as_of_ms > limit || (o->as_of_ms == limit &&
	    o->as_of_beyond_ms_length > 0)) {
		timestamp_format(now_ms, now);
		return error_set(err, EXIT_DATA, "as_of", "more than 5 minutes "
		    "ahead of this computer's clock (%s): a snapshot from the "
		    "future would stay the current one", now);
	}
	return 0;
}

int
object_load_tree(cJSON *json, struct loaded_object *o, struct error *err)
{
	static int (*const loaders[])(struct loaded_object *, struct error *) = {
		[OBJECT_SECURITY_MAP] = load_security_map,
		[OBJECT_IPS] = load_ips,
		[OBJECT_HOLDINGS] = load_holdings,
		[OBJECT_PACKET] = load_packet,
		[OBJECT_STANDARDS_INDEX] = load_standards_index,
		[OBJECT_ROSTER] = load_roster,
		[OBJECT_APPROVAL_POLICY] = load_approval_policy,
	};
	const char *type = NULL;
	size_t i;
	int rc;

	memset(o, 0, sizeof *o);
	o->json = json;
	if (!cJSON_IsObject(json))
		return error_set(err, EXIT_DATA, NULL,
		    "each input must be a JSON object");
	/*
	 * The backlog tool writes its index with a version and no type
	 * (SPEC 1): a team imports its own committed file as it is.
	 */
	if (json_member(json, "type") == NULL &&
	    cJSON_IsString(json_member(json, "version")) &&
	    strcmp(json_member(json, "version")->valuestring,
	    BACKLOG_STANDARDS_VERSION) == 0) {
		o->type = OBJECT_STANDARDS_INDEX;
		return load_standards_index(o, err);
	}
	if ((rc = field_string(json, "", "type", FIELD_REQUIRED, &type,
	    err)) != 0)
		return rc;
	for (i = 0; i < sizeof type_names / sizeof type_names[0]; i++) {
		if (strcmp(type, type_names[i]) == 0) {
			o->type = (enum object_type)i;
			return loaders[i](o, err);
		}
	}
	return error_set(err, EXIT_DATA, "type", "unknown type \"%.64s\"",
	    type);
}

/*
 * SPEC v2 1: at most 10,000 authors in a roster or standards in an index.
 * A roster or index of 64 MiB was once copied into every decision record
 * and read for every re-check.  An import rule, not a shape: a larger one
 * imported before the limit still reads back.
 */
#define POLICY_LIST_MAX 10000

static int
within_import_limits(const struct loaded_object *o, struct error *err)
{
	const char *list = o->type == OBJECT_ROSTER ? "authors" :
	    o->type == OBJECT_STANDARDS_INDEX ? "standards" : NULL;
	int count;

	if (list == NULL)
		return 0;
	count = cJSON_GetArraySize(json_member(o->json, list));
	if (count > POLICY_LIST_MAX)
		return error_set(err, EXIT_DATA, list, "%d %s; a %s holds at "
		    "most 10,000", count, list, object_type_name(o->type));
	return 0;
}

int
object_load(const char *text, size_t len, struct loaded_object *o,
    size_t *error_offset, struct error *err)
{
	cJSON *json;
	int rc;

	memset(o, 0, sizeof *o);
	json = json_parse_strict(text, len, error_offset, err);
	if (json == NULL)
		return err->status;
	if ((rc = object_load_tree(json, o, err)) == 0)
		rc = within_import_limits(o, err);
	return rc;
}

void
object_free(struct loaded_object *o)
{
	cJSON_Delete(o->json);
	memset(o, 0, sizeof *o);
}
