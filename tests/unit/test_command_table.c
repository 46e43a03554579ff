/*
 * Unit tests for src/commands/command_table.c (issue 38): every service
 * method belongs to a command (submit alone is for programs only), the
 * entries of one method agree, every option a command takes through the
 * service becomes a param the service maps back to the same value, and
 * what the service cannot carry is said, not dropped.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "command_table.h"

/* Every method has a command word, but the one programs alone call. */
static void
test_every_method_has_a_command(void **state)
{
	const struct command_entry *e, *first;
	size_t i, programs_only = 0;

	(void)state;
	for (i = 0; i < command_table_size; i++) {
		e = &command_table[i];
		if (e->method == NULL) {
			assert_non_null(e->name);
			continue;
		}
		first = command_of_method(e->method);
		assert_non_null(first);
		if (e->name == NULL) {
			assert_string_equal(e->method, "submit");
			assert_true(e->method_flags & METHOD_PROGRAM);
			programs_only++;
			continue;
		}
		assert_non_null(e->usage);
		assert_non_null(e->run);
		/* The service sees the first entry: the others must agree. */
		assert_int_equal(e->role, first->role);
		assert_int_equal(e->method_flags, first->method_flags);
		assert_int_equal(e->operands, first->operands);
		assert_true(e->remote == first->remote);
		assert_true(e->run == first->run);
		assert_int_equal(e->max_operands, first->max_operands);
	}
	assert_int_equal(programs_only, 1);
	assert_null(command_of_method("upload"));	/* not a request */
	assert_null(command_find("submit", NULL, 0));
}

/* Names, letters and params each name one option. */
static void
test_options_unique(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < OPTION_COUNT; i++) {
		const struct command_option *a = &command_options[i];

		assert_non_null(a->name);
		assert_ptr_equal(command_option_named(a->name), a);
		if (a->short_name != 0)
			assert_ptr_equal(command_option_short(a->short_name), a);
		if (a->carrier == CARRIED_PARAM) {
			assert_non_null(a->param);
			assert_ptr_equal(command_option_of_param(a->param), a);
		} else
			assert_null(a->param);
		for (j = i + 1; j < OPTION_COUNT; j++)
			assert_string_not_equal(a->name,
			    command_options[j].name);
	}
}

/* An invocation with option id given, to a value of its kind. */
static void
give(struct invocation *inv, int id)
{
	const struct command_option *o = &command_options[id];
	char why[256];

	assert_int_equal(command_option_set(o, o->kind == VALUE_NONE ? NULL :
	    o->kind == VALUE_TEXT ? "text" : "7", inv, why, sizeof why), 0);
	assert_true(inv->given & OPTION_BIT(id));
}

/*
 * Each option a command takes through the service: in what the client
 * sends, and back in the invocation the service makes, the same value.
 */
static void
test_options_round_trip(void **state)
{
	const struct command_entry *e;
	struct invocation sent, back;
	char why[256], *operands[] = { "verify", NULL };
	const cJSON *item;
	cJSON *params;
	size_t i;
	int id, carried;

	(void)state;
	for (i = 0; i < command_table_size; i++) {
		e = &command_table[i];
		if (e->method == NULL || e->name == NULL)
			continue;
		assert_true((e->remote & ~e->options) == 0);
		assert_true((e->needs & ~e->options) == 0);
		for (id = 0; id < OPTION_COUNT; id++) {
			if ((e->remote & OPTION_BIT(id)) == 0)
				continue;
			carried = command_options[id].carrier;
			assert_true(carried == CARRIED_PARAM ||
			    carried == CARRIED_BY_CLIENT);
			memset(&sent, 0, sizeof sent);
			sent.operands = operands;
			sent.operand_count = 1;
			give(&sent, id);
			assert_int_equal(command_uncarried_option(e,
			    sent.given), -1);
			if (carried != CARRIED_PARAM)
				continue;
			params = command_params(e, &sent);
			assert_non_null(cJSON_GetObjectItemCaseSensitive(params,
			    command_options[id].param));
			memset(&back, 0, sizeof back);
			cJSON_ArrayForEach(item, params)
				assert_true(command_param_to_option(e,
				    item->string, item, &back, why,
				    sizeof why) >= 0);
			assert_true(back.given & OPTION_BIT(id));
			assert_memory_equal((char *)&sent +
			    command_options[id].field, (char *)&back +
			    command_options[id].field,
			    command_options[id].kind == VALUE_NONE ?
			    sizeof(bool) : command_options[id].kind ==
			    VALUE_TEXT ? 0 : sizeof(long long));
			if (command_options[id].kind == VALUE_TEXT)
				assert_string_equal(*(const char **)(void *)(
				    (char *)&back + command_options[id].field),
				    "text");
			cJSON_Delete(params);
		}
	}
}

