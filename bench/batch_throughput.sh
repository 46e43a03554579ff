#!/bin/sh
# Batch throughput beside its floor, measured in the same run (issue 3):
# N decisions with per-decision durability and with --atomic, against a bare
# SQLite loop inserting the same audit records with the same pragmas.
#
#   bench/batch_throughput.sh [N]        (default 10000; needs a built ./countersign)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-10000}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

cc -O2 -o "$work/bare_insert" "$here/bare_insert.c" -lsqlite3

jq -c --argjson n "$N" 'range(0; $n) as $i
	| .proposed_action.action_id = "b-\($i)"
	| .reviewer_verdict.action_id = "b-\($i)"' "$EX/packet-trade-pass.json" >"$work/packets.jsonl"
jq -nc --argjson n "$N" 'range(0; $n) | {action_id: "b-\(.)", decision: "approve", reason: "benchmark"}' >"$work/decisions.jsonl"

seconds() { # command... ; prints elapsed seconds
	start=$(date +%s.%N)
	"$@" >/dev/null
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}

printf '%-18s %8s %10s %10s %12s %7s\n' mode decisions "ours s" "ours /s" "floor /s" ratio
for mode in durable atomic; do
	db=$work/$mode.db
	"$CS" --db "$db" import "$EX/security_map.json" "$EX/ips.json" "$EX/holdings.json" "$work/packets.jsonl" >/dev/null
	if [ $mode = durable ]; then flag=""; bare=each; else flag=--atomic; bare=one; fi
	# shellcheck disable=SC2086
	ours=$(seconds "$CS" --db "$db" batch $flag "$work/decisions.jsonl")
	sqlite3 "$db" "SELECT record_json FROM audit_log WHERE json_extract(record_json, '\$.event') = 'decision' ORDER BY seq" >"$work/records.txt"
	floor=$(seconds "$work/bare_insert" "$work/bare-$mode.db" "$work/records.txt" $bare)
	awk -v m="batch $mode" -v n="$N" -v o="$ours" -v f="$floor" 'BEGIN {
		printf "%-18s %8d %10.2f %10.0f %12.0f %7.2f\n", m, n, o, n / o, n / f, o / f }'
done
