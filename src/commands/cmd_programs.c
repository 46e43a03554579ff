/*
 * countersign status ID, wait ID [--timeout SECONDS], events [--after SEQ]
 * [--follow] in local mode (SPEC 12): the service's methods for programs
 * on a database this process opens, printing what the methods answer.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_strict.h"
#include "programs.h"
#include "sanitize.h"
#include "timestamp.h"
#include "xmalloc.h"

/* How often a local wait looks at an SQLite file for other writers. */
#define LOOK_MS 200
/* wait without --timeout: the longest the service allows too. */
#define WAIT_DEFAULT_S (WAIT_TIMEOUT_MAX_MS / 1000)

static long long
monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Prints one JSON value as a line, through the one printer. */
static int
print_line(const cJSON *value)
{
	char *text = json_print(value);

	if (text == NULL) {
		fprintf(stderr, _("countersign: out of memory\n"));
		return EXIT_STORAGE;
	}
	printf("%s\n", text);
	free(text);
	return EXIT_OK;
}

/* A refusal as every command says one; its exit status. */
static int
report_refusal(struct program_error *perr)
{
	char *safe = xsanitize(perr->message);
	int rc = strcmp(perr->code, "storage") == 0 ? EXIT_STORAGE :
	    strcmp(perr->code, "ambiguous_id") == 0 ? EXIT_USAGE : EXIT_REFUSED;
	const cJSON *match;

	fprintf(stderr, "countersign: %s (%s)\n", safe, perr->code);
	free(safe);
	cJSON_ArrayForEach(match, perr->matches) {
		safe = xsanitize(match->valuestring);
		fprintf(stderr, "countersign:   %s\n", safe);
		free(safe);
	}
	program_error_free(perr);
	return rc;
}

/* The store and the action the one operand names: 0, or an exit status. */
static int
open_action(const struct invocation *inv, const char *command,
    struct store **store, char **action_id)
{
	struct program_error perr;
	struct error err;
	int rc;

