#!/bin/sh
# Issue 35 points 1 and 6, with the roles and grants of data/ on a
# throw-away server (pg_lib.sh):
# 1. as the service's role in psql, UPDATE on security, policy_document,
#    action (and every other table) and INSERT on audit_log and decision
#    are refused for want of the privilege;
# 2. through a service logged in as that role, a policy import (with a
#    security replaced), a decision, an approval under a quorum and a
#    product owner's judgment still record, and the chain verifies;
# 3. the owner's functions refuse a row that the audit record it names
#    does not describe (for a policy row, the audit head);
# 4. the write lock: the advisory lock the store used to take, held idle
#    by the role, stalls nothing; the row lock the owner's function takes,
#    held idle through it, shows in pg_locks, times a decision out, and
#    the decision records once it is let go.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }

. "$TOP_SRCDIR/tests/e2e/pg_lib.sh"

MYGROUP=$(id -gn)
ME=$(id -un)
PIDS=
trap 'exec 3>&- 2>/dev/null; for pid in $PIDS; do kill -KILL "$pid" 2>/dev/null; done; pg_stop; rm -rf "$WORK"' EXIT

pg_start
pg_psql postgres -f "$TOP_SRCDIR/data/postgresql-roles.sql" >/dev/null
OWNER="postgresql://countersign_owner@/countersign?host=$PG_SOCKDIR"
DB="postgresql://countersign_service@/countersign?host=$PG_SOCKDIR"
expect_status "the owner creates the schema by an import" 0 \
	"$COUNTERSIGN" --db "$OWNER" import "$EXAMPLES/standards_index.json"
pg_psql countersign -f "$TOP_SRCDIR/data/postgresql-grants.sql" >/dev/null

# as_service SQL: psql as the service's role, as whoever holds it could.
as_service() {
	"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" \
		-U countersign_service -d countersign -c "$1"
}
# q SQL: one value, as the superuser sees it.
q() { pg_psql countersign -At -c "$1"; }

### 1. What the role may not do, for want of the privilege.
for sql in "UPDATE security SET sector = 'Government Bonds' WHERE ticker_key = 'MO'" \
	"UPDATE policy_document SET raw_json = raw_json" \
	"UPDATE action SET status = 'approved'" \
	"INSERT INTO audit_log (seq, record_json, prev_hash, hash) VALUES (99, '{}', '', '')" \
	"INSERT INTO decision (action_id, decision_id, decision, operator_login, operator_uid, decided_at, audit_seq) VALUES ('x', 'y', 'approve', 'bob', 1, 'z', 1)" \
	"INSERT INTO approval (approval_id, action_id, operator_login, operator_uid, approved_at, needed, have, audit_seq) VALUES ('x', 'y', 'bob', 1, 'z', 2, 1, 1)" \
	"UPDATE queue_index SET epoch = 0" "DELETE FROM queue_index" \
	"UPDATE queue_totals SET pending = 0" "UPDATE meta SET value = 2" \
	"DELETE FROM artifact_lock"; do
	expect_status "the service's role may not: $sql" 1 as_service "$sql"
	expect_contains "  permission denied" "$WORK/err" "permission denied"
done
# "none:" and the tables that break the rule (a failed query prints nothing).
expect_eq "no table it may UPDATE, DELETE or TRUNCATE, nor a column it may UPDATE" \
	"$(q "SELECT 'none:' || coalesce(string_agg(c.relname, ' '), '') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND (has_table_privilege('countersign_service', c.oid, 'UPDATE, DELETE, TRUNCATE') OR has_any_column_privilege('countersign_service', c.oid, 'UPDATE'))")" "none:"
expect_eq "  of the tables it reads" \
	"$(q "SELECT count(*) > 15 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND has_table_privilege('countersign_service', c.oid, 'SELECT')")" t
expect_eq "no INSERT on the log, the decisions, approvals, judgments, securities or documents" \
	"$(q "SELECT 'none:' || coalesce(string_agg(t, ' '), '') FROM unnest(ARRAY['audit_log', 'decision', 'approval', 'po_judgment', 'security', 'policy_document']) t WHERE has_table_privilege('countersign_service', t, 'INSERT')")" "none:"
expect_eq "every function of the owner's runs as the owner, on a fixed search_path" \
	"$(q "SELECT count(*) FILTER (WHERE NOT prosecdef OR proconfig IS NULL OR NOT ('search_path=pg_catalog, public, pg_temp' = ANY (proconfig))) || ' of ' || count(*) FROM pg_proc WHERE proname LIKE 'cs\_%' AND proname <> 'cs_add_true'")" "0 of 25"

