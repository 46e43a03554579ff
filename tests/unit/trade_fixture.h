/*
 * Shared fixture for the trade rule pack tests: builds a struct check_input
 * from inline JSON (packet, IPS, holdings, security map; each optional),
 * lets a test tweak any field of the parsed trees, runs check_run() and
 * frees everything.  The defaults are the SPEC examples in
 * /work/shared/spec/examples.
 *
 * Include after <cmocka.h> and the project headers' prerequisites.
 */
#ifndef COUNTERSIGN_TESTS_TRADE_FIXTURE_H
#define COUNTERSIGN_TESTS_TRADE_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "check.h"
#include "error.h"
#include "rule_pack.h"
#include "verdict.h"

#ifndef assert_true
#error "include <cmocka.h> before trade_fixture.h"
#endif

/* examples/ips.json */
#define TF_IPS_JSON \
	"{\"type\": \"ips\", \"ips_id\": \"ips-7f3a\", \"user_id\": \"u-1001\"," \
	" \"version\": 3," \
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

/* examples/holdings.json: total = 20000 + 580000 = 600000 */
#define TF_HOLDINGS_JSON \
	"{\"type\": \"holdings\", \"user_id\": \"u-1001\"," \
	" \"snapshot_id\": \"h-u-1001-2026-11-28\"," \
	" \"as_of\": \"2026-11-28T21:00:00Z\", \"cash_usd\": 20000," \
	" \"positions\": [" \
	"  {\"ticker\": \"VTI\", \"quantity\": 1500, \"market_value_usd\": 300000}," \
	"  {\"ticker\": \"AAPL\", \"quantity\": 200, \"market_value_usd\": 45000}," \
	"  {\"ticker\": \"VXUS\", \"quantity\": 2100, \"market_value_usd\": 130000}," \
	"  {\"ticker\": \"BND\", \"quantity\": 1400, \"market_value_usd\": 105000}]}"

/* examples/security_map.json */
#define TF_SECURITY_MAP_JSON \
	"{\"type\": \"security_map\", \"securities\": {" \
	" \"VTI\": {\"sector\": \"Broad Market\", \"asset_class\": \"us_equity\"}," \
	" \"VXUS\": {\"sector\": \"Broad Market\", \"asset_class\": \"intl_equity\"}," \
	" \"BND\": {\"sector\": \"Government Bonds\", \"asset_class\": \"fixed_income\"}," \
	" \"AAPL\": {\"sector\": \"Technology\", \"asset_class\": \"us_equity\"}," \
	" \"MO\": {\"sector\": \"Tobacco\", \"asset_class\": \"us_equity\"}," \
	" \"XOM\": {\"sector\": \"Energy\", \"asset_class\": \"us_equity\"}," \
	" \"SGOV\": {\"sector\": \"Treasury Bills\", \"asset_class\": \"cash\"}}}"

#define TF_PASS_ACTION_ID "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11"
#define TF_DIVERGENT_ACTION_ID "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22"

/* examples/packet-trade-pass.json: buy BND 7500, everything passes. */
#define TF_PACKET_PASS_JSON \
	"{\"type\": \"packet\", \"kind\": \"trade\"," \
	" \"proposed_action\": {" \
	"  \"action_id\": \"" TF_PASS_ACTION_ID "\", \"user_id\": \"u-1001\"," \
	"  \"ticker\": \"BND\", \"side\": \"buy\", \"quantity\": 100," \
	"  \"estimated_value_usd\": 7500," \
	"  \"ips_version_referenced\": {\"ips_id\": \"ips-7f3a\", \"version\": 3}," \
	"  \"rationale\": \"Fixed income is 17.5% against a 20-30% band.\"," \
	"  \"author\": \"action-drafting\", \"requested_by\": \"pm.lee\"," \
	"  \"drafted_at\": \"2026-11-29T08:15:00Z\", \"status\": \"drafted\"}," \
	" \"reviewer_verdict\": {" \
	"  \"verdict_id\": \"5a0f3e9c-2f53-4c36-8d7e-1c2b7d6a9e01\"," \
	"  \"action_id\": \"" TF_PASS_ACTION_ID "\"," \
	"  \"ips_version_checked_against\": {\"ips_id\": \"ips-7f3a\", \"version\": 3}," \
	"  \"rule_results\": [" \
	"   {\"rule_id\": \"excluded_ticker\", \"description\": \"Ticker not excluded\", \"passed\": true, \"detail\": null}," \
	"   {\"rule_id\": \"excluded_sector\", \"description\": \"Sector not excluded\", \"passed\": true, \"detail\": null}," \
	"   {\"rule_id\": \"concentration_limit\", \"description\": \"Position stays under limit\", \"passed\": true, \"detail\": null}," \
	"   {\"rule_id\": \"allocation_band_direction\", \"description\": \"Moves toward band\", \"passed\": true, \"detail\": null}," \
	"   {\"rule_id\": \"ips_version_current\", \"description\": \"IPS version is current\", \"passed\": true, \"detail\": null}]," \
	"  \"overall_pass\": true, \"requires_human_approval\": false," \
	"  \"reviewer_skill_version\": {\"skill_name\": \"private-reviewer\", \"skill_version\": \"0.1.0\"}," \
	"  \"reviewed_at\": \"2026-11-29T08:15:04Z\"}}"

