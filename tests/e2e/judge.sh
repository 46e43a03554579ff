#!/bin/sh
# SPEC 2.3 (v3), issue 36 point 7: the product owner's judgment.  The
# requester of a change judges its NEEDS-PO criterion (status judged, a
# po_judgment event, no decision); rule 7 and check count it; the
# requester approving is still self_approval; another officer approves
# without judging again, and the decision record shows the judgment that
# counted.  Conflicts, repeats and bad requests; audit verify, replay,
# export (JSON, CSV), events; then the same through the service.  Other
# officers are system accounts run through runuser (root only: those
# parts say "skip:" without it).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

ME=$(id -un)
UUID4='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
out=$WORK/out

# change ID [JQ]: the contract's change example as ID, requested by me.
change() {
	jq -c --arg id "$1" --arg me "$ME" ".proposed_action.action_id = \$id
		| .proposed_action.requested_by = \$me | ${2:-.}" \
		"$EXAMPLES/packet-change.json" >"$WORK/$1.json"
	cs import "$WORK/$1.json" >/dev/null
}
# ask JSON: one batch line; its answer in $out, exit status in $asked.
ask() {
	printf '%s\n' "$1" >"$WORK/req"
	set +e
	cs batch "$WORK/req" >"$out" 2>"$WORK/err"
	asked=$?
	set -e
}
answer() { jq -r '"\(.status) \(.code)"' "$out"; }
rows() { db_sql "SELECT count(*) FROM po_judgment WHERE action_id = '$1'"; }
failing() { cs check "$1" | jq -c '[.local_verdict.rule_results[] | select(.passed | not) | .rule_id]'; }

cs import "$EXAMPLES/standards_index.json" >/dev/null

### 1. The requester judges: judged, a po_judgment event, nothing decided.
change J-1
expect_eq "before: only needs_po_judged fails" "$(failing J-1)" '["needs_po_judged"]'
ask '{"action_id": "J-1", "decision": "judge", "po_judgments": {"AC-3": "met"}}'
expect_eq "the requester's judgment: exit 0" "$asked" 0
expect_eq "... status judged, no decision_id, a UUID v4 judgment_id" \
	"$(jq -c --arg re "$UUID4" '[.status, .decision_id, (.judgment_id | test($re)), .code]' "$out")" \
	'["judged",null,true,null]'
JID=$(jq -r .judgment_id "$out")
expect_eq "the action stays pending" "$(db_sql "SELECT status FROM action WHERE action_id = 'J-1'")" pending
expect_eq "no decision row" "$(db_sql "SELECT count(*) FROM decision WHERE action_id = 'J-1'")" 0
expect_eq "one judgment row, mine" \
	"$(db_sql "SELECT ac_id || ' ' || judgment || ' ' || operator_login || ' ' || judgment_id FROM po_judgment WHERE action_id = 'J-1'")" \
	"AC-3 met $ME $JID"
expect_eq "the po_judgment record: who, when, what, which" \
	"$(cs audit export | jq -c --arg id "$JID" '.record | select(.event == "po_judgment" and .judgment_id == $id) | [.action_id, .kind, .operator.login, (.operator.uid | type), (.judged_at | test("^[0-9-]{10}T[0-9:.]{12}Z$")), .po_judgments, has("decision_id")]')" \
	"[\"J-1\",\"change\",\"$ME\",\"number\",true,{\"AC-3\":\"met\"},false]"
expect_eq "check counts the recorded judgment: nothing fails" "$(failing J-1)" '[]'
expect_status "... and check exits 0" 0 cs check J-1

### 2. The requester still may not approve; a repeat is harmless; a
###    different judgment is a conflict, in a judge line and an approval.
ask '{"action_id": "J-1", "decision": "approve", "reason": "docs read fine", "acknowledge": ["high_stakes", "divergence"]}'
expect_eq "the requester approving: self_approval (exit 1)" "$(answer) $asked" "refused self_approval 1"
ask '{"action_id": "J-1", "decision": "judge", "po_judgments": {"AC-3": "met"}}'
expect_eq "the same judgment again: judged" "$(answer)" "judged null"
expect_eq "... still one row, the first" \
	"$(db_sql "SELECT count(*) || ' ' || min(judgment_id) FROM po_judgment WHERE action_id = 'J-1'")" "1 $JID"
