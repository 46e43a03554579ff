#!/bin/sh
# Faults: SIGKILL in the middle of an import, a write that fails (a file
# size limit stands in for a full disk), and databases that cannot be
# used.  Each time: a clear refusal, exit 4 where storage failed, nothing
# partial, the database intact.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

sqlite_only "PRAGMA integrity_check" && INTEGRITY=yes || INTEGRITY=no
intact() {
	[ "$INTEGRITY" = no ] ||
		expect_eq "$1: integrity_check" "$(db_sql 'PRAGMA integrity_check')" ok
	expect_status "$1: audit verify" 0 cs audit verify
}

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" "$EXAMPLES/holdings.json" >/dev/null
jq -c 'range(0; 20000) as $i | .proposed_action.action_id = "f-\($i)" | .reviewer_verdict.action_id = "f-\($i)"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/big.jsonl"

# SIGKILL during an import: the file is in wholly or not at all.
for delay in 0.05 0.15 0.3 0.6 1.0; do
	"$COUNTERSIGN" --db "$DB" import "$WORK/big.jsonl" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	n=$(db_sql 'SELECT count(*) FROM action')
	case $n in
	0|20000) pass "killed after ${delay}s: all or nothing ($n actions)" ;;
	*) fail "killed after ${delay}s: $n actions, a partial import" ;;
	esac
	intact "killed after ${delay}s"
	# The header's kept totals commit with the rows, or not at all.
	expect_eq "killed after ${delay}s: the kept totals are the rows'" \
		"$(db_sql 'SELECT pending FROM queue_totals')" \
		"$(db_sql 'SELECT count(*) FROM queue_index')"
	db_sql "DELETE FROM queue_index; DELETE FROM action;
		UPDATE queue_totals SET pending = 0, high_stakes = 0, needs_care = 0" 2>/dev/null || true
	cs import "$EXAMPLES/ips.json" >/dev/null 2>&1 || true
done

# A write that fails: past the file size limit, nothing is stored.  (On
# PostgreSQL the server writes its files: its own crash, postgresql.sh.)
if sqlite_only "a write past the file size limit"; then
rm -f "$DB" "$DB-wal" "$DB-shm"
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" "$EXAMPLES/holdings.json" >/dev/null
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
dump >"$WORK/before"
blocks=$(( $(stat -c %s "$DB") / 512 + 40 ))
set +e
(ulimit -f "$blocks"; "$COUNTERSIGN" --db "$DB" import "$WORK/big.jsonl") >"$WORK/out" 2>"$WORK/err"
status=$?
set -e
expect_eq "a failed write: exit 4" "$status" 4
expect_contains "it says what failed" "$WORK/err" "countersign: "
expect_contains "and that nothing was imported" "$WORK/err" "nothing imported from this file"
dump >"$WORK/after"
if cmp -s "$WORK/before" "$WORK/after"; then pass "a failed write changed nothing"; else fail "a failed write changed the database"; fi
intact "after a failed write"

# The same for a batch of decisions: each is whole or absent.
cs import "$EXAMPLES/packet-trade-pass.json" >/dev/null
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
echo '{"action_id": "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11", "decision": "approve"}' >"$WORK/d"
set +e
(ulimit -f 1; "$COUNTERSIGN" --db "$DB" batch "$WORK/d") >"$WORK/out" 2>"$WORK/err"
status=$?
set -e
expect_eq "a decision that cannot be written: exit 4" "$status" 4
# Whether the limit bites as the connection opens or as the decision is
# written, it is reported: on stderr, and as storage_error for a line.
if grep -q storage_error "$WORK/out" || grep -q 'countersign: .*error' "$WORK/err"; then
	pass "the failure is reported"
else
	fail "the failure is not reported"
fi
expect_eq "the action is still pending" \
	"$(sqlite3 "$DB" "SELECT status FROM action WHERE action_id LIKE '0b6c%'")" pending
intact "after a failed decision"
else
	# What follows checks with one pending action, as above.
	cs import "$EXAMPLES/packet-trade-pass.json" >/dev/null
fi

