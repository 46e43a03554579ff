#!/bin/sh
# SPEC v2 10 (issue 20): the PostgreSQL store keeps every guarantee of the
# SQLite one.  A throw-away server (pg_lib.sh); the store's end-to-end tests
# again on it; the database's own refusals; two "hosts" deciding at once;
# the server killed mid-batch; the least-privilege roles.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/pg_lib.sh"

pg_start

# q DB SQL: one value, as the superuser sees it.
q() { pg_psql "$1" -At -c "$2"; }

### 1. The store's end-to-end tests on PostgreSQL.  Those that look at or
# damage the store's rows do it through db_lib.sh's db_sql, db_copy and
# db_tamper, and skip aloud what is about SQLite itself.  Not here: those
# about the SQLite file or paths alone (format1, db_path), or no
# store (layers, manpage, contract), and pg_service and pg_signed_log,
# each with its own server.  Nor the screens' layout and wording (tui_kinds, tui_change,
# tui_judgment, tui_officer, tui_tour, l10n): they draw what the store's
# reads return, and those reads run here under every script that
# decides, lists, checks or exports; the screens that write or read the
# store in their own way stay (tui, tui_artifact, tui_bulk, tui_history,
# tui_service, tui_quorum).  Issue 38: CI's time goes where the store is.
# The longest first, so that the two workers below end together.
SUITES="hostile programs crash_partial signed_log_faults tui_history_all \
	service tui crash batch change import_strict signed_log \
	trade_examples list_sanitized legal_draft lockout queue_index \
	list_index holdings_import injection audit_chain audit_rows \
	concurrency group_commit id_prefix artifact artifact_pr \
	artifact_bounds artifact_decision batch_limits recheck_scope changed \
	policy_objects policy_provenance stored_rows raw_controls syslog \
	tui_artifact tui_bulk tui_history tui_service faults cli list_filter \
	audit_export_csv import_json quorum tui_quorum import_chunks judge"
# run_suite NAME N: one suite on a database of its own, its lines printed.
run_suite() {
	progress "section 1, suite $2: $1.sh on PostgreSQL"
	uri=$(pg_createdb "suite_$1")
	if COUNTERSIGN_TEST_DB=$uri sh "$TOP_SRCDIR/tests/e2e/$1.sh" \
		>"$WORK/$1.log" 2>&1 7>&-; then
		pass "$1.sh on PostgreSQL"
		# Its parts about SQLite itself, said skipped.
		grep '^skip:' "$WORK/$1.log" | sed "s/^/    $1.sh: /" || true
	else
		rc=$?
		if [ $rc -eq 77 ]; then
			echo "skip: $1.sh (its own tools are missing)"
		else
			fail "$1.sh on PostgreSQL (exit $rc):"
			grep -E '^FAIL' "$WORK/$1.log" | sed 's/^/    /'
		fi
	fi
}
# Two suites at a time on the one server (issue 38: this script is the
# longest of make check, and the other tests are done long before it):
# each worker takes the next suite no one has claimed (mkdir is atomic),
# and the results are read back in the list's order.
suite_worker() {
	n=0
	for t in $SUITES; do
		n=$((n + 1))
		mkdir "$WORK/claimed.$t" 2>/dev/null || continue
		run_suite "$t" "$n" >"$WORK/$t.result" 2>&1 || true
	done
}
suite_worker &
worker_1=$!
suite_worker &
worker_2=$!
wait "$worker_1" || true
wait "$worker_2" || true
for t in $SUITES; do
	if [ -f "$WORK/$t.result" ]; then
		cat "$WORK/$t.result"
		FAILURES=$((FAILURES + $(grep -c '^FAIL' "$WORK/$t.result" || true)))
	else
		fail "$t.sh on PostgreSQL: not run"
	fi
done

progress "section 2: schema, triggers and the chain"
### 2. Schema, triggers and the chain, as the database keeps them.
DB=$(pg_createdb main)
import_passing_trades p 20
approvals p 10 | cs batch >"$WORK/out" 2>"$WORK/err" || true
expect_eq "ten recorded" "$(grep -c '"recorded"' "$WORK/out")" 10
"$COUNTERSIGN" --db "$WORK/v.db" import "$EXAMPLES/ips.json" >/dev/null 2>&1
expect_eq "the schema version is SQLite's" "$(q main 'SELECT max(version) FROM schema_version')" \
	"$(sqlite3 "$WORK/v.db" 'SELECT max(version) FROM schema_version')"
