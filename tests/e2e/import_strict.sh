#!/bin/sh
# SPEC 1 strictness: every refused file names file, line and field, exits 3
# and leaves the database exactly as it was; files are all-or-nothing.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" >/dev/null
dump >"$WORK/before"

PACKET='{"type":"packet","kind":"trade","proposed_action":{"action_id":"ID","user_id":"u-1001","ticker":"VTI","side":"buy","quantity":1,"estimated_value_usd":100,"ips_version_referenced":{"ips_id":"ips-7f3a","version":3}}}'
good() { printf '%s\n' "$PACKET" | sed "s/\"ID\"/\"$1\"/"; }

# refuse NAME LINE FIELD-OR-TEXT: the file $WORK/NAME must be refused.
refuse() {
	expect_status "$1 is refused" 3 cs import "$WORK/$1"
	expect_contains "$1 names file and line" "$WORK/err" "$WORK/$1:$2:"
	expect_contains "$1 says what" "$WORK/err" "$3"
	dump >"$WORK/after"
	if cmp -s "$WORK/before" "$WORK/after"; then pass "$1 changed nothing"
	else fail "$1 changed the database"; fi
}

{ good ok-1; good ok-2; printf '%s\n' "$PACKET" | sed 's/"quantity":1/"quantity":0/'; } >"$WORK/third-line-bad.jsonl"
refuse third-line-bad.jsonl 3 "proposed_action.quantity: must be greater than 0"

printf '%s\n' '{"type":"packet","kind":"trade","proposed_action":' >"$WORK/truncated.jsonl"
refuse truncated.jsonl 1 "malformed JSON"

{ good ok-3; printf '%s x\n' "$PACKET"; } >"$WORK/trailing.jsonl"
refuse trailing.jsonl 2 "unexpected text after the JSON value"

printf '%s\n' "$PACKET" | sed 's/"side":"buy"/"side":"buy","side":"sell"/' >"$WORK/dupkey.jsonl"
refuse dupkey.jsonl 1 "proposed_action.side: duplicate key"

printf '%s\n' "$PACKET" | sed 's/"ID"/"ok\\u0000evil"/' >"$WORK/nul.jsonl"
refuse nul.jsonl 1 'the escape \u0000 (NUL) is not allowed'

printf '%s\n' "$PACKET" | sed "s/\"ID\"/\"caf$(printf '\351')\"/" >"$WORK/latin1.jsonl"
refuse latin1.jsonl 1 "invalid UTF-8"

printf '%s\n' "$PACKET" | sed 's/"estimated_value_usd":100/"estimated_value_usd":1e400/' >"$WORK/inf.jsonl"
refuse inf.jsonl 1 "not finite"

printf '%s\n' "$PACKET" | sed 's/"estimated_value_usd":100/"estimated_value_usd":"100"/' >"$WORK/string-money.jsonl"
refuse string-money.jsonl 1 "proposed_action.estimated_value_usd: must be a number, not a string"

printf '%s\n' "$PACKET" | sed 's/"user_id":"u-1001",//' >"$WORK/missing.jsonl"
refuse missing.jsonl 1 "proposed_action.user_id: required field is missing"

printf '%s\n' "$PACKET" | sed 's/"kind":"trade"/"kind":"wire_transfer"/' >"$WORK/kind.jsonl"
refuse kind.jsonl 1 'unknown packet kind "wire_transfer"'

printf '%s\n' "$PACKET" | sed 's/"type":"packet"/"type":"pocket"/' >"$WORK/type.jsonl"
refuse type.jsonl 1 'unknown type "pocket"'

long=$(head -c 300 /dev/zero | tr '\0' a)
printf '%s\n' "$PACKET" | sed "s/\"ID\"/\"$long\"/" >"$WORK/long-id.jsonl"
refuse long-id.jsonl 1 "at most 256 are allowed"

printf '{"type": "holdings", "user_id": "u-1",\n "snapshot_id": "s", "as_of": "2026-11-28T21:00:00Z",\n "cash_usd": -5, "positions": []}\n' >"$WORK/pretty.json"
refuse pretty.json 3 "cash_usd: must be 0 or more"

