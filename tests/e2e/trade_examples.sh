#!/bin/sh
# SPEC 2.1, 3 and 4 on the contract's own trade examples, field by field.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

expect_status "import the trade examples" 0 cs import \
	"$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-trade-divergent.json"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22

expect_status "check the passing trade" 0 cs check "$PASS"
out=$WORK/out
expect_eq "one line" "$(wc -l <"$out")" 1
expect_eq "keys" "$(jq -c 'keys' "$out")" \
	'["action_id","divergence","high_stakes_reasons","kind","local_verdict","notes","packet_sha256"]'
expect_eq "action_id" "$(jq -r .action_id "$out")" "$PASS"
expect_eq "kind" "$(jq -r .kind "$out")" trade
expect_eq "overall_pass" "$(jq .local_verdict.overall_pass "$out")" true
expect_eq "requires_human_approval" \
	"$(jq .local_verdict.requires_human_approval "$out")" false
expect_eq "rule order and results" \
	"$(jq -c '[.local_verdict.rule_results[] | [.rule_id, .passed]]' "$out")" \
	'[["excluded_ticker",true],["excluded_sector",true],["concentration_limit",true],["allocation_band_direction",true],["ips_version_current",true]]'
expect_eq "no divergence" "$(jq -c .divergence "$out")" '[]'
expect_eq "no high stakes" "$(jq -c .high_stakes_reasons "$out")" '[]'
expect_eq "ips checked" \
	"$(jq -c .local_verdict.ips_version_checked_against "$out")" \
	'{"ips_id":"ips-7f3a","version":3}'
expect_eq "verdict action_id" "$(jq -r .local_verdict.action_id "$out")" "$PASS"
expect_eq "verdict_id is a UUID v4" \
	"$(jq -r .local_verdict.verdict_id "$out" | grep -cE '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')" 1
expect_eq "skill" "$(jq -c .local_verdict.reviewer_skill_version.skill_name "$out")" '"countersign"'
expect_eq "skill version" \
	"$(jq -r .local_verdict.reviewer_skill_version.skill_version "$out")" \
	"$("$COUNTERSIGN" --version | awk '{print $2}')"
expect_eq "reviewed_at is UTC" \
	"$(jq -r .local_verdict.reviewed_at "$out" | grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$')" 1

expect_status "check the divergent trade fails" 1 cs check "$DIVERGENT"
expect_eq "overall_pass" "$(jq .local_verdict.overall_pass "$out")" false
expect_eq "rule results" \
	"$(jq -c '[.local_verdict.rule_results[] | [.rule_id, .passed]]' "$out")" \
	'[["excluded_ticker",true],["excluded_sector",false],["concentration_limit",true],["allocation_band_direction",false],["ips_version_current",false]]'
expect_eq "failing rules say why" \
	"$(jq '[.local_verdict.rule_results[] | select(.passed | not) | .detail | select(type == "string" and length > 0)] | length' "$out")" 3
expect_eq "requires human approval" \
	"$(jq .local_verdict.requires_human_approval "$out")" true
expect_eq "three high-stakes triggers (rules, USD, percent)" \
	"$(jq '.high_stakes_reasons | length' "$out")" 3
expect_eq "divergences, in order" \
	"$(jq -c '[.divergence[] | .what]' "$out")" \
	'["excluded_sector","allocation_band_direction","ips_version_current","overall_pass","requires_human_approval","ips_version_checked_against"]'
expect_eq "divergence values" \
	"$(jq -c '[.divergence[] | [.advisory, .local]]' "$out")" \
	'[[true,false],[null,false],[true,false],[true,false],[false,true],[{"ips_id":"ips-7f3a","version":2},{"ips_id":"ips-7f3a","version":3}]]'
expect_eq "each divergence has a note" \
	"$(jq '[.divergence[] | .note | select(type == "string" and length > 0)] | length' "$out")" 6

expect_status "check with no names checks every pending action" 1 cs check
expect_eq "two lines" "$(wc -l <"$out")" 2
expect_status "an unknown action is refused" 1 cs check no-such-action
expect_contains "it is named" "$WORK/err" "unknown action no-such-action"

finish