/*
 * examples/packet-trade-divergent.json: buy MO (Tobacco) 31000 citing IPS v2;
 * the advisory passes everything and lacks allocation_band_direction.
 */
#define TF_PACKET_DIVERGENT_JSON \
	"{\"type\": \"packet\", \"kind\": \"trade\"," \
	" \"proposed_action\": {" \
	"  \"action_id\": \"" TF_DIVERGENT_ACTION_ID "\", \"user_id\": \"u-1001\"," \
	"  \"ticker\": \"MO\", \"side\": \"buy\", \"quantity\": 600," \
	"  \"estimated_value_usd\": 31000," \
	"  \"ips_version_referenced\": {\"ips_id\": \"ips-7f3a\", \"version\": 2}," \
	"  \"rationale\": \"Dividend yield.\", \"author\": \"action-drafting\"," \
	"  \"drafted_at\": \"2026-11-29T08:20:00Z\", \"status\": \"drafted\"}," \
	" \"reviewer_verdict\": {" \
	"  \"verdict_id\": \"c1d2e3f4-0000-4000-8000-000000000002\"," \
	"  \"action_id\": \"" TF_DIVERGENT_ACTION_ID "\"," \
	"  \"ips_version_checked_against\": {\"ips_id\": \"ips-7f3a\", \"version\": 2}," \
	"  \"rule_results\": [" \
	"   {\"rule_id\": \"excluded_ticker\", \"description\": \"Ticker not excluded\", \"passed\": true, \"detail\": null}," \
	"   {\"rule_id\": \"excluded_sector\", \"description\": \"Sector not excluded\", \"passed\": true, \"detail\": \"\\u001b[2J\\u001b]0;approved\\u0007All clear\"}," \
	"   {\"rule_id\": \"concentration_limit\", \"description\": \"Position stays under limit\", \"passed\": true, \"detail\": null}," \
	"   {\"rule_id\": \"ips_version_current\", \"description\": \"IPS version is current\", \"passed\": true, \"detail\": null}]," \
	"  \"overall_pass\": true, \"requires_human_approval\": false," \
	"  \"reviewer_skill_version\": {\"skill_name\": \"private-reviewer\", \"skill_version\": \"0.1.0\"}," \
	"  \"reviewed_at\": \"2026-11-29T08:20:03Z\"}}"

/* 2026-11-29T08:15:04.123Z */
#define TF_NOW_MS 1795940104123LL
#define TF_NOW_TEXT "2026-11-29T08:15:04.123Z"

struct trade_fixture {
	cJSON *packet;
	cJSON *ips;
	cJSON *holdings;
	cJSON *map;			/* the security_map object, or a bare map */
	struct check_input input;
	struct check_outcome outcome;
	struct error err;
	bool ran;
};

/* Parses json (NULL gives NULL); the test fails on malformed JSON. */
static inline cJSON *
tf_parse(const char *json)
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

/* Each argument is JSON text or NULL (that input is absent). */
static inline void
tf_setup(struct trade_fixture *tf, const char *packet, const char *ips,
    const char *holdings, const char *map)
{
	memset(tf, 0, sizeof *tf);
	tf->packet = tf_parse(packet);
	tf->ips = tf_parse(ips);
	tf->holdings = tf_parse(holdings);
	tf->map = tf_parse(map);
}

