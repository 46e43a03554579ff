#!/bin/sh
# Issue 34: a decision on a version of a long artifact reads, and its
# record keeps as rule_inputs.revision_chain, only the versions its
# answers depend on (countersign-packets(5), rule_inputs): the version
# revised and every rejection that locks people out, not every version.
# audit replay reaches the same verdict on them and audit verify holds.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

. "$TOP_SRCDIR/tests/e2e/artifact_lib.sh"

artifact_setup w-0 w-1
decide() { printf '%s\n' "$1" >"$WORK/line"; expect_status "$2" "$3" cs batch "$WORK/line"; }
reject() { decide "{\"action_id\":\"$1\",\"decision\":\"reject\",\"reason\":\"no\"}" "rejecting $1" 0; }
# chain ID: the ids of the revision_chain the decision on ID recorded
chain() {
	cs audit export | jq -r --arg id "$1" 'select(.record.event == "decision"
		and .record.action_id == $id) | [.record.rule_inputs.revision_chain[].action_id] | join(",")'
}

# Thirty versions, each revising the one before, each by its own author.
i=0
while [ $i -lt 30 ]; do
	if [ $i -eq 0 ]; then extra='{}'; else extra="{\"revision_of\": \"v-$((i - 1))\"}"; fi
	version "v-$i" "w-$i" "$extra" >>"$WORK/versions.jsonl"
	i=$((i + 1))
done
cs import "$WORK/versions.jsonl" >/dev/null

reject v-29
expect_eq "the last version's rejection keeps the version it revises" "$(chain v-29)" "v-28"
reject v-10
reject v-20
decide '{"action_id":"v-21","decision":"approve","acknowledge":["divergence"]}' "approving v-21, which revises v-20" 0
expect_eq "and it was recorded" "$(jq -r .status "$WORK/out")" recorded
expect_eq "its record keeps every rejection that locks people out, in the artifact's order" \
	"$(chain v-21)" "v-10,v-20,v-29"
expect_eq "and the people they lock out" \
	"$(cs audit export | jq -c 'select(.record.action_id == "v-21") | .record.lockout.locked_out')" \
	'["w-10","w-20","w-29"]'
expect_eq "the rejection of v-10 kept what it revised" "$(chain v-10)" "v-29,v-9"

for id in v-29 v-10 v-20 v-21; do
	expect_status "audit replay of $id" 0 cs audit replay "$id"
	expect_contains "reaches the same verdict" "$WORK/out" "same inputs, same verdict"
done
expect_status "audit verify" 0 cs audit verify

# A roster author locked out by a rejection is no reassignee: the
# decision reads that rejection without reading every version.
decide '{"action_id":"v-2","decision":"reject","reason":"no","reassign_to":"w-10"}' \
	"a rejection reassigned to a locked-out author" 1
expect_eq "is refused" "$(jq -r .code "$WORK/out")" reassignee_locked_out

[ "$FAILURES" -eq 0 ] || exit 1