# Output that cannot be written: exit 4 and the reason, not a clean run.
if [ -c /dev/full ]; then
	for command in check list; do
		set +e
		"$COUNTERSIGN" --db "$DB" $command >/dev/full 2>"$WORK/err"
		status=$?
		set -e
		expect_eq "$command into a full disk: exit 4" "$status" 4
		expect_contains "$command says so" "$WORK/err" "cannot write the output"
	done
	for command in "audit verify" "audit export" "audit export --csv"; do
		set +e
		"$COUNTERSIGN" --db "$DB" $command >/dev/full 2>"$WORK/err"
		status=$?
		set -e
		expect_eq "$command into a full disk: exit 4" "$status" 4
		expect_contains "$command says so" "$WORK/err" \
			"countersign: cannot write the output: No space left on device"
	done
	# A batch stops at the first result it cannot write; what it had
	# recorded stays recorded, and the exit says the output was lost.
	# Lines read together share a commit (group commit, SPEC 8), so the
	# second line is sent only once the first is recorded: a group of
	# one, whose result cannot be written.
	jq -c 'range(1; 5) as $i | .proposed_action.action_id = "full-\($i)" | .reviewer_verdict.action_id = "full-\($i)"' \
		"$EXAMPLES/packet-trade-pass.json" >"$WORK/full.jsonl"
	cs import "$WORK/full.jsonl" >/dev/null
	printf '%s\n' '{"action_id":"full-1","decision":"reject","reason":"r"}' \
		'{"action_id":"full-2","decision":"reject","reason":"r"}' >"$WORK/full-batch"
	mkfifo "$WORK/full-fifo"
	"$COUNTERSIGN" --db "$DB" batch "$WORK/full-fifo" >/dev/full 2>"$WORK/err" &
	batch_pid=$!
	exec 3>"$WORK/full-fifo"
	head -n 1 "$WORK/full-batch" >&3
	tries=0
	while [ "$(db_sql "SELECT status FROM action WHERE action_id = 'full-1'")" != rejected ] &&
	      [ $tries -lt 1200 ]; do
		sleep 0.05; tries=$((tries + 1))
	done
	# It has stopped, or is stopping: this line must not be decided.
	tail -n 1 "$WORK/full-batch" >&3 2>/dev/null || true
	exec 3>&-
	set +e
	wait $batch_pid
	status=$?
	set -e
	expect_eq "batch into a full disk: exit 4" "$status" 4
	expect_contains "batch says so" "$WORK/err" "countersign: cannot write the output"
	expect_eq "its first decision stays recorded" \
		"$(db_sql "SELECT status FROM action WHERE action_id = 'full-1'")" rejected
	expect_eq "and it stopped there" \
		"$(db_sql "SELECT status FROM action WHERE action_id = 'full-2'")" pending
	sed 's/full-1/full-3/; s/full-2/full-4/' "$WORK/full-batch" >"$WORK/full-atomic"
	set +e
	"$COUNTERSIGN" --db "$DB" batch --atomic "$WORK/full-atomic" >/dev/full 2>"$WORK/err"
	status=$?
	set -e
	expect_eq "batch --atomic into a full disk: exit 4" "$status" 4
	expect_contains "batch --atomic says so" "$WORK/err" "countersign: cannot write the output"
	expect_eq "what --atomic committed stays" \
		"$(db_sql "SELECT status FROM action WHERE action_id IN ('full-3', 'full-4')" | tr '\n' ' ')" \
		"rejected rejected "
	intact "after output into a full disk"
else
	pass "no /dev/full here: output into a full disk not tried"
fi

# Databases that cannot be used.
expect_status "a missing database" 4 "$COUNTERSIGN" --db "$WORK/no/such/dir/x.db" list
expect_contains "is named" "$WORK/err" "no database at $WORK/no/such/dir/x.db"
expect_eq "and not created" "$(test -e "$WORK/no" && echo yes || echo no)" no
printf 'SQLite format 3\000but not really a database, just bytes' >"$WORK/fake.db"
expect_status "a file that only looks like SQLite" 4 "$COUNTERSIGN" --db "$WORK/fake.db" list
NEWER=$(db_copy newer)
db_q "$NEWER" 'UPDATE schema_version SET version = 99'
expect_status "a database from a newer countersign" 4 "$COUNTERSIGN" --db "$NEWER" list
expect_contains "says so" "$WORK/err" "newer than this countersign understands"
expect_eq "and leaves it alone" "$(db_q "$NEWER" 'SELECT version FROM schema_version')" 99
mkdir "$WORK/dir.db"
expect_status "a directory where the database should be" 4 "$COUNTERSIGN" --db "$WORK/dir.db" list
# A decision that waits for another writer's lock: its clock starts when
# it holds the lock.  The action expires two seconds from now and another
# process holds the write lock for four: the approval must be refused as
# expired, not recorded with a time from before the wait.
if on_pg; then DB=$(db_new waits); else rm -f "$DB" "$DB-wal" "$DB-shm"; fi
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" "$EXAMPLES/holdings.json" >/dev/null
EXPIRES=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
jq -c --arg e "$EXPIRES" '.proposed_action.action_id = "soon" | .reviewer_verdict.action_id = "soon"
	| .proposed_action.expires_at = $e' "$EXAMPLES/packet-trade-pass.json" >"$WORK/soon.jsonl"
cs import "$WORK/soon.jsonl" >/dev/null
if on_pg; then
	# The lock every writer takes first (src/store/pg_db.c; schema 20).
	db_sql "BEGIN; SELECT cs_write_lock();
		SELECT pg_sleep(4); COMMIT" >/dev/null 2>&1 &
else
	printf 'BEGIN IMMEDIATE;\n.shell sleep 4\nCOMMIT;\n' | sqlite3 "$DB" >/dev/null 2>&1 &
fi
holder=$!
sleep 0.5
printf '%s\n' '{"action_id":"soon","decision":"approve"}' >"$WORK/soon-req.jsonl"
expect_status "an approval that waited past the expiry" 1 cs batch "$WORK/soon-req.jsonl"
expect_eq "is refused as expired" "$(jq -r .code "$WORK/out")" expired
wait "$holder" 2>/dev/null || true
expect_eq "and nothing is recorded" "$(db_sql 'SELECT count(*) FROM decision')" 0
finish
