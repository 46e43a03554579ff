/*
 * Unit tests for the trade rule pack (SPEC 2.1) and the local verdict it
 * produces (SPEC 3): each rule's pass, fail and fail-closed cases, exact
 * limit and band edges, case-insensitive names, high-stakes triggers and
 * the local_verdict JSON shape.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rule_pack.h"
#include "timestamp.h"
#include "verdict.h"

#include "detail.h"
#include "trade_fixture.h"

#define EXCLUDED_TICKER "excluded_ticker"
#define EXCLUDED_SECTOR "excluded_sector"
#define CONCENTRATION "concentration_limit"
#define BAND "allocation_band_direction"
#define IPS_CURRENT "ips_version_current"

static const char *const spec_order[] = {
	EXCLUDED_TICKER, EXCLUDED_SECTOR, CONCENTRATION, BAND, IPS_CURRENT
};


/* Every failing rule of the verdict says why. */
static void
assert_failures_explained(const struct trade_fixture *tf)
{
	const struct verdict *v = tf_verdict(tf);
	size_t i;

	for (i = 0; i < v->rule_count; i++) {
		if (v->rules[i].passed)
			continue;
		assert_non_null(v->rules[i].detail);
		assert_true(strlen(v->rules[i].detail) > 0);
	}
}

static void
assert_reasons(const struct trade_fixture *tf, bool required, size_t count)
{
	const struct verdict *v = tf_verdict(tf);
	size_t i;

	assert_int_equal(v->requires_human_approval, required);
	assert_int_equal(v->reason_count, count);
	for (i = 0; i < v->reason_count; i++) {
		assert_non_null(v->high_stakes_reasons[i].code);
		assert_non_null(v->high_stakes_reasons[i].detail);
		assert_true(strlen(v->high_stakes_reasons[i].detail) > 0);
	}
}

/*
 * The codes of the high-stakes reasons, in order, space-separated: what
 * a test names beside the trigger it is about (SPEC 2.1 v3: a buy beyond
 * the cash, a ticker with no reference price).
 */
static void
assert_codes(const struct trade_fixture *tf, const char *codes)
{
	const struct verdict *v = tf_verdict(tf);
	char got[512] = "";
	size_t i;

	for (i = 0; i < v->reason_count; i++) {
		if (i > 0)
			strncat(got, " ", sizeof got - strlen(got) - 1);
		strncat(got, v->high_stakes_reasons[i].code,
		    sizeof got - strlen(got) - 1);
		assert_true(strlen(v->high_stakes_reasons[i].detail) > 0);
	}
	assert_string_equal(got, codes);
	assert_int_equal(v->requires_human_approval, codes[0] != '\0');
}

/* ---- the examples and the verdict's structure -------------------------- */

static void
test_pass_example_all_rules_pass(void **state)
{
	struct trade_fixture *tf = TF(state);
	size_t i;

	tf_run(tf);
	for (i = 0; i < 5; i++)
		tf_assert_passes(tf, spec_order[i]);
	assert_true(tf_verdict(tf)->overall_pass);
}

static void
test_rule_order_is_spec_order(void **state)
{
	struct trade_fixture *tf = TF(state);
	const struct verdict *v;
	size_t i;

	tf_run(tf);
	v = tf_verdict(tf);
	assert_int_equal(v->rule_count, 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(v->rules[i].rule_id, spec_order[i]);
}

static void
test_rule_order_is_spec_order_without_inputs(void **state)
{
	struct trade_fixture *tf = TF(state);
	const struct verdict *v;
	size_t i;

	tf_drop_ips(tf);
	tf_drop_holdings(tf);
	tf_run(tf);
	v = tf_verdict(tf);
	assert_int_equal(v->rule_count, 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(v->rules[i].rule_id, spec_order[i]);
}

static void
test_divergent_example_rule_results(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_TICKER);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
	tf_assert_passes(tf, CONCENTRATION);
	tf_assert_fails(tf, BAND);
	tf_assert_fails(tf, IPS_CURRENT);
	assert_false(tf_verdict(tf)->overall_pass);
}

static void
test_overall_pass_is_and_of_rules(void **state)
{
	struct trade_fixture *tf = TF(state);
	const struct verdict *v;
	bool all = true;
	size_t i;

	/* Only one rule fails: the ticker is excluded. */
	tf_set_ips(tf, "constraints.excluded_tickers", "[\"BND\"]");
	tf_run(tf);
	v = tf_verdict(tf);
	for (i = 0; i < v->rule_count; i++)
		all = all && v->rules[i].passed;
	assert_false(all);
	assert_false(v->overall_pass);
	tf_assert_fails(tf, EXCLUDED_TICKER);
	tf_assert_passes(tf, EXCLUDED_SECTOR);
	tf_assert_passes(tf, CONCENTRATION);
	tf_assert_passes(tf, BAND);
	tf_assert_passes(tf, IPS_CURRENT);
}

static void
test_failing_rules_have_detail_divergent(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_failures_explained(tf);
}

static void
test_failing_rules_have_detail_without_inputs(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_drop_holdings(tf);
	tf_trade(tf, "ZZZZ", "buy", "1000");
	tf_run(tf);
	assert_false(tf_verdict(tf)->overall_pass);
	assert_failures_explained(tf);
}

static void
test_failing_rules_have_detail_in_json(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *json, *rules, *rule, *passed, *detail;
	int failing = 0;

	tf_run(tf);
	json = tf_verdict_json(tf);
	rules = cJSON_GetObjectItemCaseSensitive(json, "rule_results");
	assert_int_equal(cJSON_GetArraySize(rules), 5);
	cJSON_ArrayForEach(rule, rules) {
		passed = cJSON_GetObjectItemCaseSensitive(rule, "passed");
		detail = cJSON_GetObjectItemCaseSensitive(rule, "detail");
		assert_true(cJSON_IsBool(passed));
		assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rule,
		    "rule_id")));
		assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rule,
		    "description")));
		if (cJSON_IsTrue(passed))
			continue;
		failing++;
		assert_true(cJSON_IsString(detail));
		assert_true(strlen(detail->valuestring) > 0);
	}
	assert_int_equal(failing, 3);
	cJSON_Delete(json);
}

/* ---- rule 1: excluded_ticker ------------------------------------------- */

static void
test_excluded_ticker_passes_for_other_ticker(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_TICKER);
}

static void
test_excluded_ticker_fails_for_listed_ticker(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "XOM", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_TICKER);
	assert_true(tf_detail_has(tf, EXCLUDED_TICKER, "XOM"));
}

static void
test_excluded_ticker_fails_for_sell_too(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "XOM", "sell", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_TICKER);
}

static void
test_excluded_ticker_list_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.excluded_tickers", "[\"xom\"]");
	tf_trade(tf, "XOM", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_TICKER);
}

static void
test_excluded_ticker_packet_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "xOm", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_TICKER);
}

static void
test_excluded_ticker_absent_list_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.excluded_tickers", NULL);
	tf_trade(tf, "XOM", "buy", "1000");
	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_TICKER);
}

static void
test_excluded_ticker_no_ips_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_TICKER);
}

/* ---- rule 2: excluded_sector ------------------------------------------- */

static void
test_excluded_sector_passes_for_other_sector(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_SECTOR);
}

static void
test_excluded_sector_fails_for_listed_sector(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "MO", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
	assert_true(tf_detail_has(tf, EXCLUDED_SECTOR, "Tobacco"));
}

static void
test_excluded_sector_ticker_lookup_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "mo", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
	/* Found in the map, so not the "unknown sector" failure. */
	assert_true(tf_detail_has(tf, EXCLUDED_SECTOR, "Tobacco"));
}

static void
test_excluded_sector_list_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.excluded_sectors", "[\"tOBACCO\"]");
	tf_trade(tf, "MO", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
}

static void
test_excluded_sector_unknown_ticker_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "ZZZZ", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
	assert_true(tf_detail_has(tf, EXCLUDED_SECTOR, "ZZZZ"));
}

static void
test_excluded_sector_unknown_ticker_absent_list_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.excluded_sectors", NULL);
	tf_trade(tf, "ZZZZ", "buy", "1000");
	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_SECTOR);
}

static void
test_excluded_sector_unknown_ticker_empty_list_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.excluded_sectors", "[]");
	tf_trade(tf, "ZZZZ", "buy", "1000");
	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_SECTOR);
}

static void
test_excluded_sector_no_security_map_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	cJSON_Delete(tf->map);
	tf->map = NULL;
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
}

static void
test_excluded_sector_no_ips_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
}

/* ---- rule 3: concentration_limit --------------------------------------- */

