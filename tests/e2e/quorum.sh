#!/bin/sh
# SPEC 14 (issue 33): approval quorums.  The approval_policy object and
# its refusals; partial approvals through batch; duplicate_approver; a
# rejection after a partial approval; the requester as a second approver;
# expect_sha256 of another packet; 2-of-2, 3-of-3; eight officers racing
# on one quorum action; audit verify of approval rows and audit replay.
# Officers other than the one running the test are system accounts run
# through runuser, so those parts need root (CI runs make check as root);
# without it they say "skip:".
. "$TOP_SRCDIR/tests/e2e/lib.sh"

policy() { # policy ID VERSION QUORUM-JSON
	printf '{"type": "approval_policy", "policy_id": "%s", "version": %s, "quorum": %s}\n' "$1" "$2" "$3"
}

### 1. The policy object: imported, audited, and refused whole when bad.
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null
# The example trade is $7,500: above 5,000, so two officers.
policy four-eyes 1 '[{"kind": "trade", "when": {"above_usd": 5000}, "approvals": 2}]' >"$WORK/p1.json"
expect_status "a policy imports" 0 cs import "$WORK/p1.json"
expect_eq "it is recorded as a policy_import" \
	"$(cs audit export | jq -c '.record | select(.event == "policy_import" and .type == "approval_policy") | .identity')" \
	'{"policy_id":"four-eyes","version":1}'
expect_status "the same policy again is a no-op" 0 cs import "$WORK/p1.json"
expect_contains "... said unchanged" "$WORK/out" "0 imported, 1 unchanged"

# bad NAME QUORUM-JSON FIELD: a file of a good line and a bad one is refused
# whole, naming line 2 and the field.
bad() {
	{ policy "ok-$1" 1 '[{"kind": "*", "when": "always", "approvals": 2}]'
	  policy "bad-$1" 1 "$2"; } >"$WORK/bad-$1.jsonl"
	expect_status "refused: $1" 3 cs import "$WORK/bad-$1.jsonl"
	expect_contains "$1: names line 2 and the field" "$WORK/err" ":2: $3"
	expect_eq "$1: nothing of the file imported" \
		"$(db_sql "SELECT count(*) FROM approval_policy WHERE policy_id LIKE '%-$1'")" 0
}
bad one '[{"kind": "trade", "when": "always", "approvals": 1}]' "quorum[0].approvals"
bad six '[{"kind": "trade", "when": "always", "approvals": 6}]' "quorum[0].approvals"
bad half '[{"kind": "trade", "when": "always", "approvals": 2.5}]' "quorum[0].approvals"
bad kind '[{"kind": "*", "when": "always", "approvals": 2}, {"kind": "loan", "when": "always", "approvals": 2}]' "quorum[1].kind"
bad when '[{"kind": "trade", "when": "sometimes", "approvals": 2}]' "quorum[0].when"
bad above '[{"kind": "trade", "when": {"above_usd": -1}, "approvals": 2}]' "quorum[0].when.above_usd"
bad extra '[{"kind": "trade", "when": {"above_usd": 1, "below_usd": 9}, "approvals": 2}]' "quorum[0].when"
bad missing '[{"kind": "trade", "approvals": 2}]' "quorum[0].when"
policy four-eyes 1 '[{"kind": "trade", "when": "always", "approvals": 3}]' >"$WORK/p1-other.json"
expect_status "refused: (policy_id, version) again with other content" 3 cs import "$WORK/p1-other.json"
expect_contains "... named a conflict" "$WORK/err" "conflict"
expect_eq "the first policy stands" \
	"$(db_sql "SELECT count(*) FROM approval_policy WHERE policy_id = 'four-eyes'")" 1

### 2. One officer: a partial approval, then duplicate_approver.
ME=$(id -un)
# packets PREFIX N [JQ]: N copies of the passing $7,500 trade, edited by JQ.
packets() {
	jq -c --arg p "$1" --argjson n "$2" "range(0; \$n) as \$i
		| .proposed_action.action_id = \"\(\$p)-\(\$i)\"
		| .reviewer_verdict.action_id = \"\(\$p)-\(\$i)\" | ${3:-.}" \
		"$EXAMPLES/packet-trade-pass.json" >"$WORK/packets-$1.jsonl"
	cs import "$WORK/packets-$1.jsonl" >/dev/null
}
packets one 1
echo '{"action_id": "one-0", "decision": "approve", "reason": "checked the limits"}' >"$WORK/a"
cs batch "$WORK/a" >"$WORK/out" 2>/dev/null || true
expect_eq "an approval short of the quorum is partial" \
	"$(jq -c '{status, decision_id, quorum, id: (.approval_id | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"))}' "$WORK/out")" \
	'{"status":"partial","decision_id":null,"quorum":{"needed":2,"have":1},"id":true}'
expect_eq "the action stays pending" \
	"$(db_sql "SELECT status FROM action WHERE action_id = 'one-0'")" pending
