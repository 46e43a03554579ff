/*
 * An error travels back to the command as a status (an exit_code) and one
 * message.  Loaders also name the field, so that the command can add the
 * file and line it knows and print "file:line: field: what is wrong".
 */
#ifndef COUNTERSIGN_ERROR_H
#define COUNTERSIGN_ERROR_H

#include <stddef.h>

struct error {
	int status;		/* an enum exit_code; EXIT_OK when no error */
	char field[256];	/* dotted path of the offending field, or "" */
	char message[1024];
};

void error_clear(struct error *);
/* Sets status, field (may be NULL) and a printf-style message; returns status. */
int error_set(struct error *, int status, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
