/*
 * countersign: command line parsing and dispatch (countersign(1) COMMANDS,
 * OPTIONS).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_log.h"
#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "programs.h"
#include "sanitize.h"
#include "service.h"
#include "store.h"
#include "tui/tui.h"
#include "xmalloc.h"

enum option_bit {
	OPTION_ALL = 1 << 0,
	OPTION_JSON = 1 << 1,
	OPTION_ATOMIC = 1 << 2,
	OPTION_CSV = 1 << 3,
	OPTION_CHECKPOINT = 1 << 4,
	OPTION_SERVE = 1 << 5,		/* --socket, --officers, ... */
	OPTION_TIMEOUT = 1 << 6,	/* (v3) wait --timeout */
	OPTION_AFTER = 1 << 7,		/* (v3) events --after, --follow */
	OPTION_FILTER = 1 << 8,		/* list --filter */
	OPTION_SINCE = 1 << 9,		/* --since, --until */
	OPTION_KEY = 1 << 10,		/* --key (SPEC 13) */
	OPTION_RECEIPT = 1 << 11,	/* --action, --expect-sha256, --decision */
	OPTION_OUTPUT = 1 << 12,	/* -o */
	OPTION_SIZE = 1 << 13		/* --size */
};

/* The commands that need no store and no service (SPEC 13). */
#define OFFLINE(run) ((run) == cmd_keygen || (run) == cmd_verify_receipt)

struct command {
	const char *name;
	int (*run)(const struct invocation *);
	unsigned options;		/* enum option_bit allowed */
	int max_operands;		/* -1: any number */
	const char *usage;
	const char *summary;
};

static const struct command commands[] = {
	{ "review", tui_run, 0, 0, "review",
	    /* L10N: one-line summaries of the commands in --help, printed
	       after a 26-column usage column that is not translated (it is
	       what the user types): keep each short. */
	    N_("the review screens over the pending queue (the default)") },
	{ "import", cmd_import, OPTION_JSON, -1, "import [--json] PATH...",
	    N_("import files or directories of *.json / *.jsonl") },
	{ "list", cmd_list, OPTION_ALL | OPTION_JSON | OPTION_FILTER, 0,
	    "list [--all] [--json] [--filter EXPR]",
	    N_("the queue as a table, or JSON lines") },
	{ "check", cmd_check, 0, -1, "check [ACTION_ID...]",
	    N_("re-run the rules (all pending when none named), JSON lines") },
	{ "batch", cmd_batch, OPTION_ATOMIC, 1, "batch [FILE] [--atomic]",
	    N_("decisions from FILE or stdin, one JSON line each") },
	{ "audit", cmd_audit, OPTION_CSV | OPTION_CHECKPOINT | OPTION_SINCE |
	    OPTION_KEY | OPTION_SIZE, 2,
	    "audit verify [--checkpoint SEQ:HASH]",
	    N_("recompute the hash chain; exit 1 when broken") },
	{ "audit", cmd_audit, OPTION_CSV | OPTION_CHECKPOINT | OPTION_SINCE |
	    OPTION_KEY | OPTION_SIZE, 2,
	    "audit export [--csv [--since T] [--until T]]",
	    N_("the audit log as JSON lines, or CSV (one row per decision)") },
	{ "audit", cmd_audit, OPTION_CSV | OPTION_CHECKPOINT | OPTION_SINCE |
	    OPTION_KEY | OPTION_SIZE, 2,
	    "audit replay ACTION_ID",
	    N_("re-run a recorded decision's inputs with today's rules") },
	{ "audit", cmd_audit, OPTION_CSV | OPTION_CHECKPOINT | OPTION_SINCE |
	    OPTION_KEY | OPTION_SIZE, 2, "audit checkpoint [--size N]",
	    N_("the latest signed checkpoint, or the one of tree size N") },
	{ "audit", cmd_audit, OPTION_CSV | OPTION_CHECKPOINT | OPTION_SINCE |
	    OPTION_KEY | OPTION_SIZE, 2, "audit consistency NOTEFILE [--key PUBFILE...]",
	    N_("whether the log today extends that signed checkpoint") },
	{ "receipt", cmd_receipt, OPTION_OUTPUT, 1, "receipt ID [-o FILE]",
	    N_("the decision's receipt, verifiable offline (C2SP tlog-proof)") },
	{ "verify-receipt", cmd_verify_receipt, OPTION_KEY | OPTION_RECEIPT, 1,
	    "verify-receipt FILE --key PUBFILE...",
	    N_("check a receipt with public keys alone; JSON line when it holds") },
	{ "keygen", cmd_keygen, 0, 2, "keygen NAME PREFIX",
	    N_("a signing key PREFIX.key and its public key PREFIX.pub") },
	{ "demo", cmd_demo, 0, 0, "demo",
	    N_("the bundled demo data in a fresh temporary database") },
	{ "serve", cmd_serve, OPTION_SERVE, 0, "serve --socket PATH",
	    N_("the gate as a service for a shared host") },
	/* (v3) SPEC 12: for programs and the people who script them. */
	{ "status", cmd_status, 0, 1, "status ACTION_ID",
	    N_("an action's state and decision, as JSON") },
	{ "wait", cmd_wait, OPTION_TIMEOUT, 1, "wait ACTION_ID [--timeout S]",
	    N_("wait for a decision; exit 0 approved, 1 not, 5 timed out") },
	{ "events", cmd_events, OPTION_AFTER, 0,
	    "events [--after SEQ] [--follow]",
	    N_("the audit records after SEQ as JSON lines, then new ones") },
};

