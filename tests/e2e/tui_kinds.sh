#!/bin/sh
# The review screens for each kind's own duties: a legal draft's inline
# fix shown as a diff, a change's NEEDS-PO criteria walked one by one, and
# a rejection reassigned so that the original author's revision is flagged.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

# The change example with its AC-2 evidence cited and its commit named, so
# that (v2) judging AC-3 leaves nothing of high stakes.
jq -c '.reviewer_verdict.ac_results[1].evidence = {file: "scripts/lint.sh", line: 12}
	| .proposed_action.head_sha = "0123456789abcdef0123456789abcdef01234567"' \
	"$EXAMPLES/packet-change.json" >"$WORK/change.json"
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-divergent.json" \
	"$EXAMPLES/packet-legal-draft.json" "$WORK/change.json" \
	"$EXAMPLES/standards_index.json" "$EXAMPLES/roster.json" >/dev/null
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
record() { cs audit export | jq -c --arg id "$1" "select(.record.action_id == \$id) | .record | $2"; }

tui_start 80 24
keys /; keys legal-2026 Enter; wait_for "> " ; keys Enter
expect_screen "the legal detail says what approval approves" "Approving approves the INLINE FIX"
expect_screen "the fix is shown as an added line" "+ 7. LIMITATION: The suit is within limitation"
keys q

# The change: approving walks its NEEDS-PO criterion.
keys /; keys C-u NB-412 Enter; wait_for "NB-412"
keys a
expect_screen "the dialog asks about AC-3" "AC-3 The docs read clearly: m met / u unmet"
expect_screen "unjudged, the re-check fails: a reason is required" "Reason (required"
keys Enter
expect_screen "unjudged, it is refused" "Refused (po_judgment_required)"
keys m
expect_screen "judged met" "AC-3 The docs read clearly: met"
# The judgment is re-checked at once: what it ended is no longer asked for.
expect_screen "re-checked after the judgment: a reason is optional" "Reason (optional"
expect_gone "re-checked: the failure is gone" "LOCAL RULES FAIL"
expect_gone "re-checked: no high stakes to acknowledge" "I have reviewed the high stakes"
expect_gone "re-checked: the old refusal is gone" "Refused (po_judgment_required)"
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

# Reading: every row of a long line can be reached, and untrusted text can
# never start a row where the screen's own labels start.
tui_stop
DB=$(db_new reading)
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/standards_index.json" \
	"$EXAMPLES/roster.json" >/dev/null
jq -c '.proposed_action.action_id = "LONG1"
	| .proposed_action.draft_text = "The defendant owes the plaintiff. "
	    + ("padding " * 1500) + "HIDDEN CLAUSE: the plaintiff waives all claims."
	| .reviewer_verdict = {"review_pass": true, "blocking_issues": [],
	    "non_blocking_issues": [], "final_artifacts": []}' \
	"$EXAMPLES/packet-legal-draft.json" >"$WORK/long.jsonl"
# Padding makes the rationale wrap into what looks like the screen's own
# sections (80 columns: "Rationale: Dividend yield." is 26 of them); a
# newline tries the same with a fresh line.  The trade is clean, so the
# real sections say "HIGH STAKES  no" and "DIVERGENCE   none" once each.
pad=$(printf '%80s' '')
jq -c --arg pad "$pad" '.proposed_action.action_id = "SPOOF"
	| .proposed_action.rationale = "Dividend yield." + $pad[0:54]
	    + "HIGH STAKES  no" + $pad[0:65] + "DIVERGENCE   none: the advisory verdict agrees"
	| .reviewer_verdict.action_id = "SPOOF"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/spoof.jsonl"
jq -c '.proposed_action.action_id = "NEWLINE"
	| .proposed_action.rationale = "Dividend yield.\nHIGH STAKES  no"
	| .reviewer_verdict.action_id = "NEWLINE"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/spoof.jsonl"
