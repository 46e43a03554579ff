#!/bin/sh
# The review screens through the service when the service stops (issue
# 37): at the queue, in the detail, with a dialog open and in the
# history, the screens end, the terminal is given back, the client says
# the service stopped and exits 4 (countersign(1) EXIT STATUS); killed
# outright (SIGKILL) the same, the screens' process gone too; and a
# decision in flight as the service stops is recorded and said so, and
# a bulk stops after it, saying how many it recorded.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }
command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed"; exit 77; }

tui_demo_trades
SOCK="$WORK/sock"
STOPPED="the service stopped; the review screens ended"
CUT_OFF="the service stopped without an answer"
decided() { cs audit export | jq -r --arg id "$1" 'select(.record.action_id == $id) | .record.decision'; }

# screens_open: the review screens through the service, at the queue.
screens_open() {
	tui_serve
	tui_launch 80 24 "'$COUNTERSIGN' --connect '$SOCK'"
	wait_for "H high stakes  x fails  ! diverges"
}

# service_stop WHAT SIGNAL: the service sent SIGNAL, and reaped.
service_stop() {
	kill "-$2" "$SERVICE_PID"
	set +e
	wait "$SERVICE_PID"
	status=$?
	set -e
	SERVICE_PID=
	if [ "$2" = TERM ]; then
		expect_eq "$1: the service exits 0" "$status" 0
	fi
}

# ended WHAT MESSAGE: the screens gave the terminal back, said MESSAGE,
# and the client exited 4.
ended() {
	expect_eq "$1: the client exits 4" "$(tui_exit_status)" 4
	expect_screen "$1: it says so" "countersign: $2"
	expect_gone "$1: the terminal is given back" "H high stakes"
}

# lock_hold WHAT: sqlite3 holds the store's write lock until
# stop_then_unlock.
lock_hold() {
	rm -f "$WORK/sql" "$WORK/sql.out"
	mkfifo "$WORK/sql"
	sqlite3 "$DB" <"$WORK/sql" >"$WORK/sql.out" 2>&1 &
	SQLITE_PID=$!
	exec 3>"$WORK/sql"
	echo "BEGIN IMMEDIATE; SELECT 'locked';" >&3
	i=0
	until grep -q locked "$WORK/sql.out" || [ $i -ge 600 ]; do
		sleep 0.05; i=$((i + 1)); done
	expect_contains "$1: the write lock is held" "$WORK/sql.out" locked
}

# stop_then_unlock WHAT: SIGTERM to the service; once it has told the
# screens to end (its socket is gone), the lock is let go.
stop_then_unlock() {
	kill -TERM "$SERVICE_PID"
	i=0
	while [ -e "$SOCK" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	echo "COMMIT;" >&3
	exec 3>&-
	wait "$SQLITE_PID"
	set +e
	wait "$SERVICE_PID"
	status=$?
	set -e
	SERVICE_PID=
	expect_eq "$1: the service exits 0" "$status" 0
}

# At the queue.
screens_open
service_stop "queue" TERM
ended "queue" "$STOPPED"
expect_eq "queue: said once" "$(screen | grep -c "service stopped")" 1

# In the detail.
screens_open
keys /; keys "$DIVERGENT" Enter
wait_for "> Hx!    trade   9d2e7b10"
keys Enter
wait_for "RULE                        ADVISORY LOCAL"
service_stop "detail" TERM
ended "detail" "$STOPPED"

# With the approve dialog open: it closes and nothing is recorded.
screens_open
keys /; keys "$PASS" Enter
wait_for "0b6c1d52"
keys a
wait_for "Approve $PASS"
service_stop "approve dialog" TERM
ended "approve dialog" "$STOPPED"
expect_eq "approve dialog: nothing recorded" "$(decided "$PASS")" ""

# With the reason of a rejection being typed.
screens_open
keys /; keys "$PASS" Enter
wait_for "0b6c1d52"
keys r
wait_for "Reject $PASS"
service_stop "reject dialog" TERM
ended "reject dialog" "$STOPPED"
expect_eq "reject dialog: nothing recorded" "$(decided "$PASS")" ""

# In the history.
screens_open
keys h
wait_for "HISTORY: decisions"
service_stop "history" TERM
ended "history" "$STOPPED"

# Killed outright: the connection closes with no answer; the screens'
# process ends too (as on a hangup), and only then does the client speak.
screens_open
SCREENS=$(pgrep -P "$SERVICE_PID")
keys Enter
wait_for "RULE "
service_stop "SIGKILL" KILL
ended "SIGKILL" "$CUT_OFF"
if alive "$SCREENS"; then fail "SIGKILL: the screens' process still runs"
else pass "SIGKILL: the screens' process ended"; fi
expect_status "SIGKILL: the store is sound" 0 "$COUNTERSIGN" --db "$DB" audit verify

# A decision in flight as the service stops: it waits for the write lock
# (held here by sqlite3), the service is stopped, the lock is let go: the
# decision is recorded whole, and the terminal says so after the screens.
screens_open
keys /; keys "$PASS" Enter
wait_for "0b6c1d52"
keys r
wait_for "Reject $PASS"
lock_hold "in flight"
keys 1 Enter
wait_for "Recording the decision..."
stop_then_unlock "in flight"
ended "in flight" "$STOPPED"
expect_screen "in flight: the decision is said recorded" \
	"countersign: recorded before the screens ended: 0b6c1d52"
expect_eq "in flight: recorded" "$(decided "$PASS")" "reject"
expect_status "in flight: the chain verifies" 0 "$COUNTERSIGN" --db "$DB" audit verify

# A bulk as the service stops: the decision in flight is recorded, the
# rest are not, and the count is said after the screens.
screens_open
keys f f f f
wait_for "filter: clean (bulk-eligible)"
keys T
wait_for "2 tagged"
keys A
wait_for "Approve 2 tagged"
lock_hold "bulk"
keys 1 Enter
wait_for "Recording the decision..."
stop_then_unlock "bulk"
ended "bulk" "$STOPPED"
expect_screen "bulk: the count is said" \
	"countersign: recorded before the screens ended: 1 approved, 1 left tagged"
expect_eq "bulk: one approval recorded" \
	"$(cs audit export | jq -r 'select(.record.bulk != null) | .record.decision')" "approve"
expect_eq "bulk: one of two stays pending" \
	"$(cs list --json | jq -r 'select(.action_id == "4a1f0c33-8e2d-4f6a-b1c9-7d5e3a2b1c04" or .action_id == "rev-77ab-v2b") | .action_id' | wc -l)" 1
expect_status "bulk: the chain verifies" 0 "$COUNTERSIGN" --db "$DB" audit verify
finish
