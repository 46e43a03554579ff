#!/bin/sh
# SPEC 12 (issue 31): programs as clients.  submit and status, waits woken
# by any writer of the store, the events feed resumed across a killed
# service, the reader role and no role, the status, wait and events
# commands locally and through --connect, the Python module and the
# example orchestrator, all against a real service.  On SQLite and (in
# postgresql.sh's list) PostgreSQL.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed"; exit 77; }

MYGROUP=$(id -gn)
OTHER=$(getent group | awk -F: -v groups=" $(id -G) " \
	'index(groups, " " $3 " ") == 0 { print $1; exit }')
[ -n "$OTHER" ] || { echo "no group the user is outside of"; exit 77; }
PIDS=
trap 'for p in $PIDS; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT

# serve SOCKET [OPTIONS...]: a service on $DB at SOCKET, waited for.
serve() {
	sock=$1
	shift
	"$COUNTERSIGN" serve --db "$DB" --socket "$sock" "$@" \
		2>>"$WORK/serve.log" &
	PIDS="$PIDS $!"
	wait_for_socket "$sock" "$WORK/serve.log"
}
client() {
	if python3 "$TOP_SRCDIR/tests/e2e/programs_client.py" "$@" \
	    >"$WORK/py.out" 2>&1; then :; else
		FAILURES=$((FAILURES + 1)); fi
	cat "$WORK/py.out"
}
remote() { "$COUNTERSIGN" --connect "$S1" "$@"; }

S1="$WORK/s1" S2="$WORK/s2"
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null 2>&1
serve "$S1" --officers "$MYGROUP" --importers "$MYGROUP"
serve "$S2" --officers "$MYGROUP"

### submit and status; bad input; waits; the feed.
progress "submit and status; bad input; waits; the feed"
client submit "$S1"
client bad_input "$S1"
client waits "$S1" "$DB" "$S2"
client events "$S1"
# A service that closes idle connections: the Python client connects anew.
S3="$WORK/s3"
serve "$S3" --officers "$MYGROUP" --importers "$MYGROUP" --idle-timeout 1
client idle "$S3"

### The commands, locally and through the service.
progress "The commands, locally and through the service"
# An action past its expires_at is expired: a wait returns at once.
jq -c '.proposed_action.action_id = "exp-1" | .reviewer_verdict.action_id = "exp-1"
	| .proposed_action.expires_at = "2020-01-01T00:00:00Z"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/expired.json"
cs import "$WORK/expired.json" >/dev/null 2>&1
for args in "status sub-0" "status w-3" "status nope" "status amb-1" \
	"wait w-0" "wait w-1" "wait sub-0 --timeout 0" "wait exp-1 --timeout 60" \
	"events" "events --after 3"; do
	# shellcheck disable=SC2086
	set +e
	cs $args >"$WORK/l.out" 2>"$WORK/l.err"
	lrc=$?
	remote $args >"$WORK/r.out" 2>"$WORK/r.err"
	rrc=$?
	set -e
	expect_eq "$args: the same exit through the service" "$rrc" "$lrc"
	if cmp -s "$WORK/l.out" "$WORK/r.out" && cmp -s "$WORK/l.err" "$WORK/r.err"; then
		pass "$args: the same output through the service"
	else
		fail "$args: the output differs"; diff "$WORK/l.out" "$WORK/r.out" | head -3
		diff "$WORK/l.err" "$WORK/r.err" | head -3
	fi
	case $args in
	"wait w-1") expect_eq "wait: exit 0 approved" "$lrc" 0 ;;
	"wait w-0") expect_eq "wait: exit 1 rejected" "$lrc" 1 ;;
	"wait exp-1"*) expect_eq "wait: exit 1 expired" "$lrc" 1
		expect_contains "wait: expired said" "$WORK/l.out" '"state":"expired"' ;;
	"wait sub-0"*) expect_eq "wait: exit 5 timed out" "$lrc" 5
		expect_contains "wait: timed_out said" "$WORK/l.out" '"timed_out":true' ;;
	"status nope") expect_contains "status: unknown said" "$WORK/l.err" unknown_action ;;
	"status amb-1") expect_contains "status: the matches listed" "$WORK/l.err" amb-11 ;;
	esac
done
HEAD=$(cs events | wc -l)
expect_eq "events: one line per record" "$HEAD" "$(cs audit export | wc -l)"
remote events --after "$HEAD" --follow >"$WORK/follow.out" 2>&1 &
FOLLOW=$!
PIDS="$PIDS $FOLLOW"
printf '{"action_id": "w-5", "decision": "reject", "reason": "no"}\n' |
	remote batch >/dev/null 2>&1
