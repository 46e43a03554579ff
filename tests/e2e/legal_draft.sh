#!/bin/sh
# SPEC 2.2 (v2), 4, 5 and 6 for legal_draft packets: the example imports
# and passes its three rules while its advisory fails it; an approval
# records the SHA-256 of the text the reviewer's routing approves (the fix
# for a legal issue, the draft otherwise); an unfixed legal issue cannot be
# approved; a review that failed or cannot be read is high stakes
# (no_review), not a failure; a fix the gates never saw is unregated_fix.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

LEGAL=legal-2026-0042
RULES='["no_unfixed_legal_issues","gates_clear","review_pass_consistent"]'
out=$WORK/out

# line N [JQ-OPTIONS] FILTER: jq on output line N of the last command.
line() { n=$1; shift; sed -n "${n}p" "$out" | jq -c "$@"; }

# variant ID JQ-FILTER: the legal example under a new action_id.
variant() {
	jq -c --arg id "$1" ".proposed_action.action_id = \$id | $2" \
		"$EXAMPLES/packet-legal-draft.json"
}

# batch_one REQUEST-JSON: one request line through batch, output in $out.
batch_one() {
	printf '%s\n' "$1" >"$WORK/req"
	set +e
	cs batch "$WORK/req" >"$out" 2>"$WORK/err"
	batch_status=$?
	set -e
}

# The fixed text, taken out of the raw model output independently of
# countersign: strip the prose and the fence, then parse the object.
fixed_text_sha256() {
	jq -r '.reviewer_verdict' "$EXAMPLES/packet-legal-draft.json" |
		sed -n '/^```json$/,/^```$/p' | sed '1d;$d' |
		jq -j '.final_artifacts[0].text' | sha256sum | cut -d' ' -f1
}
FIXED_SHA=$(fixed_text_sha256)
DRAFT_SHA=$(jq -j '.proposed_action.draft_text' \
	"$EXAMPLES/packet-legal-draft.json" | sha256sum | cut -d' ' -f1)
# Computed once by hand, so an extraction bug above cannot hide one below.
expect_eq "the expected digest of the fixed text" "$FIXED_SHA" \
	8745e79d82c5c9c1b6094403c821204d4964a36682859f58d4b5d26b04ced2b0

### 1. The example: imports, three passing rules, one divergence.
expect_status "import the legal example" 0 cs import "$EXAMPLES/packet-legal-draft.json"
expect_status "check $LEGAL passes" 0 cs check "$LEGAL"
expect_eq "kind" "$(line 1 -r .kind)" legal_draft
expect_eq "three rules, in SPEC order" \
	"$(line 1 '[.local_verdict.rule_results[].rule_id]')" "$RULES"
expect_eq "every rule passes" \
	"$(line 1 '[.local_verdict.rule_results[].passed]')" '[true,true,true]'
expect_eq "overall_pass true, no human approval required, no IPS" \
	"$(line 1 '[.local_verdict.overall_pass, .local_verdict.requires_human_approval, .local_verdict.ips_version_checked_against]')" \
	'[true,false,null]'
expect_eq "divergence is [overall_pass]: advisory false, local true" \
	"$(line 1 '[.divergence[] | [.what, .advisory, .local]]')" \
	'[["overall_pass",false,true]]'
expect_eq "list shows the author and the summary" \
	"$(cs list --json | jq -r --arg a "$LEGAL" 'select(.action_id == $a) | "\(.who) \(.summary)"')" \
	"drafting-graph recovery_suit (civil)"

### 2. Approving it: divergence must be acknowledged; the fixed text is approved.
batch_one "{\"action_id\":\"$LEGAL\",\"decision\":\"approve\"}"
expect_eq "approval without acknowledging the divergence is refused" \
	"$batch_status $(line 1 '[.status, .code]')" '1 ["refused","divergence_unacknowledged"]'
batch_one "{\"action_id\":\"$LEGAL\",\"decision\":\"approve\",\"reason\":\"Fix reviewed\",\"acknowledge\":[\"divergence\"]}"
expect_eq "approval acknowledging the divergence is recorded" \
	"$batch_status $(line 1 '[.status, .code]')" '0 ["recorded",null]'
