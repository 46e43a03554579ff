/*
 * countersign: command line parsing and dispatch (countersign(1) COMMANDS,
 * OPTIONS).
 */
#include "config.h"

#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_table.h"
#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"
#include "sanitize.h"
#include "service.h"
#include "store.h"
#include "tui/tui.h"
#include "xmalloc.h"

static void
usage(FILE *out)
{
	size_t i;

	/* L10N: keep "countersign", "--db", "PATH", "COMMAND" and "ARGS"
	   as they are: they are what is typed. */
	fprintf(out, _("Usage: countersign [--db PATH] COMMAND [ARGS]\n\n"
	    "The human approval gate for machine-reviewed actions.\n\n"
	    "Commands:\n"));
	for (i = 0; i < command_table_size; i++)
		if (command_table[i].summary != NULL)
			fprintf(out, "  %-26s %s\n", command_table[i].usage,
			    _(command_table[i].summary));
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

/* What parse_options() returns when the command line goes on to a command. */
#define OPTIONS_PARSED (-1)
/* getopt_long's value for command_options[id]: past every character. */
#define OPTION_VALUE(id) (256 + (id))

/*
 * The options before and after the command word, into inv, each as
 * command_options[] says.  OPTIONS_PARSED, or the exit status when the
 * program ends here (--help, --version, a usage error, said on stderr).
 */
static int
parse_options(int argc, char **argv, struct invocation *inv)
{
	struct option long_options[OPTION_COUNT + 1];
	char short_options[2 * OPTION_COUNT + 1], why[512];
	const struct command_option *o;
	size_t n = 0;
	char *safe;
	int c, id;

	memset(long_options, 0, sizeof long_options);
	for (id = 0; id < OPTION_COUNT; id++) {
		o = &command_options[id];
		long_options[id].name = o->name;
		long_options[id].has_arg = o->kind == VALUE_NONE ||
		    o->kind == VALUE_ACTION ? no_argument : required_argument;
		long_options[id].val = OPTION_VALUE(id);
		if (o->short_name != 0) {
			short_options[n++] = o->short_name;
			if (long_options[id].has_arg == required_argument)
				short_options[n++] = ':';
		}
	}
	short_options[n] = '\0';
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options,
	    NULL)) != -1) {
		o = c >= OPTION_VALUE(0) && c < OPTION_VALUE(OPTION_COUNT) ?
		    &command_options[c - OPTION_VALUE(0)] : c != '?' ?
		    command_option_short((char)c) : NULL;
		if (o == &command_options[OPT_HELP]) {
			usage(stdout);
			return EXIT_OK;
		}
		if (o == &command_options[OPT_VERSION]) {
			printf("countersign %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		}
		/*
		 * An empty path is a mistake (an unset variable in a
		 * script), not a request for the default database.
		 */
		if (o == &command_options[OPT_DB] && *optarg == '\0') {
			/* L10N: keep --db: it is typed */
			fprintf(stderr, _("countersign: --db needs a path\n"));
			fprintf(stderr, _("Try 'countersign --help'.\n"));
			return EXIT_USAGE;
		}
		if (o != NULL) {
			if (command_option_set(o, optarg, inv, why,
			    sizeof why) != 0) {
				fputs(why, stderr);
				return EXIT_USAGE;
			}
			continue;
		}
		/* What was typed is shown as every message shows text:
		   through the sanitizer. */
		safe = xsanitize(argv[optind - 1]);
		o = optopt >= OPTION_VALUE(0) && optopt <
		    OPTION_VALUE(OPTION_COUNT) ? &command_options[optopt -
		    OPTION_VALUE(0)] : command_option_short((char)optopt);
		/* -d is no option at all, --db one without a value. */
		if (o != NULL && o->kind != VALUE_NONE && o->kind !=
		    VALUE_ACTION)
			/* L10N: %s is the option, e.g. --db */
			fprintf(stderr, _("countersign: %s needs a value\n"),
			    safe);
		else
			fprintf(stderr, _("countersign: unknown option %s\n"),
			    safe);
		free(safe);
		fprintf(stderr, _("Try 'countersign --help'.\n"));
		return EXIT_USAGE;
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
command_fits(const struct command_entry *command,
    const struct invocation *inv)
{
	int uncarried;

	if ((inv->given & ~command->options) != 0) {
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
	if (inv->connect == NULL)
		return EXIT_OK;
	if (command->method == NULL) {
		/* L10N: %s is the command word (serve or demo) */
		fprintf(stderr, _("countersign: '%s' does not work through "
		    "--connect\n"), command->name);
		return EXIT_USAGE;
	}
	/* The protocol carries no --key (countersign-protocol(7)), and
	   --size only as the checkpoint method's (SPEC 12). */
	if ((uncarried = command_uncarried_option(command, inv->given)) >= 0) {
		/* L10N: %s is the option (e.g. --key), as typed; keep
		   --connect */
		fprintf(stderr, _("countersign: --%s does not work through "
		    "--connect\n"), command_options[uncarried].name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int
main(int argc, char **argv)
{
	struct invocation inv;
	const struct command_entry *command;
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
	if ((status = parse_options(argc, argv, &inv)) != OPTIONS_PARSED)
		return status;
	/* Service mode (SPEC 10): --connect, else $COUNTERSIGN_SOCKET. */
	command = optind < argc ? command_find(argv[optind], optind + 1 < argc ?
	    argv[optind + 1] : NULL, inv.given) : NULL;
	if (inv.connect == NULL && inv.db_option == NULL && (command == NULL ||
	    command_has_method(command->name)) &&
	    getenv("COUNTERSIGN_SOCKET") != NULL &&
	    *getenv("COUNTERSIGN_SOCKET") != '\0')
		inv.connect = getenv("COUNTERSIGN_SOCKET");
	if (optind >= argc)
		return inv.given != 0 ? (fprintf(stderr, _("countersign: an "
		    "option given does not apply to the review screen\n")),
		    EXIT_USAGE) : inv.connect != NULL ?
		    client_run(command_find("review", NULL, 0), &inv) :
		    tui_run(&inv);
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
	if ((status = command_fits(command, &inv)) != EXIT_OK)
		return status;
	if (inv.connect != NULL)
		return client_run(command, &inv);
	return command->run(&inv);
}
