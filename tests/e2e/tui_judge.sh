#!/bin/sh
# SPEC 2.3 (v3), issue 36 point 7 on the review screens: the requester of a
# change, whom approval refuses, judges its NEEDS-PO criterion with J (a key
# of its own, on the key line and in the help); the detail then shows the
# judgment and who made it, and nothing is decided; the same through the
# service (--connect), the peer judging.  Another officer (an
# account run through runuser: root only) approves without judging again.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

ME=$(id -un)
cs import "$EXAMPLES/standards_index.json" >/dev/null
jq -c --arg me "$ME" '.proposed_action.action_id = "tj-1"
	| .proposed_action.requested_by = $me' \
	"$EXAMPLES/packet-change.json" >"$WORK/change.json"
cs import "$WORK/change.json" >/dev/null
record() { cs audit export | jq -c --arg id "$1" --arg e "$2" "select(.record.action_id == \$id and .record.event == \$e) | .record${3-}"; }

tui_start 100 30
keys /; keys C-u tj-1 Enter; wait_for "> "
keys Enter
expect_screen "the detail names the criterion to judge" "AC-3 awaits the product owner's judgment (J judges it)"
expect_screen "the key line offers J" "J judge  a approve"
keys '?'
expect_screen "the help screen lists J" "judge a change's NEEDS-PO criteria as its product owner"
keys q
wait_for "FLAGS"
keys Enter
wait_for "J judge"
# The requester may not approve: the gate says so.
keys a
expect_screen "approve opens its own dialog" "Approve tj-1"
keys Escape
wait_for "J judge"
keys J
expect_screen "J opens the judge dialog, not approve" "Judge tj-1 (product owner)"
expect_screen "... asking the criterion" "AC-3 The docs read clearly"
expect_screen "... saying it approves nothing" "it approves nothing"
keys Enter
expect_screen "Enter before a judgment asks for one" "Judge a criterion first"
keys m
expect_screen "m judges it met" "1 of 1 judged"
keys Enter
expect_screen "the judgment is recorded" "judgment recorded (judgment"
expect_eq "a po_judgment event, mine" \
	"$(record tj-1 po_judgment '| [.operator.login, .po_judgments]')" \
	"[\"$ME\",{\"AC-3\":\"met\"}]"
expect_eq "nothing decided" "$(record tj-1 decision)" ""
expect_screen "the detail shows who judged" "AC-3 met, judged by $ME at "
expect_gone "J is gone once nothing is left to judge" "J judge"
keys J
expect_screen "J again says there is nothing left" "no NEEDS-PO criterion left to judge"
tui_stop

# The same screens through the service (SPEC 10): J judges as the peer.
if command -v socat >/dev/null 2>&1; then
	jq -c --arg me "$ME" '.proposed_action.action_id = "tj-2"
		| .proposed_action.requested_by = $me' \
		"$EXAMPLES/packet-change.json" >"$WORK/change2.json"
	cs import "$WORK/change2.json" >/dev/null
	SOCK="$WORK/sock"
	tui_serve
	tui_launch 100 30 "'$COUNTERSIGN' --connect '$SOCK'"
	wait_for "pending"
	keys /; keys C-u tj-2 Enter; wait_for "> "
	keys Enter
	expect_screen "--connect: the detail offers J" "J judge  a approve"
	keys J; wait_for "Judge tj-2 (product owner)"; keys m Enter
	expect_screen "--connect: the judgment is recorded" "judgment recorded (judgment"
	expect_screen "--connect: ... and shown, the peer as who judged" "AC-3 met, judged by $ME at "
	tui_stop
	expect_eq "--connect: a po_judgment event, the peer's" \
		"$(record tj-2 po_judgment '| .operator.login')" "\"$ME\""
	kill "$SERVICE_PID" 2>/dev/null || true
	wait "$SERVICE_PID" 2>/dev/null || true
	SERVICE_PID=
else
	echo "skip: the screens through the service need socat"
fi

if [ "$(id -u)" -ne 0 ] || ! id daemon >/dev/null 2>&1; then
	echo "skip: the second officer needs root and the daemon account (runuser)"
	finish
	exit 0
fi
chmod 0777 "$WORK"
for f in "$DB" "$DB-wal" "$DB-shm"; do [ -f "$f" ] && chmod 0666 "$f"; done
tui_launch 100 30 "runuser -u daemon -- env COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' --db '$DB'"
wait_for "pending"
keys /; keys C-u tj-1 Enter; wait_for "> "
keys Enter
expect_screen "officer B sees the requester's judgment" "AC-3 met, judged by $ME at "
keys a
expect_screen "B: the approve dialog" "Approve tj-1"
expect_gone "B: ... asks no judgment again" "PO JUDGMENT  0 of"
keys h d 1 Enter
expect_screen "B: approved" "approved (decision"
expect_eq "B's decision, the requester's judgment counted" \
	"$(record tj-1 decision '| [.decision, .operator.login, .po_judgments]')" \
	'["approve","daemon",{"AC-3":"met"}]'
tui_stop
expect_status "the log verifies" 0 cs audit verify
finish
