/*
 * J on a change's detail: the product owner's judgment of its NEEDS-PO
 * criteria (SPEC 2.3 v3), and the PO JUDGMENT part the approve dialog
 * shares with it.  It asks each criterion not judged yet, met or
 * unmet, as the approve dialog does, and records them through the one
 * decision path as a po_judgment event: nothing is approved, and the
 * requester, whom the approval refuses, may judge.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "json_fields.h"
#include "sanitize.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"
#include "dialog.h"

/*
 * A criterion's line: its text cut to fit, its judgment or the keys kept.
 * The approve and the judge dialogs ask alike.
 */
static void
dialog_criterion_line(struct dialog *d, const cJSON *criteria,
    const cJSON *judgments, int judging, int i)
{
	const cJSON *c = cJSON_GetArrayItem(criteria, i);
	const char *id = cJSON_GetStringValue(json_member(c, "id"));
	const cJSON *judged = json_member(judgments, id);
	const char *hint;
	char *raw, *safe, *clipped;
	int room;

	/* L10N: how a NEEDS-PO criterion of a change is judged: the keys m
	   and u stay whatever the language */
	hint = !cJSON_IsString(judged) ? _("m met / u unmet") :
	    /* L10N: the judgment made of a NEEDS-PO criterion */
	    strcmp(judged->valuestring, "met") == 0 ? _("met") : _("unmet");
	raw = xasprintf("%s %s %s", i == judging ? ">" : " ", id ? id : "",
	    cJSON_GetStringValue(json_member(c, "text")) ?
	    cJSON_GetStringValue(json_member(c, "text")) : "");
	safe = xsanitize(raw);
	/* The keys stay on the line: a long text is cut instead. */
	room = d->width - 2 - (int)sanitized_width(hint);
	clipped = clip_text(safe, room > 1 ? room : 1);
	detail_add(&d->list, i == judging ? DETAIL_HEADING : DETAIL_PLAIN,
	    "%s: %s", clipped, hint);
	free(raw);
	free(safe);
	free(clipped);
}

void
dialog_judgment_part(struct dialog *d, const cJSON *criteria,
    const cJSON *judgments, int judging)
{
	int n = cJSON_GetArraySize(criteria), i;

	if (n > 0)
		/* L10N: %1$d criteria of %2$d have been judged; m and u are
		   keys: keep them */
		detail_add(&d->head, DETAIL_HEADING, _("PO JUDGMENT  %d of %d "
		    "judged (m met, u unmet)"), cJSON_GetArraySize(judgments),
		    n);
	for (i = 0; i < n; i++)
		dialog_criterion_line(d, criteria, judgments, judging, i);
	d->list_cursor = judging < n ? judging : -1;
}

bool
dialog_judgment_key(const cJSON *criteria, cJSON *judgments, int *judging,
    int ch)
{
	const cJSON *c = cJSON_GetArrayItem(criteria, *judging);
	const char *id = cJSON_GetStringValue(json_member(c, "id"));

	if ((ch != 'm' && ch != 'u') || id == NULL)
		return false;
	cJSON_DeleteItemFromObjectCaseSensitive(judgments, id);
	cJSON_AddStringToObject(judgments, id, ch == 'm' ? "met" : "unmet");
	*judging = (*judging + 1) % (cJSON_GetArraySize(criteria) + 1);
	return true;
}

struct judge_state {
	char id[257];
	bool recorded;			/* the judgments are recorded */
	cJSON *criteria;		/* [{id, text}] not judged yet */
	cJSON *judgments;		/* {"AC-3": "met"} */
	int judging;			/* the criterion asked now */
	char shown_sha256[65];
	char refusal[1400];
};

static int
judge_draw(const struct tui *t, struct dialog *d, void *state)
{
	const struct judge_state *s = state;

	dialog_clear(d);
	dialog_judgment_part(d, s->criteria, s->judgments, s->judging);
	/* L10N: the judge dialog's note: what Enter does, and what not */
	detail_add(&d->tail, DETAIL_PLAIN, _("Enter records the judgments "
	    "made; it approves nothing."));
	if (s->refusal[0] != '\0')
		detail_add(&d->tail, DETAIL_ALERT, "%s", s->refusal);
	return dialog_draw(t, d);
}

