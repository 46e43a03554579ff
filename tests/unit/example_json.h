/*
 * The SPEC examples (/work/shared/spec/examples) as inline JSON, and the
 * two JSON helpers every fixture builds on: a parse that fails the test on
 * malformed text, and an edit of one member by dotted path.  Shared by
 * trade_fixture.h and store_fixture.h.
 *
 * Include after <cmocka.h>.
 */
#ifndef COUNTERSIGN_TESTS_EXAMPLE_JSON_H
#define COUNTERSIGN_TESTS_EXAMPLE_JSON_H

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#ifndef assert_true
#error "include <cmocka.h> before example_json.h"
#endif

/* ---- The SPEC examples ---- */

/* examples/security_map.json */
#define EX_SECURITY_MAP_JSON \
	"{\"type\": \"security_map\", \"securities\": {" \
	" \"VTI\": {\"sector\": \"Broad Market\", \"asset_class\": \"us_equity\"}," \
	" \"VXUS\": {\"sector\": \"Broad Market\", \"asset_class\": \"intl_equity\"}," \
	" \"BND\": {\"sector\": \"Government Bonds\", \"asset_class\": \"fixed_income\"}," \
	" \"AAPL\": {\"sector\": \"Technology\", \"asset_class\": \"us_equity\"}," \
	" \"MO\": {\"sector\": \"Tobacco\", \"asset_class\": \"us_equity\"}," \
	" \"XOM\": {\"sector\": \"Energy\", \"asset_class\": \"us_equity\"}," \
	" \"SGOV\": {\"sector\": \"Treasury Bills\", \"asset_class\": \"cash\"}}}"

#define EX_IPS_ID "ips-7f3a"

/*
 * examples/ips.json is EX_IPS_BODY("3"): version 3 of ips-7f3a, the active
 * IPS of u-1001.  Other versions (a string literal) make the same IPS
 * later or earlier.
 */
#define EX_IPS_BODY(version) \
	"{\"type\": \"ips\", \"ips_id\": \"" EX_IPS_ID "\", \"user_id\": \"u-1001\"," \
	" \"version\": " version "," \
	" \"constraints\": {\"excluded_tickers\": [\"XOM\"]," \
	"  \"excluded_sectors\": [\"Tobacco\"]," \
	"  \"concentration_limit_percent\": 25}," \
	" \"target_allocation\": {" \
	"  \"us_equity\": {\"target_percent\": 50, \"min_percent\": 45, \"max_percent\": 55}," \
	"  \"intl_equity\": {\"target_percent\": 20, \"min_percent\": 15, \"max_percent\": 25}," \
	"  \"fixed_income\": {\"target_percent\": 25, \"min_percent\": 20, \"max_percent\": 30}," \
	"  \"cash\": {\"target_percent\": 5, \"min_percent\": 0, \"max_percent\": 10}}," \
	" \"approval_required_above_usd\": 25000," \
	" \"approval_required_above_percent\": 5}"
#define EX_IPS_JSON EX_IPS_BODY("3")

#define EX_SNAPSHOT_ID "h-u-1001-2026-11-28"

/* examples/holdings.json: total = 20000 + 580000 = 600000 */
#define EX_HOLDINGS_JSON \
	"{\"type\": \"holdings\", \"user_id\": \"u-1001\"," \
	" \"snapshot_id\": \"" EX_SNAPSHOT_ID "\"," \
	" \"as_of\": \"2026-11-28T21:00:00Z\", \"cash_usd\": 20000," \
	" \"positions\": [" \
	"  {\"ticker\": \"VTI\", \"quantity\": 1500, \"market_value_usd\": 300000}," \
	"  {\"ticker\": \"AAPL\", \"quantity\": 200, \"market_value_usd\": 45000}," \
	"  {\"ticker\": \"VXUS\", \"quantity\": 2100, \"market_value_usd\": 130000}," \
	"  {\"ticker\": \"BND\", \"quantity\": 1400, \"market_value_usd\": 105000}]}"

#define EX_PASS_ACTION_ID "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11"
#define EX_DIVERGENT_ACTION_ID "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22"

/* An advisory rule result that passed without detail. */
#define EX_RULE(id, description) \
	"{\"rule_id\": \"" id "\", \"description\": \"" description "\"," \
	" \"passed\": true, \"detail\": null}"

/*
 * examples/packet-trade-pass.json: buy BND 7500, everything passes, not
 * high stakes (7500 <= 25000, 1.25% <= 5%); requested_by pm.lee.
 */
