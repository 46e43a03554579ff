#!/bin/sh
# Issue 34, bad input: artifacts built to be expensive are imported and
# checked by the store's sets (no walk), and a file whose last line closes
# a revision_of cycle is refused whole.  Sizes: 10,000 siblings of one
# version, 3,000 versions sharing one artifact_id, chains of 10,000
# (bench/run times the 100,000 one; no test here reads a clock).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

. "$TOP_SRCDIR/tests/e2e/artifact_lib.sh"

artifact_setup x a b
# On PostgreSQL a tenth: each linked version there waits for a few reads
# from the server, and the sizes are about the store's sets, not the wire.
S=10000 T=3000 C=10000
if on_pg; then
	S=1000 T=300 C=1000
	echo "skip: the full sizes (SQLite only; a tenth on PostgreSQL)"
fi
lock() {
	cs check "$1" >"$WORK/$1.check" || true
	jq -r '[.local_verdict.rule_results[] | select(.rule_id == "author_lockout") | "\(.passed) \(.detail // "")"] | .[]' "$WORK/$1.check"
}
# many PREFIX N EXTRA: N versions PREFIX-0.. by author-I; EXTRA is a jq
# expression of $i merged into proposed_action.
many() {
	version "$1-seed" x '{}' | jq -c --arg p "$1" --argjson n "$2" "range(0; \$n) as \$i
		| .proposed_action.action_id = \"\(\$p)-\(\$i)\"
		| .reviewer_verdict.action_id = \"\(\$p)-\(\$i)\"
		| .proposed_action.author = \"author-\(\$i)\"
		| .proposed_action += ($3)"
}
count() { db_q "$DB" "SELECT count(*) FROM action WHERE action_id LIKE '$1-%'"; }

# 10,000 siblings of one rejected version.
version root x '{}' >"$WORK/root.json"
cs import "$WORK/root.json" >/dev/null
printf '%s\n' '{"action_id":"root","decision":"reject","reason":"no"}' >"$WORK/line"
expect_status "rejecting the root" 0 cs batch "$WORK/line"
many s $S '{revision_of: "root"}' >"$WORK/siblings.jsonl"
expect_status "10,000 siblings are imported" 0 cs import "$WORK/siblings.jsonl"
expect_eq "all of them" "$(count s)" $S
expect_eq "a sibling by a free author may revise the root" "$(lock s-$((S - 1)))" \
	"true author-$((S - 1)) may revise root"
printf '%s\n' '{"action_id":"s-17","decision":"approve","acknowledge":["divergence"]}' >"$WORK/line"
expect_status "approving one sibling" 0 cs batch "$WORK/line"
expect_eq "then the others are a second next version" "$(lock s-$((S - 1)))" \
	"false s-17, another revision of root, was already approved: one next version per rejection"

# 3,000 versions sharing one artifact_id, after a rejection of one.
version shared-0 a '{"artifact_id": "big"}' >"$WORK/shared.json"
cs import "$WORK/shared.json" >/dev/null
printf '%s\n' '{"action_id":"shared-0","decision":"reject","reason":"no"}' >"$WORK/line"
expect_status "rejecting the first of an artifact_id" 0 cs batch "$WORK/line"
many t $T '{artifact_id: "big"}' >"$WORK/shared.jsonl"
version t-a a '{"artifact_id": "big"}' >>"$WORK/shared.jsonl"
expect_status "3,000 versions of one artifact_id are imported" 0 cs import "$WORK/shared.jsonl"
expect_eq "all of them" "$(count t)" $((T + 1))
expect_eq "a free author may write one" "$(lock t-$((T - 1)))" \
	"true author-$((T - 1)) may write a version of artifact big"
expect_eq "the rejected author may not" "$(lock t-a)" \
	"false a wrote or contributed to a rejected version of this artifact and is locked out of its later versions, in any role"

# A chain of 10,000, each version revising the one before.
many c $C 'if $i > 0 then {revision_of: "c-\($i - 1)"} else {} end' >"$WORK/chain.jsonl"
expect_status "a chain of $C is imported" 0 cs import "$WORK/chain.jsonl"
expect_eq "all of it" "$(count c)" $C
expect_eq "its tip is checked against the version it revises" "$(lock c-$((C - 1)))" \
	"false the revised action c-$((C - 2)) was not rejected (it is pending)"
cs check c-0 >"$WORK/c-0.check" 2>&1
expect_eq "its root holds no lockout rule" \
	"$(jq '[.local_verdict.rule_results[] | select(.rule_id == "author_lockout")] | length' "$WORK/c-0.check")" 0

# The same chain, but its first version revises its last: the last line
# closes a cycle of $C, and nothing of the file is imported.
many w $C "if \$i > 0 then {revision_of: \"w-\\(\$i - 1)\"} else {revision_of: \"w-$((C - 1))\"} end" >"$WORK/cycle.jsonl"
expect_status "a file closing a cycle of $C is refused" 3 cs import "$WORK/cycle.jsonl"
expect_contains "at its last line, naming revision_of" "$WORK/err" "proposed_action.revision_of"
expect_contains "as a cycle" "$WORK/err" "a cycle of revisions"
expect_eq "nothing of it is imported" "$(count w)" 0
expect_eq "nor any set of it kept" \
	"$(db_q "$DB" "SELECT count(*) FROM artifact_node WHERE node LIKE 'v:w-%'")" 0
finish