/* m or u judges the criterion asked now; the refusal shown is then old. */
static enum dialog_step
judge_key(struct tui *t, struct dialog *d, void *state, int ch)
{
	struct judge_state *s = state;

	(void)t;
	(void)d;
	if (dialog_judgment_key(s->criteria, s->judgments, &s->judging, ch))
		s->refusal[0] = '\0';
	return DIALOG_STAY;
}

/* Enter: records what was judged; the dialog is done when it is. */
static enum dialog_step
judge_confirm(struct tui *t, struct dialog *d, void *state)
{
	struct judge_state *s = state;
	const char *id = s->id;
	struct decision_request req;
	struct decision_outcome out;
	struct error err;
	char *shown;

	(void)d;

	if (cJSON_GetArraySize(s->judgments) == 0) {
		/* L10N: Enter in the judge dialog before any judgment; m
		   and u are keys: keep them */
		snprintf(s->refusal, sizeof s->refusal, "%s", _("Judge a "
		    "criterion first (m met, u unmet)"));
		return DIALOG_STAY;
	}
	dialog_request(&req, id, DECISION_JUDGE, NULL, s->shown_sha256);
	req.po_judgments = s->judgments;
	if (decision_record(t->store, &req, &t->op, DECISION_NOW, false, &out,
	    &err) != 0) {
		snprintf(s->refusal, sizeof s->refusal, "%s", err.message);
		return DIALOG_STAY;
	}
	if (!out.recorded) {
		snprintf(s->refusal, sizeof s->refusal,
		    _("Refused (%s): %s"), out.code, out.message);
		return DIALOG_STAY;
	}
	shown = short_id(t->store, id);
	/* L10N: after a judgment: %1$s the start of the action id, %2$.8s
	   the start of the judgment id; the action is still pending */
	tui_notice(t, _("%1$s: judgment recorded (judgment %2$.8s); the "
	    "action stays pending"), shown, out.judgment_id);
	if (out.head_unsunk)
		/* L10N: as above, then the new audit head's seq and hash,
		   which no syslog took (SPEC 6) */
		tui_notice(t, _("%1$s: judgment recorded (judgment %2$.8s); "
		    "no syslog took audit head %3$lld %4$s"), shown,
		    out.judgment_id, out.head.seq, out.head.hash);
	free(shown);
	t->recorded_now = true;
	s->recorded = true;
	return DIALOG_CLOSE;
}

static const struct dialog_ops judge_ops = {
	judge_draw, judge_key, judge_confirm
};

void
dialog_judge(struct tui *t, const char *action_id)
{
	struct judge_state s;
	struct recheck r;
	char line[300], *shown;
	const char *id = s.id;

	memset(&s, 0, sizeof s);
	snprintf(s.id, sizeof s.id, "%s", action_id);
	if (!dialog_check(t, id, &r, s.shown_sha256))
		return;
	/* What is left to judge, the judgments recorded counted. */
	if (r.outcome.pack->judgment_criteria != NULL)
		s.criteria = xcheck(r.outcome.pack->judgment_criteria(
		    &r.data.input, &r.outcome.advisory));
	recheck_free(&r);
	if (cJSON_GetArraySize(s.criteria) == 0) {
		shown = short_id(t->store, id);
		/* L10N: J on an action with nothing to judge: %s the start
		   of its id */
		tui_notice(t, _("%s has no NEEDS-PO criterion left to judge"),
		    shown);
		free(shown);
		cJSON_Delete(s.criteria);
		return;
	}
	s.judgments = xcheck(cJSON_CreateObject());
	/* L10N: title of the judge dialog; %s is the action id */
	snprintf(line, sizeof line, _("Judge %s (product owner)"), id);
	dialog_run(t, line, &judge_ops, &s);
	cJSON_Delete(s.criteria);
	cJSON_Delete(s.judgments);
	/* The detail shows the judgments now recorded, and who made them. */
	if (s.recorded && t->view == VIEW_DETAIL && strcmp(t->detail_id, id) ==
	    0)
		detail_reopen(t, timestamp_now());
}
