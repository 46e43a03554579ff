#!/bin/sh
# SPEC 2.3, 5 and 6 for change packets: the contract's example fails only
# needs_po_judged until a human judges AC-3; an approval without that
# judgment is po_judgment_required, with "met" it is recorded (and the audit
# record keeps the judgment), with "unmet" or a red CI it is rules_failed.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

out=$WORK/out

# line N [JQ-OPTIONS] FILTER: jq on output line N of the last command.
line() { n=$1; shift; sed -n "${n}p" "$out" | jq -c "$@"; }

# in_db DB ARGS...: countersign on another database.
in_db() { db=$1; shift; "$COUNTERSIGN" --db "$db" "$@"; }

import_change() {
	in_db "$1" import "$EXAMPLES/standards_index.json" \
		"$EXAMPLES/packet-change.json" >/dev/null
}

# batch_line DB JSON: one request through batch, output in $out.
batch_line() {
	printf '%s\n' "$2" >"$WORK/req"
	set +e
	in_db "$1" batch "$WORK/req" >"$out" 2>"$WORK/err"
	batch_status=$?
	set -e
}

status_of() {
	in_db "$1" list --all --json |
		jq -r --arg a "$2" 'select(.action_id == $a) | .status'
}

failing_rules() {
	jq -c '[.local_verdict.rule_results[] | select(.passed | not) | .rule_id]' "$out"
}

### 1. The example, as imported: only needs_po_judged fails.
import_change "$DB"
expect_status "check NB-412 exits 1" 1 cs check NB-412
expect_eq "kind" "$(jq -r .kind "$out")" change
expect_eq "the seven rules, in SPEC order" \
	"$(jq -c '[.local_verdict.rule_results[].rule_id]' "$out")" \
	'["ac_coverage","met_has_evidence","no_unmet","ci_green","applicable_standards_met","no_block","needs_po_judged"]'
expect_eq "only needs_po_judged fails" "$(failing_rules)" '["needs_po_judged"]'
expect_eq "its detail names AC-3" \
	"$(jq -r '.local_verdict.rule_results[] | select(.rule_id == "needs_po_judged") | .detail | test("AC-3")' "$out")" true
expect_eq "no IPS for a change" \
	"$(jq -c .local_verdict.ips_version_checked_against "$out")" null
expect_eq "the advisory (needs_po) passes what fails locally: one divergence" \
	"$(jq -c '[.divergence[] | [.what, .advisory, .local]]' "$out")" \
	'[["overall_pass",true,false]]'
expect_status "list shows it" 0 cs list --json
expect_eq "who is the author, summary the title" \
	"$(jq -c 'select(.action_id == "NB-412") | [.kind, .who, .summary]' "$out")" \
	'["change","developer-agent","Add markdownlint to the pre-commit gate"]'

### 2. Approving without judging AC-3: po_judgment_required.
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","reason":"Docs read fine.","acknowledge":["high_stakes","divergence"]}'
expect_eq "unjudged: refused (exit 1)" "$batch_status" 1
expect_eq "unjudged: po_judgment_required" \
	"$(line 1 '[.status, .code, .decision_id]')" '["refused","po_judgment_required",null]'
expect_contains "unjudged: the message says what is awaited" "$out" "NEEDS-PO"
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","po_judgments":{}}'
expect_eq "empty po_judgments: po_judgment_required" "$(line 1 .code)" '"po_judgment_required"'
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","po_judgments":{"AC-1":"met"}}'
expect_eq "judging another criterion: po_judgment_required" "$(line 1 .code)" '"po_judgment_required"'
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","po_judgments":{"AC-3":"fine"}}'
expect_eq "a judgment other than met/unmet: bad_request" "$(line 1 .code)" '"bad_request"'
expect_eq "NB-412 is still pending" "$(status_of "$DB" NB-412)" pending

