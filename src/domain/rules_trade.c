/*
 * The trade rule pack, SPEC 2.1: five rules over the proposed trade, the
 * active IPS, the current holdings and the security map.  Every missing
 * input fails its rule closed; nothing is skipped.
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

#define MONEY_SIZE 48
#define PERCENT_SIZE 64

static const char *const sides[] = { "buy", "sell", NULL };
/* SPEC 1: the drafting pipeline's state of the action. */
static const char *const statuses[] = { "drafted", "reviewed_pass",
	"reviewed_fail", "pending_approval", "approved", "rejected",
	"executed", "failed", NULL };
/* SPEC 5: the states of an action still awaiting a decision. */
static const char *const pending_statuses[] = { "drafted", "reviewed_pass",
	"reviewed_fail", "pending_approval", NULL };

/* What the rules read from the trade, the IPS and the holdings. */
struct trade {
	const char *user_id;
	const char *ticker;
	bool buy;
	struct decimal value;
	double value_usd;
	const cJSON *security;		/* M[ticker] or NULL */

	const cJSON *ips;
	const char *ips_id;
	long long ips_version;
	const cJSON *constraints;

	const cJSON *holdings;
	struct decimal total;		/* cash + positions, when holdings */
	double total_usd;

	/*
	 * Summed in the one walk of the positions: those in the trade's
	 * ticker (all of them when it has none), and those whose security is
	 * of the trade's asset class, with the cash when that class is cash.
	 */
	const char *asset_class;	/* of the trade's security, or NULL */
	struct decimal held_in_ticker;
	struct decimal held_in_class;

	/*
	 * The price check (SPEC 2.1 v2): the packet's quantity, and the
	 * quantity held of the ticker, known when H holds it and every
	 * position of it has a quantity.
	 */
	struct decimal quantity;
	struct decimal held_quantity;
	bool holds_ticker;
	bool held_quantity_known;
};

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
static const cJSON *
security_of(const cJSON *securities, const char *ticker)
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
 * one security_of() finds; with a ticker twice, differing in case, it
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

static const char *
string_member(const cJSON *object, const char *key)
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
static double
figure_value(const cJSON *item)
{
	return item->valuedouble + 0.0;
}

/* A loaded figure as a decimal; loaders guarantee it converts. */
static struct decimal
figure(const cJSON *object, const char *key, bool *ok)
{
	const cJSON *item = json_member(object, key);
	struct decimal d = { 0 };

	if (!cJSON_IsNumber(item) ||
	    !decimal_from_double(figure_value(item), &d))
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
	const char *ticker = string_member(in->action, "ticker");

	if (ticker != NULL)
		want(ctx, ticker);
	cJSON_ArrayForEach(position, json_member(in->holdings, "positions")) {
		ticker = string_member(position, "ticker");
		if (ticker != NULL)
			want(ctx, ticker);
	}
}

