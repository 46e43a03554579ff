#!/bin/sh
# Programs as clients (issue 31), in one run (numbers in bench/README.md):
# 1. Load: two services on copies of one SQLite store, one idle, one
#    holding W waits (over 4 connections) and F live events feeds that
#    read every record.  N decisions on each (a one-line batch through
#    --connect), alternating idle and loaded so that the machine's own
#    load falls on both alike; medians.  Targets: loaded <= 1.2x idle;
#    the loaded service's child processes no more than when idle; its
#    RSS grows by less than 32 MiB.  The contract's 100 feeds need
#    several accounts (16 connections each): as root the bench makes
#    throw-away readers cs-bench-r0.. (15 feeds each) and removes them;
#    as anyone else F is at most 11 (4 connections wait, one decides).
# 2. Wake: M waits each, woken by a decision through the same service, by
#    a local-mode batch on its SQLite file, and (with PostgreSQL server
#    binaries) by a decision through a second service on the same
#    PostgreSQL database.  Target: every one within 1 s of the decision
#    (its decided_at, taken before the commit, to the answer).
#
#   bench/programs.sh [N] [W] [F] [M]   (default 60, 1000, 100 and 10;
#                     needs a built ./countersign, jq, socat, python3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-60} W=${2:-1000} F=${3:-100} M=${4:-10}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3	# one every account runs
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench.XXXXXX")
work=$WORK
chmod 755 "$work"
PIDS= USERS= GROUP=cs-bench-readers PG=
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null || true; done
	[ -z "$PG" ] || pg_stop
	for u in $USERS; do userdel "$u" 2>/dev/null || true; done
	[ -z "$USERS" ] || groupdel "$GROUP" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
FAILS=0
verdict() { # WHAT OK(0/1)
	if [ "$2" -eq 0 ]; then echo "  pass: $1"; else echo "  FAIL: $1"; FAILS=$((FAILS + 1)); fi
}
now() { date +%s.%N; }
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.5f\n", v[int((NR + 1) / 2)] }'; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
children() { ps -o pid= --ppid "$1" | wc -l; }
load1() { cut -d' ' -f1 /proc/loadavg; }
# until_line FILE PATTERN: waits (at most 120 s) for a line in FILE.
until_line() {
	i=0
	until grep -q "$2" "$1" 2>/dev/null || [ $i -ge 2400 ]; do sleep 0.05; i=$((i + 1)); done
	grep -q "$2" "$1" || { echo "bench: no '$2' in $1:"; cat "$1"; exit 1; }
}
# serve SOCKET DB [OPTIONS...]: a service, waited for; its pid in $!.
serve() {
	s=$1 d=$2
	shift 2
	"$CS" serve --socket "$s" --db "$d" --officers "$(id -gn)" "$@" 2>>"$work/serve.log" &
	SERVED=$!
	PIDS="$PIDS $SERVED"
	i=0
	until socat -u OPEN:/dev/null "UNIX-CONNECT:$s" 2>/dev/null || [ $i -ge 600 ]; do
		sleep 0.05; i=$((i + 1)); done
}
load_py() { "$PY" - "$@" <"$here/programs_load.py"; }
echo "bench/programs.sh: $(nproc) cores, load average $(load1) at the start"

# Actions: d-* decided in part 1, w-* waited on and never decided, k-* woken.
packets() {
	jq -c --argjson n "$N" --argjson w "$W" --argjson m "$M" '
	((range(0; 2 * $n) | "d-\(.)"), (range(0; $w) | "w-\(.)"),
	 (range(0; 3 * $m) | "k-\(.)")) as $id
	| .proposed_action.action_id = $id | .reviewer_verdict.action_id = $id' \
	"$EX/packet-trade-pass.json"
}
packets >"$work/packets.jsonl"
"$CS" --db "$work/idle.db" import "$EX/security_map.json" "$EX/ips.json" \
	"$EX/holdings.json" "$work/packets.jsonl" >/dev/null 2>&1
cp "$work/idle.db" "$work/loaded.db"