### 3. With AC-3 judged met: every rule passes, nothing to acknowledge.
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","reason":"Docs read fine.","po_judgments":{"AC-3":"met"}}'
expect_eq "judged met: recorded (exit 0)" "$batch_status" 0
expect_eq "judged met: recorded" "$(line 1 '[.status, .code]')" '["recorded",null]'
expect_eq "NB-412 is approved" "$(status_of "$DB" NB-412)" approved
cs audit export >"$WORK/export"
jq -c 'select(.record.event == "decision" and .record.action_id == "NB-412") | .record' \
	"$WORK/export" >"$WORK/record"
expect_eq "one decision record" "$(wc -l <"$WORK/record")" 1
expect_eq "the record carries the judgment" \
	"$(jq -c .po_judgments "$WORK/record")" '{"AC-3":"met"}'
expect_eq "the record: kind, decision, local pass, no divergence" \
	"$(jq -c '[.kind, .decision, .local_verdict.overall_pass, .divergence, .requires_human_approval]' "$WORK/record")" \
	'["change","approve",true,[],false]'
expect_eq "the record: needs_po_judged passed at decision time" \
	"$(jq -c '.local_verdict.rule_results[] | select(.rule_id == "needs_po_judged") | .passed' "$WORK/record")" true
expect_eq "the record keeps the advisory exactly as received" \
	"$(jq -c .advisory_verdict "$WORK/record")" \
	"$(jq -c .reviewer_verdict "$EXAMPLES/packet-change.json")"
expect_eq "the record names the standards index used, stored once (SPEC v2 6)" \
	"$(sqlite3 "$DB" "SELECT json FROM policy_object WHERE sha256 = '$(jq -r .rule_inputs.standards_index_sha256 "$WORK/record")'" |
	jq -c '.standards | map(.id)')" '["ADR-007","ADR-009"]'
expect_status "the audit chain verifies" 0 cs audit verify
expect_status "a replay with the recorded judgment agrees" 0 cs audit replay NB-412
expect_contains "replay: same verdict" "$out" "same verdict"

### 4. A fresh copy, AC-3 judged unmet: rules_failed.
FRESH=$WORK/fresh-unmet.db
import_change "$FRESH"
batch_line "$FRESH" '{"action_id":"NB-412","decision":"approve","reason":"r","acknowledge":["high_stakes","divergence"],"po_judgments":{"AC-3":"unmet"}}'
expect_eq "judged unmet: refused (exit 1)" "$batch_status" 1
expect_eq "judged unmet: rules_failed" "$(line 1 '[.status, .code]')" '["refused","rules_failed"]'
expect_contains "judged unmet: the message names needs_po_judged" "$out" needs_po_judged
expect_eq "judged unmet: still pending" "$(status_of "$FRESH" NB-412)" pending
recorded_count=$(in_db "$FRESH" audit export | jq -s '[.[] | select(.record.event == "decision")] | length')
expect_eq "judged unmet: no decision record" "$recorded_count" 0
batch_line "$FRESH" '{"action_id":"NB-412","decision":"reject","reason":"AC-3 is not met: the docs are unclear","po_judgments":{"AC-3":"unmet"}}'
expect_eq "a rejection with the judgment is recorded" "$(line 1 .status)" '"recorded"'
expect_eq "the rejection record keeps the judgment" \
	"$(in_db "$FRESH" audit export | jq -c 'select(.record.event == "decision") | .record.po_judgments')" \
	'{"AC-3":"unmet"}'

### 5. CI red: rules_failed, not po_judgment_required, judged or not.
jq -c '.proposed_action.action_id = "NB-413" | .proposed_action.ci_status = "red"' \
	"$EXAMPLES/packet-change.json" >"$WORK/red.jsonl"
expect_status "import the red variant" 0 cs import "$WORK/red.jsonl"
expect_status "check NB-413 exits 1" 1 cs check NB-413
expect_eq "red: ci_green and needs_po_judged fail" "$(failing_rules)" '["ci_green","needs_po_judged"]'
batch_line "$DB" '{"action_id":"NB-413","decision":"approve","reason":"r","acknowledge":["high_stakes","divergence"]}'
expect_eq "red, unjudged: rules_failed" "$(line 1 '[.status, .code]')" '["refused","rules_failed"]'
expect_contains "red, unjudged: the message names ci_green" "$out" ci_green
batch_line "$DB" '{"action_id":"NB-413","decision":"approve","reason":"r","acknowledge":["high_stakes","divergence"],"po_judgments":{"AC-3":"met"}}'
expect_eq "red, judged met: rules_failed" "$(line 1 '[.status, .code]')" '["refused","rules_failed"]'
expect_contains "red, judged met: the message names ci_green" "$out" ci_green
expect_eq "NB-413 is still pending" "$(status_of "$DB" NB-413)" pending

