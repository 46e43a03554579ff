/*
 * A connection's bytes (countersign-protocol(7)): the answers and errors
 * queued for the client, its input read and cut into whole messages (at
 * most RPC_MESSAGE_MAX bytes each), the descriptors passed along with it,
 * and what the client has not read yet written out.  The loop that polls
 * the connections is serve.c; what a message starts is serve_dispatch.c.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "exit_codes.h"
#include "json_writer.h"
#include "service.h"
#include "utf8.h"
#include "xmalloc.h"

#include "serve_internal.h"

static ssize_t receive(struct conn *, char *, size_t);

/*
 * Queues one message (cJSON, consumed) and its newline for the client.
 * A feed catching up keeps its buffer from ever draining, so what the
 * client has taken is dropped from the front once it is half the buffer,
 * and the buffer grows by doubling: a feed of n records costs O(n) copies
 * and holds what is unread, not everything it ever sent.
 */
void
conn_send(struct conn *c, cJSON *message)
{
	char *text = json_message(message);
	size_t len, need;
	char *grown;

	cJSON_Delete(message);
	if (text == NULL || c->fd < 0) {
		free(text);
		return;
	}
	len = strlen(text);
	if (c->out_sent > 0 && c->out_sent >= c->out_len / 2) {
		memmove(c->out, c->out + c->out_sent, c->out_len - c->out_sent);
		c->out_len -= c->out_sent;
		c->out_sent = 0;
	}
	need = c->out_len + len + 1;
	if (need > c->out_cap) {
		size_t cap = c->out_cap < 4096 ? 4096 : c->out_cap;

		while (cap < need)
			cap *= 2;
		if ((grown = realloc(c->out, cap)) == NULL) {
			free(text);
			c->closing = true;
			return;
		}
		c->out = grown;
		c->out_cap = cap;
	}
	if (c->out_len == 0)
		c->out_since_ms = now_ms();
	memcpy(c->out + c->out_len, text, len);
	c->out[c->out_len + len] = '\n';
	c->out_len = need;
	c->out_queued += len + 1;
	free(text);
}

cJSON *
message_new(const cJSON *id)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(m, "jsonrpc", "2.0");
	if (id != NULL)
		cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, true));
	return m;
}

/*
 * Issue 37: a refused request is logged as an allowed one is, who, what
 * and why (the answer's code and message, controls escaped: a method's
 * name is the client's bytes).  At most REFUSALS_LOGGED a second, the
 * rest counted into the next line, so that a client refused in a loop
 * cannot flood the log.
 */
#define REFUSALS_LOGGED 20
static void
log_refusal(const struct conn *c, const char *reason, const char *message)
{
	static long long second;
	static unsigned long logged, suppressed;
	long long now = now_ms() / 1000;
	char *shown;

	if (now != second) {
		second = now;
		logged = 0;
	}
	if (logged >= REFUSALS_LOGGED) {
		suppressed++;
		return;
	}
	logged++;
	shown = xsanitize(message);
	if (suppressed > 0)
		fprintf(stderr, "countersign serve: uid %lu: refused (%s): %s "
		    "(and %lu refusals before it not logged)\n",
		    (unsigned long)c->uid, reason, shown, suppressed);
	else
		fprintf(stderr, "countersign serve: uid %lu: refused (%s): %s\n",
		    (unsigned long)c->uid, reason, shown);
	suppressed = 0;
	free(shown);
}

/*
 * An error answer: reason is the word a script tests (forbidden, ...),
 * exit_code what the client exits with.  A NULL id answers a message
 * whose id could not be read.
 */
void
conn_error(struct conn *c, const cJSON *id, int code, const char *reason,
    int exit_code, const char *fmt, ...)
{
	cJSON *m = message_new(NULL), *error, *data;
	char message[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	/* Logins and groups are the system's bytes: the answer stays JSON. */
	rpc_utf8_repair(message);
	cJSON_AddItemToObject(m, "id", id != NULL ? cJSON_Duplicate(id, true) :
	    cJSON_CreateNull());
	error = cJSON_AddObjectToObject(m, "error");
	cJSON_AddNumberToObject(error, "code", code);
	cJSON_AddStringToObject(error, "message", message);
	data = cJSON_AddObjectToObject(error, "data");
	/* SPEC 12: the gate's code is data.code; reason is its v2 name. */
	cJSON_AddStringToObject(data, "code", reason);
	cJSON_AddStringToObject(data, "reason", reason);
	cJSON_AddNumberToObject(data, "exit_code", exit_code);
	conn_send(c, m);
	log_refusal(c, reason, message);
}

void
close_passed(struct conn *c)
{
	while (c->passed_count > 0)
		close(c->passed[--c->passed_count]);
}

void
conn_free(struct service *sv, struct conn *c)
{
	programs_conn_free(sv, c);
	close_passed(c);
	if (c->fd >= 0)
		close(c->fd);
	if (c->spool >= 0)
		close(c->spool);
	free(c->in);
	free(c->out);
	cJSON_Delete(c->request_id);
	free(c);
}

/* The client is gone (or dropped): a running child still finishes. */
void
conn_hang_up(struct conn *c)
{
	/* The review screens have no one left to show: they end. */
	if (c->child != 0 && c->review)
		kill(c->child, SIGHUP);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->out);
	c->out = NULL;
	c->out_len = c->out_sent = c->out_cap = 0;
	free(c->in);
	c->in = NULL;
	c->in_len = c->in_cap = 0;
}

