/* Batch request lines from a descriptor (see batch_input.h). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_input.h"
#include "exit_codes.h"
#include "i18n.h"

enum { READ_AHEAD = 65536 };

int
batch_input_open(struct batch_input *in, FILE *file, const char *name,
    size_t max_line, struct error *err)
{
	memset(in, 0, sizeof *in);
	in->fd = fileno(file);
	in->name = name;
	in->max_line = max_line;
	in->size = READ_AHEAD;
	if ((in->buf = malloc(in->size)) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, _("out of memory"));
	return 0;
}

void
batch_input_close(struct batch_input *in)
{
	free(in->buf);
	free(in->line);
	memset(in, 0, sizeof *in);
}

/* More bytes into the empty read-ahead: 0, or an error; in->eof at the end. */
static int
fill(struct batch_input *in, struct error *err)
{
	ssize_t n;

	in->start = in->end = 0;
	do
		n = read(in->fd, in->buf, in->size);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		/* L10N: %1$s is a file name or "the standard input", %2$s the
		   system's reason (strerror) */
		return error_set(err, EXIT_DATA, NULL, _("cannot read %s: %s"),
		    in->name, strerror(errno));
	if (n == 0)
		in->eof = true;
	in->end = (size_t)n;
	return 0;
}

/* Appends what is kept of n bytes to the line of *len bytes so far. */
static int
keep(struct batch_input *in, const char *bytes, size_t n, size_t *len,
    struct error *err)
{
	size_t room = in->max_line + 1 > *len ? in->max_line + 1 - *len : 0;
	size_t kept = n < room ? n : room;
	char *grown;

	if (*len + kept + 1 > in->line_size) {
		size_t wanted = in->line_size > 0 ? in->line_size : 256;

		while (wanted < *len + kept + 1)
			wanted *= 2;
		if ((grown = realloc(in->line, wanted)) == NULL)
			return error_set(err, EXIT_STORAGE, NULL,
			    _("out of memory"));
		in->line = grown;
		in->line_size = wanted;
	}
	memcpy(in->line + *len, bytes, kept);
	*len += kept;
	in->line[*len] = '\0';
	return 0;
}

int
batch_input_next(struct batch_input *in, const char **line, size_t *len,
    struct error *err)
{
	const char *newline;
	size_t n;
	bool any = false;
	int rc;

	*line = NULL;
	*len = 0;
	for (;;) {
		if (in->start == in->end) {
			if (in->eof)
				break;
			if ((rc = fill(in, err)) != 0)
				return rc;
			continue;
		}
		any = true;
		newline = memchr(in->buf + in->start, '\n',
		    in->end - in->start);
		n = newline != NULL ? (size_t)(newline - in->buf) + 1 -
		    in->start : in->end - in->start;
		if ((rc = keep(in, in->buf + in->start, n, len, err)) != 0)
			return rc;
		in->start += n;
		if (newline != NULL)
			break;
	}
	if (any)
		*line = in->line != NULL ? in->line : "";
	return 0;
}

bool
batch_input_ready(struct batch_input *in)
{
	struct pollfd p = { .fd = in->fd, .events = POLLIN };

	if (in->eof || memchr(in->buf + in->start, '\n',
	    in->end - in->start) != NULL)
		return true;
	/* A regular file always polls readable: it never waits for a writer. */
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP |
	    POLLERR)) != 0;
}