#define EX_PACKET_PASS_JSON \
	"{\"type\": \"packet\", \"kind\": \"trade\"," \
	" \"proposed_action\": {" \
	"  \"action_id\": \"" EX_PASS_ACTION_ID "\", \"user_id\": \"u-1001\"," \
	"  \"ticker\": \"BND\", \"side\": \"buy\", \"quantity\": 100," \
	"  \"estimated_value_usd\": 7500," \
	"  \"ips_version_referenced\": {\"ips_id\": \"ips-7f3a\", \"version\": 3}," \
	"  \"rationale\": \"Fixed income is 17.5% against a 20-30% band.\"," \
	"  \"author\": \"action-drafting\", \"requested_by\": \"pm.lee\"," \
	"  \"drafted_at\": \"2026-11-29T08:15:00Z\", \"status\": \"drafted\"}," \
	" \"reviewer_verdict\": {" \
	"  \"verdict_id\": \"5a0f3e9c-2f53-4c36-8d7e-1c2b7d6a9e01\"," \
	"  \"action_id\": \"" EX_PASS_ACTION_ID "\"," \
	"  \"ips_version_checked_against\": {\"ips_id\": \"ips-7f3a\", \"version\": 3}," \
	"  \"rule_results\": [" \
	"   " EX_RULE("excluded_ticker", "Ticker not excluded") "," \
	"   " EX_RULE("excluded_sector", "Sector not excluded") "," \
	"   " EX_RULE("concentration_limit", "Position stays under limit") "," \
	"   " EX_RULE("allocation_band_direction", "Moves toward band") "," \
	"   " EX_RULE("ips_version_current", "IPS version is current") "]," \
	"  \"overall_pass\": true, \"requires_human_approval\": false," \
	"  \"reviewer_skill_version\": {\"skill_name\": \"private-reviewer\", \"skill_version\": \"0.1.0\"}," \
	"  \"reviewed_at\": \"2026-11-29T08:15:04Z\"}}"

/*
 * examples/packet-trade-divergent.json: buy MO (Tobacco) 31000 citing IPS v2.
 * Locally excluded_sector, allocation_band_direction (us_equity 57.5% > 55)
 * and ips_version_current fail; high stakes (31000 > 25000, 5.17% > 5%).
 * The advisory passes everything and lacks allocation_band_direction.
 */
#define EX_PACKET_DIVERGENT_JSON \
	"{\"type\": \"packet\", \"kind\": \"trade\"," \
	" \"proposed_action\": {" \
	"  \"action_id\": \"" EX_DIVERGENT_ACTION_ID "\", \"user_id\": \"u-1001\"," \
	"  \"ticker\": \"MO\", \"side\": \"buy\", \"quantity\": 600," \
	"  \"estimated_value_usd\": 31000," \
	"  \"ips_version_referenced\": {\"ips_id\": \"ips-7f3a\", \"version\": 2}," \
	"  \"rationale\": \"Dividend yield.\", \"author\": \"action-drafting\"," \
	"  \"drafted_at\": \"2026-11-29T08:20:00Z\", \"status\": \"drafted\"}," \
	" \"reviewer_verdict\": {" \
	"  \"verdict_id\": \"c1d2e3f4-0000-4000-8000-000000000002\"," \
	"  \"action_id\": \"" EX_DIVERGENT_ACTION_ID "\"," \
	"  \"ips_version_checked_against\": {\"ips_id\": \"ips-7f3a\", \"version\": 2}," \
	"  \"rule_results\": [" \
	"   " EX_RULE("excluded_ticker", "Ticker not excluded") "," \
	"   {\"rule_id\": \"excluded_sector\", \"description\": \"Sector not excluded\", \"passed\": true, \"detail\": \"\\u001b[2J\\u001b]0;approved\\u0007All clear\"}," \
	"   " EX_RULE("concentration_limit", "Position stays under limit") "," \
	"   " EX_RULE("ips_version_current", "IPS version is current") "]," \
	"  \"overall_pass\": true, \"requires_human_approval\": false," \
	"  \"reviewer_skill_version\": {\"skill_name\": \"private-reviewer\", \"skill_version\": \"0.1.0\"}," \
	"  \"reviewed_at\": \"2026-11-29T08:20:03Z\"}}"

/* 2026-11-29T08:15:04.123Z: a check or decision time after every example's drafting. */
#define EX_NOW_MS 1795940104123LL
#define EX_NOW_TEXT "2026-11-29T08:15:04.123Z"

/* ---- JSON editing ---- */

/* Parses json (NULL gives NULL); the test fails when it is malformed. */
static inline cJSON *
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

/*
 * Walks a dotted path ("constraints.excluded_tickers",
 * "reviewer_verdict.rule_results.3") and replaces or adds the last member
 * with value_json, or deletes it when value_json is NULL.  Numeric
 * segments index arrays; the index one past the end appends.  Every
 * intermediate step must exist.
 */
static inline void
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

#endif
