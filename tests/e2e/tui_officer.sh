#!/bin/sh
# What the officer sees (issue 25): the detail's head (requester, author,
# contributors, drafted and expiry times), ids by their unique prefix,
# search over every column, the query's state in view, footers whose keys
# are never cut, and a detail that follows decisions made elsewhere; at
# 80x24 and 60x15.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

DEMO="$TOP_SRCDIR/data/demo"
cs import "$DEMO/security_map.json" "$DEMO/ips.json" "$DEMO/holdings.json" \
	"$DEMO/roster.json" "$DEMO/standards_index.json" \
	"$DEMO/packets-trade.jsonl" "$DEMO/packets-legal-change.jsonl" >/dev/null
# Times relative to now: drafted 3 hours ago, expiring in 2 hours and a
# half, or expired 3 days and an hour ago.
ago() { date -u -d "@$(($(date +%s) - $1))" +%Y-%m-%dT%H:%M:%SZ; }
DRAFTED=$(ago 10800)
SOON=$(ago -9000)
PAST=$(ago 266400)
jq -c --arg d "$DRAFTED" --arg soon "$SOON" --arg past "$PAST" '
	(.proposed_action.action_id = "soon-1"
	 | .proposed_action.drafted_at = $d | .proposed_action.expires_at = $soon
	 | .proposed_action.requested_by = "pm.ortiz"
	 | .proposed_action.contributors = ["alice", "bob"]
	 | .reviewer_verdict.action_id = "soon-1"),
	(.proposed_action.action_id = "gone-1"
	 | .proposed_action.drafted_at = $d | .proposed_action.expires_at = $past
	 | .reviewer_verdict.action_id = "gone-1")' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/times.jsonl"
cs import "$WORK/times.jsonl" >/dev/null
pending=$(cs list --json | wc -l)

tui_start 80 24
wait_for "H high stakes  x fails"
screen >"$WORK/queue"
# Three legal drafts share "legal-2026-00": each shows until it differs.
for id in legal-2026-0042 legal-2026-0051 legal-2026-0053; do
	expect_contains "80x24: $id reads whole, not cut to 8" "$WORK/queue" " $id "
done
expect_contains "80x24: a cut UUID ends in an ellipsis" "$WORK/queue" "9d2e7b10-1c4f-…"
# Issue 37: at 80 columns a trade's amount is whole; the requester's
# column gives way to it (tui_queue_80.sh shows it at 100).
expect_contains "80x24: the trade's amount is whole" "$WORK/queue" \
	"BUY MO x600 \$31,000.00"
expect_eq "80x24: AGE counts from drafted_at" \
	"$(grep 'soon-1' "$WORK/queue" | awk '{ print $NF }')" 3h
expect_contains "80x24: the keys are whole" "$WORK/queue" "? help  q quit"
expect_contains "80x24: the filter and sort are in view" "$WORK/queue" \
	"filter: all · sort: most care first"

# countersign list: the queue's order, and who asked.
cs list --json | jq -r .action_id >"$WORK/list-order"
sed -n '3,12p' "$WORK/queue" | cut -c18- | awk '{ print $1 }' | sed 's/…$//' >"$WORK/queue-order"
same=yes
paste -d ' ' "$WORK/queue-order" "$WORK/list-order" | head -10 >"$WORK/pairs"
while read -r shown listed; do
	case $listed in "$shown"*) ;; *) same=no;; esac
done <"$WORK/pairs"
expect_eq "list prints the queue's order" "$same" yes
expect_eq "list --json names the requester" \
	"$(cs list --json | jq -r 'select(.action_id == "soon-1") | .requested_by')" pm.ortiz

# The detail's head.
keys /; keys soon-1 Enter
wait_for "> "
expect_screen "a search shows how many of how many" "1 of $pending shown"
keys Enter
expect_screen "detail: kind, full id, state" "trade soon-1   pending"
expect_screen "detail: requester, author, contributors" \
	"requested by pm.ortiz · author action-drafting · with alice, bob"
