/* Strings, escapes and white space of JSON text: see json_lex.h. */
#include "config.h"

#include <string.h>

#include "json_lex.h"

int
json_lex_hex4(const char *s)
{
	int value = 0, i, c;

	for (i = 0; i < 4; i++) {
		c = (unsigned char)s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		value = value << 4 | c;
	}
	return value;
}

/*
 * Strings are most of a packet: memchr() jumps to the next quote, and
 * only a backslash before it sends the scan on from the escaped byte.
 */
size_t
json_lex_string_end(const char *text, size_t len, size_t at)
{
	const char *quote, *slash;

	for (at++; at < len; at = (size_t)(slash - text) + 2) {
		if ((quote = memchr(text + at, '"', len - at)) == NULL)
			return len;
		slash = memchr(text + at, '\\', (size_t)(quote - (text + at)));
		if (slash == NULL)
			return (size_t)(quote - text);
	}
	return len;
}

size_t
json_lex_string_end_clean(const char *text, size_t len, size_t at)
{
	unsigned char c;

	for (at++; at < len; at++) {
		c = (unsigned char)text[at];
		if (c == '"')
			return at;
		if (c == '\\')
			at++;	/* the escaped byte, whatever it is */
		else if (c < 0x20)
			return len;
	}
	return len;
}
