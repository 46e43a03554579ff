/*
 * countersign batch [FILE] [--atomic] (SPEC 8): one decision per JSON line,
 * one JSON result line per input line, in order.  Never touches a terminal.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch_input.h"
#include "commands.h"
#include "decision.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_fields.h"
#include "json_strict.h"
#include "text.h"

#define LINE_MAX_BYTES (1UL << 20)
/*
 * --atomic keeps a piped input, and every line's result, in temporary
 * files until the commit: unbounded, a pipe filled /tmp at 480 MB a
 * second.  Beyond these the batch is refused, nothing recorded.
 */
#define ATOMIC_INPUT_MAX (64UL << 20)
#define ATOMIC_RESULTS_MAX (256UL << 20)

struct batch_line {
	size_t number;
	struct decision_request request;
	cJSON *json;			/* owns the request's strings */
	char *action_id;		/* for the result, even when malformed */
	char *resolved_id;		/* the whole id a prefix named; owned */
	struct decision_outcome outcome;
	const char *code;		/* bad_request, or the outcome's */
	char message[sizeof ((struct error *)0)->field +
	    sizeof ((struct error *)0)->message + 2];
};

/* SPEC 8; (v3) judge: the product owner's judgment (SPEC 2.3). */
static const char *const decisions[] = { "approve", "reject", "judge", NULL };
static const char *const known_keys[] = { "action_id", "decision", "reason",
    "acknowledge", "reassign_to", "escalate", "po_judgments", "blocked_on",
    "expect_sha256", NULL };
/* SPEC 5: what a rejection may wait for. */
static const char *const blocked_on_values[] = { "missing_standard", NULL };

static int
bad_request(struct batch_line *line, const struct error *err)
{
	line->code = "bad_request";
	if (err->field[0] != '\0')
		snprintf(line->message, sizeof line->message, "%s: %s",
		    err->field, err->message);
	else
		snprintf(line->message, sizeof line->message, "%s",
		    err->message);
	return -1;
}

/*
 * escalate (SPEC 8 v2): true or false, or {"expertise": text} naming who
 * is needed, which escalates.  Anything else is malformed.
 */
static int
parse_escalate(const cJSON *json, struct decision_request *req,
    struct error *err)
{
	const cJSON *escalate = json_member(json, "escalate"), *member;

	if (!cJSON_IsObject(escalate))
		return field_bool(json, "", "escalate", FIELD_OPTIONAL,
		    &req->escalate, NULL, err);
	cJSON_ArrayForEach(member, escalate) {
		if (strcmp(member->string, "expertise") != 0)
			return error_set(err, EXIT_DATA, "escalate",
			    "unknown field %.64s: an escalation is true or "
			    "{\"expertise\": text}", member->string);
	}
	if (field_string(escalate, "escalate", "expertise", FIELD_REQUIRED,
	    &req->escalate_expertise, err) != 0)
		return err->status;
	if (text_blank(req->escalate_expertise))
		return error_set(err, EXIT_DATA, "escalate.expertise",
		    "must name the expertise needed");
	req->escalate = true;
	return 0;
}

