#!/bin/sh
# SPEC 13 (issue 32) on one PostgreSQL log, with a throw-away server
# (pg_lib.sh):
# 1. two services, as two hosts would run them, each signing with its own
#    key under the log's name and trusting the other's (--trusted-key),
#    decide in turn; each receipt verifies with the key of the service
#    that signed it; a third service that does not trust one of them
#    refuses to extend the log, naming the first record it cannot trust;
# 2. the least-privilege roles (data/postgresql-roles.sql): what the
#    service's role may append, a correctly chained decision "by bob"
#    appended as that role (through the owner's functions: it has no
#    INSERT on the log) fails audit verify naming its seq, and
#    the next decision is refused until an operator looks.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }

. "$TOP_SRCDIR/tests/e2e/pg_lib.sh"

MYGROUP=$(id -gn)
PIDS=
trap 'for pid in $PIDS; do kill -KILL "$pid" 2>/dev/null; done; pg_stop; rm -rf "$WORK"' EXIT

# serve NAME [OPTIONS...]: a service on $WORK/NAME.sock over $DB, waited for.
serve() {
	name=$1
	shift
	rm -f "$WORK/$name.sock"
	"$COUNTERSIGN" serve --db "$DB" --socket "$WORK/$name.sock" \
		--officers "$MYGROUP" --importers "$MYGROUP" \
		--checkpoint-file "$WORK/$name.checkpoints" "$@" 2>>"$WORK/$name.log" &
	PIDS="$PIDS $!"
	eval "PID_$name=\$!"
	wait_for_socket "$WORK/$name.sock" "$WORK/$name.log"
}
# stop NAME: that service, stopped.
stop() {
	eval "pid=\$PID_$1"
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
remote() { sock=$1; shift; "$COUNTERSIGN" --connect "$WORK/$sock.sock" "$@"; }
# decide SERVICE ID: one approval through that service.
decide() {
	printf '{"action_id":"%s","decision":"approve","reason":"checked"}\n' "$2" |
		remote "$1" batch
}

pg_start

### 1. Two services of one log, each with its own key.
DB=$(pg_createdb services)
LOG=pg.example/log
for k in a b c; do "$COUNTERSIGN" keygen "$LOG" "$WORK/$k" >/dev/null; done
expect_eq "three keys of one name, three key ids" \
	"$(cut -d+ -f2 "$WORK/a.pub" "$WORK/b.pub" "$WORK/c.pub" | sort -u | wc -l)" 3
import_passing_trades s 12
serve a --signing-key "$WORK/a.key" --trusted-key "$WORK/b.pub"
serve b --signing-key "$WORK/b.key" --trusted-key "$WORK/a.pub"
other() { if [ "$1" = a ]; then echo b; else echo a; fi; }
for i in 0 1 2 3 4 5; do
	if [ $((i % 2)) -eq 0 ]; then by=a; else by=b; fi
	expect_status "s-$i decided through service $by" 0 decide $by "s-$i"
	expect_status "  its receipt" 0 cs receipt "s-$i" -o "$WORK/r$i"
	expect_status "  verifies with both keys" 0 "$COUNTERSIGN" verify-receipt "$WORK/r$i" \
		--key "$WORK/a.pub" --key "$WORK/b.pub" --action "s-$i" --decision approve
	expect_status "  and with $by's key alone, which signed it" 0 \
		"$COUNTERSIGN" verify-receipt "$WORK/r$i" --key "$WORK/$by.pub"
	expect_status "  not with $(other $by)'s alone" 1 \
		"$COUNTERSIGN" verify-receipt "$WORK/r$i" --key "$WORK/$(other $by).pub"
done
expect_eq "one checkpoint a decision, by both" \
	"$(pg_psql services -At -c "SELECT count(*) FROM log_checkpoint WHERE size > (SELECT min(size) FROM log_checkpoint)")" 5
expect_status "audit verify with both keys" 0 cs audit verify --key "$WORK/a.pub" --key "$WORK/b.pub"
expect_contains "  the latest signature verified" "$WORK/out" "its signature verified"
expect_status "each service verifies the log it shares" 0 remote a audit verify
expect_status "  the other too" 0 remote b audit verify
# Every receipt taken now carries b's latest checkpoint: a's older
# receipts still verify, each under its own signer's key.
expect_status "an earlier receipt still verifies with a's key" 0 \
	"$COUNTERSIGN" verify-receipt "$WORK/r0" --key "$WORK/a.pub" --action s-0
stop a

# c trusts a but not b: the latest checkpoint is b's.
first=$(($(pg_psql services -At -c "SELECT max(size) FROM log_checkpoint WHERE size < (SELECT max(size) FROM log_checkpoint)") + 1))
serve c --signing-key "$WORK/c.key" --trusted-key "$WORK/a.pub"
expect_status "a service that does not trust b's key refuses to extend the log" 4 decide c s-6
expect_contains "  naming the first record it cannot trust" "$WORK/err" \
	"audit record $first lies beyond the latest checkpoint signed by a trusted key"
expect_contains "  and saying so in its own log" "$WORK/c.log" \
	"audit record $first lies beyond the latest checkpoint signed by a trusted key"
expect_eq "  nothing was recorded" \
	"$(pg_psql services -At -c "SELECT count(*) FROM decision WHERE action_id = 's-6'")" 0
stop c
expect_status "b, which trusts its own key, decides on" 0 decide b s-6
stop b
serve a --signing-key "$WORK/a.key" --trusted-key "$WORK/b.pub"
expect_status "a, which trusts b's, decides on" 0 decide a s-7
stop a
# Each service's checkpoint file is checked whole against what that
# service wrote to it, whatever the others wrote to theirs.
cp "$WORK/a.checkpoints" "$WORK/a.saved"
head -n 1 "$WORK/a.saved" >"$WORK/a.checkpoints"
serve a --signing-key "$WORK/a.key" --trusted-key "$WORK/b.pub"
expect_status "a's own checkpoint file cut short: a refuses" 4 decide a s-8
expect_contains "  saying so" "$WORK/err" "a.checkpoints is shorter than the log left it"
stop a
serve b --signing-key "$WORK/b.key" --trusted-key "$WORK/a.pub"
expect_status "  while b, whose file is whole, decides" 0 decide b s-8
stop b
cp "$WORK/a.saved" "$WORK/a.checkpoints"
serve a --signing-key "$WORK/a.key" --trusted-key "$WORK/b.pub"
expect_status "  a's file restored: a decides again" 0 decide a s-9
stop a
expect_status "audit verify with both keys, at the end" 0 \
	cs audit verify --key "$WORK/a.pub" --key "$WORK/b.pub"

### 2. The service's role (data/postgresql-roles.sql and -grants.sql).
pg_psql postgres -f "$TOP_SRCDIR/data/postgresql-roles.sql" >/dev/null
OWNER="postgresql://countersign_owner@/countersign?host=$PG_SOCKDIR"
DB="postgresql://countersign_service@/countersign?host=$PG_SOCKDIR"
expect_status "the owner creates the schema by an import" 0 \
	"$COUNTERSIGN" --db "$OWNER" import "$EXAMPLES/security_map.json"
pg_psql countersign -f "$TOP_SRCDIR/data/postgresql-grants.sql" >/dev/null
import_passing_trades r 4
serve role --signing-key "$WORK/a.key"
expect_status "the service's role decides, signing" 0 decide role r-0
expect_status "  and again" 0 decide role r-1
stop role
expect_status "audit verify as the service's role" 0 cs audit verify --key "$WORK/a.pub"
# as_service SQL: psql as the service's role, as whoever holds it could.
as_service() {
	"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" \
		-U countersign_service -d countersign -c "$1"
}
# What the role may not do to the log, for want of the privilege.
for sql in "UPDATE audit_log SET hash = hash" "DELETE FROM log_checkpoint" \
	"UPDATE log_checkpoint SET note = note" "DELETE FROM merkle_node"; do
	expect_status "the service's role may not: $sql" 1 as_service "$sql"
	expect_contains "  permission denied" "$WORK/err" "permission denied"
done
# Not in plain SQL (issue 35): the log and the decisions take no INSERT
# from the role, nor the action's status an UPDATE.
for sql in "INSERT INTO audit_log (seq, record_json, prev_hash, hash) VALUES (999, '{}', '', '')" \
	"INSERT INTO decision (action_id, decision_id, decision, operator_login, operator_uid, decided_at, audit_seq, escalate) VALUES ('r-2', 'x', 'approve', 'bob', 1, 'x', 1, 0)" \
	"UPDATE action SET status = 'approved' WHERE action_id = 'r-2'"; do
	expect_status "the service's role may not: $sql" 1 as_service "$sql"
	expect_contains "  permission denied" "$WORK/err" "permission denied"
done
# What it may: a decision "by bob", correctly chained, appended through
# the owner's functions (schema 20), as the service itself appends one.
head_seq=$(as_service "SELECT max(seq) FROM audit_log")
head_hash=$(as_service "SELECT hash FROM audit_log WHERE seq = $head_seq")
forged=$(as_service "SELECT record_json FROM audit_log WHERE seq = (SELECT audit_seq FROM decision WHERE action_id = 'r-0')" |
	jq -c '.action_id = "r-2" | .operator.login = "bob"
		| .decision_id = "00000000-0000-4000-8000-000000000002"')
fh=$({ printf '%s\n' "$head_hash"; printf '%s' "$forged"; } | sha256sum | cut -c1-64)
at=$(printf '%s' "$forged" | jq -r .decided_at)
uid=$(printf '%s' "$forged" | jq -r .operator.uid)
expect_status "the service's role appends a chained decision record through the functions" 0 as_service "
	BEGIN;
	SELECT cs_write_lock();
	SELECT cs_audit_append($((head_seq + 1)), '$forged', '$head_hash', '$fh');
	SELECT cs_decision_insert('r-2', '00000000-0000-4000-8000-000000000002', 'approve', 'bob', $uid, '$at', $((head_seq + 1)), NULL, 0, NULL, NULL);
	SELECT cs_queue_remove('r-2');
	COMMIT"
expect_eq "  r-2 now reads as approved by bob" \
	"$(as_service "SELECT operator_login FROM decision WHERE action_id = 'r-2'")" bob
expect_status "audit verify fails on the forged row" 1 cs audit verify --key "$WORK/a.pub"
expect_contains "  naming its seq" "$WORK/out" "BROKEN at seq $((head_seq + 1))"
expect_contains "  as beyond the signed checkpoint" "$WORK/out" "beyond the latest signed checkpoint"
serve role --signing-key "$WORK/a.key"
expect_status "the next decision is refused" 4 decide role r-3
expect_contains "  naming the first unattested record" "$WORK/err" "record $((head_seq + 1))"
expect_contains "  in the service's own log too" "$WORK/role.log" "record $((head_seq + 1)) lies beyond"
expect_status "  and again: until an operator looks" 4 decide role r-3
stop role
expect_eq "  r-3 is not decided" "$(as_service "SELECT count(*) FROM decision WHERE action_id = 'r-3'")" 0

PIDS=
finish
