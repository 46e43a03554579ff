/*
 * What the service's files share: the loop that polls the connections
 * (serve.c), a connection's bytes (serve_conn.c), what a message starts
 * (serve_dispatch.c), and what a request runs, in a child, as whom
 * (serve_request.c).
 */
#ifndef COUNTERSIGN_SERVE_INTERNAL_H
#define COUNTERSIGN_SERVE_INTERNAL_H

#include <pwd.h>
#include <stdbool.h>
#include <sys/types.h>
#include <cjson/cJSON.h>

#include "command_table.h"
#include "service.h"

#define MAX_CONNECTIONS 128
#define MAX_PER_UID 16		/* one account cannot take every slot */
#define OFFICER_SLOTS 32	/* of MAX_CONNECTIONS, taken by officers only */
#define IDLE_TIMEOUT_S 300	/* serve --idle-timeout's default */
#define SPOOL_LIMIT_MIB 256	/* serve --spool-limit's: one account's uploads */
#define SPOOL_TOTAL_ACCOUNTS 4	/* everyone's uploads: 4 accounts' worth */
#define BUFFER_BUDGET (32ULL << 20)	/* non-officers' loop buffers, in all */
#define OUTPUT_UNDER_BUDGET (64UL << 10)	/* unsent, over BUFFER_BUDGET */
#define ACCEPTS_PER_PASS 64	/* the listen backlog, taken each loop pass */
#define UPLOAD_MAX (256ULL << 20)	/* a request's files or batch input */
#define OUTPUT_HIGH (1UL << 20)	/* unsent bytes before a child waits */
#define STALL_MS 60000		/* a client that reads nothing is dropped */
#define MAX_OPERANDS 4096
#define DISCARD_MAX (64ULL << 20)	/* of a too_large line, then drop */

struct program_conn;		/* serve_programs_internal.h: waits, a feed */

/* What a connection may hold, from its account's groups at accept time. */
enum conn_class { CLASS_NONE, CLASS_ROLE, CLASS_OFFICER };

struct conn {
	int fd;			/* -1 once the client is gone */
	uid_t uid;		/* SO_PEERCRED at connect time */
	enum conn_class class;	/* ... and its role then (serve_limits.c) */
	long long active_ms;	/* when it last read, wrote or ended a request */
	bool over_output;	/* its input waits: too much unread output */
	char *in;		/* bytes read, not yet a whole message */
	size_t in_len, in_cap;
	char *out;		/* bytes for the client, not yet written */
	size_t out_len, out_sent, out_cap;
	long long out_since_ms;	/* when out last made progress */
	int spool;		/* uploads for the next request, or -1 */
	unsigned long long spool_size;
	pid_t child;		/* the request being served, or 0 */
	bool review;		/* ... the review screens, on passed fds */
	bool told_to_stop;	/* ... sent SIGTERM as the service stops */
	/* the client's terminal (SCM_RIGHTS), and a pipe's end the screens
	   hold until they end (countersign-protocol(7) review) */
	int passed[4];
	int passed_count;
	int pipes[2];		/* its stdout and stderr, -1 at end */
	cJSON *request_id;	/* the id to answer it with */
	bool closing;		/* close once out is written */
	/* A line over RPC_MESSAGE_MAX: read to its end, unkept, then close. */
	bool discarding;
	unsigned long long discarded;
	/* out's bytes ever queued and ever written: where a feed stands */
	unsigned long long out_queued, out_written;
	bool json_child;	/* the child's stdout is the JSON answer */
	char *json_out;		/* ... gathered here */
	size_t json_len;
	struct program_conn *programs;	/* NULL until a wait or events */
};

struct service {
	const struct invocation *inv;
	pid_t pid;		/* the loop's, for its children to watch */
	int listen_fd;
	struct conn *conns[MAX_CONNECTIONS];
	struct program_loop *programs;	/* serve_programs.c, or NULL */
	/* serve_limits.c: the limits, and non-officers' buffers this pass */
	long long idle_ms;
	unsigned long long spool_account_max, spool_total_max;
	unsigned long long buffered;
};