/* params[key], which must be there. */
static const cJSON *
member(const cJSON *params, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(params, key);

	assert_non_null(item);
	return item;
}

/* The operands, and the params a program method needs when not given. */
static void
test_operands_and_defaults(void **state)
{
	char *operands[] = { "a1b2", "c3", NULL };
	struct invocation inv;
	cJSON *params;

	(void)state;
	memset(&inv, 0, sizeof inv);
	inv.operands = operands;
	inv.operand_count = 1;
	params = command_params(command_find("wait", NULL, 0), &inv);
	assert_string_equal(member(params, "action_id")->valuestring, "a1b2");
	assert_int_equal(member(params, "timeout_ms")->valuedouble, 3600000);
	cJSON_Delete(params);
	inv.operand_count = 2;
	params = command_params(command_find("check", NULL, 0), &inv);
	assert_int_equal(cJSON_GetArraySize(member(params, "operands")), 2);
	assert_null(cJSON_GetObjectItemCaseSensitive(params, "action_id"));
	cJSON_Delete(params);
	params = command_params(command_find("events", NULL, 0), &inv);
	assert_int_equal(member(params, "after_seq")->valuedouble, 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(params, "operands"));
	cJSON_Delete(params);
}

/* audit's verbs: which goes through which method, and which not at all. */
static void
test_audit_entries(void **state)
{
	const uint64_t size = OPTION_BIT(OPT_SIZE);
	const struct command_entry *e;

	(void)state;
	e = command_find("audit", "checkpoint", size);
	assert_string_equal(e->method, "checkpoint");
	assert_int_equal(command_uncarried_option(e, size), -1);
	assert_int_equal(command_uncarried_option(e, size |
	    OPTION_BIT(OPT_CSV)), OPT_CSV);
	e = command_find("audit", "checkpoint", 0);
	assert_string_equal(e->method, "audit");
	e = command_find("audit", "verify", size);
	assert_string_equal(e->method, "audit");
	assert_int_equal(command_uncarried_option(e, size), OPT_SIZE);
	assert_int_equal(command_uncarried_option(e, OPTION_BIT(OPT_KEY)),
	    OPT_KEY);
	assert_null(command_find("audit", "consistency", 0)->method);
	assert_string_equal(command_find("audit", "bogus", 0)->method, "audit");
	assert_string_equal(command_find("audit", NULL, 0)->method, "audit");
	assert_true(command_has_method("audit"));
	assert_false(command_has_method("serve"));
	assert_false(command_has_method("verify-receipt"));
	assert_null(command_find("frob", NULL, 0));
}

