/* What every command does the same way: open the store, report an error. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "i18n.h"
#include "sanitize.h"

int
open_store(const struct invocation *inv, enum store_open_mode mode,
    struct store **store, struct error *err)
{
	char path[PATH_MAX];
	int rc;

	if ((rc = store_default_path(inv->db_option, path, sizeof path,
	    err)) != 0)
		return rc;
	return store_open(path, mode, store, err);
}

void
report_error(const struct error *err)
{
	/* A message may quote input: it reaches the terminal sanitized. */
	char *safe = sanitize_str(err->message);

	if (err->field[0] != '\0') {
		char *field = sanitize_str(err->field);

		fprintf(stderr, "countersign: %s: %s\n", field ? field : "",
		    safe ? safe : "");
		free(field);
	} else
		fprintf(stderr, "countersign: %s\n", safe ? safe : "");
	free(safe);
}
