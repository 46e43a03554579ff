/*
 * The approve and reject confirmations.  Only what applies is shown; what
 * is dangerous cannot be rushed: high stakes and divergence each need
 * their own key, and Enter runs the whole re-check again through the one
 * decision path, which may still refuse.
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

#define DIALOG_WIDTH 66

/* A boxed window centred on the screen, rows high. */
static WINDOW *
dialog_window(int rows)
{
	int width = COLS - 2 < DIALOG_WIDTH ? COLS - 2 : DIALOG_WIDTH;
	WINDOW *w;

	if (rows > LINES - 2)
		rows = LINES - 2;
	w = newwin(rows, width, (LINES - rows) / 2, (COLS - width) / 2);
	if (w != NULL) {
		keypad(w, TRUE);
		werase(w);
		box(w, 0, 0);
	}
	return w;
}

/* A line of sanitized text at row y, clipped to the box. */
static void
put(WINDOW *w, int y, const char *sanitized, int attr)
{
	int width = getmaxx(w) - 4;
	size_t used, bytes;

	if (y >= getmaxy(w) - 1 || width <= 0)
		return;
	bytes = sanitized_prefix(sanitized, (size_t)width, &used);
	wattron(w, attr);
	mvwaddnstr(w, y, 2, sanitized, (int)bytes);
	wattroff(w, attr);
}

static void
put_untrusted(WINDOW *w, int y, const char *raw, int attr)
{
	char *safe = sanitize_str(raw);

	put(w, y, safe ? safe : "", attr);
	free(safe);
}

/* Reads a line of text into buf inside the dialog; Enter or Tab ends it. */
static void
edit_text(WINDOW *w, int y, const char *label, char *buf, size_t size)
{
	char line[512];
	int ch;

	curs_set(1);
	for (;;) {
		snprintf(line, sizeof line, "%s%s_", label, buf);
		wmove(w, y, 2);
		wclrtoeol(w);
		box(w, 0, 0);
		put_untrusted(w, y, line, A_BOLD);
		wrefresh(w);
		ch = wgetch(w);
		if (tui_signalled != 0 || ch == '\n' || ch == '\r' ||
		    ch == KEY_ENTER || ch == '\t' || ch == 27)
			break;
		tui_edit_key(buf, size, ch);
	}
	curs_set(0);
}

