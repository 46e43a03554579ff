/*
 * countersign list [--all] [--json] [--filter EXPR]: the queue as a table
 * or JSON lines.
 */
#include "config.h"

#include <errno.h>
#include <search.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "decision.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_extract.h"
#include "json_fields.h"
#include "json_strict.h"
#include "json_writer.h"
#include "sanitize.h"
#include "sha256.h"
#include "text.h"
#include "xmalloc.h"

/*
 * The queue's order (care_of) has five classes, each in the order the
 * store reads the actions: a row of the first goes out at once, the
 * others wait in a spool file each, copied out after the pass.  Memory
 * then stays flat however long the queue (issue 34).
 */
#define CARE_CLASSES 5

struct list_run {
	struct store *store;
	const struct invocation *inv;
	long long now_ms;
	size_t rows;
	struct error *err;
	bool header_printed;
	struct filter filter;		/* --filter, SPEC 7 */
	FILE *spool[CARE_CLASSES];	/* [0] is stdout, opened lazily */
	struct json_writer line;	/* --json's, its buffer kept */
	void *checked;			/* tsearch(3) of checked_keys */
	char **checked_keys;		/* "kind\nwho" checked for real */
	size_t checked_count;
};

/* A row and what --json adds to it. */
struct listed {
	struct queue_row row;
	int care;
	char packet_sha256[65];		/* "" when the packet is not text */
	const char *importer_login;	/* "" when nobody is known */
	long long importer_uid;
	bool importer_served;
	cJSON *reasons;			/* high_stakes_reasons, {code, detail} */
	const char *reasons_text;	/* or as the index keeps them printed */
	size_t reasons_length;
	cJSON *blocked;			/* a held change's gaps, or NULL */
};

#define ID_COLUMNS 36	/* a UUID's length */

/* Prints sanitized text in exactly columns cells, cut with an ellipsis. */
static void
print_cell(FILE *out, const char *text, size_t columns)
{
	size_t width = sanitized_width(text), cut;

	if (width <= columns) {
		fprintf(out, "%s%*s", text, (int)(columns - width), "");
		return;
	}
	cut = sanitized_prefix(text, columns - 1, &width);
	fprintf(out, "%.*s\xe2\x80\xa6%*s", (int)cut, text,
	    (int)(columns - 1 - width), "");
}

static void
print_row(const struct list_run *run, FILE *out, const struct queue_row *row)
{
	char flags[7], age[16], *id;
	size_t i;

	snprintf(flags, sizeof flags, "%c%c%c%c%c%c",
	    row->high_stakes ? 'H' : ' ', row->local_fail ? 'x' : ' ',
	    row->divergent ? '!' : ' ', row->locked_out ? 'L' : ' ',
	    row->deadlocked ? 'D' : ' ', row->expired ? 'E' : ' ');
	/* From drafting, as the screens count it; import when undated. */
	format_age(age, sizeof age, run->now_ms - (row->has_drafted ?
	    row->drafted_at_ms : row->imported_at_ms));
	id = xsanitize(row->action_id);
	fprintf(out, "%s ", flags);
	print_cell(out, row->kind, 11);	/* "legal_draft" */
	/*
	 * The id whole, whatever its length: it is what check, batch and
	 * grep are given, and a cut one can name several actions.  Ids up to
	 * a UUID's length keep the columns aligned.
	 */
	fprintf(out, " %s%*s ", id, (int)(ID_COLUMNS - (sanitized_width(id) <
	    ID_COLUMNS ? sanitized_width(id) : ID_COLUMNS)), "");
	print_cell(out, row->who, 12);
	fprintf(out, " ");
	print_cell(out, row->summary, 28);
	fprintf(out, " %-4s %-5s %4s", _(row->advisory),
	    /* L10N: "pass", "fail", "FAIL" and "n/a" are verdicts in
	       4-column cells of the queue (advisory and local verdict): at
	       most 4 characters, no accented letters (the columns are
	       counted in bytes); "FAIL" is upper case to stand out */
	    row->local_fail ? _("FAIL") : _("pass"), age);
	if (run->inv->all)
		fprintf(out, "  %s", row->status);
	fprintf(out, "\n");
	/* Divergences under their row: what the officer must not miss. */
	for (i = 0; i < row->divergence_count; i++)
		fprintf(out, "       ! %s\n", row->notes[i] ? row->notes[i] : "");
	free(id);
}

