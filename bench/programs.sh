#!/bin/sh
# Programs as clients (issue 31), in one run on one service:
# - one durable decision per command (a one-line batch through the
#   service), median of N, first on the idle service, then while it holds
#   W waits (over 4 connections) and F events feeds (each on its own
#   connection, all live); target: loaded <= 1.2x idle;
# - the service's child processes and RSS idle and under that load;
#   targets: no more children, RSS grows by less than 32 MiB.
# The contract's 100 feeds need several accounts (16 connections each):
# as one account this runs 1,000 waits and 11 feeds (F at most 11,
# leaving one connection for the decisions).
#
#   bench/programs.sh [N] [W] [F]   (default 40, 1000 and 11; needs a
#                                    built ./countersign, jq, socat, python3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-40} W=${2:-1000} F=${3:-11}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench.XXXXXX")
SERVICE_PID= LOAD=
cleanup() {
	[ -z "$LOAD" ] || kill "$LOAD" 2>/dev/null || true
	[ -z "$SERVICE_PID" ] || kill "$SERVICE_PID" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
sock=$work/sock

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.5f\n", b - a }'; }
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.5f\n", v[int((NR + 1) / 2)] }'; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVICE_PID/status"; }
children() { ps -o pid= --ppid "$SERVICE_PID" | wc -l; }

# Actions to decide (d-*) and to wait on (w-*, never decided here).
jq -c --argjson n "$((2 * N))" --argjson w "$W" '
	((range(0; $n) | "d-\(.)"), (range(0; $w) | "w-\(.)")) as $id
	| .proposed_action.action_id = $id | .reviewer_verdict.action_id = $id' \
	"$EX/packet-trade-pass.json" >"$work/packets.jsonl"
"$CS" --db "$work/db" import "$EX/security_map.json" "$EX/ips.json" \
	"$EX/holdings.json" "$work/packets.jsonl" >/dev/null 2>&1
"$CS" serve --socket "$sock" --db "$work/db" --officers "$(id -gn)" 2>/dev/null &
SERVICE_PID=$!
i=0
until socat -u OPEN:/dev/null "UNIX-CONNECT:$sock" 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.05; i=$((i + 1)); done

# decide FROM TO OUT: one-line batches d-FROM .. d-(TO-1), times to OUT.
decide() {
	: >"$3"
	i=$1
	while [ "$i" -lt "$2" ]; do
		echo "{\"action_id\": \"d-$i\", \"decision\": \"approve\"}" >"$work/line"
		s=$(now); "$CS" --connect "$sock" batch "$work/line" >/dev/null 2>&1; e=$(now)
		elapsed "$s" "$e" >>"$3"
		i=$((i + 1))
	done
}

# A first request opens the loop's own store connection, then idle.
"$CS" --connect "$sock" list >/dev/null 2>&1
decide 0 "$N" "$work/idle"
rss_idle=$(rss) kids_idle=$(children)

# The load: W waits over 4 connections, F live feeds, all registered
# (a status behind them on each connection is answered) before "ready".
python3 - "$sock" "$W" "$F" "$work/ready" 2>"$work/load.err" <<'PY' &
import json, socket, sys, time
path, waits, feeds, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
conns = []
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    conns.append(s)
    return s
def send(s, i, method, params):
    s.sendall(json.dumps({"jsonrpc": "2.0", "id": i, "method": method,
                          "params": params}).encode() + b"\n")
for c in range(4):
    s = conn()
    for k in range(c, waits, 4):
        send(s, k, "wait", {"action_id": "w-%d" % k, "timeout_ms": 3600000})
    send(s, -1, "status", {"action_id": "w-0"})
for f in range(feeds):
    send(conn(), 1, "events", {"after_seq": 10 ** 9})
readers = [s.makefile("rb") for s in conns]
for r in readers[:4]:
    while json.loads(r.readline()).get("id") != -1:
        pass
for r in readers[4:]:
    r.readline()
open(ready, "w").close()
time.sleep(3600)
PY
LOAD=$!
i=0
until [ -e "$work/ready" ] || [ $i -ge 600 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "$work/ready" ] || { cat "$work/load.err"; echo "the load did not start"; exit 1; }
decide "$N" "$((2 * N))" "$work/loaded"
rss_loaded=$(rss) kids_loaded=$(children)

printf '%-44s %10s %10s %6s %s\n' job idle loaded ratio target
awk -v a="$(median "$work/idle")" -v b="$(median "$work/loaded")" -v n="$N" \
    -v w="$W" -v f="$F" 'BEGIN { r = b / a
	printf "%-44s %10.5f %10.5f %6.2f %s\n", "one decision a command (median " n ")", a, b, r,
	    r <= 1.2 ? "1.20 pass" : "1.20 FAIL" }'
awk -v a="$rss_idle" -v b="$rss_loaded" -v w="$W" -v f="$F" 'BEGIN {
	printf "service RSS: idle %d KiB, %d waits + %d feeds %d KiB: %s\n", a, w, f, b,
	    b - a < 32768 ? "grows < 32 MiB (pass)" : "grows >= 32 MiB (FAIL)" }'
echo "service children: idle $kids_idle, loaded $kids_loaded:" \
	"$([ "$kids_loaded" -le "$kids_idle" ] && echo 'no more (pass)' || echo 'more (FAIL)')"
