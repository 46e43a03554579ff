#!/bin/sh
# Nothing decided is lost and nothing is half-recorded: batches of 2,000
# decisions are killed with SIGKILL at several points, then resumed.  The
# lines of a file are at hand at once, so they share commits (group
# commit, SPEC 8): every "recorded" result written before the kill must
# be in the database, and a group is there whole or not at all.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

SLICE=2000
N=$((SLICE * 5))
import_passing_trades k "$N"
approvals k "$N" >"$WORK/decisions"

# On PostgreSQL the client is killed (postgresql.sh kills the server).
sqlite_only "PRAGMA integrity_check" && INTEGRITY=yes || INTEGRITY=no
consistent() {
	expect_status "$1: audit verify" 0 cs audit verify
	[ "$INTEGRITY" = no ] ||
		expect_eq "$1: integrity_check" "$(db_sql 'PRAGMA integrity_check')" ok
	approved=$(db_sql "SELECT count(*) FROM action WHERE status = 'approved'")
	expect_eq "$1: a decision row per approval" \
		"$(db_sql 'SELECT count(*) FROM decision')" "$approved"
	expect_eq "$1: an audit record per approval" \
		"$(db_sql "SELECT count(*) FROM audit_log WHERE json_extract(record_json, '\$.event') = 'decision'")" "$approved"
}

# Kill after a few decisions were recorded, at several depths, each run
# on 2,000 actions of its own: a run over the same lines found them all
# decided after a few groups of 512, and finished before the later kills.
slice=0
for at in 1 50 200 400 700; do
	sed -n "$((slice * SLICE + 1)),$(((slice + 1) * SLICE))p" \
		"$WORK/decisions" >"$WORK/slice"
	slice=$((slice + 1))
	kill_batch_after "$at" recorded "$WORK/slice" "$WORK/run"
	consistent "killed after $at more recorded"
	# Whole lines only: the kill may cut the last one short.
	jq -R -r 'fromjson? | select(.status == "recorded") | .action_id' \
		"$WORK/run" | sort >"$WORK/said"
	db_sql "SELECT action_id FROM action WHERE status = 'approved'" |
		sort >"$WORK/approved"
	expect_eq "killed after $at: every result written as recorded is recorded" \
		"$(comm -23 "$WORK/said" "$WORK/approved" | wc -l)" 0
done

# Resumed to the end: every action decided once, nothing lost.
cs batch "$WORK/decisions" >"$WORK/run" 2>/dev/null || true
consistent "after resuming"
expect_eq "all $N approved" \
	"$(db_sql "SELECT count(*) FROM action WHERE status = 'approved'")" "$N"
finish
