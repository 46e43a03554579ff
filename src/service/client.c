/*
 * --connect SOCKET: a command sent to the service (SPEC 10; the protocol is
 * countersign-protocol(7)).  The client
 * reads the files it names (the service never opens an officer's paths),
 * uploads their bytes, sends one request and writes what the service's
 * run of the command wrote, exiting with its status.  Nothing here names
 * the operator: the service asks the kernel who is connected.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "cmd_log.h"
#include "command_table.h"
#include "exit_codes.h"
#include "i18n.h"
#include "json_strict.h"
#include "json_writer.h"
#include "programs.h"
#include "sanitize.h"
#include "service.h"
#include "xmalloc.h"

/*
 * Signals the terminal gave the client while the review screens run.
 * They are blocked then but inside ppoll() (review_wait_mask): a signal
 * that came just before a plain read() began was passed on only with
 * the service's next message, and a review sends none until its end.
 */
static volatile sig_atomic_t pending_signals;
static bool review_signals_blocked;
static sigset_t review_wait_mask;
static const struct { int signo; const char *name; } forwarded[] = {
	{ SIGINT, "INT" }, { SIGTERM, "TERM" }, { SIGHUP, "HUP" },
	{ SIGWINCH, "WINCH" } };

static void
on_forwarded(int signo)
{
	size_t i;

	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (forwarded[i].signo == signo)
			pending_signals |= 1 << i;
}

struct client {
	int fd;
	cJSON *sizes;		/* import: each file's size, in order */
	cJSON *names;		/* import: each file's name */
	char *in;		/* the service's messages, a line at a time */
	size_t in_len, in_cap;
};

/* Prints "countersign: ..." with a reason from the system. */
static int
client_fail(int status, const char *what)
{
	/* L10N: %1$s what failed, %2$s the system's reason */
	fprintf(stderr, _("countersign: %s: %s\n"), what, strerror(errno));
	return status;
}

/* A JSON-RPC 2.0 message: a request (the one a connection sends) or not. */
static cJSON *
message(const char *method, bool request)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(m, "jsonrpc", "2.0");
	if (request)
		cJSON_AddNumberToObject(m, "id", 1);
	cJSON_AddStringToObject(m, "method", method);
	return m;
}

static int
send_message(struct client *cl, cJSON *m)
{
	char *text = json_message(m);
	int rc = -1;

	cJSON_Delete(m);
	if (text != NULL && rpc_send_all(cl->fd, text, strlen(text)) == 0 &&
	    rpc_send_all(cl->fd, "\n", 1) == 0)
		rc = 0;
	free(text);
	return rc;
}

/* Bytes for the request, in messages of at most RPC_CHUNK each. */
static int
upload(struct client *cl, const char *bytes, size_t len)
{
	size_t done = 0, n;
	cJSON *m;
	char *data;

	while (done < len) {
		n = len - done < RPC_CHUNK ? len - done : RPC_CHUNK;
		if ((data = rpc_base64(bytes + done, n)) == NULL)
			return -1;
		m = message("upload", false);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "params"),
		    "data", data);
		free(data);
		if (send_message(cl, m) != 0)
			return -1;
		done += n;
	}
	return 0;
}

/* import's step in service mode: the file goes up, named as typed. */
static int
upload_file(struct import_walk *walk, const char *path, const char *text,
    size_t len)
{
	struct client *cl = walk->ctx;

	if (upload(cl, text, len) != 0)
		return client_fail(EXIT_STORAGE, _("cannot send to the "
		    "service"));
	cJSON_AddItemToArray(cl->names, cJSON_CreateString(path));
	cJSON_AddItemToArray(cl->sizes, cJSON_CreateNumber((double)len));
	return 0;
}

/* batch: its input, FILE or stdin, read here and sent whole. */
static int
upload_batch_input(struct client *cl, const struct invocation *inv)
{
	char buf[RPC_CHUNK];
	size_t n;
	FILE *in = stdin;
	int rc = 0;

	if (inv->operand_count == 1 && strcmp(inv->operands[0], "-") != 0 &&
	    (in = fopen(inv->operands[0], "r")) == NULL) {
		char *safe = xsanitize(inv->operands[0]);

		fprintf(stderr, _("countersign: cannot read %s: %s\n"), safe,
		    strerror(errno));
		free(safe);
		return EXIT_DATA;
	}
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (upload(cl, buf, n) != 0)
			rc = client_fail(EXIT_STORAGE, _("cannot send to the "
			    "service"));
	if (rc == 0 && ferror(in))
		rc = client_fail(EXIT_DATA, _("cannot read the batch input"));
	if (in != stdin)
		fclose(in);
	return rc;
}

