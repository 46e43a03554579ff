#!/bin/sh
# The review screens for each kind's own duties: a legal draft's inline
# fix shown as a diff, a change's NEEDS-PO criteria walked one by one, and
# a rejection reassigned so that the original author's revision is flagged.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-divergent.json" \
	"$EXAMPLES/packet-legal-draft.json" "$EXAMPLES/packet-change.json" \
	"$EXAMPLES/standards_index.json" "$EXAMPLES/roster.json" >/dev/null
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
record() { cs audit export | jq -c --arg id "$1" "select(.record.action_id == \$id) | .record | $2"; }

tui_start 80 24
keys /; keys legal-2026 Enter; wait_for "> " ; keys Enter
expect_screen "the legal detail says what approval approves" "Approving approves the FIXED text"
expect_screen "the fix is shown as an added line" "+ 7. LIMITATION: The suit is within limitation"
keys q

# The change: approving walks its NEEDS-PO criterion.
keys /; keys C-u NB-412 Enter; wait_for "NB-412"
keys a
expect_screen "the dialog asks about AC-3" "AC-3 The docs read clearly: m met / u unmet"
keys Enter
expect_screen "unjudged, it is refused" "Refused (po_judgment_required)"
keys m
expect_screen "judged met" "AC-3 The docs read clearly: met"
keys Enter
expect_screen "recorded" "approved (decision"
expect_eq "with the judgment in the audit record" "$(record NB-412 .po_judgments)" '{"AC-3":"met"}'

# Reject the divergent trade, reassigning its revision.
keys /; keys C-u "$DIVERGENT" Enter; wait_for "9d2e7b10"
keys r
expect_screen "the reject dialog offers reassignment" "r reassign"
keys r
expect_screen "to an eligible author (not the rejected one)" "Revision: action-drafting-b"
keys 5 Enter
expect_screen "rejected" "rejected (decision"
expect_eq "routed to the reassignee" "$(record "$DIVERGENT" .routing)" '{"reassign_to":"action-drafting-b"}'

# The original author's revision arrives: the queue flags it L.
jq -c '.proposed_action.action_id = "rev-by-original" | .reviewer_verdict.action_id = "rev-by-original"
	| .proposed_action.revision_of = "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/revision.jsonl"
cs import "$WORK/revision.jsonl" >/dev/null
keys /; keys C-u Enter
expect_screen "the revision is flagged locked out" "x!L   trade   rev-by-o"
finish