expect_eq "status shows the approval so far (SPEC 12)" \
	"$(cs status one-0 | jq -c '[.state, .approvals_needed, (.approvals | map([.operator, .reason]))]')" \
	"[\"pending\",2,[[\"$ME\",\"checked the limits\"]]]"
expect_eq "the approval event has a decision record's fields but decision_id" \
	"$(cs audit export | jq -c '.record | select(.event == "approval") | [has("decision_id"), .decision, .reason, .operator.login, .quorum, (.local_verdict | type), (.rule_inputs | type)]')" \
	"[false,\"approve\",\"checked the limits\",\"$ME\",{\"needed\":2,\"have\":1},\"object\",\"object\"]"
set +e
cs batch "$WORK/a" >"$WORK/out" 2>/dev/null
got=$?
set -e
expect_eq "the same officer again: refused (exit 1)" "$got" 1
expect_eq "... duplicate_approver" "$(jq -r .code "$WORK/out")" duplicate_approver
expect_eq "still one approval row" \
	"$(db_sql "SELECT count(*) FROM approval WHERE action_id = 'one-0'")" 1
expect_status "audit verify: approval rows agree with their records" 0 cs audit verify
expect_status "audit replay re-runs the approval's re-check" 0 cs audit replay one-0
expect_contains "... and says so" "$WORK/out" "approval"

# An approval row rewritten or added behind countersign's back breaks the log.
# tamper WHAT SQL: on a copy, the refusing triggers passed by.
tamper() {
	T=$(db_copy "tamper$(echo "$1" | tr -cd a-z)")
	db_tamper "$T" "approval_no_update approval_no_replace" "$2"
	expect_status "$1: audit verify says broken" 1 "$COUNTERSIGN" --db "$T" audit verify
	expect_contains "$1: ... naming the approvals" "$WORK/out" "approval"
}
tamper "an approval's operator rewritten" "UPDATE approval SET operator_login = 'mallory'"
tamper "an approval's quorum rewritten" "UPDATE approval SET needed = 1"
tamper "an approval row without a record" "INSERT INTO approval SELECT 'f0000000-0000-4000-8000-000000000000', action_id, 'mallory', 1, approved_at, NULL, 2, 1, audit_seq FROM approval"
expect_eq "replay names the approval it re-ran" \
	"$(cs audit replay one-0 | grep -c "one-0 (approval $(db_sql "SELECT approval_id FROM approval WHERE action_id = 'one-0'")): same inputs, same verdict")" 1

### 3. An action below the policy's threshold decides with one approval.
packets small 1 '.proposed_action.estimated_value_usd = 3750 | .proposed_action.quantity = 50'
echo '{"action_id": "small-0", "decision": "approve"}' | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "no quorum applies: recorded at once" "$(jq -r .status "$WORK/out")" recorded
expect_eq "... with no quorum in its record" \
	"$(cs audit export | jq -c '.record | select(.event == "decision" and .action_id == "small-0") | [has("quorum"), has("approvals")]')" \
	'[false,false]'

### 4. A rejection after a partial approval decides at once.
echo '{"action_id": "one-0", "decision": "reject", "reason": "the client withdrew"}' | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "the rejection is recorded" "$(jq -r .status "$WORK/out")" recorded
expect_eq "... it names the earlier approval" \
	"$(cs audit export | jq -r '.record | select(.event == "decision" and .action_id == "one-0") | .approvals[0]')" \
	"$(db_sql "SELECT approval_id FROM approval WHERE action_id = 'one-0'")"
expect_eq "... which stays in the log" \
	"$(cs audit export | jq -r '.record | select(.event == "approval" and .action_id == "one-0") | .event')" approval
expect_status "audit verify after the rejection" 0 cs audit verify

### 5. expect_sha256 of another packet is refused changed.
packets sha 1
packets other 1
other=$(cs list --json | jq -r 'select(.action_id == "other-0") | .packet_sha256')
printf '{"action_id": "sha-0", "decision": "approve", "expect_sha256": "%s"}\n' "$other" | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "expect_sha256 of another packet: changed" "$(jq -r .code "$WORK/out")" changed
expect_eq "... and no approval row" "$(db_sql "SELECT count(*) FROM approval WHERE action_id = 'sha-0'")" 0

### 6. Several officers (root only: system accounts through runuser).
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: several officers need root (runuser)"
	finish
	exit 0
fi
OFFICERS="daemon bin sys games man lp mail news"
for u in $OFFICERS; do
	id "$u" >/dev/null 2>&1 || { echo "skip: no account $u for several officers"; finish; exit 0; }
done
chmod 0777 "$WORK"
[ -f "$DB" ] && chmod 0666 "$DB"
for f in "$DB-wal" "$DB-shm"; do [ -f "$f" ] && chmod 0666 "$f"; done
# as USER ARGS...: countersign as another officer.  These accounts share
# no group, so the database is everyone's (0666), and so must be the -wal
# and -shm files SQLite makes again whenever the last connection has
# removed them: under runuser's umask (022) the officer who made them
# would leave the others a read-only database.  A site shares by group
# (README), where the store itself keeps the group's bits.
as() { u=$1; shift; runuser -u "$u" -- sh -c 'umask 0; exec "$@"' sh "$COUNTERSIGN" --db "$DB" "$@"; }
decide() { # decide USER ACTION [DECISION]: the batch answer's status and code
	printf '{"action_id": "%s", "decision": "%s", "reason": "seen"}\n' "$2" "${3:-approve}" |
		as "$1" batch 2>/dev/null | jq -r '"\(.status) \(.code)"' || true
}

