#!/bin/sh
# Issue 37: the queue's limit key l takes the SPEC 7 filter that list
# --filter takes, over the whole queue (not a screenful), says "N of M
# shown" and the expression on the first line, refuses a malformed one on
# the prompt's line naming the term and changes nothing, clears on an
# empty one; T then tags what the limit shows.  S sorts by value,
# largest first, over the whole queue, and s goes back to its order.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
trap 'tui_stop; rm -rf "$WORK"' EXIT

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null
# 40 BND trades of $7,500 (far more than a screen), 3 XOM trades (a
# $40,000, b $900, c $120,000), and 2 VTI trades for another user.
jq -c 'range(0; 40) as $i
	| .proposed_action.action_id = "bnd-\($i)"
	| .reviewer_verdict.action_id = "bnd-\($i)"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/packets.jsonl"
jq -c '(["a", 40000], ["b", 900], ["c", 120000]) as [$n, $v]
	| .proposed_action.action_id = "xom-\($n)"
	| .proposed_action.ticker = "XOM" | .proposed_action.quantity = 10
	| .proposed_action.estimated_value_usd = $v
	| .reviewer_verdict.action_id = "xom-\($n)"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/packets.jsonl"
jq -c 'range(0; 2) as $i
	| .proposed_action.action_id = "vti-\($i)"
	| .proposed_action.ticker = "VTI" | .proposed_action.user_id = "u-2002"
	| .reviewer_verdict.action_id = "vti-\($i)"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/packets.jsonl"
cs import "$WORK/packets.jsonl" >/dev/null
expect_eq "45 pending" "$(cs list --json 2>/dev/null | wc -l)" 45

tui_start 100 20
keys l
expect_screen "l asks for the limit" "limit:"
keys "ticker:XOM value>1000" Enter
expect_screen "the limit counts over the whole queue" \
    "countersign  2 of 45 shown · limit: ticker:XOM value>1000"
screen >"$WORK/limited"
expect_contains "the limit shows the XOM trade over \$1,000" "$WORK/limited" " xom-a "
expect_contains "...and the other" "$WORK/limited" " xom-c "
if grep -q "xom-b \|bnd-\|vti-" "$WORK/limited"; then
	fail "the limit shows only what matches:"; show_screen
else
	pass "the limit shows only what matches"
fi
# The same expression as list --filter gives: one parser.
expect_eq "list --filter agrees" \
    "$(cs list --json --filter 'ticker:XOM value>1000' 2>/dev/null | jq -r .action_id | sort | tr '\n' ' ')" \
    "xom-a xom-c "

# A malformed expression: refused on the prompt's line, naming the term.
keys l "ticker:XOM colour:red" Enter
expect_screen "a malformed term is refused, named" "filter term 'colour:red': unknown field"
expect_screen "...and the limit in force stays" "2 of 45 shown · limit: ticker:XOM value>1000"
keys l "value>" Enter
expect_screen "value> without N is refused, named" "filter term 'value>'"
expect_screen "...the limit still stays" "2 of 45 shown · limit: ticker:XOM value>1000"
keys j
expect_gone "the refusal goes with the next key" "filter term 'value>'"

# T tags what the limit shows, all of it, on every page.
keys l "user:u-1001" Enter
expect_screen "a limit on the user (from the packet)" "43 of 45 shown · limit: user:u-1001"
keys T
expect_screen "T tags all 43 the limit shows, not only the screenful" "43 tagged: A approve them"
keys A
expect_screen "A plans over the 43 the limit shows" "Approve 43 tagged"
keys Escape
expect_screen "back from the plan" "43 tagged"
keys T
expect_gone "T again untags them" "43 tagged"

# The flag and expiry terms, and a bare word over every field.
keys l "u-2002" Enter
expect_screen "a bare word finds the user" "2 of 45 shown · limit: u-2002"
keys l "expires<1d" Enter
expect_screen "none of them expires within a day" "0 of 45 shown · limit: expires<1d"
expect_screen "...and the queue says nothing matches" "Nothing matches."

# An empty expression clears it.
keys l Enter
expect_screen "an empty limit shows the whole queue" "countersign  45 pending"
expect_gone "...and the limit is gone from the first line" "limit:"

# S: value, largest first, over the whole queue; s from there: back to
# the queue's order.
keys S
expect_screen "S sorts by value, said on the first line" \
    "countersign  45 pending · filter: all · sort: value, largest first"
expect_re "S: the largest trade first" '^> .* xom-c .*\$120,000\.00'
second_row() { screen | sed -n 4p | grep -c ' xom-a .*\$40,000\.00'; }
expect_drawn "S: then the next largest" 1 second_row
keys G
expect_re "S: the smallest last, though it came before the \$7,500 ones" \
    '^> .* xom-b .*\$900\.00'
keys l "ticker:XOM" Enter
expect_screen "the limit keeps the value order" \
    "3 of 45 shown · limit: ticker:XOM"
rows_shown() { screen | sed -n '3,5p' | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^xom-/) print $i }' | tr '\n' ' '; }
expect_drawn "...largest to smallest" "xom-c xom-a xom-b " rows_shown
# A decision made elsewhere leaves what the limit shows, and its count.
echo '{"action_id": "xom-b", "decision": "reject", "reason": "Elsewhere"}' |
	cs batch >/dev/null 2>&1
expect_screen "a decision elsewhere: the limit counts again" \
    "2 of 44 shown · limit: ticker:XOM"
expect_gone "...and its row goes" " xom-b "
keys l Enter
keys s
expect_screen "s after value: back to the queue's order" \
    "countersign  44 pending · 4 high stakes · 4 need care"
expect_screen "...said on the status line" "sort: most care first"

# In German (the catalogue compiled here, as l10n.sh does): the first
# line under a limit.
UTF8=$(locale -a 2>/dev/null |
    grep -i -m 1 -E '^(C\.utf-?8|en_US\.utf-?8|de_DE\.utf-?8)$' || true)
mkdir -p "$WORK/locale/de/LC_MESSAGES"
if [ -n "$UTF8" ] && grep -q bindtextdomain "$COUNTERSIGN" &&
    msgfmt -o "$WORK/locale/de/LC_MESSAGES/countersign.mo" \
    "$TOP_SRCDIR/po/de.po"; then
	tui_stop
	tui_launch 100 20 "env -u LC_ALL LANGUAGE=de LANG=$UTF8 COUNTERSIGN_LOCALEDIR='$WORK/locale' '$COUNTERSIGN' --db '$DB'"
	wait_for "44"
	keys l
	expect_screen "German: the prompt" "Eingrenzung:"
	keys "ticker:xom" Enter
	expect_screen "German: the first line under a limit" \
	    "2 von 44 angezeigt · Eingrenzung: ticker:xom"
else
	echo "skip: German (no UTF-8 locale or no translations)"
fi
finish