static void
test_concentration_passes_under_limit(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* (105000 + 7500) / 600000 = 18.75% <= 25% */
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_fails_over_limit(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* (300000 + 1000) / 600000 = 50.17% > 25% */
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_exactly_at_limit_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* (0 + 150000) x 100 == 25 x 600000 */
	tf_trade(tf, "SGOV", "buy", "150000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_one_cent_over_limit_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "SGOV", "buy", "150000.01");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_counts_held_value_at_limit(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* (105000 + 45000) x 100 == 25 x 600000 */
	tf_trade(tf, "BND", "buy", "45000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_counts_held_value_over_limit(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "BND", "buy", "45000.01");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_held_ticker_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* Held as "bnd": 45000.01 only fails when the 105000 held counts. */
	tf_set_holdings(tf, "positions.3.ticker", "\"bnd\"");
	tf_trade(tf, "BND", "buy", "45000.01");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_decimal_sum_exactly_at_limit_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* (0.1 + 0.2) x 100 == 75 x (0.3 + 0.1): doubles say 30.000000000000004 > 30 */
	tf_holdings(tf, "0.3",
	    "[{\"ticker\": \"BND\", \"market_value_usd\": 0.1}]");
	tf_set_ips(tf, "constraints.concentration_limit_percent", "75");
	tf_trade(tf, "BND", "buy", "0.2");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_decimal_sum_over_limit_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0.3",
	    "[{\"ticker\": \"BND\", \"market_value_usd\": 0.1}]");
	tf_set_ips(tf, "constraints.concentration_limit_percent", "75");
	tf_trade(tf, "BND", "buy", "0.2000001");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

/*
 * A limit written as 100/3 prints as 33.333333333333336: 1 x 100 is below
 * 33.333333333333336 x 3, so the buy is within it.  Rounding the limit to
 * nine decimals (33.333333333) once failed it.
 */
static void
test_concentration_limit_with_seventeen_digits_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "3", "[]");
	tf_set_ips(tf, "constraints.concentration_limit_percent",
	    "33.333333333333336");
	tf_trade(tf, "BND", "buy", "1");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

/* The same limit, and a buy 10^-15 over it. */
static void
test_concentration_limit_with_seventeen_digits_fails_above(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "3", "[]");
	tf_set_ips(tf, "constraints.concentration_limit_percent",
	    "33.333333333333336");
	tf_trade(tf, "BND", "buy", "1.000000000000001");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_sell_always_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* VTI is already 50% of the portfolio, twice the limit. */
	tf_trade(tf, "VTI", "sell", "1000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_sell_without_ips_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_trade(tf, "VTI", "sell", "1000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_sell_without_holdings_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_trade(tf, "VTI", "sell", "1000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_sell_with_zero_total_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0", "[]");
	tf_trade(tf, "VTI", "sell", "1000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_buy_without_ips_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_buy_without_holdings_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

static void
test_concentration_no_limit_passes_without_holdings(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.concentration_limit_percent", NULL);
	tf_drop_holdings(tf);
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_no_limit_passes_for_large_buy(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.concentration_limit_percent", NULL);
	tf_trade(tf, "VTI", "buy", "900000");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
}

static void
test_concentration_zero_total_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0", "[]");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
}

/* ---- rule 4: allocation_band_direction --------------------------------- */

static void
test_band_buy_below_min_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* fixed_income 105000 / 600000 = 17.5%, band 20-30 */
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_buy_above_max_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* us_equity (300000 + 45000) / 600000 = 57.5%, band 45-55 */
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_true(tf_detail_has(tf, BAND, "us_equity"));
}

static void
test_band_buy_exactly_at_max_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "target_allocation.us_equity.max_percent", "57.5");
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_buy_just_above_max_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "target_allocation.us_equity.max_percent", "57.49");
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_sell_exactly_at_min_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "target_allocation.fixed_income.min_percent", "17.5");
	tf_trade(tf, "BND", "sell", "1000");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_sell_below_min_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* fixed_income 17.5% < 20% */
	tf_trade(tf, "BND", "sell", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_true(tf_detail_has(tf, BAND, "fixed_income"));
}

static void
test_band_sell_above_max_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* us_equity 57.5% > 55%: selling moves it toward the band. */
	tf_trade(tf, "VTI", "sell", "1000");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_counts_every_position_of_the_class(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* AAPL (45000) is us_equity too: 300000 alone is 50%, with it 57.5%. */
	tf_set_ips(tf, "target_allocation.us_equity.max_percent", "57.4");
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_position_lookup_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* "vti" still maps to us_equity, keeping it at 57.5% > 55%. */
	tf_set_holdings(tf, "positions.0.ticker", "\"vti\"");
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

/*
 * Hundreds of positions, listed in another order than the map's and one
 * of them not in the map: each still counts in its own class.
 */
static void
test_band_sums_many_positions_in_any_order(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *positions, *position, *securities, *entry;
	char ticker[16];
	int i;

	tf_holdings(tf, "0", "[]");
	positions = cJSON_GetObjectItemCaseSensitive(tf->holdings, "positions");
	securities = cJSON_GetObjectItemCaseSensitive(tf->map, "securities");
	for (i = 0; i < 200; i++) {
		snprintf(ticker, sizeof ticker, "P%d", i);
		position = cJSON_CreateObject();
		cJSON_AddStringToObject(position, "ticker", ticker);
		cJSON_AddNumberToObject(position, "quantity", 1);
		cJSON_AddNumberToObject(position, "market_value_usd", 1000);
		cJSON_AddItemToArray(positions, position);
		/* The map from the last ticker to the first. */
		snprintf(ticker, sizeof ticker, "P%d", 199 - i);
		entry = cJSON_AddObjectToObject(securities, ticker);
		cJSON_AddStringToObject(entry, "sector", "Other");
		cJSON_AddStringToObject(entry, "asset_class",
		    (199 - i) % 2 ? "fixed_income" : "us_equity");
	}
	position = cJSON_CreateObject();
	cJSON_AddStringToObject(position, "ticker", "NOPE");
	cJSON_AddNumberToObject(position, "quantity", 1);
	cJSON_AddNumberToObject(position, "market_value_usd", 1000);
	cJSON_AddItemToArray(positions, position);
	/* fixed_income: the 100 odd positions, 100,000 of 201,000. */
	tf_trade(tf, "p1", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_true(tf_detail_has(tf, BAND, "fixed_income is 49.75%"));
	/* P1 itself: (1,000 + 1,000) / 201,000, 0.995%. */
	tf_assert_passes(tf, CONCENTRATION);
	assert_true(tf_detail_has(tf, CONCENTRATION, "1% after the trade"));
}

static void
test_band_ticker_lookup_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "vti", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_true(tf_detail_has(tf, BAND, "us_equity"));
}

static void
test_band_asset_class_name_ignores_case(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* The map names the class "FIXED_INCOME"; the IPS band is fixed_income. */
	ex_set(tf->map, "securities.BND.asset_class", "\"FIXED_INCOME\"");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_cash_class_counts_cash_usd_over_max(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* No SGOV held: cash is 20000 / 600000 = 3.33% > 3 from cash_usd alone. */
	tf_set_ips(tf, "target_allocation.cash.max_percent", "3");
	tf_trade(tf, "SGOV", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_cash_class_within_max_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "target_allocation.cash.max_percent", "3.34");
	tf_trade(tf, "SGOV", "buy", "1000");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_decimal_buy_exactly_at_max_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* cash (0.1 + 0.2) x 100 == 75 x 0.4: doubles say above. */
	tf_holdings(tf, "0.1",
	    "[{\"ticker\": \"SGOV\", \"market_value_usd\": 0.2},"
	    " {\"ticker\": \"VTI\", \"market_value_usd\": 0.1}]");
	tf_set_ips(tf, "target_allocation.cash.max_percent", "75");
	tf_trade(tf, "SGOV", "buy", "0.01");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_decimal_buy_just_above_max_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0.1",
	    "[{\"ticker\": \"SGOV\", \"market_value_usd\": 0.2},"
	    " {\"ticker\": \"VTI\", \"market_value_usd\": 0.1}]");
	tf_set_ips(tf, "target_allocation.cash.max_percent", "74.9999");
	tf_trade(tf, "SGOV", "buy", "0.01");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_decimal_sell_exactly_at_min_passes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* cash (0.3 + 0.6) x 100 == 75 x 1.2: doubles say below. */
	tf_holdings(tf, "0.3",
	    "[{\"ticker\": \"SGOV\", \"market_value_usd\": 0.6},"
	    " {\"ticker\": \"VTI\", \"market_value_usd\": 0.3}]");
	tf_set_ips(tf, "target_allocation.cash.min_percent", "75");
	tf_set_ips(tf, "target_allocation.cash.max_percent", "80");
	tf_trade(tf, "SGOV", "sell", "0.01");
	tf_run(tf);
	tf_assert_passes(tf, BAND);
}

static void
test_band_decimal_sell_just_below_min_fails(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0.3",
	    "[{\"ticker\": \"SGOV\", \"market_value_usd\": 0.6},"
	    " {\"ticker\": \"VTI\", \"market_value_usd\": 0.3}]");
	tf_set_ips(tf, "target_allocation.cash.min_percent", "75.0001");
	tf_set_ips(tf, "target_allocation.cash.max_percent", "80");
	tf_trade(tf, "SGOV", "sell", "0.01");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_unknown_ticker_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "ZZZZ", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_true(tf_detail_has(tf, BAND, "ZZZZ"));
}

