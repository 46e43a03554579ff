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
expect_eq "(v2) notes for the officer, as {what, detail}" \
	"$(jq -c '[.notes[] | [.what, (.detail | length > 0)]]' "$out")" \
	'[["class_share",true],["position_share",true],["cash",true],["holdings_as_of",true]]'
expect_eq "class_share: before and after against the band" \
	"$(jq -r '.notes[0].detail' "$out")" \
	'fixed_income: 17.5% of the portfolio before, below its min, 18.75% after the buy, below its min; band 20%-30%'
expect_eq "cash: the buy against the cash" "$(jq -r '.notes[2].detail' "$out")" \
	'the buy of $7,500.00 is within the cash of $20,000.00 ($12,500.00 left)'
expect_contains "holdings_as_of: the snapshot's as_of" "$out" 'as of 2026-11-28T21:00:00Z'
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
expect_eq "five high-stakes triggers (rules, USD, percent, (v3) an unheld ticker without a price, more than the cash)" \
	"$(jq -c '[.high_stakes_reasons[].code]' "$out")" \
	'["failed_rules","above_usd","above_percent","no_reference_price","exceeds_cash"]'
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

### (v2) status: only an action awaiting a decision may be approved.
# trade_as ID JQ-FILTER: the passing example as ID, edited.
trade_as() {
	jq -c --arg id "$1" ".proposed_action.action_id = \$id
		| .reviewer_verdict.action_id = \$id | $2" "$EXAMPLES/packet-trade-pass.json"
}
# batch_line REQUEST-JSON: one request through batch; status and line in $out.
batch_line() {
	printf '%s\n' "$1" >"$WORK/req"
	set +e
	cs batch "$WORK/req" >"$out" 2>"$WORK/err"
	batch_status=$?
	set -e
}
trade_as st-executed '.proposed_action.status = "executed"' >"$WORK/executed.json"
trade_as st-pending '.proposed_action.status = "pending_approval"' >"$WORK/pending.json"
trade_as st-bad '.proposed_action.status = "done"' >"$WORK/bad-status.json"
expect_status "import trades with a status" 0 cs import "$WORK/executed.json" "$WORK/pending.json"
expect_status "an unknown status is refused" 3 cs import "$WORK/bad-status.json"
expect_contains "naming the field" "$WORK/err" proposed_action.status
batch_line '{"action_id":"st-executed","decision":"approve"}'
expect_eq "approving an executed trade is refused: not_pending" \
	"$batch_status $(jq -c '[.status, .code]' "$out")" '1 ["refused","not_pending"]'
expect_contains "the refusal names the status" "$out" executed
batch_line '{"action_id":"st-pending","decision":"approve"}'
expect_eq "a pending_approval trade is approved" \
	"$batch_status $(jq -c '[.status, .code]' "$out")" '0 ["recorded",null]'
batch_line '{"action_id":"st-executed","decision":"reject","reason":"executed elsewhere"}'
expect_eq "an executed trade may still be rejected" \
	"$batch_status $(jq -c '[.status, .code]' "$out")" '0 ["recorded",null]'

### (v2) a buy carrying its class from inside its band above its max is noted.
# fixed_income is 17.5% (BND 105000 of 600000), band 20-30%; a held-price
# buy of 81000 would take it from 17.5% to 31%: that one starts outside.
# Sell 15000 first in a fresh snapshot: BND 120000 of 600000 is 20%.
jq -c '.snapshot_id = "h-band" | .as_of = "2026-11-29T00:00:00Z"
	| .positions |= map(if .ticker == "BND" then .market_value_usd = 120000 | .quantity = 1600 else . end)
	| .cash_usd = 5000' "$EXAMPLES/holdings.json" >"$WORK/band-holdings.json"
expect_status "import a later snapshot" 0 cs import "$WORK/band-holdings.json"
trade_as band-cross '.proposed_action.quantity = 800 | .proposed_action.estimated_value_usd = 60001' >"$WORK/band.json"
expect_status "import the crossing buy" 0 cs import "$WORK/band.json"
set +e; cs check band-cross >"$out"; set -e
expect_eq "the band rule does not fail it (direction-based)" \
	"$(jq -r '.local_verdict.rule_results[] | select(.rule_id == "allocation_band_direction") | .passed' "$out")" true
expect_eq "the note says it crosses: 20% before, above its max after" \
	"$(jq -r '.notes[] | select(.what == "class_share") | .detail' "$out")" \
	'fixed_income: 20% of the portfolio before, 30.0002% after the buy, above its max; band 20%-30%: the trade carries it out of its band (noted, not failed: the rule is direction-based)'
