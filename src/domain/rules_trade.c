/*
 * The trade rule pack, SPEC 2.1: five rules over the proposed trade, the
 * active IPS, the current holdings and the security map.  Every missing
 * input fails its rule closed; nothing is skipped.  The notes, the
 * high-stakes reasons and the detail are in rules_trade_notes.c,
 * rules_trade_stakes.c and rules_trade_describe.c.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decimal.h"
#include "exit_codes.h"
#include "json_fields.h"
#include "rule_pack.h"
#include "text.h"
#include "timestamp.h"
#include "rules_trade.h"

static const char *const sides[] = { "buy", "sell", NULL };
/* SPEC 1: the drafting pipeline's state of the action. */
static const char *const statuses[] = { "drafted", "reviewed_pass",
	"reviewed_fail", "pending_approval", "approved", "rejected",
	"executed", "failed", NULL };
/* SPEC 5: the states of an action still awaiting a decision. */
static const char *const pending_statuses[] = { "drafted", "reviewed_pass",
	"reviewed_fail", "pending_approval", NULL };

/* evaluate() reads the trade once and leaves it to assess_stakes(). */
_Static_assert(sizeof(struct trade) <= sizeof(union rule_pack_state),
    "struct trade must fit in a rule pack's state");

static int
trade_validate(const cJSON *action, const char *path, struct error *err)
{
	const cJSON *reference = NULL;
	char reference_path[256];
	const char *text;
	double number;
	long long version;
	int rc;

	if ((rc = field_id(action, path, "user_id", FIELD_REQUIRED, &text,
	    err)) != 0 ||
	    (rc = field_id(action, path, "ticker", FIELD_REQUIRED, &text,
	    err)) != 0 ||
	    (rc = field_choice(action, path, "side", FIELD_REQUIRED, sides,
	    &text, err)) != 0 ||
	    (rc = field_number(action, path, "quantity", FIELD_REQUIRED,
	    NUMBER_POSITIVE, &number, NULL, err)) != 0 ||
	    (rc = field_number(action, path, "estimated_value_usd",
	    FIELD_REQUIRED, NUMBER_POSITIVE, &number, NULL, err)) != 0 ||
	    (rc = field_object(action, path, "ips_version_referenced",
	    FIELD_REQUIRED, &reference, err)) != 0 ||
	    (rc = field_choice(action, path, "status", FIELD_OPTIONAL,
	    statuses, &text, err)) != 0)
		return rc;
	field_path(reference_path, sizeof reference_path, path,
	    "ips_version_referenced");
	if ((rc = field_id(reference, reference_path, "ips_id", FIELD_REQUIRED,
	    &text, err)) != 0 ||
	    (rc = field_integer(reference, reference_path, "version",
	    FIELD_REQUIRED, 1, 2147483647LL, &version, err)) != 0)
		return rc;
	return 0;
}

/* Is entry M[ticker], ignoring case (SPEC 2.1)? */
static bool
security_is(const cJSON *entry, const char *ticker)
{
	return text_equal_nocase(entry->string, ticker) && cJSON_IsObject(entry);
}

/* M[ticker]: the first entry of that ticker, ignoring case (SPEC 2.1). */
const cJSON *
trade_security_of(const cJSON *securities, const char *ticker)
{
	const cJSON *entry;

	if (ticker == NULL)
		return NULL;
	cJSON_ArrayForEach(entry, securities) {
		if (security_is(entry, ticker))
			return entry;
	}
	return NULL;
}

/*
 * M[ticker] for one position after another: the search starts after the
 * entry the last one found and goes round.  The store gives M the
 * trade's ticker and then the positions' in their order, each ticker once
 * (upper case, as its table keys them), so each search ends at once, and
 * a portfolio of hundreds of positions is not compared with the whole map
 * for each of them.  With each ticker once in M the entry found is the
 * one trade_security_of() finds; with a ticker twice, differing in case, it
 * may be the other, which no map the store builds has.
 */
static const cJSON *
security_after(const cJSON *securities, const char *ticker,
    const cJSON **next)
{
	const cJSON *start = *next != NULL ? *next :
	    (securities != NULL ? securities->child : NULL), *entry;

	if (ticker == NULL || start == NULL)
		return NULL;
	entry = start;
	do {
		if (security_is(entry, ticker)) {
			*next = entry->next;
			return entry;
		}
		entry = entry->next != NULL ? entry->next : securities->child;
	} while (entry != start);
	return NULL;
}