/* The pass example with the example IPS, holdings and security map. */
static inline void
tf_setup_pass(struct trade_fixture *tf)
{
	tf_setup(tf, TF_PACKET_PASS_JSON, TF_IPS_JSON, TF_HOLDINGS_JSON,
	    TF_SECURITY_MAP_JSON);
}

/* The divergent example with the example IPS, holdings and security map. */
static inline void
tf_setup_divergent(struct trade_fixture *tf)
{
	tf_setup(tf, TF_PACKET_DIVERGENT_JSON, TF_IPS_JSON, TF_HOLDINGS_JSON,
	    TF_SECURITY_MAP_JSON);
}

static inline cJSON *
tf_action(struct trade_fixture *tf)
{
	cJSON *action = cJSON_GetObjectItemCaseSensitive(tf->packet,
	    "proposed_action");

	assert_non_null(action);
	return action;
}

/*
 * Walks a dotted path ("constraints.excluded_tickers", "rule_results.2.passed")
 * and replaces, adds or (json == NULL) deletes the last member.  Numeric
 * segments index arrays; the index one past the end appends.  Every
 * intermediate step must exist.
 */
static inline void
tf_set(cJSON *root, const char *path, const char *json)
{
	char buf[256], *segment, *next;
	cJSON *parent = root, *value = NULL;
	char *end;
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
		} else {
			parent = cJSON_GetObjectItemCaseSensitive(parent,
			    segment);
		}
		if (parent == NULL)
			fail_msg("fixture path %s: no %s", path, segment);
		segment = next + 1;
	}
	if (json != NULL)
		value = tf_parse(json);
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

/* Shorthands for the common tweaks. */
static inline void
tf_set_action(struct trade_fixture *tf, const char *path, const char *json)
{
	tf_set(tf_action(tf), path, json);
}

static inline void
tf_set_ips(struct trade_fixture *tf, const char *path, const char *json)
{
	tf_set(tf->ips, path, json);
}

static inline void
tf_set_holdings(struct trade_fixture *tf, const char *path, const char *json)
{
	tf_set(tf->holdings, path, json);
}

static inline void
tf_set_advisory(struct trade_fixture *tf, const char *path, const char *json)
{
	tf_set(cJSON_GetObjectItemCaseSensitive(tf->packet, "reviewer_verdict"),
	    path, json);
}

/* Sets a trade's ticker, side and estimated value in one go. */
static inline void
tf_trade(struct trade_fixture *tf, const char *ticker, const char *side,
    const char *value)
{
	char json[128];

	snprintf(json, sizeof json, "\"%s\"", ticker);
	tf_set_action(tf, "ticker", json);
	snprintf(json, sizeof json, "\"%s\"", side);
	tf_set_action(tf, "side", json);
	tf_set_action(tf, "estimated_value_usd", value);
}

/* Replaces the holdings with {cash_usd: cash, positions: positions}. */
static inline void
tf_holdings(struct trade_fixture *tf, const char *cash, const char *positions)
{
	char json[1024];

	snprintf(json, sizeof json, "{\"type\": \"holdings\", "
	    "\"user_id\": \"u-1001\", \"snapshot_id\": \"h-test\", "
	    "\"as_of\": \"2026-11-28T21:00:00Z\", \"cash_usd\": %s, "
	    "\"positions\": %s}", cash, positions);
	cJSON_Delete(tf->holdings);
	tf->holdings = tf_parse(json);
}

static inline void
tf_drop_ips(struct trade_fixture *tf)
{
	cJSON_Delete(tf->ips);
	tf->ips = NULL;
}

static inline void
tf_drop_holdings(struct trade_fixture *tf)
{
	cJSON_Delete(tf->holdings);
	tf->holdings = NULL;
}

/* Runs the check; the run itself must succeed. */
static inline void
tf_run(struct trade_fixture *tf)
{
	const cJSON *securities;

	assert_false(tf->ran);
	memset(&tf->input, 0, sizeof tf->input);
	tf->input.packet = tf->packet;
	tf->input.action = cJSON_GetObjectItemCaseSensitive(tf->packet,
	    "proposed_action");
	tf->input.ips = tf->ips;
	tf->input.holdings = tf->holdings;
	securities = cJSON_GetObjectItemCaseSensitive(tf->map, "securities");
	tf->input.securities = cJSON_IsObject(securities) ? securities :
	    tf->map;
	tf->input.now_ms = TF_NOW_MS;
	if (check_run(&tf->input, &tf->outcome, &tf->err) != 0)
		fail_msg("check_run failed: %s: %s", tf->err.field,
		    tf->err.message);
	tf->ran = true;
}

