/*
 * The checkpoint file of the log anyone can check (SPEC 13), the log's
 * sink outside the database: the line each signed head appends to it,
 * that line read back, the size the database last left the file, and
 * the file checked whole before a head is appended.  Signing and the
 * tree are store_log.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit_codes.h"
#include "note.h"
#include "store.h"
#include "store_internal.h"
#include "store_log.h"
#include "store_log_internal.h"

/*
 * The checkpoint file's line of a signed head, and the file's size before
 * it is appended (-1 without a checkpoint file): the lines of earlier
 * commits must all be there by then, while this one's and those of
 * commits not yet announced may still be on their way.
 */
int
log_file_line_make(long long seq, const char *hash, const char *when,
    const char *note, char **line, long long *file_size, struct error *err)
{
	const char *path = store_checkpoint_file_path();
	struct stat st;
	char *b64;
	int len;

	*line = NULL;
	*file_size = -1;
	if ((b64 = base64_encode(note, strlen(note))) == NULL)
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	len = asprintf(line, "%lld %s %s %s\n", seq, hash, when, b64);
	free(b64);
	if (len < 0) {
		*line = NULL;
		return error_set(err, EXIT_STORAGE, NULL, "out of memory");
	}
	if (path != NULL)
		*file_size = stat(path, &st) == 0 ? (long long)st.st_size : 0;
	return 0;
}

bool
log_file_line_parse(const char *line, size_t len, struct file_line *fl)
{
	char copy[8192], hash[80], when[64], b64[8000];
	unsigned char *note = NULL;
	size_t note_len;
	struct error why;
	int n;
	bool ok;

	memset(fl, 0, sizeof *fl);
	if (len >= sizeof copy)
		return false;
	memcpy(copy, line, len);
	copy[len] = '\0';
	n = sscanf(copy, "%lld %79s %63s %7999s", &fl->seq, hash, when, b64);
	if (n < 3 || fl->seq <= 0 || strlen(hash) != 64)
		return false;
	memcpy(fl->hash, hash, sizeof fl->hash);
	if (n == 3)
		return true;
	if (base64_decode(b64, strlen(b64), &note, &note_len) != 0)
		return false;
	ok = memchr(note, '\0', note_len) == NULL &&
	    checkpoint_parse((const char *)note, log_note_text_length_n(
	    (const char *)note, note_len), &fl->c, &why) == 0 &&
	    (long long)fl->c.size == fl->seq;
	fl->has_note = true;
	free(note);
	return ok;
}

char *
store_file_last_line(int fd, off_t file_size, char *buf, size_t size)
{
	off_t from = file_size > (off_t)size - 1 ? file_size - (off_t)size + 1 :
	    0;
	ssize_t n = pread(fd, buf, size - 1, from);
	char *end;

	if (n <= 0 || buf[n - 1] != '\n')
		return NULL;
	buf[n - 1] = '\0';
	return (end = strrchr(buf, '\n')) != NULL ? end + 1 : buf;
}

/*
 * The size this service's checkpoint file had when it last signed a line
 * into it; -1: none.  Several services of one log each keep a file of
 * their own (SPEC 13), so only the checkpoints of this service's key
 * speak for this file: a note another key signed is refused at its key
 * id, before any signature is checked.
 */
int
log_file_size_expected(struct store *s, long long *size, struct error *err)
{
	const struct note_verifier *by, *own;
	struct error why;
	const char *note;
	size_t text_len, count;
	db_stmt *stmt;
	int rc;

	*size = -1;
	if (!store_log_signing())
		return 0;
	/* The first key trusted is the signer's own (store_log_keys()). */
	own = store_log_trusted(&count);
	if ((stmt = log_stmt(s, LOG_FILE_SIZE, err)) == NULL)
		return err->status;
	while ((rc = db_step(stmt)) == DB_ROW) {
		note = (const char *)db_column_text(stmt, 1);
		if (note == NULL)
			continue;
		if ((s->log->last_note != NULL &&
		    strcmp(note, s->log->last_note) == 0) ||
		    note_open(note, strlen(note), own, 1, &text_len,
		    &by, &why) == 0) {
			*size = db_column_int64(stmt, 0);
			rc = DB_DONE;
			break;
		}
	}
	db_reset(stmt);
	return rc == DB_DONE ? 0 : store_error(s, err,
	    "reading the checkpoints");
}

/*
 * SPEC 13, the checkpoint file checked whole before a head is appended:
 * not missing or shorter than the database last made it, and its last
 * line's head still on the chain, its note of a tree the stored tree
 * extends.  EXIT_STORAGE naming what is wrong.
 */
int
log_file_check(struct store *s, struct error *err)
{
	const char *path = store_checkpoint_file_path();
	struct file_line fl;
	merkle_hash root;
	char tail[8192], *line;
	long long expected;
	struct stat st;
	bool yes;
	int fd, rc;

	if (path == NULL)
		return 0;
	if ((rc = log_file_size_expected(s, &expected, err)) != 0)
		return rc;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		if (errno == ENOENT && expected <= 0)
			return 0;	/* a new file: the first head makes it */
		return log_refuse(err, "the checkpoint file "
		    "%s is missing or unreadable (%s), but the log wrote %lld "
		    "bytes to it; refusing to decide until an operator looks",
		    path, strerror(errno), expected);
	}
	if (fstat(fd, &st) != 0 || (expected > 0 && st.st_size < expected)) {
		close(fd);
		return log_refuse(err, "the checkpoint file "
		    "%s is shorter than the log left it (%lld bytes, not %lld);"
		    " refusing to decide until an operator looks", path,
		    (long long)st.st_size, expected);
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	line = store_file_last_line(fd, st.st_size, tail, sizeof tail);
	close(fd);
	if (line == NULL)
		return log_refuse(err, "the checkpoint file "
		    "%s does not end in a whole line; refusing to decide until "
		    "an operator looks", path);
	if (!log_file_line_parse(line, strlen(line), &fl))
		return log_refuse(err, "the last line of the "
		    "checkpoint file %s is not \"seq hash time [note]\"; "
		    "refusing to decide until an operator looks", path);
	if ((rc = log_on_chain(s, fl.seq, fl.hash, &yes, err)) != 0)
		return rc;
	if (!yes)
		return log_refuse(err, "the last line of the "
		    "checkpoint file %s names head seq %lld, which is no longer "
		    "on the chain; refusing to decide until an operator looks",
		    path, fl.seq);
	if (!fl.has_note)
		return 0;
	/* Named since this process looked, by another service's first commit. */
	if (s->log->name[0] == '\0' && (rc = store_log_name(s, NULL,
	    s->log->name, sizeof s->log->name, err)) != 0)
		return rc;
	if ((rc = store_log_root(s, fl.seq, root, err)) != 0)
		return rc;
	if (strcmp(fl.c.origin, s->log->name) != 0 ||
	    memcmp(root, fl.c.root, MERKLE_HASH_SIZE) != 0)
		return log_refuse(err, "the last line of the "
		    "checkpoint file %s holds a checkpoint (tree size %lld) the "
		    "log no longer extends; refusing to decide until an "
		    "operator looks", path, fl.seq);
	return 0;
}

const char *
store_log_file_line(const struct store *s, long long size)
{
	if (s->log == NULL || s->log->file_line == NULL ||
	    s->log->last_note_size != size)
		return NULL;
	return s->log->file_line;
}
