#!/bin/sh
# Issue 21 in the review screens (tmux): the detail draws the artifact's
# versions as a tree (people, who rejected, routing, who is locked out),
# invisible characters in names show escaped, and the reject dialog of a
# deadlocked artifact escalates, naming the expertise needed.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

. "$TOP_SRCDIR/tests/e2e/artifact_lib.sh"

artifact_setup amy bo
version art-v1 amy '{"contributors": ["xi"]}' >"$WORK/v.jsonl"
cs import "$WORK/v.jsonl" >/dev/null
echo '{"action_id": "art-v1", "decision": "reject", "reason": "stale", "reassign_to": "bo"}' |
	cs batch >/dev/null
{
	version art-v2 bo '{"revision_of": "art-v1"}'
	version art-v3 "$(printf 'amy\315\217')" '{"revision_of": "art-v1"}'
} >"$WORK/v.jsonl"
cs import "$WORK/v.jsonl" >/dev/null
record() { cs audit export | jq -c --arg id "$1" "select(.record.action_id == \$id) | .record$2"; }

tui_start 120 50
keys /; keys art-v2 Enter
wait_for "art-v2"
keys Enter
expect_screen "the detail shows the artifact's versions" "VERSIONS OF THE ARTIFACT"
expect_screen "the rejected version, its people, who rejected and how routed" \
	"art-v1  amy +xi  rejected by $(id -un), reassigned to bo"
expect_screen "this action under the version it revises" "└ art-v2  bo  this action"
expect_screen "its sibling by a look-alike name, the invisible character escaped" \
	"└ art-v3  amy<U+034F>  pending"
expect_screen "who is locked out, and that rejecting it deadlocks" \
	'locked out: ["amy","xi"]; rejecting it leaves only escalation'
keys r
expect_screen "the reject dialog of a deadlocking rejection escalates" \
	"Revision: every roster author is locked out"
expect_screen "and offers to name the expertise" "x expertise needed: (any)"
keys 1
keys x
expect_screen "typing the expertise" "Expertise needed: _"
keys "fixed income" Enter
expect_screen "shown in the dialog" "x expertise needed: fixed income"
keys Enter
expect_screen "rejected" "rejected (decision"
expect_eq "routed as an escalation naming the expertise" "$(record art-v2 .routing)" \
	'{"escalate":{"expertise":"fixed income"}}'
keys Escape
expect_screen "the queue keeps the deadlocked artifact in view" \
	"ESCALATED TO A PERSON (deadlocked; waiting for a new version)"
expect_screen "naming its escalated rejection" "^      trade   art-v2    u-1001"
keys /; keys C-u Enter
version art-v4 cy '{"revision_of": "art-v2"}' >"$WORK/v4.jsonl"
cs import "$WORK/v4.jsonl" >/dev/null
expect_screen "a new version arrives, in the queue" "art-v4"
expect_gone "and the escalated artifact leaves the list of those waiting" \
	"ESCALATED TO A PERSON"
tui_stop
finish
