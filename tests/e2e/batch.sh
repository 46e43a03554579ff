#!/bin/sh
# SPEC 5, 7 and 8: batch decisions, every refusal code, bad requests,
# --atomic, stdin without a terminal, and the operator that cannot be spoofed.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
ME=$(id -run)
MY_UID=$(id -ru)
UUID4='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
out=$WORK/out
# Every batch output on the main database, to count recorded lines at the end.
ALL=$WORK/all-main
: >"$ALL"

import_examples() {
	"$COUNTERSIGN" --db "$1" import \
		"$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
		"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" \
		"$EXAMPLES/packet-trade-divergent.json" >/dev/null
}

# variant ID JQ-FILTER [BASE]: a packet copied from the passing (or BASE)
# example under a new action_id, with its advisory about the same action.
variant() {
	jq -c --arg id "$1" \
		".proposed_action.action_id = \$id | .reviewer_verdict.action_id = \$id | $2" \
		"${3:-$EXAMPLES/packet-trade-pass.json}"
}

# line N [JQ-OPTIONS] FILTER: jq on output line N of the last command.
line() { n=$1; shift; sed -n "${n}p" "$out" | jq -c "$@"; }

# status_of ACTION [DB]: the queue status of an action.
status_of() {
	"$COUNTERSIGN" --db "${2:-$DB}" list --all --json |
		jq -r --arg a "$1" 'select(.action_id == $a) | .status'
}

# refused WHAT CODE REQUEST-JSON: one line through batch on the main DB is
# refused with CODE, records nothing and leaves the action pending.
refused() {
	printf '%s\n' "$3" >"$WORK/req"
	expect_status "$1: refused" 1 cs batch "$WORK/req"
	cat "$out" >>"$ALL"
	expect_eq "$1: one output line" "$(wc -l <"$out")" 1
	expect_eq "$1: status, code, decision_id" \
		"$(line 1 '[.status, .code, .decision_id]')" "[\"refused\",\"$2\",null]"
	expect_eq "$1: message says something" \
		"$(line 1 '.message | type == "string" and length > 0')" true
	a=$(printf '%s' "$3" | jq -r '.action_id // empty' 2>/dev/null || true)
	if [ -n "$a" ] && [ "$2" != already_decided ] && [ "$2" != unknown_action ]; then
		# (the queue may show an expired action as "expired")
		expect_eq "$1: $a is still undecided" \
			"$(status_of "$a" | sed 's/^expired$/pending/')" pending
	fi
}

# recorded WHAT REQUEST-JSON WANT-STATUS: one line through batch is recorded.
recorded() {
	printf '%s\n' "$2" >"$WORK/req"
	expect_status "$1: recorded" 0 cs batch "$WORK/req"
	cat "$out" >>"$ALL"
	expect_eq "$1: status and code" "$(line 1 '[.status, .code]')" '["recorded",null]'
	expect_eq "$1: decision_id is a UUID v4" \
		"$(line 1 '.decision_id' | tr -d '"' | grep -cE "$UUID4")" 1
	a=$(printf '%s' "$2" | jq -r .action_id)
	expect_eq "$1: $a is now $3" "$(status_of "$a")" "$3"
}

### 1. The contract's decisions.jsonl on the trade examples.
import_examples "$DB"
expect_status "decisions.jsonl: one line refused" 1 cs batch "$EXAMPLES/decisions.jsonl"
cat "$out" >>"$ALL"
expect_eq "one output line per input line" "$(wc -l <"$out")" 3
expect_eq "every output line is a JSON object with the six fields" \
	"$(jq -s '[.[] | select(has("line") and has("action_id") and has("status") and has("decision_id") and has("code") and has("message"))] | length' "$out")" 3
expect_eq "line numbers, in order" "$(jq -s -c '[.[].line]' "$out")" '[1,2,3]'
expect_eq "action ids, in order" "$(jq -s -c '[.[].action_id]' "$out")" \
	"[\"$PASS\",\"$DIVERGENT\",\"NB-412\"]"
