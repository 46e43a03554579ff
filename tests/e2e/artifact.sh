#!/bin/sh
# SPEC v2 1.1, 2.4, 5 and 8 (issue 21): the lockout covers the whole
# artifact (siblings, shared artifact_id, contributors), one approved next
# version per rejection, names compared as read, self-approval by authors
# and contributors, escalation_required and escalate {"expertise"}.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

. "$TOP_SRCDIR/tests/e2e/artifact_lib.sh"

ME=$(id -un)
artifact_setup a b c

add() { version "$@" >"$WORK/$1.json"; cs import "$WORK/$1.json" >/dev/null; }
decide() { printf '%s\n' "$1" >"$WORK/line"; expect_status "$2" "$3" cs batch "$WORK/line"; }
code() { jq -r .code "$WORK/out"; }
lock() {
	cs check "$1" >"$WORK/$1.check" || true
	jq -c '[.local_verdict.rule_results[] | select(.rule_id == "author_lockout") | .passed]' "$WORK/$1.check"
}
reject() { decide "{\"action_id\":\"$1\",\"decision\":\"reject\",\"reason\":\"no\"}" "rejecting $1" 0; }
approve() { decide "{\"action_id\":\"$1\",\"decision\":\"approve\",\"acknowledge\":[\"divergence\"]}" "$2" "$3"; }

# ---- Import: the new fields are validated, cycles refused ----
version bad-c a '{"contributors": "x"}' >"$WORK/bad-c.json"
expect_status "contributors that is not an array" 3 cs import "$WORK/bad-c.json"
expect_contains "names the field" "$WORK/err" "proposed_action.contributors"
version bad-c2 a '{"contributors": ["x", 7]}' >"$WORK/bad-c2.json"
expect_status "a contributor that is not a string" 3 cs import "$WORK/bad-c2.json"
expect_contains "names the element" "$WORK/err" "proposed_action.contributors[1]"
version bad-a a '{"artifact_id": 5}' >"$WORK/bad-a.json"
expect_status "artifact_id that is not a string" 3 cs import "$WORK/bad-a.json"
expect_contains "names the field" "$WORK/err" "proposed_action.artifact_id"
version cyc-1 a '{"revision_of": "cyc-2"}' >"$WORK/cyc-1.json"
version cyc-2 b '{"revision_of": "cyc-1"}' >"$WORK/cyc-2.json"
cs import "$WORK/cyc-1.json" >/dev/null
expect_status "a revision_of cycle" 3 cs import "$WORK/cyc-2.json"
expect_contains "is refused naming revision_of" "$WORK/err" "proposed_action.revision_of"
version cyc-3 a '{"revision_of": "cyc-3"}' >"$WORK/cyc-3.json"
expect_status "an action revising itself" 3 cs import "$WORK/cyc-3.json"
jq -c '.' "$WORK/cyc-1.json" >"$WORK/cyc-file.jsonl"
version cyc-4 a '{"revision_of": "cyc-5"}' >>"$WORK/cyc-file.jsonl"
version cyc-5 b '{"revision_of": "cyc-4"}' >>"$WORK/cyc-file.jsonl"
expect_status "a cycle within one file" 3 cs import "$WORK/cyc-file.jsonl"
expect_eq "and none of that file is imported" \
	"$(cs list --json | jq -r 'select(.action_id == "cyc-4") | .action_id')" ""

# ---- Artifact 1: contributors, look-alikes, undeclared versions ----
add v1 a '{"contributors": ["x"], "artifact_id": "art-1"}'
reject v1
add s-b b '{"revision_of": "v1"}'
expect_eq "a free author may revise" "$(lock s-b)" '[true]'
add s-x b '{"revision_of": "v1", "contributors": ["c", "X"]}'
expect_eq "a rejected version's contributor may not contribute" "$(lock s-x)" '[false]'
expect_contains "and is named" "$WORK/s-x.check" "X wrote or contributed"
add s-cyr "$(printf '\320\260')" '{"revision_of": "v1"}'
expect_eq "the locked-out author in Cyrillic is still locked out" "$(lock s-cyr)" '[false]'
add s-pad "$(printf 'a\342\240\200\315\217')" '{"revision_of": "v1"}'
expect_eq "nor padded with U+2800 and U+034F" "$(lock s-pad)" '[false]'
add u-a a '{"artifact_id": "art-1"}'
expect_eq "an undeclared version by the locked-out author fails" "$(lock u-a)" '[false]'
add u-c c '{"artifact_id": "art-1"}'
expect_eq "an undeclared version by a free author passes" "$(lock u-c)" '[true]'
add u-new a '{"artifact_id": "art-new"}'
expect_eq "a new artifact has no lockout rule" "$(lock u-new)" '[]'
approve s-b "approving the first next version" 0
add s-c c '{"revision_of": "v1"}'
expect_eq "a second next version of the same rejection fails" "$(lock s-c)" '[false]'
expect_contains "one next version per rejection" "$WORK/s-c.check" "already approved"

