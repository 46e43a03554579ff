/*
 * The command table (include/command_table.h): every option once, and
 * per command the options it takes and how the service runs it.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_log.h"
#include "command_table.h"
#include "i18n.h"
#include "programs.h"
#include "sanitize.h"
#include "service.h"
#include "xmalloc.h"

#define FIELD(member) offsetof(struct invocation, member)

/* One option's entry: NAME, short letter, kind, field, carrier, param. */
#define FLAG(name, member, carrier, param) \
	{ name, 0, VALUE_NONE, FIELD(member), 0, 0, NULL, carrier, param, \
	    0, false, 0 }
#define TEXT(name, member, carrier, param) \
	{ name, 0, VALUE_TEXT, FIELD(member), 0, 0, NULL, carrier, param, \
	    0, false, 0 }

const struct command_option command_options[OPTION_COUNT] = {
	[OPT_DB] = TEXT("db", db_option, CARRIED_GLOBAL, NULL),
	[OPT_CONNECT] = TEXT("connect", connect, CARRIED_GLOBAL, NULL),
	[OPT_ALL] = FLAG("all", all, CARRIED_PARAM, "all"),
	[OPT_JSON] = FLAG("json", json, CARRIED_PARAM, "json"),
	[OPT_FILTER] = TEXT("filter", filter, CARRIED_PARAM, "filter"),
	[OPT_ATOMIC] = FLAG("atomic", atomic, CARRIED_PARAM, "atomic"),
	[OPT_CSV] = FLAG("csv", csv, CARRIED_PARAM, "csv"),
	[OPT_SINCE] = TEXT("since", since, CARRIED_PARAM, "since"),
	[OPT_UNTIL] = TEXT("until", until, CARRIED_PARAM, "until"),
	[OPT_CHECKPOINT] = TEXT("checkpoint", checkpoint, CARRIED_PARAM,
	    "checkpoint"),
	[OPT_SIZE] = { "size", 0, VALUE_POSITIVE, FIELD(size), 0, LLONG_MAX,
	    /* L10N: keep --size: it is typed */
	    N_("countersign: --size takes a tree size, a positive number\n"),
	    CARRIED_PARAM, "size", 1, false, 0 },
	[OPT_KEY] = { "key", 0, VALUE_LIST, FIELD(keys), FIELD(key_count), 0,
	    NULL, CARRIED_NOT, NULL, 0, false, 0 },
	/* wait's timeout_ms and events' after_seq are required params. */
	[OPT_TIMEOUT] = { "timeout", 0, VALUE_COUNT, FIELD(timeout_s), 0,
	    WAIT_TIMEOUT_MAX_MS / 1000, NULL, CARRIED_PARAM, "timeout_ms",
	    1000, true, WAIT_TIMEOUT_MAX_MS },
	[OPT_AFTER] = { "after", 0, VALUE_COUNT, FIELD(after_seq), 0,
	    1LL << 53, NULL, CARRIED_PARAM, "after_seq", 1, true, 0 },
	[OPT_FOLLOW] = FLAG("follow", follow, CARRIED_BY_CLIENT, NULL),
	/* receipt -o: the officer writes the file, never the service. */
	[OPT_OUTPUT] = { "output", 'o', VALUE_TEXT, FIELD(output), 0, 0,
	    NULL, CARRIED_BY_CLIENT, NULL, 0, false, 0 },
	[OPT_EXPECT_ACTION] = TEXT("action", expect_action, CARRIED_NOT, NULL),
	[OPT_EXPECT_SHA256] = TEXT("expect-sha256", expect_sha256,
	    CARRIED_NOT, NULL),
	[OPT_EXPECT_DECISION] = TEXT("decision", expect_decision, CARRIED_NOT,
	    NULL),
	[OPT_SOCKET] = TEXT("socket", socket, CARRIED_NOT, NULL),
	[OPT_OFFICERS] = TEXT("officers", officers, CARRIED_NOT, NULL),
	[OPT_IMPORTERS] = TEXT("importers", importers, CARRIED_NOT, NULL),
	[OPT_READERS] = TEXT("readers", readers, CARRIED_NOT, NULL),
	[OPT_CHECKPOINT_FILE] = TEXT("checkpoint-file", checkpoint_file,
	    CARRIED_NOT, NULL),
	/* serve's limits (countersign-protocol(7), LIMITS) */
	[OPT_IDLE_TIMEOUT] = { "idle-timeout", 0, VALUE_POSITIVE,
	    FIELD(idle_timeout_s), 0, 86400, NULL, CARRIED_NOT, NULL, 0, false,
	    0 },
	[OPT_SPOOL_LIMIT] = { "spool-limit", 0, VALUE_POSITIVE,
	    FIELD(spool_limit_mib), 0, 65536, NULL, CARRIED_NOT, NULL, 0,
	    false, 0 },
	[OPT_SIGNING_KEY] = TEXT("signing-key", signing_key, CARRIED_NOT,
	    NULL),
	[OPT_LOG_NAME] = TEXT("log-name", log_name, CARRIED_NOT, NULL),
	[OPT_TRUSTED_KEY] = { "trusted-key", 0, VALUE_LIST,
	    FIELD(trusted_keys), FIELD(trusted_key_count), 0, NULL,
	    CARRIED_NOT, NULL, 0, false, 0 },
	[OPT_HELP] = { "help", 'h', VALUE_ACTION, 0, 0, 0, NULL,
	    CARRIED_GLOBAL, NULL, 0, false, 0 },
	[OPT_VERSION] = { "version", 'V', VALUE_ACTION, 0, 0, 0, NULL,
	    CARRIED_GLOBAL, NULL, 0, false, 0 },
};

