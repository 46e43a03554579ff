#!/bin/sh
# SPEC v2 6 (issue 24, points 3 and 2): audit verify hashes every stored
# byte of a record (one holding a NUL, or stored as anything but text, is
# broken), and checks every column of every decision row against its
# record: the gate and the lockout read those columns.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

import_passing_trades t 4
{ approvals t 2; jq -nc '{action_id: "t-2", decision: "reject",
	reason: "no", reassign_to: "drafting-graph"}'; } >"$WORK/decisions"
cs batch "$WORK/decisions" >/dev/null
expect_status "the chain verifies" 0 cs audit verify

# append DB RECORD-HEX [AS-TEXT]: appends a record of those bytes, chained
# to the head and hashed over all of them, as a writer of the file can.
append() {
	head=$(sqlite3 "$1" "SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1")
	hash=$({ printf '%s\n' "$head"; printf '%s' "$2" | xxd -r -p; } | sha256sum | cut -c1-64)
	value="X'$2'"
	[ "${3:-}" = text ] && value="CAST(X'$2' AS TEXT)"
	sqlite3 "$1" "INSERT INTO audit_log VALUES ((SELECT max(seq) + 1 FROM
		audit_log), $value, '$head', '$hash')"
}
hex() { printf '%s' "$1" | xxd -p | tr -d '\n'; }
RECORD='{"event":"note","text":"fine"}'

# The seq an appended record gets.
NEXT=$(( $(db_sql "SELECT max(seq) FROM audit_log") + 1 ))

# A NUL, a blob: what a SQLite file can hold, and PostgreSQL's text
# column cannot.
if sqlite_only "records holding a NUL or stored as a blob"; then

# A record holding a NUL: what follows it was not hashed before.
cp "$DB" "$WORK/nul.db"
head=$(sqlite3 "$WORK/nul.db" "SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1")
prefix_hash=$(printf '%s\n%s' "$head" "$RECORD" | sha256sum | cut -c1-64)
sqlite3 "$WORK/nul.db" "INSERT INTO audit_log VALUES ((SELECT max(seq) + 1
	FROM audit_log), CAST(X'$(hex "$RECORD")00$(hex '{"forged":1}')' AS TEXT),
	'$head', '$prefix_hash')"
expect_status "a record with a NUL, hashed up to it: broken" 1 \
	"$COUNTERSIGN" --db "$WORK/nul.db" audit verify
expect_contains "it says why" "$WORK/out" "BROKEN at seq $NEXT: the record holds a NUL byte"
cp "$DB" "$WORK/nul-all.db"
append "$WORK/nul-all.db" "$(hex "$RECORD")00$(hex x)" text
expect_status "a record with a NUL, hashed whole: still broken" 1 \
	"$COUNTERSIGN" --db "$WORK/nul-all.db" audit verify
expect_contains "it says why" "$WORK/out" "the record holds a NUL byte"

# A record stored as a blob, its bytes hashed right.
cp "$DB" "$WORK/blob.db"
append "$WORK/blob.db" "$(hex "$RECORD")"
expect_status "a record stored as a blob: broken" 1 \
	"$COUNTERSIGN" --db "$WORK/blob.db" audit verify
expect_contains "it says why" "$WORK/out" "BROKEN at seq $NEXT: the record is stored as a blob, not as text"
# The same bytes as text are a good record: the test's own check.
cp "$DB" "$WORK/text.db"
append "$WORK/text.db" "$(hex "$RECORD")" text
expect_status "the same record stored as text verifies" 0 \
	"$COUNTERSIGN" --db "$WORK/text.db" audit verify
fi

# Point 2: each column of a decision row rewritten, as a writer of the
# file can (the update trigger dropped): the log is broken at its record.
# tamper COLUMN ACTION SQL-VALUE
tamper() {
	T=$(db_copy tamper)
	db_tamper "$T" decision_no_update "UPDATE decision SET $1 = $3 WHERE action_id = '$2'"
	seq=$(db_sql "SELECT audit_seq FROM decision WHERE action_id = '$2'")
	expect_status "decision.$1 rewritten to $3: broken" 1 \
		"$COUNTERSIGN" --db "$T" audit verify
	# decision_id and audit_seq an older check reports in its own words.
	case $1 in
	decision_id | audit_seq) expect_contains "decision.$1: at its record" \
		"$WORK/out" "BROKEN at seq $seq: the decision row of action $2 does not match" ;;
	*) expect_contains "decision.$1: at its record, naming the column" "$WORK/out" \
		"BROKEN at seq $seq: the decision row of action $2 does not match its decision record ($1)" ;;
	esac
}
tamper operator_login t-0 "'someone-else'"
tamper operator_uid t-0 "operator_uid + 1"
# Text in an integer column, a NUL in a text one: SQLite's loose typing.
sqlite_only "operator_uid holding text" && tamper operator_uid t-0 "operator_uid || 'x'"
tamper decided_at t-0 "'2020-01-01T00:00:00.000Z'"
sqlite_only "decided_at holding a NUL" && tamper decided_at t-0 "decided_at || char(0) || 'x'"
tamper reassign_to t-2 "'developer-agent'"
tamper reassign_to t-2 NULL
tamper reassign_to t-0 "'developer-agent'"
tamper escalate t-2 1
tamper escalate t-0 1
tamper escalate_expertise t-2 "'risk officer'"
tamper blocked_on t-2 "'missing_standard'"
tamper decision_id t-1 "'$(cat /proc/sys/kernel/random/uuid)'"
tamper audit_seq t-1 "audit_seq + 1"
# The decision itself, with the status to match (an older check reports
# it; kept so that every column is covered).
T=$(db_copy tamper)
db_tamper "$T" "decision_no_update action_decided_once" "
	UPDATE decision SET decision = 'reject' WHERE action_id = 't-1';
	UPDATE action SET status = 'rejected' WHERE action_id = 't-1'"
expect_status "decision.decision rewritten: broken" 1 \
	"$COUNTERSIGN" --db "$T" audit verify
expect_contains "decision.decision: at its record" "$WORK/out" \
	"BROKEN at seq $(db_sql "SELECT audit_seq FROM decision WHERE action_id = 't-1'"): action t-1"

finish