	*store = NULL;
	*action_id = NULL;
	if (inv->operand_count != 1) {
		/* L10N: %s is the command word (status or wait) */
		fprintf(stderr, _("countersign: %s needs one ACTION_ID\n"),
		    command);
		return EXIT_USAGE;
	}
	error_clear(&err);
	if ((rc = open_store(inv, STORE_EXISTING, store, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	if (program_resolve(*store, inv->operands[0], action_id, &perr) !=
	    0) {
		store_close(*store);
		*store = NULL;
		return report_refusal(&perr);
	}
	return EXIT_OK;
}

int
cmd_status(const struct invocation *inv)
{
	struct program_error perr;
	struct store *store;
	struct error err;
	char *action_id;
	long long expires;
	cJSON *status;
	int rc;

	if ((rc = open_action(inv, "status", &store, &action_id)) != 0)
		return rc;
	if (program_status(store, action_id, timestamp_now(), &status,
	    &expires, &perr) != 0)
		rc = report_refusal(&perr);
	else {
		rc = print_line(status);
		cJSON_Delete(status);
	}
	free(action_id);
	store_close(store);
	error_clear(&err);
	return rc != EXIT_OK ? rc : stdout_finish(&err) == 0 ? EXIT_OK :
	    (report_error(&err), EXIT_STORAGE);
}

/*
 * Until another writer commits or ms pass: PostgreSQL's NOTIFY on the
 * store's socket, else (SQLite) a look at data_version every LOOK_MS.
 */
static int
await_change(struct store *store, long long ms, struct error *err)
{
	int fd = store_watch_fd(store);
	long long until = monotonic_ms() + ms, left;
	bool changed = false;

	while (!changed && (left = until - monotonic_ms()) > 0) {
		struct pollfd p = { fd, POLLIN, 0 };

		if (poll(fd >= 0 ? &p : NULL, fd >= 0 ? 1 : 0, (int)(fd >= 0 ?
		    left : left < LOOK_MS ? left : LOOK_MS)) < 0 &&
		    errno != EINTR)
			return error_set(err, EXIT_STORAGE, NULL, "poll: %s",
			    strerror(errno));
		if (store_watch_changed(store, &changed, err) != 0)
			return err->status;
	}
	return 0;
}

int
cmd_wait(const struct invocation *inv)
{
	struct program_error perr;
	struct store *store;
	struct error err;
	char *action_id;
	long long timeout_s = inv->timeout_s >= 0 ? inv->timeout_s :
	    WAIT_DEFAULT_S, deadline, expires, now, next;
	cJSON *status = NULL;
	const char *state;
	int rc;

	if ((rc = open_action(inv, "wait", &store, &action_id)) != 0)
		return rc;
	error_clear(&err);
	deadline = monotonic_ms() + timeout_s * 1000;
	if (store_watch_start(store, &err) != 0) {
		report_error(&err);
		rc = EXIT_STORAGE;
		goto done;
	}
	for (;;) {
		cJSON_Delete(status);
		if (program_status(store, action_id, timestamp_now(), &status,
		    &expires, &perr) != 0) {
			status = NULL;
			rc = report_refusal(&perr);
			goto done;
		}
		state = program_state(status);
		now = monotonic_ms();
		if (strcmp(state, "pending") != 0 || now >= deadline)
			break;
		next = deadline - now;
		if (expires >= 0 && expires - timestamp_now() < next)
			next = expires - timestamp_now() + 1;
		if (await_change(store, next > 0 ? next : 1, &err) != 0) {
			report_error(&err);
			rc = EXIT_STORAGE;
			goto done;
		}
	}
	if (strcmp(state, "pending") == 0)
		cJSON_AddBoolToObject(status, "timed_out", true);
	if ((rc = print_line(status)) == EXIT_OK)
		rc = strcmp(state, "approved") == 0 ? EXIT_OK :
		    strcmp(state, "pending") == 0 ? EXIT_TIMED_OUT :
		    EXIT_REFUSED;
done:
	cJSON_Delete(status);
	free(action_id);
	store_close(store);
	if (stdout_finish(&err) != 0) {
		report_error(&err);
		return EXIT_STORAGE;
	}
	return rc;
}

struct events_print {
	long long last;
	int rc;
};

static int
print_event(void *ctx, long long seq, const char *record_json,
    const char *hash)
{
	struct events_print *ep = ctx;
	cJSON *params = program_event(seq, hash, record_json);

	ep->rc = params != NULL ? print_line(params) : EXIT_STORAGE;
	cJSON_Delete(params);
	ep->last = seq;
	return ep->rc;
}

int
cmd_events(const struct invocation *inv)
{
	struct events_print ep = { inv->after_seq, EXIT_OK };
	struct store *store;
	struct error err;
	long long before;
	int rc;

	error_clear(&err);
	if (inv->operand_count != 0) {
		fprintf(stderr, _("countersign: events takes no operand\n"));
		return EXIT_USAGE;
	}
	if ((rc = open_store(inv, STORE_EXISTING, &store, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	stdout_for_many_lines();
	if (inv->follow && store_watch_start(store, &err) != 0)
		goto failed;
	for (;;) {
		before = ep.last;
		if (store_audit_after(store, ep.last, 1000, print_event, &ep,
		    &err) != 0 && ep.rc == EXIT_OK)
			goto failed;
		if (ep.rc != EXIT_OK)
			break;
		if (ep.last != before)
			continue;
		if (!inv->follow)
			break;
		/* Caught up: what is printed is read before waiting again. */
		if (fflush(stdout) != 0 || await_change(store, 60000, &err) !=
		    0)
			break;
	}
	store_close(store);
	if (stdout_finish(&err) != 0 || err.status != 0) {
		report_error(&err);
		return EXIT_STORAGE;
	}
	return ep.rc;
failed:
	report_error(&err);
	store_close(store);
	return EXIT_STORAGE;
}