/* Passes on to the review screens' process what the terminal sent us. */
static void
send_signals(struct client *cl)
{
	size_t i;
	cJSON *m;

	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
		if (!(pending_signals & (1 << i)))
			continue;
		pending_signals &= ~(1 << i);
		m = message("signal", false);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "params"),
		    "name", forwarded[i].name);
		(void)send_message(cl, m);
	}
}

/* The next line from the service, NUL-terminated in cl->in; -1 at end. */
static int
read_line(struct client *cl, size_t *len)
{
	char *nl, *grown;
	ssize_t n;

	for (;;) {
		nl = cl->in_len > 0 ? memchr(cl->in, '\n', cl->in_len) : NULL;
		if (nl != NULL) {
			*nl = '\0';
			*len = (size_t)(nl - cl->in);
			return 0;
		}
		if (cl->in_len > RPC_MESSAGE_MAX)
			return -1;
		if (cl->in_cap - cl->in_len < 65536) {
			if ((grown = realloc(cl->in, cl->in_cap + 131072)) ==
			    NULL)
				return -1;
			cl->in = grown;
			cl->in_cap += 131072;
		}
		if (review_signals_blocked) {
			struct pollfd fd = { cl->fd, POLLIN, 0 };

			send_signals(cl);
			if (ppoll(&fd, 1, NULL, &review_wait_mask) < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
		}
		n = read(cl->fd, cl->in + cl->in_len, cl->in_cap - cl->in_len);
		if (n < 0 && errno == EINTR) {
			send_signals(cl);
			continue;
		}
		if (n <= 0)
			return -1;
		cl->in_len += (size_t)n;
	}
}

static void
drop_line(struct client *cl, size_t len)
{
	memmove(cl->in, cl->in + len + 1, cl->in_len - len - 1);
	cl->in_len -= len + 1;
}

/*
 * How the review screens' request ended: answered, answered because the
 * service stops, or with no answer at all (the service gone).
 */
enum review_end { REVIEW_ANSWERED, REVIEW_SERVICE_STOPPED, REVIEW_CUT_OFF };

/*
 * Writes the service's output; returns the exit status when answered.
 * With end, the review screens' request: how it ended is told there,
 * and a connection cut off is left to the caller to say.
 */
static int
await_answer(struct client *cl, enum review_end *end)
{
	const cJSON *params, *stream, *data, *result, *error, *code;
	unsigned char *bytes;
	size_t len, n;
	cJSON *m;
	int status = -1;

	while (status < 0) {
		if (read_line(cl, &len) != 0) {
			if (end != NULL) {
				*end = REVIEW_CUT_OFF;
				return EXIT_STORAGE;
			}
			fprintf(stderr, _("countersign: the service closed the "
			    "connection without an answer\n"));
			return EXIT_STORAGE;
		}
		m = cJSON_ParseWithLength(cl->in, len);
		drop_line(cl, len);
		params = cJSON_GetObjectItemCaseSensitive(m, "params");
		stream = cJSON_GetObjectItemCaseSensitive(params, "stream");
		data = cJSON_GetObjectItemCaseSensitive(params, "data");
		result = cJSON_GetObjectItemCaseSensitive(m, "result");
		error = cJSON_GetObjectItemCaseSensitive(m, "error");
		if (cJSON_IsString(stream) && cJSON_IsString(data) &&
		    rpc_unbase64(data->valuestring, &bytes, &n) == 0) {
			/* What the command wrote, as local mode writes it. */
			if (rpc_write_all(strcmp(stream->valuestring,
			    "stderr") == 0 ? STDERR_FILENO : STDOUT_FILENO,
			    bytes, n) != 0)
				status = client_fail(EXIT_STORAGE,
				    _("cannot write the output"));
			free(bytes);
		} else if ((code = cJSON_GetObjectItemCaseSensitive(result,
		    "exit_code")) != NULL && cJSON_IsNumber(code)) {
			status = code->valueint;
			if (end != NULL && cJSON_IsTrue(
			    cJSON_GetObjectItemCaseSensitive(result,
			    "service_stopped")))
				*end = REVIEW_SERVICE_STOPPED;
		} else if (cJSON_IsObject(error)) {
			const cJSON *message = cJSON_GetObjectItemCaseSensitive(
			    error, "message");
			char *safe = xsanitize(cJSON_IsString(message) ?
			    message->valuestring : "?");

			code = cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(error, "data"),
			    "exit_code");
			fprintf(stderr, "countersign: %s\n", safe);
			free(safe);
			status = cJSON_IsNumber(code) ? code->valueint :
			    EXIT_STORAGE;
		} else {
			fprintf(stderr, _("countersign: the service sent "
			    "what is not a JSON-RPC 2.0 message\n"));
			status = EXIT_STORAGE;
		}
		cJSON_Delete(m);
	}
	return status;
}