#define B(id) OPTION_BIT(OPT_##id)
/* cmd_audit() sorts out which of these its verb takes (audit_usage_wrong). */
#define AUDIT_OPTIONS (B(CSV) | B(CHECKPOINT) | B(SINCE) | B(UNTIL) | \
	B(KEY) | B(SIZE))
/* What the audit method carries, whichever verb. */
#define AUDIT_REMOTE (B(CSV) | B(CHECKPOINT) | B(SINCE) | B(UNTIL))
#define SERVE_OPTIONS (B(SOCKET) | B(OFFICERS) | B(IMPORTERS) | B(READERS) | \
	B(CHECKPOINT_FILE) | B(IDLE_TIMEOUT) | B(SPOOL_LIMIT) | \
	B(SIGNING_KEY) | B(LOG_NAME) | B(TRUSTED_KEY))
#define PROGRAM_METHOD (METHOD_PROGRAM | METHOD_IN_LOOP)
/* An audit verb's entry, run through the audit method. */
#define AUDIT(sub, usage, summary) \
	{ "audit", sub, usage, summary, cmd_audit, AUDIT_OPTIONS, 0, \
	    AUDIT_REMOTE, 2, "audit", ROLE_READER, 0, OPERANDS_ARRAY }

/*
 * In --help's order.  An entry with no summary is a variant --help
 * does not list: the first entry that fits a command line is the one.
 */