for sql in "UPDATE audit_log SET record_json = '{}' WHERE seq = 2" \
	"DELETE FROM audit_log WHERE seq = 12" "TRUNCATE audit_log CASCADE" \
	"UPDATE decision SET decision = 'reject'" "DELETE FROM decision" \
	"TRUNCATE decision" \
	"INSERT INTO audit_log VALUES (99, '{}', repeat('0', 64), repeat('0', 64))" \
	"INSERT INTO audit_log SELECT seq + 1, '{}', repeat('0', 64), repeat('0', 64) FROM audit_log ORDER BY seq DESC LIMIT 1" \
	"UPDATE action SET status = 'pending' WHERE status = 'approved'" \
	"UPDATE action SET raw_json = '{}'"; do
	expect_status "the database refuses: $sql" 1 pg_psql main -c "$sql"
done
expect_status "the chain verifies" 0 cs audit verify
expect_contains "with its ten decisions" "$WORK/out" "(10 decisions)"

# The same record bytes and hash as SQLite's: sha256(prev_hash "\n" record).
SEP=$(printf '\001')
pg_psql main -At -F "$SEP" -c "SELECT prev_hash, record_json, hash FROM audit_log ORDER BY seq" >"$WORK/rows"
bad=0
while IFS=$SEP read -r prev record hash; do
	[ "$(printf '%s\n%s' "$prev" "$record" | sha256sum | cut -c1-64)" = "$hash" ] ||
		bad=$((bad + 1))
done <"$WORK/rows"
expect_eq "every hash is SHA-256 of prev_hash, newline, record" "$bad" 0
expect_eq "every row checked" "$(wc -l <"$WORK/rows")" "$(q main 'SELECT count(*) FROM audit_log')"

head=$(q main "SELECT seq || ':' || hash FROM audit_log WHERE seq = 5")
expect_status "verify --checkpoint on the chain" 0 cs audit verify --checkpoint "$head"
expect_status "verify --checkpoint off the chain" 1 cs audit verify \
	--checkpoint "5:$(printf '%064d' 1)"
expect_status "audit export" 0 cs audit export
expect_eq "export: one line per record" "$(wc -l <"$WORK/out")" "$(q main 'SELECT count(*) FROM audit_log')"
expect_status "audit export --csv" 0 cs audit export --csv
expect_status "audit replay of a decision" 0 cs audit replay p-3
expect_status "check" 0 cs check p-12
expect_status "list --all --json" 0 cs list --all --json
expect_eq "list: ten approved" "$(jq -r .status "$WORK/out" | grep -c approved)" 10
expect_status "an ambiguous id prefix" 2 cs check p-
expect_contains "names the matches" "$WORK/err" "p-0"

# --atomic: one refusal and nothing is recorded.
{ approvals p 20 | sed -n '11,13p'; echo '{"action_id": "nope", "decision": "approve"}'; } >"$WORK/atomic"
expect_status "an --atomic batch with a refusal" 1 cs batch --atomic "$WORK/atomic"
expect_eq "records nothing" "$(q main "SELECT count(*) FROM decision WHERE action_id IN ('p-10', 'p-11', 'p-12')")" 0
head -n 3 "$WORK/atomic" >"$WORK/atomic3"
expect_status "an --atomic batch that passes" 0 cs batch --atomic "$WORK/atomic3"
expect_eq "records all three" "$(q main "SELECT count(*) FROM decision WHERE action_id IN ('p-10', 'p-11', 'p-12')")" 3