/*
 * (v3) SPEC 5: who imported the action and how, or null for an action
 * stored before that was kept.
 */
static void
importer_json(struct json_writer *w, const struct listed *listed)
{
	json_writer_key(w, "imported_by");
	if (listed->importer_login[0] == '\0') {
		json_writer_null(w);
		return;
	}
	json_writer_object(w);
	json_writer_key(w, "login");
	json_writer_string(w, listed->importer_login);
	json_writer_key(w, "uid");
	json_writer_integer(w, listed->importer_uid);
	json_writer_key(w, "via");
	json_writer_string(w, listed->importer_served ? "service" : "local");
	json_writer_end(w, '}');
}

/* One line of --json, by the writer (a cJSON tree a line cost as much). */
static void
print_json(FILE *out, struct json_writer *line, const struct listed *listed)
{
	const struct queue_row *row = &listed->row;
	static const struct {
		size_t offset;
		const char *name;
	} flags[] = {
		{ offsetof(struct queue_row, high_stakes), "high_stakes" },
		{ offsetof(struct queue_row, local_fail), "local_fail" },
		{ offsetof(struct queue_row, divergent), "divergence" },
		{ offsetof(struct queue_row, locked_out), "locked_out" },
		{ offsetof(struct queue_row, deadlocked), "deadlocked" },
		{ offsetof(struct queue_row, expired), "expired" },
	};
	struct json_writer *w = line;
	const char *text;
	size_t i, length;

	json_writer_reset(w);
	json_writer_object(w);
	json_writer_key(w, "action_id");
	json_writer_string(w, row->action_id);
	json_writer_key(w, "kind");
	json_writer_string(w, row->kind);
	json_writer_key(w, "status");
	json_writer_string(w, row->status);
	/* What batch's expect_sha256 names (SPEC 5 `changed`). */
	json_writer_key(w, "packet_sha256");
	json_writer_string(w, listed->packet_sha256[0] != '\0' ?
	    listed->packet_sha256 : NULL);
	json_writer_key(w, "flags");
	json_writer_array(w);
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		if (*(const bool *)((const char *)row + flags[i].offset))
			json_writer_string(w, flags[i].name);
	}
	json_writer_end(w, ']');
	json_writer_key(w, "who");
	json_writer_string(w, row->who);
	json_writer_key(w, "requested_by");
	json_writer_string(w, row->requester);
	json_writer_key(w, "author");
	json_writer_string(w, row->author);
	json_writer_key(w, "summary");
	json_writer_string(w, row->summary);
	json_writer_key(w, "advisory_pass");
	if (strcmp(row->advisory, "n/a") == 0)
		json_writer_null(w);
	else
		json_writer_bool(w, strcmp(row->advisory, "pass") == 0);
	json_writer_key(w, "local_pass");
	json_writer_bool(w, !row->local_fail);
	json_writer_key(w, "requires_human_approval");
	json_writer_bool(w, row->high_stakes);
	/* SPEC 3 (v2): the reasons as objects, so scripts select by code. */
	json_writer_key(w, "high_stakes_reasons");
	if (listed->reasons_text != NULL)
		json_writer_raw(w, listed->reasons_text,
		    listed->reasons_length);
	else if (listed->reasons != NULL)
		json_writer_tree(w, listed->reasons);
	else {
		json_writer_array(w);
		json_writer_end(w, ']');
	}
	json_writer_key(w, "divergence_count");
	json_writer_integer(w, (long long)row->divergence_count);
	importer_json(w, listed);
	if (listed->blocked != NULL) {
		json_writer_key(w, "blocked_on");
		json_writer_string(w, "missing_standard");
		json_writer_key(w, "waiting_for");
		json_writer_tree(w, listed->blocked);
	}
	json_writer_end(w, '}');
	if ((text = json_writer_text(w, &length)) != NULL) {
		fwrite(text, 1, length, out);
		putc('\n', out);
	}
}

/*
 * SPEC 5: a change rejected with blocked_on waits for a standard; it was
 * not sent back.  The reviewer's missing_standard gaps say which: as an
 * array into *gaps (NULL when the action is not so held).
 */