/* Parses one request line strictly; -1 (and a bad_request) when malformed. */
static int
parse_line(const char *text, size_t len, struct batch_line *line)
{
	const cJSON *member, *item, *acknowledge = NULL, *judgments = NULL;
	struct decision_request *req = &line->request;
	const char *decision = NULL;
	struct error err;
	size_t i;

	error_clear(&err);
	/* Only its first LINE_MAX_BYTES + 1 bytes were kept (batch_input). */
	if (len > LINE_MAX_BYTES) {
		error_set(&err, EXIT_DATA, NULL, "the line is over 1 MiB");
		return bad_request(line, &err);
	}
	/* One result per input line (SPEC 8): a blank one is malformed too. */
	if (text_json_blank(text, len)) {
		error_set(&err, EXIT_DATA, NULL, "a blank line is not a request");
		return bad_request(line, &err);
	}
	line->json = json_parse_strict(text, len, NULL, &err);
	if (line->json == NULL)
		return bad_request(line, &err);
	if (!cJSON_IsObject(line->json)) {
		error_set(&err, EXIT_DATA, NULL, "a request must be an object");
		return bad_request(line, &err);
	}
	member = json_member(line->json, "action_id");
	if (cJSON_IsString(member))
		line->action_id = member->valuestring;
	cJSON_ArrayForEach(member, line->json) {
		for (i = 0; known_keys[i] != NULL; i++) {
			if (strcmp(member->string, known_keys[i]) == 0)
				break;
		}
		if (known_keys[i] == NULL) {
			error_set(&err, EXIT_DATA, member->string,
			    "unknown field");
			return bad_request(line, &err);
		}
	}
	if (field_id(line->json, "", "action_id", FIELD_REQUIRED,
	    &req->action_id, &err) != 0 ||
	    field_choice(line->json, "", "decision", FIELD_REQUIRED, decisions,
	    &decision, &err) != 0 ||
	    field_string(line->json, "", "reason", FIELD_OPTIONAL, &req->reason,
	    &err) != 0 ||
	    field_array(line->json, "", "acknowledge", FIELD_OPTIONAL,
	    &acknowledge, &err) != 0 ||
	    field_id(line->json, "", "reassign_to", FIELD_OPTIONAL,
	    &req->reassign_to, &err) != 0 ||
	    parse_escalate(line->json, req, &err) != 0 ||
	    field_object(line->json, "", "po_judgments", FIELD_OPTIONAL,
	    &judgments, &err) != 0 ||
	    field_choice(line->json, "", "blocked_on", FIELD_OPTIONAL,
	    blocked_on_values, &req->blocked_on, &err) != 0 ||
	    field_string(line->json, "", "expect_sha256", FIELD_OPTIONAL,
	    &req->expect_sha256, &err) != 0)
		return bad_request(line, &err);
	if (req->expect_sha256 != NULL && !text_is_sha256(req->expect_sha256)) {
		error_set(&err, EXIT_DATA, "expect_sha256", "must be 64 "
		    "hexadecimal digits (packet_sha256 of list --json or check)");
		return bad_request(line, &err);
	}
	req->decision = strcmp(decision, "approve") == 0 ? DECISION_APPROVE :
	    strcmp(decision, "judge") == 0 ? DECISION_JUDGE : DECISION_REJECT;
	cJSON_ArrayForEach(item, acknowledge) {
		if (cJSON_IsString(item) &&
		    strcmp(item->valuestring, "high_stakes") == 0)
			req->ack_high_stakes = true;
		else if (cJSON_IsString(item) &&
		    strcmp(item->valuestring, "divergence") == 0)
			req->ack_divergence = true;
		else {
			error_set(&err, EXIT_DATA, "acknowledge", "must hold only "
			    "\"high_stakes\" and \"divergence\"");
			return bad_request(line, &err);
		}
	}
	cJSON_ArrayForEach(item, judgments) {
		if (!cJSON_IsString(item) || (strcmp(item->valuestring, "met") !=
		    0 && strcmp(item->valuestring, "unmet") != 0)) {
			error_set(&err, EXIT_DATA, "po_judgments", "%s must be "
			    "\"met\" or \"unmet\"", item->string);
			/* The field is the criterion's: po_judgments.AC-3. */
			snprintf(err.field, sizeof err.field, "po_judgments.%s",
			    item->string);
			return bad_request(line, &err);
		}
	}
	req->po_judgments = judgments;
	/* A judgment decides nothing: nothing to acknowledge or route. */
	if (req->decision == DECISION_JUDGE && (acknowledge != NULL ||
	    req->reassign_to != NULL || req->escalate ||
	    req->blocked_on != NULL)) {
		error_set(&err, EXIT_DATA, acknowledge != NULL ? "acknowledge" :
		    req->blocked_on != NULL ? "blocked_on" :
		    req->escalate ? "escalate" : "reassign_to",
		    "does not belong to a judgment");
		return bad_request(line, &err);
	}
	if (req->decision == DECISION_APPROVE &&
	    (req->reassign_to != NULL || req->escalate)) {
		error_set(&err, EXIT_DATA, NULL, "reassign_to and escalate "
		    "belong to a rejection");
		return bad_request(line, &err);
	}
	if (req->reassign_to != NULL && req->escalate) {
		error_set(&err, EXIT_DATA, NULL, "a rejection either reassigns "
		    "or escalates, not both");
		return bad_request(line, &err);
	}
	/* A held change goes back to nobody: it waits for a standard. */
	if (req->blocked_on != NULL && (req->decision == DECISION_APPROVE ||
	    req->reassign_to != NULL || req->escalate)) {
		error_set(&err, EXIT_DATA, "blocked_on", "belongs to a "
		    "rejection with no other routing");
		return bad_request(line, &err);
	}
	return 0;
}

