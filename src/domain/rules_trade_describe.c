/*
 * The trade pack's detail: the proposal in the officer's terms, and the
 * holdings it is measured against.
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
int
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
	    "> the traded ticker)", trade_string(t->holdings, "snapshot_id"),
	    trade_string(t->holdings, "as_of")) != 0 ||
	    detail_add(d, DETAIL_DIM, "  %-10s %16s  %-16s %8s", "ticker",
	    "value", "class", "share") != 0)
		return -1;
	cJSON_ArrayForEach(position, json_member(t->holdings, "positions")) {
		if (shown++ == HOLDINGS_SHOWN)
			break;
		ticker = trade_string(position, "ticker");
		value = json_member(position, "market_value_usd");
		if (holdings_row(d, t, ticker != NULL ? ticker : "?",
		    cJSON_IsNumber(value) ? trade_figure_value(value) : 0,
		    trade_string(trade_security_of(in->securities, ticker),
		    "asset_class"), text_equal_nocase(ticker, t->ticker)) != 0)
			return -1;
	}
	if (count > HOLDINGS_SHOWN && detail_add(d, DETAIL_DIM, "  ... and "
	    "%d more positions", count - HOLDINGS_SHOWN) != 0)
		return -1;
	value = json_member(t->holdings, "cash_usd");
	return holdings_row(d, t, "(cash)", cJSON_IsNumber(value) ?
	    trade_figure_value(value) : 0, "cash", false);
}

/* The proposal in the officer's terms: size against the portfolio, policy used. */
int
trade_describe(const struct check_input *in, const struct advisory *advisory,
    struct detail *d)
{
	char summary[256], money[MONEY_SIZE], share[32];
	const cJSON *cited = json_member(in->action, "ips_version_referenced");
	const cJSON *cited_version = json_member(cited, "version");
	const char *rationale = trade_string(in->action, "rationale");
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
		    t.ips_id, t.ips_version, trade_string(cited, "ips_id") ?
		    trade_string(cited, "ips_id") : "?",
		    cJSON_IsNumber(cited_version) ? cited_version->valuedouble :
		    0, trade_string(t.holdings, "snapshot_id") ?
		    trade_string(t.holdings, "snapshot_id") : "none");
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

