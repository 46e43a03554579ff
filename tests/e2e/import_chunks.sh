#!/bin/sh
# Import reads a file a chunk of lines at a time (issue 20: one question to
# the store for a chunk's new ids, not several for each packet).  What an
# officer sees must not change: counts, the first error by line order
# across chunk boundaries, all or nothing, revisions either way round.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null
# lines N PREFIX: N passing trades PREFIX-0 ..., one a line.
lines() {
	jq -c --arg p "$2" --argjson n "$1" 'range(0; $n) as $i
		| .proposed_action.action_id = "\($p)-\($i)"
		| .reviewer_verdict.action_id = "\($p)-\($i)"' \
		"$EXAMPLES/packet-trade-pass.json"
}
# Line K of a file replaced by TEXT.
replace_line() { awk -v k="$2" -v t="$3" 'NR == k { print t; next } { print }' "$1"; }
count() { cs list --json | jq -r .action_id | grep -c "^$1-" || true; }

lines 600 c >"$WORK/c.jsonl"
# Line 551 repeats line 6 byte for byte: the same action, unchanged.
replace_line "$WORK/c.jsonl" 551 "$(sed -n 6p "$WORK/c.jsonl")" >"$WORK/dup.jsonl"
expect_status "a file of 600 lines with one repeated" 0 cs import "$WORK/dup.jsonl"
expect_contains "599 new, the repeat unchanged" "$WORK/out" "599 imported, 1 unchanged"
expect_eq "599 queued" "$(count c)" 599
expect_status "the same file again" 0 cs import "$WORK/dup.jsonl"
expect_contains "all unchanged" "$WORK/out" "0 imported, 600 unchanged"

# A conflict (an id again with other content) in a later chunk.
lines 600 d >"$WORK/d.jsonl"
other=$(sed -n 8p "$WORK/d.jsonl" | jq -c '.proposed_action.rationale = "changed"')
replace_line "$WORK/d.jsonl" 580 "$other" >"$WORK/conflict.jsonl"
expect_status "an id again with other content, line 580" 3 cs import "$WORK/conflict.jsonl"
expect_contains "is reported at its line" "$WORK/err" "conflict.jsonl:580:"
expect_eq "and nothing of the file is imported" "$(count d)" 0

# The first error by line: a conflict at 300 before bad JSON at 400 (the
# same chunk), bad JSON at 270 before a conflict at 300.
replace_line "$WORK/d.jsonl" 300 "$other" | replace_line /dev/stdin 400 '{"broken":' \
	>"$WORK/first1.jsonl"
expect_status "a conflict before bad JSON" 3 cs import "$WORK/first1.jsonl"
expect_contains "reports the conflict's line" "$WORK/err" "first1.jsonl:300:"
replace_line "$WORK/d.jsonl" 300 "$other" | replace_line /dev/stdin 270 '{"broken":' \
	>"$WORK/first2.jsonl"
expect_status "bad JSON before a conflict" 3 cs import "$WORK/first2.jsonl"
expect_contains "reports the bad line" "$WORK/err" "first2.jsonl:270:"
expect_eq "neither file imported anything" "$(count d)" 0

# Revisions across chunks, either way round: line 10 revises line 500's
# action, line 520 revises line 3's; both are versions of one artifact.
lines 600 e | jq -c 'if .proposed_action.action_id == "e-9" then .proposed_action.revision_of = "e-499"
	elif .proposed_action.action_id == "e-519" then .proposed_action.revision_of = "e-2" else . end' \
	>"$WORK/e.jsonl"
expect_status "revisions that point across chunks" 0 cs import "$WORK/e.jsonl"
expect_eq "all 600 queued" "$(count e)" 600
printf '%s\n' '{"action_id":"e-499","decision":"reject","reason":"no"}' \
	'{"action_id":"e-2","decision":"reject","reason":"no"}' >"$WORK/rejects"
expect_status "rejecting the originals" 0 cs batch "$WORK/rejects"
for id in e-9 e-519; do
	cs check "$id" >"$WORK/$id.check" || true
	expect_eq "$id is seen as a version of the rejected one" \
		"$(jq -c '[.local_verdict.rule_results[] | select(.rule_id == "author_lockout") | .passed]' "$WORK/$id.check")" \
		'[false]'
done


# Four imports at once, two of the same new file: the ids asked about
# before the write lock was won must not pass for new after it.  One of
# the two stores the file, the other finds it all unchanged.
lines 600 s >"$WORK/same.jsonl"
lines 300 t >"$WORK/t.jsonl"
lines 300 u >"$WORK/u.jsonl"
for f in same same t u; do
	"$COUNTERSIGN" --db "$DB" import "$WORK/$f.jsonl" >>"$WORK/concurrent.out" 2>>"$WORK/concurrent.err" &
done
wait
expect_eq "the shared file: stored once, found unchanged once" \
	"$(grep 'same.jsonl' "$WORK/concurrent.out" | sed 's/.*: //' | sort | tr '\n' ';')" \
	"0 imported, 600 unchanged;600 imported, 0 unchanged;"
expect_eq "no import failed" "$(stderr_but_sink "$WORK/concurrent.err" | wc -c)" 0
expect_eq "all 1,200 queued" "$(($(count s) + $(count t) + $(count u)))" 1200
expect_status "the chain verifies" 0 cs audit verify
finish
