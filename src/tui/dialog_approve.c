/*
 * The approve dialog.  Only what applies is shown; what is dangerous
 * cannot be rushed: high stakes and divergence each need their own key,
 * and Enter runs the whole re-check again through the one decision path,
 * which may still refuse.  An action the gate can only refuse opens none.
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

struct approve_state {
	char id[257];
	struct recheck check;
	bool checked;			/* check holds a re-check to free */
	char reasons[REASONS_MAX][REASON_SIZE];
	size_t reason_count;
	bool ack_high_stakes;
	bool ack_divergence;
	char reason[REASON_SIZE];
	cJSON *criteria;		/* change: [{id, text}] to judge */
	cJSON *judgments;		/* {"AC-3": "met"} */
	int judging;			/* index of the criterion asked now */
	char refusal[1400];
	char shown_sha256[65];
	/* The head's lines of the check boxes, as last drawn, or -1. */
	long high_stakes_box, divergence_box;
};

static int
approve_draw(const struct tui *t, struct dialog *d, void *state)
{
	struct approve_state *s = state;
	const struct verdict *v = &s->check.outcome.verdict;
	int divergence = cJSON_GetArraySize(s->check.outcome.divergence);
	char *failing;
	size_t r;

	dialog_clear(d);
	s->high_stakes_box = s->divergence_box = -1;
	if (!v->overall_pass) {
		failing = xcheck(verdict_failing_rules(v));
		/* L10N: %s lists the failing rule ids */
		detail_add(&d->head, DETAIL_ALERT, _("LOCAL RULES FAIL: %s"),
		    failing);
		free(failing);
	}
	if (v->requires_human_approval) {
		/* L10N: a label and the first reason why the action is high
		   stakes (translated on its own) */
		detail_add(&d->head, DETAIL_HEADING, _("HIGH STAKES  %s"),
		    v->reason_count > 0 ?
		    VERDICT_SHOWN(&v->high_stakes_reasons[0]) : "");
		for (r = 1; r < v->reason_count; r++)
			detail_add(&d->head, DETAIL_PLAIN, "%s",
			    VERDICT_SHOWN(&v->high_stakes_reasons[r]));
	}
	/* What the officer judges by, which the rules leave to them. */
	detail_notes(&d->head, v);
	if (divergence > 0) {
		/* L10N: %d is how many differences there are */
		detail_add(&d->head, DETAIL_HEADING, _("DIVERGENCE  %d "
		    "difference(s) with the advisory verdict"), divergence);
	}
	dialog_judgment_part(d, s->criteria, s->judgments, s->judging);
	for (r = 0; r < s->reason_count; r++)
		detail_add(&d->menu, DETAIL_DIM, "%zu %s", r + 1,
		    s->reasons[r]);
	/*
	 * The boxes stay with the reason, below what scrolls: what the
	 * officer must act on is on screen however small it is.
	 */
	if (v->requires_human_approval) {
		/* L10N: a check box: %c is x when ticked.  The key is h
		   whatever the language: keep "h" */
		detail_add(&d->tail, DETAIL_PLAIN, _("[%c] I have reviewed the "
		    "high stakes   (press h)"), s->ack_high_stakes ? 'x' : ' ');
		s->high_stakes_box = (long)d->tail.count - 1;
	}
	if (divergence > 0) {
		/* L10N: a check box: %c is x when ticked.  The key is d
		   whatever the language: keep "d" */
		detail_add(&d->tail, DETAIL_PLAIN, _("[%c] I have reviewed the "
		    "divergence   (press d)"), s->ack_divergence ? 'x' : ' ');
		s->divergence_box = (long)d->tail.count - 1;
	}
	d->reason_line = (long)d->tail.count;
	/* L10N: %1$s is "required" or "optional", %2$s the reason chosen
	   so far; Tab is the key */
	detail_add(&d->tail, DETAIL_PLAIN, _("Reason (%s, Tab to type): %s"),
	    /* L10N: whether the approval needs a reason */
	    v->requires_human_approval ? _("required") : _("optional"),
	    s->reason);
	if (s->refusal[0] != '\0')
		detail_add(&d->tail, DETAIL_ALERT, "%s", s->refusal);
	return dialog_draw(t, d);
}

/*
 * A PO judgment changes what the re-check says (a judged criterion can
 * end a failure, and with it the high stakes and the divergence): the
 * dialog asks the same re-check the decision runs, so it never shows
 * requirements that no longer hold, nor hides new ones.
 */
static int
rejudge(struct tui *t, struct approve_state *s)
{
	struct error err;

	recheck_free(&s->check);
	s->refusal[0] = '\0';
	if (recheck_action(t->store, s->id, timestamp_now(), s->judgments,
	    &s->check, &err) != 0) {
		tui_notice(t, "%s", err.message);
		s->checked = false;
		return -1;
	}
	return 0;
}

/* The approval the officer confirmed, as the approve dialog holds it. */
static void
approve_request(const struct approve_state *s, struct decision_request *req)
{
	dialog_request(req, s->id, DECISION_APPROVE, s->reason,
	    s->shown_sha256);
	req->ack_high_stakes = s->ack_high_stakes;
	req->ack_divergence = s->ack_divergence;
	req->po_judgments = cJSON_GetArraySize(s->judgments) > 0 ?
	    s->judgments : NULL;
}

