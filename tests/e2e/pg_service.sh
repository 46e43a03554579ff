#!/bin/sh
# SPEC v2 10 (issues 19 and 20): two services, each on its own socket, as
# two hosts would run them, on one PostgreSQL database.  Eight officers'
# clients, four through each, approve the same actions in different
# orders: each action is decided once, the log is one unbroken chain, and
# either service verifies it.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }

. "$TOP_SRCDIR/tests/e2e/pg_lib.sh"

MYGROUP=$(id -gn)
PIDS=
trap 'for pid in $PIDS; do kill -KILL "$pid" 2>/dev/null; done; pg_stop; rm -rf "$WORK"' EXIT

# serve NAME: a service on $WORK/NAME.sock over $DB, waited for.
serve() {
	"$COUNTERSIGN" serve --db "$DB" --socket "$WORK/$1.sock" \
		--officers "$MYGROUP" --importers "$MYGROUP" \
		--checkpoint-file "$WORK/$1.checkpoints" 2>>"$WORK/$1.log" &
	PIDS="$PIDS $!"
	wait_for_socket "$WORK/$1.sock" "$WORK/$1.log"
}
remote() { sock=$1; shift; "$COUNTERSIGN" --connect "$WORK/$sock.sock" "$@"; }
q() { pg_psql services -At -c "$1"; }

pg_start
DB=$(pg_createdb services)
N=60
import_passing_trades s "$N"
serve a
serve b

approvals s "$N" >"$WORK/d0"
for p in 1 2 3 4 5 6 7; do
	# each client in its own order, so that they collide
	awk -v p=$p 'NR % 8 >= p' "$WORK/d0" >"$WORK/d$p"
	awk -v p=$p 'NR % 8 < p' "$WORK/d0" >>"$WORK/d$p"
done
CLIENTS=
for p in 0 1 2 3 4 5 6 7; do
	if [ $((p % 2)) -eq 0 ]; then sock=a; else sock=b; fi
	# One request per decision: a batch's lines at hand share one commit
	# (SPEC 8), so a whole file would be one transaction.
	while read -r line; do
		echo "$line" | remote $sock batch || true
	done <"$WORK/d$p" >"$WORK/out$p" 2>"$WORK/err$p" &
	CLIENTS="$CLIENTS $!"
done
# shellcheck disable=SC2086
wait $CLIENTS || true

cat "$WORK"/out? >"$WORK/all"
expect_eq "every request answered" "$(wc -l <"$WORK/all")" $((8 * N))
expect_eq "each action recorded exactly once" \
	"$(jq -r 'select(.status == "recorded") | .action_id' "$WORK/all" | sort | uniq -c | awk '$1 != 1' | wc -l) $(jq -r 'select(.status == "recorded") | .action_id' "$WORK/all" | sort -u | wc -l)" "0 $N"
expect_eq "every other answer is already_decided" \
	"$(jq -r 'select(.status == "refused") | .code' "$WORK/all" | sort -u)" already_decided
for s in a b; do
	n=0
	for p in 0 1 2 3 4 5 6 7; do
		if [ $((p % 2)) -eq 0 ]; then [ $s = a ] || continue; else [ $s = b ] || continue; fi
		n=$((n + $(grep -c '"recorded"' "$WORK/out$p" || true)))
	done
	# Both services decided: the lock is taken per decision, not per service.
	if [ "$n" -gt 0 ]; then pass "service $s recorded decisions ($n)"; else fail "service $s recorded none"; fi
done
expect_eq "no client reported an error" "$(stderr_but_sink "$WORK"/err? | wc -c)" 0
expect_eq "one decision row per action" "$(q 'SELECT count(*), count(DISTINCT action_id) FROM decision')" "$N|$N"
expect_eq "one decision record per action" \
	"$(q "SELECT count(*) FROM audit_log WHERE json_extract(record_json, '\$.event') = 'decision'")" "$N"
expect_eq "one unbroken run of seq" "$(q 'SELECT count(*) = max(seq) FROM audit_log')" t
expect_eq "each record links to the one before" \
	"$(q 'SELECT count(*) FROM audit_log l JOIN audit_log p ON p.seq = l.seq - 1 WHERE l.prev_hash <> p.hash')" 0
expect_status "the chain verifies through service a" 0 remote a audit verify
expect_status "the chain verifies through service b" 0 remote b audit verify
expect_status "and locally" 0 cs audit verify
# Each service's checkpoint file names heads of the one chain.
for s in a b; do
	last=$(tail -n 1 "$WORK/$s.checkpoints" | awk '{ print $1 ":" $2 }')
	if [ -n "$last" ]; then
		expect_status "service $s's last checkpoint is on the chain" 0 cs audit verify --checkpoint "$last"
	else
		fail "service $s wrote no checkpoint"
	fi
done
expect_eq "both services still run" \
	"$(for pid in $PIDS; do kill -0 "$pid" 2>/dev/null && echo up; done | wc -l)" 2

for pid in $PIDS; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
PIDS=
finish
