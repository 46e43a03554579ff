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
expect_eq "the ten rules, in SPEC order" \
	"$(jq -c '[.local_verdict.rule_results[].rule_id]' "$out")" \
	'["ac_coverage","met_has_evidence","no_unmet","ci_green","applicable_standards_met","no_block","needs_po_judged","cited_standards_known","deferred_checks_passed","diff_matches_files"]'
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

### 3. With AC-3 judged met: every rule passes; (v2) AC-2's plain-string
### evidence and the missing head_sha are high stakes to acknowledge.
expect_eq "high stakes: uncited_evidence (AC-2), no_commit" \
	"$(cs check NB-412 | jq -c '[.high_stakes_reasons[] | [.code, (.detail | test("AC-2"))]]')" \
	'[["failed_rules",false],["uncited_evidence",true],["no_commit",false]]'
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","reason":"Docs read fine.","po_judgments":{"AC-3":"met"}}'
expect_eq "judged met, unacknowledged: high_stakes_unacknowledged" \
	"$(line 1 '[.status, .code]')" '["refused","high_stakes_unacknowledged"]'
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","acknowledge":["high_stakes"],"po_judgments":{"AC-3":"met"}}'
expect_eq "judged met, acknowledged without a reason: reason_required" \
	"$(line 1 '[.status, .code]')" '["refused","reason_required"]'
batch_line "$DB" '{"action_id":"NB-412","decision":"approve","reason":"Docs read fine.","acknowledge":["high_stakes"],"po_judgments":{"AC-3":"met"}}'
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
	'["change","approve",true,[],true]'
expect_eq "the record: its high-stakes reasons" \
	"$(jq -c '[.high_stakes_reasons[].code]' "$WORK/record")" '["uncited_evidence","no_commit"]'
expect_eq "the record: no commit to bind" "$(jq -c .approved_commit "$WORK/record")" null
expect_eq "the record: needs_po_judged passed at decision time" \
	"$(jq -c '.local_verdict.rule_results[] | select(.rule_id == "needs_po_judged") | .passed' "$WORK/record")" true
expect_eq "the record keeps the advisory exactly as received" \
	"$(jq -c .advisory_verdict "$WORK/record")" \
	"$(jq -c .reviewer_verdict "$EXAMPLES/packet-change.json")"
expect_eq "the record names the standards index used, stored once (SPEC v2 6)" \
	"$(db_sql "SELECT json FROM policy_object WHERE sha256 = '$(jq -r .rule_inputs.standards_index_sha256 "$WORK/record")'" |
	jq -c '.standards | map(.id)')" '["ADR-007","ADR-009"]'
expect_status "the audit chain verifies" 0 cs audit verify
expect_status "a replay with the recorded judgment agrees" 0 cs audit replay NB-412
expect_contains "replay: same verdict" "$out" "same verdict"

### 4. A fresh copy, AC-3 judged unmet: rules_failed.
FRESH=$(db_new fresh_unmet)
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
batch_line "$DB" '{"action_id":"NB-417","decision":"approve","reason":"fact not needed","acknowledge":["high_stakes"],"po_judgments":{"AC-3":"met"}}'
expect_eq "a change with a missing fact can" "$(line 1 .code)" null

### 7. No standards index imported: the standards rule fails closed.
NOINDEX=$(db_new noindex)
in_db "$NOINDEX" import "$EXAMPLES/packet-change.json" >/dev/null
set +e
in_db "$NOINDEX" check NB-412 >"$out"
set -e
expect_eq "no index: applicable_standards_met and cited_standards_known fail too" "$(failing_rules)" \
	'["applicable_standards_met","needs_po_judged","cited_standards_known"]'
expect_contains "no index: the detail says so" "$out" "no standards index"
batch_line "$NOINDEX" '{"action_id":"NB-412","decision":"approve","po_judgments":{"AC-3":"met"}}'
expect_eq "no index: rules_failed" "$(line 1 .code)" '"rules_failed"'

### 8. The contract's decisions.jsonl: its NB-412 line predates v2, which
### makes the example's plain-string AC-2 evidence and its missing head_sha
### high stakes (SPEC 2.3): without the acknowledgement it is refused.
CONTRACT=$(db_new contract)
import_change "$CONTRACT"
set +e
in_db "$CONTRACT" batch "$EXAMPLES/decisions.jsonl" >"$out"
set -e
expect_eq "decisions.jsonl line 3 (NB-412, AC-3 met): high stakes to acknowledge" \
	"$(line 3 '[.action_id, .status, .code]')" '["NB-412","refused","high_stakes_unacknowledged"]'