static void
test_band_unknown_ticker_sell_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "ZZZZ", "sell", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_class_absent_from_ips_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	ex_set(tf->map, "securities.BTC",
	    "{\"sector\": \"Digital Assets\", \"asset_class\": \"crypto\"}");
	tf_trade(tf, "BTC", "buy", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_true(tf_detail_has(tf, BAND, "crypto"));
}

static void
test_band_no_holdings_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_no_holdings_sell_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_trade(tf, "BND", "sell", "1000");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_zero_total_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0", "[]");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

static void
test_band_no_ips_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_run(tf);
	tf_assert_fails(tf, BAND);
}

/* ---- rule 5: ips_version_current --------------------------------------- */

static void
test_ips_current_passes_for_active_version(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	tf_assert_passes(tf, IPS_CURRENT);
}

static void
test_ips_current_fails_for_older_version(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "ips_version_referenced.version", "2");
	tf_run(tf);
	tf_assert_fails(tf, IPS_CURRENT);
}

static void
test_ips_current_fails_for_newer_active_ips(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "version", "4");
	tf_run(tf);
	tf_assert_fails(tf, IPS_CURRENT);
}

static void
test_ips_current_fails_for_other_ips_id(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "ips_version_referenced.ips_id", "\"ips-0000\"");
	tf_run(tf);
	tf_assert_fails(tf, IPS_CURRENT);
}

static void
test_ips_current_no_ips_fails_closed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_run(tf);
	tf_assert_fails(tf, IPS_CURRENT);
}

/* ---- no IPS at all ----------------------------------------------------- */

static void
test_no_ips_buy_fails_every_rule(void **state)
{
	struct trade_fixture *tf = TF(state);
	size_t i;

	tf_drop_ips(tf);
	tf_run(tf);
	for (i = 0; i < 5; i++)
		tf_assert_fails(tf, spec_order[i]);
	assert_false(tf_verdict(tf)->overall_pass);
	assert_true(tf_verdict(tf)->requires_human_approval);
}

static void
test_no_ips_sell_fails_all_but_concentration(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_ips(tf);
	tf_trade(tf, "BND", "sell", "1000");
	tf_run(tf);
	tf_assert_fails(tf, EXCLUDED_TICKER);
	tf_assert_fails(tf, EXCLUDED_SECTOR);
	tf_assert_passes(tf, CONCENTRATION);
	tf_assert_fails(tf, BAND);
	tf_assert_fails(tf, IPS_CURRENT);
}

/* ---- -0, which the loaders accept as 0 (SPEC 1: ">= 0") ---------------- */

/* No rule detail or reason shows a figure as "-0", or says it is unreadable. */
static void
assert_no_negative_zero(const struct trade_fixture *tf)
{
	const struct verdict *v = tf_verdict(tf);
	size_t i;

	for (i = 0; i < v->rule_count; i++) {
		if (v->rules[i].detail == NULL)
			continue;
		if (strstr(v->rules[i].detail, " -0") != NULL ||
		    strstr(v->rules[i].detail, "$-0") != NULL)
			fail_msg("%s: %s", v->rules[i].rule_id,
			    v->rules[i].detail);
		assert_null(strstr(v->rules[i].detail, "could not be read"));
	}
	for (i = 0; i < v->reason_count; i++) {
		if (strstr(v->high_stakes_reasons[i].detail, " -0") != NULL ||
		    strstr(v->high_stakes_reasons[i].detail, "$-0") != NULL)
			fail_msg("reason: %s", v->high_stakes_reasons[i].detail);
	}
}

static void
test_negative_zero_money_reads_as_zero(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* The pass example with no cash: (105000 + 7500) / 580000 = 19.4% */
	tf_set_holdings(tf, "cash_usd", "-0");
	tf_set_holdings(tf, "positions.1.market_value_usd", "-0.0");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
	tf_assert_passes(tf, BAND);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_no_negative_zero(tf);
}

static void
test_negative_zero_limits_read_as_zero(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* A limit of 0%: any buy is above it, decided, not unreadable. */
	tf_set_ips(tf, "constraints.concentration_limit_percent", "-0");
	tf_set_ips(tf, "target_allocation.fixed_income.max_percent", "-0E0");
	tf_set_ips(tf, "target_allocation.fixed_income.min_percent", "0");
	tf_set_ips(tf, "approval_required_above_usd", "-0");
	tf_set_ips(tf, "approval_required_above_percent", "-0.0");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
	assert_true(tf_detail_has(tf, CONCENTRATION, "above the 0"));
	tf_assert_fails(tf, BAND);
	/* Both thresholds of 0 are exceeded, beside the failing rules. */
	assert_reasons(tf, true, 3);
	assert_no_negative_zero(tf);
}

/* ---- requires_human_approval and high_stakes_reasons ------------------- */

static void
test_stakes_pass_example_needs_no_human(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_run(tf);
	assert_reasons(tf, false, 0);
}

static void
test_stakes_failing_rules_only(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "constraints.excluded_tickers", "[\"BND\"]");
	tf_run(tf);
	assert_false(tf_verdict(tf)->overall_pass);
	assert_reasons(tf, true, 1);
	assert_string_equal(tf_verdict(tf)->high_stakes_reasons[0].code,
	    "failed_rules");
	assert_non_null(strstr(tf_verdict(tf)->high_stakes_reasons[0].detail,
	    EXCLUDED_TICKER));
}

/* ---- percentages in details never contradict the verdict ---- */

/* The rule's detail for rule_id is exactly want. */
static void
assert_detail_is(const struct trade_fixture *tf, const char *rule_id,
    const char *want)
{
	const struct rule_result *r = verdict_rule(tf_verdict(tf), rule_id);

	assert_non_null(r);
	assert_non_null(r->detail);
	assert_string_equal(r->detail, want);
}

static void
test_detail_shows_a_share_just_over_the_limit(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 7.0000001 of 100: over a 7% limit, by a hair. */
	tf_set_ips(tf, "constraints.concentration_limit_percent", "7");
	tf_holdings(tf, "100", "[]");
	tf_trade(tf, "VTI", "buy", "7.0000001");
	tf_run(tf);
	tf_assert_fails(tf, CONCENTRATION);
	assert_detail_is(tf, CONCENTRATION, "VTI would be 7.0000001% of the "
	    "portfolio after the trade, above the 7% limit");
}

static void
test_detail_keeps_two_decimals_when_they_suffice(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* (300000 + 1000) / 600000 = 50.1666...% > 25% */
	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	assert_detail_is(tf, CONCENTRATION, "VTI would be 50.17% of the "
	    "portfolio after the trade, above the 25% limit");
	tf_free(tf);
	tf_setup_pass(tf);
	/* Exactly at the limit: equal, and printed equal. */
	tf_set_ips(tf, "constraints.concentration_limit_percent", "7");
	tf_holdings(tf, "100", "[]");
	tf_trade(tf, "VTI", "buy", "7");
	tf_run(tf);
	tf_assert_passes(tf, CONCENTRATION);
	assert_detail_is(tf, CONCENTRATION, "7% after the trade, limit 7%");
}

static void
test_detail_shows_a_class_just_under_its_band(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* cash 39.99 + SGOV 10 = 49.99 of 1000: 4.999%, under a 5% minimum. */
	tf_set_ips(tf, "target_allocation.cash.min_percent", "5");
	tf_holdings(tf, "39.99", "[{\"ticker\": \"VTI\", \"market_value_usd\": "
	    "650.01}, {\"ticker\": \"SGOV\", \"market_value_usd\": 10}, "
	    "{\"ticker\": \"BND\", \"market_value_usd\": 300}]");
	tf_trade(tf, "SGOV", "sell", "1");
	tf_run(tf);
	tf_assert_fails(tf, BAND);
	assert_detail_is(tf, BAND, "cash is 4.999%, below its 5%-10% band; a "
	    "sell moves it further away");
}

static void
test_stakes_reason_shows_a_share_just_over_the_threshold(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 30000.01 / 600000 = 5.0000016...% > 5% */
	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_action(tf, "estimated_value_usd", "30000.01");
	/* 400 units: a price within 20% of the held $75 (no price_deviation). */
	tf_set_action(tf, "quantity", "400");
	tf_run(tf);
	assert_codes(tf, "above_percent exceeds_cash");
	assert_string_equal(tf_verdict(tf)->high_stakes_reasons[0].detail,
	    "5.000002% of portfolio > 5% (approval_required_above_percent)");
}

static void
test_stakes_value_above_usd_threshold(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 25000.01 / 600000 = 4.17% <= 5%; BND ends at 21.67% */
	tf_set_action(tf, "estimated_value_usd", "25000.01");
	/* 400 units: a price within 20% of the held $75 (no price_deviation). */
	tf_set_action(tf, "quantity", "400");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "above_usd exceeds_cash");
}

