/*
 * What a whole message starts: a request checked against the command
 * table and the peer's role, then answered in the loop (the methods for
 * programs, serve_programs.c) or run in a child (serve_request.c); the
 * child's stdout and stderr relayed to the client as "output" messages,
 * and its exit status answered once both pipes end.  While the review
 * screens run, the client's messages are only the signals it forwards.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "exit_codes.h"
#include "service.h"
#include "utf8.h"

#include "serve_internal.h"

/* Signals passed on to a request's child (the review screens). */
static const struct { const char *name; int signo; } forwarded[] = {
	{ "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP },
	{ "WINCH", SIGWINCH } };

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
bool
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
void
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
void
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
void
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
