/*
 * countersign import PATH...: each file is one transaction, imported whole
 * or not at all (SPEC 1).  Files are parsed one object at a time, so a file
 * of 100,000 packets never holds more than one parsed tree.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "decision.h"
#include "exit_codes.h"
#include "i18n.h"
#include "import_results.h"
#include "json_extract.h"
#include "json_strict.h"
#include "object.h"
#include "programs.h"
#include "sanitize.h"
#include "sha256.h"
#include "text.h"
#include "timestamp.h"
#include "xmalloc.h"

#define FILE_MAX_BYTES (64UL << 20)
#define LINE_MAX_BYTES (1UL << 20)

/* import --json: a line per object instead of a line per file. */
static bool report_json;

void
import_report_as_json(bool on)
{
	report_json = on;
}

struct file_counts {
	size_t added;
	size_t unchanged;
};

/* Reads a whole regular file of at most FILE_MAX_BYTES. */
static int
read_file(const char *path, char **text, size_t *len, struct error *err)
{
	struct stat st;
	size_t done = 0;
	int fd;

	*text = NULL;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		/* L10N: %s is the system's reason (strerror) */
		return error_set(err, EXIT_DATA, NULL, _("cannot open: %s"),
		    strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set(err, EXIT_DATA, NULL, _("not a regular file"));
	}
	if ((unsigned long long)st.st_size > FILE_MAX_BYTES) {
		close(fd);
		return error_set(err, EXIT_DATA, NULL,
		    _("the file is %lld bytes; at most 64 MiB is imported"),
		    (long long)st.st_size);
	}
	*text = malloc((size_t)st.st_size + 1);
	if (*text == NULL) {
		close(fd);
		return error_set(err, EXIT_DATA, NULL, _("out of memory"));
	}
	done = read_up_to(fd, *text, (size_t)st.st_size);
	close(fd);
	if (done != (size_t)st.st_size) {
		free(*text);
		*text = NULL;
		return error_set(err, EXIT_DATA, NULL,
		    _("the file changed size while it was read"));
	}
	(*text)[done] = '\0';
	*len = done;
	return 0;
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

/* What one file's import carries from object to object. */
struct import_context {
	struct store *store;
	const char *path;
	long long now_ms;
	struct operator_identity op;
	struct store_importer importer;	/* op, as stored with each action */
	struct audit_head head;		/* after the last policy record */
	long long epoch;		/* the policy epoch now in force */
	struct file_counts counts;
	/* submit (SPEC 12): what the last object was, for its result. */
	struct import_seen *seen;
	struct import_results results;	/* import --json */
};

struct import_seen {
	enum object_type type;
	bool loaded;
	char action_id[257];		/* packets; "" otherwise */
	enum store_put_result result;
};

/* SPEC 5 (v3): the importer, trusted as such only through the service. */
static void
import_context_operator(struct import_context *ctx)
{
	operator_current(&ctx->op);
	ctx->importer.login = ctx->op.login;
	ctx->importer.uid = ctx->op.uid;
	ctx->importer.served = operator_served();
}

static bool
is_policy(enum object_type type)
{
	return type == OBJECT_IPS || type == OBJECT_SECURITY_MAP ||
	    type == OBJECT_STANDARDS_INDEX || type == OBJECT_ROSTER ||
	    type == OBJECT_HOLDINGS || type == OBJECT_APPROVAL_POLICY;
}

/*
 * SPEC 6: a new or changed policy object is recorded in the audit log in
 * the same transaction that stores it, so the log shows which policy was
 * in force when each later decision was taken.
 */
static int
record_policy(struct import_context *ctx, const struct loaded_object *o,
    const char *text, size_t len, size_t line, struct error *err)
{
	char digest[65], when[TIMESTAMP_SIZE], *json;
	cJSON *record = cJSON_CreateObject(), *item;
	int rc;

	if (record == NULL || sha256_hex(text, len, digest) != 0) {
		cJSON_Delete(record);
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	}
	timestamp_format(ctx->now_ms, when);
	cJSON_AddStringToObject(record, "event", "policy_import");
	cJSON_AddStringToObject(record, "type", object_type_name(o->type));
	if (o->type == OBJECT_IPS || o->type == OBJECT_APPROVAL_POLICY) {
		item = cJSON_AddObjectToObject(record, "identity");
		cJSON_AddStringToObject(item, o->type == OBJECT_IPS ?
		    "ips_id" : "policy_id", o->id);
		cJSON_AddNumberToObject(item, "version", (double)o->version);
	} else if (o->type == OBJECT_HOLDINGS) {
		item = cJSON_AddObjectToObject(record, "identity");
		cJSON_AddStringToObject(item, "snapshot_id", o->id);
		cJSON_AddStringToObject(item, "user_id", o->user_id);
	} else
		cJSON_AddNullToObject(record, "identity");
	cJSON_AddItemToObject(record, "object", cJSON_Duplicate(o->json, 1));
	cJSON_AddStringToObject(record, "object_sha256", digest);
	cJSON_AddStringToObject(record, "imported_at", when);
	item = cJSON_AddObjectToObject(record, "operator");
	cJSON_AddStringToObject(item, "login", ctx->op.login);
	cJSON_AddNumberToObject(item, "uid", (double)ctx->op.uid);
	item = cJSON_AddObjectToObject(record, "source");
	cJSON_AddStringToObject(item, "file", ctx->path);
	cJSON_AddNumberToObject(item, "line", (double)line);
	item = cJSON_AddObjectToObject(record, "program");
	cJSON_AddStringToObject(item, "name", "countersign");
	cJSON_AddStringToObject(item, "version", PACKAGE_VERSION);
	json = json_print(record);
	cJSON_Delete(record);
	if (json == NULL)
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	rc = store_audit_append(ctx->store, json, &ctx->head, err);
	free(json);
	return rc;
}

/*
 * The queue row of an action just stored, from the tree already parsed:
 * reading it back for the refresh after the import would parse it twice.
 * Its revisions indexed earlier saw no original yet, so they are marked
 * stale for that refresh.  A failure here (out of memory, or storage,
 * which SQLite may answer by rolling the transaction back) fails the
 * file: carrying on could store the rest outside any transaction.
 */
static int
index_new_action(struct import_context *ctx, const struct loaded_object *o,
    struct error *err)
{
	int rc;

	if ((rc = queue_index_stored(ctx->store, o, ctx->now_ms, ctx->now_ms,
	    ctx->epoch, err)) != 0)
		return rc;
	return store_queue_mark_revisions(ctx->store, o->id, err);
}

/* Imports one object starting at line; *error_offset locates a bad byte. */
static int
import_object(struct import_context *ctx, const char *text, size_t len,
    size_t line, size_t *error_offset, struct error *err)
{
	struct loaded_object o;
	enum store_put_result result;
	int rc;

	*error_offset = 0;
	rc = object_load(text, len, &o, error_offset, err);
	if (report_json && import_results_add(&ctx->results, line, rc == 0 ?
	    object_type_name(o.type) : NULL, rc == 0 ? o.id : NULL, err) != 0) {
		object_free(&o);
		return EXIT_STORAGE;
	}
	ctx->results.last_failed = true;
	if (rc == 0)
		rc = object_check_clock(&o, ctx->now_ms, err);
	/*
	 * A policy object's record goes first, then its rows: on PostgreSQL
	 * the owner's functions store a policy row only as the audit head
	 * describes it (schema 20), so none is stored without its record.
	 */
	if (rc == 0 && is_policy(o.type)) {
		rc = store_put_check(ctx->store, &o, text, len, &result, err);
		if (rc == 0 && result != STORE_PUT_SAME)
			rc = record_policy(ctx, &o, text, len, line, err);
	}
	if (rc == 0 && (!is_policy(o.type) || result != STORE_PUT_SAME))
		rc = store_put(ctx->store, &o, text, len, ctx->now_ms,
		    &ctx->importer, &result, err);
	/*
	 * New policy or holdings change what the queue's flags say, of the
	 * actions they touch only: those rows, even ones indexed earlier in
	 * this file, read as stale, and the trees cached so far are dropped.
	 */
	if (rc == 0 && result != STORE_PUT_SAME && o.type != OBJECT_PACKET) {
		store_cache_policy(ctx->store, true);
		rc = store_queue_mark_touched(ctx->store, &o, err);
	}
	if (rc == 0 && result == STORE_PUT_NEW && o.type == OBJECT_PACKET)
		rc = index_new_action(ctx, &o, err);
	if (rc == 0 && ctx->seen != NULL) {
		ctx->seen->loaded = true;
		ctx->seen->type = o.type;
		ctx->seen->result = result;
		snprintf(ctx->seen->action_id, sizeof ctx->seen->action_id,
		    "%s", o.type == OBJECT_PACKET ? o.id : "");
	}
	object_free(&o);
	if (rc != 0)
		return rc;
	ctx->results.last_failed = false;
	if (report_json)
		ctx->results.items[ctx->results.count - 1].unchanged =
		    result == STORE_PUT_SAME;
	if (result == STORE_PUT_SAME)
		ctx->counts.unchanged++;
	else
		ctx->counts.added++;
	return 0;
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
	import_context_operator(&ctx);
	safe_path = xsanitize(path);
	/* A leading byte order mark is not part of the JSON (RFC 8259 8.1). */
	body = text;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		body += 3;
		len -= 3;
	}
	if ((rc = store_begin(store, &err)) == 0) {
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

/* Reads one file and hands its bytes to the walk's step. */
static int
import_file(struct import_walk *walk, const char *path)
{
	struct error err;
	size_t len = 0;
	char *text = NULL, *safe_path;
	int rc;

	error_clear(&err);
	if ((rc = read_file(path, &text, &len, &err)) != 0) {
		safe_path = xsanitize(path);
		report_file_failure(safe_path, 0, &err);
		free(safe_path);
		if (report_json && walk->out != NULL) {
			struct import_results none = { NULL, 0, 0, false };

			import_results_print(&none, walk->out, path, rc, 0,
			    &err);
		}
		return rc;
	}
	rc = walk->file(walk, path, text, len);
	free(text);
	return rc;
}

static bool
importable_name(const char *name)
{
	size_t len = strlen(name);

	if (name[0] == '.')
		return false;
	return (len > 5 && strcmp(name + len - 5, ".json") == 0) ||
	    (len > 6 && strcmp(name + len - 6, ".jsonl") == 0);
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The directories one import has read, by device and inode.  Checking
 * only the way up let links that point at each other across two
 * directories be read over and over (949,000 files in 60 seconds): each
 * directory is read once per import, however many links lead to it.
 */
struct visited {
	struct visited_dir {
		dev_t dev;
		ino_t ino;
	} *dirs;
	size_t count;
	size_t size;
};

/*
 * Whether dir was read already in this import; if not, it is now counted
 * as read.  Once per import, not once per path down: directories whose
 * links point at each other were otherwise read for every route between
 * them (949,000 files in a minute).
 */
static bool
visited_before(struct visited *seen, const struct stat *st)
{
	struct visited_dir *grown;
	size_t i;

	for (i = 0; i < seen->count; i++) {
		if (seen->dirs[i].dev == st->st_dev &&
		    seen->dirs[i].ino == st->st_ino)
			return true;
	}
	if (seen->count == seen->size) {
		grown = realloc(seen->dirs, (seen->size ? seen->size * 2 : 16) *
		    sizeof *grown);
		if (grown == NULL)
			return true;	/* out of memory: read no more */
		seen->dirs = grown;
		seen->size = seen->size ? seen->size * 2 : 16;
	}
	seen->dirs[seen->count].dev = st->st_dev;
	seen->dirs[seen->count].ino = st->st_ino;
	seen->count++;
	return false;
}

static int import_path(struct import_walk *, const char *, bool,
    struct visited *, int *);

/* Every *.json and *.jsonl below dir, in name order; links followed once. */
static int
import_directory(struct import_walk *walk, const char *dir, struct stat *st,
    struct visited *seen, int *worst)
{
	struct dirent *entry;
	char **names = NULL, **grown, path[PATH_MAX];
	size_t count = 0, i;
	DIR *d;

	if (visited_before(seen, st))
		return 0;	/* read already, through another path */
	if ((d = opendir(dir)) == NULL) {
		char *safe = xsanitize(dir);

		fprintf(stderr, "countersign: %s: %s\n", safe,
		    strerror(errno));
		free(safe);
		*worst = EXIT_DATA;
		return 0;
	}
	while ((entry = readdir(d)) != NULL) {
		if (entry->d_name[0] == '.')
			continue;
		grown = realloc(names, (count + 1) * sizeof *names);
		if (grown == NULL || (grown[count] = strdup(entry->d_name)) ==
		    NULL) {
			names = grown ? grown : names;
			break;
		}
		names = grown;
		count++;
	}
	closedir(d);
	if (count > 1)	/* an empty directory leaves names NULL */
		qsort(names, count, sizeof *names, compare_strings);
	for (i = 0; i < count; i++) {
		size_t dir_len = strlen(dir);

		while (dir_len > 1 && dir[dir_len - 1] == '/')
			dir_len--;
		if (snprintf(path, sizeof path, "%.*s/%s", (int)dir_len, dir,
		    names[i]) >= (int)sizeof path) {
			fprintf(stderr, _("countersign: a path is too long\n"));
			*worst = EXIT_DATA;
			free(names[i]);
			continue;
		}
		import_path(walk, path, true, seen, worst);
		free(names[i]);
	}
	free(names);
	return 0;
}

static int
import_path(struct import_walk *walk, const char *path, bool inside_directory,
    struct visited *seen, int *worst)
{
	struct stat st;
	int rc;

	if (stat(path, &st) != 0) {
		char *safe = xsanitize(path);

		fprintf(stderr, "countersign: %s: %s\n", safe, strerror(errno));
		free(safe);
		*worst = *worst == EXIT_STORAGE ? *worst : EXIT_DATA;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return import_directory(walk, path, &st, seen, worst);
	/* Inside a directory only JSON files count; a named file always does. */
	if (inside_directory && !importable_name(strrchr(path, '/') + 1))
		return 0;
	rc = import_file(walk, path);
	if (rc == EXIT_STORAGE)
		*worst = EXIT_STORAGE;
	else if (rc != 0 && *worst != EXIT_STORAGE)
		*worst = EXIT_DATA;
	return 0;
}

int
import_walk_paths(struct import_walk *walk, char *const *paths, int count)
{
	struct visited seen = { NULL, 0, 0 };
	int worst = EXIT_OK, i;

	for (i = 0; i < count; i++)
		import_path(walk, paths[i], false, &seen, &worst);
	free(seen.dirs);
	return worst;
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

/* One line's result of submit (SPEC 12), error NULL when imported. */
static cJSON *
submit_result(size_t index, const struct import_seen *seen, const char *text,
    size_t len, const char *status, const struct error *err)
{
	cJSON *r = cJSON_CreateObject(), *e;
	char digest[65];
	bool packet = seen->loaded && seen->type == OBJECT_PACKET;

	cJSON_AddNumberToObject(r, "index", (double)index);
	if (seen->loaded)
		cJSON_AddStringToObject(r, "type", object_type_name(seen->type));
	else
		cJSON_AddNullToObject(r, "type");
	if (packet)
		cJSON_AddStringToObject(r, "action_id", seen->action_id);
	else
		cJSON_AddNullToObject(r, "action_id");
	cJSON_AddStringToObject(r, "status", status);
	/* The stored packet is the string sent: its digest is the string's. */
	if (packet && sha256_hex(text, len, digest) == 0)
		cJSON_AddStringToObject(r, "packet_sha256", digest);
	else
		cJSON_AddNullToObject(r, "packet_sha256");
	if (err == NULL)
		cJSON_AddNullToObject(r, "error");
	else {
		e = cJSON_AddObjectToObject(r, "error");
		cJSON_AddStringToObject(e, "code", "bad_request");
		cJSON_AddStringToObject(e, "field", err->field);
		cJSON_AddStringToObject(e, "message", err->message);
	}
	return r;
}

int
program_submit(struct store *store, const cJSON *lines, cJSON **result,
    struct program_error *perr)
{
	struct import_context ctx;
	struct import_seen *seen = NULL;
	struct error err;
	const cJSON *line;
	cJSON *results;
	size_t n, i, bad = 0, offset;
	int rc = 0;

	*result = NULL;
	memset(perr, 0, sizeof *perr);
	if (!cJSON_IsArray(lines)) {
		perr->code = "bad_request";
		snprintf(perr->message, sizeof perr->message, "submit: lines "
		    "must be an array of strings");
		return -1;
	}
	n = (size_t)cJSON_GetArraySize(lines);
	cJSON_ArrayForEach(line, lines)
		if (!cJSON_IsString(line)) {
			perr->code = "bad_request";
			snprintf(perr->message, sizeof perr->message, "submit: "
			    "lines must be an array of strings");
			return -1;
		}
	error_clear(&err);
	memset(&ctx, 0, sizeof ctx);
	ctx.store = store;
	ctx.path = "submit";
	ctx.now_ms = timestamp_now();
	import_context_operator(&ctx);
	if ((seen = calloc(n + 1, sizeof *seen)) == NULL) {
		rc = error_set(&err, EXIT_STORAGE, NULL, "out of memory");
		goto storage;
	}
	if ((rc = store_begin(store, &err)) != 0)
		goto storage;
	store_cache_policy(store, true);
	rc = store_policy_epoch(store, &ctx.epoch, &err);
	i = 0;
	cJSON_ArrayForEach(line, lines) {
		if (rc != 0)
			break;
		ctx.seen = &seen[i];
		rc = import_object(&ctx, line->valuestring,
		    strlen(line->valuestring), i + 1, &offset, &err);
		bad = i++;
	}
	store_cache_policy(store, false);
	if (rc == 0)
		rc = store_commit(store, &err);
	else
		store_rollback(store);
	if (rc == EXIT_STORAGE)
		goto storage;
	if (rc == 0) {
		announce_head(store, &ctx.head);
		if (queue_refresh(store, timestamp_now(), &(long){ 0 }, &err) !=
		    0)
			goto storage;
	}
	*result = cJSON_CreateObject();
	results = cJSON_AddArrayToObject(*result, "results");
	i = 0;
	cJSON_ArrayForEach(line, lines) {
		const char *status = rc != 0 ? "refused" :
		    seen[i].result == STORE_PUT_SAME ? "unchanged" : "imported";

		cJSON_AddItemToArray(results, submit_result(i, &seen[i],
		    line->valuestring, strlen(line->valuestring), status,
		    rc != 0 && i == bad ? &err : NULL));
		i++;
	}
	free(seen);
	return 0;
storage:
	free(seen);
	perr->code = "storage";
	snprintf(perr->message, sizeof perr->message, "%.400s", err.message);
	return -1;
}
