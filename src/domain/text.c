/* Locale-independent text helpers. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "unicode_text.h"

static int
ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

bool
text_equal_nocase(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return false;
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		if (ascii_lower((unsigned char)*a) != ascii_lower((unsigned char)*b))
			return false;
	}
	return *a == *b;
}

void
text_upper(char *buf, size_t size, const char *text)
{
	size_t i;

	if (size == 0)
		return;
	for (i = 0; text[i] != '\0' && i + 1 < size; i++) {
		unsigned char c = (unsigned char)text[i];
		buf[i] = (char)((c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c);
	}
	buf[i] = '\0';
}

void
text_copy_bounded(char *buf, size_t size, const char *text)
{
	size_t length = strlen(text);

	if (size == 0)
		return;
	if (length > size - 1)
		length = size - 1;
	memcpy(buf, text, length);
	buf[length] = '\0';
}

/*
 * What snprintf "%.2f" writes, computed directly when the rounding is
 * plain: a check formats several figures per rule, and printf of a double
 * costs more than the rule.  value * 100 is within 1e-5 of exact below
 * 1e9, so a fraction further than 1e-4 from one half rounds the same way
 * the exact value does; anything else is left to printf.
 */
static void
two_decimals(char *buf, size_t size, double value)
{
	double magnitude = fabs(value), scaled, whole, fraction;
	unsigned long long cents;
	char text[32];
	size_t at = sizeof text;

	if (!(magnitude < 1e9)) {
		snprintf(buf, size, "%.2f", value);
		return;
	}
	scaled = magnitude * 100;
	whole = floor(scaled);
	fraction = scaled - whole;
	if (fabs(fraction - 0.5) < 1e-4) {
		snprintf(buf, size, "%.2f", value);
		return;
	}
	cents = (unsigned long long)whole + (fraction > 0.5);
	/* Written backwards: two decimals, the point, then the units. */
	text[--at] = '\0';
	text[--at] = (char)('0' + cents % 10);
	text[--at] = (char)('0' + cents / 10 % 10);
	text[--at] = '.';
	cents /= 100;
	do {
		text[--at] = (char)('0' + cents % 10);
		cents /= 10;
	} while (cents != 0);
	if (signbit(value))
		text[--at] = '-';
	text_copy_bounded(buf, size, text + at);
}

/*
 * Money is formatted by hand rather than with printf's ' flag: the
 * grouping must not change with the officer's locale, or two officers
 * would read different figures in the same audit export.
 */
void
format_usd(char *buf, size_t size, double amount)
{
	/* The sign and '$', up to 95 grouped digits, '.', the decimals. */
	char digits[64], text[2 + 95 + 1 + sizeof digits];
	const char *decimals;
	size_t len, i, out = 0, head, grouped = 0;
	char *dot;

	two_decimals(digits, sizeof digits, fabs(amount));
	dot = strchr(digits, '.');
	if (dot == NULL)	/* inf or nan: never reached for loaded input */
		dot = digits + strlen(digits);
	len = (size_t)(dot - digits);
	head = len % 3 == 0 ? 3 : len % 3;
	if (amount < 0)
		text[out++] = '-';
	text[out++] = '$';
	/* Written in place rather than by snprintf(), 7 figures a check. */
	for (i = 0; i < len && grouped + 2 < 96; i++) {
		if (i != 0 && (i - head) % 3 == 0 && i >= head) {
			text[out++] = ',';
			grouped++;
		}
		text[out++] = digits[i];
		grouped++;
	}
	/* The decimals, with a '.' whatever LC_NUMERIC says. */
	decimals = *dot != '\0' ? dot + 1 : "00";
	text[out++] = '.';
	len = strlen(decimals);
	memcpy(text + out, decimals, len + 1);
	text_copy_bounded(buf, size, text);
}

/* Room for "%.20f" of the largest double (309 digits before the point). */
#define PERCENT_DIGITS 400

/* tmp as a percent: a '.' whatever the locale, no trailing zeros, a '%'. */
static void
percent_finish(char *buf, size_t size, char *tmp)
{
	char with_sign[PERCENT_DIGITS + 1], *p;
	size_t length;

	/* Whatever the locale's decimal point is, show a '.'. */
	for (p = tmp; *p != '\0'; p++) {
		if (*p == ',')
			*p = '.';
	}
	p = strchr(tmp, '.');
	if (p != NULL) {
		char *end = tmp + strlen(tmp) - 1;
		while (end > p && *end == '0')
			*end-- = '\0';
		if (end == p)
			*end = '\0';
	}
	/* tmp may be full (63 digits of a huge value): add the % apart. */
	length = strlen(tmp);
	memcpy(with_sign, tmp, length);
	memcpy(with_sign + length, "%", 2);
	text_copy_bounded(buf, size, with_sign);
}

