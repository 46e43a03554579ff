/*
 * Fuzz target: object_load() (include/object.h) on the input as one object:
 * the strict parser and the loader of every type (security_map, ips,
 * holdings, packet of every kind, standards_index, roster).
 *
 * Invariants checked (abort() when broken):
 * - a refusal is EXIT_DATA with a message, its error offset within the
 *   input;
 * - a loaded object has its identity: a known type, and for each type the
 *   fields the store indexes it by;
 * - what loads, printed by json_print(), loads again to the same type and an
 *   equal tree: the validation depends on the values, not on how the text
 *   happened to spell them.
 */
#include "config.h"

#include <cjson/cJSON.h>

#include "error.h"
#include "exit_codes.h"
#include "json_strict.h"
#include "object.h"
#include "fuzz_common.h"

static void
check_identity(const struct loaded_object *o, const char *text, size_t len)
{
	bool ok = o->json != NULL && cJSON_IsObject(o->json);

	switch (o->type) {
	case OBJECT_IPS:
		ok = ok && o->id != NULL && o->user_id != NULL &&
		    o->version >= 1;
		break;
	case OBJECT_HOLDINGS:
		ok = ok && o->id != NULL && o->user_id != NULL;
		break;
	case OBJECT_PACKET:
		ok = ok && o->id != NULL && o->kind != NULL;
		break;
	case OBJECT_APPROVAL_POLICY:
		ok = ok && o->id != NULL && o->version >= 1;
		break;
	case OBJECT_SECURITY_MAP:
	case OBJECT_STANDARDS_INDEX:
	case OBJECT_ROSTER:
		break;
	default:
		ok = false;
		break;
	}
	if (!ok)
		fuzz_fail("object_load: a loaded object lacks its identity",
		    text, len, 0);
	if (o->id != NULL && (o->id[0] == '\0' || strlen(o->id) > 256))
		fuzz_fail("object_load: an id is empty or over 256 bytes", text,
		    len, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct loaded_object o, again;
	struct error err;
	size_t offset = 0;
	char *printed;
	int rc;

	error_clear(&err);
	rc = object_load(text, size, &o, &offset, &err);
	if (rc != 0) {
		if (rc != EXIT_DATA || err.status != EXIT_DATA ||
		    err.message[0] == '\0')
			fuzz_fail("object_load: refusal without EXIT_DATA and a "
			    "message", text, size, 0);
		if (offset > size)
			fuzz_fail("object_load: error offset past the end", text,
			    size, size);
		object_free(&o);
		return 0;
	}
	check_identity(&o, text, size);

	printed = json_print(o.json);
	if (printed == NULL)
		abort();
	fuzz_assert_terminal_safe("json_print(object)", printed,
	    strlen(printed), false);
	error_clear(&err);
	if (object_load(printed, strlen(printed), &again, NULL, &err) != 0) {
		fprintf(stderr, "re-load error: %s: %s\n", err.field,
		    err.message);
		fuzz_fail("object_load: a loaded object, printed, no longer "
		    "loads", printed, strlen(printed), 0);
	}
	if (again.type != o.type || !fuzz_json_equal(o.json, again.json))
		fuzz_fail("object_load: a loaded object, printed, loads as "
		    "something else", printed, strlen(printed), 0);
	object_free(&again);
	free(printed);
	object_free(&o);
	return 0;
}