progress "section 3: two hosts, one database"
### 3. Two hosts, one database: eight deciders, four through each of two
# connections' worth of processes (the service is one more client of the
# same store), approving the same 300 actions in different orders.
DB=$(pg_createdb hosts)
N=300
import_passing_trades h "$N"
approvals h "$N" >"$WORK/d0"
tac "$WORK/d0" >"$WORK/d1"
awk 'NR % 2 == 0' "$WORK/d0" >"$WORK/d2"; awk 'NR % 2 == 1' "$WORK/d0" >>"$WORK/d2"
awk 'NR % 2 == 1' "$WORK/d1" >"$WORK/d3"; awk 'NR % 2 == 0' "$WORK/d1" >>"$WORK/d3"
awk 'NR % 3 == 0' "$WORK/d0" >"$WORK/d4"; awk 'NR % 3 != 0' "$WORK/d0" >>"$WORK/d4"
awk 'NR % 3 == 1' "$WORK/d1" >"$WORK/d5"; awk 'NR % 3 != 1' "$WORK/d1" >>"$WORK/d5"
shuf --random-source="$WORK/d0" "$WORK/d0" >"$WORK/d6" 2>/dev/null || cp "$WORK/d2" "$WORK/d6"
shuf --random-source="$WORK/d1" "$WORK/d0" >"$WORK/d7" 2>/dev/null || cp "$WORK/d3" "$WORK/d7"
# "Host" b names the same database by another URI form.
URI_B="postgres://postgres@/hosts?host=$PG_SOCKDIR&application_name=host-b"
for p in 0 1 2 3 4 5 6 7; do
	if [ $((p % 2)) -eq 0 ]; then uri=$DB; else uri=$URI_B; fi
	"$COUNTERSIGN" --db "$uri" batch "$WORK/d$p" >"$WORK/out$p" 2>"$WORK/err$p" &
done
wait
cat "$WORK"/out? >"$WORK/all"
expect_eq "every request answered" "$(wc -l <"$WORK/all")" $((8 * N))
expect_eq "each action recorded exactly once" \
	"$(jq -r 'select(.status == "recorded") | .action_id' "$WORK/all" | sort | uniq -c | awk '$1 != 1' | wc -l) $(jq -r 'select(.status == "recorded") | .action_id' "$WORK/all" | sort -u | wc -l)" "0 $N"
expect_eq "every other answer is already_decided" \
	"$(jq -r 'select(.status == "refused") | .code' "$WORK/all" | sort -u)" already_decided
expect_eq "no process reported an error" "$(stderr_but_sink "$WORK"/err? | wc -c)" 0
expect_eq "one decision row per action" "$(q hosts 'SELECT count(*), count(DISTINCT action_id) FROM decision')" "$N|$N"
expect_eq "one decision record per action" \
	"$(q hosts "SELECT count(*) FROM audit_log WHERE json_extract(record_json, '\$.event') = 'decision'")" "$N"
expect_eq "one unbroken run of seq" "$(q hosts 'SELECT count(*) = max(seq) FROM audit_log')" t
expect_status "the chain verifies" 0 cs audit verify

progress "section 4: the server killed mid-batch"
### 4. The server killed mid-batch: every result said "recorded" is there,
# the batch reports a storage error, and the chain verifies.
DB=$(pg_createdb crash)
# Enough that the batch is still deciding when the server dies: a batch
# decides a thousand in well under a second here.
N=3000
import_passing_trades k "$N"
approvals k "$N" >"$WORK/decisions"
for at in 1 100; do
	: >"$WORK/run"
	"$COUNTERSIGN" --db "$DB" batch "$WORK/decisions" >"$WORK/run" 2>"$WORK/runerr" &
	pid=$!
	tries=0
	while [ "$(grep -c '"recorded"' "$WORK/run")" -lt "$at" ] && [ $tries -lt 3000 ] &&
		kill -0 $pid 2>/dev/null; do
		sleep 0.01
		tries=$((tries + 1))
	done
	pg_kill
	set +e
	wait $pid
	rc=$?
	set -e
	pg_start
	# A line for every decision and no storage error: the batch was done
	# before the server went, however the two fell on a busy machine.
	if [ "$rc" != 4 ] && [ "$(grep -c . "$WORK/run")" -eq "$N" ]; then
		echo "note: the batch finished before the kill"
	else
		expect_eq "killed after $at: the batch exits with a storage error" "$rc" 4
		expect_contains "killed after $at: and says so" "$WORK/runerr" "connection"
	fi
	jq -R -r 'fromjson? | select(.status == "recorded") | .action_id' "$WORK/run" | sort >"$WORK/said"
	q crash "SELECT action_id FROM decision" | sort >"$WORK/there"
	expect_eq "killed after $at: every result written as recorded is recorded" \
		"$(comm -23 "$WORK/said" "$WORK/there" | wc -l)" 0
	expect_eq "killed after $at: a status per decision" \
		"$(q crash "SELECT count(*) FROM action WHERE status = 'approved'")" "$(wc -l <"$WORK/there")"
	expect_status "killed after $at: the chain verifies" 0 cs audit verify