const char *
trade_string(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/*
 * A figure as read: -0, which the loaders accept as 0 (SPEC 1: money and
 * percents ">= 0"), is +0, for the decimals (decimal_from_double() refuses
 * a sign bit) and for the text alike.  Adding +0 does it (-0 + +0 is +0
 * in IEEE 754 arithmetic) and leaves every other value as it is.
 */
double
trade_figure_value(const cJSON *item)
{
	return item->valuedouble + 0.0;
}

/* A loaded figure as a decimal; loaders guarantee it converts. */
struct decimal
trade_figure(const cJSON *object, const char *key, bool *ok)
{
	const cJSON *item = json_member(object, key);
	struct decimal d = { 0 };

	if (!cJSON_IsNumber(item) ||
	    !decimal_from_double(trade_figure_value(item), &d))
		*ok = false;
	return d;
}

static bool
list_contains(const cJSON *list, const char *name)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, list) {
		if (cJSON_IsString(item) &&
		    text_equal_nocase(item->valuestring, name))
			return true;
	}
	return false;
}

static void
trade_securities_wanted(const struct check_input *in,
    void (*want)(void *, const char *), void *ctx)
{
	const cJSON *position;
	const char *ticker = trade_string(in->action, "ticker");

	if (ticker != NULL)
		want(ctx, ticker);
	cJSON_ArrayForEach(position, json_member(in->holdings, "positions")) {
		ticker = trade_string(position, "ticker");
		if (ticker != NULL)
			want(ctx, ticker);
	}
}

bool
trade_read(const struct check_input *in, struct trade *t)
{
	const cJSON *position, *value, *security, *next = NULL;
	const char *position_ticker;
	struct decimal position_value;
	bool ok = true;

	memset(t, 0, sizeof *t);
	t->user_id = trade_string(in->action, "user_id");
	t->ticker = trade_string(in->action, "ticker");
	t->buy = text_equal_nocase(trade_string(in->action, "side"), "buy");
	t->value = trade_figure(in->action, "estimated_value_usd", &ok);
	t->quantity = trade_figure(in->action, "quantity", &ok);
	value = json_member(in->action, "estimated_value_usd");
	t->value_usd = cJSON_IsNumber(value) ? value->valuedouble : 0;
	t->security = trade_security_of(in->securities, t->ticker);

	t->ips = in->ips;
	if (t->ips != NULL) {
		t->ips_id = trade_string(t->ips, "ips_id");
		value = json_member(t->ips, "version");
		t->ips_version = cJSON_IsNumber(value) ?
		    (long long)value->valuedouble : 0;
		t->constraints = json_member(t->ips, "constraints");
	}
	t->asset_class = trade_string(t->security, "asset_class");
	t->holdings = in->holdings;
	if (t->holdings == NULL)
		return ok;
	t->total = trade_figure(t->holdings, "cash_usd", &ok);
	if (text_equal_nocase(t->asset_class, "cash"))
		t->held_in_class = t->total;
	t->held_quantity_known = true;
	cJSON_ArrayForEach(position, json_member(t->holdings, "positions")) {
		position_value = trade_figure(position, "market_value_usd", &ok);
		t->total = decimal_add(t->total, position_value);
		position_ticker = trade_string(position, "ticker");
		if (t->ticker == NULL ||
		    text_equal_nocase(position_ticker, t->ticker)) {
			t->held_in_ticker = decimal_add(t->held_in_ticker,
			    position_value);
			t->holds_ticker = true;
			/* The loaders refuse a quantity that is not > 0. */
			if (cJSON_IsNumber(json_member(position, "quantity")))
				t->held_quantity = decimal_add(t->held_quantity,
				    trade_figure(position, "quantity", &ok));
			else
				t->held_quantity_known = false;
		}
		if (t->asset_class == NULL)
			continue;
		security = security_after(in->securities, position_ticker,
		    &next);
		if (text_equal_nocase(trade_string(security, "asset_class"),
		    t->asset_class))
			t->held_in_class = decimal_add(t->held_in_class,
			    position_value);
	}
	t->total_usd = decimal_to_double(t->total);
	t->held_quantity_known = t->holds_ticker && t->held_quantity_known &&
	    !decimal_is_zero(t->held_quantity);
	return ok;
}

