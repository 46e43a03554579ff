#!/bin/sh
# Issue 35 (point 1): the policy a decision used is the policy the audit
# chain recorded.  A security row rewritten in plain SQL (MO moved from
# the excluded Tobacco sector to Government Bonds) once let an excluded
# trade be approved while audit verify said intact.  audit verify now
# holds each decision's rule_inputs to the policy imports before it, and
# the policy rows to the whole log's imports; a policy imported again, a
# new version, still verifies.  On either backend (postgresql.sh).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/roster.json" \
	"$EXAMPLES/standards_index.json" "$EXAMPLES/packet-trade-pass.json" \
	>/dev/null 2>&1
# mo PREFIX: the passing trade, of MO (Tobacco, which the IPS excludes).
mo() {
	jq -c --arg a "$1" '.proposed_action.action_id = $a
		| .reviewer_verdict.action_id = $a | .proposed_action.ticker = "MO"' \
		"$EXAMPLES/packet-trade-pass.json"
}
{ mo mo-1; jq -c '.proposed_action.action_id = "p-2"
	| .reviewer_verdict.action_id = "p-2"' "$EXAMPLES/packet-trade-pass.json"
} >"$WORK/mo.jsonl"
cs import "$WORK/mo.jsonl" >/dev/null 2>&1
echo "{\"action_id\": \"$PASS\", \"decision\": \"approve\"}" | cs batch >/dev/null 2>&1
APPROVE_MO='{"action_id": "mo-1", "decision": "approve", "reason": "looks fine", "acknowledge": ["high_stakes", "divergence"]}'

### 1. An untouched store verifies; the excluded trade is refused.
expect_status "an untouched store verifies" 0 cs audit verify
expect_contains "... intact" "$WORK/out" "audit log intact"
expect_eq "the decision names the IPS and holdings by their imports' digests" \
	"$(cs audit export | jq -c "select(.record.action_id == \"$PASS\") | .record.rule_inputs | [.ips_sha256, .holdings_sha256]")" \
	"$(cs audit export | jq -c -s '[.[].record | select(.event == "policy_import" and (.type == "ips" or .type == "holdings")) | .object_sha256]')"
echo "$APPROVE_MO" | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "the excluded MO trade is refused" "$(jq -r .code "$WORK/out")" rules_failed

### 2. The forged security row, as the owner role would write it.
FORGED=$(db_copy forged)
db_tamper "$FORGED" "" "UPDATE security SET sector = 'Government Bonds',
	asset_class = 'fixed_income' WHERE ticker_key = 'MO'"
expect_status "a forged security row fails audit verify" 1 \
	"$COUNTERSIGN" --db "$FORGED" audit verify
expect_contains "... naming the row and its field" "$WORK/out" \
	'the security row MO says sector "Government Bonds", but the policy import at seq 1 says "Tobacco"'
# The forged sector lets the trade pass every rule, and it is approved.
echo "$APPROVE_MO" | "$COUNTERSIGN" --db "$FORGED" batch >"$WORK/forged-out" 2>/dev/null || true
expect_eq "on the forged row the excluded trade passes and is recorded" \
	"$(jq -r .status "$WORK/forged-out")" recorded
DECISION=$(jq -r .decision_id "$WORK/forged-out")
SEQ=$(db_q "$FORGED" "SELECT audit_seq FROM decision WHERE action_id = 'mo-1'")
expect_status "audit verify fails at that decision" 1 \
	"$COUNTERSIGN" --db "$FORGED" audit verify
expect_contains "... naming the decision and the field" "$WORK/out" \
	"audit log BROKEN at seq $SEQ: decision $DECISION of action mo-1: rule_inputs.securities.MO.sector is \"Government Bonds\", but the policy import at seq 1 says \"Tobacco\""
# The row put back after the decision: the decision still tells.
db_tamper "$FORGED" "" "UPDATE security SET sector = 'Tobacco',
	asset_class = 'us_equity' WHERE ticker_key = 'MO'"
expect_status "the row put back: the decision still fails audit verify" 1 \
	"$COUNTERSIGN" --db "$FORGED" audit verify
expect_contains "... at the decision" "$WORK/out" "BROKEN at seq $SEQ: decision $DECISION"