### 1. Load.
load_start=$(load1)
readers=
if [ "$(id -u)" -eq 0 ]; then
	groupadd -f "$GROUP"
	a=0
	while [ $((a * 15)) -lt "$F" ]; do
		u=cs-bench-r$a
		id "$u" >/dev/null 2>&1 || useradd -M -N -g "$GROUP" -s /usr/sbin/nologin "$u"
		USERS="$USERS $u"
		a=$((a + 1))
	done
	readers="--readers $GROUP"
elif [ "$F" -gt 11 ]; then
	echo "bench: not root, so one account: 11 feeds, not $F"
	F=11
fi
serve "$work/idle" "$work/idle.db"
IDLE=$SERVED
# shellcheck disable=SC2086
serve "$work/loaded" "$work/loaded.db" $readers
LOADED=$SERVED
# A first request opens each service's own store connection.
"$CS" --connect "$work/idle" list >/dev/null 2>&1
"$CS" --connect "$work/loaded" list >/dev/null 2>&1
rss_before=$(rss "$LOADED") kids_before=$(children "$LOADED")

# The feeds start at the head, so that they are live from the first.
head=$("$CS" --connect "$work/loaded" events | tail -n 1 | jq .seq)
load_py waits "$work/loaded" "$W" >"$work/waits.out" 2>&1 &
PIDS="$PIDS $!"
left=$F a=0
for u in ${USERS:-self}; do
	n=$((left < 15 ? left : 15))
	[ "$n" -gt 0 ] || break
	if [ "$u" = self ]; then
		load_py feeds "$work/loaded" "$n" "$head" "$work/target" >"$work/feeds.$a" 2>&1 &
	else
		setpriv --reuid="$u" --regid="$GROUP" --init-groups \
			"$PY" - feeds "$work/loaded" "$n" "$head" "$work/target" \
			<"$here/programs_load.py" >"$work/feeds.$a" 2>&1 &
	fi
	PIDS="$PIDS $!"
	left=$((left - n)) a=$((a + 1))
done
until_line "$work/waits.out" ready
for f in "$work"/feeds.*; do until_line "$f" ready; done
rss_ready=$(rss "$LOADED")

