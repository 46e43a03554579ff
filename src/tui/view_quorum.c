/*
 * The approvals of an action under a quorum, on its detail (SPEC 14):
 * who approved, when, and why, and whether the officer looking is one
 * of them (then approve is unavailable).
 */
#include "config.h"

#include "i18n.h"
#include "tui.h"

bool
quorum_section(struct tui *t, struct detail *d, const char *action_id,
    const struct recheck *r)
{
	const struct approval_row *mine, *a;
	struct quorum_view q;
	struct error err;
	int more;
	size_t i;

	if (quorum_view_load(t->store, action_id, r, &q, &err) != 0) {
		tui_notice(t, "%s", err.message);
		return false;
	}
	if (q.needed <= 1 && q.count == 0) {
		quorum_view_free(&q);
		return false;
	}
	more = q.needed - (int)q.count > 0 ? q.needed - (int)q.count : 0;
	detail_add(d, DETAIL_PLAIN, "%s", "");
	if (q.count == 0)
		/* L10N: a section label of the detail (lined up at 13
		   columns with HIGH STAKES), then how many distinct
		   officers must approve under the approval policy */
		detail_add(d, DETAIL_HEADING, _("APPROVALS    %d officers must "
		    "approve this (approval policy); none has yet"), q.needed);
	else
		/* L10N: as above: %1$d approvals so far of %2$d needed,
		   %3$d still to come */
		detail_add(d, DETAIL_HEADING, _("APPROVALS    %1$d of %2$d; "
		    "waiting for %3$d more"), (int)q.count, q.needed, more);
	for (i = 0; i < q.count; i++) {
		a = &q.approvals[i];
		/* L10N: one approval so far: who, when, and the reason
		   given (or "no reason") */
		detail_add(d, DETAIL_PLAIN, _("  %s at %s: %s"),
		    a->operator_login, a->approved_at, a->reason != NULL ?
		    a->reason : _("no reason"));
	}
	mine = quorum_view_by(&q, t->op.login);
	if (mine != NULL)
		/* L10N: to the officer who already approved: their login,
		   when, and how many other officers must still approve */
		detail_add(d, DETAIL_ALERT, _("You (%s) approved this at %s; "
		    "another officer must approve it (waiting for %d more)"),
		    t->op.login, mine->approved_at, more);
	quorum_view_free(&q);
	return mine != NULL;
}