# Version 2 replaces version 1: two officers always, three above $7,000.
policy four-eyes 2 '[{"kind": "trade", "when": "always", "approvals": 2}, {"kind": "trade", "when": {"above_usd": 7000}, "approvals": 3}]' >"$WORK/p2.json"
cs import "$WORK/p2.json" >/dev/null
packets two 1 '.proposed_action.estimated_value_usd = 3750 | .proposed_action.quantity = 50'
expect_eq "2-of-2: the first approval is partial" "$(decide daemon two-0)" "partial null"
expect_eq "2-of-2: the second officer decides" "$(decide bin two-0)" "recorded null"
expect_eq "2-of-2: approved, by bin, naming daemon's approval" \
	"$(cs audit export | jq -c '.record | select(.event == "decision" and .action_id == "two-0") | [.decision, .operator.login, .quorum, (.approvals | length)]')" \
	'["approve","bin",{"needed":2,"have":2},1]'
expect_eq "2-of-2: a third is already_decided" "$(decide sys two-0)" "refused already_decided"

packets three 1
expect_eq "3-of-3 (above \$7,000): first partial" "$(decide daemon three-0)" "partial null"
expect_eq "3-of-3: second partial" "$(decide bin three-0)" "partial null"
expect_eq "3-of-3: the first again is duplicate_approver" "$(decide daemon three-0)" "refused duplicate_approver"
expect_eq "3-of-3: the third decides" "$(decide sys three-0)" "recorded null"
expect_eq "3-of-3: the decision names both approvals in order" \
	"$(cs audit export | jq -r '.record | select(.event == "decision" and .action_id == "three-0") | .approvals | join(" ")')" \
	"$(db_sql "SELECT approval_id FROM approval WHERE action_id = 'three-0' ORDER BY audit_seq" | tr '\n' ' ' | sed 's/ $//')"

packets req 1 '.proposed_action.requested_by = "bin" | .proposed_action.estimated_value_usd = 3750 | .proposed_action.quantity = 50'
expect_eq "requester case: another officer's approval is partial" "$(decide daemon req-0)" "partial null"
expect_eq "the requester as second approver: self_approval" "$(decide bin req-0)" "refused self_approval"
expect_eq "... the action stays pending" "$(db_sql "SELECT status FROM action WHERE action_id = 'req-0'")" pending

packets rej 1
expect_eq "rejection after partial: the approval" "$(decide daemon rej-0)" "partial null"
expect_eq "rejection after partial: another officer rejects at once" "$(decide bin rej-0 reject)" "recorded null"
expect_eq "... rejected" "$(db_sql "SELECT status FROM action WHERE action_id = 'rej-0'")" rejected

# Eight officers at once on one 3-of-3 action: one decision, two approvals.
packets race 1
for u in $OFFICERS; do
	printf '{"action_id": "race-0", "decision": "approve", "reason": "seen"}\n' |
		as "$u" batch >"$WORK/race-$u.json" 2>"$WORK/race-$u.err" &
done
wait
for u in $OFFICERS; do
	jq -r '"\(.status) \(.code)"' "$WORK/race-$u.json" 2>/dev/null || echo "no answer"
done | sort >"$WORK/race"
# Each officer's answer and what it said on stderr, should a check fail.
race_said() {
	for u in $OFFICERS; do
		echo "    $u: $(cat "$WORK/race-$u.json") $(stderr_but_sink "$WORK/race-$u.err" | head -n 2)"
	done
}
expect_eq "eight racing: one decision" "$(grep -c '^recorded' "$WORK/race")" 1
expect_eq "eight racing: exactly quorum-1 partial approvals" "$(grep -c '^partial' "$WORK/race")" 2
expect_eq "eight racing: the rest already_decided" "$(grep -c 'refused already_decided' "$WORK/race")" 5
[ "$(grep -c '^recorded' "$WORK/race") $(grep -c '^partial' "$WORK/race") $(grep -c 'refused already_decided' "$WORK/race")" = "1 2 5" ] ||
	race_said
expect_eq "eight racing: two approval rows" \
	"$(db_sql "SELECT count(*) FROM approval WHERE action_id = 'race-0'")" 2
expect_eq "eight racing: one decision row" \
	"$(db_sql "SELECT count(*) FROM decision WHERE action_id = 'race-0'")" 1
expect_status "audit verify after all of it" 0 cs audit verify
expect_status "audit replay of a 3-of-3 decision" 0 cs audit replay three-0
expect_eq "... replays both approvals and the decision" "$(grep -c 'same inputs, same verdict' "$WORK/out")" 3

finish
