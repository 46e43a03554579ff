/* Approval quorums (SPEC 14): the policy's entries and their matching. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "quorum.h"

static const char *const quorum_kinds[] = {
	"trade", "legal_draft", "change", "*", NULL
};

static int
validate_when(const cJSON *entry, const char *path, struct error *err)
{
	static const char *const words[] = { "always", "high_stakes", NULL };
	const cJSON *when = json_member(entry, "when");
	const char *unused;
	char field[96];
	double above;
	int count;

	field_path(field, sizeof field, path, "when");
	if (when == NULL)
		return error_set(err, EXIT_DATA, field, "missing field");
	if (cJSON_IsString(when))
		return field_choice(entry, path, "when", FIELD_REQUIRED, words,
		    &unused, err);
	if (!cJSON_IsObject(when))
		return error_set(err, EXIT_DATA, field, "must be \"always\", "
		    "\"high_stakes\" or {\"above_usd\": number}");
	/* One condition per entry: {"above_usd": 1, "x": 2} says more. */
	count = cJSON_GetArraySize(when);
	if (count != 1 || json_member(when, "above_usd") == NULL)
		return error_set(err, EXIT_DATA, field, "an object condition "
		    "is {\"above_usd\": number} and nothing else");
	return field_number(when, field, "above_usd", FIELD_REQUIRED,
	    NUMBER_NON_NEGATIVE, &above, NULL, err);
}

int
quorum_policy_validate(const cJSON *policy, struct error *err)
{
	const cJSON *quorum = NULL, *entry;
	const char *kind;
	char path[64];
	long long approvals;
	size_t index = 0;
	int rc;

	if ((rc = field_array(policy, "", "quorum", FIELD_REQUIRED, &quorum,
	    err)) != 0)
		return rc;
	cJSON_ArrayForEach(entry, quorum) {
		snprintf(path, sizeof path, "quorum[%zu]", index++);
		if (!cJSON_IsObject(entry))
			return error_set(err, EXIT_DATA, path, "must be an "
			    "object with kind, when and approvals");
		if ((rc = field_choice(entry, path, "kind", FIELD_REQUIRED,
		    quorum_kinds, &kind, err)) != 0 ||
		    (rc = validate_when(entry, path, err)) != 0 ||
		    (rc = field_integer(entry, path, "approvals",
		    FIELD_REQUIRED, QUORUM_APPROVALS_MIN, QUORUM_APPROVALS_MAX,
		    &approvals, err)) != 0)
			return rc;
	}
	return 0;
}

/*
 * A trade's estimated_value_usd strictly above the entry's above_usd.
 * A figure that does not convert applies the quorum: fail closed.
 */
static bool
above(const cJSON *action, const cJSON *when)
{
	const cJSON *value = json_member(action, "estimated_value_usd");
	const cJSON *limit = json_member(when, "above_usd");
	struct decimal v, l;

	if (!cJSON_IsNumber(value) || !cJSON_IsNumber(limit))
		return false;
	if (!decimal_from_double(value->valuedouble, &v) ||
	    !decimal_from_double(limit->valuedouble, &l))
		return true;
	return decimal_compare(v, l) > 0;
}

static bool
entry_matches(const cJSON *entry, const char *kind, const cJSON *action,
    bool high_stakes)
{
	const cJSON *entry_kind = json_member(entry, "kind");
	const cJSON *when = json_member(entry, "when");

	if (!cJSON_IsString(entry_kind) ||
	    (strcmp(entry_kind->valuestring, "*") != 0 &&
	    strcmp(entry_kind->valuestring, kind) != 0))
		return false;
	if (cJSON_IsString(when))
		return strcmp(when->valuestring, "always") == 0 ||
		    (strcmp(when->valuestring, "high_stakes") == 0 &&
		    high_stakes);
	/* above_usd is about a trade's value: other kinds have none. */
	return cJSON_IsObject(when) && strcmp(kind, "trade") == 0 &&
	    above(action, when);
}

int
quorum_needed(const cJSON *policies, const char *kind, const cJSON *action,
    bool high_stakes)
{
	const cJSON *policy, *entry, *approvals;
	int needed = 1;

	cJSON_ArrayForEach(policy, policies) {
		cJSON_ArrayForEach(entry, json_member(policy, "quorum")) {
			approvals = json_member(entry, "approvals");
			if (cJSON_IsNumber(approvals) &&
			    approvals->valuedouble > needed &&
			    entry_matches(entry, kind, action, high_stakes))
				needed = (int)approvals->valuedouble;
		}
	}
	return needed;
}
