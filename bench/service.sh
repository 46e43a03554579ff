#!/bin/sh
# Service mode against local mode, in the same run (issue 19):
# - one durable decision per command (a one-line batch), local vs through
#   the service, interleaved, median of N each; target: service <= 1.2x;
# - a durable batch of M decisions, per decision, local vs service;
# - the service's RSS idle, with 100 idle connections, and after they
#   close; target: flat (grows by less than 1 MiB).
#
#   bench/service.sh [N] [M]     (default 100 and 2000; needs a built
#                                 ./countersign, jq, socat, perl)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-100} M=${2:-2000}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench.XXXXXX")
SERVICE_PID=
cleanup() {
	[ -z "$SERVICE_PID" ] || kill "$SERVICE_PID" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
sock=$work/sock

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.5f\n", b - a }'; }
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.5f\n", v[int((NR + 1) / 2)] }'; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVICE_PID/status"; }

# Two stores with the same actions: one local, one the service's.
total=$((N + M))
jq -c --argjson n "$total" 'range(0; $n) as $i
	| .proposed_action.action_id = "v-\($i)"
	| .reviewer_verdict.action_id = "v-\($i)"' "$EX/packet-trade-pass.json" >"$work/packets.jsonl"
for db in local served; do
	"$CS" --db "$work/$db.db" import "$EX/security_map.json" "$EX/ips.json" \
		"$EX/holdings.json" "$work/packets.jsonl" >/dev/null
done
"$CS" serve --socket "$sock" --db "$work/served.db" --officers "$(id -gn)" 2>/dev/null &
SERVICE_PID=$!
i=0
until socat -u OPEN:/dev/null "UNIX-CONNECT:$sock" 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.05; i=$((i + 1)); done

# One decision per command, interleaved so both see the same machine.
: >"$work/one-local"; : >"$work/one-served"
i=0
while [ $i -lt "$N" ]; do
	echo "{\"action_id\": \"v-$i\", \"decision\": \"approve\"}" >"$work/line"
	s=$(now); "$CS" --db "$work/local.db" batch "$work/line" >/dev/null; e=$(now)
	elapsed "$s" "$e" >>"$work/one-local"
	s=$(now); "$CS" --connect "$sock" batch "$work/line" >/dev/null; e=$(now)
	elapsed "$s" "$e" >>"$work/one-served"
	i=$((i + 1))
done
jq -nc --argjson a "$N" --argjson b "$total" \
	'range($a; $b) | {action_id: "v-\(.)", decision: "approve"}' >"$work/many"
s=$(now); "$CS" --db "$work/local.db" batch "$work/many" >/dev/null; e=$(now)
many_local=$(elapsed "$s" "$e")
s=$(now); "$CS" --connect "$sock" batch "$work/many" >/dev/null; e=$(now)
many_served=$(elapsed "$s" "$e")

printf '%-34s %12s %12s %7s %7s\n' job "local s" "service s" ratio target
awk -v l="$(median "$work/one-local")" -v s="$(median "$work/one-served")" -v n="$N" 'BEGIN {
	r = s / l; printf "%-34s %12.5f %12.5f %7.2f %7s %s\n", "one decision a command (median " n ")",
	    l, s, r, "1.20", r <= 1.2 ? "pass" : "FAIL" }'
awk -v l="$many_local" -v s="$many_served" -v m="$M" 'BEGIN {
	r = s / l; printf "%-34s %12.6f %12.6f %7.2f %7s %s\n", "a batch of " m ", per decision",
	    l / m, s / m, r, "1.20", r <= 1.2 ? "pass" : "FAIL" }'

# RSS: idle, with 100 idle connections, after they close.
idle=$(rss)
# One process holds the 100 connections (perl-base has IO::Socket::UNIX).
perl -MIO::Socket::UNIX -e '
	my @c = map { IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!" } 1 .. 100;
	open(my $f, ">", $ARGV[1]); close($f); sleep 30' "$sock" "$work/held" &
HOLDER=$!
i=0
until [ -e "$work/held" ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.5
held=$(rss)
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null || true
sleep 0.5
after=$(rss)
awk -v a="$idle" -v b="$held" -v c="$after" 'BEGIN {
	printf "service RSS: idle %d KiB, 100 idle connections %d KiB, after %d KiB: %s\n",
	    a, b, c, (b - a < 1024 && c - a < 1024) ? "flat (pass)" : "grows (FAIL)" }'
