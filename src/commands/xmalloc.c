/*
 * Allocations that cannot fail, for display and printing (xmalloc.h).
 * Above the domain and the store on purpose: only the program's own
 * showing code may end it (HACKING: never exit() in library code).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exit_codes.h"
#include "sanitize.h"
#include "text.h"
#include "xmalloc.h"

static void (*restore_terminal)(void);

void
xmalloc_on_failure(void (*restore)(void))
{
	restore_terminal = restore;
}

/*
 * Out of memory: say so and end.  What was printed is flushed first; the
 * message goes by write(2), not stdio or gettext, which may want the
 * memory there is none of.
 */
static _Noreturn void
out_of_memory(void)
{
	static const char message[] = "countersign: out of memory\n";
	void (*restore)(void) = restore_terminal;

	restore_terminal = NULL;
	if (restore != NULL)
		restore();
	fflush(stdout);
	if (write(STDERR_FILENO, message, sizeof message - 1) < 0) {
		/* Nothing more can be said: the status still says it. */
	}
	exit(EXIT_STORAGE);
}

void *
xcheck(void *p)
{
	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xmalloc(size_t size)
{
	return xcheck(malloc(size != 0 ? size : 1));
}

void *
xcalloc(size_t count, size_t size)
{
	if (count == 0 || size == 0)
		count = size = 1;
	return xcheck(calloc(count, size));
}

void *
xrealloc(void *p, size_t size)
{
	return xcheck(realloc(p, size != 0 ? size : 1));
}

char *
xstrdup(const char *s)
{
	return xcheck(text_copy(s != NULL ? s : ""));
}

char *
xsanitize(const char *text)
{
	return xcheck(sanitize_str(text));
}