ask '{"action_id": "J-1", "decision": "judge", "po_judgments": {"AC-3": "unmet"}}'
expect_eq "a different judgment: po_judgment_conflict (exit 1)" "$(answer) $asked" "refused po_judgment_conflict 1"
expect_contains "... naming the criterion and the first judgment" "$out" 'AC-3 was already judged met'
expect_eq "... the first judgment stands" "$(db_sql "SELECT judgment FROM po_judgment WHERE action_id = 'J-1'")" met
ask '{"action_id": "J-1", "decision": "approve", "reason": "x", "acknowledge": ["high_stakes", "divergence"], "po_judgments": {"AC-3": "unmet"}}'
expect_eq "an approval judging it otherwise: po_judgment_conflict" "$(answer)" "refused po_judgment_conflict"

### 2b. In one batch (one group commit): a judgment, a conflict with it,
###     then an approval that counts it, read back in the same transaction.
change J-group '.proposed_action.requested_by = "po.kim"'
printf '%s\n' '{"action_id": "J-group", "decision": "judge", "po_judgments": {"AC-3": "met"}}' \
	'{"action_id": "J-group", "decision": "judge", "po_judgments": {"AC-3": "unmet"}}' \
	'{"action_id": "J-group", "decision": "approve", "reason": "read", "acknowledge": ["high_stakes", "divergence"]}' |
	cs batch >"$out" 2>/dev/null || true
expect_eq "one batch: judged, conflict, then the approval counts the judgment" \
	"$(jq -r '"\(.status) \(.code)"' "$out" | tr '\n' ' ')" \
	"judged null refused po_judgment_conflict recorded null "

### 3. Bad requests name the field; unknown, changed.
bad() { # bad WHAT LINE FIELD
	ask "$2"
	expect_eq "$1: bad_request" "$(answer)" "refused bad_request"
	expect_eq "$1: ... naming $3" "$(jq -r '.message | startswith($f + ":")' --arg f "$3" "$out")" true
}
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" >/dev/null
TRADE=$(jq -r .proposed_action.action_id "$EXAMPLES/packet-trade-pass.json")
bad "a trade" "{\"action_id\": \"$TRADE\", \"decision\": \"judge\", \"po_judgments\": {\"AC-3\": \"met\"}}" decision
change J-none '.reviewer_verdict.ac_results[2] = {"ac_id": "AC-3", "state": "MET", "evidence": {"file": "docs/x.md"}} | .reviewer_verdict.outcome = "accepted"'
bad "a change with no NEEDS-PO criterion" '{"action_id": "J-none", "decision": "judge", "po_judgments": {"AC-3": "met"}}' action_id
change J-2
bad "a MET criterion" '{"action_id": "J-2", "decision": "judge", "po_judgments": {"AC-1": "met"}}' po_judgments.AC-1
bad "an unknown criterion" '{"action_id": "J-2", "decision": "judge", "po_judgments": {"AC-9": "met"}}' po_judgments.AC-9
bad "neither met nor unmet" '{"action_id": "J-2", "decision": "judge", "po_judgments": {"AC-3": "maybe"}}' po_judgments.AC-3
bad "a judgment that is not a string" '{"action_id": "J-2", "decision": "judge", "po_judgments": {"AC-3": true}}' po_judgments.AC-3
bad "empty po_judgments" '{"action_id": "J-2", "decision": "judge", "po_judgments": {}}' po_judgments
bad "no po_judgments" '{"action_id": "J-2", "decision": "judge"}' po_judgments
bad "a routing" '{"action_id": "J-2", "decision": "judge", "po_judgments": {"AC-3": "met"}, "escalate": true}' escalate
bad "an acknowledgement" '{"action_id": "J-2", "decision": "judge", "po_judgments": {"AC-3": "met"}, "acknowledge": ["divergence"]}' acknowledge
expect_eq "... none of them left a row or a record" \
	"$(rows J-2) $(cs audit export | jq -s '[.[] | select(.record.event == "po_judgment" and .record.action_id == "J-2")] | length')" "0 0"
ask '{"action_id": "J-nothing", "decision": "judge", "po_judgments": {"AC-3": "met"}}'
expect_eq "an unknown action: unknown_action" "$(answer)" "refused unknown_action"
other=$(cs list --json | jq -r 'select(.action_id == "J-none") | .packet_sha256')
ask "{\"action_id\": \"J-2\", \"decision\": \"judge\", \"po_judgments\": {\"AC-3\": \"met\"}, \"expect_sha256\": \"$other\"}"
expect_eq "expect_sha256 of another packet: changed" "$(answer)" "refused changed"
mine=$(cs list --json | jq -r 'select(.action_id == "J-2") | .packet_sha256')
ask "{\"action_id\": \"J-2\", \"decision\": \"judge\", \"po_judgments\": {\"AC-3\": \"unmet\"}, \"expect_sha256\": \"$mine\"}"
expect_eq "expect_sha256 of its own packet: judged" "$(answer)" "judged null"
expect_eq "an unmet judgment makes rule 7 fail in check" "$(failing J-2)" '["needs_po_judged"]'
expect_eq "... saying it was judged unmet" \
	"$(cs check J-2 | jq -r '.local_verdict.rule_results[] | select(.rule_id == "needs_po_judged") | .detail | test("AC-3 was judged unmet")')" true