static void
add_partial(cJSON *result, const struct decision_outcome *outcome)
{
	cJSON *quorum;

	cJSON_AddStringToObject(result, "approval_id", outcome->approval_id);
	if ((quorum = cJSON_AddObjectToObject(result, "quorum")) == NULL)
		return;
	cJSON_AddNumberToObject(quorum, "needed", outcome->quorum_needed);
	cJSON_AddNumberToObject(quorum, "have", outcome->quorum_have);
}

static const char *
recorded_status(const struct decision_outcome *outcome)
{
	return outcome->partial ? "partial" : outcome->judged ? "judged" :
	    "recorded";
}

static void
print_result(FILE *out, const struct batch_line *line, bool recorded)
{
	cJSON *result = cJSON_CreateObject();
	char *text;

	if (result == NULL)
		return;
	cJSON_AddNumberToObject(result, "line", (double)line->number);
	if (line->action_id != NULL)
		cJSON_AddStringToObject(result, "action_id", line->action_id);
	else
		cJSON_AddNullToObject(result, "action_id");
	cJSON_AddStringToObject(result, "status", !recorded ? "refused" :
	    recorded_status(&line->outcome));
	if (recorded && !line->outcome.partial && !line->outcome.judged)
		cJSON_AddStringToObject(result, "decision_id",
		    line->outcome.decision_id);
	else
		cJSON_AddNullToObject(result, "decision_id");
	/* SPEC 14: an approval short of its quorum, and how far it is. */
	if (recorded && line->outcome.partial)
		add_partial(result, &line->outcome);
	/* SPEC 2.3 (v3): a judgment, which decides nothing. */
	if (recorded && line->outcome.judged)
		cJSON_AddStringToObject(result, "judgment_id",
		    line->outcome.judgment_id);
	if (recorded) {
		cJSON_AddNullToObject(result, "code");
		cJSON_AddNullToObject(result, "message");
	} else {
		cJSON_AddStringToObject(result, "code", line->code);
		cJSON_AddStringToObject(result, "message", line->message);
	}
	text = json_print(result);
	if (text != NULL && out != NULL)
		fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(result);
}

/* Decides one parsed line; returns an exit_code only on a storage error. */
static int
decide_line(struct store *store, const struct operator_identity *op,
    bool atomic, struct batch_line *line, struct error *err)
{
	int rc;

	/*
	 * A unique prefix names its action (SPEC 7), and the result names
	 * the whole id decided; an ambiguous one decides nothing.
	 */
	rc = store_prefetch_decision(store, line->request.action_id, err);
	if (rc == 0)
		rc = store_resolve_action_id(store, line->request.action_id,
		    &line->resolved_id, err);
	if (rc == EXIT_USAGE) {
		bad_request(line, err);
		error_clear(err);
		return 0;
	}
	if (rc == 0) {
		line->request.action_id = line->resolved_id;
		line->action_id = line->resolved_id;
		rc = decision_record(store, &line->request, op, DECISION_NOW,
		    atomic, &line->outcome, err);
	}
	if (rc != 0) {
		line->code = "storage_error";
		snprintf(line->message, sizeof line->message, "%s",
		    err->message);
		return rc;
	}
	if (!line->outcome.recorded) {
		line->code = line->outcome.code;
		snprintf(line->message, sizeof line->message, "%s",
		    line->outcome.message);
	}
	return 0;
}

