/*
 * A and R: one decision over every tagged action the queue shows.  The
 * dialog says first what will happen (how many are decided, which are
 * skipped and why), asks for a reason, and records nothing before Enter.
 * Each decision still goes through the one decision path, which may
 * refuse it; every record names the bulk it was part of.  Skipped and
 * refused actions stay tagged.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialog.h"
#include "i18n.h"
#include "json_fields.h"
#include "lockout.h"
#include "reasons.h"
#include "text.h"
#include "timestamp.h"
#include "tui.h"
#include "uuid_random.h"

struct bulk_item {
	char *id;
	const char *skip;		/* why it is left out, or NULL */
	char summary[256];		/* raw: detail_add() sanitizes */
	/* The packet as re-checked and listed: what the decision is about. */
	char sha256[65];
	/* SPEC 14: an approval short of its quorum, and how far it gets. */
	bool partial;
	int have, needed;
};

struct bulk {
	enum decision_kind decision;
	struct bulk_item *items;
	size_t count;
	long chosen;			/* items to decide */
	long partial;			/* of those, approvals short of a quorum */
	const char *kind;		/* the items' one kind, or NULL */
};

/*
 * The operator asked for it, drafted it or contributed to it, or (v3)
 * imported it through the service (SPEC 5).
 */
static bool
own_action(const struct tui *t, const struct recheck *rc)
{
	const cJSON *action = rc->data.input.action, *name;

	if (decision_imported_by(&rc->data, &t->op))
		return true;

	if (text_same_name(cJSON_GetStringValue(json_member(action,
	    "requested_by")), t->op.login) ||
	    text_same_name(cJSON_GetStringValue(json_member(action,
	    "author")), t->op.login))
		return true;
	cJSON_ArrayForEach(name, json_member(action, "contributors")) {
		if (text_same_name(cJSON_GetStringValue(name), t->op.login))
			return true;
	}
	return false;
}

/*
 * Why a bulk approval leaves an action out: anything the gate would
 * refuse, and anything that needs an acknowledgement of its own.
 */
static const char *
approve_skip(const struct tui *t, const struct recheck *rc, long long now_ms)
{
	const struct verdict *v = &rc->outcome.verdict;

	if (strcmp(rc->data.status, "pending") != 0)
		/* L10N: why a bulk decision leaves an action out */
		return _("already decided");
	if (rc->data.has_expiry && now_ms >= rc->data.expires_at_ms)
		/* L10N: why a bulk approval leaves an action out */
		return _("expired");
	if (!v->overall_pass)
		/* L10N: why a bulk approval leaves an action out */
		return _("local rules fail");
	if (own_action(t, rc))
		/* L10N: why a bulk approval leaves an action out: the
		   officer requested, drafted, co-authored or imported it */
		return _("your own action");
	if (v->requires_human_approval)
		/* L10N: why a bulk approval leaves an action out */
		return _("high stakes: approve it on its own");
	if (cJSON_GetArraySize(rc->outcome.divergence) > 0)
		/* L10N: why a bulk approval leaves an action out */
		return _("diverges from the advisory: approve it on its own");
	return NULL;
}

static const char *
reject_skip(const struct recheck *rc)
{
	if (strcmp(rc->data.status, "pending") != 0)
		return _("already decided");
	/* Its rejection must name who is needed (SPEC 2.4). */
	if (lockout_deadlocked(&rc->data.input, true))
		/* L10N: why a bulk rejection leaves an action out */
		return _("deadlocked: reject it on its own, with escalation");
	return NULL;
}

static void
bulk_free(struct bulk *b)
{
	size_t i;

	for (i = 0; i < b->count; i++)
		free(b->items[i].id);
	free(b->items);
}

/*
 * Under a quorum (SPEC 14): an action this officer approved already is
 * left out, and one this approval does not decide is a partial approval.
 */
static void
plan_quorum(struct tui *t, struct bulk_item *item, const struct recheck *rc)
{
	struct quorum_view q;
	struct error err;

	if (quorum_view_load(t->store, item->id, rc, &q, &err) != 0) {
		item->skip = _("cannot be re-checked");
		return;
	}
	if (quorum_view_by(&q, t->op.login) != NULL)
		/* L10N: why a bulk approval leaves an action out: under a
		   quorum, this officer has approved it already */
		item->skip = _("you approved it already");
	else if ((int)q.count + 1 < q.needed) {
		item->partial = true;
		item->have = (int)q.count + 1;
		item->needed = q.needed;
	}
	quorum_view_free(&q);
}

