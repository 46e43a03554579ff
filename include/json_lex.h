/*
 * The one scanner of JSON text's strings, escapes and white space, under
 * every reader that looks at text itself rather than at a cJSON tree: the
 * strict layer's lexical checks and its path walk (json_strict.c), the
 * one-pass check of audit records (json_quick.c), the search for an
 * object in model output (json_extract.c) and the copy of a value as it
 * was written (json_writer.c).  What each of them accepts stays its own;
 * where a string ends, what an escape is and what white space is are
 * decided here, once.
 */
#ifndef COUNTERSIGN_JSON_LEX_H
#define COUNTERSIGN_JSON_LEX_H

#include <stdbool.h>
#include <stddef.h>

/* White space between tokens (RFC 8259): space, tab, LF, CR. */
static inline bool
json_lex_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The first byte from text[at] that is not white space, or len. */
static inline size_t
json_lex_skip_space(const char *text, size_t len, size_t at)
{
	while (at < len && json_lex_is_space(text[at]))
		at++;
	return at;
}

/* The value of the four hexadecimal digits at s (of a \uXXXX), or -1. */
int json_lex_hex4(const char *s);

/*
 * The closing quote of the string whose opening quote is text[at], or
 * len when it has none.  A backslash escapes the byte after it, whatever
 * that is: the readers that need an escape to be valid check it
 * themselves.
 */
size_t json_lex_string_end(const char *text, size_t len, size_t at);
/*
 * The same, but len also when a control byte (below 0x20) stands
 * unescaped before the closing quote: no JSON string holds one.
 */
size_t json_lex_string_end_clean(const char *text, size_t len, size_t at);

#endif