expect_eq "statuses" "$(jq -s -c '[.[].status]' "$out")" '["recorded","recorded","refused"]'
expect_eq "line 1 (approve the passing trade) recorded" "$(line 1 .code)" null
expect_eq "line 2 (reject the divergent trade) recorded" "$(line 2 .code)" null
expect_eq "line 3 (NB-412 never imported) unknown_action" "$(line 3 .code)" '"unknown_action"'
expect_eq "line 1 decision_id is a UUID v4" "$(line 1 -r .decision_id | grep -cE "$UUID4")" 1
expect_eq "line 2 decision_id is a UUID v4" "$(line 2 -r .decision_id | grep -cE "$UUID4")" 1
expect_eq "the two decision ids differ" \
	"$([ "$(line 1 .decision_id)" != "$(line 2 .decision_id)" ] && echo yes)" yes
expect_eq "line 3 decision_id is null" "$(line 3 .decision_id)" null
expect_eq "the passing trade is approved" "$(status_of "$PASS")" approved
expect_eq "the divergent trade is rejected" "$(status_of "$DIVERGENT")" rejected
PASS_DID=$(line 1 -r .decision_id)
DIV_DID=$(line 2 -r .decision_id)
cs audit export >"$WORK/export"
expect_eq "the audit record of line 1 carries its decision_id" \
	"$(jq -r --arg a "$PASS" 'select(.record.event == "decision" and .record.action_id == $a) | .record.decision_id' "$WORK/export")" "$PASS_DID"
expect_eq "the audit record of line 2 is a reject routed to action-drafting-b" \
	"$(jq -c --arg a "$DIVERGENT" 'select(.record.event == "decision" and .record.action_id == $a) | [.record.decision_id, .record.decision, .record.routing]' "$WORK/export")" \
	"[\"$DIV_DID\",\"reject\",{\"reassign_to\":\"action-drafting-b\"}]"

### 2. A fresh database: the divergent trade can never be approved.
FRESH=$(db_new fresh)
import_examples "$FRESH"
for req in \
	"{\"action_id\":\"$DIVERGENT\",\"decision\":\"approve\"}" \
	"{\"action_id\":\"$DIVERGENT\",\"decision\":\"approve\",\"reason\":\"I accept the risk\",\"acknowledge\":[\"high_stakes\",\"divergence\"]}"; do
	printf '%s\n' "$req" >"$WORK/req"
	expect_status "fresh: approving the divergent trade is refused" 1 \
		"$COUNTERSIGN" --db "$FRESH" batch "$WORK/req"
	expect_eq "fresh: code rules_failed" "$(line 1 '[.status, .code]')" '["refused","rules_failed"]'
	expect_contains "fresh: the message names excluded_sector" "$out" excluded_sector
done
expect_eq "fresh: the divergent trade is still pending" "$(status_of "$DIVERGENT" "$FRESH")" pending

### 3. Every refusal code reachable without change packets.
{
	variant self ".proposed_action.requested_by = \"$ME\""
	# The requester's name with a combining mark, or with a format
	# control most terminals show as nothing (issue 35).
	variant selfmark ".proposed_action.requested_by = \"$ME\\u0307\""
	variant selfcf ".proposed_action.requested_by = \"$ME\\ud80d\\udc30\""
	variant old '.proposed_action.expires_at = "2020-01-01T00:00:00Z"'
	variant big '.proposed_action.estimated_value_usd = 30000 | .proposed_action.quantity = 400 | .reviewer_verdict.requires_human_approval = true'
	variant big2 '.proposed_action.estimated_value_usd = 30000 | .proposed_action.quantity = 400'
	variant omit '.reviewer_verdict.rule_results |= map(select(.rule_id != "concentration_limit"))'
	variant div2 '.' "$EXAMPLES/packet-trade-divergent.json"
	variant selfbad ".proposed_action.requested_by = \"$ME\"" "$EXAMPLES/packet-trade-divergent.json"
	variant selfold ".proposed_action.requested_by = \"$ME\" | .proposed_action.expires_at = \"2020-01-01T00:00:00Z\""
	variant oldbig '.proposed_action.expires_at = "2020-01-01T00:00:00Z" | .proposed_action.estimated_value_usd = 30000 | .proposed_action.quantity = 400 | .reviewer_verdict.requires_human_approval = true'
	variant future '.proposed_action.expires_at = "2999-01-01T00:00:00Z"'
	variant rr1 '.'
	variant rr2 '.'
} >"$WORK/variants.jsonl"
expect_status "import the variants" 0 cs import "$WORK/variants.jsonl"

# What the local check says about them, so the acknowledgements fit.
expect_status "check self" 0 cs check self
expect_eq "self passes every rule and agrees with its advisory" \
	"$(line 1 -c '[.local_verdict.overall_pass, .local_verdict.requires_human_approval, .divergence]')" '[true,false,[]]'
