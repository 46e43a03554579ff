/*
 * The files one import reads (SPEC 1): each path named, and below a
 * directory every *.json and *.jsonl in name order, each directory once.
 * Local mode and the client (which uploads them) share this walk.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "import_object.h"
#include "xmalloc.h"

#define FILE_MAX_BYTES (64UL << 20)

/* Reads a whole regular file of at most FILE_MAX_BYTES. */
static int
read_file(const char *path, char **text, size_t *len, struct error *err)
{
	struct stat st;
	size_t done = 0;
	int fd;

	*text = NULL;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		/* L10N: %s is the system's reason (strerror) */
		return error_set(err, EXIT_DATA, NULL, _("cannot open: %s"),
		    strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set(err, EXIT_DATA, NULL, _("not a regular file"));
	}
	if ((unsigned long long)st.st_size > FILE_MAX_BYTES) {
		close(fd);
		return error_set(err, EXIT_DATA, NULL,
		    _("the file is %lld bytes; at most 64 MiB is imported"),
		    (long long)st.st_size);
	}
	*text = malloc((size_t)st.st_size + 1);
	if (*text == NULL) {
		close(fd);
		return error_set(err, EXIT_DATA, NULL, _("out of memory"));
	}
	done = read_up_to(fd, *text, (size_t)st.st_size);
	close(fd);
	if (done != (size_t)st.st_size) {
		free(*text);
		*text = NULL;
		return error_set(err, EXIT_DATA, NULL,
		    _("the file changed size while it was read"));
	}
	(*text)[done] = '\0';
	*len = done;
	return 0;
}

/* Reads one file and hands its bytes to the walk's step. */
static int
import_file(struct import_walk *walk, const char *path)
{
	struct error err;
	size_t len = 0;
	char *text = NULL;
	int rc;

	error_clear(&err);
	if ((rc = read_file(path, &text, &len, &err)) != 0) {
		import_report_unread(walk->out, path, rc, &err);
		return rc;
	}
	rc = walk->file(walk, path, text, len);
	free(text);
	return rc;
}

static bool
importable_name(const char *name)
{
	size_t len = strlen(name);

	if (name[0] == '.')
		return false;
	return (len > 5 && strcmp(name + len - 5, ".json") == 0) ||
	    (len > 6 && strcmp(name + len - 6, ".jsonl") == 0);
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The directories one import has read, by device and inode.  Checking
 * only the way up let links that point at each other across two
 * directories be read over and over (949,000 files in 60 seconds): each
 * directory is read once per import, however many links lead to it.
 */
struct visited {
	struct visited_dir {
		dev_t dev;
		ino_t ino;
	} *dirs;
	size_t count;
	size_t size;
};

/*
 * Whether dir was read already in this import; if not, it is now counted
 * as read.  Once per import, not once per path down: directories whose
 * links point at each other were otherwise read for every route between
 * them (949,000 files in a minute).
 */
static bool
visited_before(struct visited *seen, const struct stat *st)
{
	struct visited_dir *grown;
	size_t i;

	for (i = 0; i < seen->count; i++) {
		if (seen->dirs[i].dev == st->st_dev &&
		    seen->dirs[i].ino == st->st_ino)
			return true;
	}
	if (seen->count == seen->size) {
		grown = realloc(seen->dirs, (seen->size ? seen->size * 2 : 16) *
		    sizeof *grown);
		if (grown == NULL)
			return true;	/* out of memory: read no more */
		seen->dirs = grown;
		seen->size = seen->size ? seen->size * 2 : 16;
	}
	seen->dirs[seen->count].dev = st->st_dev;
	seen->dirs[seen->count].ino = st->st_ino;
	seen->count++;
	return false;
}

static int import_path(struct import_walk *, const char *, bool,
    struct visited *, int *);

/* Every *.json and *.jsonl below dir, in name order; links followed once. */
static int
import_directory(struct import_walk *walk, const char *dir, struct stat *st,
    struct visited *seen, int *worst)
{
	struct dirent *entry;
	char **names = NULL, **grown, path[PATH_MAX];
	size_t count = 0, i;
	DIR *d;

	if (visited_before(seen, st))
		return 0;	/* read already, through another path */
	if ((d = opendir(dir)) == NULL) {
		char *safe = xsanitize(dir);

		fprintf(stderr, "countersign: %s: %s\n", safe,
		    strerror(errno));
		free(safe);
		*worst = EXIT_DATA;
		return 0;
	}
	while ((entry = readdir(d)) != NULL) {
		if (entry->d_name[0] == '.')
			continue;
		grown = realloc(names, (count + 1) * sizeof *names);
		if (grown == NULL || (grown[count] = strdup(entry->d_name)) ==
		    NULL) {
			names = grown ? grown : names;
			break;
		}
		names = grown;
		count++;
	}
	closedir(d);
	if (count > 1)	/* an empty directory leaves names NULL */
		qsort(names, count, sizeof *names, compare_strings);
	for (i = 0; i < count; i++) {
		size_t dir_len = strlen(dir);

		while (dir_len > 1 && dir[dir_len - 1] == '/')
			dir_len--;
		if (snprintf(path, sizeof path, "%.*s/%s", (int)dir_len, dir,
		    names[i]) >= (int)sizeof path) {
			fprintf(stderr, _("countersign: a path is too long\n"));
			*worst = EXIT_DATA;
			free(names[i]);
			continue;
		}
		import_path(walk, path, true, seen, worst);
		free(names[i]);
	}
	free(names);
	return 0;
}

static int
import_path(struct import_walk *walk, const char *path, bool inside_directory,
    struct visited *seen, int *worst)
{
	struct stat st;
	int rc;

	if (stat(path, &st) != 0) {
		char *safe = xsanitize(path);

		fprintf(stderr, "countersign: %s: %s\n", safe, strerror(errno));
		free(safe);
		*worst = *worst == EXIT_STORAGE ? *worst : EXIT_DATA;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return import_directory(walk, path, &st, seen, worst);
	/* Inside a directory only JSON files count; a named file always does. */
	if (inside_directory && !importable_name(strrchr(path, '/') + 1))
		return 0;
	rc = import_file(walk, path);
	if (rc == EXIT_STORAGE)
		*worst = EXIT_STORAGE;
	else if (rc != 0 && *worst != EXIT_STORAGE)
		*worst = EXIT_DATA;
	return 0;
}

int
import_walk_paths(struct import_walk *walk, char *const *paths, int count)
{
	struct visited seen = { NULL, 0, 0 };
	int worst = EXIT_OK, i;

	for (i = 0; i < count; i++)
		import_path(walk, paths[i], false, &seen, &worst);
	free(seen.dirs);
	return worst;
}
