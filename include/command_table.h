/*
 * The one table of countersign's commands (issue 38, after tmux's
 * cmd_entry): per command its word, usage, the options it takes, and
 * how the service runs it: the method, the role it needs and which
 * param carries each option.  main.c parses the command line from it,
 * the client builds its requests from it, and the service dispatches
 * and makes an invocation back from a request's params with it.
 * Adding an option is one entry in command_options[] and its bit in the
 * commands that take it.
 */
#ifndef COUNTERSIGN_COMMAND_TABLE_H
#define COUNTERSIGN_COMMAND_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "commands.h"

/* Every option of the command line, as an index of command_options[]. */
enum option_id {
	OPT_DB, OPT_CONNECT,
	OPT_ALL, OPT_JSON, OPT_FILTER, OPT_ATOMIC,
	OPT_CSV, OPT_SINCE, OPT_UNTIL, OPT_CHECKPOINT, OPT_SIZE, OPT_KEY,
	OPT_TIMEOUT, OPT_AFTER, OPT_FOLLOW,
	OPT_OUTPUT, OPT_EXPECT_ACTION, OPT_EXPECT_SHA256, OPT_EXPECT_DECISION,
	OPT_SOCKET, OPT_OFFICERS, OPT_IMPORTERS, OPT_READERS,
	OPT_CHECKPOINT_FILE, OPT_IDLE_TIMEOUT, OPT_SPOOL_LIMIT,
	OPT_SIGNING_KEY, OPT_LOG_NAME, OPT_TRUSTED_KEY,
	OPT_HELP, OPT_VERSION,
	OPTION_COUNT
};

#define OPTION_BIT(id) ((uint64_t)1 << (id))

/* How an option's value is read into the invocation. */
enum option_kind {
	VALUE_NONE,		/* a bool set true (--all) */
	VALUE_TEXT,		/* a string kept as typed (--filter EXPR) */
	VALUE_COUNT,		/* a whole number, 0 to max (--timeout) */
	VALUE_POSITIVE,		/* a whole number, 1 to max (--size) */
	VALUE_LIST,		/* a string each time it is given, up to 16 */
	VALUE_ACTION		/* no invocation field: main.c acts (--help) */
};

/*
 * What carries an option through the service (countersign-protocol(7)),
 * for the commands whose entry lists it in remote.
 */
enum option_carrier {
	CARRIED_NOT,		/* nothing: refused through --connect */
	CARRIED_PARAM,		/* params[param], of the option's type */
	CARRIED_BY_CLIENT,	/* the client acts on it (-o, --follow) */
	CARRIED_GLOBAL		/* any command's: the store, the service, help */
};

struct command_option {
	const char *name;		/* the long name, without "--" */
	char short_name;		/* e.g. 'o' for -o, or 0 */
	enum option_kind kind;
	size_t field;			/* offsetof(struct invocation, ...) */
	size_t count_field;		/* VALUE_LIST: the int that counts */
	long long max;			/* VALUE_COUNT, VALUE_POSITIVE */
	const char *bad_value;		/* N_(): its own complaint, or NULL */
	enum option_carrier carrier;
	const char *param;		/* CARRIED_PARAM: the params key */
	long long scale;		/* a number's param: value * scale */
	bool param_required;		/* sent even when not given, as ... */
	long long param_default;	/* ... this */
};

extern const struct command_option command_options[OPTION_COUNT];

/* Who may call a method: see check_role() (serve_request.c). */
enum method_role { ROLE_OFFICER, ROLE_IMPORTER, ROLE_READER, ROLE_ANY };

/* How a command's operands travel in the request. */
enum operand_carrier {
	OPERANDS_NONE,		/* none, or only the word that chose the entry */
	OPERANDS_ARRAY,		/* params.operands, the strings as typed */
	OPERANDS_ACTION_ID,	/* params.action_id, the one operand */
	OPERANDS_FILES,		/* import: read here, uploaded; operands and
				   sizes name them */
	OPERANDS_STDIN		/* batch: FILE or stdin read here, uploaded */
};

enum method_flag {
	METHOD_TERMINAL = 1 << 0,	/* review: the terminal, term, no_color */
	METHOD_PROGRAM = 1 << 1,	/* params of its own, a JSON result */
	METHOD_IN_LOOP = 1 << 2		/* answered by the loop, no child */
};

struct command_entry {
	const char *name;	/* the command word; NULL: programs only */
	const char *sub;	/* the first operand that picks it, or NULL */
	const char *usage;	/* what is typed, untranslated */
	const char *summary;	/* --help's line (N_()); NULL: not listed */
	int (*run)(const struct invocation *);	/* NULL: none of its own */
	uint64_t options;	/* OPTION_BIT()s it takes */
	uint64_t needs;		/* ... that must be given to pick it */
	uint64_t remote;	/* ... that go through the service */
	int max_operands;	/* -1: any number */
	/* Through the service; method NULL: never through --connect. */
	const char *method;
	enum method_role role;
	unsigned method_flags;	/* enum method_flag */
	enum operand_carrier operands;
};

extern const struct command_entry command_table[];
extern const size_t command_table_size;

/* The option of that long name, or of that short one; NULL if none. */
const struct command_option *command_option_named(const char *name);
const struct command_option *command_option_short(char short_name);
/* The option whose param is key, among all; NULL if none. */
const struct command_option *command_option_of_param(const char *key);

/*
 * The entry for a command word: the first whose sub is operand0 (or
 * NULL) and whose needs are all in given; NULL for no such command.
 */
const struct command_entry *command_find(const char *name,
    const char *operand0, uint64_t given);
/* Whether some entry of that word goes through the service. */
bool command_has_method(const char *name);
/* The entry of a service method; NULL when there is none. */
const struct command_entry *command_of_method(const char *method);

/*
 * The first option in given that the entry's method cannot carry; -1
 * when every one can.
 */
int command_uncarried_option(const struct command_entry *, uint64_t given);

/*
 * Stores one option's value (what was typed) in inv and its bit in
 * inv->given: 0, or -1 with a message in why for the user (translated).
 */
int command_option_set(const struct command_option *, const char *value,
    struct invocation *inv, char *why, size_t why_size);

/* The params for the entry's method from inv: what the client sends. */
cJSON *command_params(const struct command_entry *,
    const struct invocation *inv);
/*
 * Whether key is a param the entry's method takes for an option or its
 * action: what a program method's params may hold (serve_programs.c).
 */
bool command_param_known(const struct command_entry *, const char *key);
/*
 * Back, one member of a request's params: an option's param into inv,
 * with its bit in inv->given.  0 when set; 1 when key is no option's
 * param (the caller's: operands, the locale, ...); -1, the reason in
 * why, when the method takes no such option or the type is wrong.
 */
int command_param_to_option(const struct command_entry *, const char *key,
    const cJSON *value, struct invocation *inv, char *why, size_t why_size);

#endif