expect_status "check old" 0 cs check old
expect_eq "old passes every rule and agrees" \
	"$(line 1 -c '[.local_verdict.overall_pass, .divergence]')" '[true,[]]'
expect_status "check big" 0 cs check big
expect_eq "big: passes, high stakes for the USD threshold and (v3) the cash it exceeds, no divergence" \
	"$(line 1 -c '[.local_verdict.overall_pass, .local_verdict.requires_human_approval, [.high_stakes_reasons[].code], .divergence]')" '[true,true,["above_usd","exceeds_cash"],[]]'
expect_status "check big2" 0 cs check big2
expect_eq "big2: high stakes and diverges on requires_human_approval only" \
	"$(line 1 -c '[.local_verdict.requires_human_approval, [.divergence[].what]]')" '[true,["requires_human_approval"]]'
expect_status "check omit" 0 cs check omit
expect_eq "omit: not high stakes, diverges on the omitted rule only" \
	"$(line 1 -c '[.local_verdict.requires_human_approval, [.divergence[] | [.what, .advisory]]]')" \
	'[false,[["concentration_limit",null]]]'

refused "unknown action (approve)" unknown_action '{"action_id":"no-such-action","decision":"approve"}'
refused "unknown action (reject)" unknown_action '{"action_id":"no-such-action","decision":"reject","reason":"x"}'

refused "approve an approved action" already_decided "{\"action_id\":\"$PASS\",\"decision\":\"approve\"}"
PASS_AT=$(jq -r --arg a "$PASS" 'select(.record.event == "decision" and .record.action_id == $a) | .record.decided_at' "$WORK/export")
expect_contains "already_decided names who" "$out" "$ME"
expect_contains "already_decided names when" "$out" "$PASS_AT"
refused "reject an approved action" already_decided "{\"action_id\":\"$PASS\",\"decision\":\"reject\",\"reason\":\"changed my mind\"}"
refused "approve a rejected action" already_decided "{\"action_id\":\"$DIVERGENT\",\"decision\":\"approve\",\"reason\":\"r\",\"acknowledge\":[\"high_stakes\",\"divergence\"]}"
DIV_AT=$(jq -r --arg a "$DIVERGENT" 'select(.record.event == "decision" and .record.action_id == $a) | .record.decided_at' "$WORK/export")
expect_contains "already_decided names who (rejected)" "$out" "$ME"
expect_contains "already_decided names when (rejected)" "$out" "$DIV_AT"

refused "approve a failing trade" rules_failed "{\"action_id\":\"div2\",\"decision\":\"approve\",\"reason\":\"r\",\"acknowledge\":[\"high_stakes\",\"divergence\"]}"
expect_contains "rules_failed names excluded_sector" "$out" excluded_sector
expect_contains "rules_failed names allocation_band_direction" "$out" allocation_band_direction
expect_contains "rules_failed names ips_version_current" "$out" ips_version_current

refused "approve what I requested" self_approval '{"action_id":"self","decision":"approve","reason":"mine"}'
refused "approve what I requested, acknowledging everything" self_approval '{"action_id":"self","decision":"approve","reason":"mine","acknowledge":["high_stakes","divergence"]}'
refused "approve what I requested, spelled with U+0307" self_approval '{"action_id":"selfmark","decision":"approve","reason":"mine"}'
refused "approve what I requested, spelled with U+13430" self_approval '{"action_id":"selfcf","decision":"approve","reason":"mine"}'
recorded "reject what I requested" '{"action_id":"self","decision":"reject","reason":"on reflection, no"}' rejected

refused "approve an expired action" expired '{"action_id":"old","decision":"approve","reason":"late"}'
recorded "reject an expired action" '{"action_id":"old","decision":"reject","reason":"stale"}' rejected
recorded "approve one expiring in the future" '{"action_id":"future","decision":"approve"}' approved