### 2. Through a service as that role: an import, a decision, an approval
# under a quorum, a judgment.
serve() {
	rm -f "$WORK/svc.sock"
	"$COUNTERSIGN" serve --db "$DB" --socket "$WORK/svc.sock" \
		--officers "$MYGROUP" --importers "$MYGROUP" \
		--checkpoint-file "$WORK/svc.checkpoints" 2>>"$WORK/svc.log" &
	SERVICE=$!
	PIDS="$PIDS $SERVICE"
	wait_for_socket "$WORK/svc.sock" "$WORK/svc.log"
}
remote() { "$COUNTERSIGN" --connect "$WORK/svc.sock" "$@"; }
# decide LINE: one batch line through the service.
decide() { printf '%s\n' "$1" >"$WORK/line"; remote batch "$WORK/line"; }
serve
expect_status "the policy imports through the service" 0 remote import \
	"$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" "$EXAMPLES/holdings.json"
jq -c '.securities.XOM.sector = "Oil and Gas"' "$EXAMPLES/security_map.json" >"$WORK/map2.json"
expect_status "a security map that replaces a security, too" 0 remote import "$WORK/map2.json"
expect_eq "  the security replaced" "$(q "SELECT sector FROM security WHERE ticker_key = 'XOM'")" "Oil and Gas"
expect_eq "  both imports on the chain" \
	"$(q "SELECT count(*) FROM audit_log WHERE record_json::json->>'event' = 'policy_import' AND record_json::json->>'type' = 'security_map'")" 2
jq -c 'range(0; 5) as $i | .proposed_action.action_id = "r-\($i)"
	| .reviewer_verdict.action_id = "r-\($i)"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/packets.jsonl"
jq -c --arg me "$ME" '.proposed_action.action_id = "J-1"
	| .proposed_action.requested_by = $me' "$EXAMPLES/packet-change.json" >"$WORK/change.json"
# The packets as the role, not through the service: an account that
# imports through the service may not approve what it imported (SPEC 5).
expect_status "the packets import as the role" 0 cs import "$WORK/packets.jsonl" "$WORK/change.json"
expect_status "a decision records through the service" 0 \
	decide '{"action_id": "r-0", "decision": "approve", "reason": "checked"}'
expect_eq "  with the action's status" "$(q "SELECT a.status || ' ' || d.operator_login FROM action a JOIN decision d USING (action_id) WHERE action_id = 'r-0'")" "approved $ME"
expect_eq "  out of the queue" "$(q "SELECT count(*) FROM queue_index WHERE action_id = 'r-0'")" 0
printf '{"type": "approval_policy", "policy_id": "four-eyes", "version": 1, "quorum": [{"kind": "trade", "when": "always", "approvals": 2}]}\n' >"$WORK/quorum.json"
expect_status "an approval policy imports through the service" 0 remote import "$WORK/quorum.json"
expect_status "an approval under the quorum records through the service" 0 \
	decide '{"action_id": "r-1", "decision": "approve", "reason": "checked"}'
expect_eq "  partial" "$(jq -r .status "$WORK/out")" partial
expect_eq "  its row, the action still pending" \
	"$(q "SELECT count(*) || ' ' || min(a.status) FROM approval p JOIN action a USING (action_id) WHERE action_id = 'r-1'")" "1 pending"
expect_status "a judgment records through the service" 0 \
	decide '{"action_id": "J-1", "decision": "judge", "po_judgments": {"AC-3": "met"}}'
expect_eq "  its row" "$(q "SELECT judgment FROM po_judgment WHERE action_id = 'J-1' AND ac_id = 'AC-3'")" met
expect_status "a rejection records through the service" 0 \
	decide '{"action_id": "r-4", "decision": "reject", "reason": "no"}'
expect_eq "  rejected" "$(q "SELECT status FROM action WHERE action_id = 'r-4'")" rejected
expect_status "the chain verifies through the service" 0 remote audit verify

### 3. The functions refuse a row the audit record it names does not
# describe: the decision's of r-0 is no decision of r-2's, nor bob's.
seq=$(q "SELECT audit_seq FROM decision WHERE action_id = 'r-0'")
did=$(q "SELECT decision_id FROM decision WHERE action_id = 'r-0'")
expect_status "a decision row for another action's record is refused" 1 as_service \
	"SELECT cs_decision_insert('r-2', '$did', 'approve', '$ME', $(id -u), 'x', $seq, NULL, 0, NULL, NULL)"
expect_contains "  saying so" "$WORK/err" "audit record $seq does not record it"
# The decision in one call (schema 23) appends its record and holds the
# row to it: r-0's record, chained at the head, is no decision of r-2's,
# and a row naming another record than the one appended is refused too.
head_seq=$(q "SELECT max(seq) FROM audit_log")
head_hash=$(q "SELECT hash FROM audit_log WHERE seq = $head_seq")
record=$(q "SELECT record_json FROM audit_log WHERE seq = $seq")
chained=$({ printf '%s\n' "$head_hash"; printf '%s' "$record"; } | sha256sum | cut -c1-64)
append_as() { # ACTION AUDIT_SEQ: r-0's record appended with such a row
	as_service "SELECT cs_decision_append($((head_seq + 1)), '$record', '$head_hash', '$chained', '$1', '$did', 'approve', '$ME', $(id -u), 'x', $2, NULL, 0, NULL, NULL)"
}
expect_status "a decision appended in one call for another action's record is refused" 1 \
	append_as r-2 $((head_seq + 1))
