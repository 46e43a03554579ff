#!/bin/sh
# The change detail as SPEC v2 2.3 wants it read (issue 22): the commit,
# the diff with its + and - lines, every standard the reviewer cites and
# whether the index has it and it applies, evidence and what it proved,
# flagged assumptions and deferred checks; and a blocked change held for
# a standard from the reject dialog, shown so in the history.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

SHA=0123456789abcdef0123456789abcdef01234567
jq -c '.standards += [{id: "ADR-010", assertion: "Tokens never reach script-readable storage",
	status: "Accepted", applies_to: {domains: ["auth"]},
	rules: [{id: "R1", level: "MUST", assertion: "No token in localStorage", fix: "Use an httpOnly cookie"}]}]' \
	"$EXAMPLES/standards_index.json" >"$WORK/index.json"
jq -c --arg sha "$SHA" '.proposed_action.action_id = "CH-auth"
	| .proposed_action.head_sha = $sha | .proposed_action.domains = ["auth"]
	| .proposed_action.diff = "--- a/s.ts\n+++ b/s.ts\n@@ -1 +1 @@\n-keep(token)\n+localStorage.t = token\n same"
	| .reviewer_verdict.ac_results[1].evidence = {file: "scripts/lint.sh", line: 12, proved: "the gate exits 1"}
	| .reviewer_verdict.standards += [{id: "ADR-010", rule: "R1", met: false, note: "stores token in localStorage"},
		{id: "ADR-999", met: true, note: "invented"}]
	| .reviewer_verdict.flagged_assumptions = ["nobody reads v1"]
	| .reviewer_verdict.deferred_checks = [{check: "e2e login", ran: false, passed: false}]' \
	"$EXAMPLES/packet-change.json" >"$WORK/auth.jsonl"
jq -c '.proposed_action.action_id = "CH-block" | .reviewer_verdict.outcome = "block"
	| .reviewer_verdict.gaps = [{class: "missing_standard", text: "no standard for git hooks"}]' \
	"$EXAMPLES/packet-change.json" >>"$WORK/auth.jsonl"
cs import "$WORK/index.json" "$WORK/auth.jsonl" >/dev/null

# flat: the screen's rows as one text, to find what wraps.
flat() { screen | tr -d '\n'; }
# expect_scrolled WHAT TEXT: scrolls the detail down until TEXT shows.
expect_scrolled() {
	rows=0
	while ! screen | grep -qF -- "$2"; do
		rows=$((rows + 1))
		if [ $rows -gt 120 ]; then
			fail "$1: scrolling never showed [$2]:"
			show_screen
			return 0
		fi
		keys j
		sleep 0.02
	done
	pass "$1"
}

tui_start 100 30
keys /; keys C-u CH-auth Enter; wait_for "search: CH-auth"; keys Enter
expect_screen "the detail names the commit" "Commit: $SHA"
expect_scrolled "the domains" "Domains: auth"
expect_scrolled "the diff's heading" "Diff"
expect_scrolled "a removed line keeps its -" "  -keep(token)"
expect_scrolled "an added line keeps its +" "  +localStorage.t = token"
expect_scrolled "evidence: the file cited" "file: scripts/lint.sh:12"
expect_scrolled "evidence: what it proved" "proved: the gate exits 1"
expect_scrolled "the cited standards" "Standards the reviewer cites"
expect_scrolled "a cited rule not met" "ADR-010 rule R1: NOT MET"
expect_scrolled "with the reviewer's note" "note: stores token in localStorage"
expect_scrolled "whether it applies" "applies: domain auth"
expect_scrolled "the rule's level and assertion" "MUST R1: No token in localStorage"
expect_scrolled "the rule's fix" "fix: Use an httpOnly cookie"
expect_scrolled "an invented standard" "not in the standards index"
expect_scrolled "the flagged assumption" "- nobody reads v1"
expect_scrolled "the deferred check" "- e2e login: NOT RUN"
keys q
wait_for "filter: "

# A change not blocked: the reject dialog does not offer to hold it.
keys /; keys C-u CH-auth Enter; wait_for "search: CH-auth"; keys r
wait_for "Reject CH-auth"
expect_gone "not blocked: no hold for a standard offered" "b blocked"
keys Escape
# The blocked change: held for its standard, nobody locked out.
keys /; keys C-u CH-block Enter; wait_for "search: CH-block"; keys r
expect_screen "blocked: the dialog offers to hold it" "b blocked: hold it until the missing standard is defined"
keys b
expect_screen "held" "Revision: none: blocked, waiting for a standard"
keys 1 Enter
expect_screen "rejected" "rejected (decision"
expect_eq "routed as blocked_on" \
	"$(cs audit export | jq -c 'select(.record.action_id == "CH-block") | .record.routing')" \
	'{"blocked_on":"missing_standard"}'
keys h
expect_screen "the history says what it waits for" \
	"blocked: waiting for a standard: no standard for git hooks"
tui_stop

finish
