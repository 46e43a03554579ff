/*
 * countersign audit verify | export | replay: countersign(1) COMMANDS;
 * the records, countersign-packets(5) AUDIT RECORDS (SPEC 6).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_extract.h"
#include "json_fields.h"
#include "json_strict.h"
#include "json_writer.h"
#include "rule_pack.h"
#include "sanitize.h"
#include "timestamp.h"
#include "xmalloc.h"

/*
 * "SEQ:HASH" with a positive seq and 64 hex digits.  The chain's hashes
 * are lowercase (SPEC 6), but a head copied through a tool that prints
 * hex in capitals names the same row: the hash is lowered to compare.
 */
static bool
parse_checkpoint(const char *text, long long *seq, char hash[65])
{
	char *end;
	size_t i;

	/* Digits only: no sign, no white space, nothing out of range. */
	if (text == NULL || text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	*seq = strtoll(text, &end, 10);
	if (errno == ERANGE || *end != ':' || *seq <= 0 ||
	    strlen(end + 1) != 64)
		return false;
	for (i = 0; i < 64; i++) {
		char c = end[1 + i];

		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
		hash[i] = c;
	}
	hash[64] = '\0';
	return true;
}

static int
audit_verify(struct store *store, const struct invocation *inv)
{
	struct audit_report report;
	long long seq = 0;
	char hash[65] = "", *safe;
	struct error err;
	int rc;

	error_clear(&err);
	if (inv->checkpoint != NULL &&
	    !parse_checkpoint(inv->checkpoint, &seq, hash)) {
		/* L10N: keep --checkpoint and SEQ:HASH as they are */
		fprintf(stderr, _("countersign: --checkpoint takes SEQ:HASH, "
		    "a sequence number and 64 hex digits\n"));
		return EXIT_USAGE;
	}
	if ((rc = store_audit_verify(store, seq, hash, &report, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	if (report.bad_seq != 0) {
		/* It names stored ids: an id could repaint BROKEN as intact. */
		safe = xsanitize(report.problem);
		/* L10N: %1$lld is the sequence number of the first bad record,
		   %2$s what is wrong with it (not translated) */
		printf(_("audit log BROKEN at seq %lld: %s\n"), report.bad_seq,
		    safe);
		free(safe);
		return EXIT_REFUSED;
	}
	/* The tree and its signed checkpoints (SPEC 13), before "intact". */
	if ((rc = audit_verify_log(store, inv)) != EXIT_OK)
		return rc;
	/* L10N: the records in the audit log, how many are decisions, and
	   the sequence number and SHA-256 hash of the last one (the head) */
	printf(_("audit log intact: %lld records (%lld decisions), head "
	    "seq %lld hash %s\n"), report.records, report.decisions,
	    report.head.seq, report.head.hash);
	return EXIT_OK;
}

/*
 * RFC 4180 quoting, with formula triggers neutralised (countersign(1)
 * COMMANDS, audit export).  Every
 * cell goes through the sanitizer, whatever stdout is: a reason or an id
 * may carry escape sequences, and a CSV is read through `| less` or `| cat`
 * as often as in a spreadsheet.  The exact text is in the JSON export.
 */
static void
csv_cell(const char *value, bool last)
{
	char *safe = NULL;
	const char *p, *quote;

	if (value == NULL)
		value = "";
	/* Most cells are printable ASCII, which the sanitizer keeps. */
	p = sanitize_keeps(value, strlen(value)) ? value :
	    (safe = xsanitize(value));
	putchar('"');
	/* A spreadsheet would read these as the start of a formula. */
	if (value[0] != '\0' && strchr("=+-@\t\r", value[0]) != NULL)
		putchar('\'');
	while ((quote = strchr(p, '"')) != NULL) {
		fwrite(p, 1, (size_t)(quote - p) + 1, stdout);
		putchar('"');
		p = quote + 1;
	}
	fputs(p, stdout);
	putchar('"');
	putchar(last ? '\n' : ',');
	free(safe);
}

static const char *
string_at(const cJSON *object, const char *key)
{
	const cJSON *item = json_member(object, key);

	return cJSON_IsString(item) ? item->valuestring : "";
}

/*
 * The advisory's overall pass as the record's kind reads it (SPEC 4: a
 * trade's overall_pass, a legal draft's review_pass, a change's outcome),
 * by the kind's own reader; empty when no verdict could be read.
 */
static const char *
advisory_pass(const cJSON *record)
{
	const struct rule_pack *pack = rule_pack_find(string_at(record,
	    "kind"));
	struct advisory advisory;
	const char *cell = "";

	if (pack == NULL || pack->read_advisory(json_member(record,
	    "advisory_verdict"), string_at(record, "action_id"),
	    &advisory) != 0)
		return "";
	if (advisory.state == ADVISORY_AVAILABLE)
		cell = advisory.overall_pass ? "pass" : "fail";
	advisory_free(&advisory);
	return cell;
}

/*
 * An element of a record's list as one cell's text: a string as it is, an
 * object by its key (v1 records list reasons as strings, v2 as {code,
 * detail} objects, and both export alike).
 */
static const char *
item_text(const cJSON *item, const char *key)
{
	if (cJSON_IsString(item))
		return item->valuestring;
	return string_at(item, key != NULL ? key : "detail");
}

/* Joins an array's strings (or objects' "what") with "; ". */
static char *
joined(const cJSON *array, const char *key)
{
	const cJSON *item;
	size_t size = 1;
	char *out;

	cJSON_ArrayForEach(item, array)
		size += strlen(item_text(item, key)) + 2;
	if ((out = malloc(size)) == NULL)
		return NULL;
	out[0] = '\0';
	cJSON_ArrayForEach(item, array) {
		if (out[0] != '\0')
			strcat(out, "; ");
		strcat(out, item_text(item, key));
	}
	return out;
}

/* A write failed (a full disk): the rest of the log would go nowhere. */
static int
export_stopped(void)
{
	return ferror(stdout) ? EXIT_STORAGE : 0;
}

/* What the CSV export needs beyond each record (SPEC 7, v3). */
struct csv_export {
	struct store *store;
	bool since, until;		/* --since T, --until T given */
	long long since_ms, until_ms;
	struct error *err;
};

/* A number of the packet as its canonical JSON writes it, or "". */
static char *
number_text(const cJSON *number)
{
	return cJSON_IsNumber(number) ? json_print(number) : NULL;
}

/*
 * SPEC 7 (v3): what was approved and at whose request, from the action's
 * packet (the record names its digest, packet_sha256), then the bulk it
 * was decided in.  Empty cells where a kind has no such field.
 */
static int
export_csv_packet(const struct csv_export *x, const cJSON *record)
{
	const cJSON *action = NULL;
	cJSON *packet = NULL;
	char *raw = NULL, *quantity, *value;
	int rc;

	if ((rc = store_action_packet(x->store, string_at(record,
	    "action_id"), &raw, x->err)) != 0)
		return rc;
	if (raw != NULL && (packet = cJSON_Parse(raw)) != NULL)
		action = json_member(packet, "proposed_action");
	quantity = number_text(json_member(action, "quantity"));
	value = number_text(json_member(action, "estimated_value_usd"));
	csv_cell(string_at(action, "requested_by"), false);
	csv_cell(string_at(action, "side"), false);
	csv_cell(string_at(action, "ticker"), false);
	csv_cell(quantity, false);
	csv_cell(value, false);
	csv_cell(string_at(record, "packet_sha256"), false);
	csv_cell(string_at(json_member(record, "bulk"), "id"), true);
	free(quantity);
	free(value);
	cJSON_Delete(packet);
	free(raw);
	return 0;
}

/*
 * A top-level member's string as json_member() would find it in the
 * parsed record, into text: the first so named, found without a parse.
 * false when it is not a plain string (absent, another type, escaped, or
 * too long for text).  Where the record does not parse at all, no row is
 * written whatever this says.
 */
static bool
record_string(const char *record_json, size_t len, const char *key,
    char *text, size_t size)
{
	size_t start, length;

	if (!json_member_text(record_json, len, key, &start, &length) ||
	    length < 2 || record_json[start] != '"' || length - 2 >= size ||
	    memchr(record_json + start, '\\', length) != NULL)
		return false;
	memcpy(text, record_json + start + 1, length - 2);
	text[length - 2] = '\0';
	return true;
}

/*
 * Whether export_csv_row() may write a row for this record: a decision or
 * a judgment, decided in [since, until).  The log is mostly other
 * records, the policy imports the largest of them: only a record this
 * cannot rule out is parsed.  Anything unusual (an event that is not a
 * plain string) is left to the parse, as before.
 */
static bool
csv_may_want(const struct csv_export *x, const char *record_json)
{
	size_t len = strlen(record_json);
	char event[16], at[64];
	long long ms;
	bool judgment;

	if (!record_string(record_json, len, "event", event, sizeof event))
		return true;
	judgment = strcmp(event, "po_judgment") == 0;
	if (!judgment && strcmp(event, "decision") != 0)
		return false;
	if ((!x->since && !x->until) || !record_string(record_json, len,
	    judgment ? "judged_at" : "decided_at", at, sizeof at))
		return true;
	return timestamp_parse(at, &ms) && (!x->since || ms >= x->since_ms) &&
	    (!x->until || ms < x->until_ms);
}

static int
export_csv_row(void *ctx, long long seq, const char *record_json,
    const char *prev_hash, const char *hash)
{
	const struct csv_export *x = ctx;
	cJSON *record;
	const cJSON *op, *local, *routing;
	const char *at;
	char number[32], *reasons, *divergence, *acks;
	long long decided_ms = 0;
	int rc;

	bool judgment;

	if (!csv_may_want(x, record_json))
		return 0;
	record = cJSON_Parse(record_json);

	/* Decisions, and (v3) the product owner's judgments (SPEC 2.3). */
	judgment = record != NULL && strcmp(string_at(record, "event"),
	    "po_judgment") == 0;
	if (record == NULL || (!judgment && strcmp(string_at(record, "event"),
	    "decision") != 0)) {
		cJSON_Delete(record);
		return 0;
	}
	/* A judgment's time stands where a decision's does. */
	at = string_at(record, judgment ? "judged_at" : "decided_at");
	/* --since and --until: decided in [since, until). */
	if ((x->since || x->until) && (!timestamp_parse(at, &decided_ms) ||
	    (x->since && decided_ms <
	    x->since_ms) || (x->until && decided_ms >= x->until_ms))) {
		cJSON_Delete(record);
		return 0;
	}
	op = json_member(record, "operator");
	local = json_member(record, "local_verdict");
	routing = json_member(record, "routing");
	reasons = joined(json_member(record, "high_stakes_reasons"), NULL);
	divergence = joined(json_member(record, "divergence"), "what");
	acks = joined(json_member(record, "acknowledged"), NULL);
	snprintf(number, sizeof number, "%lld", seq);
	csv_cell(number, false);
	csv_cell(at, false);
	csv_cell(string_at(record, "action_id"), false);
	csv_cell(string_at(record, "kind"), false);
	csv_cell(string_at(record, "decision"), false);
	csv_cell(string_at(op, "login"), false);
	snprintf(number, sizeof number, "%.0f",
	    cJSON_IsNumber(json_member(op, "uid")) ?
	    json_member(op, "uid")->valuedouble : -1);
	csv_cell(number, false);
	csv_cell(string_at(record, "reason"), false);
	/* A judgment has no verdict of its own: those cells stay empty. */
	csv_cell(judgment ? "" : cJSON_IsTrue(json_member(local,
	    "overall_pass")) ? "pass" : "fail", false);
	csv_cell(judgment ? "" : advisory_pass(record), false);
	csv_cell(judgment ? "" : cJSON_IsTrue(json_member(record,
	    "requires_human_approval")) ? "yes" : "no", false);
	csv_cell(reasons, false);
	csv_cell(divergence, false);
	csv_cell(acks, false);
	/* An escalation naming its expertise (v2) is an escalation too. */
	csv_cell(cJSON_IsString(json_member(routing, "reassign_to")) ?
	    json_member(routing, "reassign_to")->valuestring :
	    cJSON_IsTrue(json_member(routing, "escalate")) ||
	    cJSON_IsObject(json_member(routing, "escalate")) ? "escalate" :
	    cJSON_IsString(json_member(routing, "blocked_on")) ?
	    "blocked_on" : "", false);
	csv_cell(string_at(record, "decision_id"), false);
	csv_cell(hash, false);
	/* SPEC 7 (v3)'s columns, after the older ones scripts read by place. */
	csv_cell(string_at(record, "event"), false);
	csv_cell(string_at(op, "login"), false);
	rc = export_csv_packet(x, record);
	free(reasons);
	free(divergence);
	free(acks);
	cJSON_Delete(record);
	return rc != 0 ? rc : export_stopped();
}

/*
 * The record as stored, byte for byte: a parse into cJSON would print its
 * numbers again as doubles, and the advisory verdict in it is kept
 * exactly as received (SPEC 6).  ctx is the json_writer of every line.
 */
static int
export_json_line(void *ctx, long long seq, const char *record_json,
    const char *prev_hash, const char *hash)
{
	struct json_writer *w = ctx;
	struct error err;
	cJSON *record = NULL;
	size_t len = strlen(record_json), length;
	bool valid, compact = false;
	const char *text;

	/*
	 * The one-pass check vouches for the record the writer made; only
	 * what it cannot vouch for (a stored row tampered with) is parsed.
	 * A record the writer made is compact and, but for a packet's
	 * non-ASCII text, printable ASCII: exactly what
	 * json_writer_verbatim() would make of it, so it is copied as it is.
	 */
	valid = json_object_quick_compact(record_json, len, &compact) ||
	    (record = json_parse_strict(record_json, len, NULL, &err)) != NULL;
	json_writer_reset(w);
	json_writer_object(w);
	json_writer_key(w, "seq");
	json_writer_integer(w, seq);
	json_writer_key(w, "prev_hash");
	json_writer_string(w, prev_hash);
	json_writer_key(w, "hash");
	json_writer_string(w, hash);
	if (compact) {
		json_writer_key(w, "record");
		json_writer_raw(w, record_json, len);
	} else if (valid) {
		json_writer_key(w, "record");
		json_writer_verbatim(w, record_json, len);
	} else {
		json_writer_key(w, "record_json");
		json_writer_string(w, record_json);
	}
	json_writer_end(w, '}');
	cJSON_Delete(record);
	if ((text = json_writer_text(w, &length)) != NULL) {
		fwrite(text, 1, length, stdout);
		putchar('\n');
	}
	return export_stopped();
}

static int
audit_export(struct store *store, const struct invocation *inv)
{
	struct csv_export x;
	struct json_writer line;
	struct error err;
	int rc;

	error_clear(&err);
	json_writer_init(&line);
	x = (struct csv_export){ store, inv->since != NULL,
	    inv->until != NULL, 0, 0, &err };
	/* audit_usage_wrong() saw that they parse. */
	if (x.since)
		timestamp_parse_zoned(inv->since, &x.since_ms);
	if (x.until)
		timestamp_parse_zoned(inv->until, &x.until_ms);
	stdout_for_many_lines();
	if (inv->csv)
		printf("\"seq\",\"decided_at\",\"action_id\",\"kind\","
		    "\"decision\",\"operator_login\",\"operator_uid\","
		    "\"reason\",\"local_verdict\",\"advisory_verdict\","
		    "\"requires_human_approval\",\"high_stakes_reasons\","
		    "\"divergence\",\"acknowledged\",\"routing\","
		    "\"decision_id\",\"hash\",\"event\",\"operator\","
		    "\"requested_by\",\"side\",\"ticker\",\"quantity\","
		    "\"estimated_value_usd\",\"packet_sha256\",\"bulk_id\"\n");
	if (inv->csv)
		rc = store_audit_each(store, export_csv_row, &x, &err);
	else
		rc = store_audit_each(store, export_json_line, &line, &err);
	json_writer_discard(&line);
	/* An export cut short must not pass for the whole log. */
	if (rc == 0 || ferror(stdout))
		rc = stdout_finish(&err);
	if (rc != 0)
		report_error(&err);
	return rc;
}

/* Rule ids and results, overall and stakes: what must be the same. */
static bool
same_verdict(const cJSON *recorded, const cJSON *now, char *why, size_t size)
{
	const cJSON *a = json_member(recorded, "rule_results");
	const cJSON *b = json_member(now, "rule_results");
	const cJSON *x, *y;
	int i, n = cJSON_GetArraySize(a);

	if (n != cJSON_GetArraySize(b)) {
		/* L10N: audit replay: how many rules the recorded verdict had
		   and how many today's rules have */
		snprintf(why, size, _("%d rules then, %d now"), n,
		    cJSON_GetArraySize(b));
		return false;
	}
	for (i = 0; i < n; i++) {
		x = cJSON_GetArrayItem(a, i);
		y = cJSON_GetArrayItem(b, i);
		if (strcmp(string_at(x, "rule_id"), string_at(y, "rule_id")) !=
		    0 || cJSON_IsTrue(json_member(x, "passed")) !=
		    cJSON_IsTrue(json_member(y, "passed"))) {
			/* L10N: audit replay: %1$s the recorded rule id, %2$s
			   its result then ("pass" or "fail"), %3$s the rule id
			   today, %4$s its result now */
			snprintf(why, size, _("rule %s: %s then, %s %s now"),
			    string_at(x, "rule_id"),
			    cJSON_IsTrue(json_member(x, "passed")) ? _("pass") :
			    _("fail"), string_at(y, "rule_id"),
			    cJSON_IsTrue(json_member(y, "passed")) ? _("pass") :
			    _("fail"));
			return false;
		}
	}
	if (cJSON_IsTrue(json_member(recorded, "overall_pass")) !=
	    cJSON_IsTrue(json_member(now, "overall_pass")) ||
	    cJSON_IsTrue(json_member(recorded, "requires_human_approval")) !=
	    cJSON_IsTrue(json_member(now, "requires_human_approval"))) {
		/* L10N: overall_pass and requires_human_approval are field
		   names: keep them */
		snprintf(why, size, _("overall_pass or requires_human_approval "
		    "differs"));
		return false;
	}
	return true;
}

/*
 * The canonical form a record's digests are in: its "format", 1 when it
 * has none (records before issue 27), 0 for one this build does not know.
 */
static int
record_format(const cJSON *record)
{
	const cJSON *format = json_member(record, "format");

	if (format == NULL)
		return JSON_FORMAT_LEGACY;
	if (cJSON_IsNumber(format) && (format->valuedouble ==
	    JSON_FORMAT_LEGACY || format->valuedouble == JSON_FORMAT_CURRENT))
		return (int)format->valuedouble;
	return 0;
}

/*
 * (v3) The notes the officer judged by, as the record keeps them (SPEC
 * 6): the figures of the moment of the decision, which a replay cannot
 * compute again (the holdings' age, say).  Records before v3 have none.
 */
static void
print_recorded_notes(const cJSON *record)
{
	const cJSON *notes = json_member(record, "notes"), *note;
	char *what, *detail;

	if (!cJSON_IsArray(notes))
		return;
	if (cJSON_GetArraySize(notes) == 0) {
		/* L10N: audit replay, after the verdict */
		printf("%s\n", _("  notes judged by: none"));
		return;
	}
	/* L10N: audit replay, after the verdict; the notes follow */
	printf("%s\n", _("  notes judged by:"));
	cJSON_ArrayForEach(note, notes) {
		what = xsanitize(string_at(note, "what"));
		detail = xsanitize(string_at(note, "detail"));
		printf("    %s: %s\n", what, detail);
		free(what);
		free(detail);
	}
}

/*
 * Re-runs the re-check of one record (a decision, or an approval short of
 * its quorum) on the inputs it names; safe_id is what the lines call it.
 * Takes record_json.
 */
static int
replay_record(struct store *store, const char *action_id,
    const char *safe_id, char *record_json)
{
	const cJSON *inputs, *recorded_digest, *decided_at;
	struct check_outcome outcome;
	struct check_data data;
	cJSON *record = NULL, *now_json = NULL;
	char digest[65], why[512];
	long long decided_ms = 0;
	struct error err;
	int rc, format;

	error_clear(&err);
	if ((record = cJSON_Parse(record_json)) == NULL) {
		/* L10N: %s is an action id */
		fprintf(stderr, _("countersign: no recorded decision for "
		    "%s\n"), safe_id);
		free(record_json);
		return EXIT_REFUSED;
	}
	if ((format = record_format(record)) == 0) {
		/* L10N: %s is an action id; "format" is a field name */
		printf(_("%s: the record's format is not one this build "
		    "knows\n"), safe_id);
		rc = EXIT_REFUSED;
		goto done;
	}
	inputs = json_member(record, "rule_inputs");
	recorded_digest = json_member(record, "rule_inputs_sha256");
	decided_at = json_member(record, "decided_at");
	if (cJSON_IsString(decided_at))
		timestamp_parse(decided_at->valuestring, &decided_ms);
	rc = store_load_recorded(store, action_id, inputs, decided_ms, &data,
	    &err);
	if (rc == 0) {
		data.input.po_judgments = json_member(record, "po_judgments");
		if (cJSON_IsNull(data.input.po_judgments))
			data.input.po_judgments = NULL;
		rc = check_run(&data.input, &outcome, &err);
		if (rc != 0)
			check_data_free(&data);
	}
	if (rc != 0) {
		report_error(&err);
		goto done;
	}
	if (check_inputs_sha256_format(&data.input, format, digest) != 0 ||
	    !cJSON_IsString(recorded_digest) ||
	    strcmp(digest, recorded_digest->valuestring) != 0) {
		/* L10N: audit replay: %1$s the action id, %2$s the SHA-256 of
		   the rule inputs found now */
		printf(_("%s: the rule inputs differ from those recorded "
		    "(SHA-256 %s now)\n"), safe_id, digest);
		rc = EXIT_REFUSED;
	} else if (now_json = verdict_to_json(&outcome.verdict),
	    !same_verdict(json_member(record, "local_verdict"), now_json, why,
	    sizeof why)) {
		char *safe_why = xsanitize(why);	/* names stored rules */

		/* L10N: audit replay: %1$s the action id, %2$s what differs */
		printf(_("%s: today's rules reach a different verdict: %s\n"),
		    safe_id, safe_why);
		free(safe_why);
		rc = EXIT_REFUSED;
	} else if (outcome.verdict.overall_pass)
		/* L10N: audit replay agrees; %s is the action id */
		printf(_("%s: same inputs, same verdict (pass)\n"), safe_id);
	else
		/* L10N: audit replay agrees; %s is the action id */
		printf(_("%s: same inputs, same verdict (fail)\n"), safe_id);
	print_recorded_notes(record);
	cJSON_Delete(now_json);
	check_outcome_free(&outcome);
	check_data_free(&data);
done:
	cJSON_Delete(record);
	free(record_json);
	return rc;
}

/*
 * SPEC 2.3 (v3): the product owner's judgments recorded before the
 * decision, which its record's po_judgments counted; nothing to re-check.
 */
static int
replay_judgments(struct store *store, const char *action_id,
    const char *safe_id)
{
	struct judgment_row *rows;
	size_t count, i;
	struct error err;
	char *ac_id, *login;
	int rc;

	error_clear(&err);
	if ((rc = store_judgments_of(store, action_id, &rows, &count,
	    &err)) != 0) {
		report_error(&err);
		return rc;
	}
	for (i = 0; i < count; i++) {
		ac_id = xsanitize(rows[i].ac_id);
		login = xsanitize(rows[i].operator_login);
		/* L10N: audit replay: %1$s an action id, %2$s a judgment id,
		   %3$s a criterion id, %4$s "met" or "unmet" (untranslated),
		   %5$s who judged, %6$s when */
		printf(_("%1$s (judgment %2$s): %3$s %4$s, judged by %5$s at "
		    "%6$s\n"), safe_id, rows[i].judgment_id, ac_id,
		    rows[i].judgment, login, rows[i].judged_at);
		free(ac_id);
		free(login);
	}
	store_judgments_free(rows, count);
	return 0;
}

/*
 * SPEC 14: each approval an action was given, in order, then its
 * decision when it has one; the first disagreement is the status.
 * (v3) The judgments it was given come first.
 */
static int
audit_replay(struct store *store, const char *action_id)
{
	struct approval_row *approvals = NULL;
	char *record_json = NULL, *safe_id, *label;
	size_t count = 0, i;
	struct error err;
	int rc, worst = 0;

	error_clear(&err);
	safe_id = xsanitize(action_id);
	if ((rc = replay_judgments(store, action_id, safe_id)) != 0)
		goto done;
	if ((rc = store_approvals_of(store, action_id, &approvals, &count,
	    &err)) != 0 || (rc = store_decision_record(store, action_id,
	    &record_json, &err)) != 0) {
		report_error(&err);
		goto done;
	}
	if (record_json == NULL && count == 0) {
		/* L10N: %s is an action id */
		fprintf(stderr, _("countersign: no recorded decision for "
		    "%s\n"), safe_id);
		rc = EXIT_REFUSED;
		goto done;
	}
	for (i = 0; i < count && rc == 0; i++) {
		char *approval_json = NULL;

		if ((rc = store_approval_record(store, approvals[i].approval_id,
		    &approval_json, &err)) != 0) {
			report_error(&err);
			break;
		}
		/* L10N: audit replay: %1$s an action id, %2$s an approval id */
		label = xasprintf(_("%s (approval %s)"), safe_id,
		    approvals[i].approval_id);
		if (approval_json == NULL) {
			fprintf(stderr, _("countersign: no recorded decision "
			    "for %s\n"), label);
			rc = EXIT_REFUSED;
		} else
			rc = replay_record(store, action_id, label,
			    approval_json);
		free(label);
		if (rc == EXIT_REFUSED) {
			worst = rc;
			rc = 0;
		}
	}
	if (rc == 0 && record_json != NULL) {
		rc = replay_record(store, action_id, safe_id, record_json);
		record_json = NULL;
	}
	if (rc == 0)
		rc = worst;
done:
	free(record_json);
	store_approvals_free(approvals, count);
	free(safe_id);
	return rc;
}

/*
 * True, with the "countersign: " line that says what is wrong printed,
 * when the audit words or options do not fit together.  Errors go to
 * stderr as "countersign: ..." (SPEC 7), the usage after them.
 */
static bool
audit_usage_wrong(const struct invocation *inv, const char *what)
{
	bool verify = strcmp(what, "verify") == 0;
	bool export = strcmp(what, "export") == 0;
	bool replay = strcmp(what, "replay") == 0;
	const char *bad_time = NULL;
	long long ms;
	bool checkpoint = strcmp(what, "checkpoint") == 0;
	bool consistency = strcmp(what, "consistency") == 0;
	char *safe;

	if (inv->since != NULL && !timestamp_parse_zoned(inv->since, &ms))
		bad_time = inv->since;
	else if (inv->until != NULL && !timestamp_parse_zoned(inv->until, &ms))
		bad_time = inv->until;

	if (inv->operand_count == 0)
		/* L10N: keep verify, export and replay: they are typed */
		fprintf(stderr, _("countersign: audit needs verify, export "
		    "or replay\n"));
	else if (checkpoint || consistency) {
		if (inv->csv || inv->checkpoint != NULL ||
		    (checkpoint && inv->key_count > 0) ||
		    (consistency && inv->size > 0))
			fprintf(stderr, _("countersign: an option given does "
			    "not apply to '%s'\n"), checkpoint ?
			    "audit checkpoint" : "audit consistency");
		else if (consistency && inv->operand_count != 2)
			/* L10N: keep "audit consistency" and NOTEFILE */
			fprintf(stderr, _("countersign: audit consistency "
			    "needs a NOTEFILE\n"));
		else if (checkpoint && inv->operand_count != 1)
			fprintf(stderr, _("countersign: too many arguments\n"));
		else
			return false;
	} else if (!verify && !export && !replay) {
		safe = xsanitize(what);
		/* L10N: %s is what was typed after "audit" */
		fprintf(stderr, _("countersign: unknown audit command '%s'\n"),
		    safe);
		free(safe);
	} else if ((inv->csv && !export) || (inv->checkpoint != NULL &&
	    !verify) || ((inv->since != NULL || inv->until != NULL) &&
	    !(export && inv->csv)) || inv->size > 0 ||
	    (inv->key_count > 0 && !verify))
		/* L10N: %s is "audit verify", "audit export" or "audit
		   replay", untranslated */
		fprintf(stderr, _("countersign: an option given does not "
		    "apply to '%s'\n"), verify ? "audit verify" : export ?
		    "audit export" : "audit replay");
	else if (replay && inv->operand_count == 1)
		/* L10N: keep "audit replay" and ACTION_ID: they are typed */
		fprintf(stderr, _("countersign: audit replay needs an "
		    "ACTION_ID\n"));
	else if (inv->operand_count > (replay ? 2 : 1))
		fprintf(stderr, _("countersign: too many arguments\n"));
	else if (bad_time != NULL) {
		safe = xsanitize(bad_time);
		/* L10N: %s is what was typed after --since or --until; keep
		   the example as it is */
		fprintf(stderr, _("countersign: '%s' is no time: write it as "
		    "ISO 8601 with a zone, e.g. 2026-12-01T09:00:00Z\n"), safe);
		free(safe);
	}
	else
		return false;
	return true;
}

/* audit replay of the action a whole id or a unique prefix names (SPEC 7). */
static int
audit_replay_named(struct store *store, const char *given)
{
	struct error err;
	char *action_id;
	int rc;

	error_clear(&err);
	if (store_resolve_action_id(store, given, &action_id, &err) != 0) {
		report_error(&err);
		return err.status;
	}
	rc = audit_replay(store, action_id);
	free(action_id);
	return rc;
}

int
cmd_audit(const struct invocation *inv)
{
	const char *what = inv->operand_count > 0 ? inv->operands[0] : "";
	struct store *store;
	struct error err;
	int rc;

	error_clear(&err);
	if (audit_usage_wrong(inv, what)) {
		/* L10N: the words after "countersign" are typed: keep them */
		fprintf(stderr, _("Usage: countersign audit verify "
		    "[--checkpoint SEQ:HASH]\n"
		    "       countersign audit export [--csv [--since T] "
		    "[--until T]]\n"
		    "       countersign audit replay ACTION_ID\n"
		    "       countersign audit checkpoint [--size N]\n"
		    "       countersign audit consistency NOTEFILE "
		    "[--key PUBFILE...]\n"));
		return EXIT_USAGE;
	}
	if ((rc = open_store(inv, STORE_EXISTING, &store, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	if (strcmp(what, "verify") == 0)
		rc = audit_verify(store, inv);
	else if (strcmp(what, "export") == 0)
		rc = audit_export(store, inv);
	else if (strcmp(what, "checkpoint") == 0)
		rc = audit_checkpoint(store, inv);
	else if (strcmp(what, "consistency") == 0)
		rc = audit_consistency(store, inv);
	else
		rc = audit_replay_named(store, inv->operands[1]);
	store_close(store);
	/* A verdict no one could read is no verdict: exit 4, as check does. */
	if ((rc == EXIT_OK || rc == EXIT_REFUSED) &&
	    stdout_finish(&err) != 0) {
		report_error(&err);
		rc = err.status;
	}
	return rc;
}
