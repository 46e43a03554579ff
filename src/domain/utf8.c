/* A strict UTF-8 decoder (Unicode 15, table 3-7 "well-formed byte sequences"). */
#include "config.h"

#include <string.h>

#include "utf8.h"

int
utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char b0 = s[0], lo = 0x80, hi = 0xBF;
	int need, i;
	uint32_t value;

	if (b0 < 0x80) {
		*cp = b0;
		return 1;
	}
	if (b0 >= 0xC2 && b0 <= 0xDF) {
		need = 1;
		value = b0 & 0x1F;
	} else if (b0 >= 0xE0 && b0 <= 0xEF) {
		need = 2;
		value = b0 & 0x0F;
		if (b0 == 0xE0)
			lo = 0xA0;	/* shorter forms are overlong */
		else if (b0 == 0xED)
			hi = 0x9F;	/* D800-DFFF are surrogates */
	} else if (b0 >= 0xF0 && b0 <= 0xF4) {
		need = 3;
		value = b0 & 0x07;
		if (b0 == 0xF0)
			lo = 0x90;
		else if (b0 == 0xF4)
			hi = 0x8F;	/* above U+10FFFF */
	} else
		return -1;	/* continuation byte, C0, C1 or F5-FF */

	for (i = 1; i <= need; i++) {
		unsigned char b;

		if ((size_t)i >= len)
			return -i;
		b = s[i];
		if (b < lo || b > hi)
			return -i;
		lo = 0x80;
		hi = 0xBF;
		value = (value << 6) | (b & 0x3F);
	}
	*cp = value;
	return need + 1;
}

/* Whole characters only; an invalid byte counts as one of its own. */
size_t
utf8_prefix(const char *text, size_t max)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t len = strlen(text), at = 0;
	uint32_t cp;
	int n;

	while (at < len) {
		n = utf8_next(s + at, len - at, &cp);
		if (n < 0)
			n = -n;
		if (at + (size_t)n > max)
			break;
		at += (size_t)n;
	}
	return at;
}
