# Shared by the artifact tests (issue 21); sourced after lib.sh.

# artifact_setup AUTHOR...: the policy examples and a roster of AUTHORs.
artifact_setup() {
	cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
		"$EXAMPLES/holdings.json" >/dev/null
	jq -nc '{type: "roster", authors: $ARGS.positional}' --args "$@" \
		>"$WORK/roster.json"
	cs import "$WORK/roster.json" >/dev/null
}

# version ID AUTHOR EXTRA: the passing trade as ID by AUTHOR, EXTRA merged
# into proposed_action; its advisory agrees, author_lockout included.
version() {
	jq -c --arg id "$1" --arg author "$2" --argjson extra "$3" '
		.proposed_action.action_id = $id | .reviewer_verdict.action_id = $id
		| .proposed_action.author = $author
		| del(.proposed_action.requested_by)
		| .proposed_action += $extra
		| .reviewer_verdict.rule_results += [{"rule_id": "author_lockout", "passed": true}]' \
		"$EXAMPLES/packet-trade-pass.json"
}
