/*
 * The one gate between untrusted text (anything that came from an input
 * file) and a human's terminal: countersign(1) TERMINAL SAFETY.
 */
#ifndef COUNTERSIGN_SANITIZE_H
#define COUNTERSIGN_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Returns a newly allocated, NUL-terminated, valid UTF-8 copy of the first
 * len bytes of text in which nothing can control a terminal:
 *   ESC                       -> "\e"
 *   other C0 controls and DEL -> caret notation ("^G", "^M", "^?", "^@")
 *   C1 controls (U+0080-U+009F), and what shows as nothing or reorders
 *   text, as ICU classes it: default-ignorable code points (U+00AD,
 *   U+034F, U+180B-U+180F, U+200B-U+200F, variation selectors U+FE00-
 *   U+FE0F and U+E0100-U+E01EF, tags U+E0000-U+E007F...), general
 *   categories Cf, Zl and Zp, and Bidi_Control (U+061C, U+202A-U+202E,
 *   U+2066-U+2069)
 *                             -> "<U+XXXX>" ("<U+XXXXX>" above U+FFFF)
 *   each invalid UTF-8 sequence (raw C1 bytes, overlong forms, surrogates,
 *   truncated sequences, bytes > U+10FFFF) -> U+FFFD
 * Everything else is copied unchanged.  Returns NULL only when out of memory.
 */
char *sanitize(const char *text, size_t len);
/* sanitize() of a NUL-terminated string; NULL text gives "". */
char *sanitize_str(const char *text);
/*
 * Whether sanitize() gives text back unchanged because it is printable
 * ASCII: a caller writing much of it may then write it without the copy.
 */
bool sanitize_keeps(const char *text, size_t len);

/*
 * Number of terminal columns the (already sanitized) text occupies:
 * East Asian Wide and Fullwidth take two, combining marks none.
 */
size_t sanitized_width(const char *sanitized);
/*
 * Bytes of the longest prefix of sanitized text that fits in columns; its
 * width goes to *width (may be NULL).
 */
size_t sanitized_prefix(const char *sanitized, size_t columns, size_t *width);

/*
 * Escapes, inside a JSON document produced by cJSON (valid UTF-8), every
 * DEL, C1, bidirectional and invisible format character as \uXXXX (a
 * surrogate pair for the tags), so
 * that JSON lines printed on a terminal cannot control it either.
 * Returns a newly allocated string, or NULL when out of memory.
 */
char *json_escape_controls(const char *json);

#endif