static bool
trade_read(const struct check_input *in, struct trade *t)
{
	const cJSON *position, *value, *security, *next = NULL;
	const char *position_ticker;
	struct decimal position_value;
	bool ok = true;

	memset(t, 0, sizeof *t);
	t->user_id = string_member(in->action, "user_id");
	t->ticker = string_member(in->action, "ticker");
	t->buy = text_equal_nocase(string_member(in->action, "side"), "buy");
	t->value = figure(in->action, "estimated_value_usd", &ok);
	t->quantity = figure(in->action, "quantity", &ok);
	value = json_member(in->action, "estimated_value_usd");
	t->value_usd = cJSON_IsNumber(value) ? value->valuedouble : 0;
	t->security = security_of(in->securities, t->ticker);

	t->ips = in->ips;
	if (t->ips != NULL) {
		t->ips_id = string_member(t->ips, "ips_id");
		value = json_member(t->ips, "version");
		t->ips_version = cJSON_IsNumber(value) ?
		    (long long)value->valuedouble : 0;
		t->constraints = json_member(t->ips, "constraints");
	}
	t->asset_class = string_member(t->security, "asset_class");
	t->holdings = in->holdings;
	if (t->holdings == NULL)
		return ok;
	t->total = figure(t->holdings, "cash_usd", &ok);
	if (text_equal_nocase(t->asset_class, "cash"))
		t->held_in_class = t->total;
	t->held_quantity_known = true;
	cJSON_ArrayForEach(position, json_member(t->holdings, "positions")) {
		position_value = figure(position, "market_value_usd", &ok);
		t->total = decimal_add(t->total, position_value);
		position_ticker = string_member(position, "ticker");
		if (t->ticker == NULL ||
		    text_equal_nocase(position_ticker, t->ticker)) {
			t->held_in_ticker = decimal_add(t->held_in_ticker,
			    position_value);
			t->holds_ticker = true;
			/* The loaders refuse a quantity that is not > 0. */
			if (cJSON_IsNumber(json_member(position, "quantity")))
				t->held_quantity = decimal_add(t->held_quantity,
				    figure(position, "quantity", &ok));
			else
				t->held_quantity_known = false;
		}
		if (t->asset_class == NULL)
			continue;
		security = security_after(in->securities, position_ticker,
		    &next);
		if (text_equal_nocase(string_member(security, "asset_class"),
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
	sector = string_member(t->security, "sector");
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
static int
places_against_band(int places, double share, struct decimal low,
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
static void
format_percents(double share, int sign, char *share_text, double limit,
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
	limit = figure(t->constraints, "concentration_limit_percent", &ok);
	if (holdings_problem(t, problem, sizeof problem) != NULL)
		return verdict_add_rule(v, id, what, false, "%s", problem);
	held = decimal_add(t->held_in_ticker, t->value);
	if (!ok)
		return verdict_add_rule(v, id, what, false,
		    "a figure could not be read exactly");
	/* (held + value) x 100 > limit x total, decided exactly. */
	over = decimal_compare_products(held, decimal_from_int(100), limit,
	    t->total);
	format_percents(decimal_percent(held, t->total), over, after,
	    decimal_to_double(limit), limit_text, sizeof after);
	if (over > 0)
		return verdict_add_rule(v, id, what, false,
		    "%s would be %s of the portfolio after the trade, above the "
		    "%s limit", t->ticker, after, limit_text);
	return verdict_add_rule(v, id, what, true,
	    "%s after the trade, limit %s", after, limit_text);
}

/* The band of asset_class in the IPS, ignoring case. */
static const cJSON *
band_of(const struct trade *t, const char *asset_class)
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
	band = band_of(t, asset_class);
	if (band == NULL)
		return verdict_add_rule(v, id, what, false,
		    "asset class %s has no band in IPS %s v%lld", asset_class,
		    t->ips_id, t->ips_version);
	if (holdings_problem(t, problem, sizeof problem) != NULL)
		return verdict_add_rule(v, id, what, false, "%s", problem);
	low = figure(band, "min_percent", &ok);
	high = figure(band, "max_percent", &ok);
	if (!ok)
		return verdict_add_rule(v, id, what, false,
		    "a figure could not be read exactly");
	current = t->held_in_class;
	below = decimal_compare_products(current, hundred, low, t->total);
	above = decimal_compare_products(current, hundred, high, t->total);
	/* Enough decimals to tell apart every two of the three that differ. */
	share = decimal_percent(current, t->total);
	places = places_against_band(2, share, low, high, below, above);
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
	const char *cited_id = string_member(reference, "ips_id");
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

/* ---- Notes (SPEC 2.1 and 3, v2): what the rules do not enforce. ---- */

/* A share's place against a band, in words; "" inside it. */
static const char *
against_band(int below, int above)
{
	return below < 0 ? ", below its min" : above > 0 ? ", above its max" :
	    "";
}

/*
 * The asset class's share of total before and after the trade, against
 * its band.  After the trade the total is the same: the trade is paid
 * from or into cash, as the concentration rule takes it, so the cash
 * class itself (which counts cash_usd) does not change.
 */
static int
note_class_share(const struct trade *t, struct verdict *v)
{
	static const char what[] = "class_share";
	struct decimal hundred = decimal_from_int(100), low, high, after;
	char before_text[PERCENT_SIZE], after_text[PERCENT_SIZE],
	    low_text[PERCENT_SIZE], high_text[PERCENT_SIZE];
	const cJSON *band;
	bool ok = true;
	int places, before_low, before_high, after_low, after_high;
	double before_share, after_share;

	if (t->asset_class == NULL)
		return verdict_add_note(v, what, "ticker %s is not in the "
		    "security map, so its asset class is unknown", t->ticker);
	if (t->holdings == NULL || decimal_is_zero(t->total))
		return verdict_add_note(v, what, "%s: no share can be computed "
		    "(%s)", t->asset_class, t->holdings == NULL ? "no holdings "
		    "snapshot" : "the portfolio total is $0.00");
	/* Cash buys a cash security, or a sale of one is cash: no change. */
	if (text_equal_nocase(t->asset_class, "cash"))
		after = t->held_in_class;
	else
		after = t->buy ? decimal_add(t->held_in_class, t->value) :
		    decimal_sub_floor(t->held_in_class, t->value);
	before_share = decimal_percent(t->held_in_class, t->total);
	after_share = decimal_percent(after, t->total);
	band = band_of(t, t->asset_class);
	low = figure(band, "min_percent", &ok);
	high = figure(band, "max_percent", &ok);
	if (band == NULL || !ok) {
		format_percent(before_text, sizeof before_text, before_share);
		format_percent(after_text, sizeof after_text, after_share);
		return verdict_add_note(v, what, "%s: %s of the portfolio "
		    "before, %s after the %s; %s", t->asset_class, before_text,
		    after_text, t->buy ? "buy" : "sell", t->ips == NULL ?
		    "no IPS, so no band" : "no band for it in the IPS");
	}
	before_low = decimal_compare_products(t->held_in_class, hundred, low,
	    t->total);
	before_high = decimal_compare_products(t->held_in_class, hundred, high,
	    t->total);
	after_low = decimal_compare_products(after, hundred, low, t->total);
	after_high = decimal_compare_products(after, hundred, high, t->total);
	places = places_against_band(places_against_band(2, before_share, low,
	    high, before_low, before_high), after_share, low, high, after_low,
	    after_high);
	format_percent_places(before_text, sizeof before_text, before_share,
	    places);
	format_percent_places(after_text, sizeof after_text, after_share,
	    places);
	format_percent_places(low_text, sizeof low_text,
	    decimal_to_double(low), places);
	format_percent_places(high_text, sizeof high_text,
	    decimal_to_double(high), places);
	return verdict_add_note(v, what, "%s: %s of the portfolio before%s, "
	    "%s after the %s%s; band %s-%s%s", t->asset_class, before_text,
	    against_band(before_low, before_high), after_text,
	    t->buy ? "buy" : "sell", against_band(after_low, after_high),
	    low_text, high_text, before_low >= 0 && before_high <= 0 &&
	    (after_low < 0 || after_high > 0) ? ": the trade carries it out "
	    "of its band (noted, not failed: the rule is direction-based)" :
	    "");
}

/* The position's share of total after the trade. */
static int
note_position_share(const struct trade *t, struct verdict *v)
{
	static const char what[] = "position_share";
	char before_text[PERCENT_SIZE], after_text[PERCENT_SIZE];
	struct decimal after;

	if (t->holdings == NULL || decimal_is_zero(t->total))
		return verdict_add_note(v, what, "%s: no share can be computed "
		    "(%s)", t->ticker, t->holdings == NULL ? "no holdings "
		    "snapshot" : "the portfolio total is $0.00");
	after = t->buy ? decimal_add(t->held_in_ticker, t->value) :
	    decimal_sub_floor(t->held_in_ticker, t->value);
	format_percent(before_text, sizeof before_text,
	    decimal_percent(t->held_in_ticker, t->total));
	format_percent(after_text, sizeof after_text,
	    decimal_percent(after, t->total));
	return verdict_add_note(v, what, "%s: %s of the portfolio after the "
	    "%s (%s before)%s", t->ticker, after_text, t->buy ? "buy" : "sell",
	    before_text, !t->buy && decimal_compare(t->value,
	    t->held_in_ticker) > 0 ? "; the sell is worth more than the "
	    "position held" : "");
}

/* A buy's value against the cash of the holdings. */
static int
note_cash(const struct trade *t, struct verdict *v)
{
	static const char what[] = "cash";
	char value_text[MONEY_SIZE], cash_text[MONEY_SIZE],
	    rest_text[MONEY_SIZE];
	struct decimal cash;
	bool ok = true;

	if (!t->buy)
		return 0;
	if (t->holdings == NULL)
		return verdict_add_note(v, what, "no holdings snapshot: the "
		    "cash for this buy is unknown");
	cash = figure(t->holdings, "cash_usd", &ok);
	format_usd(value_text, sizeof value_text, t->value_usd);
	format_usd(cash_text, sizeof cash_text, decimal_to_double(cash));
	if (decimal_compare(t->value, cash) > 0) {
		format_usd(rest_text, sizeof rest_text, decimal_to_double(
		    decimal_sub_floor(t->value, cash)));
		return verdict_add_note(v, what, "the buy of %s exceeds the "
		    "cash of %s by %s", value_text, cash_text, rest_text);
	}
	format_usd(rest_text, sizeof rest_text, decimal_to_double(
	    decimal_sub_floor(cash, t->value)));
	return verdict_add_note(v, what, "the buy of %s is within the cash "
	    "of %s (%s left)", value_text, cash_text, rest_text);
}

/* The holdings snapshot's as_of and its age at this check. */
static int
note_holdings_as_of(const struct check_input *in, const struct trade *t,
    struct verdict *v)
{
	static const char what[] = "holdings_as_of";
	const char *as_of = string_member(t->holdings, "as_of");
	const char *snapshot = string_member(t->holdings, "snapshot_id");
	char age[32];
	long long at;

	if (t->holdings == NULL)
		return verdict_add_note(v, what, "no holdings snapshot has been "
		    "imported for user %s", t->user_id);
	if (as_of == NULL || !timestamp_parse(as_of, &at))
		return verdict_add_note(v, what, "snapshot %s: its as_of "
		    "cannot be read", snapshot ? snapshot : "?");
	format_age(age, sizeof age, at <= in->now_ms ? in->now_ms - at :
	    at - in->now_ms);
	return verdict_add_note(v, what, "snapshot %s as of %s: %s %s this "
	    "check", snapshot ? snapshot : "?", as_of, age, at <= in->now_ms ?
	    "before" : "AFTER");
}

static int
trade_notes(const struct check_input *in, const struct trade *t,
    struct verdict *v)
{
	if (note_class_share(t, v) != 0 || note_position_share(t, v) != 0 ||
	    note_cash(t, v) != 0 || note_holdings_as_of(in, t, v) != 0)
		return -1;
	return 0;
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

/* a x n, for the small factors of the price check. */
static struct decimal
times(struct decimal a, unsigned n)
{
	struct decimal sum = decimal_from_int(0);

	while (n-- > 0)
		sum = decimal_add(sum, a);
	return sum;
}

/*
 * SPEC 2.1 (v2): |pp - hp| x 5 > hp, pp = value / q, hp = V / Q (held
 * value over held quantity; or (v3) the map's price_usd over 1).  Times
 * q x Q (both > 0) it is |value x Q - V x q| x 5 > V x q: when the packet's
 * price is the higher, 5 x value x Q > 6 x V x q; else 4 x V x q > 5 x
 * value x Q.  Exactly 20% either way is not a deviation.
 */
static bool
price_deviates(const struct trade *t, struct decimal held,
    struct decimal held_q)
{
	if (decimal_compare_products(t->value, held_q, held, t->quantity) >= 0)
		return decimal_compare_products(times(t->value, 5), held_q,
		    times(held, 6), t->quantity) > 0;
	return decimal_compare_products(times(held, 4), t->quantity,
	    times(t->value, 5), held_q) > 0;
}

/*
 * A price per unit for a detail: dollars and cents, or below a dollar
 * four significant digits, written out ("$0.000001", not "$1e-06").
 */
static void
format_price(char *buf, size_t size, double price)
{
	int places;
	size_t len;

	if (price >= 1 || price <= 0) {
		format_usd(buf, size, price);
		return;
	}
	places = (int)ceil(-log10(price)) + 3;
	snprintf(buf, size, "$%.*f", places > 20 ? 20 : places, price);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
}

/*
 * The price check against a reference: the holdings' price when H holds
 * the ticker with quantities, else (SPEC 2.1 v3) the security map's
 * price_usd; with neither, no_reference_price, since a trade's value is
 * then only what the packet says it is.
 */
static int
assess_price(const struct trade *t, struct verdict *v)
{
	char packet_price[MONEY_SIZE], held_price[MONEY_SIZE];
	const cJSON *map_price = json_member(t->security, "price_usd");
	struct decimal reference;
	double pp, hp;

	/* An unreadable trade (every rule failed) has no quantity. */
	pp = decimal_is_zero(t->quantity) ? 0 : decimal_to_double(t->value) /
	    decimal_to_double(t->quantity);
	format_price(packet_price, sizeof packet_price, pp);
	if (t->held_quantity_known) {
		if (!price_deviates(t, t->held_in_ticker, t->held_quantity))
			return 0;
		hp = decimal_to_double(t->held_in_ticker) /
		    decimal_to_double(t->held_quantity);
		format_price(held_price, sizeof held_price, hp);
		return verdict_add_reason(v, "price_deviation", "the packet "
		    "prices %s at %s a unit (estimated_value_usd / quantity), "
		    "%s%.1f%% from the %s a unit of the holdings; more than "
		    "20%% apart", t->ticker, packet_price, pp > hp ? "+" : "",
		    hp > 0 ? (pp - hp) / hp * 100 : 100, held_price);
	}
	/* The loader takes only a price_usd > 0 that converts exactly. */
	if (!cJSON_IsNumber(map_price) ||
	    !decimal_from_double(figure_value(map_price), &reference) ||
	    decimal_is_zero(reference))
		return verdict_add_reason(v, "no_reference_price", "the "
		    "packet prices %s at %s a unit, and nothing confirms it: "
		    "the holdings hold no quantity of it and the security map "
		    "gives it no price_usd", t->ticker, packet_price);
	if (!price_deviates(t, reference, decimal_from_int(1)))
		return 0;
	hp = figure_value(map_price);
	format_price(held_price, sizeof held_price, hp);
	return verdict_add_reason(v, "price_deviation", "the packet prices %s "
	    "at %s a unit (estimated_value_usd / quantity), %s%.1f%% from the "
	    "security map's price_usd of %s; more than 20%% apart", t->ticker,
	    packet_price, pp > hp ? "+" : "", (pp - hp) / hp * 100, held_price);
}

/* SPEC 2.1 (v3): a buy the cash on hand cannot pay for. */
static int
assess_cash(const struct trade *t, struct verdict *v)
{
	char value_text[MONEY_SIZE], cash_text[MONEY_SIZE],
	    rest_text[MONEY_SIZE];
	struct decimal cash;
	bool ok = true;

	if (!t->buy)
		return 0;
	/* Unknown cash cannot be shown to cover the buy: fail closed. */
	if (t->holdings == NULL)
		return verdict_add_reason(v, "exceeds_cash", "no holdings "
		    "snapshot: the cash for this buy is unknown");
	cash = figure(t->holdings, "cash_usd", &ok);
	if (ok && decimal_compare(t->value, cash) <= 0)
		return 0;
	format_usd(value_text, sizeof value_text, t->value_usd);
	format_usd(cash_text, sizeof cash_text, decimal_to_double(cash));
	format_usd(rest_text, sizeof rest_text, decimal_to_double(
	    decimal_sub_floor(t->value, cash)));
	return verdict_add_reason(v, "exceeds_cash", "the buy of %s exceeds "
	    "the cash of %s (cash_usd) by %s", value_text, cash_text,
	    rest_text);
}

static int
trade_assess_stakes(struct verdict *v, const union rule_pack_state *state)
{
	char value_text[MONEY_SIZE], limit_text[MONEY_SIZE];
	char share[PERCENT_SIZE], pct[PERCENT_SIZE];
	const cJSON *threshold;
	struct decimal limit;
	struct trade t;
	bool ok = true;

	/* As evaluate() read it: an unreadable figure failed every rule. */
	memcpy(&t, state->bytes, sizeof t);
	if (verdict_add_failed_rules(v) != 0)
		return -1;
	/* An absent threshold never triggers (SPEC 2.1). */
	threshold = json_member(t.ips, "approval_required_above_usd");
	if (cJSON_IsNumber(threshold)) {
		limit = figure(t.ips, "approval_required_above_usd", &ok);
		if (!ok || decimal_compare(t.value, limit) > 0) {
			format_usd(value_text, sizeof value_text, t.value_usd);
			format_usd(limit_text, sizeof limit_text,
			    figure_value(threshold));
			if (verdict_add_reason(v, "above_usd", "value %s > %s "
			    "(approval_required_above_usd)", value_text,
			    limit_text) != 0)
				return -1;
		}
	}
	threshold = json_member(t.ips, "approval_required_above_percent");
	if (cJSON_IsNumber(threshold)) {
		limit = figure(t.ips, "approval_required_above_percent", &ok);
		format_percent(pct, sizeof pct, figure_value(threshold));
		if (t.holdings == NULL || decimal_is_zero(t.total)) {
			/* Unknown share of an unknown portfolio: fail closed. */
			if (verdict_add_reason(v, "above_percent",
			    "share of portfolio unknown, "
			    "so it cannot be shown to be at most %s "
			    "(approval_required_above_percent)", pct) != 0)
				return -1;
		} else if (!ok || decimal_compare_products(t.value,
		    decimal_from_int(100), limit, t.total) > 0) {
			format_percents(decimal_percent(t.value, t.total), 1,
			    share, figure_value(threshold), pct, sizeof share);
			if (verdict_add_reason(v, "above_percent",
			    "%s of portfolio > %s "
			    "(approval_required_above_percent)", share, pct) != 0)
				return -1;
		}
	}
	if (assess_price(&t, v) != 0 || assess_cash(&t, v) != 0)
		return -1;
	v->requires_human_approval = v->reason_count > 0;
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
static const char *
trade_not_pending(const cJSON *action)
{
	const char *status = string_member(action, "status");
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
	return string_member(action, "user_id");
}

static void
trade_summarize(const cJSON *action, char *buf, size_t size)
{
	char side[8], money[MONEY_SIZE];
	const cJSON *quantity = json_member(action, "quantity");
	const cJSON *value = json_member(action, "estimated_value_usd");
	const char *ticker = string_member(action, "ticker");

	text_upper(side, sizeof side, string_member(action, "side") ?
	    string_member(action, "side") : "?");
	format_usd(money, sizeof money, cJSON_IsNumber(value) ?
	    value->valuedouble : 0);
	snprintf(buf, size, "%s %s x%.15g %s", side, ticker ? ticker : "?",
	    cJSON_IsNumber(quantity) ? quantity->valuedouble : 0, money);
}

#define HOLDINGS_SHOWN 20		/* positions in the detail's table */

/* One row of the holdings table; the trade's ticker is marked. */
static int
holdings_row(struct detail *d, const struct trade *t, const char *ticker,
    double value, const char *asset_class, bool traded)
{
	char money[MONEY_SIZE], share[PERCENT_SIZE];

	format_usd(money, sizeof money, value);
	format_percent(share, sizeof share, t->total_usd > 0 ?
	    value / t->total_usd * 100 : 0);
	return detail_add(d, traded ? DETAIL_HEADING : DETAIL_PLAIN,
	    "%s %-10s %16s  %-16s %8s", traded ? ">" : " ", ticker, money,
	    asset_class != NULL ? asset_class : "(unknown)", share);
}

/* The holdings the shares are of: ticker, value, class, share. */
static int
trade_describe_holdings(const struct check_input *in,
    const struct advisory *advisory, struct detail *d)
{
	const cJSON *position, *value;
	const char *ticker;
	int shown = 0, count;
	struct trade read, *t = &read;

	(void)advisory;
	if (!trade_read(in, t))
		return 0;	/* the heading said the figures are unreadable */
	if (t->holdings == NULL)
		return detail_add(d, DETAIL_ALERT, "Holdings: no snapshot "
		    "imported for user %s", t->user_id);
	count = cJSON_GetArraySize(json_member(t->holdings, "positions"));
	if (detail_add(d, DETAIL_HEADING, "Holdings (snapshot %s, as of %s; "
	    "> the traded ticker)", string_member(t->holdings, "snapshot_id"),
	    string_member(t->holdings, "as_of")) != 0 ||
	    detail_add(d, DETAIL_DIM, "  %-10s %16s  %-16s %8s", "ticker",
	    "value", "class", "share") != 0)
		return -1;
	cJSON_ArrayForEach(position, json_member(t->holdings, "positions")) {
		if (shown++ == HOLDINGS_SHOWN)
			break;
		ticker = string_member(position, "ticker");
		value = json_member(position, "market_value_usd");
		if (holdings_row(d, t, ticker != NULL ? ticker : "?",
		    cJSON_IsNumber(value) ? figure_value(value) : 0,
		    string_member(security_of(in->securities, ticker),
		    "asset_class"), text_equal_nocase(ticker, t->ticker)) != 0)
			return -1;
	}
	if (count > HOLDINGS_SHOWN && detail_add(d, DETAIL_DIM, "  ... and "
	    "%d more positions", count - HOLDINGS_SHOWN) != 0)
		return -1;
	value = json_member(t->holdings, "cash_usd");
	return holdings_row(d, t, "(cash)", cJSON_IsNumber(value) ?
	    figure_value(value) : 0, "cash", false);
}

/* The proposal in the officer's terms: size against the portfolio, policy used. */
static int
trade_describe(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	char summary[256], money[MONEY_SIZE], share[32];
	const cJSON *cited = json_member(in->action, "ips_version_referenced");
	const cJSON *cited_version = json_member(cited, "version");
	const char *rationale = string_member(in->action, "rationale");
	struct trade t;
	int rc;

	trade_summarize(in->action, summary, sizeof summary);
	if (!trade_read(in, &t))
		return detail_add(d, DETAIL_ALERT, "%s (figures unreadable)",
		    summary);
	if (t.holdings != NULL && !decimal_is_zero(t.total)) {
		format_usd(money, sizeof money, t.total_usd);
		format_percent(share, sizeof share,
		    decimal_percent(t.value, t.total));
		rc = detail_add(d, DETAIL_HEADING, "%s = %s of a %s portfolio",
		    summary, share, money);
	} else
		rc = detail_add(d, DETAIL_HEADING, "%s (no portfolio total: "
		    "no holdings)", summary);
	if (rc == 0 && t.ips != NULL)
		rc = detail_add(d, DETAIL_PLAIN, "user %s \xc2\xb7 IPS %s v%lld "
		    "(packet cites %s v%.0f) \xc2\xb7 holdings %s", t.user_id,
		    t.ips_id, t.ips_version, string_member(cited, "ips_id") ?
		    string_member(cited, "ips_id") : "?",
		    cJSON_IsNumber(cited_version) ? cited_version->valuedouble :
		    0, string_member(t.holdings, "snapshot_id") ?
		    string_member(t.holdings, "snapshot_id") : "none");
	else if (rc == 0)
		rc = detail_add(d, DETAIL_ALERT, "user %s has no IPS imported",
		    t.user_id);
	if (rc == 0 && rationale != NULL)
		rc = detail_add_text(d, DETAIL_PLAIN, "Rationale: ", rationale);
	if (rc == 0 && trade_not_pending(in->action) != NULL)
		rc = detail_add(d, DETAIL_ALERT, "Pipeline status: %s: decided "
		    "elsewhere, so approval is refused (not_pending)",
		    trade_not_pending(in->action));
	(void)advisory;
	return rc;
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
