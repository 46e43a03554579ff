/*
 * countersign serve (SPEC 10): the gate where officers cannot reach it.
 *
 * One process polls a Unix stream socket.  A message is read whole (at
 * most RPC_MESSAGE_MAX bytes) before anything happens; each request then
 * runs in a child process that calls the same command function as local
 * mode, with the operator the kernel names (SO_PEERCRED, mapped to a login
 * here) and this process's clock, and whose stdout and stderr come back to
 * the client as "output" messages.  A child finishes its request whatever
 * its client does; the store's write lock keeps one decision per action
 * across children, as it does across local processes.  This file is the
 * loop and the connections; what a request runs is serve_request.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "decision.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_writer.h"
#include "cmd_log.h"
#include "service.h"
#include "store.h"
#include "timestamp.h"
#include "utf8.h"
#include "xmalloc.h"

#include "serve_internal.h"

/* Signals passed on to a request's child (the review screens). */
static const struct { const char *name; int signo; } forwarded[] = {
	{ "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP },
	{ "WINCH", SIGWINCH } };

static volatile sig_atomic_t stopping;

static ssize_t receive(struct conn *, char *, size_t);

static void
on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Queues one message (cJSON, consumed) and its newline for the client. */
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
	need = c->out_len + len + 1;
	if ((grown = realloc(c->out, need)) == NULL) {
		free(text);
		c->closing = true;
		return;
	}
	if (c->out_len == 0)
		c->out_since_ms = now_ms();
	c->out = grown;
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

static void
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
	c->out_len = c->out_sent = 0;
	free(c->in);
	c->in = NULL;
	c->in_len = c->in_cap = 0;
}