# A change with 25 NEEDS-PO criteria, one of them too long for a row.
jq -c '.proposed_action.action_id = "MANY"
	| .proposed_action.acceptance_criteria = [range(1; 26) as $i | {id: "AC-\($i)",
	    text: (if $i == 2 then "a criterion whose text is far too long for one row of the dialog, so it is cut"
	    else "criterion \($i)" end)}]
	| .reviewer_verdict.ac_results = [range(1; 26) as $i |
	    {ac_id: "AC-\($i)", state: "NEEDS-PO", evidence: ""}]' \
	"$EXAMPLES/packet-change.json" >"$WORK/many.jsonl"
# Ids that a cut would garble: inside an escape, inside a character.
for id in 'ABCDEFG\033XYZ' 'ééééééééézz1'; do
	jq -c --arg id "$(printf "$id")" '.proposed_action.action_id = $id
		| .reviewer_verdict.action_id = $id' \
		"$EXAMPLES/packet-trade-pass.json"
done >"$WORK/ids.jsonl"
cs import "$WORK/long.jsonl" "$WORK/spoof.jsonl" "$WORK/many.jsonl" \
	"$WORK/ids.jsonl" >/dev/null

# The screen's rows of the draft joined back into the text they show.
# The queue cuts ids with an ellipsis, never inside an escape.
tui_start 80 24
expect_screen "a cut id ends in an ellipsis, not half an escape" " ABCDEFG…  "
expect_screen "a cut id of wide bytes is cut by characters" " éééééééé… "
keys /; keys zz1 Enter; wait_for "> "; keys a
wait_for "Approve "
keys Enter
expect_screen "the notice quotes the id by characters, not bytes" \
	"éééééééé… approved (decision"

joined() { screen | sed -e '$d' -e 's/^↪ //' -e 's/^  //' | tr -d '\n'; }
clause="HIDDEN CLAUSE: the plaintiff waives all claims."
tui_start 80 24
keys /; keys LONG1 Enter; wait_for "> "; keys Enter
expect_screen "a long page says where the screen is" " 1-23/"
case $(joined) in *"$clause"*) fail "the clause is on the first screen";; esac
expect_screen "wrapped rows are marked as continuing" "↪ "
keys j
expect_screen "j scrolls one screen row, inside the long line" " 2-24/"
keys k
expect_screen "k scrolls back one row" " 1-23/"
pages=0
while [ $pages -lt 20 ]; do
	case $(joined) in *"$clause"*) break;; esac
	before=$(screen | tail -1)
	keys Space
	screen_until lacks "$before" || break
	pages=$((pages + 1))
done
case $(joined) in
*"$clause"*) pass "Space pages through the long line to its last words ($pages pages)";;
*) fail "Space never showed the end of the long line:"; show_screen;;
esac
keys g
expect_screen "g goes back to the top" " 1-23/"
keys End
expect_screen "End shows the end of the page" "DIVERGENCE   none"
keys PPage
expect_gone "PgUp leaves the end" "DIVERGENCE   none"
keys q

keys /; keys C-u SPOOF Enter; wait_for "> "; keys Enter
expect_screen "the padded rationale is shown" "Rationale: Dividend yield."
expect_screen "the real high stakes section is shown" "HIGH STAKES  "
expect_eq "padding cannot fake a section at column 0" \
	"$(screen | grep -c -e '^HIGH STAKES  no' -e '^DIVERGENCE   none')" 2
expect_eq "its continuation rows are indented under the label and marked" \
	"$(screen | grep -c '^         ↪ ')" 2
keys q
keys /; keys C-u NEWLINE Enter; wait_for "> "; keys Enter
expect_screen "a newline shows as ^J, as in every field" "Rationale: Dividend yield.^J"
expect_screen "the next line is indented under the label" "           HIGH STAKES  no"
expect_eq "a newline cannot fake a section at column 0" \
	"$(screen | grep -c '^HIGH STAKES  no')" 1
keys q

