/*
 * countersign batch [FILE] [--atomic] (SPEC 8): one decision per JSON line,
 * one JSON result line per input line, in order.  Never touches a terminal.
 * Here the lines are run, one by one in groups or --atomic; a line itself,
 * parsed, decided and answered, is batch_line.c's.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch_input.h"
#include "batch_line.h"
#include "commands.h"
#include "decision.h"
#include "exit_codes.h"
#include "i18n.h"

/*
 * --atomic keeps a piped input, and every line's result, in temporary
 * files until the commit: unbounded, a pipe filled /tmp at 480 MB a
 * second.  Beyond these the batch is refused, nothing recorded.
 */
#define ATOMIC_INPUT_MAX (64UL << 20)
#define ATOMIC_RESULTS_MAX (256UL << 20)

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

/* Adds the bytes written to *spooled: ftello() is a system call a line. */
static int
spool_line(FILE *spool, const struct batch_line *line, uint64_t *spooled)
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
	*spooled += sizeof head + (line->action_id != NULL ? head.id_length :
	    0) + head.code_length + head.message_length;
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
	uint64_t spooled;		/* bytes in the spool */
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
	if (batch_line_parse(text, len, &line) == 0)
		rc = batch_line_decide(store, op, true, &line, err);
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
	if (spool_line(b->spool, &line, &b->spooled) != 0 && rc == 0)
		rc = error_set(err, EXIT_STORAGE, NULL, "cannot spool "
		    "the results to a temporary file");
	if (rc == 0 && b->spooled > ATOMIC_RESULTS_MAX)
		rc = error_set(err, EXIT_DATA, NULL, "%s: the results "
		    "of an --atomic batch are held until its commit, in "
		    "at most 256 MiB; this one has more lines than that "
		    "holds (%zu so far): split it", b->name, line.number);
	batch_line_free(&line);
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
		batch_line_print(out, &line, recorded);
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
	    (rc = store_begin_batch(store, err)) != 0) {
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
		batch_line_print(out, line, recorded);
		if (line->code != NULL)
			*status = EXIT_REFUSED;
		batch_line_free(line);
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
		if (!g->open && (rc = store_begin_batch(store, err)) == 0)
			g->open = true;
		if (rc == 0 && batch_line_parse(text, len, &line) == 0)
			rc = batch_line_decide(store, op, true, &line, err);
		if (rc != 0 && line.code == NULL) {
			line.code = "storage_error";
			snprintf(line.message, sizeof line.message, "%s",
			    err->message);
		}
		group_keep(g, &line);
		batch_line_free(&line);
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
