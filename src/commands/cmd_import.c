/*
 * countersign import PATH...: each file is one transaction, imported whole
 * or not at all (SPEC 1).  Files are parsed one object at a time, so a file
 * of 100,000 packets never holds more than one parsed tree.  Here a file's
 * text is cut into its objects and reported; import_object.c stores each,
 * and import_walk.c finds and reads the files.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "import_object.h"
#include "json_extract.h"
#include "json_strict.h"
#include "text.h"
#include "timestamp.h"
#include "xmalloc.h"

#define LINE_MAX_BYTES (1UL << 20)

/* import --json: a line per object instead of a line per file. */
static bool report_json;

void
import_report_as_json(bool on)
{
	report_json = on;
}

static size_t
line_of(const char *text, size_t offset)
{
	size_t line = 1, i;

	for (i = 0; i < offset; i++) {
		if (text[i] == '\n')
			line++;
	}
	return line;
}

/*
 * The action ids of a JSON Lines file, told to the store before the first
 * line is stored: one query says which are new, and the store asks
 * nothing more of those (store_expect_actions; on PostgreSQL each
 * question was a trip to the server, four a packet).  Only a hint, read
 * without parsing each line twice: a line whose id is not found plainly
 * here (escaped, or not a packet) is simply asked about as before.
 */
static int
expect_actions(struct import_context *ctx, const char *text, size_t len,
    struct error *err)
{
	const char *line, *end, **ids = NULL, **grown;
	size_t count = 0, cap = 0, at, n, id_at, id_len, i;
	char *copy;
	int rc = 0;

	for (line = text; line < text + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + len - line));
		if (end == NULL)
			end = text + len;
		n = (size_t)(end - line);
		if (!json_member_text(line, n, "proposed_action", &at, &n) ||
		    !json_member_text(line + at, n, "action_id", &id_at,
		    &id_len) || id_len < 2 || line[at + id_at] != '"' ||
		    memchr(line + at + id_at, '\\', id_len) != NULL)
			continue;
		if (count == cap) {
			cap = cap == 0 ? 1024 : cap * 2;
			if ((grown = realloc(ids, cap * sizeof *ids)) == NULL) {
				rc = error_set(err, EXIT_STORAGE, NULL,
				    _("out of memory"));
				goto done;
			}
			ids = grown;
		}
		if ((copy = strndup(line + at + id_at + 1, id_len - 2)) ==
		    NULL) {
			rc = error_set(err, EXIT_STORAGE, NULL,
			    _("out of memory"));
			goto done;
		}
		ids[count++] = copy;
	}
	rc = store_expect_actions(ctx->store, ids, count, err);
done:
	for (i = 0; i < count; i++)
		free((char *)ids[i]);
	free(ids);
	return rc;
}

/*
 * SPEC 1: a file is "either one JSON object or JSON Lines".  It is one
 * object when the whole text, white space around it aside, is one JSON
 * value that spans several lines; otherwise it is JSON Lines (a one-line
 * value is the same object either way, and is read as a line).  Only the
 * first value is looked at, so a file of 100,000 lines costs one line's
 * scan here.
 *
 * Text that is neither is refused either way; the choice then only
 * decides which error is reported, and is made for the likelier intent:
 * a value that spans lines and is followed by more text is a broken
 * object (the error is what follows it), and one never closed is a
 * pretty-printed object cut short when its first line is plainly
 * continued (it ends in '{', '[', ',' or ':'), a bad first JSON line
 * (reported as line 1) otherwise.
 */