### 6. The other gate rules, through the binary.
{
	jq -c '.proposed_action.action_id = "NB-414" | .reviewer_verdict.ac_results[1].evidence = ""' \
		"$EXAMPLES/packet-change.json"
	jq -c '.proposed_action.action_id = "NB-415" | .reviewer_verdict.standards = []' \
		"$EXAMPLES/packet-change.json"
	jq -c '.proposed_action.action_id = "NB-416" | .reviewer_verdict.gaps = [{"class": "missing_standard", "text": "no standard for hooks"}]' \
		"$EXAMPLES/packet-change.json"
	jq -c '.proposed_action.action_id = "NB-417" | .reviewer_verdict.gaps = [{"class": "missing_fact", "text": "CI version unknown"}]' \
		"$EXAMPLES/packet-change.json"
} >"$WORK/variants.jsonl"
expect_status "import the variants" 0 cs import "$WORK/variants.jsonl"
expect_status "check NB-414" 1 cs check NB-414
expect_eq "a MET citing nothing fails met_has_evidence" "$(failing_rules)" '["met_has_evidence","needs_po_judged"]'
expect_status "check NB-415" 1 cs check NB-415
expect_eq "an unassessed applicable standard fails" "$(failing_rules)" '["applicable_standards_met","needs_po_judged"]'
expect_status "check NB-416" 1 cs check NB-416
expect_eq "a missing standard blocks" "$(failing_rules)" '["no_block","needs_po_judged"]'
expect_status "check NB-417" 1 cs check NB-417
expect_eq "a missing fact does not" "$(failing_rules)" '["needs_po_judged"]'
batch_line "$DB" '{"action_id":"NB-416","decision":"approve","po_judgments":{"AC-3":"met"}}'
expect_eq "a blocked change cannot be approved" "$(line 1 .code)" '"rules_failed"'
batch_line "$DB" '{"action_id":"NB-417","decision":"approve","po_judgments":{"AC-3":"met"}}'
expect_eq "a change with a missing fact can" "$(line 1 .code)" null

### 7. No standards index imported: the standards rule fails closed.
NOINDEX=$WORK/noindex.db
in_db "$NOINDEX" import "$EXAMPLES/packet-change.json" >/dev/null
set +e
in_db "$NOINDEX" check NB-412 >"$out"
set -e
expect_eq "no index: applicable_standards_met fails too" "$(failing_rules)" \
	'["applicable_standards_met","needs_po_judged"]'
expect_contains "no index: the detail says so" "$out" "no standards index"
batch_line "$NOINDEX" '{"action_id":"NB-412","decision":"approve","po_judgments":{"AC-3":"met"}}'
expect_eq "no index: rules_failed" "$(line 1 .code)" '"rules_failed"'

### 8. The contract's decisions.jsonl: its NB-412 line is recorded.
CONTRACT=$WORK/contract.db
import_change "$CONTRACT"
set +e
in_db "$CONTRACT" batch "$EXAMPLES/decisions.jsonl" >"$out"
set -e
expect_eq "decisions.jsonl line 3 (NB-412, AC-3 met) recorded" \
	"$(line 3 '[.action_id, .status, .code]')" '["NB-412","recorded",null]'

### 9. A change with ci_status outside green|red|pending is refused.
jq -c '.proposed_action.action_id = "NB-418" | .proposed_action.ci_status = "purple"' \
	"$EXAMPLES/packet-change.json" >"$WORK/purple.jsonl"
expect_status "ci_status purple: refused" 3 cs import "$WORK/purple.jsonl"
expect_contains "the error names the field" "$WORK/err" "proposed_action.ci_status"

finish