static int
rule_excluded_ticker(const struct trade *t, struct verdict *v)
{
	static const char id[] = "excluded_ticker";
	static const char what[] = "Ticker is not excluded by the IPS";

	if (t->ips == NULL)
		return verdict_add_rule(v, id, what, false,
		    "no IPS has been imported for user %s", t->user_id);
	if (list_contains(json_member(t->constraints, "excluded_tickers"),
	    t->ticker))
		return verdict_add_rule(v, id, what, false,
		    "ticker %s is excluded by IPS %s v%lld", t->ticker,
		    t->ips_id, t->ips_version);
	return verdict_add_rule(v, id, what, true, NULL);
}

/*
 * SPEC 2.1 (v3): a sector that names none.  The reviewer this mirrors
 * writes "Unknown" for a ticker its map lacks; a map copied from it
 * carries the word, in any case and padded or not, or nothing at all.
 */
static bool
sector_unknown(const char *sector)
{
	static const char word[] = "unknown";
	size_t len;

	if (text_blank(sector))
		return true;
	while (*sector == ' ' || *sector == '\t')
		sector++;
	len = strlen(sector);
	while (len > 0 && (sector[len - 1] == ' ' || sector[len - 1] == '\t'))
		len--;
	return len == sizeof word - 1 && strncasecmp(sector, word, len) == 0;
}

static int
rule_excluded_sector(const struct trade *t, struct verdict *v)
{
	static const char id[] = "excluded_sector";
	static const char what[] = "Sector is not excluded by the IPS";
	const cJSON *excluded;
	const char *sector;

	if (t->ips == NULL)
		return verdict_add_rule(v, id, what, false,
		    "no IPS has been imported for user %s", t->user_id);
	excluded = json_member(t->constraints, "excluded_sectors");
	if (cJSON_GetArraySize(excluded) == 0)
		return verdict_add_rule(v, id, what, true,
		    "IPS %s v%lld excludes no sector", t->ips_id,
		    t->ips_version);
	if (t->security == NULL)
		return verdict_add_rule(v, id, what, false,
		    "ticker %s is not in the security map, so its sector is "
		    "unknown", t->ticker);
	sector = trade_string(t->security, "sector");
	if (sector_unknown(sector))
		return verdict_add_rule(v, id, what, false,
		    "the security map gives ticker %s the sector \"%s\", so its "
		    "sector is unknown", t->ticker, sector != NULL ? sector : "");
	if (list_contains(excluded, sector))
		return verdict_add_rule(v, id, what, false,
		    "sector %s is excluded by IPS %s v%lld", sector, t->ips_id,
		    t->ips_version);
	return verdict_add_rule(v, id, what, true, "sector %s is not excluded",
	    sector);
}