static bool
is_one_object(const char *text, size_t len)
{
	const char *start = text, *line_end;
	size_t end, line_len;
	char last;

	while (start < text + len && text_json_blank(start, 1))
		start++;
	len -= (size_t)(start - text);
	if (len == 0 || (*start != '{' && *start != '['))
		return false;
	/* The same scan that finds a member's value for the audit record. */
	end = json_value_end(start, len, 0);
	if (end != 0)
		return memchr(start, '\n', end) != NULL;
	line_end = memchr(start, '\n', len);
	line_len = line_end ? (size_t)(line_end - start) : len;
	while (line_len > 0 && text_json_blank(start + line_len - 1, 1))
		line_len--;
	last = start[line_len - 1];
	return line_end != NULL && (last == '{' || last == '[' ||
	    last == ',' || last == ':');
}

/*
 * The line of an error in a one-object file: that of the bad byte, or,
 * for an error about a field (found after parsing, without a place), of
 * the first byte of the field's value.
 */
static size_t
error_line_in(const char *text, size_t len, size_t offset,
    const struct error *err)
{
	size_t at;

	if (offset == 0 && err->field[0] != '\0' &&
	    json_locate(text, len, err->field, &at))
		offset = at;
	return line_of(text, offset);
}

/*
 * The line that starts at LINE in text[0..len): its length without its
 * end ("\n" or "\r\n"), and in *end where that end is (text + len for a
 * last line without one).
 */
static size_t
line_at(const char *text, size_t len, const char *line, const char **end)
{
	size_t line_len;

	*end = memchr(line, '\n', (size_t)(text + len - line));
	if (*end == NULL)
		*end = text + len;
	line_len = (size_t)(*end - line);
	if (*end < text + len && line_len > 0 && (*end)[-1] == '\r')
		line_len--;
	return line_len;
}

static int
import_text(struct import_context *ctx, const char *text, size_t len,
    size_t *error_line, struct error *err)
{
	const char *line, *end;
	size_t line_len, number, offset = 0;
	int rc;

	/*
	 * Every physical line counts against the limit, whatever the mode;
	 * the end of a line, "\n" or "\r\n", is not part of it.
	 */
	for (line = text, number = 1; line < text + len; line = end + 1,
	    number++) {
		line_len = line_at(text, len, line, &end);
		if (line_len > LINE_MAX_BYTES) {
			*error_line = number;
			return error_set(err, EXIT_DATA, NULL,
			    _("the line is %zu bytes; at most 1 MiB is allowed"),
			    line_len);
		}
	}
	if (is_one_object(text, len)) {
		rc = import_object(ctx, text, len, 1, &offset, err);
		if (rc != 0)
			*error_line = error_line_in(text, len, offset, err);
		return rc;
	}
	if ((rc = expect_actions(ctx, text, len, err)) != 0)
		return rc;
	/* JSON Lines; blank lines, and so an empty file, hold no object. */
	for (line = text, number = 1; line < text + len; line = end + 1,
	    number++) {
		line_len = line_at(text, len, line, &end);
		if (text_json_blank(line, line_len))
			continue;
		if ((rc = import_object(ctx, line, line_len, number, &offset,
		    err)) != 0) {
			*error_line = number;
			return rc;
		}
	}
	return 0;
}

/* Why a file was not imported, with its line and field when known. */
static void
report_file_failure(const char *safe_path, size_t error_line,
    const struct error *err)
{
	char *field = xsanitize(err->field);
	char *message = xsanitize(err->message);

	if (err->status == EXIT_STORAGE)
		fprintf(stderr, "countersign: %s: %s\n", safe_path, message);
	else if (error_line > 0 && err->field[0] != '\0')
		fprintf(stderr, "countersign: %s:%zu: %s: %s\n", safe_path,
		    error_line, field, message);
	else if (error_line > 0)
		fprintf(stderr, "countersign: %s:%zu: %s\n", safe_path,
		    error_line, message);
	else
		fprintf(stderr, "countersign: %s: %s\n", safe_path, message);
	/* L10N: %s is the file's path */
	fprintf(stderr, _("countersign: %s: nothing imported from "
	    "this file\n"), safe_path);
	free(field);
	free(message);
}