static void
usage(FILE *out)
{
	size_t i;

	/* L10N: keep "countersign", "--db", "PATH", "COMMAND" and "ARGS"
	   as they are: they are what is typed. */
	fprintf(out, _("Usage: countersign [--db PATH] COMMAND [ARGS]\n\n"
	    "The human approval gate for machine-reviewed actions.\n\n"
	    "Commands:\n"));
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-26s %s\n", commands[i].usage,
		    _(commands[i].summary));
	/* L10N: translate only the descriptions: the option names
	   (--db, --all, --json, --filter, --atomic, --csv, --since,
	   --until, --checkpoint, -h, --help, -V, --version), PATH, EXPR,
	   T, SEQ:HASH, $COUNTERSIGN_DB, the path and the filter example
	   stay as they are, and the descriptions start in column 19.  The
	   words before each colon ("list:", "batch:", "audit export:",
	   "audit verify:") are command words and stay too. */
	fprintf(out, _("\nOptions:\n"
	    "  --db PATH       the database (else $COUNTERSIGN_DB, else\n"
	    "                  $XDG_DATA_HOME/countersign/countersign.db,\n"
	    "                  else ~/.local/share/countersign/countersign.db)\n"
	    "  --all           list: include decided actions\n"
	    "  --json          list: JSON lines instead of a table; import:\n"
	    "                  a JSON line per object read\n"
	    "  --filter EXPR   list: only what the filter matches, e.g.\n"
	    "                  'kind:trade value>10000 expires<1d'\n"
	    "  --atomic        batch: record every line or none\n"
	    "  --csv           audit export: CSV, one row per decision\n"
	    "  --since T, --until T\n"
	    "                  audit export --csv: decided from T, before T\n"
	    "  --checkpoint SEQ:HASH\n"
	    "                  audit verify: also fail when that row left the chain\n"

	    "  -h, --help      this help\n"
	    "  -V, --version   the program version\n\n"
	    "Exit status: 0 success, 1 a check failed or a decision was refused,\n"
	    "2 usage error, 3 bad input data, 4 storage error.\n"));
	/* L10N: as the options above; SOCKET, GROUP and
	   $COUNTERSIGN_SOCKET stay too */
	fprintf(out, _("\nService mode (countersign(1), SERVICE MODE):\n"
	    "  --connect SOCKET\n"
	    "                  talk to a service (else $COUNTERSIGN_SOCKET)\n"
	    "  --socket PATH   serve: the Unix socket to listen on\n"
	    "  --officers GROUP\n"
	    "                  serve: who may read the queue and decide\n"
	    "  --importers GROUP\n"
	    "                  serve: who may import\n"
	    "  --checkpoint-file PATH\n"
	    "                  serve: append every audit head to PATH\n"));
	/* L10N: as the options above; GROUP, SECONDS and SEQ stay too */
	fprintf(out, _("  --readers GROUP serve: who may read the queue, the "
	    "log and statuses\n"
	    "  --timeout SECONDS\n"
	    "                  wait: give up after SECONDS (exit 5)\n"
	    "  --after SEQ     events: the records after SEQ (else all)\n"
	    "  --follow        events: go on with new records as they come\n"));
	/* L10N: as the options above; SECONDS and MIB stay too */
	fprintf(out, _("  --idle-timeout SECONDS\n"
	    "                  serve: close a connection idle that long "
	    "(300)\n"
	    "  --spool-limit MIB\n"
	    "                  serve: one account's uploads at once (256)\n"));
	/* L10N: as the options above; FILE, NAME, PUBFILE, ID, HEX and N
	   stay too */
	fprintf(out, _("\nThe signed log (countersign(1), SIGNED LOG):\n"
	    "  --signing-key FILE\n"
	    "                  serve: sign a checkpoint at every commit\n"
	    "  --log-name NAME serve: the log's name, set once\n"
	    "  --trusted-key PUBFILE\n"
	    "                  serve: another service's key of the same log\n"
	    "  --key PUBFILE   verify-receipt, audit verify|consistency: a\n"
	    "                  public key to check signatures with\n"
	    "  --action ID, --expect-sha256 HEX, --decision approve|reject\n"
	    "                  verify-receipt: what the receipt must say\n"
	    "  -o FILE         receipt: write it to a new FILE\n"
	    "  --size N        audit checkpoint: the one of tree size N\n"));
}