done
cs batch "$WORK/decisions" >"$WORK/run" 2>/dev/null || true
expect_eq "resumed: all $N approved" "$(q crash "SELECT count(*) FROM action WHERE status = 'approved'")" "$N"
expect_status "resumed: the chain verifies" 0 cs audit verify

# No server at all: a storage error, and nothing said recorded.
pg_ctl_ -m fast stop >/dev/null
approvals k 1 >"$WORK/one"
expect_status "no server: exit 4" 4 cs batch "$WORK/one"
expect_eq "no server: no result line" "$(wc -l <"$WORK/out")" 0
expect_contains "no server: says so" "$WORK/err" "cannot connect to PostgreSQL"
pg_start

# A server restarted between two decisions of one long-lived process (a
# batch reading a pipe; the service alike): the connection is made again.
mkfifo "$WORK/pipe"
"$COUNTERSIGN" --db "$DB" batch <"$WORK/pipe" >"$WORK/piped" 2>"$WORK/pipederr" &
pid=$!
exec 9>"$WORK/pipe"
approvals k $((N + 2)) | tail -n 2 >"$WORK/two"
import_passing_trades k $((N + 2)) 2>/dev/null
sed -n 1p "$WORK/two" >&9
tries=0
while [ "$(grep -c . "$WORK/piped")" -lt 1 ] && [ $tries -lt 3000 ]; do sleep 0.02; tries=$((tries + 1)); done
# (the new server must not keep the pipe open: no EOF would come)
pg_ctl_ -m fast stop >/dev/null; pg_start 9>&-
sed -n 2p "$WORK/two" >&9
exec 9>&-
set +e; wait $pid; rc=$?; set -e
expect_eq "after a restart: both decisions recorded" \
	"$(jq -r .status "$WORK/piped" | tr '\n' ' ')" "recorded recorded "
expect_eq "after a restart: exit 0" "$rc" 0
expect_status "after a restart: the chain verifies" 0 cs audit verify

progress "section 5: the least-privilege roles"
### 5. The least-privilege roles (data/postgresql-roles.sql): the service's
# role may read and append to the audit log, and nothing more on it.
pg_psql postgres -f "$TOP_SRCDIR/data/postgresql-roles.sql" >/dev/null
OWNER="postgresql://countersign_owner@/countersign?host=$PG_SOCKDIR"
SERVICE="postgresql://countersign_service@/countersign?host=$PG_SOCKDIR"
expect_status "the owner creates the schema by an import" 0 \
	"$COUNTERSIGN" --db "$OWNER" import "$EXAMPLES/security_map.json"
pg_psql countersign -f "$TOP_SRCDIR/data/postgresql-grants.sql" >/dev/null
DB=$SERVICE
import_passing_trades r 3
approvals r 2 | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "the service imports and decides" "$(grep -c '"recorded"' "$WORK/out")" 2
expect_status "the service verifies the chain" 0 cs audit verify
as_service() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -U countersign_service -d countersign -c "$1"; }
expect_status "the service's role reads the WAL position (the TUI's refresh)" 0 \
	as_service "SELECT pg_current_wal_lsn()"
for sql in "UPDATE audit_log SET hash = hash" "DELETE FROM audit_log" \
	"TRUNCATE audit_log CASCADE" "UPDATE decision SET decision = decision" \
	"DROP TRIGGER audit_log_append_only ON audit_log" \
	"ALTER TABLE audit_log DISABLE TRIGGER ALL" \
	"UPDATE action SET raw_json = raw_json"; do
	expect_status "the service's role may not: $sql" 1 as_service "$sql"
	expect_eq "  for want of the privilege, not by a trigger" \
		"$(grep -cE 'permission denied|must be owner' "$WORK/err")" 1
