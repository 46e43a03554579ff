/* Error values carried back to the command that prints them. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "exit_codes.h"

void
error_clear(struct error *err)
{
	err->status = EXIT_OK;
	err->field[0] = '\0';
	err->message[0] = '\0';
}

int
error_set(struct error *err, int status, const char *field, const char *fmt,
    ...)
{
	va_list ap;

	if (err == NULL)
		return status;
	err->status = status;
	snprintf(err->field, sizeof err->field, "%s", field ? field : "");
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return status;
}
