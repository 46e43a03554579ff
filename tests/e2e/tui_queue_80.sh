#!/bin/sh
# Issue 37: at 80x24 the queue's summary keeps a trade's amount (the name
# columns give way first, and a summary still too wide is cut before its
# amount), and actions expiring within a day show the time left ("3h12m")
# in a LEFT column.  The times are relative to now and every check
# allows for the minute that may pass while it runs.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
trap 'tui_stop; rm -rf "$WORK"' EXIT

at() { date -u -d "@$(($(date +%s) + $1))" +%Y-%m-%dT%H:%M:%SZ; }
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null
# xom-soon expires in 3h12m (and half a minute), bnd-40m in 40 minutes,
# bnd-far in two days, bnd-none never.
jq -c --arg soon "$(at 11550)" --arg m40 "$(at 2430)" --arg far "$(at 172800)" '
	(.proposed_action.action_id = "f3a9c2d1-77aa-4b1e-9c3d-xom-soon"
	 | .proposed_action.ticker = "XOM" | .proposed_action.quantity = 50
	 | .proposed_action.estimated_value_usd = 5500
	 | .proposed_action.requested_by = "pm.ortiz"
	 | .proposed_action.expires_at = $soon),
	(.proposed_action.action_id = "bnd-40m"
	 | .proposed_action.expires_at = $m40),
	(.proposed_action.action_id = "bnd-far"
	 | .proposed_action.expires_at = $far),
	(.proposed_action.action_id = "bnd-none")
	| .reviewer_verdict.action_id = .proposed_action.action_id' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/packets.jsonl"
cs import "$WORK/packets.jsonl" >/dev/null

# row ID: the queue's row of the action whose id starts with ID.
row() { screen | grep -F " $1"; }

tui_start 80 24
wait_for "bnd-none"
expect_screen "80x24: the countdown has a column" "LEFT"
expect_screen "80x24: the XOM trade's summary is whole, amount and all" \
    "BUY XOM x50 \$5,500.00"
expect_eq "80x24: 3h12m left on the XOM trade" \
    "$(row f3a9c2d1 | grep -cE 'BUY XOM x50 \$5,500\.00 +3h1[12]m ')" 1
expect_eq "80x24: minutes alone under an hour" \
    "$(row bnd-40m | grep -cE '\$7,500\.00 +(39|40)m ')" 1
expect_eq "80x24: nothing left to count beyond a day" \
    "$(row bnd-far | grep -cE '\$7,500\.00 +pass')" 1
expect_eq "80x24: nor without an expiry" \
    "$(row bnd-none | grep -cE '\$7,500\.00 +pass')" 1
# Its value grows with the clock (the packets were drafted on a fixed
# day): only its form is held, never a number of days.
expect_eq "80x24: AGE is still the last column" \
    "$(row bnd-none | awk '{ print $NF }' | grep -cE '^[0-9]+[smhd]$')" 1
tui_stop

# 60 columns: too narrow for the whole summary; the cut falls before the
# amount, never on it, even when only the ellipsis is left of the rest.
tui_start 60 15
wait_for "bnd-none"
expect_eq "60x15: the amount stays, the text before it is cut" \
    "$(row f3a9c2d1 | grep -cE ' [^ ]*… \$5,500\.00 +3h1[12]m ')" 1
tui_stop

# 100 columns: room for the requester again, on its row.
tui_start 100 24
wait_for "bnd-none"
expect_screen "100x24: the requester has a column" "REQUESTER"
expect_eq "100x24: the requester is on its row" \
    "$(row f3a9c2d1 | grep -c 'pm.ortiz .* BUY XOM x50 \$5,500.00')" 1

# Expired: the E flag, no countdown, and LEFT goes with the last one.
tui_stop
jq -c --arg past "$(at -60)" '.proposed_action.action_id = "gone-1"
	| .reviewer_verdict.action_id = "gone-1"
	| .proposed_action.expires_at = $past' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/gone.jsonl"
cs import "$WORK/gone.jsonl" >/dev/null
tui_start 80 24
wait_for "gone-1"
expect_eq "an expired action counts nothing down" \
    "$(row gone-1 | grep -cE 'E trade .*\$7,500\.00 +pass')" 1
finish