static void
line_free(struct batch_line *line)
{
	cJSON_Delete(line->json);
	free(line->resolved_id);
	memset(line, 0, sizeof *line);
}

/*
 * A line's result under --atomic as it stands before the batch commits,
 * spooled to a temporary file: kept in memory, a batch of a million
 * lines would hold a million results.
 */
struct spooled {
	size_t number;
	size_t id_length;		/* SIZE_MAX: the line named no action */
	size_t code_length;		/* 0: recorded, if the batch commits */
	size_t message_length;
	char decision_id[sizeof ((struct decision_outcome *)0)->decision_id];
	/* SPEC 14: an approval short of its quorum. */
	bool partial;
	char approval_id[sizeof ((struct decision_outcome *)0)->approval_id];
	int quorum_needed;
	int quorum_have;
	/* SPEC 2.3 (v3): a judgment. */
	bool judged;
	char judgment_id[sizeof ((struct decision_outcome *)0)->judgment_id];
};

static int
spool_line(FILE *spool, const struct batch_line *line)
{
	struct spooled head;

	memset(&head, 0, sizeof head);
	head.number = line->number;
	head.id_length = line->action_id != NULL ? strlen(line->action_id) :
	    SIZE_MAX;
	head.code_length = line->code != NULL ? strlen(line->code) : 0;
	head.message_length = line->code != NULL ? strlen(line->message) : 0;
	memcpy(head.decision_id, line->outcome.decision_id,
	    sizeof head.decision_id);
	head.partial = line->outcome.partial;
	memcpy(head.approval_id, line->outcome.approval_id,
	    sizeof head.approval_id);
	head.quorum_needed = line->outcome.quorum_needed;
	head.quorum_have = line->outcome.quorum_have;
	head.judged = line->outcome.judged;
	memcpy(head.judgment_id, line->outcome.judgment_id,
	    sizeof head.judgment_id);
	if (fwrite(&head, sizeof head, 1, spool) != 1 ||
	    (line->action_id != NULL && fwrite(line->action_id, 1,
	    head.id_length, spool) != head.id_length) ||
	    fwrite(line->code != NULL ? line->code : "", 1, head.code_length,
	    spool) != head.code_length ||
	    fwrite(line->message, 1, head.message_length, spool) !=
	    head.message_length)
		return -1;
	return 0;
}

/* Reads a spooled line back; *id and *code are the caller's to free. */
static int
unspool_line(FILE *spool, struct batch_line *line, char **id, char **code)
{
	struct spooled head;

	memset(line, 0, sizeof *line);
	*id = *code = NULL;
	if (fread(&head, sizeof head, 1, spool) != 1 ||
	    head.message_length >= sizeof line->message ||
	    (head.id_length != SIZE_MAX &&
	    (*id = calloc(1, head.id_length + 1)) == NULL) ||
	    (*code = calloc(1, head.code_length + 1)) == NULL ||
	    (*id != NULL && fread(*id, 1, head.id_length, spool) !=
	    head.id_length) ||
	    fread(*code, 1, head.code_length, spool) != head.code_length ||
	    fread(line->message, 1, head.message_length, spool) !=
	    head.message_length)
		return -1;
	line->number = head.number;
	line->action_id = *id;
	line->code = head.code_length > 0 ? *code : NULL;
	memcpy(line->outcome.decision_id, head.decision_id,
	    sizeof head.decision_id);
	line->outcome.partial = head.partial;
	memcpy(line->outcome.approval_id, head.approval_id,
	    sizeof head.approval_id);
	line->outcome.quorum_needed = head.quorum_needed;
	line->outcome.quorum_have = head.quorum_have;
	line->outcome.judged = head.judged;
	memcpy(line->outcome.judgment_id, head.judgment_id,
	    sizeof head.judgment_id);
	return 0;
}

