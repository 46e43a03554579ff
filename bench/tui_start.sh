#!/bin/sh
# Time to the first screen of the review screens, and their peak memory,
# with N pending actions beside the same start with 100 (issue 4, 9).
#
#   bench/tui_start.sh [N]        (default 100000; needs ./countersign, tmux, jq)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-100000}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench-tui.XXXXXX")
sock="cs-bench-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || :; rm -rf "$work"' EXIT

# make_db NAME COUNT: policy plus COUNT passing trades, in files of 50,000.
make_db() {
	"$CS" --db "$work/$1.db" import "$EX/security_map.json" "$EX/ips.json" "$EX/holdings.json" >/dev/null
	jq -c --argjson n "$2" 'range(0; $n) as $i
		| .proposed_action.action_id = "t-\($i)" | .reviewer_verdict.action_id = "t-\($i)"' \
		"$EX/packet-trade-pass.json" | split -l 50000 - "$work/$1-part-"
	start=$(date +%s.%N)
	"$CS" --db "$work/$1.db" import "$work/$1"-part-* >/dev/null
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" -v n="$2" 'BEGIN { printf "import of %d (with the queue index): %.2f s\n", n, b - a }'
}

# first_screen NAME: seconds until the queue is on screen, and peak RSS.
first_screen() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	start=$(date +%s.%N)
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 "'$CS' --db '$work/$1.db'"
	until tmux -L "$sock" capture-pane -p 2>/dev/null | grep -q 'filter: all'; do sleep 0.005; done
	end=$(date +%s.%N)
	pid=$(tmux -L "$sock" list-panes -F '#{pane_pid}')
	rss=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status")
	tmux -L "$sock" kill-server
	awk -v a="$start" -v b="$end" -v r="$rss" 'BEGIN { printf "%.3f %d\n", b - a, r }'
}

make_db small 100
make_db big "$N"
printf '%-22s %10s %12s\n' "pending actions" "first screen s" "peak RSS KB"
for name in small big; do
	best=""; rss=0
	for run in 1 2 3 4 5; do
		set -- $(first_screen $name)
		if [ -z "$best" ] || awk -v a="$1" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$1; fi
		rss=$2
	done
	printf '%-22s %10s %12s\n' "$( [ $name = small ] && echo 100 || echo "$N")" "$best" "$rss"
done