static const struct command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

/* Digits only, at most max: an option's count (--timeout, --after). */
static bool
whole_number(const char *text, long long max, long long *out)
{
	char *end;
	long long n;

	if (*text < '0' || *text > '9')
		return false;
	errno = 0;
	n = strtoll(text, &end, 10);
	if (errno != 0 || *end != '\0' || n > max)
		return false;
	*out = n;
	return true;
}

/* What parse_options() returns when the command line goes on to a command. */
#define OPTIONS_PARSED (-1)

/*
 * The options before and after the command word, into inv; given: the
 * option_bit of each that only some commands take.  OPTIONS_PARSED, or
 * the exit status when the program ends here (--help, --version, a
 * usage error, said on stderr).
 */
static int
parse_options(int argc, char **argv, struct invocation *inv, unsigned *given)
{
	static const struct option long_options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "atomic", no_argument, NULL, 't' },
		{ "csv", no_argument, NULL, 'c' },
		{ "checkpoint", required_argument, NULL, 'k' },
		{ "connect", required_argument, NULL, 'C' },
		{ "socket", required_argument, NULL, 'S' },
		{ "officers", required_argument, NULL, 'O' },
		{ "importers", required_argument, NULL, 'I' },
		{ "checkpoint-file", required_argument, NULL, 'F' },
		{ "readers", required_argument, NULL, 'R' },
		{ "idle-timeout", required_argument, NULL, 'e' },
		{ "spool-limit", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "after", required_argument, NULL, 'A' },
		{ "follow", no_argument, NULL, 'f' },
		{ "filter", required_argument, NULL, 'L' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "signing-key", required_argument, NULL, 'G' },
		{ "log-name", required_argument, NULL, 'W' },
		{ "trusted-key", required_argument, NULL, 'Y' },
		{ "key", required_argument, NULL, 'K' },
		{ "action", required_argument, NULL, 'N' },
		{ "expect-sha256", required_argument, NULL, 'E' },
		{ "decision", required_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char *safe;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "hVo:", long_options, NULL)) != -1) {
		switch (c) {
		case 'd':
			/*
			 * An empty path is a mistake (an unset variable in a
			 * script), not a request for the default database.
			 */
			if (*optarg == '\0') {
				/* L10N: keep --db: it is typed */
				fprintf(stderr, _("countersign: --db needs a "
				    "path\n"));
				fprintf(stderr, _("Try 'countersign --help'.\n"));
				return EXIT_USAGE;
			}
			inv->db_option = optarg;
			break;
		case 'a':
			inv->all = true;
			*given |= OPTION_ALL;
			break;
		case 'j':
			inv->json = true;
			*given |= OPTION_JSON;
			break;
		case 't':
			inv->atomic = true;
			*given |= OPTION_ATOMIC;
			break;
		case 'c':
			inv->csv = true;
			*given |= OPTION_CSV;
			break;
		case 'k':
			inv->checkpoint = optarg;
			*given |= OPTION_CHECKPOINT;
			break;
		case 'L':
			inv->filter = optarg;
			*given |= OPTION_FILTER;
			break;
		case 's':
			inv->since = optarg;
			*given |= OPTION_SINCE;
			break;
		case 'u':
			inv->until = optarg;
			*given |= OPTION_SINCE;
			break;
		case 'C':
			inv->connect = optarg;
			break;
		case 'S':
			inv->socket = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'O':
			inv->officers = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'I':
			inv->importers = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'F':
			inv->checkpoint_file = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'R':
			inv->readers = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'e':
		case 'p':
			/* serve's limits (countersign-protocol(7), LIMITS) */
			if (!whole_number(optarg, c == 'e' ? 86400 : 65536,
			    c == 'e' ? &inv->idle_timeout_s :
			    &inv->spool_limit_mib) || (c == 'e' ?
			    inv->idle_timeout_s : inv->spool_limit_mib) == 0) {
				safe = xsanitize(optarg);
				/* L10N: %1$s the option (--idle-timeout,
				   --spool-limit), %2$s what was typed */
				fprintf(stderr, _("countersign: %s needs a "
				    "positive whole number, not '%s'\n"),
				    c == 'e' ? "--idle-timeout" :
				    "--spool-limit", safe);
				free(safe);
				return EXIT_USAGE;
			}
			*given |= OPTION_SERVE;
			break;
		case 'T':
		case 'A':
			if (!whole_number(optarg, c == 'T' ?
			    WAIT_TIMEOUT_MAX_MS / 1000 : (1LL << 53),
			    c == 'T' ? &inv->timeout_s : &inv->after_seq)) {
				safe = xsanitize(optarg);
				/* L10N: %1$s the option (--timeout, --after),
				   %2$s what was typed */
				fprintf(stderr, _("countersign: %s needs a "
				    "whole number, not '%s'\n"), c == 'T' ?
				    "--timeout" : "--after", safe);
				free(safe);
				return EXIT_USAGE;
			}
			*given |= c == 'T' ? OPTION_TIMEOUT : OPTION_AFTER;
			break;
		case 'f':
			inv->follow = true;
			*given |= OPTION_AFTER;
			break;
		case 'G':
			inv->signing_key = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'W':
			inv->log_name = optarg;
			*given |= OPTION_SERVE;
			break;
		case 'Y':
		case 'K':
			if ((c == 'Y' ? inv->trusted_key_count :
			    inv->key_count) == 16) {
				fprintf(stderr, _("countersign: at most 16 "
				    "keys\n"));
				return EXIT_USAGE;
			}
			if (c == 'Y') {
				inv->trusted_keys[inv->trusted_key_count++] =
				    optarg;
				*given |= OPTION_SERVE;
			} else {
				inv->keys[inv->key_count++] = optarg;
				*given |= OPTION_KEY;
			}
			break;
		case 'N':
			inv->expect_action = optarg;
			*given |= OPTION_RECEIPT;
			break;
		case 'E':
			inv->expect_sha256 = optarg;
			*given |= OPTION_RECEIPT;
			break;
		case 'D':
			inv->expect_decision = optarg;
			*given |= OPTION_RECEIPT;
			break;
		case 'o':
			inv->output = optarg;
			*given |= OPTION_OUTPUT;
			break;
		case 'z': {
			char *end;

			errno = 0;
			inv->size = strtoll(optarg, &end, 10);
			if (optarg[0] < '0' || optarg[0] > '9' || *end != '\0' ||
			    errno != 0 || inv->size <= 0) {
				/* L10N: keep --size: it is typed */
				fprintf(stderr, _("countersign: --size takes a "
				    "tree size, a positive number\n"));
				return EXIT_USAGE;
			}
			*given |= OPTION_SIZE;
			break;
		}
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("countersign %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		default:
			/* What was typed is shown as every message shows
			   text: through the sanitizer. */
			safe = xsanitize(argv[optind - 1]);
			/* -d is no option at all, --db one without a value. */
			if (optopt != 0 && strchr("dkCSOIFRTALsuGWYKNEDozep", optopt) != NULL &&
			    strncmp(argv[optind - 1], "--", 2) == 0)
				/* L10N: %s is the option, e.g. --db */
				fprintf(stderr, _("countersign: %s needs a "
				    "value\n"), safe);
			else
				fprintf(stderr, _("countersign: unknown option "
				    "%s\n"), safe);
			free(safe);
			fprintf(stderr, _("Try 'countersign --help'.\n"));
			return EXIT_USAGE;
		}
	}
	if (inv->connect != NULL && inv->db_option != NULL) {
		/* L10N: keep --connect and --db: they are typed */
		fprintf(stderr, _("countersign: --connect and --db do not go "
		    "together\n"));
		return EXIT_USAGE;
	}
	return OPTIONS_PARSED;
}