### 9. A change with ci_status outside green|red|pending is refused.
jq -c '.proposed_action.action_id = "NB-418" | .proposed_action.ci_status = "purple"' \
	"$EXAMPLES/packet-change.json" >"$WORK/purple.jsonl"
expect_status "ci_status purple: refused" 3 cs import "$WORK/purple.jsonl"
expect_contains "the error names the field" "$WORK/err" "proposed_action.ci_status"

### 10. (v2) The backlog tool's own index imports as it is; a domain-scoped
### standard applies by the change's domains.
BACKLOG=$(db_new backlog)
mkdir -p "$WORK/docs/standards"
cat >"$WORK/docs/standards/index.json" <<'JSON'
{
  "version": "backlogd-standards/v1",
  "standards": [
    {
      "id": "ADR-006",
      "title": "Session tokens live in httpOnly cookies",
      "status": "Accepted",
      "assertion": "A session token is never readable by page scripts",
      "applies-to": {"domains": ["auth"], "decision-types": ["token-storage"]},
      "rules": [
        {"id": "R1", "level": "MUST", "assertion": "No token in localStorage", "fix": "Set it as an httpOnly cookie"}
      ]
    },
    {
      "id": "ADR-003",
      "title": "Tokens in localStorage",
      "status": "Superseded by ADR-006",
      "assertion": "Session tokens are kept in localStorage",
      "applies-to": {"file-patterns": ["src/auth/**"]}
    }
  ]
}
JSON
expect_status "the backlog index imports as it is" 0 \
	in_db "$BACKLOG" import "$WORK/docs/standards/index.json"
jq -c '.proposed_action.action_id = "NB-430" | .proposed_action.domains = ["auth"]
	| .proposed_action.changed_files = ["src/auth/session.ts"]
	| .reviewer_verdict.standards = [{id: "ADR-006", rule: "R1", met: false, note: "stores token in localStorage"}]' \
	"$EXAMPLES/packet-change.json" >"$WORK/auth.jsonl"
in_db "$BACKLOG" import "$WORK/auth.jsonl" >/dev/null
set +e
in_db "$BACKLOG" check NB-430 >"$out"
set -e
expect_eq "the reviewer's own not met fails, with its note" \
	"$(jq -r '.local_verdict.rule_results[] | select(.rule_id == "applicable_standards_met") | .detail' "$out")" \
	"ADR-006 rule R1 is not met, the reviewer says: stores token in localStorage"
expect_eq "the cited rule is shown with its level, assertion and fix" \
	"$(jq -r '.local_verdict.rule_results[] | select(.rule_id == "cited_standards_known") | .detail' "$out")" \
	"1 cited standard(s), each in the index; cited rules: ADR-006 R1 (MUST): No token in localStorage; fix: Set it as an httpOnly cookie"
jq 'del(.standards[0]["applies-to"]) | .standards[0].applies_to = {domains: ["auth"]}
	| .standards[0]["applies-to"] = {domains: ["auth"]}' \
	"$WORK/docs/standards/index.json" >"$WORK/both.json"
expect_status "both spellings in one entry: refused" 3 in_db "$BACKLOG" import "$WORK/both.json"
expect_contains "the error names the field" "$WORK/err" 'standards[0].applies-to'
jq -c '.standards = [range(0; 10001) | {id: "S\(.)", assertion: "a", status: "Accepted", applies_to: {domains: ["d"]}}]' \
	"$WORK/docs/standards/index.json" >"$WORK/huge.json"
expect_status "over 10,000 standards: refused" 3 in_db "$BACKLOG" import "$WORK/huge.json"
expect_contains "the error names the standards" "$WORK/err" 'standards'

### 11. (v2) blocked_on: a change the gate finds blocked may be held for a
### standard; any other rejection with it is bad_routing.
batch_line "$DB" '{"action_id":"NB-415","decision":"reject","reason":"wait","blocked_on":"missing_standard"}'
expect_eq "blocked_on for a change that no_block passes: bad_routing" \
	"$(line 1 '[.status, .code]')" '["refused","bad_routing"]'
