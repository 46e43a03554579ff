/*
 * The audit head told outside the store: to syslog (when a daemon
 * listens), as a line on the checkpoint file, and to the alarm's fd.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "sanitize.h"
#include "store_internal.h"
#include "store_log.h"
#include "timestamp.h"

/*
 * Whether a syslog daemon listens, as syslog(3) would reach it: syslog()
 * itself drops a message that has nowhere to go and says nothing.
 */
static bool
syslog_reachable(void)
{
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM };
	struct sockaddr_un addr;
	size_t i;
	int fd;
	bool reached = false;

	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", _PATH_LOG);
	for (i = 0; i < sizeof types / sizeof types[0] && !reached; i++) {
		if ((fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0)) < 0)
			continue;
		reached = connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
		close(fd);
	}
	return reached;
}

/*
 * An outside copy of the head: whoever can write the database can rewrite
 * the whole chain, but not the lines syslog already shipped.
 */
static const char *checkpoint_path;

void
store_checkpoint_file(const char *path)
{
	checkpoint_path = path;
}

const char *
store_checkpoint_file_path(void)
{
	return checkpoint_path;
}

/*
 * One line, one write(2) on an O_APPEND file: lines never interleave.
 * False when the head could not be written.
 */
static bool
checkpoint_append(const struct audit_head *head, const char *signed_line)
{
	bool written;
	char *line, when[TIMESTAMP_SIZE];
	int fd, len;

	/*
	 * SPEC 13: the line the commit signed, with its checkpoint as the
	 * fourth field, is the one the database expects the file to end in.
	 */
	if (signed_line != NULL) {
		line = strdup(signed_line);
		len = line != NULL ? (int)strlen(line) : -1;
	} else {
		timestamp_format(timestamp_now(), when);
		len = asprintf(&line, "%lld %s %s\n", head->seq, head->hash,
		    when);
	}
	if (len < 0)
		return false;
	fd = open(checkpoint_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	written = fd >= 0 && write(fd, line, (size_t)len) == len;
	if (!written)
		fprintf(stderr, "countersign: the audit head seq %lld was not "
		    "written to the checkpoint file %s: %s\n", head->seq,
		    checkpoint_path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(line);
	return written;
}

bool
store_audit_announce(const struct store *s, const struct audit_head *head)
{
	bool sunk = false;
	char *path;

	if (head->seq == 0)
		return true;
	/* Either sink is a copy the database's writers cannot rewrite. */
	if (checkpoint_path != NULL)
		sunk = checkpoint_append(head, store_log_file_line(s,
		    head->seq));
	if (!syslog_reachable())
		return sunk;
	/* A newline in --db once forged a second syslog line. */
	path = sanitize_str(s->path);
	openlog("countersign", LOG_PID, LOG_AUTHPRIV);
	syslog(LOG_INFO, "audit head seq=%lld hash=%s db=%s", head->seq,
	    head->hash, path != NULL ? path : "?");
	closelog();
	free(path);
	return true;
}

static int alarm_fd = -1;

void
store_audit_alarm_fd(int fd)
{
	alarm_fd = fd;
}

void
store_audit_alarm(const char *message)
{
	char *safe = sanitize_str(message);

	/* The store's path in it came from --db: never raw to a terminal. */
	if (alarm_fd >= 0)
		dprintf(alarm_fd, "countersign: %s\n", safe != NULL ? safe :
		    "?");
	if (syslog_reachable()) {
		openlog("countersign", LOG_PID, LOG_AUTHPRIV);
		syslog(LOG_ERR, "refusing to extend the audit log: %s",
		    safe != NULL ? safe : "?");
		closelog();
	}
	free(safe);
}
