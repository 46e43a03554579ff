#!/bin/sh
# SPEC 8 (v2), group commit: lines already read share a commit, each still
# decided on its own; a refused line rolls back no other line's decision;
# and a writer that waits for each answer before it sends the next line
# gets it, since a line that waits for input never waits for a commit.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
command -v timeout >/dev/null 2>&1 || { echo "timeout is needed"; exit 77; }

import_passing_trades g 1200

# A file: everything is at hand.  Refusals in the middle of a group (an
# unknown action, a malformed line, a second decision of one action) take
# nothing from the lines around them.
{
	approvals g 600
	echo '{"action_id": "nope", "decision": "approve"}'
	echo 'not json'
	echo '{"action_id": "g-5", "decision": "reject", "reason": "twice"}'
	jq -nc 'range(600; 1200) | {action_id: "g-\(.)", decision: "approve"}'
} >"$WORK/req"
expect_status "a file of 1,203 lines" 1 cs batch "$WORK/req"
expect_eq "a result per line, in order" \
	"$(jq -s -c '[.[].line] == [range(1; 1204)]' "$WORK/out")" true
expect_eq "1,200 recorded" "$(grep -c '"recorded"' "$WORK/out")" 1200
expect_eq "the three refusals" \
	"$(jq -r 'select(.status == "refused") | .code' "$WORK/out" | tr '\n' ' ')" \
	"unknown_action bad_request already_decided "
expect_eq "every recorded result is in the database" \
	"$(db_sql "SELECT count(*) FROM action WHERE status = 'approved'")" 1200
expect_eq "with a decision row each" \
	"$(db_sql 'SELECT count(*) FROM decision')" 1200
expect_status "the chain verifies" 0 cs audit verify

# A writer that sends a line, reads its answer, and only then sends the
# next: with a commit that waited for more input, the first read would
# never return (timeout fails the test instead of hanging it).
import_passing_trades i 3
mkfifo "$WORK/to" "$WORK/from"
: >"$WORK/dialogue"
"$COUNTERSIGN" --db "$DB" batch "$WORK/to" >"$WORK/from" 2>"$WORK/batch-err" &
batch_pid=$!
set +e
timeout 60 sh -c '
	. "$TOP_SRCDIR/tests/e2e/db_lib.sh"
	exec 4<"$2" 3>"$1"
	for i in 0 1 2; do
		printf "{\"action_id\": \"i-%s\", \"decision\": \"approve\"}\n" $i >&3
		IFS= read -r answer <&4 || exit 1
		printf "%s\n" "$answer" >>"$3"
		# The answer came before the next line was sent, and it is
		# already durable: the database says so.
		db_q "$4" "SELECT status FROM action WHERE action_id = '\''i-$i'\''" >>"$3"
	done
	exec 3>&-
' sh "$WORK/to" "$WORK/from" "$WORK/dialogue" "$DB"
status=$?
set -e
wait $batch_pid || true
expect_eq "each answer arrived before the next line was sent" "$status" 0
expect_eq "three answers, each recorded and committed" \
	"$(grep -c '"recorded"' "$WORK/dialogue") $(grep -c '^approved$' "$WORK/dialogue")" "3 3"

finish
