/* The unit tests' support library: the examples and JSON edits (example_json.h). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "example_json.h"

const char *
ex_ips_version(int version)
{
	static char text[sizeof EXAMPLE_IPS];
	static const char version3[] = "\"version\": 3,";
	char *at;

	assert_true(version >= 1 && version <= 9);
	memcpy(text, EXAMPLE_IPS, sizeof text);
	at = strstr(text, version3);
	assert_non_null(at);
	at[sizeof version3 - 3] = (char)('0' + version);
	return text;
}

cJSON *
ex_parse(const char *json)
{
	cJSON *tree;

	if (json == NULL)
		return NULL;
	tree = cJSON_Parse(json);
	if (tree == NULL)
		fail_msg("fixture JSON does not parse near: %.40s",
		    cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "?");
	return tree;
}

void
ex_set(cJSON *root, const char *path, const char *value_json)
{
	char buf[256], *segment, *next, *end;
	cJSON *parent = root, *value = NULL;
	long idx;

	assert_non_null(root);
	assert_true(strlen(path) < sizeof buf);
	strcpy(buf, path);
	segment = buf;
	while ((next = strchr(segment, '.')) != NULL) {
		*next = '\0';
		if (cJSON_IsArray(parent)) {
			idx = strtol(segment, &end, 10);
			assert_true(*end == '\0');
			parent = cJSON_GetArrayItem(parent, (int)idx);
		} else
			parent = cJSON_GetObjectItemCaseSensitive(parent,
			    segment);
		if (parent == NULL)
			fail_msg("fixture path %s: no %s", path, segment);
		segment = next + 1;
	}
	value = ex_parse(value_json);
	if (cJSON_IsArray(parent)) {
		idx = strtol(segment, &end, 10);
		assert_true(*end == '\0');
		assert_true(idx >= 0 && idx <= cJSON_GetArraySize(parent));
		if (idx == cJSON_GetArraySize(parent)) {
			/* One past the end appends. */
			assert_non_null(value);
			assert_true(cJSON_AddItemToArray(parent, value));
		} else if (value == NULL)
			cJSON_DeleteItemFromArray(parent, (int)idx);
		else
			assert_true(cJSON_ReplaceItemInArray(parent, (int)idx,
			    value));
		return;
	}
	assert_true(cJSON_IsObject(parent));
	if (value == NULL) {
		cJSON_DeleteItemFromObjectCaseSensitive(parent, segment);
		return;
	}
	if (cJSON_GetObjectItemCaseSensitive(parent, segment) != NULL)
		assert_true(cJSON_ReplaceItemInObjectCaseSensitive(parent,
		    segment, value));
	else
		assert_true(cJSON_AddItemToObject(parent, segment, value));
}