static void
test_stakes_value_equal_to_usd_threshold_does_not_trigger(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "25000");
	/* 400 units: a price within 20% of the held $75 (no price_deviation). */
	tf_set_action(tf, "quantity", "400");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "exceeds_cash");
}

static void
test_stakes_share_above_percent_threshold(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 30000.01 / 600000 > 5%; no usd threshold */
	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_action(tf, "estimated_value_usd", "30000.01");
	/* 400 units: a price within 20% of the held $75 (no price_deviation). */
	tf_set_action(tf, "quantity", "400");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "above_percent exceeds_cash");
}

static void
test_stakes_share_equal_to_percent_threshold_does_not_trigger(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 30000 x 100 == 5 x 600000 */
	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_action(tf, "estimated_value_usd", "30000");
	/* 400 units: a price within 20% of the held $75 (no price_deviation). */
	tf_set_action(tf, "quantity", "400");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "exceeds_cash");
}

static void
test_stakes_usd_and_percent_both_listed(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "30001");
	/* 400 units: a price within 20% of the held $75 (no price_deviation). */
	tf_set_action(tf, "quantity", "400");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "above_usd above_percent exceeds_cash");
}

static void
test_stakes_all_three_triggers_listed(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* divergent example: rules fail, 31000 > 25000, 5.17% > 5% */
	tf_run(tf);
	assert_false(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "failed_rules above_usd above_percent no_reference_price exceeds_cash");
}

static void
test_stakes_absent_thresholds_never_trigger(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 100000 is 4x the usual usd threshold and 16.7% of the portfolio. */
	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_ips(tf, "approval_required_above_percent", NULL);
	tf_trade(tf, "SGOV", "buy", "100000");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "no_reference_price exceeds_cash");
}

static void
test_stakes_same_trade_with_thresholds_triggers_both(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "SGOV", "buy", "100000");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "above_usd above_percent no_reference_price exceeds_cash");
}

static void
test_stakes_decimal_share_exactly_at_percent_does_not_trigger(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* 0.6 x 100 == 75 x (0.1 + 0.7): doubles say above. */
	tf_holdings(tf, "0.1",
	    "[{\"ticker\": \"VTI\", \"market_value_usd\": 0.7}]");
	tf_set_ips(tf, "constraints.concentration_limit_percent", "75");
	tf_set_ips(tf, "approval_required_above_percent", "75");
	tf_trade(tf, "BND", "buy", "0.6");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "no_reference_price exceeds_cash");
}

static void
test_stakes_decimal_share_just_above_percent_triggers(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "0.1",
	    "[{\"ticker\": \"VTI\", \"market_value_usd\": 0.7}]");
	tf_set_ips(tf, "constraints.concentration_limit_percent", NULL);
	tf_set_ips(tf, "approval_required_above_percent", "75");
	tf_trade(tf, "BND", "buy", "0.6000001");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "above_percent no_reference_price exceeds_cash");
}

static void
test_stakes_in_json_match_verdict(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *line, *reasons, *local;

	tf_run(tf);
	line = tf_outcome_json(tf);
	reasons = cJSON_GetObjectItemCaseSensitive(line, "high_stakes_reasons");
	local = cJSON_GetObjectItemCaseSensitive(line, "local_verdict");
	assert_true(cJSON_IsArray(reasons));
	/* And (v3) no_reference_price and exceeds_cash, after these. */
	assert_int_equal(cJSON_GetArraySize(reasons), 5);
	/* SPEC 3 (v2): {code, detail} objects, in the order of the triggers. */
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(reasons, 0), "code")->valuestring,
	    "failed_rules");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(reasons, 1), "code")->valuestring, "above_usd");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(reasons, 2), "code")->valuestring,
	    "above_percent");
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(reasons, 0), "detail")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(local,
	    "requires_human_approval")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(local,
	    "overall_pass")));
	cJSON_Delete(line);
}

static void
test_stakes_pass_example_json_has_empty_reasons(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *line, *reasons, *local;

	tf_run(tf);
	line = tf_outcome_json(tf);
	reasons = cJSON_GetObjectItemCaseSensitive(line, "high_stakes_reasons");
	local = cJSON_GetObjectItemCaseSensitive(line, "local_verdict");
	assert_true(cJSON_IsArray(reasons));
	assert_int_equal(cJSON_GetArraySize(reasons), 0);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(local,
	    "requires_human_approval")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(local,
	    "overall_pass")));
	cJSON_Delete(line);
}

/* ---- ips_version_checked_against --------------------------------------- */

static void
assert_ips_checked(cJSON *local, const char *ips_id, double version)
{
	cJSON *checked = cJSON_GetObjectItemCaseSensitive(local,
	    "ips_version_checked_against");
	cJSON *id = cJSON_GetObjectItemCaseSensitive(checked, "ips_id");
	cJSON *ver = cJSON_GetObjectItemCaseSensitive(checked, "version");

	assert_true(cJSON_IsObject(checked));
	assert_int_equal(cJSON_GetArraySize(checked), 2);
	assert_true(cJSON_IsString(id));
	assert_string_equal(id->valuestring, ips_id);
	assert_true(cJSON_IsNumber(ver));
	assert_true(ver->valuedouble == version);
}

static void
test_ips_checked_is_active_ips(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local;

	tf_run(tf);
	local = tf_verdict_json(tf);
	assert_ips_checked(local, "ips-7f3a", 3);
	cJSON_Delete(local);
}

static void
test_ips_checked_is_active_not_cited_version(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local;

	/* The divergent packet cites v2; the active IPS is v3. */
	tf_run(tf);
	local = tf_verdict_json(tf);
	assert_ips_checked(local, "ips-7f3a", 3);
	cJSON_Delete(local);
}

static void
test_ips_checked_is_null_without_ips(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local, *checked;

	tf_drop_ips(tf);
	tf_run(tf);
	local = tf_verdict_json(tf);
	checked = cJSON_GetObjectItemCaseSensitive(local,
	    "ips_version_checked_against");
	assert_non_null(checked);
	assert_true(cJSON_IsNull(checked));
	cJSON_Delete(local);
}

/* ---- local_verdict identity fields ------------------------------------- */

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

static void
assert_uuid_v4(const char *id)
{
	size_t i;

	assert_int_equal(strlen(id), 36);
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			assert_int_equal(id[i], '-');
		else
			assert_true(is_hex(id[i]));
	}
	assert_int_equal(id[14], '4');
	assert_non_null(strchr("89abAB", id[19]));
}

static const char *
string_of(cJSON *object, const char *key)
{
	cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	if (!cJSON_IsString(item))
		fail_msg("%s is not a string", key);
	return item->valuestring;
}

static void
test_verdict_id_is_uuid_v4(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local;

	tf_run(tf);
	local = tf_verdict_json(tf);
	assert_uuid_v4(string_of(local, "verdict_id"));
	cJSON_Delete(local);
}

static void
test_verdict_ids_differ_between_runs(void **state)
{
	struct trade_fixture *tf = TF(state);
	struct trade_fixture other;
	char first[37];

	tf_run(tf);
	strcpy(first, tf_verdict(tf)->verdict_id);
	tf_setup_pass(&other);
	tf_run(&other);
	assert_uuid_v4(other.outcome.verdict.verdict_id);
	assert_string_not_equal(first, other.outcome.verdict.verdict_id);
	tf_free(&other);
}

static void
test_verdict_action_id_is_packet_action_id(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local;

	tf_run(tf);
	local = tf_verdict_json(tf);
	assert_string_equal(string_of(local, "action_id"), EX_PASS_ACTION_ID);
	cJSON_Delete(local);
}

static void
test_verdict_skill_is_countersign(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local, *skill;

	tf_run(tf);
	local = tf_verdict_json(tf);
	skill = cJSON_GetObjectItemCaseSensitive(local,
	    "reviewer_skill_version");
	assert_true(cJSON_IsObject(skill));
	assert_string_equal(string_of(skill, "skill_name"), "countersign");
	assert_string_equal(string_of(skill, "skill_version"), PACKAGE_VERSION);
	cJSON_Delete(local);
}

static void
assert_iso8601_utc(const char *text)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t i, len = strlen(text);

	assert_true(len >= sizeof shape);
	for (i = 0; i + 1 < sizeof shape; i++) {
		if (shape[i] == 'd')
			assert_true(isdigit((unsigned char)text[i]));
		else
			assert_int_equal(text[i], shape[i]);
	}
	assert_int_equal(text[len - 1], 'Z');
	if (text[sizeof shape - 1] == '.') {
		for (i = sizeof shape; i < len - 1; i++)
			assert_true(isdigit((unsigned char)text[i]));
	} else {
		assert_int_equal(len, sizeof shape);
	}
}

static void
test_verdict_reviewed_at_is_iso8601_utc(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local;
	long long ms = 0;

	tf_run(tf);
	local = tf_verdict_json(tf);
	assert_iso8601_utc(string_of(local, "reviewed_at"));
	assert_string_equal(string_of(local, "reviewed_at"), EX_NOW_TEXT);
	assert_true(timestamp_parse(string_of(local, "reviewed_at"), &ms));
	assert_true(ms == EX_NOW_MS);
	cJSON_Delete(local);
}

