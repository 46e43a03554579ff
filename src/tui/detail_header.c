/*
 * The head of an action's detail: every fact an officer needs before
 * reading the rules, in three lines.  What it is and where it stands;
 * who asked, who drafted it and with whom; when it was drafted and until
 * when it may be approved.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "json_fields.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"

/* "2026-11-29 08:20 UTC": the minute is what an officer compares. */
static void
wall_time(long long ms, char *buf, size_t size)
{
	char iso[TIMESTAMP_SIZE];

	timestamp_format(ms, iso);
	snprintf(buf, size, "%.10s %.5s UTC", iso, iso + 11);
}

static const char *
string_of(const cJSON *object, const char *key)
{
	return cJSON_GetStringValue(json_member(object, key));
}

/* "a, b, c" of the contributors' names, or NULL when there are none. */
static char *
contributor_list(const cJSON *action)
{
	const cJSON *name;
	char *list = NULL, *grown;

	cJSON_ArrayForEach(name, json_member(action, "contributors")) {
		if (!cJSON_IsString(name))
			continue;
		grown = xasprintf("%s%s%s", list ? list : "", list ? ", " : "",
		    name->valuestring);
		free(list);
		list = grown;
	}
	return list;
}

/* An action's state in the officer's language; the store keeps it in English. */
static const char *
state_word(const char *status)
{
	/* L10N: the states of an action, in the detail's first line */
	static const char *const words[] = { N_("pending"), N_("approved"),
	    N_("rejected"), N_("expired") };
	size_t i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strcmp(status, words[i]) == 0)
			return _(words[i]);
	}
	return status;
}

/*
 * (v3) SPEC 5: who imported the action, and whether the service vouched
 * for it (then that account cannot approve it there).  Nothing for an
 * action stored before the importer was.
 */
static void
importer_line(struct detail *d, const struct check_data *data)
{
	if (data->importer_login[0] == '\0')
		return;
	if (data->importer_served)
		/* L10N: %s is the login of the account that imported the
		   action through the service */
		detail_add(d, DETAIL_PLAIN, _("imported by %s through the "
		    "service"), data->importer_login);
	else
		/* L10N: %s is the login of the process that imported the
		   action into the database itself, not through the service */
		detail_add(d, DETAIL_PLAIN, _("imported by %s locally"),
		    data->importer_login);
}

bool
detail_header(struct detail *d, const struct recheck *r, const char *action_id,
    long long now_ms)
{
	const cJSON *action = r->data.input.action;
	const char *requester = string_of(action, "requested_by");
	const char *author = string_of(action, "author");
	const char *drafted = string_of(action, "drafted_at");
	char *contributors = contributor_list(action), when[64], age[16];
	char *line = NULL, *grown;
	long long drafted_ms;
	bool expired = r->data.has_expiry && now_ms >= r->data.expires_at_ms;

	/* L10N: the detail's first line: %1$s the kind, %2$s the whole
	   action id, %3$s its state (pending, approved, rejected) */
	detail_add(d, DETAIL_HEADING, _("%s %s   %s"), r->outcome.pack->kind,
	    action_id, state_word(expired ? "expired" : r->data.status));
	/* L10N: who asked for the action; %s is a login, or "nobody named" */
	line = xasprintf(_("requested by %s"), requester ? requester :
	    /* L10N: in place of a name the packet does not give */
	    _("nobody named"));
	/* L10N: " · author %s": who drafted the action */
	grown = xasprintf(_("%s \xc2\xb7 author %s"), line,
	    author ? author : _("nobody named"));
	free(line);
	line = grown;
	if (contributors != NULL) {
		/* L10N: " · with %s": the contributors (co-authors,
		   advisors) of this version, a list of names */
		grown = xasprintf(_("%s \xc2\xb7 with %s"), line,
		    contributors);
		free(line);
		line = grown;
	}
	detail_add(d, DETAIL_PLAIN, "%s", line);
	free(line);
	free(contributors);
	line = NULL;
	if (drafted != NULL && timestamp_parse(drafted, &drafted_ms)) {
		wall_time(drafted_ms, when, sizeof when);
		format_age(age, sizeof age, now_ms - drafted_ms);
		/* L10N: when the action was drafted: %1$s the time, %2$s how
		   long ago ("3h", "2d") */
		line = xasprintf(_("drafted %s (%s ago)"), when, age);
	} else if (drafted != NULL)
		/* L10N: a drafted_at the program cannot read, shown as is */
		line = xasprintf(_("drafted %s"), drafted);
	if (r->data.has_expiry) {
		wall_time(r->data.expires_at_ms, when, sizeof when);
		format_age(age, sizeof age, expired ?
		    now_ms - r->data.expires_at_ms :
		    r->data.expires_at_ms - now_ms);
		if (expired) {
			if (line != NULL)
				detail_add(d, DETAIL_PLAIN, "%s", line);
			free(line);
			/* L10N: %1$s how long ago it passed ("3d"), %2$s the
			   expiry time; EXPIRED in capitals: it must stand
			   out */
			line = xasprintf(_("EXPIRED %s ago (%s): it cannot be "
			    "approved"), age, when);
		} else {
			/* L10N: %1$s what comes before (or nothing), %2$s the
			   separator, %3$s how long is left ("2h"), %4$s the
			   expiry time */
			grown = xasprintf(_("%s%sexpires in %s (%s)"),
			    line ? line : "", line ? " \xc2\xb7 " : "", age,
			    when);
			free(line);
			line = grown;
		}
	} else if (line != NULL) {
		/* L10N: after the drafting time: the action has no expires_at */
		grown = xasprintf(_("%s \xc2\xb7 no expiry"), line);
		free(line);
		line = grown;
	}
	if (line != NULL)
		detail_add(d, expired ? DETAIL_ALERT : DETAIL_PLAIN, "%s", line);
	free(line);
	importer_line(d, &r->data);
	return expired;
}