expect_eq "and the buy exceeds the cash" \
	"$(jq -r '.notes[] | select(.what == "cash") | .detail' "$out")" \
	'the buy of $60,001.00 exceeds the cash of $5,000.00 by $55,001.00'

### (v2) the price check: a value the packet understates is high stakes.
# VXUS is held 2100 for 130000 ($61.90 a unit); BND 1400 for 105000 ($75).
trade_as px-vxus '.proposed_action.ticker = "VXUS" | .proposed_action.quantity = 1000000
	| .proposed_action.estimated_value_usd = 1' >"$WORK/px.jsonl"
trade_as px-edge '.proposed_action.estimated_value_usd = 9000' >>"$WORK/px.jsonl"
trade_as px-over '.proposed_action.estimated_value_usd = 9000.01' >>"$WORK/px.jsonl"
expect_status "import the priced trades" 0 cs import "$WORK/px.jsonl"
expect_status "check px-vxus passes its rules" 0 cs check px-vxus
expect_eq "BUY VXUS x1000000 \$1: high stakes for its price alone" \
	"$(jq -c '[.local_verdict.overall_pass, .local_verdict.requires_human_approval, [.high_stakes_reasons[].code]]' "$out")" \
	'[true,true,["price_deviation"]]'
expect_contains "the reason gives both prices" "$out" '$61.90'
expect_status "check px-edge" 0 cs check px-edge
# (v3) The band snapshot's cash is $5,000: each of these buys exceeds it.
expect_eq "exactly 20% above the held price is not a deviation" \
	"$(jq -c '[.high_stakes_reasons[].code]' "$out")" '["exceeds_cash"]'
expect_status "check px-over" 0 cs check px-over
expect_eq "a cent more is" "$(jq -c '[.high_stakes_reasons[].code]' "$out")" '["price_deviation","exceeds_cash"]'
batch_line '{"action_id":"px-vxus","decision":"approve","acknowledge":["divergence"]}'
expect_eq "approving it without acknowledging high stakes is refused" \
	"$batch_status $(jq -c '[.status, .code]' "$out")" '1 ["refused","high_stakes_unacknowledged"]'
batch_line '{"action_id":"px-vxus","decision":"approve","reason":"Price checked with the desk","acknowledge":["high_stakes","divergence"]}'
expect_eq "acknowledged with a reason, it is recorded" \
	"$batch_status $(jq -c '[.status, .code]' "$out")" '0 ["recorded",null]'
expect_eq "the record lists price_deviation as {code, detail}" \
	"$(cs audit export | jq -c 'select(.record.action_id == "px-vxus") | [.record.high_stakes_reasons[] | [.code, (.detail | length > 0)]]')" \
	'[["price_deviation",true]]'

### (v3) a reference price for an unheld ticker, cash, and an Unknown sector.
# The band snapshot above is current: cash $5,000, no SGOV, no MO held.
jq -c '.securities = {SGOV: {sector: "Treasury Bills", asset_class: "cash", price_usd: 100},
	UNK: {sector: "Unknown", asset_class: "us_equity"}, BLANK: {sector: " ", asset_class: "us_equity"}}' \
	"$EXAMPLES/security_map.json" >"$WORK/priced-map.json"
expect_status "a security map with price_usd imports" 0 cs import "$WORK/priced-map.json"
for bad in 0 -1 '"100"' true '{"usd": 1}'; do
	jq -c --argjson p "$bad" '.securities.SGOV.price_usd = $p' "$WORK/priced-map.json" >"$WORK/bad-price.json"
	expect_status "a price_usd of $bad is refused" 3 cs import "$WORK/bad-price.json"
	expect_contains "... naming file, line and field" "$WORK/err" "bad-price.json:1: securities.SGOV.price_usd"
done
printf '{"type": "security_map", "securities": {"SGOV": {"sector": "Treasury Bills", "asset_class": "cash", "price_usd": 1e400}}}\n' >"$WORK/bad-price.json"
expect_status "a price_usd out of range is refused" 3 cs import "$WORK/bad-price.json"
expect_contains "... as not finite" "$WORK/err" "securities.SGOV.price_usd: number is out of range (not finite)"
trade_as ref-ok '.proposed_action.ticker = "SGOV" | .proposed_action.quantity = 40
	| .proposed_action.estimated_value_usd = 4000' >"$WORK/ref.jsonl"
trade_as ref-low '.proposed_action.ticker = "SGOV" | .proposed_action.quantity = 1000000
	| .proposed_action.estimated_value_usd = 1000' >>"$WORK/ref.jsonl"
trade_as ref-none '.proposed_action.ticker = "AAPL" | .proposed_action.side = "sell"
	| .proposed_action.quantity = 1000000 | .proposed_action.estimated_value_usd = 1' >>"$WORK/ref.jsonl"
