/*
 * Shared by the four files of the trade rule pack (SPEC 2.1): the rules
 * in rules_trade.c, the notes in rules_trade_notes.c, the high-stakes
 * reasons in rules_trade_stakes.c and the detail in rules_trade_describe.c.
 * One reading of a trade (trade_read) serves all of them, so the rules
 * and what the officer is shown never read a figure two ways.
 */
#ifndef COUNTERSIGN_RULES_TRADE_H
#define COUNTERSIGN_RULES_TRADE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "decimal.h"
#include "detail.h"
#include "rule_pack.h"
#include "verdict.h"

#define MONEY_SIZE 48
#define PERCENT_SIZE 64

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

/* Reading (rules_trade.c). */
bool trade_read(const struct check_input *in, struct trade *t);
const char *trade_string(const cJSON *object, const char *key);
double trade_figure_value(const cJSON *item);
struct decimal trade_figure(const cJSON *object, const char *key, bool *ok);
const cJSON *trade_security_of(const cJSON *securities, const char *ticker);
const cJSON *trade_band_of(const struct trade *t, const char *asset_class);
int trade_places_against_band(int places, double share, struct decimal low,
    struct decimal high, int below, int above);
void trade_format_percents(double share, int sign, char *share_text,
    double limit, char *limit_text, size_t size);
const char *trade_not_pending(const cJSON *action);

/*
 * A buy against the cash on hand, for the note and the reason alike.
 * trade_cash() decides; trade_cash_format() writes the figures, which the
 * reason needs only for a buy over the cash (the note always).
 */
struct trade_cash {
	bool known;			/* the holdings give cash_usd */
	bool exceeds;			/* the buy is more than it (or unreadable) */
	struct decimal cash_figure;	/* cash_usd; 0 when unreadable */
	char value[MONEY_SIZE];		/* the buy's value */
	char cash[MONEY_SIZE];
	char difference[MONEY_SIZE];	/* what is over, or what is left */
};
bool trade_cash(const struct trade *t, struct trade_cash *c);
void trade_cash_format(const struct trade *t, struct trade_cash *c);
void trade_summarize(const cJSON *action, char *buf, size_t size);

/* The notes of SPEC 2.1 and 3 (rules_trade_notes.c). */
int trade_notes(const struct check_input *in, const struct trade *t,
    struct verdict *v);

/* The high-stakes reasons (rules_trade_stakes.c). */
int trade_assess_stakes(struct verdict *v, const union rule_pack_state *state);

/* The detail (rules_trade_describe.c). */
int trade_describe(const struct check_input *in,
    const struct advisory *advisory, struct detail *d);
int trade_describe_holdings(const struct check_input *in,
    const struct advisory *advisory, struct detail *d);

#endif