ask '{"action_id": "J-2", "decision": "approve", "reason": "x", "acknowledge": ["high_stakes", "divergence"]}'
expect_eq "an approval of an unmet criterion: rules_failed" "$(answer)" "refused rules_failed"

### 4. The log: verify, replay, export, CSV, events.
expect_status "audit verify: judgment rows agree with their records" 0 cs audit verify
expect_status "audit export --csv" 0 cs audit export --csv
expect_eq "... a po_judgment row for each judgment event" \
	"$(grep -c '"po_judgment","' "$out")" 4
expect_status "events" 0 cs events
expect_eq "... carry the po_judgment events, with their time" \
	"$(jq -c 'select(.event == "po_judgment") | [.action_id, .operator, (.at | type)]' "$out" | sort -u)" \
	"[\"J-1\",\"$ME\",\"string\"]
[\"J-2\",\"$ME\",\"string\"]
[\"J-group\",\"$ME\",\"string\"]"
# A judgment row rewritten or added behind countersign's back breaks the log.
tamper() { # tamper WHAT SQL
	T=$(db_copy "tamper$(echo "$1" | tr -cd a-z)")
	db_tamper "$T" "po_judgment_no_update po_judgment_no_replace" "$2"
	expect_status "$1: audit verify says broken" 1 "$COUNTERSIGN" --db "$T" audit verify
	expect_contains "$1: ... naming the judgments" "$WORK/out" "judgment"
}
tamper "a judgment rewritten" "UPDATE po_judgment SET judgment = 'unmet' WHERE action_id = 'J-1'"
tamper "a judgment's operator rewritten" "UPDATE po_judgment SET operator_login = 'mallory'"
tamper "a judgment row without a record" "INSERT INTO po_judgment SELECT 'J-none', ac_id, judgment, judgment_id, operator_login, operator_uid, judged_at, audit_seq FROM po_judgment WHERE action_id = 'J-1'"
if db_sql "UPDATE po_judgment SET judgment = 'unmet'" >/dev/null 2>&1; then
	fail "the store let a judgment be rewritten"
else
	pass "the store refuses to rewrite a judgment"
fi
expect_eq "... it is as it was" "$(db_sql "SELECT judgment FROM po_judgment WHERE action_id = 'J-1'")" met

### 5. Another officer approves without judging again (root only).
if [ "$(id -u)" -ne 0 ] || ! id daemon >/dev/null 2>&1; then
	echo "skip: another officer needs root (runuser) and the daemon account"
	finish
	exit 0
fi
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
printf '%s\n' '{"action_id": "J-1", "decision": "approve", "reason": "the docs read clearly", "acknowledge": ["high_stakes", "divergence"]}' |
	as daemon batch >"$out" 2>/dev/null || true
expect_eq "another officer approves, no judgment of his own: recorded" "$(answer)" "recorded null"
expect_eq "the decision record: daemon's approval, the requester's judgment counted" \
	"$(cs audit export | jq -c '.record | select(.event == "decision" and .action_id == "J-1") | [.decision, .operator.login, .po_judgments, ([.local_verdict.rule_results[] | select(.rule_id == "needs_po_judged") | .passed][0])]')" \
	'["approve","daemon",{"AC-3":"met"},true]'
ask '{"action_id": "J-1", "decision": "judge", "po_judgments": {"AC-3": "met"}}'
expect_eq "a judgment after the decision: already_decided" "$(answer)" "refused already_decided"
expect_status "audit verify after the decision" 0 cs audit verify
expect_status "audit replay" 0 cs audit replay J-1
expect_contains "... lists the judgment" "$out" "J-1 (judgment $JID): AC-3 met, judged by $ME"
expect_contains "... and re-runs the decision" "$out" "J-1: same inputs, same verdict (pass)"

# Eight officers judge one criterion at once, half met and half unmet:
# one row, the first judgment's; the same judgment again is judged (a
# record, no row), the other is a conflict.
JUDGES="daemon bin sys games man lp mail news"
for u in $JUDGES; do id "$u" >/dev/null 2>&1 || JUDGES=""; done
if [ -z "$JUDGES" ]; then
	echo "skip: eight judges need the accounts daemon bin sys games man lp mail news"
else
	change J-race
	n=0
	for u in $JUDGES; do
		n=$((n + 1))
		[ $((n % 2)) -eq 0 ] && j=met || j=unmet
		printf '{"action_id": "J-race", "decision": "judge", "po_judgments": {"AC-3": "%s"}}\n' "$j" |
			as "$u" batch >"$WORK/race-$u.json" 2>"$WORK/race-$u.err" &
	done
	wait
	row=$(db_sql "SELECT judgment FROM po_judgment WHERE action_id = 'J-race'")
	for u in $JUDGES; do
		jq -r '"\(.status) \(.code)"' "$WORK/race-$u.json" 2>/dev/null || echo "no answer"
	done | sort | uniq -c | sed 's/^ *//' >"$WORK/race"
	expect_eq "eight judges racing: one row" "$(echo "$row" | grep -c .)" 1
	expect_eq "eight judges racing: four judged, four conflicts" "$(cat "$WORK/race")" \
		"4 judged null
4 refused po_judgment_conflict"
	expect_eq "... the judged ones are those that said $row" \
		"$(for u in $JUDGES; do [ "$(jq -r .status "$WORK/race-$u.json")" = judged ] && echo "$u"; done | tr '\n' ' ')" \
		"$(n=0; for u in $JUDGES; do n=$((n + 1)); [ $((n % 2)) -eq 0 ] && j=met || j=unmet; [ "$j" = "$row" ] && echo "$u"; done | tr '\n' ' ')"
	expect_eq "... a record for each judged answer" \
		"$(cs audit export | jq -c '.record | select(.event == "po_judgment" and .action_id == "J-race")' | wc -l)" 4
	expect_status "audit verify after the judges' race" 0 cs audit verify
fi

### 6. Through the service: the same answers; the operator is the peer.
if ! command -v socat >/dev/null 2>&1; then
	echo "skip: the service part needs socat"
	finish
	exit 0
fi
SOCK="$WORK/sock"
"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --officers "$(id -gn)" \
	--checkpoint-file "$WORK/ckpt" 2>>"$WORK/serve.log" &
SERVICE_PID=$!
trap 'kill -KILL "$SERVICE_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
wait_for_socket "$SOCK"
remote_ask() {
	printf '%s\n' "$1" >"$WORK/req"
	set +e
	"$COUNTERSIGN" --connect "$SOCK" batch "$WORK/req" >"$out" 2>"$WORK/err"
	asked=$?
	set -e
}
change J-3
remote_ask '{"action_id": "J-3", "decision": "judge", "po_judgments": {"AC-3": "met"}}'
expect_eq "--connect: the requester's judgment: judged, exit 0" "$(answer) $asked" "judged null 0"
expect_eq "--connect: ... recorded as the peer" \
	"$(db_sql "SELECT operator_login || ' ' || judgment_id FROM po_judgment WHERE action_id = 'J-3'")" \
	"$ME $(jq -r .judgment_id "$out")"
remote_ask '{"action_id": "J-3", "decision": "judge", "po_judgments": {"AC-3": "unmet"}}'
expect_eq "--connect: a different judgment: po_judgment_conflict" "$(answer)" "refused po_judgment_conflict"
remote_ask '{"action_id": "J-3", "decision": "judge", "po_judgments": {"AC-1": "met"}}'
expect_eq "--connect: a MET criterion: bad_request" "$(answer)" "refused bad_request"
remote_ask '{"action_id": "J-3", "decision": "approve", "reason": "x", "acknowledge": ["high_stakes", "divergence"]}'
expect_eq "--connect: the requester approving: self_approval" "$(answer)" "refused self_approval"
expect_eq "--connect: check counts the judgment" \
	"$("$COUNTERSIGN" --connect "$SOCK" check J-3 | jq -c '[.local_verdict.rule_results[] | select(.passed | not) | .rule_id]')" '[]'
printf '%s\n' '{"action_id": "J-3", "decision": "approve", "reason": "read", "acknowledge": ["high_stakes", "divergence"]}' |
	as daemon batch >"$out" 2>/dev/null || true
expect_eq "another officer approves what was judged through the service" "$(answer)" "recorded null"
expect_status "--connect: audit verify" 0 "$COUNTERSIGN" --connect "$SOCK" audit verify
kill -TERM "$SERVICE_PID" 2>/dev/null || true
wait "$SERVICE_PID" 2>/dev/null || true

finish