static int
blocked_on_gaps(const struct list_run *run, const struct recheck *r,
    const char *action_id, cJSON **gaps)
{
	cJSON *record;
	char *json = NULL;
	int rc;

	*gaps = NULL;
	if (!run->inv->all || strcmp(r->data.status, "rejected") != 0)
		return 0;
	if ((rc = store_decision_record(run->store, action_id, &json,
	    run->err)) != 0 || json == NULL)
		return rc;
	record = cJSON_Parse(json);
	free(json);
	if (decision_blocked(record, gaps) && *gaps == NULL)
		rc = error_set(run->err, EXIT_STORAGE, NULL, "out of memory");
	cJSON_Delete(record);
	return rc;
}

/* Under its row: what a held change waits for. */
static void
print_blocked(FILE *out, const cJSON *gaps)
{
	const cJSON *gap;
	char *text;

	if (cJSON_GetArraySize(gaps) == 0)
		/* L10N: under a rejected change held for a standard */
		fprintf(out, "       %s\n", _("blocked: waiting for a standard"));
	cJSON_ArrayForEach(gap, gaps) {
		text = xsanitize(gap->valuestring);
		/* L10N: %s is the reviewer's text of the missing standard */
		fprintf(out, _("       blocked: waiting for a standard: %s\n"),
		    text);
		free(text);
	}
}

/*
 * The review screen's default order (queue_index.c): local failures and
 * divergences, then high stakes, then the rest, oldest first in each;
 * expired actions below them, and (--all) decided ones last.
 */
static int
care_of(const struct queue_row *row)
{
	if (strcmp(row->status, "pending") != 0 &&
	    strcmp(row->status, "expired") != 0)
		return -2;
	return row->expired ? -1 : row->local_fail || row->divergent ? 2 :
	    row->high_stakes ? 1 : 0;
}

/* The table's headings, once, before its first row (not for --json). */
static void
print_header(struct list_run *run)
{
	if (run->inv->json || run->header_printed)
		return;
	run->header_printed = true;
	/* L10N: the column headings of "countersign list".
	   Each heading starts where its column starts: FLG at
	   0 (flags), KIND at 7, ID at 19, WHO at 56, SUMMARY at
	   69, ADV (the advisory verdict) at 98, LOCAL (the local
	   verdict) at 103, AGE at 110.  Keep the positions and no
	   accented letters (the columns are counted in bytes).
	   %s is the STATUS heading or nothing. */
	printf(_("FLG    KIND        ID                                   "
	    "WHO          SUMMARY                      ADV  LOCAL  "
	    "AGE%s\n"),
	    run->inv->all ? _("  STATUS") : "");
}

/* Where a row of this care goes: stdout for the first class, else its spool. */
static FILE *
output_for(struct list_run *run, int care)
{
	size_t class = (size_t)(2 - care);

	if (class == 0) {
		print_header(run);
		return stdout;
	}
	if (run->spool[class] == NULL)
		run->spool[class] = tmpfile();
	return run->spool[class];
}

static void
free_listed(struct listed *listed)
{
	queue_row_free(&listed->row);
	cJSON_Delete(listed->reasons);
	cJSON_Delete(listed->blocked);
}

/* Prints a row built by either path below, or leaves it to the filter. */
static int
list_emit(struct list_run *run, struct listed *listed, const cJSON *action)
{
	struct filter_subject subject;
	char flags[FILTER_FLAGS_SIZE];
	FILE *out;

	filter_subject_of(&listed->row, action, flags, &subject);
	if (!filter_matches(&run->filter, &subject, run->now_ms))
		return 0;
	listed->care = care_of(&listed->row);
	if ((out = output_for(run, listed->care)) == NULL)
		return error_set(run->err, EXIT_STORAGE, NULL,
		    /* L10N: %s is the system's reason (strerror) */
		    _("cannot write the output: %s"), strerror(errno));
	if (run->inv->json)
		print_json(out, &run->line, listed);
	else {
		print_row(run, out, &listed->row);
		if (listed->blocked != NULL)
			print_blocked(out, listed->blocked);
	}
	run->rows++;
	return 0;
}