refused "approve high stakes unacknowledged" high_stakes_unacknowledged '{"action_id":"big","decision":"approve","reason":"big but fine"}'
refused "approve high stakes acknowledging only divergence" high_stakes_unacknowledged '{"action_id":"big","decision":"approve","reason":"big but fine","acknowledge":["divergence"]}'
refused "approve high stakes without a reason" reason_required '{"action_id":"big","decision":"approve","acknowledge":["high_stakes"]}'
refused "approve high stakes with an empty reason" reason_required '{"action_id":"big","decision":"approve","reason":"","acknowledge":["high_stakes"]}'
refused "approve high stakes with a blank reason" reason_required '{"action_id":"big","decision":"approve","reason":"   ","acknowledge":["high_stakes"]}'
recorded "approve high stakes acknowledged, with a reason" '{"action_id":"big","decision":"approve","reason":"sized within the IPS","acknowledge":["high_stakes"]}' approved

refused "high stakes and divergence, nothing acknowledged" high_stakes_unacknowledged '{"action_id":"big2","decision":"approve","reason":"r"}'
refused "high stakes acknowledged, divergence not" divergence_unacknowledged '{"action_id":"big2","decision":"approve","reason":"r","acknowledge":["high_stakes"]}'
recorded "high stakes and divergence both acknowledged" '{"action_id":"big2","decision":"approve","reason":"r","acknowledge":["divergence","high_stakes"]}' approved

refused "approve with an advisory that omits a rule" divergence_unacknowledged '{"action_id":"omit","decision":"approve"}'
refused "approve with the wrong acknowledgement" divergence_unacknowledged '{"action_id":"omit","decision":"approve","acknowledge":["high_stakes"]}'
recorded "approve acknowledging the divergence" '{"action_id":"omit","decision":"approve","acknowledge":["divergence"]}' approved

refused "reject with an empty reason" reason_required '{"action_id":"rr1","decision":"reject","reason":""}'
refused "reject with a whitespace reason" reason_required "{\"action_id\":\"rr1\",\"decision\":\"reject\",\"reason\":\" \\t \\n \"}"
recorded "reject with a reason" '{"action_id":"rr1","decision":"reject","reason":"not now"}' rejected

# Precedence: the first applicable code in SPEC 5's list wins.
refused "rules_failed before self_approval" rules_failed '{"action_id":"selfbad","decision":"approve","reason":"r","acknowledge":["high_stakes","divergence"]}'
expect_contains "the message names self_approval too" "$out" self_approval
refused "self_approval before expired" self_approval '{"action_id":"selfold","decision":"approve","reason":"r"}'
refused "expired before high_stakes_unacknowledged" expired '{"action_id":"oldbig","decision":"approve","reason":"r"}'
refused "already_decided before rules_failed" already_decided "{\"action_id\":\"$DIVERGENT\",\"decision\":\"approve\"}"

### 4. Bad requests: each is refused on its own, the next line still counts.
# Every bad line names a pending action that a good line then decides: had
# the bad line been recorded, the good one would be already_decided.
{
	variant g1 '.'; variant g2 '.'; variant g3 '.'; variant g4 '.'; variant g5 '.'
	variant g6 '.'; variant g7 '.'; variant g8 '.'; variant g9 '.'; variant g10 '.'
} >"$WORK/good.jsonl"
cs import "$WORK/good.jsonl" >/dev/null
tab=$(printf '\t')
cat >"$WORK/bad.jsonl" <<EOF
approve g1 please
{"action_id":"g1","decision":"approve"}
["g2","approve"]
{"action_id":"g2","decision":"approve"}
{"decision":"approve","reason":"no id"}
{"action_id":"g3","decision":"approve"}
{"action_id":"g4","decision":"maybe","reason":"r"}
{"action_id":"g4","decision":"approve"}
{"action_id":"g5","decision":"approve","operator":"mallory"}
{"action_id":"g5","decision":"approve"}
{"action_id":"g6","decision":"approve","acknowledge":["everything"]}
{"action_id":"g6","decision":"approve"}
{"action_id":"g7","decision":"approve","reason":"r","reassign_to":"action-drafting-b"}
{"action_id":"g7","decision":"approve"}
{"action_id":"g8","decision":"reject","decision":"approve","reason":"r"}
{"action_id":"g8","decision":"approve"}
{"action_id":"g9","decision":"reject","reason":42}

  $tab
{"action_id":"g9","decision":"reject","reason":"42"}
{"action_id":"g10","decision":"approve","reason":"r","escalate":true}
{"action_id":"g10","decision":"approve"} trailing
{"action_id":"g10","decision":"approve"}
EOF
expect_status "a batch with bad lines" 1 cs batch "$WORK/bad.jsonl"
cat "$out" >>"$ALL"
# SPEC 8: one output line per input line, a blank one too.
expect_eq "one output line per input line, blank ones too" "$(wc -l <"$out")" 23
expect_eq "output line numbers are input line numbers" \
	"$(jq -s -c '[.[].line]' "$out")" '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]'
