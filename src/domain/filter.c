/*
 * The queue filter of SPEC 7 (v3): parsing an expression into terms and
 * testing a queue row against them.  Pure: the commands and the review
 * screens fill a filter_subject from what they have at hand.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "filter.h"
#include "i18n.h"

static const char *const field_names[FILTER_FIELD_COUNT] = {
	[FILTER_ID] = "id", [FILTER_KIND] = "kind", [FILTER_USER] = "user",
	[FILTER_TICKER] = "ticker", [FILTER_REQUESTER] = "requester",
	[FILTER_AUTHOR] = "author", [FILTER_SUMMARY] = "summary",
};

/* What a usage error lists: every name a term may start with. */
#define KNOWN_NAMES "id, kind, user, ticker, requester, author, summary, " \
	"flag, value, expires"

static char
ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/*
 * Whether needle occurs in haystack, ASCII letters folded: the screens'
 * search folds the same way, and folding only ASCII bytes never splits
 * a UTF-8 sequence.
 */
static bool
contains_folded(const char *haystack, const char *needle)
{
	size_t i, j;

	if (haystack == NULL)
		return false;
	for (i = 0; haystack[i] != '\0'; i++) {
		for (j = 0; needle[j] != '\0' && haystack[i + j] != '\0' &&
		    ascii_lower(haystack[i + j]) == ascii_lower(needle[j]); j++)
			;
		if (needle[j] == '\0')
			return true;
	}
	return needle[0] == '\0';
}

/* A dollar amount: digits, optionally a point and more digits. */
static bool
parse_amount(const char *text, double *value)
{
	size_t digits = strspn(text, "0123456789"), fraction = 0;

	if (digits == 0)
		return false;
	if (text[digits] == '.') {
		fraction = strspn(text + digits + 1, "0123456789");
		if (fraction == 0)
			return false;
		fraction++;
	}
	if (text[digits + fraction] != '\0' || digits + fraction > 20)
		return false;
	*value = strtod(text, NULL);
	return true;
}

/* A duration: a whole number of minutes, hours or days (30m, 2h, 1d). */
static bool
parse_duration(const char *text, long long *ms)
{
	size_t digits = strspn(text, "0123456789");
	long long unit;

	/* Nine digits of days still fit a long long of milliseconds. */
	if (digits == 0 || digits > 9 || text[digits] == '\0' ||
	    text[digits + 1] != '\0')
		return false;
	switch (text[digits]) {
	case 'm': unit = 60LL * 1000; break;
	case 'h': unit = 3600LL * 1000; break;
	case 'd': unit = 86400LL * 1000; break;
	default: return false;
	}
	*ms = strtoll(text, NULL, 10) * unit;
	return true;
}

/* One term into t: 0, or EXIT_USAGE naming it. */
static int
parse_term(const char *term, struct filter_term *t, struct error *err)
{
	size_t name_len = strcspn(term, ":<>");
	const char *rest = term + name_len + 1;
	char op = term[name_len];
	size_t i;

	memset(t, 0, sizeof *t);
	if (op == '\0') {
		t->test = FILTER_ANY_TEXT;
		return (t->text = strdup(term)) != NULL ? 0 :
		    error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	}
	for (i = 0; i < FILTER_FIELD_COUNT; i++) {
		if (strlen(field_names[i]) != name_len ||
		    strncmp(term, field_names[i], name_len) != 0)
			continue;
		if (op != ':' || *rest == '\0')
			/* L10N: %1$s is a filter term as typed, %2$s its
			   field name (id, user, ...): keep "FIELD:TEXT" */
			return error_set(err, EXIT_USAGE, NULL, _("filter term "
			    "'%s': %s takes FIELD:TEXT, with some text"),
			    term, field_names[i]);
		t->test = FILTER_TEXT;
		t->field = (enum filter_field)i;
		return (t->text = strdup(rest)) != NULL ? 0 :
		    error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	}
	if (name_len == 4 && strncmp(term, "flag", 4) == 0) {
		if (op != ':' || rest[0] == '\0' || rest[1] != '\0' ||
		    strchr(FILTER_FLAGS, rest[0]) == NULL)
			/* L10N: %1$s is a filter term as typed, %2$s the flag
			   characters: keep "flag:F" */
			return error_set(err, EXIT_USAGE, NULL, _("filter term "
			    "'%s': flag:F takes one of the flags %s"), term,
			    FILTER_FLAGS);
		t->test = FILTER_FLAG;
		t->flag = rest[0];
		return 0;
	}
	if (name_len == 5 && strncmp(term, "value", 5) == 0) {
		if (op == ':' || !parse_amount(rest, &t->value_usd))
			/* L10N: %s is a filter term as typed: keep "value>N"
			   and "value<N" */
			return error_set(err, EXIT_USAGE, NULL, _("filter term "
			    "'%s': write value>N or value<N, N in dollars "
			    "(e.g. 10000 or 99.50)"), term);
		t->test = op == '>' ? FILTER_VALUE_ABOVE : FILTER_VALUE_BELOW;
		return 0;
	}
	if (name_len == 7 && strncmp(term, "expires", 7) == 0) {
		if (op != '<' || !parse_duration(rest, &t->within_ms))
			/* L10N: %s is a filter term as typed: keep
			   "expires<D", "30m", "2h" and "1d" */
			return error_set(err, EXIT_USAGE, NULL, _("filter term "
			    "'%s': write expires<D, D such as 30m, 2h or 1d"),
			    term);
		t->test = FILTER_EXPIRES_WITHIN;
		return 0;
	}
	/* L10N: %1$s is a filter term as typed, %2$s the names a term may
	   start with (not translated: they are typed) */
	return error_set(err, EXIT_USAGE, NULL, _("filter term '%s': unknown "
	    "field (known: %s)"), term, KNOWN_NAMES);
}

