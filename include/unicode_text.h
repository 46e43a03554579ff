/*
 * Text as a reader sees it, from ICU's maintained Unicode tables rather
 * than hand-made lists (SPEC 2.4 and 9): the names compared by the gate
 * and the lockout, and the character classes the sanitizer escapes.
 */
#ifndef COUNTERSIGN_UNICODE_TEXT_H
#define COUNTERSIGN_UNICODE_TEXT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The key two names share when a reader cannot tell them apart (SPEC
 * 2.4): NFKC with case folding (which drops default-ignorable code
 * points), then NFD without White_Space, U+2800 BRAILLE PATTERN BLANK,
 * format characters (Cf) and combining marks (Mn, Me), then the UTS #39
 * confusable skeleton.  "rооt" (Cyrillic о), "ＲＯＯＴ"
 * and "ro\u034Fot" all give the key of "root".  A newly allocated UTF-8
 * string; NULL for NULL, invalid UTF-8, or when ICU or memory fails.
 */
char *unicode_name_key(const char *name);

/*
 * Nothing a reader can see: every code point is white space, default-
 * ignorable, U+2800, or a format character the sanitizer would escape.
 * False for invalid UTF-8 (the sanitizer shows it as U+FFFD).
 */
bool unicode_blank(const char *text);

/*
 * A code point that shows as nothing or reorders the text around it:
 * default-ignorable, general category Cf, Zl or Zp, or Bidi_Control.
 */
bool unicode_invisible(uint32_t code_point);

/*
 * Terminal columns of a printable code point: 0 for combining marks
 * (Mn, Me) and other zero-width ones, 2 for East Asian Wide and
 * Fullwidth, else 1.
 */
int unicode_columns(uint32_t code_point);

#endif