/*
 * Whether the command line fits the command: the options it takes, how
 * many operands, and --connect only where the service runs it.
 * EXIT_OK, or EXIT_USAGE after saying why.
 */
static int
command_fits(const struct command *command, const struct invocation *inv,
    unsigned given)
{
	if ((given & ~command->options) != 0) {
		/* L10N: %1$s is a command word (e.g. list), %2$s its usage
		   line (e.g. "list [--all] [--json]"), both untranslated. */
		fprintf(stderr, _("countersign: an option given does not "
		    "apply to '%s'\nUsage: countersign %s\n"), command->name,
		    command->usage);
		return EXIT_USAGE;
	}
	if (command->max_operands >= 0 &&
	    inv->operand_count > command->max_operands) {
		fprintf(stderr, _("countersign: too many arguments\n"
		    "Usage: countersign %s\n"), command->usage);
		return EXIT_USAGE;
	}
	if (inv->connect != NULL && (command->run == cmd_serve ||
	    command->run == cmd_demo || OFFLINE(command->run) || (command->run == cmd_audit &&
	    inv->operand_count > 0 &&
	    strcmp(inv->operands[0], "consistency") == 0))) {
		/* L10N: %s is the command word (serve or demo) */
		fprintf(stderr, _("countersign: '%s' does not work through "
		    "--connect\n"), command->name);
		return EXIT_USAGE;
	}
	/*
	 * The protocol carries no --key (countersign-protocol(7)), and
	 * --size only as the checkpoint method's (SPEC 12).
	 */
	if (inv->connect != NULL && ((given & OPTION_KEY) != 0 ||
	    ((given & OPTION_SIZE) != 0 && (inv->operand_count == 0 ||
	    strcmp(inv->operands[0], "checkpoint") != 0)))) {
		/* L10N: keep --key, --size and --connect: they are typed */
		fprintf(stderr, _("countersign: --key and --size do not work "
		    "through --connect\n"));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct invocation inv;
	const struct command *command;
	unsigned given = 0;
	const char *localedir;
	char *safe;
	int status;

	/*
	 * Past a file size limit a write should fail (and be reported, exit
	 * 4, nothing recorded), not kill the process mid-transaction.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* The commands open the screens through this (commands.h). */
	review_screens = tui_run;
	store_library_init();
	setlocale(LC_ALL, "");
	/* Numbers in JSON and audit records never follow the locale. */
	setlocale(LC_NUMERIC, "C");
#if ENABLE_NLS
	/* A build tree's catalogues, for tests; else the installed ones. */
	localedir = getenv("COUNTERSIGN_LOCALEDIR");
	bindtextdomain(PACKAGE, localedir != NULL && *localedir != '\0' ?
	    localedir : LOCALEDIR);
	textdomain(PACKAGE);
#endif
	memset(&inv, 0, sizeof inv);
	inv.timeout_s = -1;
	if ((status = parse_options(argc, argv, &inv, &given)) !=
	    OPTIONS_PARSED)
		return status;
	/* Service mode (SPEC 10): --connect, else $COUNTERSIGN_SOCKET. */
	command = optind < argc ? find_command(argv[optind]) : NULL;
	if (inv.connect == NULL && inv.db_option == NULL && (command == NULL ||
	    (command->run != cmd_serve && command->run != cmd_demo &&
	    !OFFLINE(command->run))) &&
	    getenv("COUNTERSIGN_SOCKET") != NULL &&
	    *getenv("COUNTERSIGN_SOCKET") != '\0')
		inv.connect = getenv("COUNTERSIGN_SOCKET");
	if (optind >= argc)
		return given != 0 ? (fprintf(stderr, _("countersign: an "
		    "option given does not apply to the review screen\n")),
		    EXIT_USAGE) : inv.connect != NULL ?
		    client_run("review", &inv) : tui_run(&inv);
	if (command == NULL) {
		safe = xsanitize(argv[optind]);
		fprintf(stderr, _("countersign: unknown command '%s'\n"),
		    safe);
		free(safe);
		fprintf(stderr, _("Try 'countersign --help'.\n"));
		return EXIT_USAGE;
	}
	inv.operands = argv + optind + 1;
	inv.operand_count = argc - optind - 1;
	if ((status = command_fits(command, &inv, given)) != EXIT_OK)
		return status;
	if (inv.connect != NULL)
		return client_run(command->name, &inv);
	return command->run(&inv);
}