/* Each tagged action the queue shows, re-checked: decided or skipped, and why. */
static int
bulk_plan(struct tui *t, struct bulk *b)
{
	struct recheck rc;
	struct error err;
	long long now = timestamp_now();
	char **ids;
	size_t count, i;
	bool one_kind = true;

	if ((ids = queue_visible_tagged(t, &count)) == NULL)
		return -1;
	b->items = calloc(count + 1, sizeof *b->items);
	if (b->items == NULL) {
		queue_free_ids(ids, count);
		return -1;
	}
	for (i = 0; i < count; i++) {
		struct bulk_item *item = &b->items[b->count++];

		item->id = ids[i];
		ids[i] = NULL;
		if (recheck_action(t->store, item->id, now, NULL, &rc,
		    &err) != 0) {
			/* L10N: why a bulk decision leaves an action out */
			item->skip = _("cannot be re-checked");
			continue;
		}
		item->skip = b->decision == DECISION_APPROVE ?
		    approve_skip(t, &rc, now) : reject_skip(&rc);
		if (item->skip == NULL && b->decision == DECISION_APPROVE)
			plan_quorum(t, item, &rc);
		snprintf(item->sha256, sizeof item->sha256, "%s",
		    rc.data.packet_sha256);
		rc.outcome.pack->summarize(rc.data.input.action, item->summary,
		    sizeof item->summary);
		if (b->kind == NULL && one_kind)
			b->kind = rc.outcome.pack->kind;
		else if (b->kind != NULL && strcmp(b->kind,
		    rc.outcome.pack->kind) != 0) {
			b->kind = NULL;
			one_kind = false;
		}
		if (item->skip == NULL)
			b->chosen++;
		if (item->skip == NULL && item->partial)
			b->partial++;
		recheck_free(&rc);
	}
	queue_free_ids(ids, count);
	return 0;
}

/* What the bulk dialog holds while the officer confirms it. */
struct bulk_state {
	struct bulk b;
	char reasons[REASONS_MAX][REASON_SIZE];
	size_t reason_count;
	char reason[REASON_SIZE];
	char refusal[256];
};

static void
bulk_lines(const struct tui *t, struct dialog *d, const struct bulk *b,
    char reasons[][REASON_SIZE], size_t reason_count, const char *reason,
    const char *refusal)
{
	long skipped = (long)b->count - b->chosen;
	size_t i;
	char *id;

	dialog_clear(d);
	if (b->partial > 0)
		/* L10N: the bulk approval dialog under a quorum (SPEC 14):
		   %1$ld actions will be approved (decided), %2$ld given an
		   approval that waits for other officers, %3$ld left out */
		detail_add(&d->head, DETAIL_HEADING, _("%1$ld will be approved, "
		    "%2$ld partially (quorum), %3$ld skipped"),
		    b->chosen - b->partial, b->partial, skipped);
	else
		detail_add(&d->head, DETAIL_HEADING, b->decision ==
		    DECISION_APPROVE ?
		    /* L10N: the bulk approval dialog: %1$ld actions will be
		       approved, %2$ld are left out */
		    _("%ld will be approved, %ld skipped") :
		    /* L10N: the bulk rejection dialog: as above */
		    _("%ld will be rejected, %ld skipped"), b->chosen,
		    skipped);
	if (skipped > 0)
		/* L10N: under the counts of a bulk decision */
		detail_add(&d->head, DETAIL_PLAIN, "%s", _("Skipped actions "
		    "stay tagged; open each to decide it."));
	for (i = 0; i < b->count; i++) {
		id = short_id(t->store, b->items[i].id);
		if (b->items[i].skip == NULL && b->items[i].partial)
			/* L10N: an action a bulk approval approves without
			   deciding it: %1$s its id, %2$d and %3$d the
			   approvals it will have and needs, %4$s its summary */
			detail_add(&d->list, DETAIL_PLAIN, _("~ %1$s %2$d/%3$d "
			    "%4$s"), id, b->items[i].have, b->items[i].needed,
			    b->items[i].summary);
		else if (b->items[i].skip == NULL)
			detail_add(&d->list, DETAIL_PLAIN, "+ %s %s",
			    id, b->items[i].summary);
		else
			/* L10N: an action a bulk decision leaves out: %1$s
			   its id, %2$s why */
			detail_add(&d->list, DETAIL_ALERT, _("- %s skipped: %s"),
			    id, b->items[i].skip);
		free(id);
	}
	for (i = 0; i < reason_count; i++)
		detail_add(&d->menu, strcmp(reason, reasons[i]) ? DETAIL_DIM :
		    DETAIL_HEADING, "%zu %s", i + 1, reasons[i]);
	/* L10N: the reason of a bulk decision; Tab is the key */
	detail_add(&d->tail, DETAIL_PLAIN, _("Reason (required, Tab to type): "
	    "%s"), reason);
	if (refusal[0] != '\0')
		detail_add(&d->tail, DETAIL_ALERT, "%s", refusal);
}

