#!/bin/sh
# SPEC 7 (v2): wherever a command takes an ACTION_ID, a unique prefix of one
# names it; an ambiguous prefix is a usage error that lists the matches, and
# an id that is also the prefix of another id still names itself.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

import_passing_trades pfx 3
# Three actions whose ids share "pfx-"; add one whose id is a prefix of
# another's, and one whose id holds the characters LIKE and GLOB treat
# as patterns.
jq -c '.proposed_action.action_id = "ab" | .reviewer_verdict.action_id = "ab"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/ab.jsonl"
jq -c '.proposed_action.action_id = "abc" | .reviewer_verdict.action_id = "abc"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/ab.jsonl"
jq -c '.proposed_action.action_id = "x%_*?[y" | .reviewer_verdict.action_id = "x%_*?[y"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/ab.jsonl"
cs import "$WORK/ab.jsonl" >/dev/null

# check
expect_status "check by a unique prefix" 0 cs check pfx-1
expect_eq "it names the whole id" "$(jq -r .action_id "$WORK/out")" pfx-1
expect_status "check by an ambiguous prefix" 2 cs check pfx-
expect_eq "prints no line" "$(wc -c <"$WORK/out")" 0
expect_contains "lists the matches" "$WORK/err" "pfx-0, pfx-1, pfx-2"
expect_status "an id that prefixes another names itself" 0 cs check ab
expect_eq "the exact id" "$(jq -r .action_id "$WORK/out")" ab
expect_status "a prefix of the exact id is ambiguous" 2 cs check a
expect_status "pattern characters are plain bytes" 0 cs check x%
expect_eq "x% names only x%_*?[y" "$(jq -r .action_id "$WORK/out")" 'x%_*?[y'
expect_status "... and an unknown prefix is unknown" 1 cs check 'x_'
expect_contains "named as unknown" "$WORK/err" "unknown action"
expect_status "ambiguity is a usage error even among good ids" 2 \
	cs check pfx-0 pfx-
expect_eq "and nothing is printed for the good one" "$(wc -c <"$WORK/out")" 0

# batch
printf '%s\n' '{"action_id": "pfx-", "decision": "approve"}' \
	'{"action_id": "x%", "decision": "approve"}' >"$WORK/req"
expect_status "batch: an ambiguous prefix decides nothing" 1 cs batch "$WORK/req"
expect_eq "it is a bad request listing the matches" \
	"$(head -n 1 "$WORK/out" | jq -r '[.code, (.message | test("pfx-0, pfx-1, pfx-2"))] | @tsv')" \
	"$(printf 'bad_request\ttrue')"
expect_eq "the pattern prefix decided x%_*?[y" \
	"$(sed -n 2p "$WORK/out" | jq -r '[.status, .action_id] | @tsv')" \
	"$(printf 'recorded\tx%%_*?[y')"
echo '{"action_id": "pfx-2", "decision": "approve"}' >"$WORK/req"
expect_status "batch: a unique prefix is decided" 0 cs batch "$WORK/req"
expect_eq "under its whole id" "$(jq -r .action_id "$WORK/out")" pfx-2
expect_eq "the record names the whole id" \
	"$(db_sql "SELECT count(*) FROM decision WHERE action_id = 'pfx-2'")" 1

# audit replay
expect_status "audit replay by a unique prefix" 0 cs audit replay 'x%_'
expect_contains "replays the whole id" "$WORK/out" "x%_*?[y: same inputs"
expect_status "audit replay by an ambiguous prefix" 2 cs audit replay pfx-
expect_contains "lists the matches" "$WORK/err" "pfx-0, pfx-1, pfx-2"

finish
