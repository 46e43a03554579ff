/*
 * Allocation for display and printing code, as tmux does it: what these
 * return is never NULL.  A failed allocation ends the program with
 * "countersign: out of memory" and exit status 4, rather than drawing or
 * printing an empty string where a name, an id or a reason belongs.
 *
 * Only for code that shows things (src/tui, the printing of the
 * commands).  Library code that must return errors (domain, store,
 * decide.c and whatever records a decision) keeps returning them.
 */
#ifndef COUNTERSIGN_XMALLOC_H
#define COUNTERSIGN_XMALLOC_H

#include <stddef.h>

#include "text.h"

void *xmalloc(size_t);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *, size_t);
/* A copy of s; NULL s gives "" (a missing field shows as nothing). */
char *xstrdup(const char *s);
/* text_printf() that cannot fail: its format is checked as printf's. */
#define xasprintf(...) ((char *)xcheck(text_printf(__VA_ARGS__)))
/* sanitize_str() (sanitize.h) of text: what may reach the screen. */
char *xsanitize(const char *text);
/* p, or the end of the program when an allocation that made it failed. */
void *xcheck(void *p);

/*
 * Called once before the message when an allocation fails: the screens
 * give the terminal back (endwin) so that the message can be read.
 * NULL for nothing.
 */
void xmalloc_on_failure(void (*restore)(void));

#endif
