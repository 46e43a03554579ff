/* Small text helpers that must not depend on the user's locale. */
#ifndef COUNTERSIGN_TEXT_H
#define COUNTERSIGN_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Equality ignoring ASCII case: tickers, sectors and names (SPEC 2.1). */
bool text_equal_nocase(const char *a, const char *b);
/* Copies text into buf upper-cased in ASCII, truncating to fit. */
void text_upper(char *buf, size_t size, const char *text);
/*
 * Nothing a reader can see: NULL, empty, white space of any kind, U+2800,
 * default-ignorable and invisible format characters.
 */
bool text_blank(const char *);
/*
 * Two names a reader cannot tell apart (SPEC 2.4): equal NFKC case-folded
 * skeletons (UTS #39) once default-ignorables, white space and U+2800 are
 * removed; see unicode_name_key().  The one comparison for self-approval,
 * lockout, reassignment and the roster.  "m" and "rn" share a skeleton:
 * such a false match refuses or locks out, the safe direction.
 */
bool text_same_name(const char *a, const char *b);
/* Only JSON white space (space, tab, CR, LF) in s[0..len), or nothing. */
bool text_json_blank(const char *s, size_t len);
/* Exactly 64 hexadecimal digits, either case: a SHA-256 as given. */
bool text_is_sha256(const char *);
/* An age for a queue column: "9s", "12m", "3h", "2d". */
void format_age(char *buf, size_t size, long long ms);
/*
 * Time left before an expiry within a day, for the queue: "3h12m",
 * "45m", "<1m"; "" when ms is not in (0, 24h).
 */
void format_countdown(char *buf, size_t size, long long ms);
/* "$31,000.00" */
void format_usd(char *buf, size_t size, double amount);
/* "5.17%" with up to two decimals, trailing zeros dropped. */
void format_percent(char *buf, size_t size, double percent);
/* The same with up to places decimals (2 to PERCENT_PLACES_MAX). */
void format_percent_places(char *buf, size_t size, double percent,
    int places);
#define PERCENT_PLACES_MAX 20
/*
 * The fewest decimals, two at least, at which a and b print differently:
 * for two figures known to differ, such as a share and the limit it
 * exceeds.  PERCENT_PLACES_MAX when they never do.
 */
int percent_places(double a, double b);
/* printf into a newly allocated string; NULL when out of memory. */
char *text_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *text_vprintf(const char *fmt, va_list)
    __attribute__((format(printf, 1, 0)));
/*
 * vsnprintf(), exactly, but fast for %s, %d, %lld, %zu and %% (the rest
 * goes to vsnprintf() itself).
 */
int text_vformat(char *buf, size_t size, const char *fmt, va_list)
    __attribute__((format(printf, 3, 0)));
/* Decimal digits of value, no NUL; the count written. */
#define TEXT_INTEGER_SIZE 24
size_t text_integer(char digits[TEXT_INTEGER_SIZE], long long value);
size_t text_unsigned(char *digits, unsigned long long value);	/* 20 at most */
/* snprintf(buf, size, "%s", text) without printf's cost. */
void text_copy_bounded(char *buf, size_t size, const char *text);
/* strdup that is part of C11 in spirit: NULL in, NULL out. */
char *text_copy(const char *);

#endif
