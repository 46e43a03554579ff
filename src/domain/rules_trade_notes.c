/*
 * The trade pack's notes (SPEC 2.1 and 3, v2): what an officer needs in
 * order to judge a trade and the rules do not enforce.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "rules_trade.h"
#include "text.h"
#include "timestamp.h"

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
	band = trade_band_of(t, t->asset_class);
	low = trade_figure(band, "min_percent", &ok);
	high = trade_figure(band, "max_percent", &ok);
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
	places = trade_places_against_band(trade_places_against_band(2, before_share, low,
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
	struct trade_cash c;

	if (!trade_cash(t, &c))
		return 0;
	if (!c.known)
		return verdict_add_note(v, what, "no holdings snapshot: the "
		    "cash for this buy is unknown");
	trade_cash_format(t, &c);
	if (c.exceeds)
		return verdict_add_note(v, what, "the buy of %s exceeds the "
		    "cash of %s by %s", c.value, c.cash, c.difference);
	return verdict_add_note(v, what, "the buy of %s is within the cash "
	    "of %s (%s left)", c.value, c.cash, c.difference);
}

/* The holdings snapshot's as_of and its age at this check. */
static int
note_holdings_as_of(const struct check_input *in, const struct trade *t,
    struct verdict *v)
{
	static const char what[] = "holdings_as_of";
	const char *as_of = trade_string(t->holdings, "as_of");
	const char *snapshot = trade_string(t->holdings, "snapshot_id");
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

int
trade_notes(const struct check_input *in, const struct trade *t,
    struct verdict *v)
{
	if (note_class_share(t, v) != 0 || note_position_share(t, v) != 0 ||
	    note_cash(t, v) != 0 || note_holdings_as_of(in, t, v) != 0)
		return -1;
	return 0;
}