static void
test_verdict_json_has_spec_keys(void **state)
{
	static const char *const keys[] = {
		"verdict_id", "action_id", "ips_version_checked_against",
		"rule_results", "overall_pass", "requires_human_approval",
		"reviewer_skill_version", "reviewed_at"
	};
	struct trade_fixture *tf = TF(state);
	cJSON *local;
	size_t i;

	tf_run(tf);
	local = tf_verdict_json(tf);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (cJSON_GetObjectItemCaseSensitive(local, keys[i]) == NULL)
			fail_msg("local_verdict lacks %s", keys[i]);
	assert_true(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(local,
	    "overall_pass")));
	assert_true(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(local,
	    "requires_human_approval")));
	cJSON_Delete(local);
}

static void
test_verdict_json_rules_in_spec_order(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *local, *rules;
	int i;

	tf_run(tf);
	local = tf_verdict_json(tf);
	rules = cJSON_GetObjectItemCaseSensitive(local, "rule_results");
	assert_int_equal(cJSON_GetArraySize(rules), 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(string_of(cJSON_GetArrayItem(rules, i),
		    "rule_id"), spec_order[i]);
	cJSON_Delete(local);
}

/* ---- (v3) unknown sectors, reference prices, cash ----------------------- */

/* M[ticker] = entry (JSON), replacing the example map's entry. */
static void
set_security(struct trade_fixture *tf, const char *ticker, const char *entry)
{
	cJSON *securities = cJSON_GetObjectItemCaseSensitive(tf->map,
	    "securities");
	cJSON *parsed = cJSON_Parse(entry);

	assert_non_null(parsed);
	cJSON_DeleteItemFromObjectCaseSensitive(securities, ticker);
	cJSON_AddItemToObject(securities, ticker, parsed);
}

static bool
has_reason(const struct trade_fixture *tf, const char *code)
{
	return verdict_reason(tf_verdict(tf), code) != NULL;
}

static const char *
reason_detail(const struct trade_fixture *tf, const char *code)
{
	const struct stakes_reason *reason = verdict_reason(tf_verdict(tf),
	    code);

	assert_non_null(reason);
	return reason->detail;
}

static void
test_sector_unknown_fails_closed(void **state)
{
	static const char *const unknowns[] = { "Unknown", "UNKNOWN",
	    "unknown", " Unknown\t", "", "   " };
	struct trade_fixture *tf = TF(state);
	char entry[128];
	size_t i;

	for (i = 0; i < sizeof unknowns / sizeof unknowns[0]; i++) {
		snprintf(entry, sizeof entry, "{\"sector\": \"%s\", "
		    "\"asset_class\": \"fixed_income\"}", unknowns[i]);
		set_security(tf, "BND", entry);
		tf_run(tf);
		tf_assert_fails(tf, EXCLUDED_SECTOR);
		assert_true(tf_detail_has(tf, EXCLUDED_SECTOR,
		    "so its sector is unknown"));
		assert_false(tf_verdict(tf)->overall_pass);
		tf_free(tf);
		tf_setup_pass(tf);
	}
}

static void
test_sector_naming_unknown_in_a_longer_word_is_a_sector(void **state)
{
	struct trade_fixture *tf = TF(state);

	set_security(tf, "BND", "{\"sector\": \"Unknown Territories Fund\", "
	    "\"asset_class\": \"fixed_income\"}");
	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_SECTOR);
}

static void
test_sector_unknown_passes_when_no_sector_is_excluded(void **state)
{
	struct trade_fixture *tf = TF(state);

	set_security(tf, "BND", "{\"sector\": \"Unknown\", "
	    "\"asset_class\": \"fixed_income\"}");
	tf_set_ips(tf, "constraints.excluded_sectors", "[]");
	tf_run(tf);
	tf_assert_passes(tf, EXCLUDED_SECTOR);
}

static void
test_map_price_confirms_an_unheld_ticker(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* SGOV is not held: 1000 / 100 units = $10 against a map's $10. */
	tf_trade(tf, "SGOV", "buy", "1000");
	set_security(tf, "SGOV", "{\"sector\": \"Treasury Bills\", "
	    "\"asset_class\": \"cash\", \"price_usd\": 10}");
	tf_run(tf);
	assert_codes(tf, "");
}

static void
test_map_price_exactly_20_percent_off_is_not_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* |10 - 12.5| x 5 == 12.5: at the edge, within it. */
	tf_trade(tf, "SGOV", "buy", "1000");
	set_security(tf, "SGOV", "{\"sector\": \"Treasury Bills\", "
	    "\"asset_class\": \"cash\", \"price_usd\": 12.5}");
	tf_run(tf);
	assert_codes(tf, "");
}

static void
test_map_price_far_off_is_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* A million units at $1 each against a map's $100. */
	tf_trade(tf, "SGOV", "buy", "1000000");
	tf_set_action(tf, "quantity", "1000000");
	set_security(tf, "SGOV", "{\"sector\": \"Treasury Bills\", "
	    "\"asset_class\": \"cash\", \"price_usd\": 100}");
	tf_set_holdings(tf, "cash_usd", "2000000");
	tf_run(tf);
	assert_true(has_reason(tf, "price_deviation"));
	assert_false(has_reason(tf, "no_reference_price"));
	assert_non_null(strstr(reason_detail(tf, "price_deviation"),
	    "the packet prices SGOV at $1.00 a unit"));
	assert_non_null(strstr(reason_detail(tf, "price_deviation"),
	    "the security map's price_usd of $100.00"));
}

static void
test_no_reference_price_for_an_unheld_ticker(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* Issue 36: a million units of an unheld ticker priced at $1. */
	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_ips(tf, "approval_required_above_percent", NULL);
	tf_trade(tf, "SGOV", "buy", "1");
	tf_set_action(tf, "quantity", "1000000");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "no_reference_price");
	assert_non_null(strstr(reason_detail(tf, "no_reference_price"),
	    "the packet prices SGOV at $0.000001 a unit"));
	assert_non_null(strstr(reason_detail(tf, "no_reference_price"),
	    "gives it no price_usd"));
}

static void
test_no_reference_price_without_holdings(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_run(tf);
	assert_true(has_reason(tf, "no_reference_price"));
	/* With a map price it is that price that is compared. */
	tf_free(tf);
	tf_setup_pass(tf);
	tf_drop_holdings(tf);
	set_security(tf, "BND", "{\"sector\": \"Government Bonds\", "
	    "\"asset_class\": \"fixed_income\", \"price_usd\": 75}");
	tf_run(tf);
	assert_false(has_reason(tf, "no_reference_price"));
	assert_false(has_reason(tf, "price_deviation"));
}

static void
test_held_price_wins_over_the_map_price(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* BND is held at $75 a unit; a map's $1 does not count. */
	set_security(tf, "BND", "{\"sector\": \"Government Bonds\", "
	    "\"asset_class\": \"fixed_income\", \"price_usd\": 1}");
	tf_run(tf);
	assert_codes(tf, "");
}

static void
test_held_without_quantities_falls_back_to_the_map(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* BND (positions[3]) held with no quantity: not "with quantities". */
	tf_set_holdings(tf, "positions.3.quantity", NULL);
	tf_run(tf);
	assert_codes(tf, "no_reference_price");
	tf_free(tf);
	tf_setup_pass(tf);
	tf_set_holdings(tf, "positions.3.quantity", NULL);
	set_security(tf, "BND", "{\"sector\": \"Government Bonds\", "
	    "\"asset_class\": \"fixed_income\", \"price_usd\": 50}");
	tf_run(tf);
	/* $75 a unit is 50% above the map's $50. */
	assert_codes(tf, "price_deviation");
}

static void
test_buy_up_to_the_cash_is_not_high_stakes(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* The example's cash is $20,000; 266.67 units keep the $75 price. */
	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_ips(tf, "approval_required_above_percent", NULL);
	tf_set_ips(tf, "constraints.concentration_limit_percent", NULL);
	tf_set_action(tf, "quantity", "266.67");
	tf_set_action(tf, "estimated_value_usd", "20000");
	tf_run(tf);
	assert_codes(tf, "");
}

static void
test_buy_beyond_the_cash_exceeds_cash(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_ips(tf, "approval_required_above_percent", NULL);
	tf_set_ips(tf, "constraints.concentration_limit_percent", NULL);
	tf_set_action(tf, "quantity", "266.67");
	tf_set_action(tf, "estimated_value_usd", "20000.01");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_codes(tf, "exceeds_cash");
	assert_string_equal(reason_detail(tf, "exceeds_cash"), "the buy of "
	    "$20,000.01 exceeds the cash of $20,000.00 (cash_usd) by $0.01");
}

