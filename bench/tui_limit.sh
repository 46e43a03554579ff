#!/bin/sh
# The queue's limit (l) and value order (S) over N pending actions, beside
# the same keys over 100 (issue 37): both read every pending packet once
# per change, so they grow with the queue where the index's orders do not.
# Seconds from the key to the first line that says it is done; best and
# median of RUNS runs.
#
#   bench/tui_limit.sh [N] [RUNS]  (default 10000 and 5; needs ./countersign,
#                                  tmux, jq)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-10000}
RUNS=${2:-5}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench-limit.XXXXXX")
sock="cs-bench-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || :; rm -rf "$work"' EXIT
LIMIT="ticker:XOM value>1000"

# make_db NAME COUNT: policy plus COUNT trades, a tenth of them XOM, with
# values spread from $100 to $99,900 so that the value order moves rows.
make_db() {
	"$CS" --db "$work/$1.db" import "$EX/security_map.json" "$EX/ips.json" \
	    "$EX/holdings.json" >/dev/null 2>&1
	jq -c --argjson n "$2" 'range(0; $n) as $i
		| .proposed_action.action_id = "t-\($i)"
		| .reviewer_verdict.action_id = "t-\($i)"
		| .proposed_action.estimated_value_usd = (100 + ($i * 7919) % 998 * 100)
		| if $i % 10 == 0 then .proposed_action.ticker = "XOM"
		  | .proposed_action.quantity = 10 else . end' \
	    "$EX/packet-trade-pass.json" >"$work/$1.jsonl"
	"$CS" --db "$work/$1.db" import "$work/$1.jsonl" >/dev/null 2>&1
}

screen() { tmux -L "$sock" capture-pane -p 2>/dev/null; }
keys() { tmux -L "$sock" send-keys "$@"; }
# until_shown TEXT: polls the screen every 5 ms, 60 s at most.
until_shown() {
	i=0
	until screen | grep -qF -- "$1"; do
		i=$((i + 1))
		[ $i -lt 12000 ] || { echo "never shown: $1" >&2; exit 1; }
		sleep 0.005
	done
}
# until_gone TEXT: polls until the screen no longer shows TEXT.
until_gone() {
	i=0
	while screen | grep -qF -- "$1"; do
		i=$((i + 1))
		[ $i -lt 12000 ] || { echo "never gone: $1" >&2; exit 1; }
		sleep 0.005
	done
}
# timed shown|gone TEXT KEYS...: seconds from sending KEYS until TEXT
# shows, or is gone.
timed() {
	how=$1 text=$2
	shift 2
	start=$(date +%s.%N)
	keys "$@"
	"until_$how" "$text"
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}
# best_median FILE: "best median" of the numbers in FILE.
best_median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s %.3f\n", v[1], m }'
}

# measure NAME COUNT: one line of the table.
measure() {
	shown=$("$CS" --db "$work/$1.db" list --json --filter "$LIMIT" 2>/dev/null | wc -l)
	: >"$work/limit" ; : >"$work/clear"; : >"$work/sort"; : >"$work/list"
	run=0
	while [ $run -lt "$RUNS" ]; do
		# The same scan, by the command line: list --filter.
		start=$(date +%s.%N)
		"$CS" --db "$work/$1.db" list --filter "$LIMIT" >/dev/null 2>&1
		end=$(date +%s.%N)
		awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' \
		    >>"$work/list"
		run=$((run + 1))
	done
	tmux -L "$sock" kill-server 2>/dev/null || true
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
	    "env COUNTERSIGN_DATA_DIR='$top/data' '$CS' --db '$work/$1.db'"
	until_shown "filter: all"
	run=0
	while [ $run -lt "$RUNS" ]; do
		timed shown "$shown of $2 shown · limit: $LIMIT" l "$LIMIT" \
		    Enter >>"$work/limit"
		# The limit cleared: the index's pages again.
		timed gone "limit: " l C-u Enter >>"$work/clear"
		timed shown "sort: value, largest first" S >>"$work/sort"
		# s goes back to the index's first order, read a page at a time.
		keys s
		until_shown "sort: most care first"
		run=$((run + 1))
	done
	tmux -L "$sock" kill-server
	printf '%-8s %6s %-14s %-14s %-14s %-14s\n' "$2" "$shown" \
	    "$(best_median "$work/limit")" "$(best_median "$work/clear")" \
	    "$(best_median "$work/sort")" "$(best_median "$work/list")"
}

make_db small 100
make_db big "$N"
echo "seconds from the key to the screen that shows it done, best and median"
echo "of $RUNS; l sets the limit $LIMIT, then clears it"
printf '%-8s %6s %-14s %-14s %-14s %-14s\n' pending shown "l (limit)" \
    "l (cleared)" "S (value)" "list --filter"
measure small 100
measure big "$N"
