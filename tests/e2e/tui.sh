#!/bin/sh
# The review screens in a real terminal (tmux): the queue and its flags,
# the detail, approving, refusing, acknowledging, rejecting, bulk approval,
# terminal injection, resizing, other officers' decisions and SIGHUP.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

tui_demo_trades
recorded() { cs audit export | jq -r --arg id "$1" 'select(.record.action_id == $id) | .record | "\(.decision) \(.reason // "")"'; }

expect_status "no terminal: refused, batch suggested" 2 cs
expect_contains "it says so" "$WORK/err" "countersign batch"

tui_start 80 24
# The legend is the screen's last line: once tmux shows it, it shows the
# rows above it too (the header alone can come first under load).
wait_for "H high stakes  x fails  ! diverges"
screen >"$WORK/queue"
expect_contains "the header counts the queue" "$WORK/queue" "8 pending"
expect_eq "failing and divergent rows first" "$(sed -n 3,5p "$WORK/queue" | cut -c3-5 | sort -u)" "Hx!"
expect_eq "the locked-out revision among them" "$(sed -n 3,5p "$WORK/queue" | cut -c3-8 | grep -c 'Hx!L')" 1
expect_contains "high stakes alone" "$WORK/queue" "  H      trade   7c41e2a0"
# rev-77ab-v2b's author is not locked out yet: nothing is deadlocked.
expect_eq "nothing deadlocked" "$(sed -n '3,$p' "$WORK/queue" | cut -c6 | grep -c D)" 0
expect_eq "expired is last" "$(grep -n 'trade' "$WORK/queue" | tail -1 | cut -c1-20 | grep -c ' E trade')" 1
expect_contains "legend" "$WORK/queue" "H high stakes  x fails  ! diverges"
expect_contains "the legend fits 80 columns" "$WORK/queue" "E expired  * tagged"
expect_contains "and so do the keys" "$WORK/queue" "? help  q quit"

# Detail of the divergent trade: both verdicts, rule by rule.
keys /; keys "$DIVERGENT" Enter
wait_for "> Hx!    trade   9d2e7b10"
keys Enter
expect_screen "detail shows both verdicts" "RULE                        ADVISORY LOCAL"
expect_screen "excluded_sector: advisory pass, local FAIL" "excluded_sector             pass     FAIL"
expect_screen "the advisory's escape sequence, escaped" 'advisory said: \e[2J\e]0;approved^GAll clear'
keys a
# Issue 37: the gate would refuse it, so a says why at once, no dialog.
expect_screen "a failing trade: said at once" "cannot be approved: local rules fail"
expect_eq "no dialog opened" "$(screen | grep -c "Approve $DIVERGENT")" 0
expect_eq "and nothing is recorded" "$(recorded "$DIVERGENT")" ""

# Reject it with a standard reason.
keys r
expect_screen "reject dialog" "Reject $DIVERGENT"
keys 1 Enter
expect_screen "rejected" "rejected (decision"
expect_eq "recorded with the standard reason" "$(recorded "$DIVERGENT")" "reject Violates an exclusion"

# Approve the passing trade: a, Enter.
keys /; keys C-u "$PASS" Enter
wait_for "0b6c1d52"
keys a
expect_screen "approve dialog" "Approve $PASS"
# h and d tick no box that is not on the screen.
keys h d Enter
expect_screen "approved" "approved (decision"
expect_eq "recorded in the audit log" "$(recorded "$PASS")" "approve "
expect_eq "acknowledging nothing it was not shown" \
	"$(cs audit export | jq -c --arg id "$PASS" 'select(.record.action_id == $id) | .record.acknowledged')" '[]'