/* A param the method takes no option for, or of the wrong type, refused. */
static void
test_params_refused(void **state)
{
	const struct command_entry *list = command_of_method("list");
	const struct command_entry *check = command_of_method("check");
	cJSON *yes = cJSON_CreateTrue(), *text = cJSON_CreateString("x");
	struct invocation inv;
	char why[256];

	(void)state;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(command_param_to_option(check, "all", yes, &inv, why,
	    sizeof why), -1);
	assert_non_null(strstr(why, "does not apply"));
	assert_int_equal(command_param_to_option(list, "all", text, &inv, why,
	    sizeof why), -1);
	assert_int_equal(command_param_to_option(list, "csv", yes, &inv, why,
	    sizeof why), -1);
	assert_int_equal(command_param_to_option(list, "since", text, &inv,
	    why, sizeof why), -1);
	assert_non_null(strstr(why, "misused parameter 'since'"));
	assert_int_equal(command_param_to_option(list, "filter", yes, &inv,
	    why, sizeof why), -1);
	assert_int_equal(command_param_to_option(list, "operands", text, &inv,
	    why, sizeof why), 1);
	assert_true(inv.given == 0);
	assert_int_equal(command_param_to_option(list, "filter", text, &inv,
	    why, sizeof why), 0);
	assert_string_equal(inv.filter, "x");
	cJSON_Delete(yes);
	cJSON_Delete(text);
}

/*
 * What the methods for programs take (SPEC 12, countersign-protocol(7)):
 * the params serve_programs.c accepts come from the table.
 */
static void
test_program_params(void **state)
{
	static const struct { const char *method, *takes[3]; } cases[] = {
		{ "status", { "action_id", NULL } },
		{ "wait", { "action_id", "timeout_ms", NULL } },
		{ "events", { "after_seq", NULL } },
		{ "receipt", { "action_id", NULL } },
		{ "checkpoint", { "size", NULL } },
	};
	static const char *const others[] = { "action_id", "timeout_ms",
	    "after_seq", "size", "operands", "all", "follow", "output", NULL };
	const struct command_entry *e;
	size_t i, j, k;
	bool takes;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		e = command_of_method(cases[i].method);
		assert_non_null(e);
		assert_true(e->method_flags & METHOD_IN_LOOP);
		for (j = 0; others[j] != NULL; j++) {
			for (k = 0, takes = false; cases[i].takes[k] != NULL;
			    k++)
				takes = takes || strcmp(cases[i].takes[k],
				    others[j]) == 0;
			assert_int_equal(command_param_known(e, others[j]),
			    takes);
		}
	}
}

/* A number's bounds and the list's length, as the command line says. */
static void
test_option_values(void **state)
{
	struct invocation inv;
	char why[256];
	int i;

	(void)state;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(command_option_set(&command_options[OPT_TIMEOUT],
	    "3601", &inv, why, sizeof why), -1);
	assert_string_equal(why, "countersign: --timeout needs a whole "
	    "number, not '3601'\n");
	assert_int_equal(command_option_set(&command_options[OPT_TIMEOUT],
	    "3600", &inv, why, sizeof why), 0);
	assert_int_equal(inv.timeout_s, 3600);
	assert_int_equal(command_option_set(&command_options[OPT_IDLE_TIMEOUT],
	    "0", &inv, why, sizeof why), -1);
	assert_non_null(strstr(why, "positive whole number"));
	assert_int_equal(command_option_set(&command_options[OPT_SIZE], "-1",
	    &inv, why, sizeof why), -1);
	assert_non_null(strstr(why, "tree size"));
	for (i = 0; i < 16; i++)
		assert_int_equal(command_option_set(&command_options[OPT_KEY],
		    "k.pub", &inv, why, sizeof why), 0);
	assert_int_equal(command_option_set(&command_options[OPT_KEY],
	    "k.pub", &inv, why, sizeof why), -1);
	assert_int_equal(inv.key_count, 16);
	/* The global ones choose the store or the service, no command's. */
	inv.given = 0;
	assert_int_equal(command_option_set(&command_options[OPT_DB], "x.db",
	    &inv, why, sizeof why), 0);
	assert_true(inv.given == 0);
	assert_string_equal(inv.db_option, "x.db");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_method_has_a_command),
		cmocka_unit_test(test_options_unique),
		cmocka_unit_test(test_options_round_trip),
		cmocka_unit_test(test_operands_and_defaults),
		cmocka_unit_test(test_audit_entries),
		cmocka_unit_test(test_params_refused),
		cmocka_unit_test(test_program_params),
		cmocka_unit_test(test_option_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