void
format_percent(char *buf, size_t size, double percent)
{
	char tmp[PERCENT_DIGITS];

	two_decimals(tmp, sizeof tmp, percent);
	percent_finish(buf, size, tmp);
}

void
format_percent_places(char *buf, size_t size, double percent, int places)
{
	char tmp[PERCENT_DIGITS];

	if (places <= 2) {
		format_percent(buf, size, percent);
		return;
	}
	snprintf(tmp, sizeof tmp, "%.*f", places, percent);
	percent_finish(buf, size, tmp);
}

/*
 * Two decimals show most shares well, but "7%, above the 7% limit" for
 * 7.0000001 reads as a contradiction: go on until the two differ, and
 * stop where a double has no more digits to give.
 */
int
percent_places(double a, double b)
{
	char x[PERCENT_DIGITS], y[PERCENT_DIGITS];
	int places;

	two_decimals(x, sizeof x, a);
	two_decimals(y, sizeof y, b);
	if (strcmp(x, y) != 0)
		return 2;
	for (places = 3; places < PERCENT_PLACES_MAX; places++) {
		snprintf(x, sizeof x, "%.*f", places, a);
		snprintf(y, sizeof y, "%.*f", places, b);
		if (strcmp(x, y) != 0)
			break;
	}
	return places;
}

size_t
text_unsigned(char *digits, unsigned long long value)
{
	char reversed[TEXT_INTEGER_SIZE];
	size_t count = 0, length = 0;

	do {
		reversed[count++] = (char)('0' + value % 10);
		value /= 10;
	} while (value > 0);
	while (count > 0)
		digits[length++] = reversed[--count];
	return length;
}

size_t
text_integer(char digits[TEXT_INTEGER_SIZE], long long value)
{
	if (value >= 0)
		return text_unsigned(digits, (unsigned long long)value);
	digits[0] = '-';
	return 1 + text_unsigned(digits + 1, 0ULL - (unsigned long long)value);
}

/*
 * glibc's vsnprintf() spends about a thousand instructions on a rule's
 * detail, a fifth of what the rules of a check cost (bench/README.md).
 * The details use only %s, %d, %lld, %zu and %%; those are written here.
 * Anything else (a flag, a width, a precision, another conversion, a
 * NULL string) sends the whole format to vsnprintf(), so the text is
 * always exactly what vsnprintf() gives.
 */
int
text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	char digits[TEXT_INTEGER_SIZE];
	const char *p = fmt, *piece;
	size_t length = 0, piece_length, room;
	va_list whole;
	int rc;

	va_copy(whole, ap);
	while (*p != '\0') {
		if (*p != '%') {
			for (piece = p; *p != '\0' && *p != '%'; p++)
				;
			piece_length = (size_t)(p - piece);
		} else if (p[1] == 's') {
			if ((piece = va_arg(ap, const char *)) == NULL)
				goto whole_format;
			piece_length = strlen(piece);
			p += 2;
		} else if (p[1] == 'd') {
			piece = digits;
			piece_length = text_integer(digits, va_arg(ap, int));
			p += 2;
		} else if (p[1] == 'l' && p[2] == 'l' && p[3] == 'd') {
			piece = digits;
			piece_length = text_integer(digits, va_arg(ap, long long));
			p += 4;
		} else if (p[1] == 'z' && p[2] == 'u') {
			piece = digits;
			piece_length = text_unsigned(digits, va_arg(ap, size_t));
			p += 3;
		} else if (p[1] == '%') {
			piece = "%";
			piece_length = 1;
			p += 2;
		} else
			goto whole_format;
		if (size > 0 && length < size - 1) {
			room = size - 1 - length;
			memcpy(buf + length, piece,
			    piece_length < room ? piece_length : room);
		}
		length += piece_length;
	}
	va_end(whole);
	if (size > 0)
		buf[length < size - 1 ? length : size - 1] = '\0';
	/* vsnprintf() cannot count past INT_MAX either. */
	return length > INT_MAX ? -1 : (int)length;