cs audit export | jq -c --arg a "$LEGAL" \
	'select(.record.event == "decision" and .record.action_id == $a) | .record' \
	>"$WORK/record"
expect_eq "one decision record" "$(wc -l <"$WORK/record")" 1
expect_eq "the record is an approval of a legal_draft" \
	"$(jq -c '[.kind, .decision]' "$WORK/record")" '["legal_draft","approve"]'
expect_eq "approved_artifact_sha256 is the SHA-256 of the fixed text" \
	"$(jq -r .approved_artifact_sha256 "$WORK/record")" "$FIXED_SHA"
expect_eq "... which is not the draft's" \
	"$([ "$FIXED_SHA" != "$DRAFT_SHA" ] && echo differs)" differs
expect_eq "the advisory is recorded exactly as received (a string)" \
	"$(jq -r '.advisory_verdict | type' "$WORK/record")" string
cs audit export --csv | grep -F "\"$LEGAL\"" >"$WORK/csv-row"
expect_contains "the CSV gives the local pass and the review's fail (review_pass)" \
	"$WORK/csv-row" '"Fix reviewed","pass","fail",'
expect_eq "the record keeps the divergence" \
	"$(jq -c '[.divergence[].what]' "$WORK/record")" '["overall_pass"]'
expect_status "the audit chain verifies" 0 cs audit verify

### 3. A legal blocking issue with no inline fix cannot be approved.
variant legal-unfixed '.reviewer_verdict = {review_pass: false,
	blocking_issues: [{issue: "No cause of action pleaded", severity: "legal"}],
	non_blocking_issues: [], final_artifacts: []}' >"$WORK/unfixed.json"
expect_status "import the unfixed packet" 0 cs import "$WORK/unfixed.json"
expect_status "check legal-unfixed fails" 1 cs check legal-unfixed
expect_eq "no_unfixed_legal_issues fails, the other rules pass" \
	"$(line 1 '[.local_verdict.rule_results[] | [.rule_id, .passed]]')" \
	'[["no_unfixed_legal_issues",false],["gates_clear",true],["review_pass_consistent",true]]'
expect_contains "the detail quotes the issue" "$out" "No cause of action pleaded"
expect_eq "both verdicts fail it: no divergence" "$(line 1 .divergence)" '[]'
batch_one '{"action_id":"legal-unfixed","decision":"approve","reason":"x","acknowledge":["high_stakes","divergence"]}'
expect_eq "approving it is refused as rules_failed" \
	"$batch_status $(line 1 '[.status, .code]')" '1 ["refused","rules_failed"]'
expect_contains "the refusal names the rule" "$out" no_unfixed_legal_issues
batch_one '{"action_id":"legal-unfixed","decision":"reject","reason":"Plead the cause of action"}'
expect_eq "rejecting it is recorded" "$(line 1 '[.status, .code]')" '["recorded",null]'
expect_eq "a rejection approves no artifact" \
	"$(cs audit export | jq -r 'select(.record.action_id == "legal-unfixed") | .record.approved_artifact_sha256')" null

# approve_all ID REASON: approve acknowledging both, output in $out.
approve_all() {
	batch_one "{\"action_id\":\"$1\",\"decision\":\"approve\",\"reason\":\"$2\",\"acknowledge\":[\"high_stakes\",\"divergence\"]}"
}
# approved_sha ID: approved_artifact_sha256 of its decision record.
approved_sha() {
	cs audit export | jq -r --arg a "$1" \
		'select(.record.event == "decision" and .record.action_id == $a) | .record.approved_artifact_sha256'
}

### 4. Gate errors fail gates_clear when the draft is the approved text.
variant legal-gates '.proposed_action.gate_errors = [{gate: "citation_check", message: "Order VII cited wrongly"}]
	| .reviewer_verdict = {review_pass: true, blocking_issues: [{issue: "Annexure labels", severity: "formatting"}],
	  non_blocking_issues: [], final_artifacts: [{text: "A REWRITE"}]}' >"$WORK/gates.json"
