/*
 * What a service request runs (SPEC 10): whether its caller's groups allow
 * it, the invocation its parameters make, the uploads it reads, and the
 * child that runs the same command function as local mode.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#if HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "decision.h"
#include "exit_codes.h"
#include "i18n.h"
#include "service.h"
#include "store.h"
#include "store_log.h"
#include "timestamp.h"
#include "utf8.h"
#include "serve_internal.h"

/* The review screens' terminal settings a client may pass. */
static const char *const terminal_keys[] = { "term" };
/* The locale any command's words are in (issue 37), as a client passes it. */
static const char *const locale_keys[] = { "ctype", "messages", "language" };
/* Members of group: the primary group and the supplementary ones, now. */
bool
in_group(const struct passwd *pw, const char *group)
{
	struct group *gr = getgrnam(group);
	gid_t *groups = NULL, *grown;
	int count = 32, i;
	bool member = false;

	if (gr == NULL)
		return false;
	for (;;) {
		if ((grown = realloc(groups, (size_t)count * sizeof *groups)) ==
		    NULL)
			break;
		groups = grown;
		if (getgrouplist(pw->pw_name, pw->pw_gid, groups, &count) >= 0) {
			for (i = 0; i < count; i++)
				member = member || groups[i] == gr->gr_gid;
			break;
		}
	}
	free(groups);
	return member;
}

/*
 * The role's group, read at request time: an officer removed from the
 * group is refused from her next request on.  0, or a forbidden answer.
 */
int
check_role(const struct service *sv, struct conn *c, const cJSON *id,
    const struct command_entry *m, const struct passwd *pw)
{
	const struct invocation *inv = sv->inv;
	const char *group = m->role == ROLE_IMPORTER ? inv->importers :
	    inv->officers;
	const char *option = m->role == ROLE_IMPORTER ? "--importers" :
	    m->role == ROLE_OFFICER ? "--officers" :
	    m->role == ROLE_READER ? "--officers or --readers" :
	    "--officers, --importers or --readers";

	if (pw != NULL && m->role != ROLE_OFFICER && m->role !=
	    ROLE_IMPORTER) {
		/* (v3) Readers read; programs wait with any role (SPEC 12). */
		bool allowed = (inv->officers != NULL && in_group(pw,
		    inv->officers)) || (inv->readers != NULL && in_group(pw,
		    inv->readers)) || (m->role == ROLE_ANY &&
		    inv->importers != NULL && in_group(pw, inv->importers));

		char groups[512] = "";
		size_t used = 0;
		const char *const named[3] = { inv->officers, inv->readers,
		    m->role == ROLE_ANY ? inv->importers : NULL };

		if (allowed)
			return 0;
		for (int i = 0; i < 3; i++)
			if (named[i] != NULL && used < sizeof groups)
				used += (size_t)snprintf(groups + used,
				    sizeof groups - used, "%s'%.*s'", used > 0 ?
				    " or " : "", (int)utf8_prefix(named[i], 100),
				    named[i]);
		if (used == 0)
			conn_error(c, id, RPC_FORBIDDEN, "forbidden",
			    EXIT_REFUSED, "forbidden: %s needs a role the "
			    "service gives no group (serve %s)", m->method,
			    option);
		else
			conn_error(c, id, RPC_FORBIDDEN, "forbidden",
			    EXIT_REFUSED, "forbidden: %s is not in the group %s "
			    "that %s needs (serve %s)", pw->pw_name, groups,
			    m->method, option);
		return -1;
	}
	if (pw == NULL) {
		conn_error(c, id, RPC_FORBIDDEN, "forbidden", EXIT_REFUSED,
		    "forbidden: uid %lu has no account on the service's host",
		    (unsigned long)c->uid);
		return -1;
	}
	if (group == NULL) {
		conn_error(c, id, RPC_FORBIDDEN, "forbidden", EXIT_REFUSED,
		    "forbidden: %s needs a role the service gives no group "
		    "(serve %s)", m->method, option);
		return -1;
	}
	if (!in_group(pw, group)) {
		conn_error(c, id, RPC_FORBIDDEN, "forbidden", EXIT_REFUSED,
		    "forbidden: %s is not in the group '%s' that %s needs "
		    "(serve %s)", pw->pw_name, group, m->method, option);
		return -1;
	}
	return 0;
}

