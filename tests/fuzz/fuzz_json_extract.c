/*
 * Fuzz target: json_first_object() (include/json_extract.h), which finds the
 * advisory verdict inside raw model output (SPEC 2.2): prose, fenced code
 * blocks, stray braces, anything a model or whoever steers it can write.
 *
 * Invariants checked (abort() when broken): the result is NULL or an
 * object; when one is found, json_print() of it is free of terminal
 * controls and parses back strictly.  libFuzzer's -timeout catches inputs
 * that make the scan slow (the header promises bounded work).
 */
#include "config.h"

#include <cjson/cJSON.h>

#include "error.h"
#include "json_extract.h"
#include "json_strict.h"
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct error err;
	cJSON *json, *back;
	char *printed;

	json = json_first_object(text, size);
	if (json == NULL)
		return 0;
	if (!cJSON_IsObject(json))
		fuzz_fail("json_first_object: returned something other than an "
		    "object", text, size, 0);
	printed = json_print(json);
	if (printed == NULL)
		abort();
	fuzz_assert_terminal_safe("json_print(json_first_object)", printed,
	    strlen(printed), false);
	error_clear(&err);
	back = json_parse_strict(printed, strlen(printed), NULL, &err);
	if (!cJSON_IsObject(back) || !fuzz_json_equal(json, back))
		fuzz_fail("json_first_object: the object found does not print "
		    "and parse back to itself", printed, strlen(printed), 0);
	cJSON_Delete(back);
	free(printed);
	cJSON_Delete(json);
	return 0;
}
