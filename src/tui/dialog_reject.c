/*
 * The reject dialog: a reason, and where the next version goes (SPEC 5
 * routing): to another author, escalated, or blocked on a standard.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "json_fields.h"
#include "lockout.h"
#include "reasons.h"
#include "sanitize.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"
#include "dialog.h"

/* The roster authors who may write the next version, after this rejection. */
static cJSON *
eligible_authors(const struct check_input *in)
{
	cJSON *list = cJSON_CreateArray();
	const cJSON *author;
	const char *why;

	cJSON_ArrayForEach(author, json_member(in->roster, "authors")) {
		if (cJSON_IsString(author) &&
		    lockout_may_reassign(in, author->valuestring, &why))
			cJSON_AddItemToArray(list,
			    cJSON_CreateString(author->valuestring));
	}
	return list;
}

enum routing { ROUTE_NONE, ROUTE_REASSIGN, ROUTE_ESCALATE, ROUTE_BLOCKED };

/* What the reject dialog holds while the officer builds a rejection. */
struct reject_state {
	char id[257];
	struct recheck check;
	char reasons[REASONS_MAX][REASON_SIZE];
	size_t reason_count;
	char reason[REASON_SIZE];
	char assignee[257];		/* who writes the revision */
	char expertise[REASON_SIZE];	/* what an escalation asks for */
	char refusal[1400];
	char shown_sha256[65];
	enum routing route;
	cJSON *eligible;		/* the authors r cycles through */
	int next;			/* the one r names next */
	bool deadlocked;		/* every roster author locked out */
	bool blocked;			/* "blocked on a standard" offered */
};

static int
reject_draw(const struct tui *t, struct dialog *d, void *state)
{
	const struct reject_state *s = state;
	size_t r;

	dialog_clear(d);
	for (r = 0; r < s->reason_count; r++)
		detail_add(&d->menu, strcmp(s->reason, s->reasons[r]) ?
		    DETAIL_PLAIN : DETAIL_HEADING, "%zu %s", r + 1,
		    s->reasons[r]);
	/* L10N: 0 is the key that lets the officer type a reason */
	detail_add(&d->menu, DETAIL_PLAIN, "%s", _("0 Other (type it)"));
	/* L10N: the reason chosen so far, or "(required)" */
	detail_add(&d->tail, DETAIL_HEADING, _("Reason: %s"), s->reason[0] ?
	    s->reason :
	    /* L10N: in place of a reason not given yet */
	    _("(required)"));
	if (s->route == ROUTE_BLOCKED)
		/* L10N: the change waits, nobody is locked out */
		detail_add(&d->tail, DETAIL_HEADING, "%s", _("Revision: "
		    "none: blocked, waiting for a standard (nobody is "
		    "locked out)"));
	else if (s->deadlocked)
		/* L10N: a revision is the next version of the rejected
		   action; a roster lists the authors who may write one */
		detail_add(&d->tail, DETAIL_HEADING, "%s", _("Revision: "
		    "every roster author is locked out; only escalation "
		    "is possible"));
	if (s->route == ROUTE_ESCALATE)
		/* L10N: the expertise the escalation asks for, typed
		   after the key x; "(any)" when none is named */
		detail_add(&d->tail, DETAIL_PLAIN, _("  x expertise "
		    "needed: %s"), s->expertise[0] ? s->expertise :
		    _("(any)"));
	if (!s->deadlocked) {
		/* L10N: who writes the revision: %s is an author's
		   name, "escalate" or "none" */
		detail_add(&d->tail, DETAIL_HEADING, _("Revision: %s"),
		    s->route == ROUTE_REASSIGN ? s->assignee : s->route ==
		    /* L10N: the revision goes to a superior
		       ("escalate") or to no one ("none") */
		    ROUTE_ESCALATE ? _("escalate") : _("none"));
		/* L10N: the keys r, e and n stay whatever the
		   language */
		detail_add(&d->tail, DETAIL_PLAIN, "%s", _("  r reassign "
		    "(cycles eligible authors)  e escalate  n no "
		    "revision"));
	}
	if (s->blocked)
		/* L10N: the key b stays whatever the language */
		detail_add(&d->tail, DETAIL_PLAIN, "%s", _("  b blocked: "
		    "hold it until the missing standard is defined"));
	if (s->refusal[0] != '\0')
		detail_add(&d->tail, DETAIL_ALERT, "%s", s->refusal);
	return dialog_draw(t, d);
}

