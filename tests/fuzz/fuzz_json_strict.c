/*
 * Fuzz target: json_parse_strict() and json_print() (include/json_strict.h).
 *
 * Invariants checked (abort() when broken):
 * - a refusal sets err.status to EXIT_DATA with a message, and the syntax
 *   error offset stays within the input;
 * - a parsed tree holds no non-finite number and no object with two equal
 *   keys (spelt exactly alike; keys differing in case are distinct);
 * - json_print() of a parsed tree is well-formed UTF-8 free of terminal
 *   controls (SPEC 9) and parses back, strictly, to an equal tree (the
 *   audit log and `check` print what they parsed: it must read back);
 * - json_object_quick() vouches only for what json_parse_strict() accepts,
 *   as an object, and finds the same top-level strings;
 * - json_locate() finds each member of an accepted object (and of the
 *   objects in it) at a byte that starts a value of the member's type.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "exit_codes.h"
#include "json_strict.h"
#include "fuzz_common.h"

/* What json_parse_strict() promises to refuse, checked on its result. */
static void
check_tree(const cJSON *item, const char *text, size_t len)
{
	const cJSON *child, *other;
	int members = cJSON_GetArraySize(item);

	if (cJSON_IsNumber(item) && !isfinite(item->valuedouble))
		fuzz_fail("json_parse_strict: a non-finite number got through",
		    text, len, 0);
	for (child = item->child; child != NULL; child = child->next) {
		if (cJSON_IsObject(item)) {
			if (child->string == NULL)
				fuzz_fail("json_parse_strict: a member has no "
				    "name", text, len, 0);
			/* Pairwise: kept cheap on huge objects. */
			for (other = child->next; members <= 512 &&
			    other != NULL; other = other->next)
				if (strcmp(child->string, other->string) == 0)
					fuzz_fail("json_parse_strict: duplicate "
					    "keys got through", text, len, 0);
		}
		check_tree(child, text, len);
	}
}

/* The byte a value of item's type starts with. */
static bool
starts_like(const cJSON *item, char c)
{
	if (cJSON_IsObject(item))
		return c == '{';
	if (cJSON_IsArray(item))
		return c == '[';
	if (cJSON_IsString(item))
		return c == '"';
	if (cJSON_IsBool(item))
		return c == 't' || c == 'f';
	if (cJSON_IsNull(item))
		return c == 'n';
	return c == '-' || (c >= '0' && c <= '9');
}

/*
 * Whether some name in the tree holds '.' or '[': a path can then name two
 * members ("a.b" at the top, and b inside a), and either may be found.
 */
static bool
has_dotted_name(const cJSON *item)
{
	const cJSON *child;

	cJSON_ArrayForEach(child, item) {
		if (child->string != NULL && strpbrk(child->string, ".[") != NULL)
			return true;
		if (has_dotted_name(child))
			return true;
	}
	return false;
}

/*
 * Each member of object (path names it) and of the objects in it, to a
 * few levels, is found where a value of its type starts.  Names holding
 * '.' or '[' make paths ambiguous, and long ones are cut: those are left
 * out.
 */
static void
check_locate(const cJSON *object, const char *path, int depth,
    const char *text, size_t len)
{
	const cJSON *member;
	char member_path[200];
	size_t offset;
	int n;

	if (depth > 3)
		return;
	cJSON_ArrayForEach(member, object) {
		if (strpbrk(member->string, ".[") != NULL)
			continue;
		n = snprintf(member_path, sizeof member_path, "%s%s%s", path,
		    path[0] != '\0' ? "." : "", member->string);
		if (n < 0 || (size_t)n >= sizeof member_path ||
		    member_path[0] == '\0')
			continue;
		if (!json_locate(text, len, member_path, &offset) ||
		    offset >= len || !starts_like(member, text[offset]))
			fuzz_fail("json_locate: a member is not found where its "
			    "value starts", text, len, 0);
		if (cJSON_IsObject(member))
			check_locate(member, member_path, depth + 1, text, len);
	}
}

/*
 * json_object_quick() agrees, where it answers, with the full checks
 * (json_parse_strict() itself asks json_object_quick() first).
 */
static void
check_quick(const char *text, size_t len)
{
	struct json_wanted wanted[] = { { "a", NULL, 0 }, { "event", NULL, 0 } };
	const cJSON *member;
	struct error err;
	cJSON *json;
	size_t i;

	if (!json_object_quick(text, len, wanted, 2))
		return;
	error_clear(&err);
	json = json_parse_strict_full(text, len, NULL, &err);
	if (!cJSON_IsObject(json))
		fuzz_fail("json_object_quick: vouched for what the strict parse "
		    "refuses, or for a non-object", text, len, 0);
	for (i = 0; i < 2; i++) {
		member = cJSON_GetObjectItemCaseSensitive(json, wanted[i].key);
		if (!cJSON_IsString(member) ? wanted[i].value != NULL :
		    wanted[i].value == NULL ||
		    wanted[i].length != strlen(member->valuestring) ||
		    memcmp(wanted[i].value, member->valuestring,
		    wanted[i].length) != 0)
			fuzz_fail("json_object_quick: found another value",
			    text, len, 0);
	}
	cJSON_Delete(json);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct error err, err2;
	size_t offset = (size_t)-1;
	cJSON *json, *back;
	char *printed;

	error_clear(&err);
	/* No NUL terminator: the length is the contract. */
	json = json_parse_strict(text, size, &offset, &err);
	check_quick(text, size);
	if (json == NULL) {
		if (err.status != EXIT_DATA || err.message[0] == '\0')
			fuzz_fail("json_parse_strict: refusal without EXIT_DATA "
			    "and a message", text, size, 0);
		if (offset > size)
			fuzz_fail("json_parse_strict: error offset past the end",
			    text, size, size);
		return 0;
	}
	if (memchr(text, '\0', size) != NULL)
		fuzz_fail("json_parse_strict: accepted a NUL byte", text, size,
		    (size_t)((const char *)memchr(text, '\0', size) - text));
	check_tree(json, text, size);
	/* A top-level name "" adds nothing to a path: "x" is then ambiguous. */
	if (cJSON_IsObject(json) &&
	    cJSON_GetObjectItemCaseSensitive(json, "") == NULL &&
	    !has_dotted_name(json))
		check_locate(json, "", 0, text, size);

	printed = json_print(json);
	if (printed == NULL)
		abort();
	fuzz_assert_terminal_safe("json_print", printed, strlen(printed),
	    false);
	error_clear(&err2);
	back = json_parse_strict(printed, strlen(printed), NULL, &err2);
	if (back == NULL) {
		fprintf(stderr, "re-parse error: %s: %s\n", err2.field,
		    err2.message);
		fuzz_fail("json_print: output does not parse back strictly",
		    printed, strlen(printed), 0);
	}
	if (!fuzz_json_equal(json, back))
		fuzz_fail("json_print: output parses back to another value",
		    printed, strlen(printed), 0);
	cJSON_Delete(back);
	free(printed);
	cJSON_Delete(json);
	return 0;
}