int
filter_parse(const char *expression, struct filter *f, struct error *err)
{
	const char *p = expression;
	struct filter_term *grown;
	char *term = NULL;
	size_t len;
	int rc = 0;

	f->terms = NULL;
	f->count = 0;
	while (p != NULL && *p != '\0') {
		p += strspn(p, " \t");
		if ((len = strcspn(p, " \t")) == 0)
			break;
		if ((term = strndup(p, len)) == NULL ||
		    (grown = realloc(f->terms, (f->count + 1) *
		    sizeof *grown)) == NULL) {
			rc = error_set(err, EXIT_STORAGE, NULL,
			    _("out of memory"));
			goto cleanup;
		}
		f->terms = grown;
		if ((rc = parse_term(term, &f->terms[f->count], err)) != 0)
			goto cleanup;
		f->count++;
		free(term);
		term = NULL;
		p += len;
	}
cleanup:
	free(term);
	return rc;
}

static bool
term_matches(const struct filter_term *t, const struct filter_subject *s,
    long long now_ms)
{
	size_t i;

	switch (t->test) {
	case FILTER_TEXT:
		return contains_folded(s->text[t->field], t->text);
	case FILTER_ANY_TEXT:
		for (i = 0; i < FILTER_FIELD_COUNT; i++) {
			if (contains_folded(s->text[i], t->text))
				return true;
		}
		return false;
	case FILTER_FLAG:
		return s->flags != NULL && strchr(s->flags, t->flag) != NULL;
	case FILTER_VALUE_ABOVE:
		return s->has_value && s->value_usd > t->value_usd;
	case FILTER_VALUE_BELOW:
		return s->has_value && s->value_usd < t->value_usd;
	case FILTER_EXPIRES_WITHIN:
		/* SPEC 7: pending ones, so not those already expired. */
		return s->pending && s->has_expiry &&
		    s->expires_at_ms > now_ms &&
		    s->expires_at_ms - now_ms < t->within_ms;
	}
	return false;
}

bool
filter_needs_action(const struct filter *f)
{
	size_t i;

	for (i = 0; i < f->count; i++) {
		switch (f->terms[i].test) {
		case FILTER_ANY_TEXT:
		case FILTER_VALUE_ABOVE:
		case FILTER_VALUE_BELOW:
			return true;
		case FILTER_TEXT:
			if (f->terms[i].field == FILTER_USER ||
			    f->terms[i].field == FILTER_TICKER)
				return true;
			break;
		case FILTER_FLAG:
		case FILTER_EXPIRES_WITHIN:
			break;
		}
	}
	return false;
}

bool
filter_matches(const struct filter *f, const struct filter_subject *s,
    long long now_ms)
{
	size_t i;

	for (i = 0; i < f->count; i++) {
		if (!term_matches(&f->terms[i], s, now_ms))
			return false;
	}
	return true;
}

void
filter_free(struct filter *f)
{
	size_t i;

	for (i = 0; i < f->count; i++)
		free(f->terms[i].text);
	free(f->terms);
	f->terms = NULL;
	f->count = 0;
}