expect_status "import the gated packet" 0 cs import "$WORK/gates.json"
expect_status "check legal-gates fails" 1 cs check legal-gates
expect_eq "gates_clear fails and names the gate" \
	"$(line 1 '.local_verdict.rule_results[] | select(.rule_id == "gates_clear") | [.passed, (.detail | test("citation_check"))]')" \
	'[false,true]'
expect_eq "its reason is failed_rules" "$(line 1 -c '[.high_stakes_reasons[].code]')" '["failed_rules"]'
approve_all legal-gates "Gates are wrong"
expect_eq "approving it is refused as rules_failed" \
	"$batch_status $(line 1 '[.status, .code]')" '1 ["refused","rules_failed"]'

# The same gate errors with a legal issue fixed inline: the fix is
# approved, the gates never ran on it, so it passes as high stakes.
variant legal-unregated '.proposed_action.gate_errors = [{gate: "citation_check", message: "Order VII cited wrongly"}]' \
	>"$WORK/unregated.json"
expect_status "import the fixed, gated packet" 0 cs import "$WORK/unregated.json"
expect_status "check legal-unregated passes" 0 cs check legal-unregated
expect_eq "gates_clear passes: the approved text is the fix" \
	"$(line 1 '.local_verdict.rule_results[] | select(.rule_id == "gates_clear") | .passed')" true
expect_eq "high stakes: unregated_fix" \
	"$(line 1 -c '[.local_verdict.requires_human_approval, [.high_stakes_reasons[].code]]')" \
	'[true,["unregated_fix"]]'
batch_one '{"action_id":"legal-unregated","decision":"approve","reason":"x","acknowledge":["divergence"]}'
expect_eq "without acknowledging high stakes it is refused" \
	"$batch_status $(line 1 '[.status, .code]')" '1 ["refused","high_stakes_unacknowledged"]'
approve_all legal-unregated "Fix read in full"
expect_eq "acknowledged, it is recorded" "$(line 1 '[.status, .code]')" '["recorded",null]'
expect_eq "the record approves the fix" "$(approved_sha legal-unregated)" "$FIXED_SHA"
expect_eq "the record's reasons are {code, detail} objects" \
	"$(cs audit export | jq -c 'select(.record.action_id == "legal-unregated") | [.record.high_stakes_reasons[] | [.code, (.detail | length > 0)]]')" \
	'[["unregated_fix",true]]'

### 5. No usable review: every rule passes, the draft goes on as high stakes.
variant legal-garbled '.reviewer_verdict = "I am unable to review this draft {sorry}."' \
	>"$WORK/garbled.json"
expect_status "an unparseable advisory imports" 0 cs import "$WORK/garbled.json"
expect_status "check legal-garbled passes" 0 cs check legal-garbled
expect_eq "no rule fails" \
	"$(line 1 '[.local_verdict.rule_results[] | select(.passed | not) | .rule_id]')" '[]'
expect_eq "high stakes: no_review" \
	"$(line 1 -c '[.local_verdict.requires_human_approval, [.high_stakes_reasons[].code]]')" \
	'[true,["no_review"]]'
expect_eq "one divergence: advisory_verdict" \
	"$(line 1 '[.divergence[] | [.what, .advisory, .local]]')" \
	'[["advisory_verdict",null,null]]'
variant legal-none 'del(.reviewer_verdict)' >"$WORK/none.json"
expect_status "a packet without advisory imports" 0 cs import "$WORK/none.json"
expect_status "check legal-none passes" 0 cs check legal-none
expect_eq "a missing advisory: one divergence, advisory_verdict" \
	"$(line 1 -c '[.divergence[].what]')" '["advisory_verdict"]'
expect_contains "its no_review says none was received" "$out" "no review verdict was received"

# The reviewer's fallback after failed attempts: its error is the news.
variant legal-failed '.reviewer_verdict = {review_pass: false, blocking_issues: [],
	non_blocking_issues: [], final_artifacts: [], error: "all 3 attempts failed"}' >"$WORK/failed.json"