expect_screen "detail: drafted, and when it expires" "(3h ago) · expires in 2h ("
expect_screen "detail: who imported it, and how" "imported by $(id -un) locally"
expect_screen "detail: the keys" "a approve  r reject"
keys q
keys /; keys gone-1 Enter; wait_for "> "; keys Enter
expect_screen "an expired action says so, and since when" "EXPIRED 3d ago ("
expect_screen "and that it cannot be approved" "): it cannot be approved"
expect_screen "its state is expired" "trade gone-1   expired"
expect_screen "the approve key is shown unavailable" "a approve (unavailable: expired)"
keys a
expect_screen "a says why, rather than opening the dialog" \
	"gone-1 has expired: it cannot be approved (r rejects it)"
keys q
keys /; keys Enter
wait_for "$pending pending"

# Search over requester, author, kind; "/" starts empty; Esc clears it.
keys /; keys pm.ortiz Enter
expect_screen "search finds the requester" "1 of $pending shown"
keys /
expect_re "/ starts empty, nothing pre-filled" '^search: *$'
keys drafting-graph Enter
expect_screen "search finds the author" "3 of $pending shown"
keys /; keys legal_draft Enter
expect_screen "search finds the kind" "3 of $pending shown"
keys Escape
expect_screen "Esc clears the search" "$pending pending"
expect_gone "and the status line forgets it" "search: legal_draft"
keys f s
expect_screen "after f and s, both are in view" \
	"filter: needs care (x or !) · sort: oldest first"
care=$(cs list --json | jq -s '[.[] | select(.local_pass == false or .divergence_count > 0)] | length')
expect_eq "and the header says them, with how many are shown" \
	"$(screen | head -1 | sed 's/ *$//')" \
	"countersign  $care of $pending shown · filter: needs care (x or !) · sort: oldest first"
# Five sort orders since issue 37 (value, largest first, is the fifth).
keys f f f f s s s s
wait_for "filter: all · sort: most care first"

# The open detail follows a decision made elsewhere.
keys /; keys NB-420 Enter; wait_for "> "; keys Enter
expect_screen "the detail is open" "change NB-420   pending"
echo '{"action_id": "NB-420", "decision": "reject", "reason": "Elsewhere"}' |
	cs batch >/dev/null
expect_screen "it shows the decision made elsewhere" "change NB-420   rejected"
expect_screen "and who made it" "NB-420 rejected by root"
keys q
keys /; keys Enter
tui_stop

# 60x15: the keys never cut; the position gives way first.
tui_start 60 15
wait_for "? help  q quit"
expect_eq "60x15: the queue's key line ends whole" \
	"$(screen | sed -n 14p | sed 's/ *$//' | grep -c '? help  q quit$')" 1
expect_eq "60x15: the legend leaves out whole items" \
	"$(screen | sed -n 13p | sed 's/ *$//')" \
	"H high stakes  x fails  ! diverges  L locked  D deadlocked"
expect_contains "60x15: the legal ids are still whole" "$(screen >"$WORK/q60"; echo "$WORK/q60")" " legal-2026-0042 "
keys /; keys soon-1 Enter; wait_for "> "; keys Enter
expect_screen "60x15: the detail's head" "requested by pm.ortiz"
expect_eq "60x15: the detail's keys are whole, the position beside them" \
	"$(screen | tail -1 | grep -c '? help  q back  *1-14/')" 1
keys q
keys /; keys 9d2e7b10 Enter; wait_for "> "; keys Enter
wait_for "trade 9d2e7b10"
expect_eq "60x15: a longer key line drops the position, then whole keys" \
	"$(screen | tail -1 | sed 's/ *$//')" \
	"a approve (blocked: rules fail)  r reject  ? help  q back"
keys q
tui_stop

# 200 columns: ids whole, and who asked and who drafted, apart.
tui_start 200 40
wait_for "AUTHOR"
expect_screen "200x40: a UUID reads whole" " 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22 "
expect_re "200x40: requester and author in their own columns" \
	'soon-1  *pm\.ortiz  *action-drafting '
tui_stop

# A POSIX locale: a cut id still says it was cut, in ASCII.
tui_launch 80 24 "env LC_ALL=C LANG=C LANGUAGE= COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' --db '$DB'"
wait_for "pending"
expect_screen "POSIX: a cut UUID ends in ..." "9d2e7b10-1c4..."
expect_screen "POSIX: the separators are ASCII" "pending | "
tui_stop
finish
