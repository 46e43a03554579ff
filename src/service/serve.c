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
 * loop: the socket, the accepts, the poll and the stop; a connection's
 * bytes are serve_conn.c, what a message starts serve_dispatch.c and what
 * a request runs serve_request.c.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "exit_codes.h"
#include "i18n.h"
#include "cmd_log.h"
#include "service.h"
#include "store.h"

#include "serve_internal.h"

static volatile sig_atomic_t stopping;

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

/* Once SIGTERM or SIGINT came: no new request starts. */
bool
serve_stopping(void)
{
	return stopping != 0;
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