expect_status "import the failed review" 0 cs import "$WORK/failed.json"
expect_status "check legal-failed passes" 0 cs check legal-failed
expect_eq "no_review quotes the error" \
	"$(line 1 -r '.high_stakes_reasons[] | select(.code == "no_review") | .detail | test("all 3 attempts failed")')" true
expect_eq "its review_pass false diverges from the local pass" \
	"$(line 1 -c '[.divergence[].what]')" '["overall_pass"]'
batch_one '{"action_id":"legal-failed","decision":"approve","acknowledge":["high_stakes","divergence"]}'
expect_eq "approving it needs a reason" \
	"$batch_status $(line 1 '[.status, .code]')" '1 ["refused","reason_required"]'
approve_all legal-failed "Read in full; gates-only is enough for this NDA"
expect_eq "approved with both acknowledgements and a reason" "$(line 1 '[.status, .code]')" '["recorded",null]'
expect_eq "the record approves the draft" "$(approved_sha legal-failed)" "$DRAFT_SHA"

# A formatting-only issue: the draft is promoted, even with a rewrite.
variant legal-format '.reviewer_verdict = {review_pass: true, blocking_issues: [{issue: "Annexure labels", severity: "formatting"}],
	non_blocking_issues: [], final_artifacts: [{text: "A REWRITE NOBODY ASKED FOR"}]}' >"$WORK/format.json"
expect_status "import the formatting-only draft" 0 cs import "$WORK/format.json"
expect_status "check legal-format passes" 0 cs check legal-format
expect_eq "no divergence, not high stakes" \
	"$(line 1 -c '[.divergence, .high_stakes_reasons, .local_verdict.requires_human_approval]')" '[[],[],false]'
batch_one '{"action_id":"legal-format","decision":"approve"}'
expect_eq "approving it needs nothing more" "$(line 1 '[.status, .code]')" '["recorded",null]'
expect_eq "the record approves the draft, not the rewrite" "$(approved_sha legal-format)" "$DRAFT_SHA"

# An empty fix text fixes nothing.
variant legal-emptyfix '.reviewer_verdict = {review_pass: false, blocking_issues: [{issue: "No cause of action", severity: "legal"}],
	non_blocking_issues: [], final_artifacts: [{text: ""}]}' >"$WORK/emptyfix.json"
expect_status "import the empty fix" 0 cs import "$WORK/emptyfix.json"
expect_status "check legal-emptyfix fails" 1 cs check legal-emptyfix
expect_contains "it says the fix is empty" "$out" "final_artifacts[0].text is empty"

### 6. A proposed action without draft_text is refused, naming the field.
variant legal-nodraft 'del(.proposed_action.draft_text)' >"$WORK/nodraft.json"
expect_status "a packet without draft_text is refused" 3 cs import "$WORK/nodraft.json"
expect_contains "the error names the field" "$WORK/err" proposed_action.draft_text

### 7. A review error or checks that are not strings (issue 36): the
### structured output legal reviewers produce imports, checks, describes
### and decides.  Each once aborted the program (free() of a block the
### private cJSON allocator had made).
n=0
for error in '{"code": "timeout", "attempts": 3}' 42 '["a", "b"]' true null; do
	n=$((n + 1))
	variant "legal-err$n" ".reviewer_verdict = {review_pass: false, blocking_issues: [], non_blocking_issues: [],
		final_artifacts: [], error: $error, checks: [{check: \"court fee\", passed: false}, \"plain\"]}" >"$WORK/err$n.json"
	expect_status "a review error of $error imports" 0 cs import "$WORK/err$n.json"
	expect_status "and checks (high stakes, no rule fails)" 0 cs check "legal-err$n"
	batch_one "{\"action_id\": \"legal-err$n\", \"decision\": \"reject\", \"reason\": \"structured error\"}"
	expect_eq "and is decided" "$batch_status $(line 1 -r .status)" "0 recorded"
done

finish