static int
connect_to(const char *path)
{
	struct sockaddr_un addr;
	int fd;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof addr.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) !=
	    0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/*
 * The locale the command's words are to be in (issue 37: LANG, LC_* and
 * LANGUAGE apply to every command through the service, as locally): the
 * names as setlocale() resolved them here, and LANGUAGE.
 */
static void
add_locale(cJSON *params)
{
	const char *language = getenv("LANGUAGE");

	cJSON_AddStringToObject(params, "ctype", setlocale(LC_CTYPE, NULL));
	cJSON_AddStringToObject(params, "messages",
	    setlocale(LC_MESSAGES, NULL));
	if (language != NULL)
		cJSON_AddStringToObject(params, "language", language);
}

/*
 * A service gone without an answer may leave its screens' process
 * drawing for a moment as it ends (a hangup): the terminal is ours again
 * when the pipe's end it holds closes, or after this long.
 */
#define SCREENS_RELEASE_MS 30000

static void
await_screens_end(int released_fd)
{
	struct pollfd fd = { released_fd, POLLIN, 0 };
	char byte;
	int rc;

	do
		rc = poll(&fd, 1, SCREENS_RELEASE_MS);
	while ((rc < 0 && errno == EINTR) || (rc > 0 &&
	    read(released_fd, &byte, 1) > 0));
}

/* What the end of the screens through the service was, said after them. */
static int
review_ended(enum review_end end, int status, int released_fd)
{
	if (end == REVIEW_SERVICE_STOPPED) {
		/* L10N: said after the review screens, when the service they
		   ran in was stopped (SIGTERM) */
		fprintf(stderr, _("countersign: the service stopped; the "
		    "review screens ended\n"));
		return EXIT_STORAGE;
	}
	if (end == REVIEW_CUT_OFF) {
		await_screens_end(released_fd);
		/* L10N: said after the review screens, when the connection
		   to their service ended with no answer (killed, crashed) */
		fprintf(stderr, _("countersign: the service stopped without "
		    "an answer (its connection closed); the review screens "
		    "ended\n"));
		return EXIT_STORAGE;
	}
	return status;
}

/*
 * The review screens run in the service, on this terminal: its three
 * descriptors go with the request (SCM_RIGHTS), and so do the names of
 * the terminal type and locale the screens need, and the write end of a
 * pipe that the screens' process holds until it ends.  The service never
 * learns who we are from this: it asks the kernel.
 */