/*
 * A key that ticks a box, judges a NEEDS-PO criterion or chooses the
 * reason.  The dialog closes when the re-check a judgment asks for
 * failed (said in a notice).
 */
static enum dialog_step
approve_key(struct tui *t, struct dialog *d, void *state, int ch)
{
	struct approve_state *s = state;
	const cJSON *c = cJSON_GetArrayItem(s->criteria, s->judging);

	/*
	 * Only a box on the screen can be ticked: the record says the officer
	 * acknowledged what the dialog showed them.  (A screen too small for
	 * the boxes shows none.)
	 */
	if ((ch == 'h' && !tail_line_shown(d, s->high_stakes_box)) ||
	    (ch == 'd' && !tail_line_shown(d, s->divergence_box)))
		return DIALOG_STAY;
	else if (ch == 'h' && s->check.outcome.verdict.requires_human_approval)
		s->ack_high_stakes = !s->ack_high_stakes;
	else if (ch == 'd' &&
	    cJSON_GetArraySize(s->check.outcome.divergence) > 0)
		s->ack_divergence = !s->ack_divergence;
	else if (ch == 'h' || ch == 'd')
		return DIALOG_STAY;
	else if ((ch == 'm' || ch == 'u') && c != NULL) {
		dialog_judgment_key(s->criteria, s->judgments, &s->judging, ch);
		return rejudge(t, s) == 0 ? DIALOG_STAY : DIALOG_CLOSE;
	} else if (dialog_reason_key(s->reasons, s->reason_count, ch,
	    s->reason, sizeof s->reason))
		return DIALOG_STAY;
	else if (ch == '\t')
		edit_reason(d, s->reason, sizeof s->reason);
	return DIALOG_STAY;
}

/*
 * Enter: the approval through the one decision path.  Refused by the
 * check the decision ran, the dialog shows what that check found (a
 * policy imported since the dialog opened may have made the action high
 * stakes), then why it was refused.
 */
static enum dialog_step
approve_confirm(struct tui *t, struct dialog *d, void *state)
{
	struct approve_state *s = state;
	struct decision_request req;
	char refusal[sizeof s->refusal];
	enum submitted submitted;

	approve_request(s, &req);
	/* L10N: the verb in "%s %s (decision %.8s)" */
	submitted = dialog_submit(t, d, &req, _("approved"), refusal,
	    sizeof refusal);
	if (submitted == SUBMIT_RECORDED || t->quit)
		return DIALOG_CLOSE;
	if (submitted == SUBMIT_REFUSED && rejudge(t, s) != 0)
		return DIALOG_CLOSE;
	memcpy(s->refusal, refusal, sizeof s->refusal);
	return DIALOG_STAY;
}

static const struct dialog_ops approve_ops = {
	approve_draw, approve_key, approve_confirm
};

/*
 * Issue 37: an approval the gate can only refuse is said at once, as
 * expiry is, rather than in a dialog that ends in the refusal: an action
 * decided already, or local rules that fail, but for the NEEDS-PO
 * judgment the dialog itself settles.  True when it was said.
 */
static bool
approval_unavailable(struct tui *t, const char *id, const struct recheck *r)
{
	const struct verdict *v = &r->outcome.verdict;
	char *shown, *failing;

	if (r->data.status != NULL && strcmp(r->data.status, "pending") != 0) {
		shown = short_id(t->store, id);
		/* L10N: %1$s is the start of an action id, %2$s approved or
		   rejected (the store's word, not translated) */
		tui_notice(t, _("%s is decided already (%s): there is nothing "
		    "to approve"), shown, r->data.status);
		free(shown);
		return true;
	}
	if (v->overall_pass || verdict_fails_only(v, "needs_po_judged"))
		return false;
	shown = short_id(t->store, id);
	failing = xcheck(verdict_failing_rules(v));
	/* L10N: %1$s is the start of an action id, %2$s the failing rule
	   ids; r is the key that rejects: keep it */
	tui_notice(t, _("%s cannot be approved: local rules fail (%s); r "
	    "rejects it"), shown, failing);
	free(failing);
	free(shown);
	return true;
}

void
dialog_approve(struct tui *t, const char *action_id)
{
	struct approve_state s;
	char line[300];

	memset(&s, 0, sizeof s);
	snprintf(s.id, sizeof s.id, "%s", action_id);
	if (!dialog_check(t, s.id, &s.check, s.shown_sha256))
		return;
	if (approval_unavailable(t, s.id, &s.check)) {
		recheck_free(&s.check);
		return;
	}
	s.checked = true;
	s.reason_count = reasons_load("approve", s.check.outcome.pack->kind,
	    s.reasons, REASONS_MAX);
	/* L10N: title of the approve dialog; %s is the action id */
	snprintf(line, sizeof line, _("Approve %s"), s.id);
	if (s.check.outcome.pack->judgment_criteria != NULL)
		s.criteria = s.check.outcome.pack->judgment_criteria(
		    &s.check.data.input, &s.check.outcome.advisory);
	s.judgments = cJSON_CreateObject();
	dialog_run(t, line, &approve_ops, &s);
	cJSON_Delete(s.criteria);
	cJSON_Delete(s.judgments);
	if (s.checked)
		recheck_free(&s.check);
}
