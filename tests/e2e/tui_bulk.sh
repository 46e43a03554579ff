#!/bin/sh
# Bulk decisions and small dialogs (issue 25): A and R say first what they
# will do (how many, which are skipped and why), ask for a reason from the
# kind's standard ones and for Enter, record each decision with the bulk
# it was part of, and leave skipped actions tagged.  A dialog too tall for
# the screen scrolls and says so, and drops nothing: at 60x15 the approve
# dialog of a divergent, high-stakes trade still has both check boxes.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

DEMO="$TOP_SRCDIR/data/demo"
cs import "$DEMO/security_map.json" "$DEMO/ips.json" "$DEMO/holdings.json" \
	"$DEMO/roster.json" "$DEMO/standards_index.json" \
	"$DEMO/packets-trade.jsonl" "$DEMO/packets-trade-more.jsonl" \
	"$DEMO/packets-legal-change.jsonl" >/dev/null
cs batch "$DEMO/decisions.batch" >/dev/null
CLEAN=4a1f0c33-8e2d-4f6a-b1c9-7d5e3a2b1c04
CLEAN2=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
FAILING=9f3b77c2-6d1a-4e8b-a0c5-3e9d2f1b7a66
EXPIRED=0c9d11aa-52e4-4c1b-8f70-2b9d6e3a4f18
record() { cs audit export | jq -c --arg id "$1" "select(.record.action_id == \$id) | .record${2-}"; }
tag() { keys /; keys C-u "$1" Enter; wait_for "> "; keys t; }

tui_start 80 24
wait_for "H high stakes"
tag 4a1f0c33; tag 0b6c1d52; tag 9f3b77c2; tag 0c9d11aa
keys /; keys C-u Enter; wait_for "pending"
expect_screen "the key line offers the bulk keys" "4 tagged: A approve them  R reject them"
keys A
expect_screen "A: a dialog, not a decision" "Approve 4 tagged"
expect_screen "A: how many, how many skipped" "2 will be approved, 2 skipped"
expect_screen "A: which is skipped and why (rules)" "9f3b77c2… skipped: local rules fail"
expect_screen "A: which is skipped and why (expiry)" "0c9d11aa… skipped: expired"
expect_screen "A: the trade's standard reasons" "2 Rebalancing toward target"
expect_eq "A: nothing recorded yet" "$(record $CLEAN)" ""
keys Enter
expect_screen "A: Enter without a reason is refused" "A bulk decision needs a reason"
expect_eq "A: still nothing recorded" "$(record $CLEAN)" ""
keys 2 Enter
expect_screen "A: what it did" "2 approved, 2 left tagged (bulk "
expect_eq "A: each record has the reason" "$(record $CLEAN .reason)" '"Rebalancing toward target"'
expect_eq "A: and the same bulk, with its count" \
	"$(record $CLEAN '.bulk | {count}')|$(record $CLEAN .bulk.id)" \
	"$(record $CLEAN2 '.bulk | {count}')|$(record $CLEAN .bulk.id)"
expect_eq "A: the count is what it set out to decide" "$(record $CLEAN .bulk.count)" 2
expect_eq "A: the skipped are not decided" "$(record $FAILING)$(record $EXPIRED)" ""
screen >"$WORK/after"
expect_eq "A: the skipped stay tagged" "$(grep -c '^ \*' "$WORK/after")" 2

# R over the same two: rejected with one reason, one bulk.
keys R
expect_screen "R: a dialog" "Reject 2 tagged"
expect_screen "R: how many" "2 will be rejected, 0 skipped"
keys Escape
expect_gone "Esc: nothing done" "Reject 2 tagged"
expect_eq "Esc: nothing recorded" "$(record $FAILING)" ""
keys R; wait_for "Reject 2 tagged"
keys Tab "Bulk: stale" Enter Enter
expect_screen "R: what it did" "2 rejected, 0 left tagged (bulk "
expect_eq "R: the reason typed" "$(record $FAILING .reason)" '"Bulk: stale"'
expect_eq "R: one bulk of two" "$(record $EXPIRED .bulk.count)" 2
expect_eq "a decision on its own has no bulk" \
	"$(cs audit export | jq -c 'select(.record.action_id == "rev-77ab-v1") | .record.bulk')" null

# The kind's reasons: a legal draft is not offered trade reasons.
keys /; keys C-u legal-2026-0042 Enter; wait_for "> "
keys r
expect_screen "legal_draft: its own reasons" "1 Blocking issue not fixed"
expect_gone "legal_draft: no trade reasons" "Violates an exclusion"
keys Escape
keys /; keys C-u NB-412 Enter; wait_for "> "
keys r
expect_screen "change: its own reasons" "1 Acceptance criterion not met"
keys Escape
tui_stop

# 60x15: the approve dialog scrolls; both boxes can be reached and ticked.
# A trade of high stakes whose rules pass and whose reviewer diverged (a
# failing one opens no dialog: issue 37): the demo's 7c41e2a0, with an
# advisory that says it fails.
jq -c 'select(.proposed_action.action_id == "7c41e2a0-0a8b-4b55-9d3e-1f2a3b4c5d60")
	| .proposed_action.action_id = "hs-diverged" | .reviewer_verdict.action_id = "hs-diverged"
	| .reviewer_verdict.overall_pass = false' "$DEMO/packets-trade-more.jsonl" >"$WORK/hs.json"
cs import "$WORK/hs.json" >/dev/null
tui_start 60 15
keys /; keys hs-diverged Enter; wait_for "> "
keys a
expect_screen "60x15: the dialog opens" "Approve hs-diverged"
expect_screen "60x15: it says more is below" "↓ more below (PgDn)"
expect_screen "60x15: the reason line stays in view" "Reason (required"
expect_screen "60x15: the divergence box is kept, with the reason" "[ ] I have reviewed the divergence"
expect_screen "60x15: and the high stakes box" "[ ] I have reviewed the high stakes"
keys d
expect_screen "60x15: d ticks it" "[x] I have reviewed the divergence"
keys h
expect_screen "60x15: h the other" "[x] I have reviewed the high stakes"
keys PgDn
expect_screen "PgDn scrolls the rest" "↑ more above (PgUp)"
# The high-stakes reasons and the notes: pages down to the standard reasons.
keys PgDn PgDn PgDn PgDn PgDn PgDn
expect_screen "down to the standard reasons" "1 Reviewed; within policy"
expect_screen "the boxes stay" "[x] I have reviewed the divergence"
keys PPage PPage PPage PPage PPage PPage PPage PPage
expect_screen "PgUp scrolls back to the top" "HIGH STAKES"
expect_screen "the title is still there" "Approve hs-diverged"
keys Escape
tui_stop
finish
