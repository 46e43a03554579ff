#!/bin/sh
# SPEC 2.4 and 5: after a rejection its author is locked out of the next
# version; a reassignment names the only next author; a roster whose every
# author is locked out leaves only escalation.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-divergent.json" >/dev/null
echo '{"type": "roster", "authors": ["action-drafting", "action-drafting-b"]}' >"$WORK/roster.json"
cs import "$WORK/roster.json" >/dev/null
V1=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22

# revision ID AUTHOR REVISES: the passing trade, as a revision.
revision() {
	jq -c --arg id "$1" --arg author "$2" --arg of "$3" '
		.proposed_action.action_id = $id | .reviewer_verdict.action_id = $id
		| .proposed_action.author = $author | .proposed_action.revision_of = $of
		| .reviewer_verdict.rule_results += [{"rule_id": "author_lockout", "passed": true}]' \
		"$EXAMPLES/packet-trade-pass.json"
}
decide() { printf '%s\n' "$1" >"$WORK/line"; expect_status "$2" "$3" cs batch "$WORK/line"; }
code() { jq -r .code "$WORK/out"; }

# A revision of a pending action fails the rule.
revision r0 action-drafting-b "$V1" >"$WORK/r0.jsonl"
cs import "$WORK/r0.jsonl" >/dev/null
cs check r0 >"$WORK/check" || true
expect_eq "revising a pending action fails author_lockout" \
	"$(jq -c '.local_verdict.rule_results[-1] | [.rule_id, .passed]' "$WORK/check")" '["author_lockout",false]'
expect_contains "and says why" "$WORK/check" "was not rejected (it is pending)"

decide "{\"action_id\":\"$V1\",\"decision\":\"reject\",\"reason\":\"Excluded sector\",\"reassign_to\":\"action-drafting\"}" \
	"reassigning to the rejected author" 1
expect_eq "is refused reassignee_locked_out" "$(code)" reassignee_locked_out
decide "{\"action_id\":\"$V1\",\"decision\":\"reject\",\"reason\":\"Excluded sector\",\"reassign_to\":\"Action-Drafting\"}" \
	"reassigning to the rejected author spelt in another case" 1
expect_eq "is refused as well: names ignore case" "$(code)" reassignee_locked_out
decide "{\"action_id\":\"$V1\",\"decision\":\"reject\",\"reason\":\"Excluded sector\",\"reassign_to\":\"somebody-else\"}" \
	"reassigning to an author not on the roster" 1
expect_eq "is refused too" "$(code)" reassignee_locked_out
expect_contains "naming the roster" "$WORK/out" "not on the roster"
decide "{\"action_id\":\"$V1\",\"decision\":\"reject\",\"reason\":\"Excluded sector\",\"reassign_to\":\"action-drafting-b\"}" \
	"reassigning to an eligible author" 0
cs audit export >"$WORK/export"
expect_eq "the record carries routing and the locked-out set" \
	"$(jq -c 'select(.record.event == "decision") | [.record.routing, .record.lockout]' "$WORK/export")" \
	'[{"reassign_to":"action-drafting-b"},{"locked_out":["action-drafting"],"deadlocked":false}]'