/* Starts a request's child; its output then flows back through poll. */
static void
start_request(struct service *sv, struct conn *c,
    const struct command_entry *m, const cJSON *params, const cJSON *id,
    const struct passwd *pw)
{
	struct invocation inv;
	char why[256];
	int out[2] = { -1, -1 }, err[2] = { -1, -1 };
	pid_t pid;

	if (params_to_invocation(sv, m, params, c, &inv, why, sizeof why) !=
	    0) {
		free(inv.operands);
		conn_error(c, id, RPC_INVALID_PARAMS, "invalid_params",
		    EXIT_USAGE, "%s", why);
		spool_reset(c);
		return;
	}
	fflush(NULL);
	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 ||
	    (pid = fork()) < 0) {
		conn_error(c, id, RPC_INTERNAL, "internal", EXIT_STORAGE,
		    "the service cannot start the request: %s",
		    strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (out[i] >= 0)
				close(out[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		free(inv.operands);
		spool_reset(c);
		return;
	}
	if (pid == 0)
		serve_child(sv, c, m, params, &inv, pw, out[1], err[1]);
	close(out[1]);
	close(err[1]);
	close_passed(c);	/* the child has the terminal now */
	free(inv.operands);
	c->review = (m->method_flags & METHOD_TERMINAL) != 0;
	c->told_to_stop = false;
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	c->child = pid;
	c->pipes[0] = out[0];
	c->pipes[1] = err[0];
	c->request_id = cJSON_Duplicate(id, true);
	c->json_child = (m->method_flags & METHOD_PROGRAM) != 0;
	fprintf(stderr, "countersign serve: uid %lu (%s): %s\n",
	    (unsigned long)c->uid, pw->pw_name, m->method);
}

/* One whole message from the client; false when the connection ends. */
static bool
handle_message(struct service *sv, struct conn *c, const char *text,
    size_t len)
{
	const char *why;
	int code;
	cJSON *msg = rpc_parse_request(text, len, &code, &why);
	const cJSON *id, *method, *params;
	const struct command_entry *m;
	struct passwd *pw;

	if (msg == NULL) {
		conn_error(c, NULL, code, code == RPC_PARSE_ERROR ?
		    "parse_error" : "invalid_request", EXIT_STORAGE, "%s", why);
		return false;
	}
	id = cJSON_GetObjectItemCaseSensitive(msg, "id");
	method = cJSON_GetObjectItemCaseSensitive(msg, "method");
	params = cJSON_GetObjectItemCaseSensitive(msg, "params");
	if (strcmp(method->valuestring, "upload") == 0) {
		bool ok = spool_append(sv, c, params, id) == 0;

		cJSON_Delete(msg);
		return ok;
	}
	m = command_of_method(method->valuestring);
	if (id == NULL) {
		conn_error(c, NULL, RPC_INVALID_REQUEST, "invalid_request",
		    EXIT_STORAGE, "a request needs an id");
		cJSON_Delete(msg);
		return false;
	}
	if (m == NULL)
		conn_error(c, id, RPC_METHOD_NOT_FOUND, "method_not_found",
		    EXIT_USAGE, "no method '%.*s'", (int)utf8_prefix(
		    method->valuestring, 64), method->valuestring);
	else if (check_role(sv, c, id, m, pw = getpwuid(c->uid)) != 0)
		;
	else if (m->method_flags & METHOD_IN_LOOP)
		programs_call(sv, c, m, params, id);
	else
		start_request(sv, c, m, params, id, pw);
	if (c->child == 0) {
		spool_reset(c);
		close_passed(c);
	}
	cJSON_Delete(msg);
	return true;
}

/*
 * While the review screens run, the client sends only the signals its
 * terminal gave it (Ctrl-C, a resize), which the screens' process gets.
 */
static void
handle_review_message(struct conn *c, const char *text, size_t len)
{
	const char *why;
	int code;
	cJSON *msg = rpc_parse_request(text, len, &code, &why);
	const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(msg, "params"), "name");
	size_t i;

	if (cJSON_IsString(method) && strcmp(method->valuestring, "signal") ==
	    0 && cJSON_IsString(name))
		for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
			if (strcmp(forwarded[i].name, name->valuestring) == 0)
				kill(c->child, forwarded[i].signo);
	cJSON_Delete(msg);
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
static void
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
	while (c->child == 0 && !c->closing && !c->discarding && !stopping &&
	    c->in_len > 0 && c->out_len - c->out_sent < OUTPUT_HIGH) {
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

static void
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

static void
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
		c->out_len = c->out_sent = 0;
		/* The last answer is out: the client reads it, then an end. */
		if (c->discarding)
			shutdown(c->fd, SHUT_WR);
	}
}

/* An "output" message: bytes for the client's stdout (0) or stderr (1). */
static void
send_output(struct conn *c, int which, const char *buf, size_t len)
{
	cJSON *m, *params;
	char *data;

	if (c->fd < 0)
		return;		/* no one to tell: the request still ends */
	if ((data = rpc_base64(buf, len)) == NULL)
		return;
	m = message_new(NULL);
	cJSON_AddStringToObject(m, "method", "output");
	params = cJSON_AddObjectToObject(m, "params");
	cJSON_AddStringToObject(params, "stream", which == 0 ? "stdout" :
	    "stderr");
	cJSON_AddStringToObject(params, "data", data);
	free(data);
	conn_send(c, m);
}

/* A chunk of the child's stdout (which 0) or stderr (1) for the client. */
static void
read_child(struct conn *c, int which)
{
	char buf[RPC_CHUNK];
	ssize_t n = read(c->pipes[which], buf, sizeof buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(c->pipes[which]);
		c->pipes[which] = -1;
		return;
	}
	if (c->json_child)
		programs_child_output(c, which, buf, (size_t)n);
	else
		send_output(c, which, buf, (size_t)n);
}

/* Both pipes at end: the child has exited or is exiting; answer. */
static void
finish_request(struct service *sv, struct conn *c)
{
	int status = 0, code;
	cJSON *m, *result;

	while (waitpid(c->child, &status, 0) < 0 && errno == EINTR)
		;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_STORAGE;
	if (c->fd >= 0 && !WIFEXITED(status)) {
		/* Said as a command's error would be, on its stderr. */
		char line[128];

		snprintf(line, sizeof line, "countersign: the service's run of "
		    "the request ended by signal %d\n", WIFSIGNALED(status) ?
		    WTERMSIG(status) : 0);
		send_output(c, 1, line, strlen(line));
	}
	if (c->json_child)
		programs_child_done(c, c->request_id, code);
	else if (c->fd >= 0) {
		m = message_new(c->request_id);
		result = cJSON_AddObjectToObject(m, "result");
		cJSON_AddNumberToObject(result, "exit_code", code);
		/* The screens ended because the service stops: the client says so. */
		if (c->told_to_stop)
			cJSON_AddBoolToObject(result, "service_stopped", true);
		conn_send(c, m);
	}
	if (!WIFEXITED(status))
		fprintf(stderr, "countersign serve: a request of uid %lu ended "
		    "by signal %d\n", (unsigned long)c->uid,
		    WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	cJSON_Delete(c->request_id);
	c->request_id = NULL;
	c->child = 0;
	c->review = false;
	c->active_ms = now_ms();
	spool_reset(c);
	if (c->fd >= 0)
		handle_input(sv, c);	/* pipelined messages */
}

/*
 * A new client: authorised from its peer credentials before it may hold
 * anything (serve_limits.c), or told why not and closed.
 */
static bool
accept_client(struct service *sv)
{
	struct ucred cred;
	socklen_t len = sizeof cred;
	struct conn *c;
	int fd, slot;

	fd = accept4(sv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return false;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		close(fd);
		return true;
	}
	for (slot = 0; slot < MAX_CONNECTIONS && sv->conns[slot] != NULL;
	    slot++)
		;
	c = calloc(1, sizeof *c);
	if (c == NULL) {
		close(fd);
		return false;
	}
	c->fd = fd;
	c->uid = cred.uid;
	c->spool = -1;
	c->pipes[0] = c->pipes[1] = -1;
	c->passed_count = 0;
	if (limits_admit(sv, c) != 0 || slot == MAX_CONNECTIONS) {
		/* Told why, best effort, and closed. */
		if (c->out != NULL)
			(void)!write(fd, c->out, c->out_len);
		shutdown(fd, SHUT_WR);
		conn_free(sv, c);
		return true;
	}
	sv->conns[slot] = c;
	return true;
}

/* The socket, made afresh; a live service already on it is an error. */
static int
listen_on(const char *path)
{
	struct sockaddr_un addr;
	struct stat st;
	int fd, probe;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof addr.sun_path) {
		fprintf(stderr, "countersign: the socket path is too long\n");
		return -1;
	}
	strcpy(addr.sun_path, path);
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "countersign: %s exists and is not a "
			    "socket\n", path);
			return -1;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&addr,
		    sizeof addr) == 0) {
			close(probe);
			fprintf(stderr, "countersign: a service already "
			    "listens on %s\n", path);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
	    /* Anyone may connect: the roles are checked on every request. */
	    chmod(path, 0666) != 0 || listen(fd, 64) != 0) {
		fprintf(stderr, "countersign: cannot listen on %s: %s\n", path,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static bool
conn_busy(const struct conn *c)
{
	return c->child != 0 || (c->fd >= 0 && c->out_len > 0);
}

/* One pass: poll every socket and pipe once, then act on what is ready. */
static void
serve_once(struct service *sv, const sigset_t *unblocked)
{
	struct pollfd fds[2 + 3 * MAX_CONNECTIONS];
	struct conn *owner[2 + 3 * MAX_CONNECTIONS];
	int kind[2 + 3 * MAX_CONNECTIONS];	/* -1 socket, 0/1 a pipe */
	long tick_ms = programs_tick_ms(sv);
	struct timespec tick = { tick_ms / 1000, tick_ms % 1000 * 1000000 };
	nfds_t n = 0, i;
	int slot, open_conns = 0, watch = programs_watch_fd(sv);
	bool child_ended = false, accept_ready = false;

	for (slot = 0; slot < MAX_CONNECTIONS; slot++)
		open_conns += sv->conns[slot] != NULL;
	limits_pass(sv);
	if (sv->listen_fd >= 0 && open_conns < MAX_CONNECTIONS) {
		fds[n] = (struct pollfd){ sv->listen_fd, POLLIN, 0 };
		owner[n] = NULL;
		kind[n++] = -2;
	}
	if (watch >= 0) {
		/* Another writer's NOTIFY (SPEC 12): read in programs_tick. */
		fds[n] = (struct pollfd){ watch, POLLIN, 0 };
		owner[n] = NULL;
		kind[n++] = -3;
	}
	for (slot = 0; slot < MAX_CONNECTIONS; slot++) {
		struct conn *c = sv->conns[slot];

		if (c == NULL)
			continue;
		if (c->fd >= 0) {
			short ev = 0;

			if (!c->closing && c->in_len < RPC_MESSAGE_MAX + 1 &&
			    limits_may_read(sv, c, false))
				ev |= POLLIN;
			if (c->out_len > 0)
				ev |= POLLOUT;
			fds[n] = (struct pollfd){ c->fd, ev, 0 };
			owner[n] = c;
			kind[n++] = -1;
		}
		for (int p = 0; p < 2; p++) {
			if (c->pipes[p] < 0 || !limits_may_read(sv, c, true))
				continue;
			fds[n] = (struct pollfd){ c->pipes[p], POLLIN, 0 };
			owner[n] = c;
			kind[n++] = p;
		}
	}
	if (ppoll(fds, n, &tick, unblocked) < 0)
		return;		/* a signal: the caller looks at stopping */
	for (i = 0; i < n; i++) {
		struct conn *c = owner[i];

		if (fds[i].revents == 0)
			continue;
		if (kind[i] == -3)
			continue;
		if (kind[i] == -2)
			accept_ready = true;
		else if (kind[i] >= 0)
			read_child(c, kind[i]);
		else if (c->fd == fds[i].fd) {
			/* Closed both ways: no one left to answer. */
			if ((fds[i].revents & (POLLHUP | POLLERR)) &&
			    !(fds[i].revents & POLLIN)) {
				conn_hang_up(c);
				continue;
			}
			if (fds[i].revents & POLLOUT) {
				write_client(c);
				/* Read, not answered while its output was full. */
				if (c->fd >= 0 && c->child == 0 && c->in_len > 0)
					handle_input(sv, c);
			}
			if (c->fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP |
			    POLLERR)))
				read_client(sv, c);
		}
	}
	for (slot = 0; slot < MAX_CONNECTIONS; slot++) {
		struct conn *c = sv->conns[slot];

		if (c == NULL)
			continue;
		if (c->child != 0 && c->pipes[0] < 0 && c->pipes[1] < 0) {
			finish_request(sv, c);
			child_ended = true;
		}
		/* A client that reads nothing costs only its connection. */
		if (c->fd >= 0 && c->out_len > 0 && now_ms() - c->out_since_ms >
		    STALL_MS)
			conn_hang_up(c);
		limits_sweep(sv, c);
		if (c->child == 0 && (c->fd < 0 || (c->closing &&
		    c->out_len == 0) || (stopping && c->out_len == 0))) {
			conn_free(sv, c);
			sv->conns[slot] = NULL;
		}
	}
	/*
	 * After the hang-ups of this pass: a client that closed before the
	 * next one connected no longer counts against its account's share.
	 */
	/*
	 * Every waiting connection, up to a bound: a backlog full of an
	 * attacker's refused ones must not keep an officer's waiting.
	 */
	for (i = 0; accept_ready && i < ACCEPTS_PER_PASS; i++)
		if (!accept_client(sv))
			break;
	/* A child's commit, or another writer's, wakes waits and feeds. */
	programs_tick(sv, child_ended);
}

