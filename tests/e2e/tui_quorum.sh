#!/bin/sh
# SPEC 14 (issue 33) on the review screens: under a quorum, officer A
# approves and is told it waits for one more; the queue shows 1/2; A's
# detail says A approved and approve is unavailable; officer B sees A's
# approval (who, when, reason) and completes the quorum.  Bulk approval
# counts partial approvals apart from decisions.  Officer B is another
# account (runuser), so the second half needs root, as CI runs make check.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null
printf '{"type": "approval_policy", "policy_id": "four-eyes", "version": 1, "quorum": [{"kind": "trade", "when": "always", "approvals": 2}]}\n' \
	>"$WORK/policy.json"
cs import "$WORK/policy.json" >/dev/null
jq -c 'range(0; 3) as $i | .proposed_action.action_id = "qa-\($i)"
	| .reviewer_verdict.action_id = "qa-\($i)"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/packets.jsonl"
cs import "$WORK/packets.jsonl" >/dev/null
ME=$(id -un)
record() { cs audit export | jq -c --arg id "$1" --arg e "$2" "select(.record.action_id == \$id and .record.event == \$e) | .record${3-}"; }

tui_start 80 24
keys /; keys C-u qa-0 Enter; wait_for "> "
keys Enter
expect_screen "A: the detail says a quorum applies" "APPROVALS    2 officers must approve this"
keys a
expect_screen "A: the approve dialog" "Approve qa-0"
keys Tab "Within the band" Enter Enter
expect_screen "A: the approval waits for one more" "waiting for 1 more"
expect_eq "A: recorded as an approval, not a decision" \
	"$(record qa-0 approval '.quorum')|$(record qa-0 decision)" '{"needed":2,"have":1}|'
keys /; keys C-u qa Enter; wait_for "> "
expect_screen "A: the queue shows 1/2" "1/2 "
keys /; keys C-u qa-0 Enter; wait_for "> "
keys Enter
expect_screen "A: the detail lists the approval" "$ME at "
expect_screen "A: ... with its reason" ": Within the band"
expect_screen "A: is told they approved" "You ($ME) approved this at"
expect_screen "A: approve is unavailable, with the reason" "a approve (unavailable: you approved it)"
keys a
expect_screen "A: a says so instead of a dialog" "you approved qa-0 already"
keys q
wait_for "FLAGS"

# Bulk: qa-1 and qa-2 tagged; each gets a partial approval, counted apart.
keys /; keys C-u qa-1 Enter; wait_for "> "; keys t
keys /; keys C-u qa-2 Enter; wait_for "> "; keys t
keys /; keys C-u qa-0 Enter; wait_for "> "; keys t
keys /; keys C-u qa Enter; wait_for "3 of 3 shown"
keys A
expect_screen "bulk: partial approvals counted apart" "0 will be approved, 2 partially (quorum), 1 skipped"
expect_screen "bulk: one already approved is skipped" "skipped: you approved it already"
expect_screen "bulk: a partial one shows how far it gets" "~ qa-1 1/2"
keys 2 Enter
expect_screen "bulk: what it did" "0 approved, 2 partial approval(s) waiting for other officers, 1 left tagged"
expect_eq "bulk: the approvals name their bulk" "$(record qa-1 approval '.bulk.count')" 2
tui_stop

if [ "$(id -u)" -ne 0 ] || ! id daemon >/dev/null 2>&1; then
	echo "skip: officer B needs root and the daemon account (runuser)"
	finish
	exit 0
fi
# Officer B: the daemon account, on the same store.
chmod 0777 "$WORK"
for f in "$DB" "$DB-wal" "$DB-shm"; do [ -f "$f" ] && chmod 0666 "$f"; done
tui_launch 80 24 "runuser -u daemon -- env COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' --db '$DB'"
wait_for "pending"
keys /; keys C-u qa-0 Enter; wait_for "> "
keys Enter
expect_screen "B: sees A's approval" "APPROVALS    1 of 2; waiting for 1 more"
expect_screen "B: who and why" "$ME at "
expect_screen "B: approve is available" "a approve  r reject"
keys a
expect_screen "B: the approve dialog" "Approve qa-0"
keys Enter
expect_screen "B: completes the quorum" "approved (decision"
expect_eq "B: the decision is B's, naming A's approval" \
	"$(record qa-0 decision '| [.operator.login, .quorum, (.approvals | length)]')" \
	'["daemon",{"needed":2,"have":2},1]'
tui_stop
expect_status "the log verifies" 0 cs audit verify
finish