/*
 * --atomic holds the write lock from its first decision to its commit.
 * Read from a pipe or a terminal, its input could keep it held for as long
 * as the writer pleases, stopping every other officer's decisions and
 * leaving its own decisions' times long before their commit.  Such input
 * is read whole into a temporary file first, before the lock is taken.
 * *copy is NULL when in is a regular file and can be read as it is.
 */
static int
read_input_first(FILE *in, const char *name, FILE **copy, struct error *err)
{
	char buf[65536];
	struct stat st;
	size_t n, copied = 0;

	*copy = NULL;
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	if ((*copy = tmpfile()) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "cannot create a "
		    "temporary file for the input: %s", strerror(errno));
	errno = 0;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		if ((copied += n) > ATOMIC_INPUT_MAX)
			return error_set(err, EXIT_DATA, NULL, "%s: an --atomic "
			    "batch read from a pipe or a terminal is held in a "
			    "temporary file of at most 64 MiB before anything is "
			    "decided; give the batch as a file instead", name);
		if (fwrite(buf, 1, n, *copy) != n)
			break;
	}
	if (ferror(in))
		return error_set(err, EXIT_DATA, NULL, _("cannot read %s: %s"),
		    name, strerror(errno != 0 ? errno : EIO));
	if (ferror(*copy) || fflush(*copy) != 0 ||
	    fseek(*copy, 0, SEEK_SET) != 0)
		return error_set(err, EXIT_STORAGE, NULL, "cannot keep the "
		    "input in a temporary file: %s", strerror(errno));
	return 0;
}

/*
 * An action decided by an earlier line of this --atomic batch is refused
 * as already decided, with who and when: a decision that the refusal
 * itself then keeps from being recorded.  Say which line instead.
 */
static void
name_earlier_line(struct batch_line *line, char **decided, size_t count)
{
	size_t i;

	if (line->code == NULL || strcmp(line->code, "already_decided") != 0 ||
	    line->action_id == NULL)
		return;
	for (i = 0; i < count; i++) {
		if (decided[i] != NULL && strcmp(decided[i],
		    line->action_id) == 0) {
			snprintf(line->message, sizeof line->message,
			    "already decided on line %zu of this batch", i + 1);
			return;
		}
	}
}

/*
 * An --atomic batch as it runs: its input, every line's result spooled
 * until the commit, and which action each line decided.
 */
struct atomic_batch {
	const char *name;
	FILE *copy;			/* piped input read whole, or NULL */
	struct batch_input reader;
	bool reading;			/* reader is open */
	FILE *spool;
	char **decided;			/* by line; NULL: decided nothing */
	size_t decided_count;
	size_t count;			/* lines read */
	size_t failed_line;		/* the first refused, or 0 */
};

/* Reading: the input (a pipe's read whole first) and the spool. */
static int
atomic_open(struct atomic_batch *b, FILE *in, const char *name,
    struct error *err)
{
	int rc;

	memset(b, 0, sizeof *b);
	b->name = name;
	if ((rc = read_input_first(in, name, &b->copy, err)) != 0)
		return rc;
	if ((rc = batch_input_open(&b->reader, b->copy != NULL ? b->copy : in,
	    name, LINE_MAX_BYTES, err)) != 0)
		return rc;
	b->reading = true;
	if ((b->spool = tmpfile()) == NULL)
		return error_set(err, EXIT_STORAGE, NULL,
		    "cannot create a temporary file for the results: %s",
		    strerror(errno));
	return 0;
}

static void
atomic_close(struct atomic_batch *b)
{
	size_t i;

	if (b->reading)
		batch_input_close(&b->reader);
	b->reading = false;
	if (b->spool != NULL)
		fclose(b->spool);
	if (b->copy != NULL)
		fclose(b->copy);
	for (i = 0; i < b->decided_count; i++)
		free(b->decided[i]);
	free(b->decided);
	memset(b, 0, sizeof *b);
}

