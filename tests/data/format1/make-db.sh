#!/bin/sh
# Builds tests/data/format1/format1.sql: a database written by the release
# before decision records carried "format" (commit d9b51b8), with numbers
# whose printed form differs between cJSON versions and between the old
# and the new canonical form (-0, 1e15, 0.1, 100/3, 2^53 - 1, 1e-7).
# tests/e2e/format1.sh replays and verifies it with today's build.
#
# Usage: make-db.sh COUNTERSIGN_BINARY OUTPUT.sql   (needs jq and sqlite3)
set -eu
bin=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
ex=$here/../examples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/db
cs() { "$bin" --db "$db" "$@"; }

# The IPS with -0 and numbers in a kept, unknown field.
jq -c '.target_allocation.cash.min_percent = -0
	| .concentration_limit_percent_note = [1e15, 0.1, 33.333333333333336,
		9007199254740991, 1e-7, -1.5e-300, 123456.789, -0]' \
	"$ex/ips.json" >"$work/ips.json"
grep -q '"min_percent":-0,' "$work/ips.json"
jq -c '.positions[1].market_value_usd = 45000.25 | .cash_usd = 19999.75' \
	"$ex/holdings.json" >"$work/holdings.json"
jq -c '.proposed_action.estimated_value_usd = 7500.1' \
	"$ex/packet-trade-pass.json" >"$work/pass.json"
cs import "$ex/security_map.json" "$work/ips.json" "$work/holdings.json" \
	"$work/pass.json" "$ex/packet-trade-divergent.json" "$ex/roster.json" \
	"$ex/standards_index.json" "$ex/packet-legal-draft.json" \
	"$ex/packet-change.json" >/dev/null
jq -nc '
	{action_id: "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11", decision: "approve",
	 reason: "Within band; caf\u00e9 \u2014 \"quoted\"\ttab"},
	{action_id: "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22", decision: "reject",
	 reason: "Outside the band"}' >"$work/decisions.jsonl"
cs batch "$work/decisions.jsonl" >/dev/null
sqlite3 "$db" .dump >"$out"