# High stakes need an acknowledgement and a reason.
keys /; keys C-u 7c41e2a0 Enter
wait_for "7c41e2a0"
keys a
expect_screen "the dialog lists the high stakes" "HIGH STAKES"
expect_screen "and the notes the rules leave to the officer" "Notes (for judgment; not enforced by the rules)"
keys Enter
expect_screen "refused without the acknowledgement" "Refused (high_stakes_unacknowledged)"
keys h
expect_screen "acknowledged" "[x] I have reviewed the high stakes"
keys Tab "Checked the size with the client" Enter Enter
expect_screen "recorded" "approved (decision"
expect_eq "with its reason" "$(recorded 7c41e2a0-0a8b-4b55-9d3e-1f2a3b4c5d60)" "approve Checked the size with the client"

# Bulk approve: a clean tagged item is approved, an unclean one left.
keys /; keys C-u Enter
wait_for "4a1f0c33"
keys /; keys C-u 4a1f0c33 Enter; wait_for "4a1f0c33"; keys t
keys /; keys C-u 9f3b77c2 Enter; wait_for "9f3b77c2"; keys t
keys /; keys C-u Enter
wait_for "*"
keys A
expect_screen "bulk approval says first what it will do" "1 will be approved, 1 skipped"
keys 1 Enter
expect_screen "bulk approval reports what it left" "1 approved, 1 left tagged"
expect_eq "the clean one is approved" "$(recorded 4a1f0c33-8e2d-4f6a-b1c9-7d5e3a2b1c04)" "approve Reviewed; within policy"
expect_eq "the unclean one is not" "$(recorded 9f3b77c2-6d1a-4e8b-a0c5-3e9d2f1b7a66)" ""

# An injection packet moves nothing and sets no title.
tm select-pane -t 0 -T "cs-title"
keys /; keys C-u 9f3b77c2 Enter; wait_for "9f3b77c2"; keys Enter
expect_screen "its rationale shows escaped" 'Rationale: Quality tech name.\e]52;c;Y3VybCBldmlsfHNo^G'
expect_screen "its advisory detail shows escaped" '\e]0;approved^G\e[2J All'
expect_screen "wrapped at a word, the rest escaped too" '↪  clear^M<U+202E>evil'
expect_eq "the pane title is unchanged" "$(tm display-message -p -t 0 '#{pane_title}')" "cs-title"
expect_eq "the first line is still the detail header" "$(screen | head -1 | cut -c1-14)" "trade 9f3b77c2"
keys q

# Resize to 60x20 and back.  The column checks wait for a redraw that
# only a countersign laid out anew shows: tmux alone would cut the
# 80-column screen at column 60, the verdict columns with it (and cannot
# show anything wider than the pane, so that needs no check).  The key
# line shows either way: a shorter tmux window keeps its bottom rows.
tm resize-window -t 0 -x 60 -y 20
expect_screen "60 columns: the verdict columns stay on screen" "ADV  LOCAL AGE"
expect_eq "60 columns: the header ends with its counts, not a cut operator" \
	"$(screen | head -1 | sed 's/ *$//' | grep -c 'need care$')" 1
expect_screen "20 rows: the key line is on screen" "? help  q quit"
tm resize-window -t 0 -x 80 -y 24
expect_screen "80x24 again: the operator is back in the header" "root  "

# Another officer decides: the queue notices within two seconds.
keys /; keys C-u Enter
wait_for "rev-77ab"
cs batch >/dev/null <<EOB
{"action_id": "rev-77ab-v2b", "decision": "reject", "reason": "Elsewhere", "escalate": true}
EOB
expect_screen "the queue says who decided, by the id's unique prefix" \
	"rev-77ab-v2b rejected by root"

# SIGHUP ends it, terminal restored, promptly (see tui_exit_status).
kill -HUP "$(tui_pid)"
expect_eq "SIGHUP ends it, exit 0" "$(tui_exit_status)" 0
expect_gone "the terminal is restored: the queue is gone from it" "pending"