int
cmd_serve(const struct invocation *inv)
{
	struct service sv;
	struct error err;
	struct sigaction sa;
	sigset_t blocked, unblocked;
	int slot;
	bool busy;

	if (inv->socket == NULL || inv->operand_count != 0) {
		fprintf(stderr, _("countersign: serve needs --socket PATH\n"
		    "Usage: countersign serve --socket PATH [--db PATH] "
		    "[--officers GROUP] [--importers GROUP] "
		    "[--readers GROUP] [--checkpoint-file PATH] "
		    "[--idle-timeout SECONDS] [--spool-limit MIB] "
		    "[--signing-key FILE] [--log-name NAME] "
		    "[--trusted-key PUBFILE...]\n"));
		return EXIT_USAGE;
	}
	/* The keys of the signed log, before any client (SPEC 13). */
	error_clear(&err);
	if (log_serve_setup(inv, &err) != 0) {
		report_error(&err);
		return err.status;
	}
	memset(&sv, 0, sizeof sv);
	sv.inv = inv;
	sv.pid = getpid();
	limits_init(&sv);
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* The signals arrive only inside ppoll: no request is cut short. */
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGINT);
	sigprocmask(SIG_BLOCK, &blocked, &unblocked);
	if ((sv.listen_fd = listen_on(inv->socket)) < 0)
		return EXIT_STORAGE;
	fprintf(stderr, "countersign serve: listening on %s\n", inv->socket);
	/* From here on, what a client is told advises service-mode steps. */
	store_advise_served(inv->importers);
	for (;;) {
		/* The review screens are told to end; other requests finish. */
		for (slot = 0; stopping && slot < MAX_CONNECTIONS; slot++) {
			struct conn *c = sv.conns[slot];

			if (c != NULL && c->child != 0 && c->review &&
			    !c->told_to_stop) {
				kill(c->child, SIGTERM);
				c->told_to_stop = true;
			}
		}
		if (stopping && sv.listen_fd >= 0) {
			close(sv.listen_fd);
			sv.listen_fd = -1;
			unlink(inv->socket);
		}
		busy = false;
		for (slot = 0; slot < MAX_CONNECTIONS; slot++)
			busy = busy || (sv.conns[slot] != NULL &&
			    conn_busy(sv.conns[slot]));
		if (stopping && !busy)
			break;
		serve_once(&sv, &unblocked);
	}
	for (slot = 0; slot < MAX_CONNECTIONS; slot++)
		if (sv.conns[slot] != NULL)
			conn_free(&sv, sv.conns[slot]);
	programs_stop(&sv);
	fprintf(stderr, "countersign serve: stopped\n");
	return EXIT_OK;
}