printf '{"type": "holdings", "user_id": "u-1",\n "snapshot_id": "s",, "as_of": "x"}\n' >"$WORK/pretty-bad.json"
refuse pretty-bad.json 2 "malformed JSON"

printf 'not json at all\n' >"$WORK/text.json"
refuse text.json 1 "malformed JSON"

# A line over 1 MiB, and a file over 64 MiB (sparse: nothing is written).
{ printf '{"type":"roster","authors":["'; head -c 1100000 /dev/zero | tr '\0' a; printf '"]}\n'; } >"$WORK/long-line.jsonl"
refuse long-line.jsonl 1 "at most 1 MiB"
truncate -s 70M "$WORK/huge.jsonl"
expect_status "a 70 MiB file is refused" 3 cs import "$WORK/huge.jsonl"
expect_contains "it says why" "$WORK/err" "at most 64 MiB"

# A conflict refuses the whole file; an identical re-import is a no-op.
{ good fresh-1; printf '%s\n' "$PACKET" | sed 's/"ID"/"fresh-2"/'; } >"$WORK/two.jsonl"
expect_status "two new packets import" 0 cs import "$WORK/two.jsonl"
expect_contains "both counted" "$WORK/out" "2 imported, 0 unchanged"
expect_status "the same file again is a no-op" 0 cs import "$WORK/two.jsonl"
expect_contains "nothing new" "$WORK/out" "0 imported, 2 unchanged"
dump >"$WORK/before"
{ good fresh-3; printf '%s\n' "$PACKET" | sed 's/"ID"/"fresh-1"/; s/"VTI"/"BND"/'; } >"$WORK/conflict.jsonl"
refuse conflict.jsonl 2 "conflict: action fresh-1 was already imported"

# Files in one command are independent; the exit status reports the refusal.
good other-1 >"$WORK/good.jsonl"
expect_status "a bad file beside a good one" 3 cs import "$WORK/good.jsonl" "$WORK/dupkey.jsonl"
expect_eq "the good one was imported" \
	"$(cs list --json | jq -r 'select(.action_id == "other-1") | .action_id')" other-1

# A directory: only *.json and *.jsonl, and a symlink loop does not hang.
mkdir -p "$WORK/tree/sub"
good in-tree >"$WORK/tree/sub/p.jsonl"
echo 'ignored' >"$WORK/tree/notes.txt"
ln -s .. "$WORK/tree/sub/loop"
expect_status "a directory with a symlink loop" 0 cs import "$WORK/tree"
expect_eq "its packet is in" \
	"$(cs list --json | jq -r 'select(.action_id == "in-tree") | .action_id')" in-tree

expect_status "a missing path" 3 cs import "$WORK/nope.json"

# Re-importing deeply nested extra fields is still a no-op, not 2^depth
# comparisons (cJSON_Compare's cost; found by fuzzing).
jq -c '.proposed_action.action_id = "nested" | .reviewer_verdict.action_id = "nested"
	| .x = (reduce range(0; 60) as $i ({}; {a: .}))' "$EXAMPLES/packet-trade-pass.json" >"$WORK/nested.json"
expect_status "a nested packet imports" 0 cs import "$WORK/nested.json"
expect_status "and re-imports at once" 0 timeout 20 "$COUNTERSIGN" --db "$DB" import "$WORK/nested.json"
expect_contains "as unchanged" "$WORK/out" "0 imported, 1 unchanged"
# ---- what a file is, and what it may hold (SPEC 1) ----

# accept NAME SUMMARY: the file $WORK/NAME imports, with that summary line.
accept() {
	expect_status "$1 is imported" 0 cs import "$WORK/$1"
	expect_contains "$1: $2" "$WORK/out" "$WORK/$1: $2"
	expect_eq "$1: nothing on stderr" "$(stderr_but_sink "$WORK/err" | wc -c | tr -d ' ')" 0
	dump >"$WORK/before"
}
dump >"$WORK/before"

