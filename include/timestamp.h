/* ISO-8601 UTC timestamps (SPEC 1): "2026-11-29T08:15:00Z", fractions allowed. */
#ifndef COUNTERSIGN_TIMESTAMP_H
#define COUNTERSIGN_TIMESTAMP_H

#include <stdbool.h>
#include <stddef.h>

#define TIMESTAMP_SIZE 32

/*
 * Parses "YYYY-MM-DDTHH:MM:SS[.digits](Z|+00:00)" with a real calendar date
 * into milliseconds since the epoch (fractions below a millisecond are
 * truncated).  Anything else, including other offsets, is refused.
 */
bool timestamp_parse(const char *text, long long *ms);
/*
 * The same with any zone offset, "+HH:MM" or "-HH:MM", as a person types
 * a time on the command line (SPEC 7 audit export --since/--until).
 */
bool timestamp_parse_zoned(const char *text, long long *ms);
/*
 * The digits of a parsed timestamp's fraction below the millisecond, with
 * trailing zeros dropped: "9" for ".0009", "" for ".5" or no fraction.  As
 * text they sort as the fractions do, which orders two timestamps in the
 * same millisecond.
 */
void timestamp_beyond_ms(const char *text, const char **digits,
    size_t *length);
/* "2026-11-29T08:15:00.123Z" */
void timestamp_format(long long ms, char buf[TIMESTAMP_SIZE]);
/* Wall-clock now, milliseconds since the epoch. */
long long timestamp_now(void);

#endif