i=0
until [ -s "$WORK/follow.out" ] || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
kill "$FOLLOW" 2>/dev/null || true
expect_eq "events --follow: the new record, live" \
	"$(jq -r '"\(.seq) \(.action_id)"' "$WORK/follow.out")" "$((HEAD + 1)) w-5"

### 10,000 records; a service killed mid-stream, the feed resumed.
progress "10,000 records; a service killed mid-stream, the feed resumed"
jq -c 'range(1; 10001) as $i | .version = $i | .ips_id = "ips-bulk" | .user_id = "u-bulk"' "$EXAMPLES/ips.json" \
	>"$WORK/ips.jsonl"
cs import "$WORK/ips.jsonl" >/dev/null 2>&1
client resume "$WORK/s3" "$COUNTERSIGN" serve --db "$DB" --socket "$WORK/s3" \
	--officers "$MYGROUP"
client caps "$S1"

### A feed that reads nothing while under 8 MiB commit is kept; over, dropped.
progress "A feed that reads nothing while 8,000 records commit is kept"
jq -c 'range(1; 8001) as $i | .version = $i | .ips_id = "ips-slow"
	| .user_id = "u-slow"' "$EXAMPLES/ips.json" >"$WORK/slow.jsonl"
client slow_reader "$S1" "$DB" "$WORK/slow.jsonl"
### A feed that reads nothing while 40,000 records commit is dropped.
progress "A feed that reads nothing while 40,000 records commit is dropped"
jq -c 'range(1; 40001) as $i | .version = $i | .ips_id = "ips-flood"
	| .user_id = "u-flood"' "$EXAMPLES/ips.json" >"$WORK/flood.jsonl"
client dropped "$S1" "$DB" "$WORK/flood.jsonl" "$WORK/serve.log"

### Roles: a reader reads and cannot decide or import; an importer submits
### and waits, and cannot decide; no role, nothing.
progress "Roles: a reader reads and cannot decide or import; no role, nothing"
serve "$WORK/r" --readers "$MYGROUP"
client reader "$WORK/r"
expect_status "a reader lists the queue" 0 "$COUNTERSIGN" --connect "$WORK/r" list
expect_status "a reader exports the log" 0 "$COUNTERSIGN" --connect "$WORK/r" audit export
printf '{"action_id": "w-5", "decision": "approve"}\n' >"$WORK/one.batch"
expect_status "a reader cannot decide" 1 "$COUNTERSIGN" --connect "$WORK/r" batch "$WORK/one.batch"
expect_contains "... forbidden" "$WORK/err" forbidden
expect_status "a reader cannot import" 1 "$COUNTERSIGN" --connect "$WORK/r" import "$EXAMPLES/ips.json"
serve "$WORK/i" --officers "$OTHER" --importers "$MYGROUP"
client importer "$WORK/i"
serve "$WORK/n" --officers "$OTHER" --importers "$OTHER" --readers "$OTHER"
client no_role "$WORK/n"

### The example orchestrator: submit, wait for the officer, the receipt.
progress "The example orchestrator: submit, wait for the officer, the receipt"
python3 "$TOP_SRCDIR/examples/orchestrator.py" --socket "$S1" \
	--action-id orch-1 --timeout 120 >"$WORK/orch.out" 2>&1 &
ORCH=$!
PIDS="$PIDS $ORCH"
i=0
until remote status orch-1 >/dev/null 2>&1 || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
# The orchestrator runs as this account, which may not approve what it
# submitted through the service (SPEC 5 v3): the officer approves locally.
printf '{"action_id": "orch-1", "decision": "approve"}\n' |
	remote batch >"$WORK/orch.batch" 2>&1 || true
expect_eq "orchestrator: its account cannot approve orch-1 through the service" \
	"$(jq -r .code "$WORK/orch.batch")" self_approval
printf '{"action_id": "orch-1", "decision": "approve"}\n' | cs batch >/dev/null 2>&1
set +e
wait "$ORCH"
orc=$?
set -e
expect_contains "orchestrator: submitted" "$WORK/orch.out" "submitted orch-1"
expect_contains "orchestrator: saw the approval" "$WORK/orch.out" "approved by"
expect_contains "orchestrator: no receipt, no execution" "$WORK/orch.out" "not executed"
expect_eq "orchestrator: exit 1 when it does not execute" "$orc" 1

finish
