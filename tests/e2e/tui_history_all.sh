#!/bin/sh
# Issue 37: the history is the whole audit log, paged from the store, not
# its newest 500: with 5,000 decisions it says how many there are, G
# reaches the first of them, and / and the limit l search all of them in
# the store and find the first one.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
trap 'tui_stop; rm -rf "$WORK"' EXIT

import_passing_trades D 5001
progress "5,001 imported"
# D-0 is decided first, alone, with a reason to find it by.
echo '{"action_id": "D-0", "decision": "approve", "reason": "First of the morning"}' |
	cs batch >/dev/null
jq -nc 'range(1; 5000) | {action_id: "D-\(.)", decision: "approve"}' |
	cs batch >/dev/null
progress "5,000 decided"
expect_eq "5,000 decisions recorded" \
    "$(cs list --all --json 2>/dev/null | jq -r .status | grep -c approved)" 5000

tui_start 100 30
keys h
expect_screen "the history says how many decisions there are" \
    "decisions in the audit log: 5000"
expect_re "the newest is selected" \
    '^> #[0-9]* .* APPROVED D-4999 by'
keys G
expect_screen "G reaches the first of all 5,000, past any 500" \
    "APPROVED D-0 by"
expect_re "...selected" '^> #[0-9]* .* APPROVED D-0 by'
keys Enter
expect_screen "it opens" "reason      First of the morning"
keys q
keys g
expect_re "g: back to the newest" \
    '^> #[0-9]* .* APPROVED D-4999 by'
# / searches the whole log in the store: the first decision by its reason...
keys /; keys "first of the" Enter
expect_screen "/ says how many of all match" "decisions that match: 1 of 5000"
expect_re "/ finds the first decision" \
    '^> #[0-9]* .* APPROVED D-0 by'
keys Escape
expect_screen "Esc shows all again" "decisions in the audit log: 5000"
# ...and by its id, which the rest only start like.
keys /; keys "D-0" Enter
expect_screen "/ by id: one of 5000" "decisions that match: 1 of 5000"
expect_re "...the first decision" \
    '^> #[0-9]* .* APPROVED D-0 by'
keys Escape
# A search that keeps many: paged like the whole history.
keys /; keys "d-4" Enter
expect_screen "/ d-4: D-4 and D-4000..D-4999 and the like" \
    "decisions that match: 1111 of 5000"
keys G
expect_re "G in the search reaches its oldest, D-4" \
    '^> #[0-9]* .* APPROVED D-4 by'
keys Escape
# l: the queue's filter over the decided actions, the whole log through.
keys l "id:d-0" Enter
expect_screen "l: under the limit" "HISTORY: decisions under the limit id:d-0"
expect_screen "l finds the first decision, one of 5000" \
    "decisions that match: 1 of 5000"
expect_re "...selected" '^> #[0-9]* .* APPROVED D-0 by'
keys Escape
keys l "user:u-1001 value>7000" Enter
expect_screen "l: the packet's user and value, all 5000" \
    "decisions that match: 5000 of 5000"
keys Escape
keys l "value>8000" Enter
expect_screen "l: none over \$8,000" "decisions that match: 0 of 5000"
expect_screen "...and it says so" "Nothing matches."
keys l "colour:red" Enter
expect_screen "l: a malformed term is refused, named" \
    "filter term 'colour:red': unknown field"
expect_screen "...and the limit in force stays" "decisions that match: 0 of 5000"
finish
