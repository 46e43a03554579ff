/*
 * What the SPEC 7 filter tests, from a queue row and, where the caller
 * has it, the action's packet: list has the packet, the review screens
 * the index row that keeps the same facts.
 */
#include "config.h"

#include <string.h>
#include <cjson/cJSON.h>

#include "commands.h"
#include "json_fields.h"

void
filter_subject_of(const struct queue_row *row, const cJSON *action,
    char flags[FILTER_FLAGS_SIZE], struct filter_subject *s)
{
	const cJSON *value = json_member(action, "estimated_value_usd");
	size_t n = 0;

	memset(s, 0, sizeof *s);
	/* The flags as the queue's FLG column shows them. */
	if (row->local_fail)
		flags[n++] = 'x';
	if (row->divergent)
		flags[n++] = '!';
	if (row->high_stakes)
		flags[n++] = 'H';
	if (row->expired)
		flags[n++] = 'E';
	if (row->locked_out)
		flags[n++] = 'L';
	if (row->deadlocked)
		flags[n++] = 'D';
	flags[n] = '\0';
	s->flags = flags;
	s->text[FILTER_ID] = row->action_id;
	s->text[FILTER_KIND] = row->kind;
	s->text[FILTER_REQUESTER] = row->requester;
	s->text[FILTER_AUTHOR] = row->author;
	s->text[FILTER_SUMMARY] = row->summary;
	if (strcmp(row->kind, "trade") == 0) {
		s->text[FILTER_USER] = cJSON_GetStringValue(json_member(action,
		    "user_id"));
		s->text[FILTER_TICKER] = cJSON_GetStringValue(json_member(
		    action, "ticker"));
		s->has_value = cJSON_IsNumber(value);
		s->value_usd = s->has_value ? value->valuedouble : 0;
	}
	s->pending = strcmp(row->status, "pending") == 0 && !row->expired;
	s->has_expiry = row->has_expiry;
	s->expires_at_ms = row->expires_at_ms;
}
