#!/bin/sh
# SPEC 2.4 v3 (issue 36): every change sharing a non-empty pr_url is one
# artifact.  A version resubmitted under a new action_id, without
# revision_of or artifact_id, is still the same pull request: its
# rejected author stays locked out, at check, in the queue and at the gate.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

. "$TOP_SRCDIR/tests/e2e/artifact_lib.sh"

artifact_setup a b c
cs import "$EXAMPLES/standards_index.json" >/dev/null

# change ID AUTHOR PR_URL: the change example as ID by AUTHOR, on PR_URL
# (null: none), reviewed as passing every rule.
change() {
	jq -c --arg id "$1" --arg author "$2" --argjson pr "$3" '
		.proposed_action.action_id = $id | .proposed_action.author = $author
		| .proposed_action.pr_url = $pr
		| if $pr == null then del(.proposed_action.pr_url) else . end' \
		"$EXAMPLES/packet-change.json" >"$WORK/$1.json"
	cs import "$WORK/$1.json" >/dev/null
}
lock() {
	cs check "$1" >"$WORK/$1.check" || true
	jq -c '[.local_verdict.rule_results[] | select(.rule_id == "author_lockout") | .passed]' "$WORK/$1.check"
}
detail() {
	jq -r '.local_verdict.rule_results[] | select(.rule_id == "author_lockout") | .detail // empty' "$WORK/$1.check"
}
PR='"https://example.invalid/pr/77"'

change pr-1 a "$PR"
expect_eq "the first version of a pull request has no lockout rule" "$(lock pr-1)" '[]'
printf '%s\n' '{"action_id":"pr-1","decision":"reject","reason":"no"}' >"$WORK/line"
expect_status "rejecting it" 0 cs batch "$WORK/line"

change pr-2 a "$PR"
expect_eq "its author resubmitting the same pull request is locked out" \
	"$(lock pr-2)" '[false]'
expect_eq "named as locked out" "$(detail pr-2)" \
	"a wrote or contributed to a rejected version of this artifact and is locked out of its later versions, in any role"
change pr-3 b "$PR"
expect_eq "another author may write the next version" "$(lock pr-3)" '[true]'
expect_eq "of the pull request" "$(detail pr-3)" \
	"b may write a version of pull request https://example.invalid/pr/77"
change pr-other a '"https://example.invalid/pr/78"'
expect_eq "another pull request is another artifact" "$(lock pr-other)" '[]'
change pr-none a null
expect_eq "a change without a pull request is alone" "$(lock pr-none)" '[]'

# The queue (import's pass, which reads the artifact by index) agrees.
cs list --json >"$WORK/list.json"
expect_eq "the queue flags the locked-out resubmission" \
	"$(jq -r 'select(.action_id == "pr-2") | .flags | index("locked_out") != null' "$WORK/list.json")" true
expect_eq "and not the free author's" \
	"$(jq -r 'select(.action_id == "pr-3") | .flags | index("locked_out") != null' "$WORK/list.json")" false

# The gate refuses to approve the locked-out resubmission.
printf '%s\n' '{"action_id":"pr-2","decision":"approve","reason":"ok"}' >"$WORK/line"
expect_status "approving the locked-out resubmission" 1 cs batch "$WORK/line"
expect_contains "is refused" "$WORK/out" '"refused"'

finish