/* serve.c */
long long now_ms(void);
/* Whether SIGTERM or SIGINT came: no further message is taken. */
bool serve_stopping(void);

/* serve_conn.c */
void conn_error(struct conn *, const cJSON *id, int code, const char *reason,
    int exit_code, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void close_passed(struct conn *);
/* The client is gone, or dropped: a running child still finishes. */
void conn_hang_up(struct conn *);
/* Queues one message (consumed) and its newline for the client. */
void conn_send(struct conn *, cJSON *message);
/* A JSON-RPC 2.0 message, answering id when not NULL. */
cJSON *message_new(const cJSON *id);
void conn_free(struct service *, struct conn *);
/* Whole messages in c->in, while no request runs; the rest waits. */
void handle_input(struct service *, struct conn *);
void read_client(struct service *, struct conn *);
void write_client(struct conn *);

/* serve_dispatch.c */
/* One whole message from the client; false when the connection ends. */
bool handle_message(struct service *, struct conn *, const char *text,
    size_t len);
/* While the review screens run: a signal the client's terminal gave. */
void handle_review_message(struct conn *, const char *text, size_t len);
/* A chunk of the child's stdout (which 0) or stderr (1) for the client. */
void read_child(struct conn *, int which);
/* Both pipes at end: the child has exited or is exiting; answer. */
void finish_request(struct service *, struct conn *);

/* serve_programs.c: the methods for programs (SPEC 12) */
/* A method answered from the loop: status, wait, events, ... */
void programs_call(struct service *, struct conn *,
    const struct command_entry *, const cJSON *params, const cJSON *id);
/* submit's child: the answer as one JSON object on stdout. */
int programs_submit_child(const struct invocation *, const cJSON *params);
/* A JSON child's output, and its end: the answer to send. */
void programs_child_output(struct conn *, int which, const char *buf,
    size_t len);
void programs_child_done(struct conn *, const cJSON *id, int exit_code);
/*
 * Once a loop pass: other writers' commits, waits that time out,
 * feeds to fill.  child_ended: a request's child finished meanwhile.
 */
void programs_tick(struct service *, bool child_ended);
/* What the loop polls for programs: the store's fd (or -1), and how long. */
int programs_watch_fd(const struct service *);
long programs_tick_ms(const struct service *);
void programs_conn_free(struct service *, struct conn *);
/* Whether c holds a wait or a feed, which keep it open while idle. */
bool programs_conn_holds(const struct conn *);
void programs_stop(struct service *);

/* serve_request.c */
int check_role(const struct service *, struct conn *, const cJSON *id,
    const struct command_entry *, const struct passwd *);
/* Members of group: the primary group and the supplementary ones, now. */
bool in_group(const struct passwd *, const char *group);

/* serve_limits.c: what one account may hold (countersign-protocol(7)) */
void limits_init(struct service *);
/* At accept: 0, or -1 with the refusal (busy, forbidden) queued on c. */
int limits_admit(struct service *, struct conn *c);
/* An upload: 0, or -1 with the refusal queued (the connection ends). */
int spool_append(struct service *, struct conn *, const cJSON *params,
    const cJSON *id);
void spool_reset(struct conn *);
/* Once a loop pass, before limits_may_read. */
void limits_pass(struct service *);
/* Whether to read c's input (pipe false) or its child's output now. */
bool limits_may_read(struct service *, struct conn *c, bool pipe);
/* Closes c when it has been idle for the idle timeout. */
void limits_sweep(struct service *, struct conn *c);
/* params as an invocation: 0, or -1 with the reason in why. */
int params_to_invocation(const struct service *,
    const struct command_entry *, const cJSON *params, const struct conn *,
    struct invocation *, char *why, size_t why_size);
/* The child: one request, as local mode would run it, then _exit. */
void serve_child(struct service *, struct conn *,
    const struct command_entry *, const cJSON *params, struct invocation *,
    const struct passwd *, int out_fd, int err_fd);

#endif
