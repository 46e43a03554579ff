#!/bin/sh
# list reads the queue index (issue 34): every row it prints from there
# must be what a check now prints.  The oracle is the same store with every
# row marked stale, which list then checks again.  SPEC 2.4: a version
# whose artifact gains a rejection through a later import (two artifacts
# joined, or a rejected action the sets did not hold yet) is locked out
# from then on, in list and in the review screens' index alike.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/standards_index.json" >/dev/null

# version ID AUTHOR [KEY JSON]...: the passing trade as another version.
version() {
	v_id=$1 v_author=$2; shift 2
	v_f='.proposed_action.action_id = $id | .reviewer_verdict.action_id = $id
		| .proposed_action.author = $author | del(.proposed_action.requested_by)'
	while [ $# -gt 0 ]; do v_f="$v_f | .proposed_action.$1 = $2"; shift 2; done
	jq -c --arg id "$v_id" --arg author "$v_author" "$v_f" \
		"$EXAMPLES/packet-trade-pass.json" >"$WORK/$v_id.jsonl"
	cs import "$WORK/$v_id.jsonl" >/dev/null
}
reject() {
	printf '{"action_id":"%s","decision":"reject","reason":"no"}\n' "$1" >"$WORK/line"
	cs batch "$WORK/line" >/dev/null
}
# flags ID: list's flags of the action, then check's lockout verdict
flags() {
	cs list --json | jq -c --arg id "$1" 'select(.action_id == $id) | .flags'
	cs check "$1" | jq -c '[.local_verdict.rule_results[]
		| select(.rule_id == "author_lockout") | .passed]'
}
# no_age OPTIONS: the table without its AGE cell (the clock moves)
no_age() {
	case $1 in
	*--json*) cat ;;
	*) sed -E 's/^(.{109}) *[0-9]+[a-z]+( |$)/\1 AGE\2/' ;;
	esac
}
# fresh WHAT: list and list --json, from the index, are what checking
# every action again prints
fresh() {
	for f_v in "" --json --all "--all --json"; do
		# shellcheck disable=SC2086 # the options, split
		cs list $f_v | no_age "$f_v" >"$WORK/indexed"
		db_sql "UPDATE queue_index SET epoch = 0"
		# shellcheck disable=SC2086
		cs list $f_v | no_age "$f_v" >"$WORK/checked"
		cs import "$EXAMPLES/security_map.json" >/dev/null
		if cmp -s "$WORK/indexed" "$WORK/checked"; then
			pass "$1: list $f_v from the index is a fresh check's"
		else
			fail "$1: list $f_v from the index differs from a fresh check's"
			diff "$WORK/indexed" "$WORK/checked" | head -10
		fi
	done
	expect_eq "$1: the import's refresh left no row stale" \
		"$(db_sql "SELECT count(*) FROM queue_index WHERE epoch = 0 OR listed IS NULL")" 0
}

cs import "$EXAMPLES"/packet-*.json >/dev/null
fresh "the examples"

# Two artifacts joined: a revises r0 (bob's, rejected); rr, alice's, of
# artifact Y, is rejected too; c revises r0 within artifact Y, so a's
# artifact now holds alice's rejection, and alice is out of it.
version r0 bob; version rr alice artifact_id '"Y"'
reject r0; reject rr
version a alice revision_of '"r0"'
flags a >"$WORK/flags"
expect_eq "alice may revise r0 at first" "$(tr '\n' ' ' <"$WORK/flags")" '["divergence"] [true] '
version c dave revision_of '"r0"' artifact_id '"Y"'
flags a >"$WORK/flags"
expect_eq "once the artifacts join, alice is locked out of a, in list too" \
	"$(tr '\n' ' ' <"$WORK/flags")" '["high_stakes","local_fail","divergence","locked_out"] [false] '
fresh "after two artifacts joined"

# A rejected action new to the sets: q (carol's) and s0 (bob's) are
# rejected; b, bob's, revises q within artifact Z; d revises s0 within Z,
# which brings s0's rejection, and bob is out of b.
version s0 bob; version q carol
reject s0; reject q
version b bob revision_of '"q"' artifact_id '"Z"'
version d erin revision_of '"s0"' artifact_id '"Z"'
flags b >"$WORK/flags"
expect_eq "a rejected action joining the artifact locks bob out of b" \
	"$(tr '\n' ' ' <"$WORK/flags")" '["high_stakes","local_fail","divergence","locked_out"] [false] '
fresh "after a rejected action joined"

# Decisions on other versions: an approved sibling, a rejection.
version e frank revision_of '"q"' artifact_id '"Z"'
printf '{"action_id":"e","decision":"approve","reason":"fine","acknowledge":["divergence"]}\n' >"$WORK/line"
cs batch "$WORK/line" >"$WORK/out"
expect_eq "e is approved" "$(jq -r .status "$WORK/out")" recorded
flags b >"$WORK/flags"
expect_eq "b, another revision of q, still fails" "$(tail -1 "$WORK/flags")" '[false]'
fresh "after a sibling's decision"
reject d
fresh "after a rejection in the artifact"

finish