batch_line "$DB" '{"action_id":"NB-416","decision":"reject","reason":"wait","blocked_on":"missing_fact"}'
expect_eq "blocked_on other than missing_standard: bad_request" "$(line 1 .code)" '"bad_request"'
batch_line "$DB" '{"action_id":"NB-416","decision":"reject","reason":"wait","blocked_on":true}'
expect_eq "blocked_on not a string: bad_request" "$(line 1 .code)" '"bad_request"'
batch_line "$DB" '{"action_id":"NB-416","decision":"approve","reason":"r","blocked_on":"missing_standard"}'
expect_eq "blocked_on on an approval: bad_request" "$(line 1 .code)" '"bad_request"'
batch_line "$DB" '{"action_id":"NB-416","decision":"reject","reason":"r","escalate":true,"blocked_on":"missing_standard"}'
expect_eq "blocked_on with another routing: bad_request" "$(line 1 .code)" '"bad_request"'
batch_line "$DB" '{"action_id":"NB-416","decision":"reject","blocked_on":"missing_standard"}'
expect_eq "blocked_on still needs a reason" "$(line 1 .code)" '"reason_required"'
batch_line "$DB" '{"action_id":"NB-416","decision":"reject","reason":"Hooks need a standard first","blocked_on":"missing_standard"}'
expect_eq "blocked_on for a blocked change: recorded" "$(line 1 '[.status, .code]')" '["recorded",null]'
expect_eq "the record routes it as blocked_on" \
	"$(cs audit export | jq -c 'select(.record.action_id == "NB-416") | .record.routing')" \
	'{"blocked_on":"missing_standard"}'
expect_eq "the decision row says so" \
	"$(db_sql "SELECT blocked_on FROM decision WHERE action_id = 'NB-416'")" missing_standard
expect_status "the chain still verifies" 0 cs audit verify
expect_eq "list --all --json: held, and for what" \
	"$(cs list --all --json | jq -c 'select(.action_id == "NB-416") | [.status, .blocked_on, .waiting_for]')" \
	'["rejected","missing_standard",["no standard for hooks"]]'
expect_status "list --all" 0 cs list --all
expect_contains "list --all: the held change says what it waits for" "$WORK/out" \
	"blocked: waiting for a standard: no standard for hooks"
expect_eq "the record locks nobody out" \
	"$(cs audit export | jq -c 'select(.record.action_id == "NB-416") | .record.lockout.locked_out')" '[]'
# SPEC 2.4: a rejection held for a standard locks out nobody, so the same
# author's next version of it passes author_lockout.
jq -c '.proposed_action.action_id = "NB-416-next" | .proposed_action.revision_of = "NB-416"' \
	"$EXAMPLES/packet-change.json" >"$WORK/nb416-next.json"
cs import "$WORK/nb416-next.json" >/dev/null
expect_eq "the held change's author may write its next version" \
	"$(cs check NB-416-next | jq -c '.local_verdict.rule_results[] | select(.rule_id == "author_lockout") | .passed')" true
expect_eq "a plain rejection is not held" \
	"$(in_db "$FRESH" list --all --json | jq -c 'select(.action_id == "NB-412") | [.status, .blocked_on]')" \
	'["rejected",null]'
TRADE_DB=$(db_new trade)
in_db "$TRADE_DB" import "$EXAMPLES/packet-trade-pass.json" >/dev/null
TRADE_ID=$(jq -r .proposed_action.action_id "$EXAMPLES/packet-trade-pass.json")
batch_line "$TRADE_DB" "{\"action_id\":\"$TRADE_ID\",\"decision\":\"reject\",\"reason\":\"r\",\"blocked_on\":\"missing_standard\"}"
expect_eq "blocked_on for a trade: bad_routing" "$(line 1 .code)" '"bad_routing"'

