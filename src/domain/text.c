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

	snprintf(digits, sizeof digits, "%.2f", fabs(amount));
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
	char tmp[64], *p;

	snprintf(tmp, sizeof tmp, "%.2f", percent);
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
	snprintf(buf, size, "%s%%", tmp);
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