# Revisions of the rejected action.
revision r1 action-drafting "$V1" >"$WORK/r1.jsonl"
revision r2 action-drafting-b "$V1" >"$WORK/r2.jsonl"
revision r3 someone-third "$V1" >"$WORK/r3.jsonl"
cs import "$WORK/r1.jsonl" "$WORK/r2.jsonl" "$WORK/r3.jsonl" >/dev/null
for r in r0 r1 r2 r3; do cs check "$r" >"$WORK/$r.check" || true; done
lock() { jq -c '.local_verdict.rule_results[-1] | [.rule_id, .passed]' "$WORK/$1.check"; }
expect_eq "the original author is locked out" "$(lock r1)" '["author_lockout",false]'
expect_eq "the named reassignee may revise" "$(lock r2)" '["author_lockout",true]'
expect_eq "a third author may not (a reassignee was named)" "$(lock r3)" '["author_lockout",false]'
# Names ignore case: no dodging the lockout, nor missing the reassignment.
revision r4 ACTION-DRAFTING "$V1" >"$WORK/r4.jsonl"
revision r5 Action-Drafting-B "$V1" >"$WORK/r5.jsonl"
cs import "$WORK/r4.jsonl" "$WORK/r5.jsonl" >/dev/null
for r in r4 r5; do cs check "$r" >"$WORK/$r.check" || true; done
expect_eq "the locked-out author in upper case is still locked out" "$(lock r4)" '["author_lockout",false]'
expect_eq "the reassignee in another case may revise" "$(lock r5)" '["author_lockout",true]'
expect_eq "author_lockout comes after the trade rules" \
	"$(jq -c '[.local_verdict.rule_results[].rule_id]' "$WORK/r2.check")" \
	'["excluded_ticker","excluded_sector","concentration_limit","allocation_band_direction","ips_version_current","author_lockout"]'
cs list >"$WORK/list"
expect_eq "the queue flags the locked-out revision" "$(grep ' r1 ' "$WORK/list" | cut -c4)" L
expect_eq "and not the reassignee's" "$(grep ' r2 ' "$WORK/list" | cut -c4)" " "

# Rejecting r2 (by action-drafting-b) would lock out the whole roster,
# but until then action-drafting-b is not locked out: not deadlocked yet.
expect_eq "r2 is not shown deadlocked" "$(grep ' r2 ' "$WORK/list" | cut -c5)" " "
cs list --json >"$WORK/list.json"
expect_eq "nor in list --json" \
	"$(jq -r 'select(.action_id == "r2") | .flags | index("deadlocked") != null' "$WORK/list.json")" false
decide '{"action_id":"r2","decision":"reject","reason":"Still stale","reassign_to":"action-drafting"}' \
	"a deadlocked chain cannot be reassigned" 1
expect_eq "refused reassignee_locked_out" "$(code)" reassignee_locked_out
expect_contains "saying only escalation is left" "$WORK/out" "can only be escalated"
decide '{"action_id":"r2","decision":"reject","reason":"Still stale","escalate":true}' \
	"it can be escalated" 0
cs audit export >"$WORK/export"
expect_eq "the escalation is recorded with the lockout" \
	"$(jq -c 'select(.record.action_id == "r2") | [.record.routing, .record.lockout]' "$WORK/export")" \
	'[{"escalate":true},{"locked_out":["action-drafting","action-drafting-b"],"deadlocked":true}]'
# Now every roster author is locked out of the chain (SPEC 2.4): list
# --all shows it on the rejected tip, with nothing pending in the chain...
cs list --all --json >"$WORK/all.json"
expect_eq "list --all flags the rejected tip of the deadlocked chain" \
	"$(jq -r 'select(.action_id == "r2") | .flags | index("deadlocked") != null' "$WORK/all.json")" true
# SPEC v2 2.4: deadlock is of the artifact, every version of it alike.
expect_eq "and the rejection before it, a version of the same artifact" \
	"$(jq -r --arg v "$V1" 'select(.action_id == $v) | .flags | index("deadlocked") != null' "$WORK/all.json")" true
# ...and a revision of r2 is deadlocked, and the queue shows it.
revision r9 someone-third r2 >"$WORK/r9.jsonl"
cs import "$WORK/r9.jsonl" >/dev/null
cs list >"$WORK/list"
expect_eq "r9 is shown deadlocked" "$(grep ' r9 ' "$WORK/list" | cut -c5)" D
cs list --json >"$WORK/list.json"
expect_eq "list --json says so" \
	"$(jq -r 'select(.action_id == "r9") | .flags | index("deadlocked") != null' "$WORK/list.json")" true
expect_status "the chain verifies" 0 cs audit verify
finish