/* Records the chosen items as one bulk; untags what was decided. */
static void
bulk_record(struct tui *t, const struct bulk *b, const char *reason)
{
	struct decision_bulk bulk;
	struct decision_request req;
	struct decision_outcome out;
	struct error err;
	size_t i, decided = 0, partial = 0;

	uuid_random(bulk.id);
	bulk.count = b->chosen;
	/* A signal (the service stopping) ends it between two decisions. */
	for (i = 0; i < b->count && tui_signalled == 0; i++) {
		if (b->items[i].skip != NULL)
			continue;
		/* SPEC 5 `changed`: only the packet the dialog listed. */
		dialog_request(&req, b->items[i].id, b->decision, reason,
		    b->items[i].sha256);
		req.bulk = &bulk;
		if (decision_record(t->store, &req, &t->op, DECISION_NOW,
		    false, &out, &err) == 0 && out.recorded) {
			if (out.partial)
				partial++;
			else
				decided++;
			queue_untag(t, b->items[i].id);
		} else if (tui_end_if_forbidden(t, &out))
			break;	/* SPEC 10 (v3): no more of them can be */
	}
	queue_refresh(t->store, timestamp_now(), NULL, &err);
	t->counts_stale = true;
	tui_reload(t);
	t->recorded_now = decided + partial > 0;
	if (partial > 0)
		/* L10N: after a bulk approval under a quorum (SPEC 14): how
		   many were approved (decided), how many given an approval
		   that waits for other officers, how many left tagged, the
		   bulk's id */
		tui_notice(t, _("%zu approved, %zu partial approval(s) waiting "
		    "for other officers, %zu left tagged (bulk %.8s)"), decided,
		    partial, b->count - decided - partial, bulk.id);
	else
		tui_notice(t, b->decision == DECISION_APPROVE ?
		    /* L10N: after a bulk approval: how many were approved,
		       how many skipped or refused (they stay tagged), the
		       bulk's id */
		    _("%zu approved, %zu left tagged (bulk %.8s)") :
		    /* L10N: after a bulk rejection: as above */
		    _("%zu rejected, %zu left tagged (bulk %.8s)"), decided,
		    b->count - decided, bulk.id);
}

static int
bulk_draw(const struct tui *t, struct dialog *d, void *state)
{
	struct bulk_state *s = state;

	bulk_lines(t, d, &s->b, s->reasons, s->reason_count, s->reason,
	    s->refusal);
	return dialog_draw(t, d);
}

/* A key that chooses the reason or types it. */
static enum dialog_step
bulk_key(struct tui *t, struct dialog *d, void *state, int ch)
{
	struct bulk_state *s = state;

	(void)t;
	if (!dialog_reason_key(s->reasons, s->reason_count, ch, s->reason,
	    sizeof s->reason) && (ch == '0' || ch == '\t'))
		edit_reason(d, s->reason, sizeof s->reason);
	return DIALOG_STAY;
}

/* Enter: the bulk is recorded, unless it decides nothing or lacks a reason. */
static enum dialog_step
bulk_confirm(struct tui *t, struct dialog *d, void *state)
{
	struct bulk_state *s = state;

	if (s->b.chosen == 0)
		/* L10N: Enter in a bulk dialog that would decide nothing */
		snprintf(s->refusal, sizeof s->refusal, "%s",
		    _("Nothing to decide: every tagged action is skipped"));
	else if (text_blank(s->reason))
		/* L10N: Enter in a bulk dialog without a reason */
		snprintf(s->refusal, sizeof s->refusal, "%s",
		    _("A bulk decision needs a reason"));
	else {
		dialog_show_recording(d);
		bulk_record(t, &s->b, s->reason);
		return DIALOG_CLOSE;
	}
	return DIALOG_STAY;
}

static const struct dialog_ops bulk_ops = {
	bulk_draw, bulk_key, bulk_confirm
};

void
dialog_bulk(struct tui *t, enum decision_kind decision)
{
	struct bulk_state s;
	char title[128];

	memset(&s, 0, sizeof s);
	s.b.decision = decision;
	if (t->tag_count == 0) {
		/* L10N: t is the key that tags: keep it */
		tui_notice(t, _("nothing is tagged (t tags an action)"));
		return;
	}
	if (bulk_plan(t, &s.b) != 0)
		return;
	if (s.b.count == 0) {
		/* L10N: the tagged actions are all hidden by the search or
		   filter */
		tui_notice(t, _("no tagged action is shown"));
		bulk_free(&s.b);
		return;
	}
	s.reason_count = reasons_load(decision == DECISION_APPROVE ?
	    "approve" : "reject", s.b.kind, s.reasons, REASONS_MAX);
	snprintf(title, sizeof title, decision == DECISION_APPROVE ?
	    /* L10N: title of the bulk approval dialog: how many are tagged */
	    _("Approve %zu tagged") :
	    /* L10N: title of the bulk rejection dialog */
	    _("Reject %zu tagged"), s.b.count);
	dialog_run(t, title, &bulk_ops, &s);
	bulk_free(&s.b);
}
