#!/bin/sh
# The review screens through the service (SPEC 10, issue 19): the same
# screens, run by the service on the client's terminal, deciding as the
# socket's peer; open, refuse, reject, approve, another client's decision
# noticed live, a resize and a hangup passed on, no terminal refused.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }

tui_demo_trades
SOCK="$WORK/sock"
recorded() { cs audit export | jq -r --arg id "$1" 'select(.record.action_id == $id) | .record | "\(.decision) \(.reason // "") \(.operator.login)"'; }

tui_serve

expect_status "no terminal: refused as in local mode" 2 "$COUNTERSIGN" --connect "$SOCK"
expect_contains "it says so" "$WORK/err" "countersign batch"

tui_launch 80 24 "'$COUNTERSIGN' --connect '$SOCK'"
wait_for "H high stakes  x fails  ! diverges"
expect_screen "the queue, through the service" "8 pending"

keys /; keys "$DIVERGENT" Enter
wait_for "> Hx!    trade   9d2e7b10"
keys Enter
expect_screen "the detail shows both verdicts" "RULE                        ADVISORY LOCAL"
expect_screen "the advisory's escape sequence, escaped" 'advisory said: \e[2J\e]0;approved^GAll clear'
keys a
# Issue 37: the gate would refuse it, so a says why at once, no dialog.
expect_screen "a failing trade: said at once" "cannot be approved: local rules fail"
expect_eq "no dialog opened" "$(screen | grep -c "Approve $DIVERGENT")" 0
expect_eq "and nothing is recorded" "$(recorded "$DIVERGENT")" ""
keys r
expect_screen "reject dialog" "Reject $DIVERGENT"
keys 1 Enter
expect_screen "rejected" "rejected (decision"
expect_eq "recorded by the socket's peer" "$(recorded "$DIVERGENT")" "reject Violates an exclusion $(id -un)"

keys /; keys C-u "$PASS" Enter
wait_for "0b6c1d52"
keys a
expect_screen "approve dialog" "Approve $PASS"
keys Enter
expect_screen "approved" "approved (decision"
expect_eq "recorded" "$(recorded "$PASS")" "approve  $(id -un)"
keys Escape
wait_for "H high stakes  x fails  ! diverges"

# A resize reaches the screens through the client.
tm resize-window -t 0 -x 60 -y 20
expect_screen "60 columns: laid out anew" "ADV  LOCAL AGE"
tm resize-window -t 0 -x 80 -y 24
expect_screen "80x24 again: the operator is back in the header" "$(id -un)  "

# Another client decides through the service: the queue notices.
keys /; keys C-u Enter
wait_for "rev-77ab"
"$COUNTERSIGN" --connect "$SOCK" batch >/dev/null <<EOB
{"action_id": "rev-77ab-v2b", "decision": "reject", "reason": "Elsewhere", "escalate": true}
EOB
expect_screen "another client's decision shows" "rev-77ab-v2b rejected by $(id -un)"

# A hangup of the client ends the screens, terminal restored.
kill -HUP "$(tui_pid)"
expect_eq "SIGHUP ends it, exit 0" "$(tui_exit_status)" 0
expect_gone "the terminal is restored" "pending"
tui_stop
expect_status "the chain verifies" 0 "$COUNTERSIGN" --connect "$SOCK" audit verify

# SIGTERM to the service ends the screens it runs, then the service.
tui_launch 80 24 "'$COUNTERSIGN' --connect '$SOCK'"
wait_for "H high stakes  x fails  ! diverges"
kill -TERM "$SERVICE_PID"
set +e
wait "$SERVICE_PID"
expect_eq "SIGTERM: the service exits 0" $? 0
set -e
SERVICE_PID=
# Issue 37: the client says so and exits 4 (tests/e2e/tui_service_stop.sh).
expect_eq "... after the screens it ran ended, exit 4" "$(tui_exit_status)" 4
expect_screen "... saying the service stopped" "countersign: the service stopped"
finish