/*
 * The connection's last answer is queued: what the client still sends is
 * read and dropped until it closes, and the service shuts its side for
 * writing once the answer is out, so that a client that wrote before
 * reading gets the answer and an end, never a reset that loses it
 * (countersign-protocol(7)).
 */
static void
conn_drain(struct conn *c)
{
	spool_reset(c);
	c->discarding = true;
	c->discarded = c->in_len;
	free(c->in);
	c->in = NULL;
	c->in_len = c->in_cap = 0;
}

/* A line over RPC_MESSAGE_MAX: too_large, and the connection drains. */
static void
too_large(struct conn *c)
{
	conn_error(c, NULL, RPC_INVALID_REQUEST, "too_large", EXIT_STORAGE,
	    "a message is at most %lu bytes", RPC_MESSAGE_MAX);
	fprintf(stderr, "countersign serve: uid %lu: a message over %lu "
	    "bytes: too_large\n", (unsigned long)c->uid, RPC_MESSAGE_MAX);
	conn_drain(c);
}

/* What a draining client sends, read and dropped, up to its end. */
static void
discard_client(struct conn *c)
{
	char buf[65536];
	ssize_t n = receive(c, buf, sizeof buf);

	close_passed(c);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n < 0) {
		conn_hang_up(c);
		return;
	}
	c->discarded += (unsigned long long)n;
	if (n == 0) {
		c->discarding = false;
		c->closing = true;
	} else if (c->discarded > DISCARD_MAX) {
		fprintf(stderr, "countersign serve: uid %lu: over %llu MiB "
		    "after the last answer: dropped\n", (unsigned long)c->uid,
		    DISCARD_MAX >> 20);
		conn_hang_up(c);
	}
}

/* Whole messages in c->in, while no request runs; the rest waits. */
void
handle_input(struct service *sv, struct conn *c)
{
	char *nl;
	size_t used;

	while (c->child != 0 && c->review && c->in_len > 0 &&
	    (nl = memchr(c->in, '\n', c->in_len)) != NULL) {
		used = (size_t)(nl - c->in) + 1;
		handle_review_message(c, c->in, used - 1);
		memmove(c->in, c->in + used, c->in_len - used);
		c->in_len -= used;
	}
	/* Each answer waits for the client to read the last ones. */
	while (c->child == 0 && !c->closing && !c->discarding &&
	    !serve_stopping() && c->in_len > 0 &&
	    c->out_len - c->out_sent < OUTPUT_HIGH) {
		nl = memchr(c->in, '\n', c->in_len);
		if (nl == NULL && c->in_len <= RPC_MESSAGE_MAX)
			return;
		if (nl == NULL || (size_t)(nl - c->in) > RPC_MESSAGE_MAX) {
			too_large(c);
			return;
		}
		used = (size_t)(nl - c->in) + 1;
		if (!handle_message(sv, c, c->in, used - 1)) {
			conn_drain(c);
			return;
		}
		memmove(c->in, c->in + used, c->in_len - used);
		c->in_len -= used;
	}
	if (c->in_len == 0) {
		/* An idle connection holds no buffer. */
		free(c->in);
		c->in = NULL;
		c->in_cap = 0;
	}
}

/* read(2), keeping up to 4 descriptors passed along (the terminal). */
static ssize_t
receive(struct conn *c, char *buf, size_t size)
{
	union {
		struct cmsghdr align;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} control;
	struct iovec iov = { buf, size };
	struct msghdr mh;
	struct cmsghdr *cm;
	ssize_t n;
	size_t i, count;
	int fd;

	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = control.space;
	mh.msg_controllen = sizeof control.space;
	n = recvmsg(c->fd, &mh, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return n;
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		count = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < count; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
			if (c->passed_count < 4)
				c->passed[c->passed_count++] = fd;
			else
				close(fd);
		}
	}
	return n;
}

void
read_client(struct service *sv, struct conn *c)
{
	size_t want;
	ssize_t n;
	char *grown;

	if (c->discarding) {
		discard_client(c);
		return;
	}
	if (c->in_cap - c->in_len < 4096 && c->in_cap < RPC_MESSAGE_MAX + 1) {
		want = c->in_cap == 0 ? 8192 : c->in_cap * 2;
		if (want > RPC_MESSAGE_MAX + 1)
			want = RPC_MESSAGE_MAX + 1;
		if ((grown = realloc(c->in, want)) == NULL) {
			conn_hang_up(c);
			return;
		}
		c->in = grown;
		c->in_cap = want;
	}
	if (c->in_len == c->in_cap)
		return;		/* full: waits for the running request */
	n = receive(c, c->in + c->in_len, c->in_cap - c->in_len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n < 0) {
		conn_hang_up(c);
		return;
	}
	if (n == 0) {
		/* Done sending: what is running still gets its answer. */
		c->closing = true;
		return;
	}
	c->in_len += (size_t)n;
	c->active_ms = now_ms();
	handle_input(sv, c);
}

void
write_client(struct conn *c)
{
	ssize_t n = write(c->fd, c->out + c->out_sent, c->out_len -
	    c->out_sent);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n < 0) {
		conn_hang_up(c);
		return;
	}
	c->out_sent += (size_t)n;
	c->out_written += (unsigned long long)n;
	c->out_since_ms = c->active_ms = now_ms();
	if (c->out_sent == c->out_len) {
		free(c->out);
		c->out = NULL;
		c->out_len = c->out_sent = c->out_cap = 0;
		/* The last answer is out: the client reads it, then an end. */
		if (c->discarding)
			shutdown(c->fd, SHUT_WR);
	}
}