# A vanished terminal (the SSH connection drops) ends it too, no busy loop.
# The pane's shell ignores the hangup (see tui_launch), so this is the
# hung-up terminal alone, without the SIGHUP tested above.
tui_start 80 24
tui_vanish
[ -n "$vanished_cs" ] || fail "countersign was running when the terminal went"
# One verdict, taken in the loop: asking again after it could see the
# process end in between and report a state it no longer has.
tries=0
ended=no
while [ $tries -lt 600 ]; do
	if ! alive "$vanished_cs"; then
		ended=yes
		break
	fi
	sleep 0.05
	tries=$((tries + 1))
done
if [ $ended = yes ]; then
	pass "a vanished terminal ends it within five seconds"
else
	grep -E '^(State|TracerPid)' "/proc/$vanished_cs/status" 2>/dev/null |
		sed 's/^/    /' || true
	kill -9 "$vanished_cs" 2>/dev/null || true
	fail "a vanished terminal ends it within five seconds"
fi
tui_reap

# Kept totals changed behind the store (a countersign from before schema 5
# still deciding after an upgrade) are recounted once the first screen is up.
counted=$(db_sql "SELECT count(*) FROM queue_index")
db_sql "UPDATE queue_totals SET pending = 999"
tui_start 80 24
wait_for "  $counted pending" &&
	pass "the header shows the queue's count, not the drifted one"
expect_eq "the kept totals are the counted ones again" \
	"$(db_sql "SELECT pending FROM queue_totals")" "$counted"

# Growing the window shows the rows above the cursor again: shrunk to one
# row of queue with the cursor on the last, then grown to room for all.
keys G
tm resize-window -t 0 -x 40 -y 6
screen_until lacks "H high stakes  x fails" || true
tm resize-window -t 0 -x 120 -y 40
tries=0
# Queue rows only: not the escalated artifacts listed under them (^).
queue_rows() { screen | grep -v '^  ^' | grep -c ' trade '; }
while [ "$(queue_rows)" -ne "$counted" ] && [ $tries -lt 600 ]; do
	sleep 0.05
	tries=$((tries + 1))
done
expect_eq "grown again, every row of the queue shows" \
	"$(queue_rows)" "$counted"
tui_stop

# A terminal that cannot move the cursor is refused like an unknown one.
tui_launch 80 24 "env TERM=dumb '$COUNTERSIGN' --db '$DB' 2>'$WORK/dumb'"
expect_eq "TERM=dumb: refused, exit 2" "$(tui_exit_status)" 2
expect_contains "TERM=dumb: it says why" "$WORK/dumb" \
	"cannot use this terminal (TERM=dumb); for scripts use 'countersign batch'"
tui_stop
# An unknown TERM is named in the refusal, escaped: it goes to a terminal.
printf 'x\033]0;pwned\007' >"$WORK/term"
tui_launch 80 24 "env TERM=\"\$(cat '$WORK/term')\" '$COUNTERSIGN' --db '$DB' 2>'$WORK/badterm'"
expect_eq "a hostile TERM: refused, exit 2" "$(tui_exit_status)" 2
expect_contains "named escaped" "$WORK/badterm" 'cannot use this terminal (TERM=x\e]0;pwned^G)'
expect_eq "no raw ESC or BEL" "$(tr -d -c '\033\007' <"$WORK/badterm" | wc -c)" 0
tui_stop

# The standard reasons come from the data directory the demo uses: here
# the data/ beside a program without COUNTERSIGN_DATA_DIR.
mkdir "$WORK/tree" "$WORK/noconfig"
cp "$COUNTERSIGN" "$WORK/tree/countersign"
cp -R "$TOP_SRCDIR/data" "$WORK/tree/data"
tui_launch 80 24 "env -u COUNTERSIGN_DATA_DIR XDG_CONFIG_HOME='$WORK/noconfig' '$WORK/tree/countersign' --db '$DB'"
wait_for "pending"
keys r
expect_screen "the reject dialog offers the data's reasons" "1 Violates an exclusion"
keys Escape
tui_stop
expect_status "the chain verifies" 0 cs audit verify
finish