expect_contains "  saying so" "$WORK/err" "audit record $((head_seq + 1)) does not record it"
expect_status "a row naming a record other than the one appended is refused" 1 \
	append_as r-0 "$seq"
expect_contains "  saying so" "$WORK/err" "audit record $seq does not record it"
expect_eq "  neither record stays on the chain" "$(q "SELECT max(seq) FROM audit_log")" "$head_seq"
expect_status "an approval row for a decision's record is refused" 1 as_service \
	"SELECT cs_approval_insert('$did', 'r-2', '$ME', $(id -u), 'x', NULL, 2, 1, $seq)"
expect_contains "  saying so" "$WORK/err" "audit record $seq does not record it"
expect_status "a judgment row for a decision's record is refused" 1 as_service \
	"SELECT cs_judgment_insert('r-2', 'AC-3', 'met', '$did', '$ME', $(id -u), 'x', $seq)"
expect_contains "  saying so" "$WORK/err" "audit record $seq does not record it"
# A policy row is held to the audit head, a policy_import of its object.
expect_status "the excluded MO moved to Government Bonds with no record: refused" 1 as_service \
	"SELECT cs_security_put('MO', 'MO', 'Government Bonds', 'us_equity', 0, NULL)"
expect_contains "  saying so" "$WORK/err" "security_map: the audit head does not record this import"
expect_eq "  MO is still Tobacco" "$(q "SELECT sector FROM security WHERE ticker_key = 'MO'")" Tobacco
ips=$(jq -c '.version = 99' "$EXAMPLES/ips.json")
expect_status "an IPS with no record: refused" 1 as_service \
	"SELECT cs_ips_put('x', 99, 'u', '$ips', 0)"
expect_contains "  saying so" "$WORK/err" "ips: the audit head does not record this import"
expect_status "a roster with no record: refused" 1 as_service \
	"SELECT cs_document_put('roster', '{}', 0)"
expect_contains "  saying so" "$WORK/err" "roster: the audit head does not record this import"
expect_eq "  r-2 is still pending, with no row" \
	"$(q "SELECT status || (SELECT count(*) FROM decision WHERE action_id = 'r-2') || (SELECT count(*) FROM approval WHERE action_id = 'r-2') FROM action WHERE action_id = 'r-2'")" pending00

### 4. The write lock.
# hold SQL: a psql session of the service's role runs SQL, then idles in
# its transaction until release; waits (bounded) until pg_locks shows
# what `held` (a WHERE clause on pg_locks) says it holds.
hold() {
	rm -f "$WORK/fifo"
	mkfifo "$WORK/fifo"
	"$PG_BINDIR/psql" -X -q -At -h "$PG_SOCKDIR" -U countersign_service \
		-d countersign <"$WORK/fifo" >"$WORK/holder.out" 2>&1 &
	HOLDER=$!
	PIDS="$PIDS $HOLDER"
	exec 3>"$WORK/fifo"
	printf 'BEGIN;\n%s;\n' "$1" >&3
	i=0
	until [ "$(q "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.usename = 'countersign_service' AND a.state = 'idle in transaction' AND l.granted AND $2")" = 1 ] ||
		[ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
	[ $i -lt 1200 ] || { cat "$WORK/holder.out"; fail "the holder never held it"; }
}
release() {
	printf 'ROLLBACK;\n' >&3
	exec 3>&-
	wait "$HOLDER" 2>/dev/null || true
}
hold "SELECT pg_advisory_xact_lock(7165213938137868135)" "l.locktype = 'advisory'"
expect_status "the advisory lock held idle by the role: a decision still records" 0 \
	decide '{"action_id": "r-2", "decision": "approve", "reason": "checked"}'
release
hold "SELECT cs_write_lock()" "l.relation = 'schema_version'::regclass AND l.mode = 'RowShareLock'"
pass "the write lock held idle through cs_write_lock() shows in pg_locks"
expect_status "  a decision meanwhile times out (exit 4)" 4 \
	decide '{"action_id": "r-3", "decision": "approve", "reason": "checked"}'
expect_contains "  saying why" "$WORK/err" "lock timeout"
expect_eq "  nothing recorded" "$(q "SELECT count(*) FROM approval WHERE action_id = 'r-3'")" 0
release
expect_status "  let go: the decision records" 0 \
	decide '{"action_id": "r-3", "decision": "approve", "reason": "checked"}'
expect_status "the chain verifies at the end" 0 cs audit verify
kill -TERM "$SERVICE"
wait "$SERVICE" 2>/dev/null || true

PIDS=
finish