/*
 * Deciding and spooling: one line, inside the batch's transaction; its
 * result goes to the spool, since a later refusal turns an earlier
 * "recorded" into nothing.
 */
static int
atomic_line(struct atomic_batch *b, struct store *store,
    const struct operator_identity *op, const char *text, size_t len,
    struct error *err)
{
	struct batch_line line;
	char **grown;
	int rc = 0;

	memset(&line, 0, sizeof line);
	line.number = ++b->count;
	if (parse_line(text, len, &line) == 0)
		rc = decide_line(store, op, true, &line, err);
	name_earlier_line(&line, b->decided, b->decided_count);
	/* Which action each line decided, by line number. */
	if ((grown = realloc(b->decided, (b->decided_count + 1) *
	    sizeof *b->decided)) == NULL && rc == 0)
		rc = error_set(err, EXIT_STORAGE, NULL, "out of memory");
	if (grown != NULL) {
		b->decided = grown;
		b->decided[b->decided_count++] = line.code == NULL &&
		    line.action_id != NULL ? strdup(line.action_id) : NULL;
	}
	if (line.code != NULL && b->failed_line == 0)
		b->failed_line = line.number;
	if (spool_line(b->spool, &line) != 0 && rc == 0)
		rc = error_set(err, EXIT_STORAGE, NULL, "cannot spool "
		    "the results to a temporary file");
	if (rc == 0 && ftello(b->spool) > (off_t)ATOMIC_RESULTS_MAX)
		rc = error_set(err, EXIT_DATA, NULL, "%s: the results "
		    "of an --atomic batch are held until its commit, in "
		    "at most 256 MiB; this one has more lines than that "
		    "holds (%zu so far): split it", b->name, line.number);
	line_free(&line);
	return rc;
}

/*
 * The commit, when every line was recorded and rc says nothing failed,
 * else the rollback of every line.  Every result is on disk before
 * anything is committed.  Returns rc, or the error that ended it.
 */
static int
atomic_settle(struct atomic_batch *b, struct store *store, int rc,
    struct error *err)
{
	struct audit_head head;

	if (rc == 0 && (fflush(b->spool) != 0 || ferror(b->spool) ||
	    fseek(b->spool, 0, SEEK_SET) != 0))
		rc = error_set(err, EXIT_STORAGE, NULL, "cannot spool the "
		    "results to a temporary file");
	if (rc == 0 && b->failed_line == 0 && (rc = store_audit_head(store,
	    &head, err)) == 0 && (rc = store_commit(store, err)) == 0)
		announce_head(store, &head);
	else
		store_rollback(store);
	if (rc != 0)
		fseek(b->spool, 0, SEEK_SET);
	return rc;
}

/*
 * Reporting: every line's result, read back from the spool, as the
 * settled batch makes it (rc: the error that ended it, or 0).
 */
static int
atomic_report(struct atomic_batch *b, FILE *out, int rc, struct error *err)
{
	bool recorded = rc == 0 && b->failed_line == 0;
	struct batch_line line;
	char *id, *code;
	size_t i;

	for (i = 0; i < b->count; i++) {
		if (unspool_line(b->spool, &line, &id, &code) != 0) {
			free(id);
			free(code);
			if (rc == 0)
				rc = error_set(err, EXIT_STORAGE, NULL,
				    recorded ? "the batch was recorded, but "
				    "its results cannot be read back (see "
				    "audit export)" : "cannot read the results "
				    "back");
			break;
		}
		if (!recorded && line.code == NULL) {
			line.code = "not_recorded";
			if (rc != 0)
				snprintf(line.message, sizeof line.message,
				    "nothing was recorded: %s", err->message);
			else
				snprintf(line.message, sizeof line.message,
				    "nothing was recorded (--atomic): line %zu "
				    "was refused", b->failed_line);
		}
		print_result(out, &line, recorded);
		free(id);
		free(code);
	}
	return rc;
}

/*
 * --atomic: every line in one transaction, recorded all or none; results
 * wait until the end.
 */