static bool
confirm_key(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

static void
report(struct tui *t, const struct decision_outcome *out, const char *verb,
    const char *action_id)
{
	/* L10N: after a decision: %1$.8s the action id (8 characters),
	   %2$s "approved" or "rejected" (translated on their own), %3$.8s
	   the first 8 characters of the decision id */
	tui_notice(t, _("%.8s %s (decision %.8s)"), action_id, verb,
	    out->decision_id);
	t->view = VIEW_QUEUE;
	t->counts_stale = true;
	tui_reload(t);
}

struct approve_state {
	struct recheck check;
	bool ack_high_stakes;
	bool ack_divergence;
	char reason[REASON_SIZE];
	cJSON *criteria;		/* change: [{id, text}] to judge */
	cJSON *judgments;		/* {"AC-3": "met"} */
	int judging;			/* index of the criterion asked now */
	char refusal[1400];
};

static int
approve_draw(WINDOW **w, const struct approve_state *s, const char *id,
    char reasons[][REASON_SIZE], size_t reason_count)
{
	const struct verdict *v = &s->check.outcome.verdict;
	int divergence = cJSON_GetArraySize(s->check.outcome.divergence);
	int y = 1, n = cJSON_GetArraySize(s->criteria), i;
	char line[1024], *failing;
	const cJSON *c;
	size_t r;

	if (*w != NULL)
		delwin(*w);
	*w = dialog_window(6 + (v->overall_pass ? 0 : 1) +
	    (v->requires_human_approval ? 2 + (int)v->reason_count : 0) +
	    (divergence > 0 ? 2 : 0) + n + (int)reason_count +
	    (s->refusal[0] != '\0' ? 2 : 0));
	if (*w == NULL)
		return -1;
	/* L10N: title of the approve dialog; %s is the action id */
	snprintf(line, sizeof line, _("Approve %s"), id);
	put_untrusted(*w, 0, line, A_BOLD);
	if (!v->overall_pass) {
		failing = verdict_failing_rules(v);
		/* L10N: %s lists the failing rule ids */
		snprintf(line, sizeof line, _("LOCAL RULES FAIL: %s"),
		    failing ? failing : "");
		free(failing);
		put_untrusted(*w, y++, line, A_BOLD | A_REVERSE);
	}
	if (v->requires_human_approval) {
		/* L10N: a label and the first reason why the action is high
		   stakes (the reason is not translated) */
		snprintf(line, sizeof line, _("HIGH STAKES  %s"),
		    v->reason_count > 0 ? v->high_stakes_reasons[0] : "");
		put_untrusted(*w, y++, line, A_BOLD);
		for (r = 1; r < v->reason_count; r++)
			put_untrusted(*w, y++, v->high_stakes_reasons[r], A_NORMAL);
		/* L10N: a check box: %c is x when ticked.  The key is h
		   whatever the language: keep "h" */
		snprintf(line, sizeof line, _("[%c] I have reviewed the high "
		    "stakes   (press h)"), s->ack_high_stakes ? 'x' : ' ');
		put(*w, y++, line, A_NORMAL);
	}
	if (divergence > 0) {
		/* L10N: %d is how many differences there are */
		snprintf(line, sizeof line, _("DIVERGENCE  %d difference(s) "
		    "with the advisory verdict"), divergence);
		put(*w, y++, line, A_BOLD);
		/* L10N: a check box: %c is x when ticked.  The key is d
		   whatever the language: keep "d" */
		snprintf(line, sizeof line, _("[%c] I have reviewed the "
		    "divergence   (press d)"), s->ack_divergence ? 'x' : ' ');
		put(*w, y++, line, A_NORMAL);
	}
	for (i = 0; i < n; i++) {
		const char *judged;

		c = cJSON_GetArrayItem(s->criteria, i);
		judged = cJSON_IsString(json_member(s->judgments,
		    cJSON_GetStringValue(json_member(c, "id")))) ?
		    json_member(s->judgments, cJSON_GetStringValue(json_member(c,
		    "id")))->valuestring : NULL;
		snprintf(line, sizeof line, "%s %s %s: %s", i == s->judging ?
		    ">" : " ", cJSON_GetStringValue(json_member(c, "id")),
		    cJSON_GetStringValue(json_member(c, "text")),
		    /* L10N: how a NEEDS-PO criterion of a change is judged:
		       the keys m and u stay whatever the language */
		    judged == NULL ? _("m met / u unmet") :
		    /* L10N: the judgment made of a NEEDS-PO criterion */
		    strcmp(judged, "met") == 0 ? _("met") : _("unmet"));
		put_untrusted(*w, y++, line, i == s->judging ? A_BOLD : A_NORMAL);
	}
	for (r = 0; r < reason_count; r++) {
		snprintf(line, sizeof line, "%zu %s", r + 1, reasons[r]);
		put_untrusted(*w, y++, line, A_DIM);
	}
	/* L10N: %1$s is "required" or "optional", %2$s the reason chosen
	   so far; Tab is the key */
	snprintf(line, sizeof line, _("Reason (%s, Tab to type): %s"),
	    /* L10N: whether the approval needs a reason */
	    v->requires_human_approval ? _("required") : _("optional"),
	    s->reason);
	put_untrusted(*w, y++, line, A_NORMAL);
	if (s->refusal[0] != '\0')
		put_untrusted(*w, y++, s->refusal, A_BOLD | A_REVERSE);
	/* L10N: the keys of a dialog: Enter and Esc are key names */
	put(*w, getmaxy(*w) - 2, _("Enter confirm \xc2\xb7 Esc cancel"), A_DIM);
	wrefresh(*w);
	return y;
}

void
dialog_approve(struct tui *t, const char *action_id)
{
	struct approve_state s;
	struct decision_request req;
	struct decision_outcome out;
	struct error err;
	char reasons[REASONS_MAX][REASON_SIZE], id[257];
	size_t reason_count = reasons_load("approve", reasons, REASONS_MAX);
	WINDOW *w = NULL;
	const cJSON *c;
	int ch, reason_row;

	snprintf(id, sizeof id, "%s", action_id);
	memset(&s, 0, sizeof s);
	if (recheck_action(t->store, id, timestamp_now(), NULL, &s.check,
	    &err) != 0) {
		tui_notice(t, "%s", err.message);
		return;
	}
	if (s.check.outcome.pack->judgment_criteria != NULL)
		s.criteria = s.check.outcome.pack->judgment_criteria(
		    &s.check.data.input, &s.check.outcome.advisory);
	s.judgments = cJSON_CreateObject();
	for (;;) {
		reason_row = approve_draw(&w, &s, id, reasons, reason_count) - 1;
		if (reason_row < 0)
			break;
		ch = wgetch(w);
		if (tui_signalled != 0 || ch == 27 || ch == 'q')
			break;
		c = cJSON_GetArrayItem(s.criteria, s.judging);
		if (ch == 'h')
			s.ack_high_stakes = !s.ack_high_stakes;
		else if (ch == 'd')
			s.ack_divergence = !s.ack_divergence;
		else if ((ch == 'm' || ch == 'u') && c != NULL) {
			cJSON_DeleteItemFromObjectCaseSensitive(s.judgments,
			    cJSON_GetStringValue(json_member(c, "id")));
			cJSON_AddStringToObject(s.judgments,
			    cJSON_GetStringValue(json_member(c, "id")),
			    ch == 'm' ? "met" : "unmet");
			s.judging = (s.judging + 1) %
			    (cJSON_GetArraySize(s.criteria) + 1);
		} else if (ch >= '1' && ch < '1' + (int)reason_count)
			snprintf(s.reason, sizeof s.reason, "%s",
			    reasons[ch - '1']);
		else if (ch == '\t')
			/* L10N: label of the line where a reason is typed */
			edit_text(w, reason_row, _("Reason: "), s.reason,
			    sizeof s.reason);
		else if (confirm_key(ch)) {
			memset(&req, 0, sizeof req);
			req.action_id = id;
			req.decision = DECISION_APPROVE;
			req.reason = s.reason;
			req.ack_high_stakes = s.ack_high_stakes;
			req.ack_divergence = s.ack_divergence;
			req.po_judgments = cJSON_GetArraySize(s.judgments) > 0 ?
			    s.judgments : NULL;
			/* The re-check runs again in here, inside the transaction. */
			if (decision_record(t->store, &req, &t->op,
			    timestamp_now(), false, &out, &err) != 0)
				snprintf(s.refusal, sizeof s.refusal, "%s",
				    err.message);
			else if (!out.recorded)
				snprintf(s.refusal, sizeof s.refusal,
				    /* L10N: %1$s is the refusal code (e.g.
				       rules_failed, not translated), %2$s its
				       message (not translated either) */
				    _("Refused (%s): %s"), out.code,
				    out.message);
			else {
				/* L10N: the verb in "%.8s %s (decision
				   %.8s)" */
				report(t, &out, _("approved"), id);
				break;
			}
		}
	}
	if (w != NULL)
		delwin(w);
	cJSON_Delete(s.criteria);
	cJSON_Delete(s.judgments);
	recheck_free(&s.check);
	touchwin(stdscr);
}

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

enum routing { ROUTE_NONE, ROUTE_REASSIGN, ROUTE_ESCALATE };

void
dialog_reject(struct tui *t, const char *action_id)
{
	char reasons[REASONS_MAX][REASON_SIZE], reason[REASON_SIZE] = "";
	char line[1024], refusal[1400] = "", assignee[257] = "", id[257];
	size_t reason_count = reasons_load("reject", reasons, REASONS_MAX), r;
	struct decision_request req;
	struct decision_outcome out;
	struct recheck check;
	struct error err;
	enum routing route = ROUTE_NONE;
	cJSON *eligible;
	bool deadlocked;
	int ch, y, next = 0;
	WINDOW *w = NULL;

	snprintf(id, sizeof id, "%s", action_id);
	if (recheck_action(t->store, id, timestamp_now(), NULL, &check,
	    &err) != 0) {
		tui_notice(t, "%s", err.message);
		return;
	}
	eligible = eligible_authors(&check.data.input);
	deadlocked = lockout_deadlocked(&check.data.input, true);
	if (deadlocked)
		route = ROUTE_ESCALATE;
	for (;;) {
		if (w != NULL)
			delwin(w);
		if ((w = dialog_window(9 + (int)reason_count +
		    (refusal[0] != '\0' ? 2 : 0))) == NULL)
			break;
		/* L10N: title of the reject dialog; %s is the action id */
		snprintf(line, sizeof line, _("Reject %s"), id);
		put_untrusted(w, 0, line, A_BOLD);
		y = 1;
		for (r = 0; r < reason_count; r++) {
			snprintf(line, sizeof line, "%zu %.250s", r + 1,
			    reasons[r]);
			put_untrusted(w, y++, line, strcmp(reason, reasons[r]) ?
			    A_NORMAL : A_BOLD);
		}
		/* L10N: 0 is the key that lets the officer type a reason */
		put(w, y++, _("0 Other (type it)"), A_NORMAL);
		/* L10N: the reason chosen so far, or "(required)" */
		snprintf(line, sizeof line, _("Reason: %s"), reason[0] ? reason :
		    /* L10N: in place of a reason not given yet */
		    _("(required)"));
		put_untrusted(w, y++, line, A_BOLD);
		if (deadlocked)
			/* L10N: a revision is the next version of the rejected
			   action; a roster lists the authors who may write one */
			put(w, y++, _("Revision: every roster author is locked "
			    "out; only escalation is possible"), A_BOLD);
		else {
			/* L10N: who writes the revision: %s is an author's
			   name, "escalate" or "none" */
			snprintf(line, sizeof line, _("Revision: %s"),
			    route == ROUTE_REASSIGN ? assignee : route ==
			    /* L10N: the revision goes to a superior
			       ("escalate") or to no one ("none") */
			    ROUTE_ESCALATE ? _("escalate") : _("none"));
			put_untrusted(w, y++, line, A_BOLD);
			/* L10N: the keys r, e and n stay whatever the
			   language */
			put(w, y++, _("  r reassign (cycles eligible authors)  "
			    "e escalate  n no revision"), A_NORMAL);
		}
		if (refusal[0] != '\0')
			put_untrusted(w, y++, refusal, A_BOLD | A_REVERSE);
		put(w, getmaxy(w) - 2, _("Enter confirm \xc2\xb7 Esc cancel"),
		    A_DIM);
		wrefresh(w);
		ch = wgetch(w);
		if (tui_signalled != 0 || ch == 27 || ch == 'q')
			break;
		if (ch >= '1' && ch < '1' + (int)reason_count)
			snprintf(reason, sizeof reason, "%s", reasons[ch - '1']);
		else if (ch == '0' || ch == '\t') {
			reason[0] = '\0';
			edit_text(w, y, _("Reason: "), reason, sizeof reason);
		} else if (ch == 'r' && !deadlocked) {
			if (cJSON_GetArraySize(eligible) > 0) {
				snprintf(assignee, sizeof assignee, "%s",
				    cJSON_GetArrayItem(eligible, next %
				    cJSON_GetArraySize(eligible))->valuestring);
				next++;
			} else
				/* L10N: label of the line where an author's
				   name is typed */
				edit_text(w, y, _("Reassign to: "), assignee,
				    sizeof assignee);
			route = assignee[0] != '\0' ? ROUTE_REASSIGN : ROUTE_NONE;
		} else if (ch == 'e')
			route = ROUTE_ESCALATE;
		else if (ch == 'n' && !deadlocked)
			route = ROUTE_NONE;
		else if (confirm_key(ch)) {
			memset(&req, 0, sizeof req);
			req.action_id = id;
			req.decision = DECISION_REJECT;
			req.reason = reason;
			req.reassign_to = route == ROUTE_REASSIGN ? assignee : NULL;
			req.escalate = route == ROUTE_ESCALATE;
			if (decision_record(t->store, &req, &t->op,
			    timestamp_now(), false, &out, &err) != 0)
				snprintf(refusal, sizeof refusal, "%s",
				    err.message);
			else if (!out.recorded)
				snprintf(refusal, sizeof refusal,
				    _("Refused (%s): %s"), out.code, out.message);
			else {
				/* L10N: the verb in "%.8s %s (decision
				   %.8s)" */
				report(t, &out, _("rejected"), id);
				break;
			}
		}
	}
	if (w != NULL)
		delwin(w);
	cJSON_Delete(eligible);
	recheck_free(&check);
	touchwin(stdscr);
}