void
import_report_unread(FILE *out, const char *path, int rc,
    const struct error *err)
{
	char *safe_path = xsanitize(path);

	report_file_failure(safe_path, 0, err);
	free(safe_path);
	if (report_json && out != NULL) {
		struct import_results none = { NULL, 0, 0, false };

		import_results_print(&none, out, path, rc, 0, err);
	}
}

int
import_text_named(struct store *store, const char *path, const char *text,
    size_t len, FILE *out)
{
	struct import_context ctx;
	struct error err;
	size_t error_line = 0;
	char *safe_path;
	const char *body;
	int rc;

	error_clear(&err);
	memset(&ctx, 0, sizeof ctx);
	ctx.store = store;
	ctx.path = path;
	ctx.now_ms = timestamp_now();
	ctx.json = report_json;
	import_context_operator(&ctx);
	safe_path = xsanitize(path);
	/* A leading byte order mark is not part of the JSON (RFC 8259 8.1). */
	body = text;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		body += 3;
		len -= 3;
	}
	if ((rc = store_begin_batch(store, &err)) == 0) {
		/* Inside the write transaction only this file changes policy. */
		store_cache_policy(store, true);
		rc = store_policy_epoch(store, &ctx.epoch, &err);
		if (rc == 0)
			rc = import_text(&ctx, body, len, &error_line, &err);
		store_cache_policy(store, false);
		if (rc == 0)
			rc = store_commit(store, &err);
		else
			store_rollback(store);
		if (rc == 0)
			announce_head(store, &ctx.head);
	}
	if (rc != 0)
		report_file_failure(safe_path, error_line, &err);
	if (report_json && out != NULL)
		import_results_print(&ctx.results, out, path, rc, error_line,
		    &err);
	else if (rc == 0 && out != NULL)
		/* L10N: after importing one file: its path, how many objects
		   were new or changed, how many were already there */
		fprintf(out, _("%s: %zu imported, %zu unchanged\n"), safe_path,
		    ctx.counts.added, ctx.counts.unchanged);
	import_results_free(&ctx.results);
	free(safe_path);
	return rc;
}

/* Local mode's step: the file's bytes into the open store. */
static int
import_into_store(struct import_walk *walk, const char *path,
    const char *text, size_t len)
{
	return import_text_named(walk->store, path, text, len, walk->out);
}

/* After the files: the review screens open on an index that is current. */
static int
import_finish(struct store *store, int worst)
{
	struct error err;
	long refreshed;

	error_clear(&err);
	if (queue_refresh(store, timestamp_now(), &refreshed, &err) != 0) {
		report_error(&err);
		worst = EXIT_STORAGE;
	}
	return worst;
}

int
import_paths(struct store *store, char *const *paths, int count, FILE *out)
{
	struct import_walk walk = { import_into_store, store, out, NULL };

	return import_finish(store, import_walk_paths(&walk, paths, count));
}

int
import_texts(struct store *store, const struct import_text *files,
    size_t count, FILE *out)
{
	int worst = EXIT_OK, rc;
	size_t i;

	for (i = 0; i < count; i++) {
		rc = import_text_named(store, files[i].name, files[i].text,
		    files[i].len, out);
		if (rc == EXIT_STORAGE)
			worst = EXIT_STORAGE;
		else if (rc != 0 && worst != EXIT_STORAGE)
			worst = EXIT_DATA;
	}
	return import_finish(store, worst);
}

int
cmd_import(const struct invocation *inv)
{
	struct store *store;
	struct error err;
	int rc;

	error_clear(&err);
	if (inv->operand_count == 0) {
		fprintf(stderr, _("countersign: import needs at least one "
		    "file or directory\n"));
		return EXIT_USAGE;
	}
	if ((rc = open_store(inv, STORE_CREATE, &store, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	import_report_as_json(inv->json);
	rc = import_paths(store, inv->operands, inv->operand_count, stdout);
	store_close(store);
	return rc;
}