expect_eq "the bad lines are bad_request, the good ones recorded" \
	"$(jq -s -c '[.[] | .code // .status]' "$out")" \
	'["bad_request","recorded","bad_request","recorded","bad_request","recorded","bad_request","recorded","bad_request","recorded","bad_request","recorded","bad_request","recorded","bad_request","recorded","bad_request","bad_request","bad_request","recorded","bad_request","bad_request","recorded"]'
expect_eq "a blank line is a bad_request naming no action" \
	"$(jq -s -c '[.[] | select(.line == 18 or .line == 19) | [.action_id, .message]] | unique' "$out")" \
	'[[null,"a blank line is not a request"]]'
expect_eq "bad lines are refused with no decision_id" \
	"$(jq -s -c '[.[] | select(.code == "bad_request") | [.status, .decision_id]] | unique' "$out")" '[["refused",null]]'
expect_eq "bad lines have a message" \
	"$(jq -s '[.[] | select(.code == "bad_request") | .message | select(type == "string" and length > 0)] | length' "$out")" 13
for g in g1 g2 g3 g4 g5 g6 g7 g8 g10; do
	expect_eq "$g approved by its good line" "$(status_of $g)" approved
done
expect_eq "g9 rejected by its good line" "$(status_of g9)" rejected
expect_eq "the reason of g9 is the string 42" \
	"$(cs audit export | jq -c 'select(.record.action_id == "g9") | .record.reason')" '"42"'

### 5. --atomic records all or nothing (on the fresh database: 0 decisions).
printf '%s\n' \
	"{\"action_id\":\"$PASS\",\"decision\":\"approve\"}" \
	"{\"action_id\":\"$DIVERGENT\",\"decision\":\"reject\",\"reason\":\"no\"}" \
	'{"action_id":"no-such-action","decision":"reject","reason":"x"}' >"$WORK/atomic-bad.jsonl"
expect_status "--atomic with one refused line" 1 \
	"$COUNTERSIGN" --db "$FRESH" batch "$WORK/atomic-bad.jsonl" --atomic
expect_eq "--atomic: three output lines" "$(wc -l <"$out")" 3
expect_eq "--atomic: every line refused" "$(jq -s -c '[.[].status]' "$out")" '["refused","refused","refused"]'
expect_eq "--atomic: codes" "$(jq -s -c '[.[].code]' "$out")" '["not_recorded","not_recorded","unknown_action"]'
expect_eq "--atomic: no decision ids" "$(jq -s -c '[.[].decision_id]' "$out")" '[null,null,null]'
expect_eq "--atomic: the passing trade is still pending" "$(status_of "$PASS" "$FRESH")" pending
expect_eq "--atomic: the divergent trade is still pending" "$(status_of "$DIVERGENT" "$FRESH")" pending
expect_status "--atomic: audit verify" 0 "$COUNTERSIGN" --db "$FRESH" audit verify
expect_eq "--atomic: audit verify reports 0 decisions" \
	"$(grep -cE '(^|[^0-9])0 decisions' "$out" || true)" 1
expect_eq "--atomic: no decision record" \
	"$("$COUNTERSIGN" --db "$FRESH" audit export | jq -s '[.[] | select(.record.event == "decision")] | length')" 0

printf '%s\n' "{\"action_id\":\"$PASS\",\"decision\":\"approve\"}" 'not json' >"$WORK/atomic-malformed.jsonl"
expect_status "--atomic (first) with a malformed line" 1 \
	"$COUNTERSIGN" --db "$FRESH" batch --atomic "$WORK/atomic-malformed.jsonl"
expect_eq "--atomic: malformed line spoils the batch" "$(jq -s -c '[.[].code]' "$out")" '["not_recorded","bad_request"]'
expect_eq "--atomic: still pending" "$(status_of "$PASS" "$FRESH")" pending
printf '%s\n' "{\"action_id\":\"$PASS\",\"decision\":\"approve\"}" '' >"$WORK/atomic-blank.jsonl"
expect_status "--atomic with a blank line" 1 \
	"$COUNTERSIGN" --db "$FRESH" batch --atomic "$WORK/atomic-blank.jsonl"
