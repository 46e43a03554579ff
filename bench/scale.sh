#!/bin/sh
# Is a check flat in what bench/run holds constant?  bench/run's packets
# name one user, one ticker and a portfolio of four positions; here the
# same number of actions name 5,000 tickers, cycle through 50 users, or
# hold 300 positions, and each check is timed beside the plain queue's.
# A ratio far above 1 is a cost that grows with that dimension
# (bench/README.md, "Beyond the benchmark's data").
#
#   bench/scale.sh [ACTIONS [RUNS]]   (default 20000 and 3; needs jq)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-20000} RUNS=${2:-3}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

# queue NAME FILTER: a database of N passing trades, FILTER applied to
# each packet ($i its number), beside the policy in $work/policy-NAME
queue() {
	jq -c --argjson n "$N" "range(0; \$n) as \$i
		| .proposed_action.action_id = \"a-\(\$i)\"
		| .reviewer_verdict.action_id = \"a-\(\$i)\" | $2" \
		"$EX/packet-trade-pass.json" >"$work/$1.jsonl"
	"$CS" --db "$work/$1.db" import "$work"/policy-"$1"-* >/dev/null
	"$CS" --db "$work/$1.db" import "$work/$1.jsonl" >/dev/null
}
policy() { # NAME: the examples' policy
	cp "$EX/security_map.json" "$work/policy-$1-1.json"
	cp "$EX/ips.json" "$work/policy-$1-2.json"
	cp "$EX/holdings.json" "$work/policy-$1-3.json"
}

echo "generating data..." >&2
policy plain
queue plain .
policy tickers
jq -c '.securities += ([range(0; 5000)] | map({key: "T\(.)",
	value: {sector: "Other", asset_class: "us_equity"}}) | from_entries)' \
	"$EX/security_map.json" >"$work/policy-tickers-1.json"
queue tickers '.proposed_action.ticker = "T\($i % 5000)"'
policy users
jq -c 'range(0; 50) as $u | .user_id = "u-\($u)" | .ips_id = "ips-\($u)"' \
	"$EX/ips.json" >"$work/policy-users-2.json"
jq -c 'range(0; 50) as $u | .user_id = "u-\($u)" | .snapshot_id = "h-\($u)"' \
	"$EX/holdings.json" >"$work/policy-users-3.json"
queue users '.proposed_action.user_id = "u-\($i % 50)"
	| .proposed_action.ips_version_referenced.ips_id = "ips-\($i % 50)"
	| .reviewer_verdict.ips_version_checked_against.ips_id = "ips-\($i % 50)"'
policy positions
jq -c '.securities += ([range(0; 300)] | map({key: "T\(.)",
	value: {sector: "Other", asset_class: "us_equity"}}) | from_entries)' \
	"$EX/security_map.json" >"$work/policy-positions-1.json"
jq -c '.positions = ([range(0; 300)] | map({ticker: "T\(.)", quantity: 1,
	market_value_usd: 1000})) + .positions' \
	"$EX/holdings.json" >"$work/policy-positions-3.json"
queue positions .

# median NAME: the median wall-clock seconds of RUNS checks of NAME's queue
median() {
	for r in $(seq "$RUNS"); do
		sync
		s=$(date +%s.%N)
		"$CS" --db "$work/$1.db" check >/dev/null || true
		e=$(date +%s.%N)
		awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }'
	done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

plain=$(median plain)
printf '%-34s %8s %6s\n' "check of $N actions" seconds ratio
printf '%-34s %8s %6s\n' "1 user, 1 ticker, 4 positions" "$plain" 1.00
for dimension in "tickers:5,000 tickers" "users:50 users, interleaved" \
    "positions:300 positions"; do
	name=${dimension%%:*}
	t=$(median "$name")
	printf '%-34s %8s %6s\n' "${dimension#*:}" "$t" \
	    "$(awk -v a="$t" -v b="$plain" 'BEGIN { printf "%.2f", a / b }')"
done