static void
test_sell_never_exceeds_cash(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_ips(tf, "approval_required_above_usd", NULL);
	tf_set_ips(tf, "approval_required_above_percent", NULL);
	tf_trade(tf, "BND", "sell", "75000");
	tf_set_action(tf, "quantity", "1000");
	tf_run(tf);
	assert_false(has_reason(tf, "exceeds_cash"));
}

static void
test_exceeds_cash_fails_closed_without_holdings(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_run(tf);
	assert_string_equal(reason_detail(tf, "exceeds_cash"),
	    "no holdings snapshot: the cash for this buy is unknown");
}

/* ---- main -------------------------------------------------------------- */

#define PASS_TEST(f) cmocka_unit_test_setup_teardown(f, setup_pass, teardown)
#define DIV_TEST(f) cmocka_unit_test_setup_teardown(f, setup_divergent, teardown)

/* ---- (v2) the price check: |pp - hp| x 5 > hp --------------------------- */

/* Does the verdict carry the price_deviation reason? */
static bool
has_price_deviation(const struct trade_fixture *tf)
{
	return verdict_reason(tf_verdict(tf), "price_deviation") != NULL;
}

/*
 * The pass example: BND held 1400 for 105000, hp = 75; the packet buys
 * 100.  A value of 9000 is pp = 90, exactly 20% above: no deviation.
 */
static void
test_price_exactly_20_percent_above_is_not_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "9000");
	tf_run(tf);
	assert_false(has_price_deviation(tf));
	assert_false(tf_verdict(tf)->requires_human_approval);
}

static void
test_price_just_over_20_percent_above_is_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);
	const struct stakes_reason *reason;

	tf_set_action(tf, "estimated_value_usd", "9000.01");
	tf_run(tf);
	reason = verdict_reason(tf_verdict(tf), "price_deviation");
	assert_non_null(reason);
	assert_non_null(strstr(reason->detail, "$90.00"));
	assert_non_null(strstr(reason->detail, "$75.00"));
	assert_true(tf_verdict(tf)->requires_human_approval);
	assert_true(tf_verdict(tf)->overall_pass);
}

static void
test_price_exactly_20_percent_below_is_not_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "6000");
	tf_run(tf);
	assert_false(has_price_deviation(tf));
}

static void
test_price_just_under_20_percent_below_is_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "5999.99");
	tf_run(tf);
	assert_true(has_price_deviation(tf));
	assert_reasons(tf, true, 1);
}

/* "BUY VXUS x1000000 $1.00": every rule passes, the price gives it away. */
static void
test_price_of_an_understated_value_is_a_deviation(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "VXUS", "buy", "1");
	tf_set_action(tf, "quantity", "1000000");
	tf_run(tf);
	assert_true(tf_verdict(tf)->overall_pass);
	assert_true(has_price_deviation(tf));
	assert_reasons(tf, true, 1);
	/* A price below a cent is written out, not as 1e-06. */
	assert_non_null(strstr(verdict_reason(tf_verdict(tf),
	    "price_deviation")->detail, "VXUS at $0.000001 a unit"));
}

/*
 * Exact: positions 0.1 for 1 and 0.2 for 2 make hp = 0.3 / 3 = 0.1, and
 * 0.12 for 1 is exactly 20% above it; 0.12000001 is over.
 */
static void
test_price_compared_exactly_as_products(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_holdings(tf, "100", "[{\"ticker\": \"BND\", \"quantity\": 1, "
	    "\"market_value_usd\": 0.1}, {\"ticker\": \"bnd\", \"quantity\": 2, "
	    "\"market_value_usd\": 0.2}]");
	tf_set_action(tf, "quantity", "1");
	tf_set_action(tf, "estimated_value_usd", "0.12");
	tf_run(tf);
	assert_false(has_price_deviation(tf));
	tf_free(tf);
	tf_setup_pass(tf);
	tf_holdings(tf, "100", "[{\"ticker\": \"BND\", \"quantity\": 1, "
	    "\"market_value_usd\": 0.1}, {\"ticker\": \"bnd\", \"quantity\": 2, "
	    "\"market_value_usd\": 0.2}]");
	tf_set_action(tf, "quantity", "1");
	tf_set_action(tf, "estimated_value_usd", "0.12000001");
	tf_run(tf);
	assert_true(has_price_deviation(tf));
	tf_free(tf);
	tf_setup_pass(tf);
	/* 0.08 is exactly 20% below. */
	tf_holdings(tf, "100", "[{\"ticker\": \"BND\", \"quantity\": 1, "
	    "\"market_value_usd\": 0.1}, {\"ticker\": \"BND\", \"quantity\": 2, "
	    "\"market_value_usd\": 0.2}]");
	tf_set_action(tf, "quantity", "1");
	tf_set_action(tf, "estimated_value_usd", "0.08");
	tf_run(tf);
	assert_false(has_price_deviation(tf));
}

/* No held price: the ticker not held, or a position of it without quantity. */
static void
test_price_unknown_without_held_quantities(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "1");
	tf_holdings(tf, "20000", "[{\"ticker\": \"BND\", \"quantity\": 1000, "
	    "\"market_value_usd\": 75000}, {\"ticker\": \"BND\", "
	    "\"market_value_usd\": 30000}]");
	tf_run(tf);
	assert_false(has_price_deviation(tf));
	tf_free(tf);
	tf_setup_pass(tf);
	tf_set_action(tf, "estimated_value_usd", "1");
	tf_holdings(tf, "20000", "[{\"ticker\": \"VTI\", \"quantity\": 1000, "
	    "\"market_value_usd\": 75000}]");
	tf_run(tf);
	assert_false(has_price_deviation(tf));
	tf_free(tf);
	tf_setup_pass(tf);
	tf_set_action(tf, "estimated_value_usd", "1");
	tf_drop_holdings(tf);
	tf_run(tf);
	assert_false(has_price_deviation(tf));
}

/* A sell is priced too, after the other triggers. */
static void
test_price_deviation_listed_after_the_other_triggers(void **state)
{
	struct trade_fixture *tf = TF(state);
	const struct verdict *v;

	tf_trade(tf, "BND", "sell", "60000");
	tf_run(tf);
	v = tf_verdict(tf);
	assert_true(v->reason_count >= 2);
	assert_string_equal(v->high_stakes_reasons[v->reason_count - 1].code,
	    "price_deviation");
}

/* ---- (v2) notes: what the rules do not enforce (SPEC 2.1, 3) ------------ */

/* The detail of the note what; the test fails when it is missing. */
static const char *
note(const struct trade_fixture *tf, const char *what)
{
	const struct verdict *v = tf_verdict(tf);
	size_t i;

	for (i = 0; i < v->note_count; i++) {
		if (strcmp(v->notes[i].what, what) == 0)
			return v->notes[i].detail;
	}
	fail_msg("no note %s", what);
	return NULL;
}

static bool
has_note(const struct trade_fixture *tf, const char *what)
{
	const struct verdict *v = tf_verdict(tf);
	size_t i;

	for (i = 0; i < v->note_count; i++) {
		if (strcmp(v->notes[i].what, what) == 0)
			return true;
	}
	return false;
}

static void
assert_note_has(const struct trade_fixture *tf, const char *what,
    const char *text)
{
	const char *detail = note(tf, what);

	if (strstr(detail, text) == NULL)
		fail_msg("note %s \"%s\" lacks \"%s\"", what, detail, text);
}

static void
assert_note_lacks(const struct trade_fixture *tf, const char *what,
    const char *text)
{
	const char *detail = note(tf, what);

	if (strstr(detail, text) != NULL)
		fail_msg("note %s \"%s\" has \"%s\"", what, detail, text);
}

/*
 * Total 500000; fixed_income (BND, no quantity: no price check) 125000 =
 * 25%, inside its 20-30% band.
 */
static void
inside_band_holdings(struct trade_fixture *tf)
{
	tf_holdings(tf, "100000", "[{\"ticker\": \"VTI\", \"market_value_usd\": "
	    "275000}, {\"ticker\": \"BND\", \"market_value_usd\": 125000}]");
}

static void
test_notes_of_the_pass_example(void **state)
{
	struct trade_fixture *tf = TF(state);
	cJSON *json;

	tf_run(tf);
	assert_string_equal(note(tf, "class_share"), "fixed_income: 17.5% of "
	    "the portfolio before, below its min, 18.75% after the buy, below "
	    "its min; band 20%-30%");
	assert_string_equal(note(tf, "position_share"), "BND: 18.75% of the "
	    "portfolio after the buy (17.5% before)");
	assert_string_equal(note(tf, "cash"), "the buy of $7,500.00 is within "
	    "the cash of $20,000.00 ($12,500.00 left)");
	assert_string_equal(note(tf, "holdings_as_of"), "snapshot "
	    EX_SNAPSHOT_ID " as of 2026-11-28T21:00:00Z: 11h before this check");
	/* In the SPEC 3 line, as {what, detail}, in this order. */
	json = tf_outcome_json(tf);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    json, "notes")), 4);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(json, "notes"), 3), "what")->
	    valuestring, "holdings_as_of");
	cJSON_Delete(json);
}

