/* The unit tests' support library: trade checks (trade_fixture.h). */
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
#include "trade_fixture.h"

void
tf_setup(struct trade_fixture *tf, const char *packet, const char *ips,
    const char *holdings, const char *map)
{
	memset(tf, 0, sizeof *tf);
	tf->packet = ex_parse(packet);
	tf->ips = ex_parse(ips);
	tf->holdings = ex_parse(holdings);
	tf->map = ex_parse(map);
}

void
tf_setup_pass(struct trade_fixture *tf)
{
	tf_setup(tf, EX_PACKET_PASS_JSON, EX_IPS_JSON, EX_HOLDINGS_JSON,
	    EX_SECURITY_MAP_JSON);
}

void
tf_setup_divergent(struct trade_fixture *tf)
{
	tf_setup(tf, EX_PACKET_DIVERGENT_JSON, EX_IPS_JSON, EX_HOLDINGS_JSON,
	    EX_SECURITY_MAP_JSON);
}

cJSON *
tf_action(struct trade_fixture *tf)
{
	cJSON *action = cJSON_GetObjectItemCaseSensitive(tf->packet,
	    "proposed_action");

	assert_non_null(action);
	return action;
}

void
tf_set_action(struct trade_fixture *tf, const char *path, const char *json)
{
	ex_set(tf_action(tf), path, json);
}

void
tf_set_ips(struct trade_fixture *tf, const char *path, const char *json)
{
	ex_set(tf->ips, path, json);
}

void
tf_set_holdings(struct trade_fixture *tf, const char *path, const char *json)
{
	ex_set(tf->holdings, path, json);
}

void
tf_set_advisory(struct trade_fixture *tf, const char *path, const char *json)
{
	ex_set(cJSON_GetObjectItemCaseSensitive(tf->packet, "reviewer_verdict"),
	    path, json);
}

void
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

void
tf_holdings(struct trade_fixture *tf, const char *cash, const char *positions)
{
	char json[1024];

	snprintf(json, sizeof json, "{\"type\": \"holdings\", "
	    "\"user_id\": \"u-1001\", \"snapshot_id\": \"h-test\", "
	    "\"as_of\": \"2026-11-28T21:00:00Z\", \"cash_usd\": %s, "
	    "\"positions\": %s}", cash, positions);
	cJSON_Delete(tf->holdings);
	tf->holdings = ex_parse(json);
}

void
tf_drop_ips(struct trade_fixture *tf)
{
	cJSON_Delete(tf->ips);
	tf->ips = NULL;
}

void
tf_drop_holdings(struct trade_fixture *tf)
{
	cJSON_Delete(tf->holdings);
	tf->holdings = NULL;
}

void
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
	tf->input.now_ms = EX_NOW_MS;
	if (check_run(&tf->input, &tf->outcome, &tf->err) != 0)
		fail_msg("check_run failed: %s: %s", tf->err.field,
		    tf->err.message);
	tf->ran = true;
}

void
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

const struct verdict *
tf_verdict(const struct trade_fixture *tf)
{
	assert_true(tf->ran);
	return &tf->outcome.verdict;
}

const struct rule_result *
tf_rule(const struct trade_fixture *tf, const char *rule_id)
{
	const struct rule_result *r = verdict_rule(tf_verdict(tf), rule_id);

	if (r == NULL)
		fail_msg("local verdict lacks rule %s", rule_id);
	return r;
}

bool
tf_passed(const struct trade_fixture *tf, const char *rule_id)
{
	return tf_rule(tf, rule_id)->passed;
}

void
tf_assert_fails(const struct trade_fixture *tf, const char *rule_id)
{
	const struct rule_result *r = tf_rule(tf, rule_id);

	if (r->passed)
		fail_msg("rule %s passed, expected a failure", rule_id);
	assert_non_null(r->detail);
	assert_true(r->detail[0] != '\0');
}

void
tf_assert_passes(const struct trade_fixture *tf, const char *rule_id)
{
	const struct rule_result *r = tf_rule(tf, rule_id);

	if (!r->passed)
		fail_msg("rule %s failed (%s), expected a pass", rule_id,
		    r->detail ? r->detail : "no detail");
}

bool
tf_detail_has(const struct trade_fixture *tf, const char *rule_id,
    const char *needle)
{
	const struct rule_result *r = tf_rule(tf, rule_id);

	return r->detail != NULL && strstr(r->detail, needle) != NULL;
}

const cJSON *
tf_divergence(const struct trade_fixture *tf)
{
	assert_true(tf->ran);
	assert_true(cJSON_IsArray(tf->outcome.divergence));
	return tf->outcome.divergence;
}

int
tf_divergence_count(const struct trade_fixture *tf)
{
	return cJSON_GetArraySize(tf_divergence(tf));
}

const char *
tf_divergence_what(const struct trade_fixture *tf, int i)
{
	const cJSON *entry = cJSON_GetArrayItem(tf_divergence(tf), i);
	const cJSON *what = cJSON_GetObjectItemCaseSensitive(entry, "what");

	assert_true(cJSON_IsString(what));
	return what->valuestring;
}

const cJSON *
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

cJSON *
tf_verdict_json(const struct trade_fixture *tf)
{
	cJSON *json = verdict_to_json(tf_verdict(tf));

	assert_non_null(json);
	return json;
}

cJSON *
tf_outcome_json(const struct trade_fixture *tf)
{
	cJSON *json;
	char *text;

	assert_true(tf->ran);
	text = check_outcome_text(&tf->outcome);
	assert_non_null(text);
	json = cJSON_Parse(text);
	free(text);
	assert_non_null(json);
	return json;
}

int
setup_pass(void **state)
{
	struct trade_fixture *tf = calloc(1, sizeof *tf);

	if (tf == NULL)
		return -1;
	tf_setup_pass(tf);
	*state = tf;
	return 0;
}

int
setup_divergent(void **state)
{
	struct trade_fixture *tf = calloc(1, sizeof *tf);

	if (tf == NULL)
		return -1;
	tf_setup_divergent(tf);
	*state = tf;
	return 0;
}

int
teardown(void **state)
{
	struct trade_fixture *tf = *state;

	tf_free(tf);
	free(tf);
	return 0;
}