const struct command_entry command_table[] = {
	{ "review", NULL, "review",
	    /* L10N: one-line summaries of the commands in --help, printed
	       after a 26-column usage column that is not translated (it is
	       what the user types): keep each short. */
	    N_("the review screens over the pending queue (the default)"),
	    review_run, 0, 0, 0, 0,
	    "review", ROLE_OFFICER, METHOD_TERMINAL, OPERANDS_NONE },
	{ "import", NULL, "import [--json] PATH...",
	    N_("import files or directories of *.json / *.jsonl"),
	    cmd_import, B(JSON), 0, B(JSON), -1,
	    "import", ROLE_IMPORTER, 0, OPERANDS_FILES },
	{ "list", NULL, "list [--all] [--json] [--filter EXPR]",
	    N_("the queue as a table, or JSON lines"),
	    cmd_list, B(ALL) | B(JSON) | B(FILTER), 0,
	    B(ALL) | B(JSON) | B(FILTER), 0,
	    "list", ROLE_READER, 0, OPERANDS_ARRAY },
	{ "check", NULL, "check [ACTION_ID...]",
	    N_("re-run the rules (all pending when none named), JSON lines"),
	    cmd_check, 0, 0, 0, -1,
	    "check", ROLE_READER, 0, OPERANDS_ARRAY },
	{ "batch", NULL, "batch [FILE] [--atomic]",
	    N_("decisions from FILE or stdin, one JSON line each"),
	    cmd_batch, B(ATOMIC), 0, B(ATOMIC), 1,
	    "batch", ROLE_OFFICER, 0, OPERANDS_STDIN },
	AUDIT("verify", "audit verify [--checkpoint SEQ:HASH]",
	    N_("recompute the hash chain; exit 1 when broken")),
	AUDIT("export", "audit export [--csv [--since T] [--until T]]",
	    N_("the audit log as JSON lines, or CSV (one row per decision)")),
	AUDIT("replay", "audit replay ACTION_ID",
	    N_("re-run a recorded decision's inputs with today's rules")),
	/* With --size, through the service: the checkpoint method. */
	{ "audit", "checkpoint", "audit checkpoint [--size N]", NULL,
	    cmd_audit, AUDIT_OPTIONS, B(SIZE), B(SIZE), 2,
	    "checkpoint", ROLE_ANY, PROGRAM_METHOD, OPERANDS_NONE },
	AUDIT("checkpoint", "audit checkpoint [--size N]",
	    N_("the latest signed checkpoint, or the one of tree size N")),
	/* Its NOTEFILE is a path: the service never opens a client's paths. */
	{ "audit", "consistency",
	    "audit consistency NOTEFILE [--key PUBFILE...]",
	    N_("whether the log today extends that signed checkpoint"),
	    cmd_audit, AUDIT_OPTIONS, 0, 0, 2,
	    NULL, ROLE_READER, 0, OPERANDS_NONE },
	/* No verb or another: cmd_audit() says what it takes. */
	AUDIT(NULL, "audit verify|export|replay|checkpoint|consistency ...",
	    NULL),
	{ "receipt", NULL, "receipt ID [-o FILE]",
	    N_("the decision's receipt, verifiable offline (C2SP tlog-proof)"),
	    cmd_receipt, B(OUTPUT), 0, B(OUTPUT), 1,
	    "receipt", ROLE_ANY, PROGRAM_METHOD, OPERANDS_ACTION_ID },
	{ "verify-receipt", NULL, "verify-receipt FILE --key PUBFILE...",
	    N_("check a receipt with public keys alone; JSON line when it "
	    "holds"),
	    cmd_verify_receipt, B(KEY) | B(EXPECT_ACTION) | B(EXPECT_SHA256) |
	    B(EXPECT_DECISION), 0, 0, 1,
	    NULL, ROLE_ANY, 0, OPERANDS_NONE },
	{ "keygen", NULL, "keygen NAME PREFIX",
	    N_("a signing key PREFIX.key and its public key PREFIX.pub"),
	    cmd_keygen, 0, 0, 0, 2,
	    NULL, ROLE_ANY, 0, OPERANDS_NONE },
	{ "demo", NULL, "demo",
	    N_("the bundled demo data in a fresh temporary database"),
	    cmd_demo, 0, 0, 0, 0,
	    NULL, ROLE_ANY, 0, OPERANDS_NONE },
	{ "serve", NULL, "serve --socket PATH",
	    N_("the gate as a service for a shared host"),
	    cmd_serve, SERVE_OPTIONS, 0, 0, 0,
	    NULL, ROLE_ANY, 0, OPERANDS_NONE },
	/* (v3) SPEC 12: for programs and the people who script them. */
	{ "status", NULL, "status ACTION_ID",
	    N_("an action's state and decision, as JSON"),
	    cmd_status, 0, 0, 0, 1,
	    "status", ROLE_ANY, PROGRAM_METHOD, OPERANDS_ACTION_ID },
	{ "wait", NULL, "wait ACTION_ID [--timeout S]",
	    N_("wait for a decision; exit 0 approved, 1 not, 5 timed out"),
	    cmd_wait, B(TIMEOUT), 0, B(TIMEOUT), 1,
	    "wait", ROLE_ANY, PROGRAM_METHOD, OPERANDS_ACTION_ID },
	{ "events", NULL, "events [--after SEQ] [--follow]",
	    N_("the audit records after SEQ as JSON lines, then new ones"),
	    cmd_events, B(AFTER) | B(FOLLOW), 0, B(AFTER) | B(FOLLOW), 0,
	    "events", ROLE_ANY, PROGRAM_METHOD, OPERANDS_NONE },
	/* Programs alone submit (SPEC 12): its params are its own. */
	{ NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0,
	    "submit", ROLE_IMPORTER, METHOD_PROGRAM, OPERANDS_NONE },
};
const size_t command_table_size = sizeof command_table /
    sizeof command_table[0];