/* A buy that ends the class exactly at its max stays within its band. */
static void
test_note_class_exactly_at_max_after_the_buy(void **state)
{
	struct trade_fixture *tf = TF(state);

	inside_band_holdings(tf);
	tf_set_action(tf, "estimated_value_usd", "25000");
	tf_run(tf);
	assert_string_equal(note(tf, "class_share"), "fixed_income: 25% of the "
	    "portfolio before, 30% after the buy; band 20%-30%");
	tf_assert_passes(tf, BAND);
}

/* A cent more carries it from inside its band to above its max: noted. */
static void
test_note_buy_carrying_the_class_above_its_max(void **state)
{
	struct trade_fixture *tf = TF(state);

	inside_band_holdings(tf);
	tf_set_action(tf, "estimated_value_usd", "25000.01");
	tf_run(tf);
	assert_note_has(tf, "class_share", "25% of the portfolio before, "
	    "30.000002% after the buy, above its max; band 20%-30%");
	assert_note_has(tf, "class_share", "carries it out of its band");
	/* Noted, not failed: the rule looks at the class before the trade. */
	tf_assert_passes(tf, BAND);
}

/* A sell from inside the band to below its min is noted the same way. */
static void
test_note_sell_carrying_the_class_below_its_min(void **state)
{
	struct trade_fixture *tf = TF(state);

	inside_band_holdings(tf);
	tf_trade(tf, "BND", "sell", "25000.01");
	tf_run(tf);
	assert_note_has(tf, "class_share", "after the sell, below its min");
	assert_note_has(tf, "class_share", "carries it out of its band");
	assert_false(has_note(tf, "cash"));
	tf_free(tf);
	tf_setup_pass(tf);
	inside_band_holdings(tf);
	tf_trade(tf, "BND", "sell", "25000");
	tf_run(tf);
	assert_note_lacks(tf, "class_share", "below its min");
	assert_note_lacks(tf, "class_share", "carries");
}

/* Already outside: no crossing to note. */
static void
test_note_class_already_outside_is_no_crossing(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "VTI", "buy", "1000");
	tf_run(tf);
	assert_note_has(tf, "class_share", "57.5% of the portfolio before, "
	    "above its max");
	assert_note_lacks(tf, "class_share", "carries");
}

static void
test_note_cash_against_a_buy(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_set_action(tf, "estimated_value_usd", "20000");
	tf_set_action(tf, "quantity", "266.67");
	tf_run(tf);
	assert_string_equal(note(tf, "cash"), "the buy of $20,000.00 is within "
	    "the cash of $20,000.00 ($0.00 left)");
	tf_free(tf);
	tf_setup_pass(tf);
	tf_set_action(tf, "estimated_value_usd", "20000.01");
	tf_set_action(tf, "quantity", "266.67");
	tf_run(tf);
	assert_string_equal(note(tf, "cash"), "the buy of $20,000.01 exceeds "
	    "the cash of $20,000.00 by $0.01");
}

static void
test_note_position_share_of_a_sell(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "VXUS", "sell", "130000.01");
	tf_set_action(tf, "quantity", "2100");
	tf_run(tf);
	assert_note_has(tf, "position_share", "VXUS: 0% of the portfolio "
	    "after the sell (21.67% before)");
	assert_note_has(tf, "position_share", "worth more than the position");
}

/* The cash class does not change when cash buys a cash security. */
static void
test_note_cash_class_is_unchanged_by_a_cash_buy(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_trade(tf, "SGOV", "buy", "10000");
	tf_run(tf);
	assert_note_has(tf, "class_share", "cash: 3.33% of the portfolio "
	    "before, 3.33% after the buy");
}

static void
test_notes_without_inputs_say_what_is_missing(void **state)
{
	struct trade_fixture *tf = TF(state);

	tf_drop_holdings(tf);
	tf_run(tf);
	assert_note_has(tf, "class_share", "no holdings snapshot");
	assert_note_has(tf, "position_share", "no holdings snapshot");
	assert_note_has(tf, "cash", "no holdings snapshot");
	assert_note_has(tf, "holdings_as_of", "no holdings snapshot has been "
	    "imported for user u-1001");
	tf_free(tf);
	tf_setup_pass(tf);
	tf_trade(tf, "ZZZ", "buy", "100");
	tf_run(tf);
	assert_note_has(tf, "class_share", "ZZZ is not in the security map");
	tf_free(tf);
	tf_setup_pass(tf);
	tf_drop_ips(tf);
	tf_run(tf);
	assert_note_has(tf, "class_share", "no IPS, so no band");
}

/* The age is measured from the check's clock; a snapshot ahead says so. */
static void
test_note_holdings_as_of_ahead_of_the_clock(void **state)
{
	struct trade_fixture *tf = TF(state);

	/* EX_NOW_MS is 2026-11-29T08:15:04.123Z. */
	tf_set_holdings(tf, "as_of", "\"2026-11-29T08:18:04Z\"");
	tf_run(tf);
	assert_note_has(tf, "holdings_as_of", "as of 2026-11-29T08:18:04Z: 2m "
	    "AFTER this check");
}

/* ---- the detail: status, and the holdings the notes are about ----------- */

static bool
detail_has(const struct detail *d, enum detail_style style, const char *text)
{
	size_t i;

	for (i = 0; i < d->count; i++) {
		if (d->lines[i].style == style &&
		    strstr(d->lines[i].text, text) != NULL)
			return true;
	}
	return false;
}

static void
test_describe_shows_a_status_decided_elsewhere(void **state)
{
	struct trade_fixture *tf = TF(state);
	struct detail d;

	tf_set_action(tf, "status", "\"executed\"");
	tf_run(tf);
	memset(&d, 0, sizeof d);
	assert_int_equal(tf->outcome.pack->describe(&tf->input,
	    &tf->outcome.advisory, &d), 0);
	assert_true(detail_has(&d, DETAIL_ALERT, "Pipeline status: executed"));
	detail_free(&d);
	tf_free(tf);
	tf_setup_pass(tf);
	tf_run(tf);
	assert_int_equal(tf->outcome.pack->describe(&tf->input,
	    &tf->outcome.advisory, &d), 0);
	assert_false(detail_has(&d, DETAIL_ALERT, "Pipeline status"));
	detail_free(&d);
}