# One object over several lines is one object, whatever its first line
# looks like: here a whole object, '{' to '}', twice.
printf '{"type": "roster", "authors": ["a"], "meta": {"x": 1}\n}\n' >"$WORK/first-line-braces.json"
accept first-line-braces.json "1 imported, 0 unchanged"
{ good one-object-2 | sed 's/}$//'; printf ', "reviewer_verdict": null}\n'; } >"$WORK/first-line-whole.json"
accept first-line-whole.json "1 imported, 0 unchanged"
# A one-line object between blank lines.
{ printf '\n\n'; good blank-around; printf '\n  \n'; } >"$WORK/blank-around.json"
accept blank-around.json "1 imported, 0 unchanged"
# JSON Lines whose first line is bad: line 1 is named, not line 2.
{ printf '{"type":"roster","authors":["a"]\n'; good jl-2; } >"$WORK/bad-first-line.jsonl"
refuse bad-first-line.jsonl 1 "malformed JSON"
# A broken pretty-printed object is reported where it breaks.
printf '{\n "type": "roster",\n "authors": ["a"]\n}\n{"type": "roster", "authors": ["b"]}\n' >"$WORK/pretty-then-more.json"
refuse pretty-then-more.json 5 "unexpected text after the JSON value"
printf '{\n "type": "roster",\n "authors": ["a"],' >"$WORK/pretty-cut.json"
refuse pretty-cut.json 3 "malformed JSON"

# -0 is 0: money and percents accept it, and rules read it as 0; a
# quantity or value must still be above 0, and a negative number too small
# for a double (it would read as -0) is refused, not taken for 0.
printf '{"type":"holdings","user_id":"u-1001","snapshot_id":"negzero","as_of":"2026-01-01T00:00:00Z","cash_usd":-0,"positions":[{"ticker":"VTI","market_value_usd":600000},{"ticker":"BND","market_value_usd":-0.0}]}\n' >"$WORK/negzero-holdings.jsonl"
accept negzero-holdings.jsonl "1 imported, 0 unchanged"
printf '{"type":"ips","ips_id":"ips-negzero","user_id":"u-9","version":1,"constraints":{"concentration_limit_percent":-0e0},"target_allocation":{"cash":{"min_percent":-0,"max_percent":-0.0}},"approval_required_above_usd":-0}\n' >"$WORK/negzero-ips.jsonl"
accept negzero-ips.jsonl "1 imported, 0 unchanged"
good negzero-trade >"$WORK/negzero-trade.jsonl"
accept negzero-trade.jsonl "1 imported, 0 unchanged"
cs check negzero-trade >"$WORK/check.json" || true
expect_eq "a -0 figure is read as 0 by the rules" \
	"$(jq -r '.local_verdict.rule_results[] | .detail // empty' "$WORK/check.json" | grep -c -e 'cannot be read' -e ' -0' || true)" 0
expect_eq "and the concentration is decided: VTI (600,000 + 100) of 600,000" \
	"$(jq -r '.local_verdict.rule_results[] | select(.rule_id == "concentration_limit") | .detail' "$WORK/check.json")" \
	"VTI would be 100.02% of the portfolio after the trade, above the 25% limit"
printf '%s\n' "$PACKET" | sed 's/"quantity":1/"quantity":-0/' >"$WORK/quantity-negzero.jsonl"
refuse quantity-negzero.jsonl 1 "proposed_action.quantity: must be greater than 0"
sed 's/"cash_usd":-0/"cash_usd":-1e-400/; s/"negzero"/"negtiny"/' "$WORK/negzero-holdings.jsonl" >"$WORK/negtiny.jsonl"
refuse negtiny.jsonl 1 "cash_usd: number is out of range"

# A bad byte names its field, and in a pretty-printed object its line.
printf '{"type":"roster","authors":["a\\u0000b"]}\n' >"$WORK/nul-field.jsonl"
refuse nul-field.jsonl 1 'authors[0]: the escape \u0000 (NUL) is not allowed in a string'
printf '{"type": "roster",\n "note": "fine",\n "authors": ["caf\351"]}\n' >"$WORK/utf8-line3.json"
refuse utf8-line3.json 3 "authors[0]: invalid UTF-8"

# A field error in a pretty-printed object names the line its value is on.
printf '{"type": "ips", "ips_id": "ips-b5", "user_id": "u-9", "version": 1,\n "constraints": {},\n "target_allocation": {\n   "equity": {"min_percent": 10, "max_percent": 20},\n   "cash": {"min_percent": 11, "max_percent": 10}}}\n' >"$WORK/minmax.json"
refuse minmax.json 5 "target_allocation.cash: min_percent is greater than max_percent"
printf '{"type": "roster",\n "authors": ["a"],\n "x": 1,\n "x": 2}\n' >"$WORK/dup-line4.json"
refuse dup-line4.json 4 "x: duplicate key"