static int
review_remote(struct client *cl, const struct invocation *inv)
{
	union {
		struct cmsghdr align;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} control;
	const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
	int fds[4] = { STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, -1 };
	int released[2];
	enum review_end end = REVIEW_ANSWERED;
	struct sigaction sa;
	sigset_t blocked;
	struct msghdr mh;
	struct iovec iov;
	struct cmsghdr *cm;
	char *text;
	cJSON *m, *params;
	ssize_t sent;
	size_t i;
	int rc;

	if (pipe2(released, O_CLOEXEC) != 0)
		return client_fail(EXIT_STORAGE, _("cannot send to the "
		    "service"));
	fds[3] = released[1];
	m = message("review", true);
	params = cJSON_AddObjectToObject(m, "params");
	if (term != NULL)
		cJSON_AddStringToObject(params, "term", term);
	add_locale(params);
	if (no_color != NULL && *no_color != '\0')
		cJSON_AddBoolToObject(params, "no_color", true);
	text = json_message(m);
	cJSON_Delete(m);
	if (text == NULL) {
		rc = EXIT_STORAGE;
		goto cleanup;
	}
	/* The newline is part of the one message the descriptors ride on. */
	iov.iov_len = strlen(text) + 1;
	text[iov.iov_len - 1] = '\n';
	iov.iov_base = text;
	memset(&mh, 0, sizeof mh);
	memset(&control, 0, sizeof control);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = control.space;
	mh.msg_controllen = sizeof control.space;
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof fds);
	memcpy(CMSG_DATA(cm), fds, sizeof fds);
	sent = sendmsg(cl->fd, &mh, MSG_NOSIGNAL);
	rc = sent >= 0 && (size_t)sent < iov.iov_len ? rpc_send_all(cl->fd,
	    text + sent, iov.iov_len - (size_t)sent) : sent < 0 ? -1 : 0;
	free(text);
	close(released[1]);	/* only the screens' copy keeps it open */
	released[1] = -1;
	if (rc != 0) {
		/* Refused at once (busy, forbidden): the answer says why. */
		(void)client_fail(EXIT_STORAGE, _("cannot send to the "
		    "service"));
		rc = await_answer(cl, NULL);
		goto cleanup;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_forwarded;	/* no SA_RESTART: ppoll() returns */
	sigemptyset(&blocked);
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
		sigaction(forwarded[i].signo, &sa, NULL);
		sigaddset(&blocked, forwarded[i].signo);
	}
	(void)inv;
	sigprocmask(SIG_BLOCK, &blocked, &review_wait_mask);
	review_signals_blocked = true;
	rc = await_answer(cl, &end);
	review_signals_blocked = false;
	sigprocmask(SIG_SETMASK, &review_wait_mask, NULL);
	rc = review_ended(end, rc, released[0]);
cleanup:
	close(released[0]);
	if (released[1] >= 0)
		close(released[1]);
	return rc;
}

/*
 * The request's params: the options the command was given, as the
 * command table maps them, the locale, and import's files as uploaded.
 */
static cJSON *
request_params(const struct command_entry *e, const struct invocation *inv,
    struct client *cl)
{
	cJSON *params = command_params(e, inv);

	add_locale(params);
	if (e->operands == OPERANDS_FILES) {
		cJSON_AddItemToObject(params, "operands", cl->names);
		cJSON_AddItemToObject(params, "sizes", cl->sizes);
		cl->names = cl->sizes = NULL;
	}
	return params;
}

/* One JSON value as a line on stdout, through the one printer. */
static int
print_json_line(const cJSON *value)
{
	char *text = json_print(value);
	int rc = EXIT_OK;

	if (text == NULL || printf("%s\n", text) < 0)
		rc = client_fail(EXIT_STORAGE, _("cannot write the output"));
	free(text);
	return rc;
}

/*
 * The next message from the service for a method for programs (SPEC 12),
 * parsed; NULL, said, when the connection ended.
 */
static cJSON *
next_message(struct client *cl)
{
	size_t len;
	cJSON *m;

	if (read_line(cl, &len) != 0) {
		fprintf(stderr, _("countersign: the service closed the "
		    "connection without an answer\n"));
		return NULL;
	}
	m = cJSON_ParseWithLength(cl->in, len);
	drop_line(cl, len);
	if (m == NULL)
		fprintf(stderr, _("countersign: the service sent what is not "
		    "a JSON-RPC 2.0 message\n"));
	return m;
}

/* A refusal as the service gave it: its message and code; exit status. */
static int
report_refusal(const cJSON *error)
{
	const cJSON *message = cJSON_GetObjectItemCaseSensitive(error,
	    "message");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(error, "data");
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(data, "code");
	const cJSON *exit_code = cJSON_GetObjectItemCaseSensitive(data,
	    "exit_code");
	const cJSON *match;
	char *safe = xsanitize(cJSON_IsString(message) ?
	    message->valuestring : "?");
	char *safe_code = xsanitize(cJSON_IsString(code) ? code->valuestring :
	    "?");

	fprintf(stderr, "countersign: %s (%s)\n", safe, safe_code);
	free(safe);
	free(safe_code);
	cJSON_ArrayForEach(match, cJSON_GetObjectItemCaseSensitive(data,
	    "matches")) {
		safe = xsanitize(cJSON_IsString(match) ? match->valuestring :
		    "?");
		fprintf(stderr, "countersign:   %s\n", safe);
		free(safe);
	}
	return cJSON_IsNumber(exit_code) ? exit_code->valueint : EXIT_STORAGE;
}