done

# An upgrade: the schema one version behind.  The service's role may not
# migrate it, and says who may; one command as the owner does, and the
# service carries on.
# As an older 20 made it (issue 38): an SQL function, which 22 replaces.
pg_psql countersign -c "CREATE OR REPLACE FUNCTION cs_queue_remove(text)
	RETURNS void LANGUAGE sql SECURITY DEFINER
	SET search_path = pg_catalog, public, pg_temp
	AS 'DELETE FROM queue_index WHERE action_id = \$1'" >/dev/null
sql_definers() {
	q countersign "SELECT count(*) FROM pg_proc p JOIN pg_language l
		ON l.oid = p.prolang WHERE p.prosecdef AND l.lanname = 'sql'"
}
expect_eq "an owner's function in SQL, as an older 20 made it" "$(sql_definers)" 1
# And before 23: no decision in one call.
APPEND_FN="cs_decision_append(bigint, text, text, text, text, text, text, text, bigint, text, bigint, text, bigint, text, text)"
pg_psql countersign -c "DROP FUNCTION $APPEND_FN" >/dev/null
pg_psql countersign -c "UPDATE schema_version SET version = 21" >/dev/null
expect_status "a schema behind: the service's role is refused" 4 cs list
expect_contains "  and told to run one command as the owner" "$WORK/err" \
	"only the schema's owner may"
expect_status "one command as the owner migrates it" 0 \
	"$COUNTERSIGN" --db "$OWNER" list
pg_psql countersign -f "$TOP_SRCDIR/data/postgresql-grants.sql" >/dev/null
expect_status "then the service's role works again" 0 cs list
expect_eq "  and the owner's functions are PL/pgSQL again (22)" "$(sql_definers)" 0
expect_eq "  the audit records compressed with lz4 (22)" \
	"$(q countersign "SELECT attcompression FROM pg_attribute WHERE
		attrelid = 'audit_log'::regclass AND attname = 'record_json'")" l
expect_eq "  the decision in one call there (23), the service's role granted it" \
	"$(q countersign "SELECT has_function_privilege('countersign_service', '$APPEND_FN', 'EXECUTE')")" t
printf '{"action_id": "r-2", "decision": "approve", "reason": "checked"}\n' | cs batch >"$WORK/out" 2>/dev/null || true
expect_eq "  and the service decides through it" "$(jq -r .status "$WORK/out")" recorded

progress "section 6: the site's default collation"
### 6. A database with the site's default collation (issue 38): here
# ICU's en-US, by which "AB-2" falls in the range of the prefix "ab"
# (from "ab" up to "ac") where bytes put it before both.  The columns
# collate C themselves, so it imports, decides, lists as SQLite does and
# finds id prefixes over byte ranges.
pg_psql postgres -c "CREATE DATABASE sitecoll TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'" >/dev/null
expect_eq "the database's own collation orders otherwise" \
	"$(q sitecoll "SELECT 'AB-2' >= 'ab' AND 'AB-2' < 'ac', 'AB-2' COLLATE \"C\" >= 'ab' AND 'AB-2' COLLATE \"C\" < 'ac'")" 't|f'
for id in ab-1 AB-2 Zz-1 Zz-2 a-3; do
	jq -c --arg id "$id" '.proposed_action.action_id = $id | .reviewer_verdict.action_id = $id' \
		"$EXAMPLES/packet-trade-pass.json"
done >"$WORK/cased.jsonl"
"$COUNTERSIGN" --db "$WORK/cased.db" import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$WORK/cased.jsonl" >/dev/null 2>&1
DB=$(pg_uri sitecoll)
expect_status "a database created with the site's collation imports" 0 \
	cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" "$EXAMPLES/holdings.json" "$WORK/cased.jsonl"
expect_eq "every text column collates C" \
	"$(q sitecoll "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND data_type = 'text' AND collation_name IS DISTINCT FROM 'C'")" 0
expect_eq "list --json in SQLite's order" "$(cs list --json | jq -r .action_id | tr '\n' ' ')" \
	"$("$COUNTERSIGN" --db "$WORK/cased.db" list --json | jq -r .action_id | tr '\n' ' ')"
