/*
 * import --json: the per-object results of a file as JSON lines.  A file
 * is imported whole or not at all (SPEC 1), so the lines are printed
 * once its transaction has ended, saying what it came to.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "exit_codes.h"
#include "i18n.h"
#include "import_results.h"
#include "json_strict.h"
#include "xmalloc.h"

int
import_results_add(struct import_results *r, size_t line, const char *type,
    const char *id, struct error *err)
{
	struct import_result *grown, *item;

	if (r->count == r->size) {
		r->size = r->size ? 2 * r->size : 64;
		if ((grown = realloc(r->items, r->size * sizeof *grown)) ==
		    NULL)
			return error_set(err, EXIT_STORAGE, NULL,
			    _("out of memory"));
		r->items = grown;
	}
	item = &r->items[r->count];
	memset(item, 0, sizeof *item);
	item->line = line;
	if ((type != NULL && (item->type = strdup(type)) == NULL) ||
	    (id != NULL && (item->id = strdup(id)) == NULL)) {
		free(item->type);
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	}
	r->count++;
	return 0;
}

/* One line: keys and status words are never translated (SPEC 7). */
static void
print_line(FILE *out, const char *path, size_t line, const char *type,
    const char *id, const char *status, const struct error *err)
{
	cJSON *o = cJSON_CreateObject();
	char *text, *message;

	if (o == NULL)
		return;
	cJSON_AddStringToObject(o, "file", path);
	if (line > 0)
		cJSON_AddNumberToObject(o, "line", (double)line);
	else
		cJSON_AddNullToObject(o, "line");
	if (type != NULL)
		cJSON_AddStringToObject(o, "type", type);
	else
		cJSON_AddNullToObject(o, "type");
	if (id != NULL)
		cJSON_AddStringToObject(o, "id", id);
	else
		cJSON_AddNullToObject(o, "id");
	cJSON_AddStringToObject(o, "status", status);
	if (err == NULL)
		cJSON_AddNullToObject(o, "error");
	else {
		/* As stderr says it: the field, then what is wrong. */
		message = err->field[0] != '\0' ? xasprintf("%s: %s",
		    err->field, err->message) : xstrdup(err->message);
		cJSON_AddStringToObject(o, "error", message);
		free(message);
	}
	if ((text = json_print(o)) != NULL)
		fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(o);
}

void
import_results_print(const struct import_results *r, FILE *out,
    const char *path, int rc, size_t error_line, const struct error *err)
{
	size_t i, before = r->count;
	const struct import_result *item;

	if (rc != 0 && r->last_failed)
		before--;
	for (i = 0; i < before; i++) {
		item = &r->items[i];
		print_line(out, path, item->line, item->type, item->id,
		    rc != 0 ? "rolled_back" : item->unchanged ? "unchanged" :
		    "imported", NULL);
	}
	if (rc == 0)
		return;
	/* The object it failed at, or the file itself (unreadable, a
	   line too long, a commit that failed). */
	item = r->last_failed ? &r->items[r->count - 1] : NULL;
	print_line(out, path, item != NULL && error_line == 0 ? item->line :
	    error_line, item != NULL ? item->type : NULL, item != NULL ?
	    item->id : NULL, "refused", err);
}

void
import_results_free(struct import_results *r)
{
	size_t i;

	for (i = 0; i < r->count; i++) {
		free(r->items[i].type);
		free(r->items[i].id);
	}
	free(r->items);
	memset(r, 0, sizeof *r);
}