### 3. Other policy rows forged behind the imports.
# forged WHAT SQL TEXT: on a copy, SQL makes audit verify fail, saying TEXT.
forged() {
	T=$(db_copy "forged$(echo "$1" | tr -cd a-z)")
	db_tamper "$T" "" "$2"
	expect_status "$1: audit verify fails" 1 "$COUNTERSIGN" --db "$T" audit verify
	expect_contains "$1: ... saying so" "$WORK/out" "$3"
}
forged "a security row never imported" \
	"INSERT INTO security (ticker_key, ticker, sector, asset_class, imported_at_ms)
	 VALUES ('ZZZ', 'ZZZ', 'Technology', 'us_equity', 1)" \
	"the security row ZZZ is in no policy import"
forged "an imported security's row deleted" "DELETE FROM security WHERE ticker_key = 'MO'" \
	"7 securities were imported, but the security map has 6 rows"
forged "an IPS row rewritten" \
	"UPDATE ips SET raw_json = replace(raw_json, '\"Tobacco\"', '\"Energy\"')" \
	"the ips row ips-7f3a version 3 is not the object the policy import at seq 2 recorded"
forged "a holdings row rewritten" \
	"UPDATE holdings SET raw_json = replace(raw_json, '20000', '90000')" \
	"the holdings row h-u-1001-2026-11-28 is not the object the policy import at seq 3 recorded"
forged "a newer holdings snapshot never imported" \
	"INSERT INTO holdings (snapshot_id, user_id, as_of_ms, raw_json, imported_at_ms)
	 SELECT 'h-forged', user_id, as_of_ms + 1, replace(raw_json, 'h-u-1001-2026-11-28', 'h-forged'), 1 FROM holdings" \
	"the holdings row h-forged is in no policy import"
forged "the roster rewritten" \
	"UPDATE policy_document SET raw_json = replace(raw_json, '\"action-drafting\"', '\"someone\"') WHERE type = 'roster'" \
	"the roster row is not the object the policy import at seq 4 recorded"

# An IPS rewritten before a decision and put back after it.
T=$(db_copy ipsswap)
db_tamper "$T" "" "UPDATE ips SET raw_json = replace(raw_json, '\"Tobacco\"', '\"Energy\"')"
echo '{"action_id": "p-2", "decision": "approve"}' |
	"$COUNTERSIGN" --db "$T" batch >"$WORK/swap-out" 2>/dev/null || true
expect_eq "on the rewritten IPS a trade is recorded" "$(jq -r .status "$WORK/swap-out")" recorded
db_tamper "$T" "" "UPDATE ips SET raw_json = replace(raw_json, '\"Energy\"', '\"Tobacco\"')"
expect_status "the IPS put back: audit verify fails at the decision" 1 \
	"$COUNTERSIGN" --db "$T" audit verify
expect_contains "... naming rule_inputs.ips_sha256" "$WORK/out" \
	"decision $(jq -r .decision_id "$WORK/swap-out") of action p-2: rule_inputs.ips_sha256 is not the digest the policy import at seq 2 recorded"

### 4. Policy imported again, as countersign imports it, still verifies.
jq -c '.securities.MO = {"sector": "Government Bonds", "asset_class": "fixed_income"}' \
	"$EXAMPLES/security_map.json" >"$WORK/map2.json"
jq -c '.version = 4 | .constraints.excluded_sectors = ["Energy"]' \
	"$EXAMPLES/ips.json" >"$WORK/ips4.json"
# A trade drafted against the new version.
mo mo-4 | jq -c '.proposed_action.ips_version_referenced.version = 4
	| .reviewer_verdict.ips_version_checked_against.version = 4' >"$WORK/mo4.json"
cs import "$WORK/map2.json" "$WORK/ips4.json" "$WORK/mo4.json" >/dev/null 2>&1
echo "$APPROVE_MO" | sed 's/mo-1/mo-4/' | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "after a real re-import the MO trade passes and is recorded" \
	"$(jq -r .status "$WORK/out")" recorded
expect_eq "... against the new IPS version and sector" \
	"$(cs audit export | jq -c 'select(.record.action_id == "mo-4") | .record.rule_inputs | [.ips, .securities.MO.sector]')" \
	'[{"ips_id":"ips-7f3a","version":4},"Government Bonds"]'
expect_status "a re-imported policy still verifies" 0 cs audit verify
expect_contains "... intact, both decisions" "$WORK/out" "(2 decisions)"
expect_status "the first decision replays on its own policy" 0 cs audit replay "$PASS"

finish
