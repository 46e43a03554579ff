/*
 * The trade pack's high-stakes reasons (SPEC 2.1): the IPS's approval
 * thresholds, the price check, and a buy beyond the cash on hand.
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
	    !decimal_from_double(trade_figure_value(map_price), &reference) ||
	    decimal_is_zero(reference))
		return verdict_add_reason(v, "no_reference_price", "the "
		    "packet prices %s at %s a unit, and nothing confirms it: "
		    "the holdings hold no quantity of it and the security map "
		    "gives it no price_usd", t->ticker, packet_price);
	if (!price_deviates(t, reference, decimal_from_int(1)))
		return 0;
	hp = trade_figure_value(map_price);
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
	struct trade_cash c;

	if (!trade_cash(t, &c))
		return 0;
	/* Unknown cash cannot be shown to cover the buy: fail closed. */
	if (!c.known)
		return verdict_add_reason(v, "exceeds_cash", "no holdings "
		    "snapshot: the cash for this buy is unknown");
	if (!c.exceeds)
		return 0;
	trade_cash_format(t, &c);
	return verdict_add_reason(v, "exceeds_cash", "the buy of %s exceeds "
	    "the cash of %s (cash_usd) by %s", c.value, c.cash, c.difference);
}

int
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
		limit = trade_figure(t.ips, "approval_required_above_usd", &ok);
		if (!ok || decimal_compare(t.value, limit) > 0) {
			format_usd(value_text, sizeof value_text, t.value_usd);
			format_usd(limit_text, sizeof limit_text,
			    trade_figure_value(threshold));
			if (verdict_add_reason(v, "above_usd", "value %s > %s "
			    "(approval_required_above_usd)", value_text,
			    limit_text) != 0)
				return -1;
		}
	}
	threshold = json_member(t.ips, "approval_required_above_percent");
	if (cJSON_IsNumber(threshold)) {
		limit = trade_figure(t.ips, "approval_required_above_percent", &ok);
		format_percent(pct, sizeof pct, trade_figure_value(threshold));
		if (t.holdings == NULL || decimal_is_zero(t.total)) {
			/* Unknown share of an unknown portfolio: fail closed. */
			if (verdict_add_reason(v, "above_percent",
			    "share of portfolio unknown, "
			    "so it cannot be shown to be at most %s "
			    "(approval_required_above_percent)", pct) != 0)
				return -1;
		} else if (!ok || decimal_compare_products(t.value,
		    decimal_from_int(100), limit, t.total) > 0) {
			trade_format_percents(decimal_percent(t.value, t.total), 1,
			    share, trade_figure_value(threshold), pct, sizeof share);
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