trade_as cash-over '.proposed_action.ticker = "SGOV" | .proposed_action.quantity = 50.0001
	| .proposed_action.estimated_value_usd = 5000.01' >>"$WORK/ref.jsonl"
trade_as sector-unknown '.proposed_action.ticker = "UNK" | .proposed_action.side = "sell"' >>"$WORK/ref.jsonl"
trade_as sector-blank '.proposed_action.ticker = "BLANK" | .proposed_action.side = "sell"' >>"$WORK/ref.jsonl"
expect_status "import the trades" 0 cs import "$WORK/ref.jsonl"
codes() { set +e; cs check "$1" >"$out"; set -e; jq -c '[.high_stakes_reasons[].code]' "$out"; }
expect_eq "SGOV at the map's \$100 within the cash: no high stakes" "$(codes ref-ok)" '[]'
expect_eq "SGOV a million at \$0.001: far from the map's price" "$(codes ref-low)" '["price_deviation"]'
expect_contains "... the reason names the map's price" "$out" "the security map's price_usd of \$100.00"
# AAPL is held 200 for 45000 ($225 a unit): that price is the reference.
expect_eq "an AAPL sell a million at \$1: the held price says no" "$(codes ref-none)" '["price_deviation"]'
jq -c '.snapshot_id = "h-noqty" | .as_of = "2026-11-29T01:00:00Z"
	| .positions |= map(if .ticker == "AAPL" then del(.quantity) else . end)' \
	"$WORK/band-holdings.json" >"$WORK/noqty-holdings.json"
expect_status "a snapshot holding AAPL without a quantity" 0 cs import "$WORK/noqty-holdings.json"
expect_eq "then no reference price" "$(codes ref-none)" '["no_reference_price"]'
expect_contains "... saying so" "$out" "the holdings hold no quantity of it and the security map gives it no price_usd"
expect_eq "a buy a cent beyond the cash" "$(codes cash-over)" '["exceeds_cash"]'
expect_contains "... by how much" "$out" 'the buy of $5,000.01 exceeds the cash of $5,000.00 (cash_usd) by $0.01'
for id in sector-unknown sector-blank; do
	set +e; cs check "$id" >"$out"; set -e
	expect_eq "$id: excluded_sector fails closed" \
		"$(jq -r '.local_verdict.rule_results[] | select(.rule_id == "excluded_sector") | .passed' "$out")" false
	expect_contains "$id: its sector is unknown" "$out" "so its sector is unknown"
done
batch_line '{"action_id":"ref-low","decision":"approve","reason":"Checked the price","acknowledge":["high_stakes","divergence"]}'
expect_eq "the deviation from the map price is approved with acknowledgement" \
	"$batch_status $(jq -c '[.status, .code]' "$out")" '0 ["recorded",null]'
expect_eq "its record holds the map entry with its price" \
	"$(cs audit replay ref-low >/dev/null 2>&1; echo $?) $(cs audit export | jq -c 'select(.record.action_id == "ref-low") | [[.record.high_stakes_reasons[].code], .record.rule_inputs.securities.SGOV.price_usd]')" \
	'0 [["price_deviation"],100]'

### (v3) The decision record carries the notes the officer judged by
### (SPEC 6), and audit replay shows them.
trade_as notes-1 '.' >"$WORK/notes.jsonl"
expect_status "import a trade to judge by its notes" 0 cs import "$WORK/notes.jsonl"
set +e; cs check notes-1 >"$WORK/notes-check"; set -e
batch_line '{"action_id":"notes-1","decision":"approve","reason":"Within the band","acknowledge":["high_stakes","divergence"]}'
expect_eq "it is recorded" "$batch_status $(jq -r .status "$out")" "0 recorded"
cs audit export | jq -c 'select(.record.action_id == "notes-1") | .record.notes' >"$WORK/notes-record"
expect_eq "the record lists the notes check shows, in order" \
	"$(jq -c '[.[].what]' "$WORK/notes-record")" "$(jq -c '[.notes[].what]' "$WORK/notes-check")"
expect_eq "with the same class share and cash figures (the as_of note's age aside)" \
	"$(jq -c '[.[] | select(.what != "holdings_as_of")]' "$WORK/notes-record")" \
	"$(jq -c '[.notes[] | select(.what != "holdings_as_of")]' "$WORK/notes-check")"
expect_status "audit replay of it" 0 cs audit replay notes-1
expect_contains "shows the notes judged by" "$out" "  notes judged by:"
expect_contains "each with what it is about" "$out" \
	"    class_share: $(jq -r '.[] | select(.what == "class_share") | .detail' "$WORK/notes-record")"
expect_contains "the cash note too" "$out" "    cash: "

finish