static int
run_atomic(struct store *store, FILE *in, const char *name, FILE *out,
    const struct operator_identity *op, struct error *err)
{
	struct atomic_batch b;
	const char *text;
	size_t len, failed_line;
	int rc;

	if ((rc = atomic_open(&b, in, name, err)) != 0 ||
	    (rc = store_begin(store, err)) != 0) {
		atomic_close(&b);
		return rc;
	}
	while ((rc = batch_input_next(&b.reader, &text, &len, err)) == 0 &&
	    text != NULL && (rc = atomic_line(&b, store, op, text, len,
	    err)) == 0)
		continue;
	batch_input_close(&b.reader);
	b.reading = false;
	rc = atomic_settle(&b, store, rc, err);
	rc = atomic_report(&b, out, rc, err);
	failed_line = b.failed_line;
	atomic_close(&b);
	/*
	 * The outcome was settled at the commit: one flush for all lines.
	 * Output lost to a full disk is an error even so, though what was
	 * committed stays committed.
	 */
	if (rc == 0 && out != NULL)
		rc = stdout_finish(err);
	if (rc != 0)
		return rc;
	return failed_line == 0 ? EXIT_OK : EXIT_REFUSED;
}

/*
 * Group commit (SPEC 8): the lines already at hand share one commit, each
 * still decided on its own in a savepoint, so a refused line rolls back
 * nothing but itself.  No result is written before the commit that makes
 * it durable, and the group is committed, and its results written, as
 * soon as the input has no complete line ready: a writer waiting for an
 * answer before it sends the next line gets it at once, and the write
 * lock is never held while this process waits for input.
 */
#define GROUP_MAX_LINES 512

struct group {
	struct batch_line lines[GROUP_MAX_LINES];
	size_t count;
	bool open;			/* a transaction is open */
};

/*
 * Keeps what a line's result needs once the line's request is freed: its
 * action id is copied, since the request owned it.
 */
static void
group_keep(struct group *g, struct batch_line *line)
{
	struct batch_line *kept = &g->lines[g->count++];
	char *id = line->action_id != NULL ? strdup(line->action_id) : NULL;

	*kept = *line;
	kept->json = NULL;
	kept->resolved_id = id;
	kept->action_id = id;
	if (line->action_id != NULL && id == NULL && kept->code == NULL) {
		kept->code = "storage_error";
		snprintf(kept->message, sizeof kept->message, "out of memory");
	}
}

/*
 * Commits the group (or, after an error, rolls it back) and writes its
 * results in input order.  A line that was decided but not committed is
 * reported as not recorded: nothing of it stays.  Returns the first
 * error: the one that stopped the group, or a commit or output failure.
 */
static int
group_finish(struct store *store, struct group *g, FILE *out, int rc,
    struct error *err, int *status)
{
	struct audit_head head;
	size_t i;
	bool committed = false, recorded_any = false;

	for (i = 0; i < g->count; i++)
		recorded_any = recorded_any || g->lines[i].code == NULL;
	if (g->open) {
		if (rc == 0 && (rc = store_audit_head(store, &head, err)) == 0 &&
		    (rc = store_commit(store, err)) == 0) {
			committed = true;
			/* A group of refusals made no new head to announce. */
			if (recorded_any)
				announce_head(store, &head);
		} else
			store_rollback(store);
		g->open = false;
	}
	for (i = 0; i < g->count; i++) {
		struct batch_line *line = &g->lines[i];
		bool recorded = line->code == NULL && committed;

		if (line->code == NULL && !committed) {
			line->code = "storage_error";
			snprintf(line->message, sizeof line->message,
			    "not recorded: %s", err->message);
		}
		print_result(out, line, recorded);
		if (line->code != NULL)
			*status = EXIT_REFUSED;
		line_free(line);
	}
	g->count = 0;
	/*
	 * Recorded is final: a script reading along sees it now.  A result
	 * that cannot be written stops the batch, rather than decide on
	 * with no one told.
	 */
	if (rc == 0 && out != NULL)
		rc = stdout_finish(err);
	else if (out != NULL)
		fflush(out);
	return rc;
}