/*
 * Sends m (consumed) and waits for its answer, passing notifications
 * over: the answer, or NULL once said why not.
 */
static cJSON *
program_answer(struct client *cl, cJSON *m, const cJSON **result,
    const cJSON **error)
{
	cJSON *answer;

	if (send_message(cl, m) != 0) {
		(void)client_fail(EXIT_STORAGE, _("cannot send to the "
		    "service"));
		return NULL;
	}
	do {
		if ((answer = next_message(cl)) == NULL)
			return NULL;
		*result = cJSON_GetObjectItemCaseSensitive(answer, "result");
		*error = cJSON_GetObjectItemCaseSensitive(answer, "error");
		if (*result == NULL && *error == NULL)
			cJSON_Delete(answer);	/* a notification */
	} while (*result == NULL && *error == NULL);
	return answer;
}

/* The answer to request 1, its result printed: status and wait. */
static int
status_remote(struct client *cl, const struct command_entry *e,
    const struct invocation *inv)
{
	cJSON *m = message(e->method, true), *answer;
	const cJSON *result, *error;
	const char *state;
	int rc;

	cJSON_AddItemToObject(m, "params", command_params(e, inv));
	if ((answer = program_answer(cl, m, &result, &error)) == NULL)
		return EXIT_STORAGE;
	if (error != NULL)
		rc = report_refusal(error);
	else if ((rc = print_json_line(result)) == EXIT_OK &&
	    strcmp(e->method, "wait") == 0) {
		state = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(result,
		    "state")) ? cJSON_GetObjectItemCaseSensitive(result,
		    "state")->valuestring : "pending";
		rc = strcmp(state, "approved") == 0 ? EXIT_OK :
		    strcmp(state, "pending") == 0 ? EXIT_TIMED_OUT :
		    EXIT_REFUSED;
	}
	cJSON_Delete(answer);
	return rc;
}

/*
 * receipt, and audit checkpoint --size N (SPEC 12): the service's
 * receipt or checkpoint method, the note printed as local mode prints
 * it; receipt's -o FILE is written here, by the officer, never by the
 * service.
 */
static int
note_remote(struct client *cl, const struct command_entry *e,
    const struct invocation *inv)
{
	cJSON *m = message(e->method, true), *answer;
	const cJSON *result, *error, *text;
	struct invocation where = *inv;
	struct error err;
	int rc;

	cJSON_AddItemToObject(m, "params", command_params(e, inv));
	if ((e->remote & OPTION_BIT(OPT_OUTPUT)) == 0)
		where.output = NULL;	/* audit has no -o */
	if ((answer = program_answer(cl, m, &result, &error)) == NULL)
		return EXIT_STORAGE;
	text = cJSON_GetObjectItemCaseSensitive(result, e->method);
	error_clear(&err);
	if (error != NULL)
		rc = report_refusal(error);
	else if (!cJSON_IsString(text)) {
		fputs(_("countersign: the service's answer is not a signed "
		    "note\n"), stderr);
		rc = EXIT_STORAGE;
	} else if ((rc = note_output(text->valuestring, &where, &err)) != 0)
		report_error(&err);
	cJSON_Delete(answer);
	return rc;
}

/*
 * events: the notifications' params, one line each, until the head the
 * service named (or, with --follow, for good).  A feed the service
 * dropped (too much unread) goes on from where it said, on a new
 * connection, so no record is missed or printed twice.
 */
