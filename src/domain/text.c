/* Locale-independent text helpers. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

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

/* snprintf(buf, size, "%s", text) without printf's cost. */
static void
copy_bounded(char *buf, size_t size, const char *text)
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
	copy_bounded(buf, size, text + at);
}

/*
 * Money is formatted by hand rather than with printf's ' flag: the
 * grouping must not change with the officer's locale, or two officers
 * would read different figures in the same audit export.
 */
void
format_usd(char *buf, size_t size, double amount)
{
	char digits[64], grouped[96];
	const char *sign = amount < 0 ? "-" : "";
	size_t len, i, out = 0, head;
	char *dot;

	two_decimals(digits, sizeof digits, fabs(amount));
	dot = strchr(digits, '.');
	if (dot == NULL)	/* inf or nan: never reached for loaded input */
		dot = digits + strlen(digits);
	len = (size_t)(dot - digits);
	head = len % 3 == 0 ? 3 : len % 3;
	for (i = 0; i < len && out + 2 < sizeof grouped; i++) {
		if (i != 0 && (i - head) % 3 == 0 && i >= head)
			grouped[out++] = ',';
		grouped[out++] = digits[i];
	}
	grouped[out] = '\0';
	/* The decimals, with a '.' whatever LC_NUMERIC says. */
	snprintf(buf, size, "%s$%s.%s", sign, grouped,
	    *dot != '\0' ? dot + 1 : "00");
}

void
format_percent(char *buf, size_t size, double percent)
{
	char tmp[64], with_sign[sizeof tmp + 1], *p;
	size_t length;

	two_decimals(tmp, sizeof tmp, percent);
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
	copy_bounded(buf, size, with_sign);
}

char *
text_printf(const char *fmt, ...)
{
	va_list ap;
	int len;
	char *s;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return NULL;
	s = malloc((size_t)len + 1);
	if (s == NULL)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
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

bool
text_blank(const char *s)
{
	if (s == NULL)
		return true;
	for (; *s != '\0'; s++) {
		if (strchr(" \t\n\v\f\r", *s) == NULL)
			return false;
	}
	return true;
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
