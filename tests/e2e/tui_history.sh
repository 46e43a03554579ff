#!/bin/sh
# History (issue 25): a list of decisions, newest first, whose selected
# entry opens as its whole audit record (routing, judgments,
# acknowledgements, bulk), and which / narrows; at 80x24 and 60x15.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

DEMO="$TOP_SRCDIR/data/demo"
cs import "$DEMO/security_map.json" "$DEMO/ips.json" "$DEMO/holdings.json" \
	"$DEMO/roster.json" "$DEMO/standards_index.json" \
	"$DEMO/packets-trade.jsonl" "$DEMO/packets-trade-more.jsonl" \
	"$DEMO/packets-legal-change.jsonl" >/dev/null
cs batch "$DEMO/decisions.batch" >/dev/null
cs batch >/dev/null <<'EOB'
{"action_id": "NB-412", "decision": "approve", "reason": "Docs read well", "acknowledge": ["high_stakes", "divergence"], "po_judgments": {"AC-3": "met"}}
{"action_id": "9d2e7b10", "decision": "reject", "reason": "Tobacco", "escalate": true}
EOB

tui_start 80 24
wait_for "H high stakes"
# A bulk approval of two clean trades, to find in the history.
keys /; keys 4a1f0c33 Enter; wait_for "> "; keys t
keys /; keys 0b6c1d52 Enter; wait_for "> "; keys t
keys /; keys C-u Enter; wait_for "pending"
keys A; wait_for "2 will be approved"; keys 1 Enter
wait_for "2 approved, 0 left tagged"
keys h
expect_screen "80x24: the history" "HISTORY: decisions, newest first"
expect_eq "80x24: the newest is selected" \
	"$(screen | grep -c '^> #[0-9]* .* APPROVED ')" 1
expect_screen "80x24: an entry says it was part of a bulk" "bulk "
expect_screen "80x24: the keys" "j/k select  Enter open  / search  ? help  q back"
keys Enter
expect_screen "Enter opens the selected record" "AUDIT RECORD #"
expect_screen "the record: its action" "-8e2d-4f6a-b1c9-7d5e3a2b1c04 (trade)"
expect_screen "the record: who, when" "decision    approve by root (uid "
expect_screen "the record: the bulk" ", 2 decided together"
expect_screen "the record: acknowledgements" "acknowledged []"
expect_screen "the record: the rules" "LOCAL VERDICT  pass"
keys q
expect_screen "q goes back to the history" "HISTORY: decisions"
keys j j
expect_re "j moves the selection" '^> #[0-9]* .* REJECTED 9d2e7b10'
keys Enter
expect_screen "a rejection's routing" "routing     escalated"
expect_screen "its acknowledgement-free record" "reason      Tobacco"
expect_screen "what failed, loudly" "excluded_sector"
keys Escape
keys j
keys Enter
expect_screen "a change's judgments" "judgments   AC-3 met"
keys q
# / narrows the history.
keys /; keys rev-77ab Enter
expect_screen "/ narrows it" "HISTORY: decisions mentioning \"rev-77ab\""
lines_matching() { screen | grep -c "$1"; }
expect_drawn "to the matching decision alone" 1 lines_matching '^[> ] #'
expect_drawn "selected" 1 lines_matching '^> #[0-9]* .* rev-77ab-v1 '
keys Enter
expect_screen "and opens it" "routing     reassigned to action-drafting-b"
keys q
keys Escape
expect_screen "Esc shows all again" "HISTORY: decisions, newest first"
keys /; keys tobacco Enter
wait_for 'mentioning "tobacco"'
expect_re "/ finds a reason, ignoring case" '^> #[0-9]* .* REJECTED 9d2e7b10'
keys Escape Escape
expect_screen "Esc, Esc: back to the queue" "pending"
tui_stop

tui_start 60 15
keys h
expect_screen "60x15: the history" "HISTORY"
expect_screen "60x15: its keys are whole" "? help  q back"
keys G
expect_screen "60x15: G selects the oldest, scrolled into view" "REJECTED rev-77ab-v1"
expect_re "60x15: selected" '^> #[0-9]* .* REJECTED rev-77ab-v1'
keys Enter
expect_screen "60x15: the record opens" "action      rev-77ab-v1 (trade)"
expect_screen "60x15: its keys" "q history"
tui_stop
finish