static int
max_int(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Enough decimals that a share off a band edge never prints on it: below
 * and above are its exact comparisons with low and high.
 */
int
trade_places_against_band(int places, double share, struct decimal low,
    struct decimal high, int below, int above)
{
	if (below != 0)
		places = max_int(places, percent_places(share,
		    decimal_to_double(low)));
	if (above != 0)
		places = max_int(places, percent_places(share,
		    decimal_to_double(high)));
	return places;
}

/*
 * A share and the limit it was compared with, as percents: with as many
 * decimals as it takes for them to print differently when the exact
 * comparison (sign, as decimal_compare_products() gives it) says they
 * differ, so that a detail never says "7%, above the 7% limit".
 */
void
trade_format_percents(double share, int sign, char *share_text, double limit,
    char *limit_text, size_t size)
{
	int places = sign != 0 ? percent_places(share, limit) : 2;

	format_percent_places(share_text, size, share, places);
	format_percent_places(limit_text, size, limit, places);
}

/* The common fail-closed checks of the rules that need the holdings. */
static const char *
holdings_problem(const struct trade *t, char *buf, size_t size)
{
	char money[MONEY_SIZE];

	if (t->holdings == NULL) {
		snprintf(buf, size, "no holdings snapshot has been imported "
		    "for user %s", t->user_id);
		return buf;
	}
	if (decimal_is_zero(t->total)) {
		format_usd(money, sizeof money, t->total_usd);
		snprintf(buf, size, "the portfolio total is %s, so no share of "
		    "it can be computed", money);
		return buf;
	}
	return NULL;
}

static int
rule_concentration_limit(const struct trade *t, struct verdict *v)
{
	static const char id[] = "concentration_limit";
	static const char what[] = "Position stays within the concentration limit";
	char problem[512], after[PERCENT_SIZE], limit_text[PERCENT_SIZE];
	struct decimal limit, held;
	const cJSON *limit_item;
	bool ok = true;
	int over;

	if (!t->buy)
		return verdict_add_rule(v, id, what, true,
		    "a sell never raises a concentration");
	if (t->ips == NULL)
		return verdict_add_rule(v, id, what, false,
		    "no IPS has been imported for user %s", t->user_id);
	limit_item = json_member(t->constraints, "concentration_limit_percent");
	if (limit_item == NULL || cJSON_IsNull(limit_item))
		return verdict_add_rule(v, id, what, true,
		    "IPS %s v%lld sets no concentration limit", t->ips_id,
		    t->ips_version);
	limit = trade_figure(t->constraints, "concentration_limit_percent", &ok);
	if (holdings_problem(t, problem, sizeof problem) != NULL)
		return verdict_add_rule(v, id, what, false, "%s", problem);
	held = decimal_add(t->held_in_ticker, t->value);
	if (!ok)
		return verdict_add_rule(v, id, what, false,
		    "a figure could not be read exactly");
	/* (held + value) x 100 > limit x total, decided exactly. */
	over = decimal_compare_products(held, decimal_from_int(100), limit,
	    t->total);
	trade_format_percents(decimal_percent(held, t->total), over, after,
	    decimal_to_double(limit), limit_text, sizeof after);
	if (over > 0)
		return verdict_add_rule(v, id, what, false,
		    "%s would be %s of the portfolio after the trade, above the "
		    "%s limit", t->ticker, after, limit_text);
	return verdict_add_rule(v, id, what, true,
	    "%s after the trade, limit %s", after, limit_text);
}

/* The band of asset_class in the IPS, ignoring case. */
const cJSON *
trade_band_of(const struct trade *t, const char *asset_class)
{
	const cJSON *band;

	cJSON_ArrayForEach(band, json_member(t->ips, "target_allocation")) {
		if (text_equal_nocase(band->string, asset_class))
			return band;
	}
	return NULL;
}

static int
rule_allocation_band_direction(const struct trade *t, struct verdict *v)
{
	static const char id[] = "allocation_band_direction";
	static const char what[] =
	    "Trade does not move an asset class further outside its band";
	char problem[512], now[PERCENT_SIZE], low_text[PERCENT_SIZE],
	    high_text[PERCENT_SIZE];
	struct decimal current, low, high, hundred = decimal_from_int(100);
	const char *asset_class = t->asset_class;
	const cJSON *band;
	bool ok = true;
	int below, above, places;
	double share;

	if (t->ips == NULL)
		return verdict_add_rule(v, id, what, false,
		    "no IPS has been imported for user %s", t->user_id);
	if (t->security == NULL)
		return verdict_add_rule(v, id, what, false,
		    "ticker %s is not in the security map, so its asset class "
		    "is unknown", t->ticker);
	band = trade_band_of(t, asset_class);
	if (band == NULL)
		return verdict_add_rule(v, id, what, false,
		    "asset class %s has no band in IPS %s v%lld", asset_class,
		    t->ips_id, t->ips_version);
	if (holdings_problem(t, problem, sizeof problem) != NULL)
		return verdict_add_rule(v, id, what, false, "%s", problem);
	low = trade_figure(band, "min_percent", &ok);
	high = trade_figure(band, "max_percent", &ok);
	if (!ok)
		return verdict_add_rule(v, id, what, false,
		    "a figure could not be read exactly");
	current = t->held_in_class;
	below = decimal_compare_products(current, hundred, low, t->total);
	above = decimal_compare_products(current, hundred, high, t->total);
	/* Enough decimals to tell apart every two of the three that differ. */
	share = decimal_percent(current, t->total);
	places = trade_places_against_band(2, share, low, high, below, above);
	if (decimal_compare(low, high) != 0)
		places = max_int(places, percent_places(decimal_to_double(low),
		    decimal_to_double(high)));
	format_percent_places(now, sizeof now, share, places);
	format_percent_places(low_text, sizeof low_text,
	    decimal_to_double(low), places);
	format_percent_places(high_text, sizeof high_text,
	    decimal_to_double(high), places);
	if (!t->buy && below < 0)
		return verdict_add_rule(v, id, what, false,
		    "%s is %s, below its %s-%s band; a sell moves it further "
		    "away", asset_class, now, low_text, high_text);
	if (t->buy && above > 0)
		return verdict_add_rule(v, id, what, false,
		    "%s is %s, above its %s-%s band; a buy moves it further "
		    "away", asset_class, now, low_text, high_text);
	return verdict_add_rule(v, id, what, true, "%s is %s, band %s-%s",
	    asset_class, now, low_text, high_text);
}

static int
rule_ips_version_current(const struct check_input *in, const struct trade *t,
    struct verdict *v)
{
	static const char id[] = "ips_version_current";
	static const char what[] = "Packet cites the active IPS version";
	const cJSON *reference = json_member(in->action,
	    "ips_version_referenced"), *version;
	const char *cited_id = trade_string(reference, "ips_id");
	long long cited_version;

	version = json_member(reference, "version");
	cited_version = cJSON_IsNumber(version) ?
	    (long long)version->valuedouble : 0;
	if (t->ips == NULL)
		return verdict_add_rule(v, id, what, false,
		    "no IPS has been imported for user %s", t->user_id);
	if (cited_id == NULL || strcmp(cited_id, t->ips_id) != 0 ||
	    cited_version != t->ips_version)
		return verdict_add_rule(v, id, what, false,
		    "packet cites %s v%lld, active is %s v%lld",
		    cited_id ? cited_id : "nothing", cited_version, t->ips_id,
		    t->ips_version);
	return verdict_add_rule(v, id, what, true, "%s v%lld is active",
	    t->ips_id, t->ips_version);
}

/* False for a sell, which the cash does not limit. */
bool
trade_cash(const struct trade *t, struct trade_cash *c)
{
	bool ok = true;

	memset(c, 0, sizeof *c);
	if (!t->buy)
		return false;
	c->known = t->holdings != NULL;
	if (!c->known)
		return true;
	c->cash_figure = trade_figure(t->holdings, "cash_usd", &ok);
	c->exceeds = !ok || decimal_compare(t->value, c->cash_figure) > 0;
	return true;
}

void
trade_cash_format(const struct trade *t, struct trade_cash *c)
{
	format_usd(c->value, sizeof c->value, t->value_usd);
	format_usd(c->cash, sizeof c->cash, decimal_to_double(c->cash_figure));
	format_usd(c->difference, sizeof c->difference, decimal_to_double(
	    c->exceeds ? decimal_sub_floor(t->value, c->cash_figure) :
	    decimal_sub_floor(c->cash_figure, t->value)));
}

static int
trade_evaluate(const struct check_input *in, const struct advisory *advisory,
    struct verdict *v, union rule_pack_state *state)
{
	static const char *const ids[] = { "excluded_ticker", "excluded_sector",
	    "concentration_limit", "allocation_band_direction",
	    "ips_version_current" };
	struct trade t;
	size_t i;
	bool readable = trade_read(in, &t);

	memcpy(state->bytes, &t, sizeof t);
	/* Loaders refuse such figures; should one get through, fail closed. */
	if (!readable) {
		for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
			if (verdict_add_rule(v, ids[i], "Figures are readable",
			    false, "a figure of the trade, the IPS or the "
			    "holdings cannot be read exactly") != 0)
				return -1;
		}
		return 0;
	}
	if (t.ips != NULL) {
		v->ips_checked = cJSON_CreateObject();
		if (v->ips_checked == NULL)
			return -1;
		cJSON_AddStringToObject(v->ips_checked, "ips_id", t.ips_id);
		cJSON_AddNumberToObject(v->ips_checked, "version",
		    (double)t.ips_version);
	}
	if (rule_excluded_ticker(&t, v) != 0 ||
	    rule_excluded_sector(&t, v) != 0 ||
	    rule_concentration_limit(&t, v) != 0 ||
	    rule_allocation_band_direction(&t, v) != 0 ||
	    rule_ips_version_current(in, &t, v) != 0 ||
	    trade_notes(in, &t, v) != 0)
		return -1;
	return 0;
}