expect_eq "--atomic: a blank line is a bad request that spoils the batch" \
	"$(jq -s -c '[.[] | [.line, .code]]' "$out")" '[[1,"not_recorded"],[2,"bad_request"]]'
expect_eq "--atomic: still pending after the blank line" "$(status_of "$PASS" "$FRESH")" pending
# The same action twice: the second line names the first, whose decision
# the refusal keeps from being recorded, not a time and an officer.
printf '%s\n' "{\"action_id\":\"$PASS\",\"decision\":\"approve\"}" \
	"{\"action_id\":\"$PASS\",\"decision\":\"approve\"}" >"$WORK/atomic-twice.jsonl"
expect_status "--atomic with one action twice" 1 \
	"$COUNTERSIGN" --db "$FRESH" batch --atomic "$WORK/atomic-twice.jsonl"
expect_eq "--atomic: the second line is already_decided, by line 1" \
	"$(jq -s -c '.[1] | [.code, .message]' "$out")" \
	'["already_decided","already decided on line 1 of this batch"]'
expect_eq "--atomic: still pending after the repeat" "$(status_of "$PASS" "$FRESH")" pending

head -n 2 "$WORK/atomic-bad.jsonl" >"$WORK/atomic-good.jsonl"
expect_status "--atomic with two good lines" 0 \
	"$COUNTERSIGN" --db "$FRESH" batch "$WORK/atomic-good.jsonl" --atomic
expect_eq "--atomic: both recorded" "$(jq -s -c '[.[] | [.line, .status, .code]]' "$out")" \
	'[[1,"recorded",null],[2,"recorded",null]]'
expect_eq "--atomic: approved" "$(status_of "$PASS" "$FRESH")" approved
expect_eq "--atomic: rejected" "$(status_of "$DIVERGENT" "$FRESH")" rejected
expect_status "--atomic: audit verify after" 0 "$COUNTERSIGN" --db "$FRESH" audit verify
expect_eq "--atomic: two decision records" \
	"$("$COUNTERSIGN" --db "$FRESH" audit export | jq -s '[.[] | select(.record.event == "decision")] | length')" 2

### 6. stdin, no terminal, no TERM.
{ variant s1 '.'; variant s2 '.'; variant s3 '.'; variant spoof '.'; } >"$WORK/stdin.jsonl"
cs import "$WORK/stdin.jsonl" >/dev/null
printf '%s\n' '{"action_id":"s1","decision":"approve"}' >"$WORK/s1.jsonl"
expect_status "batch reads a redirected stdin without TERM" 0 \
	env -u TERM "$COUNTERSIGN" --db "$DB" batch <"$WORK/s1.jsonl"
cat "$out" >>"$ALL"
expect_eq "stdin: recorded" "$(line 1 -c '[.line, .action_id, .status]')" '[1,"s1","recorded"]'
printf '%s\n' '{"action_id":"s2","decision":"reject","reason":"piped"}' |
	env -u TERM "$COUNTERSIGN" --db "$DB" batch >"$out" 2>"$WORK/err" && rc=0 || rc=$?
expect_eq "batch reads a pipe without TERM (exit status)" "$rc" 0
cat "$out" >>"$ALL"
expect_eq "pipe: recorded" "$(line 1 -c '[.line, .action_id, .status]')" '[1,"s2","recorded"]'
printf '{"action_id":"s3","decision":"approve"}' >"$WORK/s3.jsonl"
expect_status "a last line without a newline" 0 env -u TERM "$COUNTERSIGN" --db "$DB" batch <"$WORK/s3.jsonl"
cat "$out" >>"$ALL"
expect_eq "it is decided" "$(line 1 -c '[.action_id, .status]')" '["s3","recorded"]'
expect_status "empty stdin" 0 env -u TERM "$COUNTERSIGN" --db "$DB" batch </dev/null
expect_eq "empty stdin: no output" "$(wc -c <"$out")" 0

# Input that cannot be read is an error, not an empty batch.
for atomic in "" --atomic; do
	expect_status "batch ${atomic:+$atomic }on a directory" 3 \
		"$COUNTERSIGN" --db "$FRESH" batch $atomic "$WORK"
	expect_contains "batch ${atomic:+$atomic }on a directory says why" "$WORK/err" \
		"countersign: cannot read $WORK: Is a directory"