/* A key that chooses the reason or where the revision goes. */
static enum dialog_step
reject_key(struct tui *t, struct dialog *d, void *state, int ch)
{
	struct reject_state *s = state;

	(void)t;
	if (dialog_reason_key(s->reasons, s->reason_count, ch, s->reason,
	    sizeof s->reason))
		return DIALOG_STAY;
	if (ch == '0' || ch == '\t') {
		s->reason[0] = '\0';
		edit_reason(d, s->reason, sizeof s->reason);
	} else if (ch == 'r' && !s->deadlocked) {
		if (cJSON_GetArraySize(s->eligible) > 0) {
			snprintf(s->assignee, sizeof s->assignee, "%s",
			    cJSON_GetArrayItem(s->eligible, s->next %
			    cJSON_GetArraySize(s->eligible))->valuestring);
			s->next++;
		} else {
			/* The name is typed on the revision's row. */
			d->reason_row += (int)line_rows(&d->tail.lines[0],
			    d->width);
			/* L10N: label of the line where an author's
			   name is typed */
			edit_text(d, _("Reassign to: "), s->assignee,
			    sizeof s->assignee);
		}
		s->route = s->assignee[0] != '\0' ? ROUTE_REASSIGN : ROUTE_NONE;
	} else if (ch == 'e')
		s->route = ROUTE_ESCALATE;
	else if (ch == 'b' && s->blocked)
		s->route = ROUTE_BLOCKED;
	else if (ch == 'x' && s->route == ROUTE_ESCALATE) {
		s->expertise[0] = '\0';
		/* L10N: label of the line where the expertise an
		   escalation needs is typed */
		edit_text(d, _("Expertise needed: "), s->expertise,
		    sizeof s->expertise);
	} else if (ch == 'n' && !s->deadlocked)
		s->route = ROUTE_NONE;
	return DIALOG_STAY;
}

/* The rejection the officer confirmed, as the reject dialog holds it. */
static void
reject_request(const struct reject_state *s, struct decision_request *req)
{
	dialog_request(req, s->id, DECISION_REJECT, s->reason,
	    s->shown_sha256);
	req->reassign_to = s->route == ROUTE_REASSIGN ? s->assignee : NULL;
	req->escalate = s->route == ROUTE_ESCALATE;
	req->blocked_on = s->route == ROUTE_BLOCKED ? "missing_standard" :
	    NULL;
	req->escalate_expertise = req->escalate && !text_blank(s->expertise) ?
	    s->expertise : NULL;
}

/* Enter: the rejection through the one decision path. */
static enum dialog_step
reject_confirm(struct tui *t, struct dialog *d, void *state)
{
	struct reject_state *s = state;
	struct decision_request req;

	reject_request(s, &req);
	/* L10N: the verb in "%s %s (decision %.8s)" */
	return dialog_submit(t, d, &req, _("rejected"), s->refusal,
	    sizeof s->refusal) == SUBMIT_RECORDED || t->quit ? DIALOG_CLOSE :
	    DIALOG_STAY;
}

static const struct dialog_ops reject_ops = {
	reject_draw, reject_key, reject_confirm
};

void
dialog_reject(struct tui *t, const char *action_id)
{
	char line[300];
	struct reject_state s;

	memset(&s, 0, sizeof s);
	snprintf(s.id, sizeof s.id, "%s", action_id);
	if (!dialog_check(t, s.id, &s.check, s.shown_sha256))
		return;
	s.reason_count = reasons_load("reject", s.check.outcome.pack->kind,
	    s.reasons, REASONS_MAX);
	/* L10N: title of the reject dialog; %s is the action id */
	snprintf(line, sizeof line, _("Reject %s"), s.id);
	s.eligible = eligible_authors(&s.check.data.input);
	s.deadlocked = lockout_deadlocked(&s.check.data.input, true);
	s.blocked = decision_may_block(&s.check);
	s.route = s.deadlocked ? ROUTE_ESCALATE : ROUTE_NONE;
	dialog_run(t, line, &reject_ops, &s);
	cJSON_Delete(s.eligible);
	recheck_free(&s.check);
}