/*
 * SPEC 1: an object with action_id, overall_pass and rule_results.  One
 * that names another action is about that action (SPEC 4: what is
 * action_id), whatever else is wrong with it, so that is asked first.
 */
static int
trade_read_advisory(const cJSON *verdict, const char *action_id,
    struct advisory *advisory)
{
	const cJSON *about, *pass, *results, *result, *id, *passed;
	struct advisory_rule *rules;
	size_t count = 0;

	memset(advisory, 0, sizeof *advisory);
	if (verdict == NULL || cJSON_IsNull(verdict)) {
		advisory->state = ADVISORY_MISSING;
		return 0;
	}
	advisory->state = ADVISORY_UNPARSEABLE;
	if (!cJSON_IsObject(verdict))
		return 0;
	about = json_member(verdict, "action_id");
	if (cJSON_IsString(about) &&
	    strcmp(about->valuestring, action_id) != 0) {
		advisory->state = ADVISORY_OTHER_ACTION;
		advisory->other_action_id = about->valuestring;
		return 0;
	}
	pass = json_member(verdict, "overall_pass");
	results = json_member(verdict, "rule_results");
	if (!cJSON_IsString(about) || !cJSON_IsBool(pass) ||
	    !cJSON_IsArray(results))
		return 0;
	rules = calloc((size_t)cJSON_GetArraySize(results) + 1, sizeof *rules);
	if (rules == NULL)
		return -1;
	cJSON_ArrayForEach(result, results) {
		id = json_member(result, "rule_id");
		passed = json_member(result, "passed");
		if (!cJSON_IsString(id) || !cJSON_IsBool(passed)) {
			free(rules);
			return 0;
		}
		rules[count].rule_id = id->valuestring;
		rules[count++].passed = cJSON_IsTrue(passed);
	}
	advisory->state = ADVISORY_AVAILABLE;
	advisory->verdict = verdict;
	advisory->overall_pass = cJSON_IsTrue(pass);
	advisory->rules = rules;
	advisory->rule_count = count;
	return 0;
}