done
expect_status "batch with a directory on stdin" 3 "$COUNTERSIGN" --db "$FRESH" batch <"$WORK"
expect_contains "says so" "$WORK/err" "countersign: cannot read the standard input: "
expect_status "batch of a missing file" 3 "$COUNTERSIGN" --db "$FRESH" batch "$WORK/no-such.jsonl"
expect_contains "says so" "$WORK/err" "countersign: cannot read $WORK/no-such.jsonl: No such file"
expect_eq "nothing was read, nothing recorded" \
	"$("$COUNTERSIGN" --db "$FRESH" audit export | jq -s '[.[] | select(.record.event == "decision")] | length')" 2

### 7. The operator cannot be spoofed.
printf '%s\n' '{"action_id":"spoof","decision":"approve"}' >"$WORK/spoof.jsonl"
expect_status "batch under a spoofed USER/LOGNAME" 0 \
	env USER=mallory LOGNAME=mallory SUDO_USER=mallory SUDO_UID=4242 \
	"$COUNTERSIGN" --db "$DB" batch "$WORK/spoof.jsonl"
cat "$out" >>"$ALL"
expect_eq "spoof: recorded" "$(line 1 .status)" '"recorded"'
expect_eq "spoof: the operator is the real uid's login" \
	"$(cs audit export | jq -c 'select(.record.event == "decision" and .record.action_id == "spoof") | .record.operator')" \
	"{\"login\":\"$ME\",\"uid\":$MY_UID}"
expect_eq "no record names mallory" "$(cs audit export | grep -c mallory || true)" 0

### 8. The log holds exactly one record per recorded line.
expect_status "audit verify at the end" 0 cs audit verify
cs audit export >"$WORK/export"
RECORDED=$(jq -s '[.[] | select(.status == "recorded")] | length' "$ALL")
expect_eq "decision records = recorded lines ($RECORDED)" \
	"$(jq -s '[.[] | select(.record.event == "decision")] | length' "$WORK/export")" "$RECORDED"
expect_eq "every recorded decision_id has its record" \
	"$(jq -s -c '[.[] | select(.status == "recorded") | .decision_id] | sort' "$ALL")" \
	"$(jq -s -c '[.[] | select(.record.event == "decision") | .record.decision_id] | sort' "$WORK/export")"
expect_eq "no action has two decision records" \
	"$(jq -s '[.[] | select(.record.event == "decision") | .record.action_id] | (length == (unique | length))' "$WORK/export")" true
expect_eq "every decision record is by the real operator" \
	"$(jq -s -c '[.[] | select(.record.event == "decision") | .record.operator] | unique' "$WORK/export")" \
	"[{\"login\":\"$ME\",\"uid\":$MY_UID}]"

### 7. --atomic from a pipe holds no lock while its writer is slow.
# Its input is read whole before its transaction, so another officer's
# decision made meanwhile is recorded first, not kept waiting.
SLOW=$(db_new slow)
"$COUNTERSIGN" --db "$SLOW" import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null
{ variant s1 '.'; variant s2 '.'; variant s3 '.'; } >"$WORK/slow.jsonl"
"$COUNTERSIGN" --db "$SLOW" import "$WORK/slow.jsonl" >/dev/null
{
	printf '%s\n' '{"action_id":"s1","decision":"approve"}'
	sleep 3
	printf '%s\n' '{"action_id":"s2","decision":"approve"}'
} | "$COUNTERSIGN" --db "$SLOW" batch --atomic >"$WORK/slow-out" 2>"$WORK/slow-err" &
slow=$!
sleep 1
printf '%s\n' '{"action_id":"s3","decision":"approve"}' >"$WORK/s3.jsonl"
expect_status "another officer decides while the atomic batch's writer is slow" 0 \
	"$COUNTERSIGN" --db "$SLOW" batch "$WORK/s3.jsonl"
wait "$slow"
expect_eq "the atomic batch recorded both its lines" \
	"$(jq -s -c '[.[].status]' "$WORK/slow-out")" '["recorded","recorded"]'
if on_pg; then AGG=string_agg; else AGG=group_concat; fi
expect_eq "s3, decided meanwhile, is first in the log" \
	"$(db_q "$SLOW" "SELECT $AGG(json_extract(record_json, '$.action_id'), ',')
		FROM (SELECT record_json FROM audit_log WHERE json_extract(record_json,
		'$.event') = 'decision' ORDER BY seq) AS d")" s3,s1,s2

finish