# ---- Artifact 2: siblings, deadlock, escalation ----
add w1 a '{}'
reject w1
add w2 b '{"revision_of": "w1"}'
reject w2
add w3 b '{"revision_of": "w1"}'
expect_eq "a sibling by the author of the rejected sibling fails" "$(lock w3)" '[false]'
add w4 c '{"revision_of": "w1"}'
expect_eq "a sibling by the last free author passes" "$(lock w4)" '[true]'
decide '{"action_id":"w4","decision":"reject","reason":"no"}' \
	"rejecting the last free author's version without routing" 1
expect_eq "is refused escalation_required" "$(code)" escalation_required
decide '{"action_id":"w4","decision":"reject","reason":"no","reassign_to":"zed"}' \
	"reassigning to someone not on the roster" 1
expect_eq "is refused reassignee_locked_out" "$(code)" reassignee_locked_out
decide '{"action_id":"w4","decision":"reject","reason":"no","escalate":"yes"}' \
	"escalate as a string" 1
expect_eq "is a bad_request" "$(code)" bad_request
decide '{"action_id":"w4","decision":"reject","reason":"no","escalate":{"who":"x"}}' \
	"escalate with an unknown field" 1
expect_eq "is a bad_request too" "$(code)" bad_request
decide '{"action_id":"w4","decision":"reject","reason":"no","escalate":{"expertise":" "}}' \
	"escalate naming no expertise" 1
expect_eq "is a bad_request as well" "$(code)" bad_request
decide '{"action_id":"w4","decision":"reject","reason":"no","escalate":{"expertise":"fixed income"}}' \
	"escalating with an expertise" 0
cs audit export >"$WORK/export"
expect_eq "the routing names the expertise" \
	"$(jq -c 'select(.record.action_id == "w4") | .record.routing' "$WORK/export")" \
	'{"escalate":{"expertise":"fixed income"}}'
expect_eq "and the record the whole roster locked out" \
	"$(jq -c 'select(.record.action_id == "w4") | .record.lockout' "$WORK/export")" \
	'{"locked_out":["a","b","c"],"deadlocked":true}'
cs audit export --csv >"$WORK/export.csv"
expect_eq "the CSV export calls it an escalation" \
	"$(grep -c '"w4".*"escalate"' "$WORK/export.csv")" 1
expect_eq "the decision row keeps the expertise" \
	"$(db_sql "SELECT escalate || '|' || escalate_expertise FROM decision WHERE action_id = 'w4'")" \
	"1|fixed income"

# ---- Self-approval: requested_by, author, contributor ----
add self-author "$ME" '{}'
approve self-author "approving one's own action" 1
expect_eq "is refused self_approval" "$(code)" self_approval
add self-contrib someone '{"contributors": ["other", "'"$(printf '%s' "$ME" | tr '[:lower:]' '[:upper:]')"'\u200b"]}'
approve self-contrib "approving an action one contributed to (in capitals, with ZWSP)" 1
expect_eq "is refused self_approval" "$(code)" self_approval
add self-other someone '{"contributors": ["other"]}'
approve self-other "approving someone else's action" 0

# ---- A deep chain: no recursion limit ----
jq -nc --argjson n 500 --slurpfile p "$WORK/w1.json" '
	range(0; $n) as $i | $p[0]
	| .proposed_action.action_id = "d-\($i)" | .reviewer_verdict.action_id = "d-\($i)"
	| .proposed_action.author = "deep-\($i)"
	| if $i > 0 then .proposed_action.revision_of = "d-\($i - 1)" else . end' \
	>"$WORK/deep.jsonl"
cs import "$WORK/deep.jsonl" >/dev/null
expect_eq "the tip of a 500-version chain is checked" "$(lock d-499)" '[false]'
expect_contains "against its whole chain" "$WORK/d-499.check" "was not rejected (it is pending)"
expect_status "the chain verifies" 0 cs audit verify
finish