# The approve dialog with more criteria than rows: the reason and the keys
# stay, the list scrolls to the criterion asked, long texts are cut before
# the keys, and a long refusal wraps.
keys /; keys C-u MANY Enter; wait_for "> "; keys a
expect_screen "25 criteria: the reason line stays" "Reason (required, Tab to type)"
expect_screen "25 criteria: the key line stays whole" "│ Enter confirm · Esc cancel  "
expect_screen "a long criterion is cut before its keys" "…: m met / u unmet │"
keys Enter
expect_screen "a long refusal wraps to its end" "divergence_unacknowledged,"
expect_screen "at a word" "↪  reason_required)"
expect_screen "and the key line is still there" "│ Enter confirm · Esc cancel  "
keys Tab
expect_screen "the reason is typed on its own row" "│ Reason: _"
expect_screen "the refusal stays while typing" "Refused (po_judgment_required)"
expect_screen "the title stays while typing" "Approve MANY"
keys Enter
judged=0
while [ $judged -lt 20 ]; do
	keys m
	judged=$((judged + 1))
	# The count is in the head, which scrolls away: the cursor moves on.
	wait_for "> AC-$((judged + 1)) " || break
done
expect_screen "the head scrolled away says so" "↑ more above (PgUp)"
expect_screen "the list scrolls to the criterion asked" "> AC-21 criterion 21: m met / u unmet"
expect_screen "the judged ones above it stay readable" "AC-20 criterion 20: met"
expect_screen "judging, the reason line stays" "Reason ("
expect_screen "judging, the key line stays" "│ Enter confirm · Esc cancel  "
keys Escape

# Structured legal reviews (issue 36, tests/hostile): an error that is an
# object and checks that are objects, strings and other values once aborted
# the review screen the moment the draft was opened.  It opens, shows the
# error and every check with its controls escaped, and approves.
HOSTILE="$TOP_SRCDIR/tests/hostile"
cs import "$HOSTILE/legal-error-object.jsonl" "$HOSTILE/legal-checks-mixed.jsonl" >/dev/null
keys /; keys C-u h-legal-error-object Enter; wait_for "> "; keys Enter
expect_screen "a review error that is an object is shown" 'Review error: {"code":"timeout","attempts":3,'
expect_screen "with its controls escaped" '{"code":"timeout","attempts":3,"\u001b]52;c;cHduZWQ=\u0007":"\u001b[2J"}): no'
expect_eq "the review screen survives the object error" "$(tui_exit_status)" running
keys a
expect_screen "the approval dialog opens" "I have reviewed the high stakes"
keys Escape; keys q
keys /; keys C-u h-legal-checks-mixed Enter; wait_for "> "; keys Enter
expect_screen "checks of every type are counted" "Reviewer's checks (6)"
expect_screen "an object check as its JSON" '- {"check":"court fee","passed":false}'
expect_screen "a string check as text" "- plain"
expect_screen "a nested check" '- [1,{"a":true}]'
expect_eq "the review screen survives the mixed checks" "$(tui_exit_status)" running
keys a
expect_screen "approving it asks no acknowledgement" "Reason (optional"
keys Enter
expect_screen "it is recorded" "approved (decision"
expect_eq "and replays" "$(cs audit replay h-legal-checks-mixed >/dev/null 2>&1; echo $?)" 0
# Back to the queue if the decision left the detail open.
if screen | grep -qF "q back"; then keys q; fi

# (v3) A trade's new high-stakes reasons show on its detail like the
# others: SGOV is unheld and unpriced, and $25,000 is beyond the cash.
jq -c '.proposed_action.action_id = "V3-STAKES" | .reviewer_verdict.action_id = "V3-STAKES"
	| .proposed_action.ticker = "SGOV" | .proposed_action.quantity = 1000000
	| .proposed_action.estimated_value_usd = 25000' "$EXAMPLES/packet-trade-pass.json" >"$WORK/v3.jsonl"
cs import "$WORK/v3.jsonl" >/dev/null
keys /; keys C-u V3-STAKES Enter; wait_for "> "; keys Enter
expect_screen "the detail says a human must approve" "HIGH STAKES  a human must approve this"
expect_screen "no reference price, in the officer's words" "the packet prices SGOV at \$0.025 a unit, and"
expect_screen "the cash it exceeds" "the buy of \$25,000.00 exceeds the cash of \$20,000.00 (cash_usd)"
keys q
finish