whole_format:
	rc = vsnprintf(buf, size, fmt, whole);
	va_end(whole);
	return rc;
}

char *
text_vprintf(const char *fmt, va_list ap)
{
	/* Nearly every detail and reason fits: format once, copy. */
	char small[256], *s;
	va_list again;
	int len;

	va_copy(again, ap);
	len = text_vformat(small, sizeof small, fmt, ap);
	if (len < 0 || (s = malloc((size_t)len + 1)) == NULL) {
		va_end(again);
		return NULL;
	}
	if ((size_t)len < sizeof small)
		memcpy(s, small, (size_t)len + 1);
	else
		text_vformat(s, (size_t)len + 1, fmt, again);
	va_end(again);
	return s;
}

char *
text_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = text_vprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *
text_copy(const char *s)
{
	size_t len;
	char *copy;

	if (s == NULL)
		return NULL;
	len = strlen(s);
	copy = malloc(len + 1);
	if (copy != NULL)
		memcpy(copy, s, len + 1);
	return copy;
}

/*
 * Blank as a reader sees it: a reason of no-break, zero-width or braille
 * blank spaces says nothing, and must not count as one (SPEC 5
 * reason_required).  The classes are ICU's (unicode_text.c).
 */
bool
text_blank(const char *s)
{
	return unicode_blank(s);
}

/*
 * One comparison of names everywhere (SPEC 2.4): self-approval, lockout,
 * reassignment, roster.  Should ICU fail (out of memory), the names are
 * compared as spelt, ignoring ASCII case, rather than not at all.
 */
/*
 * A name's key costs ICU's normalizer and spoof checker, and the same few
 * names (the operator, the roster, the authors) come back in every check
 * and decision: a batch spent a seventh of its time on them.  The last
 * NAME_MEMO keys are kept (the program has one thread).  NULL when ICU
 * could not make a key.
 */
#define NAME_MEMO 16

static const char *
name_key(const char *name)
{
	static struct {
		char *name;
		char *key;
	} memo[NAME_MEMO];
	static size_t next;
	size_t i;
	char *copy, *key;

	for (i = 0; i < NAME_MEMO; i++) {
		if (memo[i].name != NULL && strcmp(memo[i].name, name) == 0)
			return memo[i].key;
	}
	if ((key = unicode_name_key(name)) == NULL)
		return NULL;
	if ((copy = text_copy(name)) == NULL)
		return key;	/* not kept: leaks one key, on no memory */
	free(memo[next].name);
	free(memo[next].key);
	memo[next].name = copy;
	memo[next].key = key;
	next = (next + 1) % NAME_MEMO;
	return key;
}

bool
text_same_name(const char *a, const char *b)
{
	const char *key_b;
	char *key_a;
	bool same;

	if (a == NULL || b == NULL)
		return false;
	if (strcmp(a, b) == 0)
		return true;
	/* Copied: making b's key may push a's out of the memo. */
	if ((key_b = name_key(a)) == NULL)
		key_a = NULL;
	else if ((key_a = text_copy(key_b)) == NULL)
		return text_equal_nocase(a, b);
	key_b = name_key(b);
	same = key_a != NULL && key_b != NULL ? strcmp(key_a, key_b) == 0 :
	    text_equal_nocase(a, b);
	free(key_a);
	return same;
}

bool
text_json_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	}
	return true;
}

bool
text_is_sha256(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	}
	return s[64] == '\0';
}

void
format_countdown(char *buf, size_t size, long long ms)
{
	long long m = ms / 60000;

	if (ms <= 0 || ms >= 86400000LL)
		snprintf(buf, size, "%s", "");
	else if (m < 1)
		snprintf(buf, size, "%s", "<1m");
	else if (m < 60)
		snprintf(buf, size, "%lldm", m);
	else
		snprintf(buf, size, "%lldh%02lldm", m / 60, m % 60);
}

void
format_age(char *buf, size_t size, long long ms)
{
	long long s = ms > 0 ? ms / 1000 : 0;

	if (s < 60)
		snprintf(buf, size, "%llds", s);
	else if (s < 3600)
		snprintf(buf, size, "%lldm", s / 60);
	else if (s < 86400)
		snprintf(buf, size, "%lldh", s / 3600);
	else
		snprintf(buf, size, "%lldd", s / 86400);
}