/*
 * Each line decided on its own and made durable before its result is
 * written.  A read error, a storage error or output that cannot be written
 * stops the batch: the lines committed before it stay recorded, and their
 * results were written.
 */
static int
run_each(struct store *store, FILE *in, const char *name, FILE *out,
    const struct operator_identity *op, struct error *err)
{
	struct batch_input reader;
	struct batch_line line;
	struct group *g;
	const char *text;
	size_t number = 0, len;
	int rc, status = EXIT_OK;

	if ((g = calloc(1, sizeof *g)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	if ((rc = batch_input_open(&reader, in, name, LINE_MAX_BYTES,
	    err)) != 0) {
		free(g);
		return rc;
	}
	for (;;) {
		/* Never wait for input with a commit owed to a reader. */
		if (g->count > 0 && (g->count == GROUP_MAX_LINES ||
		    !batch_input_ready(&reader)) &&
		    (rc = group_finish(store, g, out, 0, err, &status)) != 0)
			break;
		if ((rc = batch_input_next(&reader, &text, &len, err)) != 0 ||
		    text == NULL)
			break;
		memset(&line, 0, sizeof line);
		line.number = ++number;
		if (!g->open && (rc = store_begin(store, err)) == 0)
			g->open = true;
		if (rc == 0 && parse_line(text, len, &line) == 0)
			rc = decide_line(store, op, true, &line, err);
		if (rc != 0 && line.code == NULL) {
			line.code = "storage_error";
			snprintf(line.message, sizeof line.message, "%s",
			    err->message);
		}
		group_keep(g, &line);
		line_free(&line);
		if (rc != 0)
			break;	/* storage failed: later lines would fail too */
	}
	/* The lines at hand: committed when nothing failed, else undone. */
	if (g->count > 0 || g->open) {
		int finished = group_finish(store, g, out, rc, err, &status);

		if (rc == 0)
			rc = finished;
	}
	batch_input_close(&reader);
	free(g);
	return rc != 0 ? rc : status;
}

int
cmd_batch(const struct invocation *inv)
{
	struct operator_identity op;
	struct store *store;
	struct error err;
	/* L10N: where a batch is read from when no file is named */
	const char *name = _("the standard input");
	FILE *in = stdin;
	int rc;

	error_clear(&err);
	if (inv->operand_count == 1 && strcmp(inv->operands[0], "-") != 0) {
		name = inv->operands[0];
		if ((in = fopen(name, "r")) == NULL) {
			/* report_error() sanitizes the name. */
			error_set(&err, EXIT_DATA, NULL, _("cannot read %s: %s"),
			    name, strerror(errno));
			report_error(&err);
			return EXIT_DATA;
		}
	}
	if ((rc = open_store(inv, STORE_EXISTING, &store, &err)) != 0) {
		report_error(&err);
		if (in != stdin)
			fclose(in);
		return rc;
	}
	operator_current(&op);
	rc = inv->atomic ? run_atomic(store, in, name, stdout, &op, &err) :
	    run_each(store, in, name, stdout, &op, &err);
	if (rc != EXIT_OK && rc != EXIT_REFUSED)
		report_error(&err);
	store_close(store);
	if (in != stdin)
		fclose(in);
	return rc;
}

int
batch_file(struct store *store, const char *path, FILE *out,
    struct error *err)
{
	struct operator_identity op;
	FILE *in = fopen(path, "r");
	int rc;

	if (in == NULL)
		return error_set(err, EXIT_DATA, NULL, _("cannot read %s: %s"),
		    path, strerror(errno));
	operator_current(&op);
	rc = run_each(store, in, path, out, &op, err);
	fclose(in);
	return rc;
}

int
batch_parse_request(const char *text, size_t len, char *message, size_t size)
{
	struct batch_line line;
	int rc;

	memset(&line, 0, sizeof line);
	rc = parse_line(text, len, &line);
	if (rc != 0 && message != NULL)
		snprintf(message, size, "%s", line.message);
	line_free(&line);
	return rc;
}