### 12. (v2) Each new high-stakes reason needs the acknowledgement and a
### reason; an approval with head_sha records it as approved_commit.
SHA=0123456789abcdef0123456789abcdef01234567
CITED='.reviewer_verdict.ac_results[1].evidence = {file: "scripts/lint.sh", line: 12}'
{
	jq -c ".proposed_action.action_id = \"HS-flag\" | $CITED | .proposed_action.head_sha = \"$SHA\"
		| .reviewer_verdict.flagged_assumptions = [\"nobody runs the old hook\"]" "$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"HS-uncited\" | .proposed_action.head_sha = \"$SHA\"" \
		"$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"HS-nocommit\" | $CITED" "$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"HS-none\" | $CITED | .proposed_action.head_sha = \"$SHA\"" \
		"$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"HS-invented\" | $CITED | .proposed_action.head_sha = \"$SHA\"
		| .reviewer_verdict.standards += [{id: \"ADR-999\", met: true}]" "$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"HS-deferred\" | $CITED | .proposed_action.head_sha = \"$SHA\"
		| .reviewer_verdict.deferred_checks = [{check: \"hook on Windows\", ran: false, passed: false}]" \
		"$EXAMPLES/packet-change.json"
} >"$WORK/stakes.jsonl"
expect_status "import the high-stakes variants" 0 cs import "$WORK/stakes.jsonl"
for pair in HS-flag:flagged_assumption HS-uncited:uncited_evidence HS-nocommit:no_commit; do
	id=${pair%%:*} code=${pair#*:}
	expect_eq "$id: its one reason is $code" \
		"$(cs check "$id" | jq -c '[.high_stakes_reasons[].code]')" '["failed_rules","'"$code"'"]'
	batch_line "$DB" "{\"action_id\":\"$id\",\"decision\":\"approve\",\"reason\":\"r\",\"po_judgments\":{\"AC-3\":\"met\"}}"
	expect_eq "$id: unacknowledged" "$(line 1 .code)" '"high_stakes_unacknowledged"'
	batch_line "$DB" "{\"action_id\":\"$id\",\"decision\":\"approve\",\"acknowledge\":[\"high_stakes\"],\"po_judgments\":{\"AC-3\":\"met\"}}"
	expect_eq "$id: acknowledged, no reason" "$(line 1 .code)" '"reason_required"'
	batch_line "$DB" "{\"action_id\":\"$id\",\"decision\":\"approve\",\"reason\":\"weighed it\",\"acknowledge\":[\"high_stakes\"],\"po_judgments\":{\"AC-3\":\"met\"}}"
	expect_eq "$id: acknowledged with a reason: recorded" "$(line 1 .status)" '"recorded"'
done
expect_eq "the flagged assumption is quoted in the record" \
	"$(cs audit export | jq -r 'select(.record.action_id == "HS-flag") | .record.high_stakes_reasons[0].detail')" \
	'the reviewer assumed: "nobody runs the old hook"'
expect_eq "an approval records the commit reviewed" \
	"$(cs audit export | jq -r 'select(.record.action_id == "HS-flag") | .record.approved_commit')" "$SHA"
expect_eq "without head_sha: approved_commit is null" \
	"$(cs audit export | jq -c 'select(.record.action_id == "HS-nocommit") | .record.approved_commit')" null
batch_line "$DB" '{"action_id":"HS-none","decision":"approve","po_judgments":{"AC-3":"met"}}'
expect_eq "cited evidence and a commit: nothing to acknowledge" "$(line 1 .status)" '"recorded"'
batch_line "$DB" '{"action_id":"HS-invented","decision":"approve","reason":"r","acknowledge":["high_stakes","divergence"],"po_judgments":{"AC-3":"met"}}'
expect_eq "an invented standard: rules_failed" "$(line 1 .code)" '"rules_failed"'
expect_contains "naming cited_standards_known" "$out" cited_standards_known
batch_line "$DB" '{"action_id":"HS-deferred","decision":"approve","reason":"r","acknowledge":["high_stakes","divergence"],"po_judgments":{"AC-3":"met"}}'
expect_eq "a deferred check not run: rules_failed" "$(line 1 .code)" '"rules_failed"'
expect_contains "naming deferred_checks_passed" "$out" deferred_checks_passed
batch_line "$DB" '{"action_id":"HS-deferred","decision":"reject","reason":"run it","blocked_on":"missing_standard"}'
expect_eq "not blocked, so not held for a standard: bad_routing" "$(line 1 .code)" '"bad_routing"'


### 13. (v3) Rule 10: a diff that hides a file fails, its paths bring their
### standards; a reviewer's sent_back is high stakes of its own.
HIDDEN_DIFF='--- a/skills/solve/gate.md
+++ b/skills/solve/gate.md
@@ -1 +1 @@
-Old wording.
+New wording.
--- a/scripts/lint.sh
+++ b/scripts/lint.sh
@@ -1 +1 @@
-shellcheck
+shellcheck==0.9.0
--- a/web/auth/session.ts
+++ b/web/auth/session.ts
@@ -0,0 +1 @@
+localStorage.setItem("token", token);
'
HONEST_DIFF=$(printf '%s' "$HIDDEN_DIFF" | sed '/web\/auth/,$d')
{
	jq -c --arg d "$HIDDEN_DIFF" ".proposed_action.action_id = \"D-hidden\" | $CITED
		| .proposed_action.head_sha = \"$SHA\" | .proposed_action.diff = \$d" "$EXAMPLES/packet-change.json"
	jq -c --arg d "$HONEST_DIFF" ".proposed_action.action_id = \"D-honest\" | $CITED
		| .proposed_action.head_sha = \"$SHA\" | .proposed_action.diff = \$d" "$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"D-prose\" | $CITED | .proposed_action.head_sha = \"$SHA\"
		| .proposed_action.diff = \"I changed the docs and the lint script.\"" "$EXAMPLES/packet-change.json"
	jq -c ".proposed_action.action_id = \"D-sentback\" | $CITED | .proposed_action.head_sha = \"$SHA\"
		| .reviewer_verdict.outcome = \"sent_back\"" "$EXAMPLES/packet-change.json"
} >"$WORK/diffs.jsonl"
jq -c '.standards += [{id: "ADR-012", assertion: "Tokens never reach browser storage",
	status: "Accepted", applies_to: {file_patterns: ["web/auth/**"]}}]' \
	"$EXAMPLES/standards_index.json" >"$WORK/auth-index.json"
expect_status "import the diffs and a standard for web/auth" 0 cs import "$WORK/auth-index.json" "$WORK/diffs.jsonl"
judged='{"AC-3":"met"}'
set +e; cs check D-honest >"$out"; set -e
expect_eq "a diff writing the changed files: rule 10 passes" \
	"$(jq -c '[.local_verdict.rule_results[] | select(.rule_id == "diff_matches_files") | .passed]' "$out")" '[true]'
set +e; cs check D-hidden >"$out"; set -e
expect_eq "a diff hiding web/auth/session.ts fails rule 10 and the auth standard" "$(failing_rules)" \
	'["applicable_standards_met","needs_po_judged","diff_matches_files"]'
expect_contains "rule 10 names the hidden file" "$out" \
	"the diff writes web/auth/session.ts, which changed_files does not name"
expect_contains "the auth standard applies by the diff's path" "$out" \
	"ADR-012 applies (web/auth/** matches web/auth/session.ts) but the verdict does not assess it"
batch_line "$DB" "{\"action_id\":\"D-hidden\",\"decision\":\"approve\",\"reason\":\"r\",\"acknowledge\":[\"high_stakes\",\"divergence\"],\"po_judgments\":$judged}"
expect_eq "approving it: rules_failed" "$(line 1 .code)" '"rules_failed"'
expect_contains "naming diff_matches_files" "$out" diff_matches_files
set +e; cs check D-prose >"$out"; set -e
expect_contains "prose for a diff fails closed, saying why" "$out" \
	"the diff is not a unified diff: it has no file headers"
set +e; cs check D-sentback >"$out"; set -e
expect_eq "sent_back: the rules but needs_po_judged pass" "$(failing_rules)" '["needs_po_judged"]'
batch_line "$DB" "{\"action_id\":\"D-sentback\",\"decision\":\"approve\",\"acknowledge\":[\"divergence\"],\"po_judgments\":$judged}"
expect_eq "judged, a sent_back is not overridden by the divergence alone" \
	"$(line 1 -c '[.status, .code]')" '["refused","high_stakes_unacknowledged"]'
batch_line "$DB" "{\"action_id\":\"D-sentback\",\"decision\":\"approve\",\"reason\":\"The reviewer wanted a test the PO waived\",\"acknowledge\":[\"high_stakes\",\"divergence\"],\"po_judgments\":$judged}"
expect_eq "with the acknowledgement and a reason it is recorded" "$(line 1 .status)" '"recorded"'
expect_eq "the record names reviewer_sent_back" \
	"$(cs audit export | jq -c 'select(.record.action_id == "D-sentback") | [.record.high_stakes_reasons[].code]')" \
	'["reviewer_sent_back"]'

finish
