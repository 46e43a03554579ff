#!/bin/sh
# An officer's list through the service while the exhaustion attacks of
# issue 35 (point 2) run: median and slowest of N lists, before, during
# each attack, and the service's peak RSS then; target: every list within
# 1 s, RSS under 64 MiB.  Root only (it makes throw-away accounts, as
# tests/service_host.sh does, which asserts the limits themselves).
#
#   bench/service_attack.sh [N]     (default 20; needs a built
#                                    ./countersign, python3, jq)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
N=${1:-20}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
ATTACK=$top/tests/service_attack.py
[ "$(id -u)" -eq 0 ] || { echo "service_attack.sh: needs root (it creates accounts)"; exit 77; }
OFFICERS=csb-officers IMPORTERS=csb-importers READERS=csb-readers SVC=csb-svc
READING="csb-r1 csb-r2 csb-r3 csb-r4 csb-r5 csb-r6 csb-r7 csb-r8"
IMPORTING="csb-i1 csb-i2 csb-i3 csb-i4"
dir=$(mktemp -d /tmp/cs-bench-attack.XXXXXX)
chmod 755 "$dir"
SOCK=$dir/run/sock SERVICE_PID=
cleanup() {
	[ -z "$SERVICE_PID" ] || kill -KILL "$SERVICE_PID" 2>/dev/null || true
	touch "$dir/stop-ids" "$dir/stop-uploads" "$dir/stop-hold" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$dir"
	for u in csb-officer $READING $IMPORTING "$SVC"; do userdel "$u" 2>/dev/null || true; done
	for g in "$OFFICERS" "$IMPORTERS" "$READERS" "$SVC"; do groupdel "$g" 2>/dev/null || true; done
}
trap cleanup EXIT
for g in "$OFFICERS" "$IMPORTERS" "$READERS"; do groupadd -f "$g"; done
id "$SVC" >/dev/null 2>&1 || useradd -r -M -U -s /usr/sbin/nologin "$SVC"
for u in csb-officer $READING $IMPORTING; do id "$u" >/dev/null 2>&1 || useradd -M -U -s /bin/sh "$u"; done
usermod -a -G "$OFFICERS" csb-officer
for u in $READING; do usermod -a -G "$READERS" "$u"; done
for u in $IMPORTING; do usermod -a -G "$IMPORTERS" "$u"; done
p=$(dirname "$CS")
while [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done
mkdir -m 700 "$dir/state"
mkdir -m 755 "$dir/run"
mkdir -m 1777 "$dir/attack"
chown "$SVC:$SVC" "$dir/state" "$dir/run"
# A queue of 1,000 pending actions, for a list that does some work.
jq -c 'range(0; 1000) as $i | .proposed_action.action_id = "b-\($i)"
	| .reviewer_verdict.action_id = "b-\($i)"' "$EX/packet-trade-pass.json" >"$dir/packets.jsonl"
runuser -u "$SVC" -- "$CS" --db "$dir/state/db" import "$EX/security_map.json" "$EX/ips.json" \
	"$EX/holdings.json" "$dir/packets.jsonl" >/dev/null 2>&1
setpriv --reuid="$SVC" --regid="$SVC" --init-groups "$CS" serve --socket "$SOCK" --db "$dir/state/db" \
	--officers "$OFFICERS" --importers "$IMPORTERS" --readers "$READERS" --spool-limit 8 2>/dev/null &
SERVICE_PID=$!
i=0
until [ -S "$SOCK" ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done

now() { date +%s.%N; }
peak=0
# lists WHAT: N lists as the officer, one after another; median and max.
lists() {
	: >"$dir/times"
	for _ in $(seq "$N"); do
		a=$(now)
		runuser -u csb-officer -- "$CS" --connect "$SOCK" list >/dev/null 2>&1 || echo "list failed"
		b=$(now)
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f\n", b - a }' >>"$dir/times"
		r=$(awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$SERVICE_PID/status")
		[ "$r" -le "$peak" ] || peak=$r
	done
	sort -g "$dir/times" | awk -v what="$1" -v peak="$peak" '{ v[NR] = $1 }
		END { printf "| %s | %.3f s | %.3f s | %d MiB |\n", what, v[int((NR + 1) / 2)], v[NR], peak }'
}
ready() { i=0; until [ -s "$1" ] || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done; }
attack() { # attack USER MODE NAME ARGS...
	u=$1 mode=$2 name=$3
	shift 3
	runuser -u "$u" -- python3 "$ATTACK" "$mode" "$SOCK" "$dir/attack/$name" "$dir/stop-$mode" "$@" \
		>/dev/null 2>&1 &
}

echo "| officer's list, $N runs | median | slowest | service's peak RSS |"
echo "|---|---|---|---|"
lists "no attack"
attack csb-r1 ids ids
ready "$dir/attack/ids"
lists "1 MB ids and unread answers, 16 connections"
touch "$dir/stop-ids"
for u in $IMPORTING; do attack "$u" uploads "up-$u" 8 2048; done
for u in $IMPORTING; do ready "$dir/attack/up-$u"; done
lists "idle uploads, 4 importers x 8 connections"
touch "$dir/stop-uploads"
for u in $READING; do attack "$u" hold "hold-$u" 16; done
for u in $READING; do ready "$dir/attack/hold-$u"; done
lists "8 readers x 16 idle connections"
touch "$dir/stop-hold"
wait_for_helpers=$(jobs -p | grep -v "^$SERVICE_PID\$" || true)
for p in $wait_for_helpers; do wait "$p" 2>/dev/null || true; done