const struct command_option *
command_option_named(const char *name)
{
	size_t i;

	for (i = 0; i < OPTION_COUNT; i++)
		if (strcmp(command_options[i].name, name) == 0)
			return &command_options[i];
	return NULL;
}

const struct command_option *
command_option_short(char short_name)
{
	size_t i;

	for (i = 0; short_name != 0 && i < OPTION_COUNT; i++)
		if (command_options[i].short_name == short_name)
			return &command_options[i];
	return NULL;
}

const struct command_option *
command_option_of_param(const char *key)
{
	size_t i;

	for (i = 0; i < OPTION_COUNT; i++)
		if (command_options[i].param != NULL &&
		    strcmp(command_options[i].param, key) == 0)
			return &command_options[i];
	return NULL;
}

const struct command_entry *
command_find(const char *name, const char *operand0, uint64_t given)
{
	const struct command_entry *e;
	size_t i;

	for (i = 0; i < command_table_size; i++) {
		e = &command_table[i];
		if (e->name == NULL || strcmp(e->name, name) != 0 ||
		    (e->needs & ~given) != 0)
			continue;
		if (e->sub == NULL || (operand0 != NULL &&
		    strcmp(e->sub, operand0) == 0))
			return e;
	}
	return NULL;
}

bool
command_has_method(const char *name)
{
	size_t i;

	for (i = 0; i < command_table_size; i++)
		if (command_table[i].name != NULL && command_table[i].method !=
		    NULL && strcmp(command_table[i].name, name) == 0)
			return true;
	return false;
}

const struct command_entry *
command_of_method(const char *method)
{
	size_t i;

	for (i = 0; i < command_table_size; i++)
		if (command_table[i].method != NULL &&
		    strcmp(command_table[i].method, method) == 0)
			return &command_table[i];
	return NULL;
}

