/*
 * What one account, with a role or without, may hold of the service
 * (issue 35, point 2; countersign-protocol(7), LIMITS): connection slots,
 * with some kept for officers; upload spools, counted per account and in
 * all; the buffers of the loop; and idle time.  Each limit, when hit, is
 * said on the service's stderr, at most once a second for each kind.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "exit_codes.h"
#include "service.h"
#include "serve_internal.h"

/* The kinds of limit, each logged on its own (a flood of one hides none). */
enum limit_kind {
	LIMIT_SLOTS, LIMIT_ACCOUNT_SLOTS, LIMIT_NO_ROLE, LIMIT_SPOOL_ROLE,
	LIMIT_SPOOL_ACCOUNT, LIMIT_SPOOL_TOTAL, LIMIT_OUTPUT, LIMIT_BUFFERS,
	LIMIT_IDLE, LIMIT_KINDS
};

/*
 * One line on stderr, unless this kind was logged in the last second:
 * then counted, and the count said with the next line of the kind.
 */
static void __attribute__((format(printf, 2, 3)))
limit_log(enum limit_kind kind, const char *fmt, ...)
{
	static long long last_ms[LIMIT_KINDS];
	static unsigned long suppressed[LIMIT_KINDS];
	long long now = now_ms();
	char line[512];
	va_list ap;

	if (last_ms[kind] != 0 && now - last_ms[kind] < 1000) {
		suppressed[kind]++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (suppressed[kind] > 0)
		fprintf(stderr, "countersign serve: limit: %s (and %lu more "
		    "like it)\n", line, suppressed[kind]);
	else
		fprintf(stderr, "countersign serve: limit: %s\n", line);
	last_ms[kind] = now;
	suppressed[kind] = 0;
}

/* The limits of serve's options, or their defaults. */
void
limits_init(struct service *sv)
{
	const struct invocation *inv = sv->inv;

	sv->idle_ms = (inv->idle_timeout_s > 0 ? inv->idle_timeout_s :
	    IDLE_TIMEOUT_S) * 1000;
	sv->spool_account_max = (unsigned long long)(inv->spool_limit_mib > 0 ?
	    inv->spool_limit_mib : SPOOL_LIMIT_MIB) << 20;
	sv->spool_total_max = sv->spool_account_max * SPOOL_TOTAL_ACCOUNTS;
}

/* The caller's standing now, from its groups: what it may hold. */
static enum conn_class
class_of(const struct service *sv, uid_t uid, const char **login)
{
	const struct invocation *inv = sv->inv;
	struct passwd *pw = getpwuid(uid);

	*login = pw != NULL ? pw->pw_name : "?";
	if (pw == NULL)
		return CLASS_NONE;
	if (inv->officers != NULL && in_group(pw, inv->officers))
		return CLASS_OFFICER;
	if ((inv->importers != NULL && in_group(pw, inv->importers)) ||
	    (inv->readers != NULL && in_group(pw, inv->readers)))
		return CLASS_ROLE;
	return CLASS_NONE;
}

/*
 * A new connection's share: one for an account without a role, 16 for
 * any account, and the last OFFICER_SLOTS of the table for officers.
 */
int
limits_admit(struct service *sv, struct conn *c)
{
	const char *login;
	int slot, total = 0, mine = 0, others = 0;

	c->class = class_of(sv, c->uid, &login);
	c->active_ms = now_ms();
	for (slot = 0; slot < MAX_CONNECTIONS; slot++) {
		const struct conn *o = sv->conns[slot];

		if (o == NULL)
			continue;
		total++;
		mine += o->uid == c->uid;
		others += o->class != CLASS_OFFICER;
	}
	if (c->class == CLASS_NONE && mine >= 1) {
		/* Told why on the one it has; nothing more to hold. */
		limit_log(LIMIT_NO_ROLE, "uid %lu (%.64s) has no role: one "
		    "connection at most", (unsigned long)c->uid, login);
		conn_error(c, NULL, RPC_FORBIDDEN, "forbidden", EXIT_REFUSED,
		    "forbidden: uid %lu has no role here, and one connection "
		    "at most", (unsigned long)c->uid);
		return -1;
	}
	if (mine >= MAX_PER_UID) {
		limit_log(LIMIT_ACCOUNT_SLOTS, "uid %lu (%.64s) holds %d "
		    "connections", (unsigned long)c->uid, login, mine);
		goto busy;
	}
	if (total >= MAX_CONNECTIONS || (c->class != CLASS_OFFICER &&
	    others >= MAX_CONNECTIONS - OFFICER_SLOTS)) {
		limit_log(LIMIT_SLOTS, "%d connections, %d of them not "
		    "officers': uid %lu (%.64s) refused", total, others,
		    (unsigned long)c->uid, login);
		goto busy;
	}
	return 0;
busy:
	conn_error(c, NULL, RPC_BUSY, "busy", EXIT_STORAGE, "the service has "
	    "too many connections (at most %d, %d for officers only, %d per "
	    "account)", MAX_CONNECTIONS, OFFICER_SLOTS, MAX_PER_UID);
	return -1;
}

/* Bytes spooled for uid's connections, or for everyone's (uid -1). */
static unsigned long long
spooled(const struct service *sv, long long uid)
{
	unsigned long long sum = 0;
	int slot;

	for (slot = 0; slot < MAX_CONNECTIONS; slot++)
		if (sv->conns[slot] != NULL && (uid < 0 ||
		    sv->conns[slot]->uid == (uid_t)uid))
			sum += sv->conns[slot]->spool_size;
	return sum;
}

/*
 * Only officers (batch input) and importers (import files) have a use
 * for uploads: anyone else is refused before a byte is spooled.
 */
static bool
may_upload(const struct service *sv, const struct conn *c)
{
	const struct invocation *inv = sv->inv;
	struct passwd *pw = getpwuid(c->uid);

	return pw != NULL && ((inv->officers != NULL && in_group(pw,
	    inv->officers)) || (inv->importers != NULL && in_group(pw,
	    inv->importers)));
}

/* Appends an upload's bytes to the connection's spool file. */
int
spool_append(struct service *sv, struct conn *c, const cJSON *params,
    const cJSON *id)
{
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(params, "data");
	unsigned long long request_max = UPLOAD_MAX < sv->spool_account_max ?
	    UPLOAD_MAX : sv->spool_account_max, total_max;
	unsigned char *bytes = NULL;
	size_t len;
	char dir[] = "/tmp";
	const char *tmp = getenv("TMPDIR");
	int rc = -1;

	if (c->spool < 0 && !may_upload(sv, c)) {
		limit_log(LIMIT_SPOOL_ROLE, "uid %lu: an upload without the "
		    "officer or importer role, refused", (unsigned long)c->uid);
		conn_error(c, id, RPC_FORBIDDEN, "forbidden", EXIT_REFUSED,
		    "forbidden: uploads need the officer or importer role "
		    "(serve --officers, --importers)");
		goto cleanup;
	}
	if (!cJSON_IsString(data) || rpc_unbase64(data->valuestring, &bytes,
	    &len) != 0) {
		conn_error(c, id, RPC_INVALID_PARAMS, "invalid_params",
		    EXIT_USAGE, "upload: params.data must be base64");
		goto cleanup;
	}
	if (c->spool_size + len > request_max) {
		conn_error(c, id, RPC_TOO_LARGE, "too_large", EXIT_DATA,
		    "a request's uploads are at most %llu MiB",
		    request_max >> 20);
		goto cleanup;
	}
	if (spooled(sv, c->uid) + len > sv->spool_account_max) {
		limit_log(LIMIT_SPOOL_ACCOUNT, "uid %lu: uploads over %llu MiB "
		    "for one account, refused", (unsigned long)c->uid,
		    sv->spool_account_max >> 20);
		conn_error(c, id, RPC_TOO_LARGE, "too_large", EXIT_DATA,
		    "one account's uploads waiting at once are at most %llu "
		    "MiB", sv->spool_account_max >> 20);
		goto cleanup;
	}
	/* The last quarter is the officers' (their batch input). */
	total_max = c->class == CLASS_OFFICER ? sv->spool_total_max :
	    sv->spool_total_max / 4 * 3;
	if (spooled(sv, -1) + len > total_max) {
		limit_log(LIMIT_SPOOL_TOTAL, "uploads over %llu MiB in all: "
		    "uid %lu refused", total_max >> 20, (unsigned long)c->uid);
		conn_error(c, id, RPC_BUSY, "busy", EXIT_STORAGE, "the service "
		    "holds too many uploads (at most %llu MiB): try again later",
		    total_max >> 20);
		goto cleanup;
	}
	/* An unnamed file: nothing is left behind, whatever ends us. */
	if (c->spool < 0 && (c->spool = open(tmp != NULL && *tmp == '/' ? tmp :
	    dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0) {
		conn_error(c, id, RPC_INTERNAL, "internal", EXIT_STORAGE,
		    "the service cannot hold the upload: %s", strerror(errno));
		goto cleanup;
	}
	if (rpc_write_all(c->spool, bytes, len) != 0) {
		conn_error(c, id, RPC_INTERNAL, "internal", EXIT_STORAGE,
		    "the service cannot hold the upload: %s", strerror(errno));
		goto cleanup;
	}
	c->spool_size += len;
	rc = 0;
cleanup:
	free(bytes);
	return rc;
}

/* The uploads are used or refused: the unnamed file goes. */
void
spool_reset(struct conn *c)
{
	if (c->spool >= 0)
		close(c->spool);
	c->spool = -1;
	c->spool_size = 0;
}

/* What the loop's buffers hold for everyone but officers, this pass. */
void
limits_pass(struct service *sv)
{
	int slot;

	sv->buffered = 0;
	for (slot = 0; slot < MAX_CONNECTIONS; slot++) {
		const struct conn *c = sv->conns[slot];

		/* What is held, not what is used: out grows by doubling. */
		if (c != NULL && c->class != CLASS_OFFICER)
			sv->buffered += c->in_cap + c->out_cap;
	}
}

/*
 * Whether the loop reads c's input, or (pipe) its child's output, now:
 * not while c's unsent output is over OUTPUT_HIGH (a client that reads
 * nothing sends nothing more), nor, for anyone but an officer, while
 * non-officers' buffers together are over BUFFER_BUDGET (its child's
 * output then only while its client has read all but 64 KiB).
 */
bool
limits_may_read(struct service *sv, struct conn *c, bool pipe)
{
	size_t unsent = c->out_len - c->out_sent;

	if (pipe && c->fd < 0)
		return true;	/* no one to show it: drained, dropped */
	if (unsent >= OUTPUT_HIGH) {
		if (!pipe && !c->over_output)
			limit_log(LIMIT_OUTPUT, "uid %lu: %zu bytes unread: "
			    "its input waits", (unsigned long)c->uid, unsent);
		c->over_output = c->over_output || !pipe;
		return false;
	}
	if (!pipe)
		c->over_output = false;
	if (c->class == CLASS_OFFICER || sv->buffered < BUFFER_BUDGET)
		return true;
	/*
	 * A child whose client keeps up goes on: it may hold the store's
	 * write lock (an import), which others' buffers must not keep.
	 */
	if (pipe && unsent < OUTPUT_UNDER_BUDGET)
		return true;
	limit_log(LIMIT_BUFFERS, "%llu bytes buffered for non-officers: "
	    "their input, and output their clients leave unread, wait",
	    sv->buffered);
	return false;
}

/*
 * A connection that did nothing for the idle timeout is closed, with its
 * spool: no request running, nothing to write, no wait or feed held.
 */
void
limits_sweep(struct service *sv, struct conn *c)
{
	if (c->fd < 0 || c->child != 0 || c->out_len > 0 ||
	    programs_conn_holds(c) || now_ms() - c->active_ms <= sv->idle_ms)
		return;
	limit_log(LIMIT_IDLE, "uid %lu: idle for %lld s%s: closed",
	    (unsigned long)c->uid, sv->idle_ms / 1000, c->spool_size > 0 ?
	    ", its uploads dropped" : "");
	conn_hang_up(c);
	spool_reset(c);
}