# decide SOCKET ID OUT: one decision through the service, seconds to OUT.
decide() {
	echo "{\"action_id\": \"$2\", \"decision\": \"approve\"}" >"$work/line"
	s=$(now)
	"$CS" --connect "$1" batch "$work/line" >"$work/decided" 2>&1
	e=$(now)
	grep -q '"recorded"' "$work/decided" || { echo "bench: $2 not recorded:"; cat "$work/decided"; exit 1; }
	awk -v a="$s" -v b="$e" 'BEGIN { printf "%.5f\n", b - a }' >>"$3"
}
: >"$work/t.idle"; : >"$work/t.loaded"; : >"$work/kids"
i=0
while [ "$i" -lt "$N" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		decide "$work/idle" "d-$i" "$work/t.idle"
		decide "$work/loaded" "d-$i" "$work/t.loaded"
	else
		decide "$work/loaded" "d-$i" "$work/t.loaded"
		decide "$work/idle" "d-$i" "$work/t.idle"
	fi
	children "$LOADED" >>"$work/kids"
	i=$((i + 1))
done
rss_loaded=$(rss "$LOADED") kids_loaded=$(sort -n "$work/kids" | tail -n 1)
# Every feed got every record, live.
"$CS" --connect "$work/loaded" events | tail -n 1 | jq .seq >"$work/target.new"
mv "$work/target.new" "$work/target"
for f in "$work"/feeds.*; do until_line "$f" '^done'; done
fed_min=$(cat "$work"/feeds.* | awk '/^done/ { print $2 }' | sort -n | head -n 1)
load_end=$(load1)

ti=$(median "$work/t.idle") tl=$(median "$work/t.loaded")
ratio=$(awk -v a="$ti" -v b="$tl" 'BEGIN { printf "%.2f", b / a }')
echo "1. $W waits (4 connections) and $F feeds ($(echo $USERS | wc -w) reader accounts), $N decisions each way, alternating:"
printf '  %-40s %9s %9s %6s\n' "" idle loaded ratio
printf '  %-40s %9s %9s %6s\n' "one decision a command (median, s)" "$ti" "$tl" "$ratio"
verdict "decision loaded/idle $ratio <= 1.20" "$(awk -v r="$ratio" 'BEGIN { print (r <= 1.2) ? 0 : 1 }')"
echo "  service RSS: $rss_before KiB before, $rss_ready KiB loaded, $rss_loaded KiB after the decisions"
verdict "RSS grows by $(( (rss_loaded - rss_before) / 1024 )) MiB < 32 MiB" \
	"$([ $((rss_loaded - rss_before)) -lt 32768 ] && echo 0 || echo 1)"
verdict "children: $kids_before before, at most $kids_loaded after each decision under load" \
	"$([ "$kids_loaded" -le "$kids_before" ] && echo 0 || echo 1)"
verdict "each of the $F feeds got all $N decisions live (fewest: $fed_min records)" \
	"$([ "${fed_min:-0}" -ge "$N" ] && echo 0 || echo 1)"
echo "  load average (1 min): $load_start as part 1 began, $load_end as it ended"
# The load and its service go; the idle one stays for part 2.
for p in $PIDS; do [ "$p" = "$IDLE" ] || kill "$p" 2>/dev/null || true; done
PIDS=$IDLE

### 2. Wake: M waits each way, the decision's decided_at to the answer.
# wake_one WAIT_SOCKET ID DECIDE...: one wait on ID, the decision made
# by the command DECIDE (a one-line batch on stdin), its ms to $work/wake.
wake_one() {
	ws=$1 id=$2
	shift 2
	# A file of its own: another's "ready" is not this one's.
	load_py wake "$ws" "$id" >"$work/wake.$id" 2>&1 &
	wp=$!
	until_line "$work/wake.$id" ready
	echo "{\"action_id\": \"$id\", \"decision\": \"approve\"}" | "$@" >/dev/null 2>&1
	wait "$wp" || true
	awk '$1 == "approved" { print $2; found = 1 } END { if (!found) print "never" }' \
		"$work/wake.$id" >>"$work/wake"
	grep -q '^approved' "$work/wake.$id" || cat "$work/wake.$id"
}
wake_row() { # WHAT
	max=$(sort -g "$work/wake" | tail -n 1) med=$(median "$work/wake")
	printf '  %-52s median %7.1f ms, max %7s ms\n' "$1" "$med" "$max"
	verdict "$1: all $M within 1 s" \
		"$(awk '$1 == "never" || $1 > 1000 { bad = 1 } END { print bad + 0 }' "$work/wake")"
}
echo "2. Wakes, $M each (decided_at to the wait's answer):"
: >"$work/wake"; j=0
while [ $j -lt "$M" ]; do wake_one "$work/idle" "k-$j" "$CS" --connect "$work/idle" batch; j=$((j + 1)); done
wake_row "through the same service (SQLite)"
: >"$work/wake"
while [ $j -lt $((2 * M)) ]; do wake_one "$work/idle" "k-$j" "$CS" --db "$work/idle.db" batch; j=$((j + 1)); done
wake_row "a local-mode batch on its SQLite file"
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	. "$top/tests/e2e/pg_lib.sh"
	trap cleanup EXIT	# pg_lib.sh's own trap, and ours
	PG=yes
	pg_start
	uri=$(pg_createdb bench_programs)
	"$CS" --db "$uri" import "$EX/security_map.json" "$EX/ips.json" \
		"$EX/holdings.json" "$work/packets.jsonl" >/dev/null 2>&1
	serve "$work/p1" "$uri"
	serve "$work/p2" "$uri"
	"$CS" --connect "$work/p1" list >/dev/null 2>&1
	: >"$work/wake"
	while [ $j -lt $((3 * M)) ]; do wake_one "$work/p1" "k-$j" "$CS" --connect "$work/p2" batch; j=$((j + 1)); done
	wake_row "through a second service on the same PostgreSQL"
else
	echo "  (no PostgreSQL server binaries: the second-service path not measured)"
fi
echo "load average $(load1) at the end"
[ "$FAILS" -eq 0 ]
