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

printf '%s\n' "$PACKET" | sed 's/"type":"packet"/"type":"packet","Type":"ips"/' >"$WORK/casekey.jsonl"
refuse casekey.jsonl 1 "differs only in case"

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
refuse pretty.json 1 "cash_usd: must be 0 or more"

printf '{"type": "holdings", "user_id": "u-1",\n "snapshot_id": "s",, "as_of": "x"}\n' >"$WORK/pretty-bad.json"
refuse pretty-bad.json 2 "malformed JSON"

: >"$WORK/empty.json"
refuse empty.json 1 "holds no JSON object"

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
finish