/* A terminal or locale name: letters, digits and ._+-@: only. */
static bool
terminal_word(const char *text)
{
	size_t n = strlen(text);

	return n <= 64 && strspn(text, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-@:") == n;
}

/*
 * params as an invocation: the options' params as the command table
 * maps them back, the operands, and what the request carries besides.
 * 0, or -1 with the reason in why.
 */
int
params_to_invocation(const struct service *sv, const struct command_entry *m,
    const cJSON *params, const struct conn *c, struct invocation *inv,
    char *why, size_t why_size)
{
	const bool files = m->operands == OPERANDS_FILES;
	const bool terminal = (m->method_flags & METHOD_TERMINAL) != 0;
	const int max_operands = files || m->operands == OPERANDS_ARRAY ?
	    m->max_operands : 0;
	const cJSON *item, *operands, *sizes;
	unsigned long long total = 0;
	size_t i;
	int n, rc;

	memset(inv, 0, sizeof *inv);
	inv->db_option = sv->inv->db_option;
	if (params != NULL && !cJSON_IsObject(params))
		return snprintf(why, why_size, "params must be an object"), -1;
	/* Its params are its own (serve_programs.c); no upload. */
	if (m->method_flags & METHOD_PROGRAM)
		return c->spool_size == 0 ? 0 : (snprintf(why, why_size,
		    "%s takes no upload", m->method), -1);
	cJSON_ArrayForEach(item, params) {
		bool known = false;

		if ((rc = command_param_to_option(m, item->string, item, inv,
		    why, why_size)) < 0)
			return -1;
		if (rc == 0)
			continue;
		for (i = 0; i < sizeof locale_keys / sizeof locale_keys[0];
		    i++) {
			if (strcmp(item->string, locale_keys[i]) != 0)
				continue;
			known = true;
			if (!cJSON_IsString(item) ||
			    !terminal_word(item->valuestring))
				return snprintf(why, why_size, "%s: '%s' is no "
				    "plain name", m->method, item->string), -1;
		}
		for (i = 0; i < sizeof terminal_keys / sizeof terminal_keys[0];
		    i++) {
			if (strcmp(item->string, terminal_keys[i]) != 0)
				continue;
			known = true;
			if (!terminal || !cJSON_IsString(item) ||
			    !terminal_word(item->valuestring))
				return snprintf(why, why_size, "%s: '%s' does "
				    "not apply or is no plain name", m->method,
				    item->string), -1;
		}
		if (known || strcmp(item->string, "operands") == 0 ||
		    (strcmp(item->string, "no_color") == 0 && terminal &&
		    cJSON_IsBool(item)) ||
		    (strcmp(item->string, "sizes") == 0 && files))
			continue;
		return snprintf(why, why_size, "%s: unknown or misused "
		    "parameter '%s'", m->method, item->string), -1;
	}
	operands = cJSON_GetObjectItemCaseSensitive(params, "operands");
	n = cJSON_GetArraySize(operands);
	if ((operands != NULL && !cJSON_IsArray(operands)) ||
	    n > MAX_OPERANDS || (max_operands >= 0 && n > max_operands))
		return snprintf(why, why_size, "%s: operands must be an array "
		    "of at most %d strings", m->method, max_operands >= 0 ?
		    max_operands : MAX_OPERANDS), -1;
	inv->operands = calloc((size_t)n + 1, sizeof *inv->operands);
	if (inv->operands == NULL)
		return snprintf(why, why_size, "out of memory"), -1;
	i = 0;
	cJSON_ArrayForEach(item, operands) {
		if (!cJSON_IsString(item))
			return snprintf(why, why_size, "%s: operands must be "
			    "strings", m->method), -1;
		inv->operands[i++] = item->valuestring;
	}
	inv->operand_count = n;
	if (!files)
		return c->spool_size == 0 || m->operands == OPERANDS_STDIN ?
		    0 : (snprintf(why, why_size, "%s takes no upload",
		    m->method), -1);
	sizes = cJSON_GetObjectItemCaseSensitive(params, "sizes");
	if (!cJSON_IsArray(sizes) || cJSON_GetArraySize(sizes) != n)
		return snprintf(why, why_size, "import: sizes must give each "
		    "operand's size"), -1;
	cJSON_ArrayForEach(item, sizes) {
		if (!cJSON_IsNumber(item) || item->valuedouble < 0 ||
		    item->valuedouble > (double)UPLOAD_MAX)
			return snprintf(why, why_size, "import: a size is not "
			    "a byte count"), -1;
		total += (unsigned long long)item->valuedouble;
	}
	if (total != c->spool_size)
		return snprintf(why, why_size, "import: the sizes add up to "
		    "%llu bytes, the uploads to %llu", total, c->spool_size),
		    -1;
	return 0;
}

/* "SEQ:HASH" of the checkpoint file's last line; 1 when there is none. */
static int
checkpoint_latest(const char *path, char *out, size_t size)
{
	char tail[4096], *line;
	long long seq;
	char hash[65];
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return errno == ENOENT ? 1 : (fprintf(stderr, "countersign: "
		    "cannot read the checkpoint file %s: %s\n", path,
		    strerror(errno)), -1);
	if (fstat(fd, &st) != 0 || st.st_size == 0) {
		close(fd);
		return 1;
	}
	line = store_file_last_line(fd, st.st_size, tail, sizeof tail);
	close(fd);
	if (line == NULL || sscanf(line, "%lld %64[0-9a-f] ", &seq, hash) != 2 ||
	    strlen(hash) != 64 || seq <= 0)
		goto bad;
	snprintf(out, size, "%lld:%s", seq, hash);
	return 0;
bad:
	fprintf(stderr, "countersign: the checkpoint file %s does not end "
	    "in a line \"seq hash time\"\n", path);
	return -1;
}

/*
 * audit verify through the service also holds the chain to the latest
 * head in the checkpoint file: a tail truncated or rewritten in the store
 * fails, whatever checkpoint the client named.
 */
static int
audit_verify_served(const struct service *sv, struct invocation *inv)
{
	char head[128];
	FILE *quiet;
	int rc, saved;

	/* Its NOTEFILE is a path: the service never opens a client's paths. */
	if (inv->operand_count > 0 &&
	    strcmp(inv->operands[0], "consistency") == 0) {
		fprintf(stderr, _("countersign: audit consistency does not "
		    "work through --connect: run it on the database or a "
		    "copy\n"));
		return EXIT_USAGE;
	}
	if (sv->inv->checkpoint_file == NULL || inv->operand_count != 1 ||
	    strcmp(inv->operands[0], "verify") != 0)
		return cmd_audit(inv);
	if ((rc = checkpoint_latest(sv->inv->checkpoint_file, head,
	    sizeof head)) < 0)
		return EXIT_STORAGE;
	if (rc == 1)
		return cmd_audit(inv);
	if (inv->checkpoint == NULL) {
		inv->checkpoint = head;
		return cmd_audit(inv);
	}
	/* Both: the file's head first, its report kept only when it fails. */
	fflush(stdout);
	if ((quiet = tmpfile()) == NULL || (saved = dup(STDOUT_FILENO)) < 0)
		return EXIT_STORAGE;
	dup2(fileno(quiet), STDOUT_FILENO);
	{
		struct invocation file_inv = *inv;

		file_inv.checkpoint = head;
		rc = cmd_audit(&file_inv);
	}
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if (rc != EXIT_OK) {
		char buf[4096];
		size_t n;

		rewind(quiet);
		while ((n = fread(buf, 1, sizeof buf, quiet)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(quiet);
		return rc;
	}
	fclose(quiet);
	return cmd_audit(inv);
}

/* import: the uploads, one file after another in the sizes given. */
static int
import_served(const struct conn *c, const cJSON *params,
    const struct invocation *inv)
{
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(params, "sizes");
	struct import_text *files = calloc((size_t)inv->operand_count + 1,
	    sizeof *files);
	char *all = malloc(c->spool_size + 1);
	struct store *store;
	struct error err;
	size_t offset = 0, i = 0;
	int rc;

	error_clear(&err);
	if (files == NULL || all == NULL || (c->spool_size > 0 &&
	    pread(c->spool, all, c->spool_size, 0) != (ssize_t)c->spool_size)) {
		fprintf(stderr, "countersign: the service cannot read the "
		    "upload back\n");
		return EXIT_STORAGE;
	}
	size = size != NULL ? size->child : NULL;
	for (; size != NULL; size = size->next, i++) {
		files[i].name = inv->operands[i];
		files[i].text = all + offset;
		files[i].len = (size_t)size->valuedouble;
		offset += files[i].len;
	}
	if ((rc = open_store(inv, STORE_CREATE, &store, &err)) != 0) {
		report_error(&err);
		return rc;
	}
	import_report_as_json(inv->json);
	rc = import_texts(store, files, i, stdout);
	store_close(store);
	return rc;
}

/*
 * review: the client's terminal, passed with the request, becomes this
 * process's stdin, stdout and stderr, and its TERM and locale the ones
 * the screens use.  A fourth descriptor, when one came, stays open until
 * this process ends: its end tells the client the terminal is its own
 * again.  False, said on err_fd, when no terminal came.
 */
static bool
review_child(const struct service *sv, struct conn *c, const cJSON *params,
    int err_fd)
{
	const cJSON *term = cJSON_GetObjectItemCaseSensitive(params, "term");
	int i;

	if (c->passed_count < 3) {
		dprintf(err_fd, "countersign: the review screens need the "
		    "terminal passed with the request\n");
		return false;
	}
	if (c->passed_count == 4 && fcntl(c->passed[3], F_DUPFD_CLOEXEC, 3) >=
	    0)
		c->passed_count = 3;	/* its copy stays open until _exit */
	for (i = 0; i < 3; i++)
		dup2(c->passed[i], i);
	close_passed(c);
#if HAVE_SYS_PRCTL_H
	/*
	 * A service killed outright (SIGKILL, a crash) cannot send SIGTERM:
	 * the screens end as on a hangup rather than read keys from a
	 * terminal whose shell has it back.
	 */
	prctl(PR_SET_PDEATHSIG, SIGHUP);
	if (getppid() != sv->pid)
		return false;	/* gone already */
#endif
	setenv("TERM", cJSON_IsString(term) ? term->valuestring : "dumb", 1);
	unsetenv("LINES");
	unsetenv("COLUMNS");
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(params, "no_color")))
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");
	return true;
}

/*
 * The client's locale for the request's words (issue 37): every command
 * speaks the client's language, as it would locally.  Without one the
 * service's own stays; the screens' wide characters need a UTF-8 one.
 */
static void
apply_locale(const cJSON *params, bool screens)
{
	const cJSON *ctype = cJSON_GetObjectItemCaseSensitive(params, "ctype");
	const cJSON *messages = cJSON_GetObjectItemCaseSensitive(params,
	    "messages");
	const cJSON *language = cJSON_GetObjectItemCaseSensitive(params,
	    "language");

	if ((!cJSON_IsString(ctype) || setlocale(LC_CTYPE,
	    ctype->valuestring) == NULL) && screens)
		setlocale(LC_CTYPE, "C.UTF-8");
	if (cJSON_IsString(messages))
		setlocale(LC_MESSAGES, messages->valuestring);
	if (cJSON_IsString(language) && *language->valuestring != '\0')
		setenv("LANGUAGE", language->valuestring, 1);
	else if (cJSON_IsString(messages))
		unsetenv("LANGUAGE");
}

/* The officers' group, in the child serving one request. */
static const char *served_officers;

/*
 * Before each decision of a batch or of review screens already open
 * (SPEC 10, v3): the officer's groups read again, not kept from the
 * request's start, so a removal ends her deciding at once.
 */
static bool
officer_still(const struct operator_identity *op, char *why, size_t size)
{
	struct passwd *pw = getpwuid((uid_t)op->uid);

	if (served_officers != NULL && pw != NULL && in_group(pw,
	    served_officers))
		return true;
	snprintf(why, size, "%s is no longer in the group '%s' that deciding "
	    "needs (serve --officers): nothing was recorded", op->login,
	    served_officers != NULL ? served_officers : "");
	return false;
}

/* The child: one request, as local mode would run it, then _exit. */
void
serve_child(struct service *sv, struct conn *c, const struct command_entry *m,
    const cJSON *params, struct invocation *inv, const struct passwd *pw,
    int out_fd, int err_fd)
{
	const bool terminal = (m->method_flags & METHOD_TERMINAL) != 0;
	struct operator_identity op;
	int rc, null_fd, i;

	signal(SIGTERM, SIG_IGN);	/* the request finishes */
	signal(SIGINT, SIG_IGN);
	for (i = 0; i < MAX_CONNECTIONS; i++) {
		struct conn *other = sv->conns[i];

		if (other == NULL || other == c)
			continue;
		if (other->fd >= 0)
			close(other->fd);
		if (other->spool >= 0)
			close(other->spool);
		if (other->pipes[0] >= 0)
			close(other->pipes[0]);
		if (other->pipes[1] >= 0)
			close(other->pipes[1]);
		close_passed(other);
	}
	if (sv->listen_fd >= 0)
		close(sv->listen_fd);
	if (c->fd >= 0)
		close(c->fd);
	/* SPEC 13: a refusal to extend the log also goes to the service's log. */
	store_audit_alarm_fd(fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3));
	apply_locale(params, terminal);
	if (terminal) {
		if (!review_child(sv, c, params, err_fd))
			_exit(EXIT_USAGE);
	} else {
		close_passed(c);
		dup2(out_fd, STDOUT_FILENO);
		dup2(err_fd, STDERR_FILENO);
	}
	if (m->operands == OPERANDS_STDIN && c->spool >= 0) {
		lseek(c->spool, 0, SEEK_SET);
		dup2(c->spool, STDIN_FILENO);
	} else if (!terminal && (null_fd = open("/dev/null",
	    O_RDONLY)) >= 0) {
		dup2(null_fd, STDIN_FILENO);
		close(null_fd);
	}
	memset(&op, 0, sizeof op);
	op.uid = (long long)c->uid;
	snprintf(op.login, sizeof op.login, "%s", pw->pw_name);
	operator_serve_as(&op);
	served_officers = sv->inv->officers;
	operator_check_role_with(officer_still);
	store_checkpoint_file(sv->inv->checkpoint_file);
	if (terminal) {
		sigset_t none;

		/* The screens handle these themselves, as in local mode. */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		rc = review_run(inv);
	} else if (m->method_flags & METHOD_PROGRAM)
		rc = programs_submit_child(inv, params);
	else if (m->operands == OPERANDS_FILES)
		rc = import_served(c, params, inv);
	else if (m->run == cmd_audit)
		rc = audit_verify_served(sv, inv);
	else
		rc = m->run(inv);
	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}