static int
events_remote(struct client *cl, const struct command_entry *e,
    const struct invocation *inv)
{
	struct invocation from = *inv;
	long long head = -1;
	const cJSON *params, *seq, *method;
	cJSON *m, *answer;
	int rc = EXIT_OK;

	from.given |= OPTION_BIT(OPT_AFTER);	/* where it has got to */
	for (;;) {
		m = message(e->method, true);
		cJSON_AddItemToObject(m, "params", command_params(e, &from));
		if (send_message(cl, m) != 0)
			return client_fail(EXIT_STORAGE, _("cannot send to the "
			    "service"));
		for (;;) {
			if ((answer = next_message(cl)) == NULL)
				return EXIT_STORAGE;
			method = cJSON_GetObjectItemCaseSensitive(answer,
			    "method");
			params = cJSON_GetObjectItemCaseSensitive(answer,
			    "params");
			if (cJSON_GetObjectItemCaseSensitive(answer, "error")) {
				rc = report_refusal(
				    cJSON_GetObjectItemCaseSensitive(answer,
				    "error"));
				cJSON_Delete(answer);
				return rc;
			}
			if ((seq = cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(answer, "result"),
			    "head_seq")) != NULL && head < 0)
				head = (long long)seq->valuedouble;
			else if (cJSON_IsString(method) && strcmp(
			    method->valuestring, "event") == 0) {
				seq = cJSON_GetObjectItemCaseSensitive(params,
				    "seq");
				from.after_seq = (long long)seq->valuedouble;
				if ((rc = print_json_line(params)) != EXIT_OK) {
					cJSON_Delete(answer);
					return rc;
				}
				if (inv->follow)
					fflush(stdout);
			} else if (cJSON_IsString(method) && strcmp(
			    method->valuestring, "events_dropped") == 0) {
				seq = cJSON_GetObjectItemCaseSensitive(params,
				    "resume_after_seq");
				from.after_seq = (long long)seq->valuedouble;
				cJSON_Delete(answer);
				break;
			}
			cJSON_Delete(answer);
			if (!inv->follow && head >= 0 && from.after_seq >= head)
				return EXIT_OK;
		}
		close(cl->fd);
		cl->in_len = 0;
		if ((cl->fd = connect_to(inv->connect)) < 0)
			return client_fail(EXIT_STORAGE, _("cannot connect to "
			    "the service"));
	}
}

int
client_run(const struct command_entry *e, const struct invocation *inv)
{
	struct client cl = { -1, NULL, NULL, NULL, 0, 0 };
	struct import_walk walk = { upload_file, NULL, NULL, &cl };
	int rc = EXIT_OK, walked = EXIT_OK;
	cJSON *m;

	/* Without a terminal: the message local mode gives, and exit 2. */
	if ((e->method_flags & METHOD_TERMINAL) && (!isatty(STDIN_FILENO) ||
	    !isatty(STDOUT_FILENO)))
		return review_run(inv);
	/* No file or not one action: its usage message, as local mode's. */
	if ((e->operands == OPERANDS_FILES && inv->operand_count == 0) ||
	    (e->operands == OPERANDS_ACTION_ID && inv->operand_count != 1))
		return e->run(inv);
	if ((cl.fd = connect_to(inv->connect)) < 0) {
		char *safe = xsanitize(inv->connect);

		/* L10N: %1$s the socket's path, %2$s the system's reason */
		fprintf(stderr, _("countersign: cannot connect to the service "
		    "at %s: %s\n"), safe, strerror(errno));
		free(safe);
		return EXIT_STORAGE;
	}
	cl.names = cJSON_CreateArray();
	cl.sizes = cJSON_CreateArray();
	if (e->method_flags & METHOD_TERMINAL) {
		rc = review_remote(&cl, inv);
		goto done;
	}
	/* (v3) SPEC 12: one JSON result, or the feed of events. */
	if (e->method_flags & METHOD_PROGRAM) {
		if (strcmp(e->method, "events") == 0)
			rc = events_remote(&cl, e, inv);
		else if (strcmp(e->method, "status") == 0 ||
		    strcmp(e->method, "wait") == 0)
			rc = status_remote(&cl, e, inv);
		else
			rc = note_remote(&cl, e, inv);
		goto done;
	}
	if (e->operands == OPERANDS_FILES)
		walked = import_walk_paths(&walk, inv->operands,
		    inv->operand_count);
	else if (e->operands == OPERANDS_STDIN)
		rc = upload_batch_input(&cl, inv);
	if (rc == EXIT_OK && walked != EXIT_STORAGE) {
		m = message(e->method, true);
		cJSON_AddItemToObject(m, "params", request_params(e, inv,
		    &cl));
		/* A service that refused us at once has said why: read it. */
		if (send_message(&cl, m) != 0)
			(void)client_fail(EXIT_STORAGE, _("cannot send to the "
			    "service"));
		rc = await_answer(&cl, NULL);
	} else if (rc == EXIT_STORAGE || walked == EXIT_STORAGE)
		/* The service may have said why it stopped reading. */
		(void)await_answer(&cl, NULL);
	/* As local import: storage over bad data over success. */
	if (walked != EXIT_OK && rc != EXIT_STORAGE)
		rc = walked;
done:
	cJSON_Delete(cl.names);
	cJSON_Delete(cl.sizes);
	free(cl.in);
	close(cl.fd);
	return rc;
}