# No object at all is nothing to import, not an error.
: >"$WORK/empty.json"
accept empty.json "0 imported, 0 unchanged"
printf '\n  \n\t\r\n' >"$WORK/blank.jsonl"
accept blank.jsonl "0 imported, 0 unchanged"
mkdir -p "$WORK/with-empty"
: >"$WORK/with-empty/a.jsonl"
good with-empty >"$WORK/with-empty/b.jsonl"
expect_status "a directory holding an empty file" 0 cs import "$WORK/with-empty"
expect_contains "says so" "$WORK/out" "a.jsonl: 0 imported, 0 unchanged"
expect_contains "and imports the rest" "$WORK/out" "b.jsonl: 1 imported, 0 unchanged"
dump >"$WORK/before"

# A byte order mark at the start is skipped; anywhere else it is a byte.
{ printf '\357\273\277{"type": "roster",\n "authors": ["bom"]}\n'; } >"$WORK/bom.json"
accept bom.json "1 imported, 0 unchanged"
{ printf '\357\273\277'; good bom-1; good bom-2; } >"$WORK/bom.jsonl"
accept bom.jsonl "2 imported, 0 unchanged"
printf '\357\273\277' >"$WORK/bom-only.json"
accept bom-only.json "0 imported, 0 unchanged"
{ good bom-3; printf '\357\273\277'; good bom-4; } >"$WORK/bom-line2.jsonl"
refuse bom-line2.jsonl 2 "this is not JSON"

# The 1 MiB line limit counts the line, not its CRLF ending.
head_text='{"type":"roster","authors":["a"],"note":"'
pad=$((1048576 - ${#head_text} - 2))
{ printf '%s' "$head_text"; head -c "$pad" /dev/zero | tr '\0' a; printf '"}\r\n'; } >"$WORK/mib-crlf.jsonl"
expect_eq "that line is 1 MiB and CRLF" "$(wc -c <"$WORK/mib-crlf.jsonl" | tr -d ' ')" 1048578
accept mib-crlf.jsonl "1 imported, 0 unchanged"
{ printf '%s' "$head_text"; head -c "$((pad + 1))" /dev/zero | tr '\0' a; printf '"}\r\n'; } >"$WORK/mib-plus-crlf.jsonl"
refuse mib-plus-crlf.jsonl 1 "the line is 1048577 bytes"

# Keys differing only in case are different keys: an unknown one is kept
# and ignored, never read for the field.  Tickers and asset classes are
# data compared ignoring case: two in one map that differ only in case
# are refused.
printf '{"type":"roster","authors":["a"],"Authors":["b"]}\n' >"$WORK/case-extra.jsonl"
accept case-extra.jsonl "1 imported, 0 unchanged"
printf '%s\n' "$PACKET" | sed 's/"ID"/"case-side"/; s/"side":"buy"/"Side":"sell","side":"buy"/' >"$WORK/case-side.jsonl"
accept case-side.jsonl "1 imported, 0 unchanged"
expect_eq "the field is read, not its case variant" \
	"$(cs list --json | jq -r 'select(.action_id == "case-side") | .summary' | cut -d' ' -f1)" BUY
printf '{"type":"security_map","securities":{"vti":{"sector":"x","asset_class":"cash"},"VTI":{"sector":"y","asset_class":"us_equity"}}}\n' >"$WORK/ticker-case.jsonl"
refuse ticker-case.jsonl 1 'securities.VTI: duplicate ticker (differs only in case from "vti")'
printf '{"type":"ips","ips_id":"ips-case","user_id":"u-9","version":1,"constraints":{},"target_allocation":{"cash":{"min_percent":0,"max_percent":10},"CASH":{"min_percent":0,"max_percent":20}}}\n' >"$WORK/class-case.jsonl"
refuse class-case.jsonl 1 'target_allocation.CASH: duplicate asset class (differs only in case from "cash")'
finish
