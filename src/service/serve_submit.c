/*
 * submit (SPEC 12), in a child: its stdout carries the answer, one JSON
 * object, which the loop gathers from the pipe and sends as the reply.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "commands.h"
#include "exit_codes.h"
#include "json_writer.h"
#include "programs.h"
#include "service.h"
#include "store.h"
#include "utf8.h"
#include "serve_internal.h"
#include "serve_programs_internal.h"

#define JSON_ANSWER_MAX (32UL << 20)	/* submit's answer from its child */

int
programs_submit_child(const struct invocation *inv, const cJSON *params)
{
	static const char *const names[] = { "lines", NULL };
	struct program_error perr;
	struct store *store;
	struct error err;
	cJSON *answer = cJSON_CreateObject(), *result, *e;
	const cJSON *item;
	char *text;
	size_t i;
	int rc;

	memset(&perr, 0, sizeof perr);
	error_clear(&err);
	cJSON_ArrayForEach(item, params) {
		for (i = 0; names[i] != NULL && strcmp(item->string, names[i]);
		    i++)
			;
		if (names[i] == NULL) {
			perr.code = "bad_request";
			snprintf(perr.message, sizeof perr.message, "submit: "
			    "no parameter '%.*s'", (int)utf8_prefix(
			    item->string, 64), item->string);
			goto refused;
		}
	}
	if ((rc = open_store(inv, STORE_CREATE, &store, &err)) != 0) {
		perr.code = "storage";
		snprintf(perr.message, sizeof perr.message, "%.400s", err.message);
		goto refused;
	}
	rc = program_submit(store, cJSON_GetObjectItemCaseSensitive(params,
	    "lines"), &result, &perr);
	store_close(store);
	if (rc != 0)
		goto refused;
	cJSON_AddItemToObject(answer, "result", result);
	goto print;
refused:
	e = cJSON_AddObjectToObject(answer, "error");
	cJSON_AddStringToObject(e, "code", perr.code);
	cJSON_AddStringToObject(e, "message", perr.message);
	program_error_free(&perr);
print:
	text = json_message(answer);
	cJSON_Delete(answer);
	if (text == NULL)
		return EXIT_STORAGE;
	rc = rpc_write_all(STDOUT_FILENO, text, strlen(text)) == 0 ? EXIT_OK :
	    EXIT_STORAGE;
	free(text);
	return rc;
}

void
programs_child_output(struct conn *c, int which, const char *buf, size_t len)
{
	char *grown;

	if (which == 1) {
		/* A head no sink took, and the like: the service's log. */
		fprintf(stderr, "countersign serve: uid %lu: %.*s",
		    (unsigned long)c->uid, (int)len, buf);
		return;
	}
	if (c->json_len + len > JSON_ANSWER_MAX)
		return;		/* cut short: answered as broken below */
	if ((grown = realloc(c->json_out, c->json_len + len + 1)) == NULL)
		return;
	c->json_out = grown;
	memcpy(c->json_out + c->json_len, buf, len);
	c->json_len += len;
	c->json_out[c->json_len] = '\0';
}

void
programs_child_done(struct conn *c, const cJSON *id, int exit_code)
{
	cJSON *answer = c->json_out != NULL ? cJSON_ParseWithLength(
	    c->json_out, c->json_len) : NULL;
	cJSON *result = cJSON_DetachItemFromObjectCaseSensitive(answer,
	    "result");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(answer, "error");
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
	const cJSON *message = cJSON_GetObjectItemCaseSensitive(e, "message");

	if (c->fd >= 0) {
		if (result != NULL)
			answer_result(c, id, result);
		else if (cJSON_IsString(code) && cJSON_IsString(message))
			answer_refusal(c, id, code->valuestring, NULL, "%s",
			    message->valuestring);
		else
			answer_refusal(c, id, "storage", NULL, "the service's "
			    "run of the request ended without an answer "
			    "(status %d)", exit_code);
	} else
		cJSON_Delete(result);
	cJSON_Delete(answer);
	free(c->json_out);
	c->json_out = NULL;
	c->json_len = 0;
	c->json_child = false;
}