static inline void
tf_free(struct trade_fixture *tf)
{
	if (tf->ran)
		check_outcome_free(&tf->outcome);
	cJSON_Delete(tf->packet);
	cJSON_Delete(tf->ips);
	cJSON_Delete(tf->holdings);
	cJSON_Delete(tf->map);
	memset(tf, 0, sizeof *tf);
}

static inline const struct verdict *
tf_verdict(const struct trade_fixture *tf)
{
	assert_true(tf->ran);
	return &tf->outcome.verdict;
}

/* The local result of rule_id; the test fails when it is missing. */
static inline const struct rule_result *
tf_rule(const struct trade_fixture *tf, const char *rule_id)
{
	const struct rule_result *r = verdict_rule(tf_verdict(tf), rule_id);

	if (r == NULL)
		fail_msg("local verdict lacks rule %s", rule_id);
	return r;
}

static inline bool
tf_passed(const struct trade_fixture *tf, const char *rule_id)
{
	return tf_rule(tf, rule_id)->passed;
}

/* A failing rule with a non-empty detail. */
static inline void
tf_assert_fails(const struct trade_fixture *tf, const char *rule_id)
{
	const struct rule_result *r = tf_rule(tf, rule_id);

	if (r->passed)
		fail_msg("rule %s passed, expected a failure", rule_id);
	assert_non_null(r->detail);
	assert_true(r->detail[0] != '\0');
}

static inline void
tf_assert_passes(const struct trade_fixture *tf, const char *rule_id)
{
	const struct rule_result *r = tf_rule(tf, rule_id);

	if (!r->passed)
		fail_msg("rule %s failed (%s), expected a pass", rule_id,
		    r->detail ? r->detail : "no detail");
}

/* Does the detail of rule_id mention needle (case-sensitive)? */
static inline bool
tf_detail_has(const struct trade_fixture *tf, const char *rule_id,
    const char *needle)
{
	const struct rule_result *r = tf_rule(tf, rule_id);

	return r->detail != NULL && strstr(r->detail, needle) != NULL;
}

static inline const cJSON *
tf_divergence(const struct trade_fixture *tf)
{
	assert_true(tf->ran);
	assert_true(cJSON_IsArray(tf->outcome.divergence));
	return tf->outcome.divergence;
}

static inline int
tf_divergence_count(const struct trade_fixture *tf)
{
	return cJSON_GetArraySize(tf_divergence(tf));
}

/* The `what` of divergence entry i. */
static inline const char *
tf_divergence_what(const struct trade_fixture *tf, int i)
{
	const cJSON *entry = cJSON_GetArrayItem(tf_divergence(tf), i);
	const cJSON *what = cJSON_GetObjectItemCaseSensitive(entry, "what");

	assert_true(cJSON_IsString(what));
	return what->valuestring;
}

/* The divergence entry about `what`, or NULL. */
static inline const cJSON *
tf_divergence_find(const struct trade_fixture *tf, const char *what)
{
	const cJSON *entry, *item;

	cJSON_ArrayForEach(entry, tf_divergence(tf)) {
		item = cJSON_GetObjectItemCaseSensitive(entry, "what");
		if (cJSON_IsString(item) && strcmp(item->valuestring, what) == 0)
			return entry;
	}
	return NULL;
}

/* The local_verdict JSON (SPEC 3); the caller deletes it. */
static inline cJSON *
tf_verdict_json(const struct trade_fixture *tf)
{
	cJSON *json = verdict_to_json(tf_verdict(tf));

	assert_non_null(json);
	return json;
}

/* The whole SPEC 3 line; the caller deletes it. */
static inline cJSON *
tf_outcome_json(const struct trade_fixture *tf)
{
	cJSON *json;

	assert_true(tf->ran);
	json = check_outcome_json(&tf->outcome);
	assert_non_null(json);
	return json;
}

#endif