int
command_uncarried_option(const struct command_entry *e, uint64_t given)
{
	int id;

	for (id = 0; id < OPTION_COUNT; id++)
		if ((given & OPTION_BIT(id)) != 0 &&
		    command_options[id].carrier != CARRIED_GLOBAL &&
		    (e->method == NULL || (e->remote & OPTION_BIT(id)) == 0))
			return id;
	return -1;
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

/* Why value is not the number option o takes: the message to print. */
static void
bad_number(const struct command_option *o, const char *value, char *why,
    size_t why_size)
{
	char dashed[40], *safe = xsanitize(value);

	snprintf(dashed, sizeof dashed, "--%s", o->name);
	if (o->bad_value != NULL)
		snprintf(why, why_size, "%s", _(o->bad_value));
	else if (o->kind == VALUE_COUNT)
		/* L10N: %1$s the option (--timeout, --after), %2$s what was
		   typed */
		snprintf(why, why_size, _("countersign: %s needs a whole "
		    "number, not '%s'\n"), dashed, safe);
	else
		/* L10N: %1$s the option (--idle-timeout, --spool-limit),
		   %2$s what was typed */
		snprintf(why, why_size, _("countersign: %s needs a positive "
		    "whole number, not '%s'\n"), dashed, safe);
	free(safe);
}

int
command_option_set(const struct command_option *o, const char *value,
    struct invocation *inv, char *why, size_t why_size)
{
	char *at = (char *)inv + o->field;
	long long n;
	int *count;

	switch (o->kind) {
	case VALUE_NONE:
		*(bool *)(void *)at = true;
		break;
	case VALUE_TEXT:
		*(const char **)(void *)at = value;
		break;
	case VALUE_COUNT:
	case VALUE_POSITIVE:
		if (!whole_number(value, o->max, &n) || (o->kind ==
		    VALUE_POSITIVE && n == 0)) {
			bad_number(o, value, why, why_size);
			return -1;
		}
		*(long long *)(void *)at = n;
		break;
	case VALUE_LIST:
		count = (int *)(void *)((char *)inv + o->count_field);
		if (*count == 16) {
			snprintf(why, why_size, "%s", _("countersign: at most "
			    "16 keys\n"));
			return -1;
		}
		((const char **)(void *)at)[(*count)++] = value;
		break;
	case VALUE_ACTION:
		break;
	}
	if (o->carrier != CARRIED_GLOBAL)
		inv->given |= OPTION_BIT(o - command_options);
	return 0;
}

/* The param an option's value makes: true, its text, or a number. */
static void
add_param(cJSON *params, const struct command_option *o,
    const struct invocation *inv, bool given)
{
	const char *at = (const char *)inv + o->field;

	if (o->kind == VALUE_NONE)
		cJSON_AddBoolToObject(params, o->param, true);
	else if (o->kind == VALUE_TEXT)
		cJSON_AddStringToObject(params, o->param,
		    *(const char *const *)(const void *)at);
	else
		cJSON_AddNumberToObject(params, o->param, (double)(given ?
		    *(const long long *)(const void *)at * o->scale :
		    o->param_default));
}

cJSON *
command_params(const struct command_entry *e, const struct invocation *inv)
{
	cJSON *params = cJSON_CreateObject(), *operands;
	const struct command_option *o;
	bool given;
	int id, i;

	if (params == NULL)
		return NULL;
	for (id = 0; id < OPTION_COUNT; id++) {
		o = &command_options[id];
		given = (inv->given & OPTION_BIT(id)) != 0;
		if ((e->remote & OPTION_BIT(id)) == 0 ||
		    o->carrier != CARRIED_PARAM || (!given &&
		    !o->param_required))
			continue;
		add_param(params, o, inv, given);
	}
	if (e->operands == OPERANDS_ACTION_ID && inv->operand_count > 0)
		cJSON_AddStringToObject(params, "action_id", inv->operands[0]);
	else if (e->operands == OPERANDS_ARRAY) {
		operands = cJSON_AddArrayToObject(params, "operands");
		for (i = 0; i < inv->operand_count; i++)
			cJSON_AddItemToArray(operands,
			    cJSON_CreateString(inv->operands[i]));
	}
	return params;
}

bool
command_param_known(const struct command_entry *e, const char *key)
{
	const struct command_option *o = command_option_of_param(key);

	if (e->operands == OPERANDS_ACTION_ID && strcmp(key, "action_id") == 0)
		return true;
	return o != NULL && (e->remote & OPTION_BIT(o - command_options)) != 0;
}

int
command_param_to_option(const struct command_entry *e, const char *key,
    const cJSON *value, struct invocation *inv, char *why, size_t why_size)
{
	const struct command_option *o = command_option_of_param(key);
	uint64_t bit;
	char *at;
	double n;

	if (o == NULL)
		return 1;
	bit = OPTION_BIT(o - command_options);
	at = (char *)inv + o->field;
	if (o->kind == VALUE_NONE) {
		if (!cJSON_IsBool(value) || (e->remote & bit) == 0)
			return snprintf(why, why_size, "%s: '%s' does not "
			    "apply or is not true/false", e->method, key), -1;
		if (cJSON_IsTrue(value)) {
			*(bool *)(void *)at = true;
			inv->given |= bit;
		}
		return 0;
	}
	if ((e->remote & bit) == 0)
		goto misused;
	if (o->kind == VALUE_TEXT && cJSON_IsString(value)) {
		*(const char **)(void *)at = value->valuestring;
		inv->given |= bit;
		return 0;
	}
	if ((o->kind == VALUE_COUNT || o->kind == VALUE_POSITIVE) &&
	    cJSON_IsNumber(value) && o->scale > 0) {
		n = value->valuedouble / (double)o->scale;
		if (n < (o->kind == VALUE_POSITIVE ? 1 : 0) ||
		    n > (double)o->max || n != (double)(long long)n)
			goto misused;
		*(long long *)(void *)at = (long long)n;
		inv->given |= bit;
		return 0;
	}
misused:
	return snprintf(why, why_size, "%s: unknown or misused parameter '%s'",
	    e->method, key), -1;
}