/* SPEC 5 not_pending: the status of an action decided elsewhere. */
const char *
trade_not_pending(const cJSON *action)
{
	const char *status = trade_string(action, "status");
	size_t i;

	if (status == NULL)
		return NULL;
	for (i = 0; pending_statuses[i] != NULL; i++) {
		if (strcmp(status, pending_statuses[i]) == 0)
			return NULL;
	}
	return status;
}

static const char *
trade_who(const cJSON *action)
{
	return trade_string(action, "user_id");
}

void
trade_summarize(const cJSON *action, char *buf, size_t size)
{
	char side[8], money[MONEY_SIZE];
	const cJSON *quantity = json_member(action, "quantity");
	const cJSON *value = json_member(action, "estimated_value_usd");
	const char *ticker = trade_string(action, "ticker");

	text_upper(side, sizeof side, trade_string(action, "side") ?
	    trade_string(action, "side") : "?");
	format_usd(money, sizeof money, cJSON_IsNumber(value) ?
	    value->valuedouble : 0);
	snprintf(buf, size, "%s %s x%.15g %s", side, ticker ? ticker : "?",
	    cJSON_IsNumber(quantity) ? quantity->valuedouble : 0, money);
}

const struct rule_pack rules_trade = {
	.kind = "trade",
	.needs = NEEDS_IPS | NEEDS_HOLDINGS | NEEDS_SECURITIES,
	.compares_rules = true,
	.validate = trade_validate,
	.securities_wanted = trade_securities_wanted,
	.evaluate = trade_evaluate,
	.assess_stakes = trade_assess_stakes,
	.read_advisory = trade_read_advisory,
	.not_pending = trade_not_pending,
	.who = trade_who,
	.summarize = trade_summarize,
	.describe = trade_describe,
	.describe_context = trade_describe_holdings,
};
