/* UTF-8 decoding shared by the strict parser and the sanitizer. */
#ifndef COUNTERSIGN_UTF8_H
#define COUNTERSIGN_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decodes the code point at s[0..len) (len > 0).  Returns the length of a
 * valid sequence (1 to 4) and sets *cp; returns the negated length of the
 * maximal invalid subpart (-1 to -3) for an overlong form, a surrogate, a
 * value above U+10FFFF, a stray continuation byte or a truncated sequence.
 */
int utf8_next(const unsigned char *s, size_t len, uint32_t *cp);
/*
 * How many of text's first bytes, at most max, end on a character: for
 * "%.*s" in a bounded message, which "%.200s" would cut mid-character.
 */
size_t utf8_prefix(const char *text, size_t max);

#endif
