#!/bin/sh
# Issue 37: the whole audit head, reachable from the status line: H shows
# its seq and hash, not cut, as plain text to copy, with the checkpoint
# audit verify --checkpoint takes.  The demo, whose database goes when
# it ends, asks nobody to keep a head.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
trap 'tui_stop; rm -rf "$WORK"' EXIT

import_passing_trades P 3
echo '{"action_id": "P-0", "decision": "approve", "reason": "ok"}' |
	cs batch >/dev/null 2>&1
cs audit verify >"$WORK/verify" 2>/dev/null
seq=$(sed -n 's/.*head seq \([0-9]*\) hash \([0-9a-f]*\).*/\1/p' "$WORK/verify")
hash=$(sed -n 's/.*head seq \([0-9]*\) hash \([0-9a-f]*\).*/\2/p' "$WORK/verify")
expect_eq "the head, as audit verify says it" "${#hash}" 64

tui_start 80 24
expect_screen "the status line leads to the head" "H audit head #$seq"
keys H
expect_screen "H: the dialog" "AUDIT HEAD: the newest record of the audit log"
expect_screen "H: its seq" "seq   $seq"
expect_screen "H: its hash, whole, on one line" "hash  $hash"
expect_screen "H: the checkpoint to keep, whole" "$seq:$hash"
expect_eq "H: the checkpoint is plain text on a line of its own" \
    "$(screen | grep -cx "$seq:$hash")" 1
expect_status "...and audit verify takes it as it reads" 0 \
    cs audit verify --checkpoint "$seq:$hash"
keys x
expect_gone "any key goes back" "AUDIT HEAD"
expect_screen "...to the queue" "H audit head #$seq"
# A decision made here moves the head, and the status line with it.
keys /; keys P-1 Enter; wait_for "> "; keys a
wait_for "Enter"; keys Enter
expect_screen "a decision moves the head on the status line" \
    "H audit head #$((seq + 1))"
keys H
expect_screen "H: the new head" "seq   $((seq + 1))"
keys x
tui_stop

# 60 columns: the hash is split in two halves, never cut.
tui_start 60 15
keys H
expect_screen "60x15: the dialog" "AUDIT HEAD"
new_hash=$(cs audit verify 2>/dev/null | sed -n 's/.*hash \([0-9a-f]*\).*/\1/p')
first=$(printf %s "$new_hash" | cut -c1-32)
second=$(printf %s "$new_hash" | cut -c33-64)
lines_of() { screen | grep -cx "$1"; }
expect_drawn "60x15: the first half on its line" 1 lines_of "$first"
expect_drawn "60x15: the second half on its line" 1 lines_of "$second"
tui_stop

# The demo: nothing to keep, on the screen or after it.
tui_launch 80 24 "env TMPDIR='$WORK' COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' demo"
wait_for "pending"
keys /; keys 0b6c1d52 Enter; wait_for "> "; keys a
wait_for "Enter"; keys Enter
expect_screen "the demo records the decision" "approved (decision "
expect_gone "...and asks nobody to keep its head" "no syslog took"
keys H
expect_screen "H in the demo: nothing to keep" "there is nothing to keep"
keys x
keys q; wait_for "Quit the demo?"; keys y
tries=0
while [ ! -s "$WORK/tui-exit" ] && [ $tries -lt 600 ]; do sleep 0.05; tries=$((tries + 1)); done
expect_eq "the demo ended" "$(cat "$WORK/tui-exit")" 0
if screen | grep -q "keep it yourself"; then
	fail "the demo's end asks to keep a deleted database's head:"; show_screen
else
	pass "the demo's end asks nobody to keep a head"
fi
finish