expect_status "the prefix ab names ab-1 alone, as in bytes" 0 cs check ab
expect_eq "  and checks it" "$(jq -r .action_id "$WORK/out")" ab-1
expect_status "a prefix of two ids is ambiguous" 2 cs check Zz
expect_contains "  naming both" "$WORK/err" "Zz-2"
printf '{"action_id": "Zz", "decision": "approve"}\n{"action_id": "ab", "decision": "approve"}\n' >"$WORK/zz"
cs batch "$WORK/zz" >"$WORK/out" 2>"$WORK/err" || true
expect_eq "decides: an ambiguous prefix refused, a unique one recorded" \
	"$(jq -r '[.status, .action_id] | join(":")' "$WORK/out" | tr '\n' ' ')" "refused:Zz recorded:ab-1 "
expect_status "the chain verifies" 0 cs audit verify

progress "section 7: a long list, a batch at a time"
### 7. Issue 34: list, check and audit export read the whole queue or log
# through a cursor, a FETCH at a time (src/store/pg_stream.c).  A queue
# longer than a first FETCH, of every care class, some decided: list,
# list --all and check print what SQLite's store prints, byte for byte
# and in its order; but for what is counted from now (the table's age
# column, check's verdicts' ids and times).
jq -c 'range(0; 700) as $i | .proposed_action.action_id = "q-\($i)"
	| .reviewer_verdict.action_id = "q-\($i)"' "$EXAMPLES/packet-trade-pass.json" >"$WORK/long.jsonl"
jq -c 'range(0; 40) as $i | .proposed_action.action_id = "v-\($i)"
	| .reviewer_verdict.action_id = "v-\($i)"' "$EXAMPLES/packet-trade-divergent.json" >>"$WORK/long.jsonl"
jq -c . "$EXAMPLES/packet-legal-draft.json" "$EXAMPLES/packet-change.json" >>"$WORK/long.jsonl"
jq -nc 'range(0; 700; 7) | {action_id: "q-\(.)", decision: (if . % 2 == 0 then "approve" else "reject" end), reason: "long"}' >"$WORK/long-decisions.jsonl"
DB=$(pg_createdb long)
for d in "$DB" "$WORK/long.db"; do
	"$COUNTERSIGN" --db "$d" import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
		"$EXAMPLES/holdings.json" "$WORK/long.jsonl" >/dev/null 2>&1
	"$COUNTERSIGN" --db "$d" batch "$WORK/long-decisions.jsonl" >/dev/null 2>&1 || true
done
same_as_sqlite() { # WHAT FILTER ARGS...: cs ARGS | FILTER on both stores
	what=$1 filter=$2
	shift 2
	cs "$@" 2>/dev/null | $filter >"$WORK/pg.out" || true
	"$COUNTERSIGN" --db "$WORK/long.db" "$@" 2>/dev/null | $filter >"$WORK/lite.out" || true
	expect_eq "$what: $(wc -l <"$WORK/lite.out") lines, as SQLite's" \
		"$(cmp "$WORK/pg.out" "$WORK/lite.out" 2>&1 && wc -l <"$WORK/pg.out")" \
		"$(wc -l <"$WORK/lite.out")"
}
no_age() { cut -c1-105; }
# check's verdicts are made anew each run: their id and time differ, and
# the holdings' age is counted from now.
verdicts() {
	jq -c 'del(.local_verdict.verdict_id, .local_verdict.reviewed_at)
		| del(.notes[]? | select(.what == "holdings_as_of"))'
}
expect_eq "the queue is longer than a first FETCH" \
	"$(q long "SELECT count(*) > 256 FROM action WHERE status = 'pending'")" t
same_as_sqlite "list --json" cat list --json
same_as_sqlite "list --all --json" cat list --all --json
same_as_sqlite "list" no_age list
same_as_sqlite "list --all" no_age list --all
same_as_sqlite "check" verdicts check
expect_eq "audit export: every record" "$(cs audit export | wc -l)" \
	"$(q long "SELECT count(*) FROM audit_log")"
expect_eq "  and in the log's order" "$(cs audit export | jq -r .seq | sort -n -c && echo sorted)" sorted
expect_status "audit verify reads both long reads at once" 0 cs audit verify
finish
