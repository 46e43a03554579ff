/* countersign: command line parsing and dispatch (SPEC section 7). */
#include "config.h"

#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "i18n.h"

enum option_bit {
	OPTION_ALL = 1 << 0,
	OPTION_JSON = 1 << 1
};

struct command {
	const char *name;
	int (*run)(const struct invocation *);
	unsigned options;		/* enum option_bit allowed */
	int max_operands;		/* -1: any number */
	const char *usage;
	const char *summary;
};

static const struct command commands[] = {
	{ "import", cmd_import, 0, -1, "import PATH...",
	    N_("import files or directories of *.json / *.jsonl") },
	{ "list", cmd_list, OPTION_ALL | OPTION_JSON, 0, "list [--all] [--json]",
	    N_("the queue as a table, or JSON lines") },
	{ "check", cmd_check, 0, -1, "check [ACTION_ID...]",
	    N_("re-run the rules (all pending when none named), JSON lines") },
	{ "demo", cmd_demo, 0, 0, "demo",
	    N_("the bundled demo data in a fresh temporary database") },
};

static void
usage(FILE *out)
{
	size_t i;

	fprintf(out, _("Usage: countersign [--db PATH] COMMAND [ARGS]\n\n"
	    "The human approval gate for machine-reviewed actions.\n\n"
	    "Commands:\n"));
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-26s %s\n", commands[i].usage,
		    _(commands[i].summary));
	fprintf(out, _("\nOptions:\n"
	    "  --db PATH       the database (else $COUNTERSIGN_DB, else\n"
	    "                  $XDG_DATA_HOME/countersign/countersign.db)\n"
	    "  --all           list: include decided actions\n"
	    "  --json          list: JSON lines instead of a table\n"
	    "  -h, --help      this help\n"
	    "  -V, --version   the program version\n\n"
	    "Exit status: 0 success, 1 a check failed or a decision was refused,\n"
	    "2 usage error, 3 bad input data, 4 storage error.\n"));
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

int
main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct invocation inv;
	const struct command *command;
	unsigned given = 0;
	int c;

	setlocale(LC_ALL, "");
	/* Numbers in JSON and audit records never follow the locale. */
	setlocale(LC_NUMERIC, "C");
#if ENABLE_NLS
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif
	memset(&inv, 0, sizeof inv);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hV", long_options, NULL)) != -1) {
		switch (c) {
		case 'd':
			inv.db_option = optarg;
			break;
		case 'a':
			inv.all = true;
			given |= OPTION_ALL;
			break;
		case 'j':
			inv.json = true;
			given |= OPTION_JSON;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("countersign %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		default:
			if (optopt == 'd')
				fprintf(stderr, _("countersign: --db needs a "
				    "PATH\n"));
			else
				fprintf(stderr, _("countersign: unknown option "
				    "%s\n"), argv[optind - 1]);
			fprintf(stderr, _("Try 'countersign --help'.\n"));
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, _("countersign: the review screen is not "
		    "available yet; use list, check or import\n"));
		fprintf(stderr, _("Try 'countersign --help'.\n"));
		return EXIT_USAGE;
	}
	command = find_command(argv[optind]);
	if (command == NULL) {
		fprintf(stderr, _("countersign: unknown command '%s'\n"),
		    argv[optind]);
		fprintf(stderr, _("Try 'countersign --help'.\n"));
		return EXIT_USAGE;
	}
	if ((given & ~command->options) != 0) {
		fprintf(stderr, _("countersign: an option given does not "
		    "apply to '%s'\nUsage: countersign %s\n"), command->name,
		    command->usage);
		return EXIT_USAGE;
	}
	inv.operands = argv + optind + 1;
	inv.operand_count = argc - optind - 1;
	if (command->max_operands >= 0 &&
	    inv.operand_count > command->max_operands) {
		fprintf(stderr, _("countersign: too many arguments\n"
		    "Usage: countersign %s\n"), command->usage);
		return EXIT_USAGE;
	}
	return command->run(&inv);
}