/* A row from a check run now: a stale or decided action, or any. */
static int
list_one(void *ctx, struct recheck *r)
{
	struct list_run *run = ctx;
	struct listed listed;
	int rc;

	memset(&listed, 0, sizeof listed);
	if ((rc = queue_row_from_recheck(r, r->outcome.verdict.action_id,
	    &listed.row, run->now_ms, run->err)) != 0)
		goto cleanup;
	snprintf(listed.packet_sha256, sizeof listed.packet_sha256, "%s",
	    r->data.packet_sha256);
	listed.importer_login = r->data.importer_login;
	listed.importer_uid = r->data.importer_uid;
	listed.importer_served = r->data.importer_served;
	if (run->inv->json && (listed.reasons = queue_reasons_json(
	    &r->outcome.verdict)) == NULL) {
		rc = error_set(run->err, EXIT_STORAGE, NULL,
		    _("out of memory"));
		goto cleanup;
	}
	if ((rc = blocked_on_gaps(run, r, listed.row.action_id,
	    &listed.blocked)) == 0)
		rc = list_emit(run, &listed, r->data.input.action);
cleanup:
	free_listed(&listed);
	return rc;
}

static int
key_compare(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * Whether list may print the index's row of a as it is.  The row must
 * be of the kind its action is and of the packet's very bytes (the
 * digest its listed part keeps): a row changed under the index is
 * checked again, and a fault in it named, as check names it.  And the
 * first row of each kind and person (a trade's user) is checked for
 * real, which reads the policy documents that row depends on: a stored
 * IPS, holdings, roster or standards index that is not what import
 * accepts fails list as it fails check (stored_rows.sh), for the cost
 * of one check per kind and person, not per action.
 */
static bool
index_row_holds(struct list_run *run, const struct listed_action *a,
    const char *packet_sha256)
{
	char digest[SHA256_HEX_SIZE], probe[512], *key;
	size_t kind_length = strlen(a->row.kind);
	size_t who_length = strlen(a->row.who);

	if (strcmp(a->indexed_kind, a->row.kind) != 0 || a->packet == NULL ||
	    sha256_hex(a->packet, a->packet_length, digest) != 0 ||
	    strcmp(digest, packet_sha256) != 0)
		return false;
	/* The key built in place: a row is probed far more than added. */
	if (kind_length + who_length + 2 <= sizeof probe) {
		memcpy(probe, a->row.kind, kind_length);
		probe[kind_length] = '\n';
		memcpy(probe + kind_length + 1, a->row.who, who_length + 1);
		if (tfind(probe, &run->checked, key_compare) != NULL)
			return true;
	}
	key = xasprintf("%s\n%s", a->row.kind, a->row.who);
	if (tfind(key, &run->checked, key_compare) != NULL) {
		free(key);
		return true;
	}
	run->checked_keys = xrealloc(run->checked_keys,
	    (run->checked_count + 1) * sizeof *run->checked_keys);
	run->checked_keys[run->checked_count++] = key;
	/* Out of memory there only means this key is checked again. */
	(void)tsearch(key, &run->checked, key_compare);
	return false;
}

/*
 * A row from the queue index, when its row is of the policy epoch in
 * force: the check it keeps is the one a check now would make (every
 * change that could alter it marks the row stale, queue_index.c and
 * artifact.c); what depends on the clock is worked out here.  Any other
 * action is checked again.
 */
static int
list_action(void *ctx, struct listed_action *a)
{
	struct list_run *run = ctx;
	struct listed listed;
	struct recheck r;
	cJSON *kept = NULL;
	const char *text;
	size_t length, at, n;
	char packet_sha256[sizeof listed.packet_sha256] = "";
	int rc = 0;

	/* Our own JSON (queue_row_listed()): its members read in place. */
	if (a->indexed) {
		text = a->row.listed;
		length = strlen(text);
		if (json_member_text(text, length, "packet_sha256", &at, &n) &&
		    text[at] == '"' && n == sizeof packet_sha256 + 1)
			snprintf(packet_sha256, sizeof packet_sha256, "%.*s",
			    (int)(n - 2), text + at + 1);
	}
	if (!a->indexed || !index_row_holds(run, a, packet_sha256)) {
		if ((rc = recheck_action(run->store, a->row.action_id,
		    run->now_ms, NULL, &r, run->err)) != 0)
			return rc;
		rc = list_one(run, &r);
		recheck_free(&r);
		return rc;
	}
	memset(&listed, 0, sizeof listed);
	listed.row = a->row;
	memset(&a->row, 0, sizeof a->row);
	listed.row.expired = listed.row.has_expiry &&
	    run->now_ms >= listed.row.expires_at_ms;
	if (listed.row.expired)
		snprintf(listed.row.status, sizeof listed.row.status,
		    "expired");
	listed.importer_login = a->importer_login;
	listed.importer_uid = a->importer_uid;
	listed.importer_served = a->importer_served;
	memcpy(listed.packet_sha256, packet_sha256, sizeof packet_sha256);
	text = listed.row.listed;
	length = strlen(text);
	if (run->inv->json && json_member_text(text, length,
	    "high_stakes_reasons", &at, &n)) {
		listed.reasons_text = text + at;
		listed.reasons_length = n;
	}
	if (!run->inv->json && listed.row.divergence_count > 0) {
		if (!json_member_text(text, length, "divergence", &at, &n) ||
		    (kept = cJSON_ParseWithLength(text + at, n)) == NULL) {
			rc = error_set(run->err, EXIT_STORAGE, NULL,
			    _("out of memory"));
			goto cleanup;
		}
		rc = queue_row_notes_listed(&listed.row, kept, run->err);
	}
	if (rc == 0)
		rc = list_emit(run, &listed, NULL);
cleanup:
	cJSON_Delete(kept);
	free_listed(&listed);
	return rc;
}

/* The spooled classes after the first, in the queue's order. */
static int
print_spooled(struct list_run *run)
{
	char buf[64 * 1024];
	size_t class, n;
	FILE *spool;

	for (class = 1; class < CARE_CLASSES; class++) {
		if ((spool = run->spool[class]) == NULL)
			continue;
		print_header(run);
		if (fflush(spool) != 0 || ferror(spool) ||
		    fseek(spool, 0, SEEK_SET) != 0)
			return error_set(run->err, EXIT_STORAGE, NULL,
			    _("cannot write the output: %s"), strerror(errno));
		while ((n = fread(buf, 1, sizeof buf, spool)) > 0)
			fwrite(buf, 1, n, stdout);
		if (ferror(spool))
			return error_set(run->err, EXIT_STORAGE, NULL,
			    _("cannot write the output: %s"), strerror(errno));
	}
	return 0;
}

static void
close_spools(struct list_run *run)
{
	size_t class;

	for (class = 1; class < CARE_CLASSES; class++)
		if (run->spool[class] != NULL)
			fclose(run->spool[class]);
}

int
cmd_list(const struct invocation *inv)
{
	struct list_run run;
	struct store *store;
	struct error err;
	bool filter_given;
	int rc;

	error_clear(&err);
	memset(&run, 0, sizeof run);
	/* A mistyped filter is a usage error before any database is read. */
	if ((rc = filter_parse(inv->filter, &run.filter, &err)) != 0 ||
	    (rc = open_store(inv, STORE_EXISTING, &store, &err)) != 0) {
		filter_free(&run.filter);
		report_error(&err);
		return rc;
	}
	run.store = store;
	run.inv = inv;
	json_writer_init(&run.line);
	run.now_ms = timestamp_now();
	run.err = &err;
	stdout_for_many_lines();
	/* A read-only pass: parse each user's policy once, not per action. */
	store_cache_policy(store, true);
	/*
	 * From the queue index (issue 34), but for a filter on what only
	 * the packet says (user, ticker, value), which checks every action.
	 */
	rc = filter_needs_action(&run.filter) ? recheck_each(store, inv->all,
	    run.now_ms, list_one, &run, &err) : store_each_listed(store,
	    inv->all, list_action, &run, &err);
	store_close(store);
	while (run.checked_count > 0) {
		char *key = run.checked_keys[--run.checked_count];

		tdelete(key, &run.checked, key_compare);
		free(key);
	}
	free(run.checked_keys);
	json_writer_discard(&run.line);
	filter_given = run.filter.count > 0;
	filter_free(&run.filter);
	/* In the order the review screen shows them. */
	if (rc == 0)
		rc = print_spooled(&run);
	close_spools(&run);
	if (rc != 0) {
		report_error(&err);
		return rc;
	}
	if (run.rows == 0 && !inv->json)
		printf("%s\n", filter_given ? _("Nothing matches.") :
		    inv->all ? _("No actions.") : _("No pending actions."));
	if ((rc = stdout_finish(&err)) != 0) {
		report_error(&err);
		return rc;
	}
	return EXIT_OK;
}
