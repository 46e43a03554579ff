/* What every command does the same way: open the store, report an error. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "sanitize.h"
#include "xmalloc.h"

/*
 * A database path that is a symbolic link is followed only when --db
 * names it: a link planted where $COUNTERSIGN_DB or the XDG default
 * points would send an officer's decisions into another's file, and a
 * dangling one made countersign create its target wherever it pointed.
 */
static int
refuse_linked_database(const struct invocation *inv, const char *path,
    struct error *err)
{
	struct stat st, target;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return 0;
	if (stat(path, &target) != 0)
		return error_set(err, EXIT_STORAGE, NULL, _("%s is a symbolic "
		    "link to nothing (%s); countersign does not create a "
		    "database through a link"), path, strerror(errno));
	if ((inv->db_option == NULL || *inv->db_option == '\0') &&
	    store_served(NULL))
		return error_set(err, EXIT_STORAGE, NULL, _("the service's "
		    "database %s is a symbolic link, which it follows only "
		    "when serve --db names it: ask the service's "
		    "administrator"), path);
	if (inv->db_option == NULL || *inv->db_option == '\0')
		return error_set(err, EXIT_STORAGE, NULL, _("%s is a symbolic "
		    "link; countersign follows one only when --db names it "
		    "(countersign --db %s ...)"), path, path);
	return 0;
}

int
open_store(const struct invocation *inv, enum store_open_mode mode,
    struct store **store, struct error *err)
{
	char path[PATH_MAX];
	int rc;

	if ((rc = store_default_path(inv->db_option, path, sizeof path,
	    err)) != 0)
		return rc;
	if ((rc = refuse_linked_database(inv, path, err)) != 0)
		return rc;
	return store_open(path, mode, store, err);
}

void
stdout_for_many_lines(void)
{
	/*
	 * Not a terminal: 64 KiB a write instead of stdio's 4 KiB.  Each
	 * write is a system call, and on this project's machines 28,000 of
	 * them were 6% of a check of 100,000 actions (bench/README.md).  A
	 * terminal keeps its line buffering.  The buffer is given: without
	 * one glibc ignores the size and wrote 4 KiB at a time all the same.
	 */
	static char buffer[64 * 1024];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
}

int
stdout_finish(struct error *err)
{
	/* A full disk must not pass for a clean run. */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		return error_set(err, EXIT_STORAGE, NULL,
		    /* L10N: %s is the system's reason (strerror) */
		    _("cannot write the output: %s"),
		    errno != 0 ? strerror(errno) : _("write error"));
	return 0;
}

/* The first head of this command that no sink took, and whether told. */
static struct {
	bool throwaway;			/* the database goes when the run ends */
	bool quiet;
	bool unsunk;
	bool told;
	struct audit_head head;
} announced;

static void
tell_unsunk(void)
{
	if (!announced.unsunk || announced.told || announced.quiet)
		return;
	if (store_served(NULL))
		/* L10N: through the service, which has no checkpoint file:
		   %1$lld and %2$s are the new head's seq and hash; keep
		   /dev/log, audit verify --checkpoint and serve
		   --checkpoint-file */
		fprintf(stderr, _("countersign: no syslog listens at /dev/log "
		    "on the service's host: the new audit head (seq %lld, "
		    "hash %s) has no copy outside the database; keep it "
		    "yourself for audit verify --checkpoint, or ask the "
		    "service's administrator for serve --checkpoint-file\n"),
		    announced.head.seq, announced.head.hash);
	else
		/* L10N: %1$lld and %2$s are the new head's seq and hash; keep
		   /dev/log, audit verify --checkpoint and --checkpoint-file */
		fprintf(stderr, _("countersign: no syslog listens at /dev/log: "
		    "the new audit head (seq %lld, hash %s) has no copy "
		    "outside the database; keep it yourself for audit verify "
		    "--checkpoint, or run the service with "
		    "--checkpoint-file\n"), announced.head.seq,
		    announced.head.hash);
	announced.told = true;
}

/* Quiet while a screen owns the terminal; told once it is given back. */
void
announce_quietly(bool on)
{
	announced.quiet = on;
	tell_unsunk();
}

void
announce_throwaway(void)
{
	announced.throwaway = true;
}

bool
announce_head(const struct store *store, const struct audit_head *head)
{
	if (store_audit_announce(store, head) || announced.throwaway)
		return false;
	if (!announced.unsunk) {
		announced.unsunk = true;
		announced.head = *head;
	}
	tell_unsunk();
	return true;
}

void
report_error(const struct error *err)
{
	/* A message may quote input: it reaches the terminal sanitized. */
	char *safe = xsanitize(err->message);

	if (err->field[0] != '\0') {
		char *field = xsanitize(err->field);

		fprintf(stderr, "countersign: %s: %s\n", field, safe);
		free(field);
	} else
		fprintf(stderr, "countersign: %s\n", safe);
	free(safe);
}

int (*review_screens)(const struct invocation *);

int
review_run(const struct invocation *inv)
{
	if (review_screens == NULL) {
		fprintf(stderr, "%s\n", _("countersign: this program has no "
		    "review screens"));
		return EXIT_USAGE;
	}
	return review_screens(inv);
}

/*
 * The files the commands read whole (packets, receipts, notes) are
 * regular files, so a short read means the end; EINTR is retried.
 */
size_t
read_up_to(int fd, char *buf, size_t size)
{
	size_t done = 0;
	ssize_t n;

	while (done < size) {
		n = read(fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return done;
}