static void
test_describe_context_is_the_holdings_table(void **state)
{
	struct trade_fixture *tf = TF(state);
	struct detail d;

	tf_run(tf);
	memset(&d, 0, sizeof d);
	assert_non_null(tf->outcome.pack->describe_context);
	assert_int_equal(tf->outcome.pack->describe_context(&tf->input,
	    &tf->outcome.advisory, &d), 0);
	assert_true(detail_has(&d, DETAIL_HEADING, "Holdings (snapshot "
	    EX_SNAPSHOT_ID ", as of 2026-11-28T21:00:00Z"));
	/* The traded ticker is marked; every row has value, class, share. */
	assert_true(detail_has(&d, DETAIL_HEADING, "> BND             "
	    "$105,000.00  fixed_income        17.5%"));
	assert_true(detail_has(&d, DETAIL_PLAIN, "  VTI             "
	    "$300,000.00  us_equity             50%"));
	assert_true(detail_has(&d, DETAIL_PLAIN, "  (cash)           "
	    "$20,000.00  cash                3.33%"));
	detail_free(&d);
	tf_free(tf);
	tf_setup_pass(tf);
	tf_drop_holdings(tf);
	tf_run(tf);
	assert_int_equal(tf->outcome.pack->describe_context(&tf->input,
	    &tf->outcome.advisory, &d), 0);
	assert_true(detail_has(&d, DETAIL_ALERT, "Holdings: no snapshot"));
	detail_free(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		PASS_TEST(test_pass_example_all_rules_pass),
		PASS_TEST(test_rule_order_is_spec_order),
		PASS_TEST(test_rule_order_is_spec_order_without_inputs),
		DIV_TEST(test_divergent_example_rule_results),
		PASS_TEST(test_overall_pass_is_and_of_rules),
		DIV_TEST(test_failing_rules_have_detail_divergent),
		PASS_TEST(test_failing_rules_have_detail_without_inputs),
		DIV_TEST(test_failing_rules_have_detail_in_json),

		PASS_TEST(test_excluded_ticker_passes_for_other_ticker),
		PASS_TEST(test_excluded_ticker_fails_for_listed_ticker),
		PASS_TEST(test_excluded_ticker_fails_for_sell_too),
		PASS_TEST(test_excluded_ticker_list_ignores_case),
		PASS_TEST(test_excluded_ticker_packet_ignores_case),
		PASS_TEST(test_excluded_ticker_absent_list_passes),
		PASS_TEST(test_excluded_ticker_no_ips_fails_closed),

		PASS_TEST(test_excluded_sector_passes_for_other_sector),
		PASS_TEST(test_excluded_sector_fails_for_listed_sector),
		PASS_TEST(test_excluded_sector_ticker_lookup_ignores_case),
		PASS_TEST(test_excluded_sector_list_ignores_case),
		PASS_TEST(test_excluded_sector_unknown_ticker_fails_closed),
		PASS_TEST(test_excluded_sector_unknown_ticker_absent_list_passes),
		PASS_TEST(test_excluded_sector_unknown_ticker_empty_list_passes),
		PASS_TEST(test_excluded_sector_no_security_map_fails_closed),
		PASS_TEST(test_excluded_sector_no_ips_fails_closed),

		PASS_TEST(test_concentration_passes_under_limit),
		PASS_TEST(test_concentration_fails_over_limit),
		PASS_TEST(test_concentration_exactly_at_limit_passes),
		PASS_TEST(test_concentration_one_cent_over_limit_fails),
		PASS_TEST(test_concentration_counts_held_value_at_limit),
		PASS_TEST(test_concentration_counts_held_value_over_limit),
		PASS_TEST(test_concentration_held_ticker_ignores_case),
		PASS_TEST(test_concentration_decimal_sum_exactly_at_limit_passes),
		PASS_TEST(test_concentration_limit_with_seventeen_digits_passes),
		PASS_TEST(test_concentration_limit_with_seventeen_digits_fails_above),
		PASS_TEST(test_concentration_decimal_sum_over_limit_fails),
		PASS_TEST(test_concentration_sell_always_passes),
		PASS_TEST(test_concentration_sell_without_ips_passes),
		PASS_TEST(test_concentration_sell_without_holdings_passes),
		PASS_TEST(test_concentration_sell_with_zero_total_passes),
		PASS_TEST(test_concentration_buy_without_ips_fails_closed),
		PASS_TEST(test_concentration_buy_without_holdings_fails_closed),
		PASS_TEST(test_concentration_no_limit_passes_without_holdings),
		PASS_TEST(test_concentration_no_limit_passes_for_large_buy),
		PASS_TEST(test_concentration_zero_total_fails_closed),

		PASS_TEST(test_band_buy_below_min_passes),
		PASS_TEST(test_band_buy_above_max_fails),
		PASS_TEST(test_band_buy_exactly_at_max_passes),
		PASS_TEST(test_band_buy_just_above_max_fails),
		PASS_TEST(test_band_sell_exactly_at_min_passes),
		PASS_TEST(test_band_sell_below_min_fails),
		PASS_TEST(test_band_sell_above_max_passes),
		PASS_TEST(test_band_counts_every_position_of_the_class),
		PASS_TEST(test_band_position_lookup_ignores_case),
		PASS_TEST(test_band_sums_many_positions_in_any_order),
		PASS_TEST(test_band_ticker_lookup_ignores_case),
		PASS_TEST(test_band_asset_class_name_ignores_case),
		PASS_TEST(test_band_cash_class_counts_cash_usd_over_max),
		PASS_TEST(test_band_cash_class_within_max_passes),
		PASS_TEST(test_band_decimal_buy_exactly_at_max_passes),
		PASS_TEST(test_band_decimal_buy_just_above_max_fails),
		PASS_TEST(test_band_decimal_sell_exactly_at_min_passes),
		PASS_TEST(test_band_decimal_sell_just_below_min_fails),
		PASS_TEST(test_band_unknown_ticker_fails_closed),
		PASS_TEST(test_band_unknown_ticker_sell_fails_closed),
		PASS_TEST(test_band_class_absent_from_ips_fails_closed),
		PASS_TEST(test_band_no_holdings_fails_closed),
		PASS_TEST(test_band_no_holdings_sell_fails_closed),
		PASS_TEST(test_band_zero_total_fails_closed),
		PASS_TEST(test_band_no_ips_fails_closed),

		PASS_TEST(test_ips_current_passes_for_active_version),
		PASS_TEST(test_ips_current_fails_for_older_version),
		PASS_TEST(test_ips_current_fails_for_newer_active_ips),
		PASS_TEST(test_ips_current_fails_for_other_ips_id),
		PASS_TEST(test_ips_current_no_ips_fails_closed),

		PASS_TEST(test_no_ips_buy_fails_every_rule),
		PASS_TEST(test_no_ips_sell_fails_all_but_concentration),

		PASS_TEST(test_negative_zero_money_reads_as_zero),
		PASS_TEST(test_negative_zero_limits_read_as_zero),
		PASS_TEST(test_stakes_pass_example_needs_no_human),
		PASS_TEST(test_stakes_failing_rules_only),
		PASS_TEST(test_stakes_value_above_usd_threshold),
		PASS_TEST(test_stakes_value_equal_to_usd_threshold_does_not_trigger),
		PASS_TEST(test_stakes_share_above_percent_threshold),
		PASS_TEST(test_detail_shows_a_share_just_over_the_limit),
		PASS_TEST(test_detail_keeps_two_decimals_when_they_suffice),
		PASS_TEST(test_detail_shows_a_class_just_under_its_band),
		PASS_TEST(test_stakes_reason_shows_a_share_just_over_the_threshold),
		PASS_TEST(test_stakes_share_equal_to_percent_threshold_does_not_trigger),
		PASS_TEST(test_stakes_usd_and_percent_both_listed),
		PASS_TEST(test_describe_shows_a_status_decided_elsewhere),
		PASS_TEST(test_describe_context_is_the_holdings_table),
		PASS_TEST(test_notes_of_the_pass_example),
		PASS_TEST(test_note_class_exactly_at_max_after_the_buy),
		PASS_TEST(test_note_buy_carrying_the_class_above_its_max),
		PASS_TEST(test_note_sell_carrying_the_class_below_its_min),
		PASS_TEST(test_note_class_already_outside_is_no_crossing),
		PASS_TEST(test_note_cash_against_a_buy),
		PASS_TEST(test_note_position_share_of_a_sell),
		PASS_TEST(test_note_cash_class_is_unchanged_by_a_cash_buy),
		PASS_TEST(test_notes_without_inputs_say_what_is_missing),
		PASS_TEST(test_note_holdings_as_of_ahead_of_the_clock),
		PASS_TEST(test_price_exactly_20_percent_above_is_not_a_deviation),
		PASS_TEST(test_price_just_over_20_percent_above_is_a_deviation),
		PASS_TEST(test_price_exactly_20_percent_below_is_not_a_deviation),
		PASS_TEST(test_price_just_under_20_percent_below_is_a_deviation),
		PASS_TEST(test_price_of_an_understated_value_is_a_deviation),
		PASS_TEST(test_price_compared_exactly_as_products),
		PASS_TEST(test_price_unknown_without_held_quantities),
		PASS_TEST(test_price_deviation_listed_after_the_other_triggers),
		DIV_TEST(test_stakes_all_three_triggers_listed),
		PASS_TEST(test_stakes_absent_thresholds_never_trigger),
		PASS_TEST(test_stakes_same_trade_with_thresholds_triggers_both),
		PASS_TEST(test_stakes_decimal_share_exactly_at_percent_does_not_trigger),
		PASS_TEST(test_stakes_decimal_share_just_above_percent_triggers),
		DIV_TEST(test_stakes_in_json_match_verdict),
		PASS_TEST(test_stakes_pass_example_json_has_empty_reasons),

		PASS_TEST(test_ips_checked_is_active_ips),
		DIV_TEST(test_ips_checked_is_active_not_cited_version),
		PASS_TEST(test_ips_checked_is_null_without_ips),

		PASS_TEST(test_verdict_id_is_uuid_v4),
		PASS_TEST(test_verdict_ids_differ_between_runs),
		PASS_TEST(test_verdict_action_id_is_packet_action_id),
		PASS_TEST(test_verdict_skill_is_countersign),
		PASS_TEST(test_verdict_reviewed_at_is_iso8601_utc),
		PASS_TEST(test_verdict_json_has_spec_keys),
		PASS_TEST(test_verdict_json_rules_in_spec_order),
		PASS_TEST(test_sector_unknown_fails_closed),
		PASS_TEST(test_sector_naming_unknown_in_a_longer_word_is_a_sector),
		PASS_TEST(test_sector_unknown_passes_when_no_sector_is_excluded),
		PASS_TEST(test_map_price_confirms_an_unheld_ticker),
		PASS_TEST(test_map_price_exactly_20_percent_off_is_not_a_deviation),
		PASS_TEST(test_map_price_far_off_is_a_deviation),
		PASS_TEST(test_no_reference_price_for_an_unheld_ticker),
		PASS_TEST(test_no_reference_price_without_holdings),
		PASS_TEST(test_held_price_wins_over_the_map_price),
		PASS_TEST(test_held_without_quantities_falls_back_to_the_map),
		PASS_TEST(test_buy_up_to_the_cash_is_not_high_stakes),
		PASS_TEST(test_buy_beyond_the_cash_exceeds_cash),
		PASS_TEST(test_sell_never_exceeds_cash),
		PASS_TEST(test_exceeds_cash_fails_closed_without_holdings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
