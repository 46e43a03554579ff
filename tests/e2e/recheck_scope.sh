#!/bin/sh
# Issue 24, point 6: after a policy import only the actions that policy
# touches are re-checked (a 1 MiB roster with 200,000 pending once made an
# import re-check them all, for minutes).  A row not re-checked keeps the
# marker written into its summary here.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/roster.json" \
	"$EXAMPLES/standards_index.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-change.json" "$EXAMPLES/packet-legal-draft.json" >/dev/null 2>&1
jq -c '.proposed_action.action_id = "other-user" | .reviewer_verdict.action_id = "other-user"
	| .proposed_action.user_id = "u-2002"' "$EXAMPLES/packet-trade-pass.json" >"$WORK/other.json"
cs import "$WORK/other.json" >/dev/null 2>&1
PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11

mark() { db_sql "UPDATE queue_index SET summary = 'MARK'"; }
# rechecked: the ids whose rows were re-checked, in id order.
rechecked() {
	db_sql "SELECT action_id FROM queue_index WHERE summary <> 'MARK'
		ORDER BY action_id" | tr '\n' ' '
}
expect_eq "four pending rows" "$(db_sql "SELECT count(*) FROM queue_index")" 4
CHANGE=$(jq -r .proposed_action.action_id "$EXAMPLES/packet-change.json")

mark
jq -c '.version = 4' "$EXAMPLES/ips.json" >"$WORK/ips-v4.json"
cs import "$WORK/ips-v4.json" >/dev/null 2>&1
expect_eq "an IPS of u-1001: its trades only" "$(rechecked)" "$PASS "

mark
jq -c '.snapshot_id = "h2" | .user_id = "u-2002"' "$EXAMPLES/holdings.json" >"$WORK/h2.json"
cs import "$WORK/h2.json" >/dev/null 2>&1
expect_eq "holdings of u-2002: its trade only" "$(rechecked)" "other-user "

mark
jq -c '.securities.ZZZZ = {sector: "Tech", asset_class: "equity"}' \
	"$EXAMPLES/security_map.json" >"$WORK/map.json"
cs import "$WORK/map.json" >/dev/null 2>&1
expect_eq "the security map: every trade" "$(rechecked)" "$PASS other-user "

mark
jq -c '.standards[0].title = "retitled"' "$EXAMPLES/standards_index.json" >"$WORK/index.json"
cs import "$WORK/index.json" >/dev/null 2>&1
expect_eq "a standards index: every change" "$(rechecked)" "$CHANGE "

mark
jq -c '.authors += ["someone-new"]' "$EXAMPLES/roster.json" >"$WORK/roster.json"
cs import "$WORK/roster.json" >/dev/null 2>&1
expect_eq "a roster: every action" "$(rechecked | wc -w | tr -d ' ')" 4

mark
cs import "$WORK/roster.json" >/dev/null 2>&1
expect_eq "the same roster again: nothing" "$(rechecked)" ""
finish
