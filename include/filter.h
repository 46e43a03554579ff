/*
 * The queue filter of SPEC 7 (v3): terms separated by spaces, all of
 * which must hold.  One parser for `list --filter`, the review screens'
 * limit (`l`) and the service's `list`, so that the three agree.
 */
#ifndef COUNTERSIGN_FILTER_H
#define COUNTERSIGN_FILTER_H
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The text fields a FIELD:TEXT term names; a bare word tries them all. */
enum filter_field {
	FILTER_ID,
	FILTER_KIND,
	FILTER_USER,
	FILTER_TICKER,
	FILTER_REQUESTER,
	FILTER_AUTHOR,
	FILTER_SUMMARY,
	FILTER_FIELD_COUNT
};

enum filter_test {
	FILTER_TEXT,		/* FIELD:TEXT */
	FILTER_ANY_TEXT,	/* a bare word */
	FILTER_FLAG,		/* flag:F */
	FILTER_VALUE_ABOVE,	/* value>N */
	FILTER_VALUE_BELOW,	/* value<N */
	FILTER_EXPIRES_WITHIN	/* expires<D */
};

struct filter_term {
	enum filter_test test;
	enum filter_field field;	/* FILTER_TEXT */
	char *text;			/* the text sought, or NULL */
	char flag;			/* FILTER_FLAG */
	double value_usd;		/* FILTER_VALUE_* */
	long long within_ms;		/* FILTER_EXPIRES_WITHIN */
};

struct filter {
	struct filter_term *terms;
	size_t count;			/* 0: everything matches */
};

/* What a filter is tested against: one queue row and its action's facts. */
struct filter_subject {
	const char *text[FILTER_FIELD_COUNT];	/* NULL when it has none */
	const char *flags;		/* its queue flag characters, e.g. "Hx" */
	bool has_value;			/* a trade's estimated_value_usd */
	double value_usd;
	bool pending;			/* still to be decided, not expired */
	bool has_expiry;
	long long expires_at_ms;
};

/* The queue flags a flag:F term may name, as the queue shows them. */
#define FILTER_FLAGS "x!HELDQ"

/*
 * Parses expression into f (filter_free() it, also on error).  A term of
 * an unknown field or a malformed one is EXIT_USAGE with err->field the
 * term as typed and the message naming it.
 */
int filter_parse(const char *expression, struct filter *f, struct error *err);
/*
 * Whether a term reads what only the action's packet tells (user,
 * ticker, value), so that a caller holding queue rows fetches it.
 */
bool filter_needs_action(const struct filter *f);
/* Whether every term holds for s at now_ms. */
bool filter_matches(const struct filter *f, const struct filter_subject *s,
    long long now_ms);
void filter_free(struct filter *f);
#endif
