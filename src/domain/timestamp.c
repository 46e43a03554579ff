/* ISO-8601 UTC timestamps, parsed strictly and formatted with milliseconds. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "timestamp.h"

static bool
digits(const char *s, int n, int *out)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static bool
leap_year(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static long long
days_from_civil(int y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

bool
timestamp_parse(const char *s, long long *ms)
{
	static const int month_days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30,
	    31, 30, 31 };
	int year, month, day, hour, minute, second, millis = 0, max_day, n;
	const char *p;

	if (s == NULL || strlen(s) < 20)
		return false;
	if (!digits(s, 4, &year) || s[4] != '-' || !digits(s + 5, 2, &month) ||
	    s[7] != '-' || !digits(s + 8, 2, &day) || s[10] != 'T' ||
	    !digits(s + 11, 2, &hour) || s[13] != ':' ||
	    !digits(s + 14, 2, &minute) || s[16] != ':' ||
	    !digits(s + 17, 2, &second))
		return false;
	p = s + 19;
	if (*p == '.') {
		p++;
		for (n = 0; *p >= '0' && *p <= '9'; p++, n++) {
			if (n < 3)
				millis = millis * 10 + (*p - '0');
		}
		if (n == 0)
			return false;
		for (; n < 3; n++)
			millis *= 10;
	}
	if (strcmp(p, "Z") != 0 && strcmp(p, "+00:00") != 0)
		return false;
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59)
		return false;
	max_day = month_days[month - 1] + (month == 2 && leap_year(year));
	if (day < 1 || day > max_day)
		return false;
	*ms = ((days_from_civil(year, month, day) * 24 + hour) * 60 + minute) *
	    60000LL + second * 1000LL + millis;
	return true;
}

bool
timestamp_parse_zoned(const char *s, long long *ms)
{
	char utc[64];
	size_t len = s != NULL ? strlen(s) : 0;
	int hours, minutes;
	const char *zone;

	if (len < 6 || len >= sizeof utc || (s[len - 6] != '+' &&
	    s[len - 6] != '-'))
		return timestamp_parse(s, ms);
	zone = s + len - 6;
	if (!digits(zone + 1, 2, &hours) || zone[3] != ':' ||
	    !digits(zone + 4, 2, &minutes) || hours > 23 || minutes > 59)
		return false;
	/* The local time read as UTC, then moved by the offset. */
	memcpy(utc, s, len - 6);
	utc[len - 6] = 'Z';
	utc[len - 5] = '\0';
	if (!timestamp_parse(utc, ms))
		return false;
	*ms -= (zone[0] == '+' ? 1 : -1) * (hours * 60 + minutes) * 60000LL;
	return true;
}

void
timestamp_beyond_ms(const char *s, const char **digits, size_t *length)
{
	const char *p, *end;

	*digits = "";
	*length = 0;
	if (s == NULL || strlen(s) < 20 || s[19] != '.')
		return;
	for (p = s + 20, end = p; *end >= '0' && *end <= '9'; end++)
		;
	if (end - p <= 3)
		return;
	p += 3;
	while (end > p && end[-1] == '0')
		end--;
	*digits = p;
	*length = (size_t)(end - p);
}

void
timestamp_format(long long ms, char buf[TIMESTAMP_SIZE])
{
	/* `check` stamps every verdict with the same instant: keep the last. */
	static long long last_ms;
	static char last[TIMESTAMP_SIZE];
	time_t seconds = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	int millis = (int)(ms - (long long)seconds * 1000);
	struct tm tm;

	if (last[0] != '\0' && ms == last_ms) {
		memcpy(buf, last, TIMESTAMP_SIZE);
		return;
	}
	if (gmtime_r(&seconds, &tm) == NULL) {
		snprintf(buf, TIMESTAMP_SIZE, "1970-01-01T00:00:00.000Z");
		return;
	}
	/* Years past 9999 cannot come from a parsed timestamp; cut, never overflow. */
	if (snprintf(buf, TIMESTAMP_SIZE, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, millis) >= TIMESTAMP_SIZE)
		buf[TIMESTAMP_SIZE - 1] = '\0';
	last_ms = ms;
	memcpy(last, buf, TIMESTAMP_SIZE);
}

long long
timestamp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
