#!/bin/sh
# Records that decide nothing are not lost either (SPEC 8 with 14 and
# 2.3): a batch of partial approvals under a quorum, and one of product
# owner's judgments, are killed with SIGKILL at several points, then
# resumed.  Every "partial" or "judged" answer written before the kill is
# in the store, every row has its audit record and the reverse, and the
# resumed batch adds exactly what was missing.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

ME=$(id -un)
sqlite_only "PRAGMA integrity_check" && INTEGRITY=yes || INTEGRITY=no

# consistent WHAT TABLE EVENT: audit verify, and a row per record.
consistent() {
	expect_status "$1: audit verify" 0 cs audit verify
	[ "$INTEGRITY" = no ] ||
		expect_eq "$1: integrity_check" "$(db_sql 'PRAGMA integrity_check')" ok
	expect_eq "$1: a $3 record per $2 row" \
		"$(db_sql "SELECT count(*) FROM audit_log WHERE json_extract(record_json, '\$.event') = '$3'")" \
		"$(db_sql "SELECT count(*) FROM $2")"
	expect_eq "$1: nothing decided" "$(db_sql 'SELECT count(*) FROM decision')" 0
}

# killed STATUS TABLE EVENT LINES: kill batches over slices of LINES at
# several depths, each slice of its own actions, checking after each.
killed() {
	slice=0
	for at in 1 50 200 400 700; do
		sed -n "$((slice * SLICE + 1)),$(((slice + 1) * SLICE))p" \
			"$4" >"$WORK/slice"
		slice=$((slice + 1))
		kill_batch_after "$at" "$1" "$WORK/slice" "$WORK/run"
		consistent "$1, killed after $at" "$2" "$3"
		# Whole lines only: the kill may cut the last one short.
		jq -R -r --arg s "$1" 'fromjson? | select(.status == $s) | .action_id' \
			"$WORK/run" | sort >"$WORK/said"
		db_sql "SELECT action_id FROM $2" | sort >"$WORK/stored"
		expect_eq "$1, killed after $at: every answer written is stored" \
			"$(comm -23 "$WORK/said" "$WORK/stored" | wc -l)" 0
	done
	# Resumed with the lines of the actions that have no row yet: a
	# repeated judgment would add a record but no row.
	db_sql "SELECT action_id FROM $2" | jq -R . | jq -s . >"$WORK/done"
	jq -c --slurpfile done "$WORK/done" 'select(.action_id as $a | $done[0] | index($a) | not)' \
		"$4" >"$WORK/rest"
	cs batch "$WORK/rest" >/dev/null 2>&1 || true
	consistent "$1, resumed" "$2" "$3"
}

SLICE=1000
N=$((SLICE * 5))

### 1. Partial approvals: every trade needs two officers; one approves.
printf '{"type": "approval_policy", "policy_id": "four-eyes", "version": 1, "quorum": [{"kind": "trade", "when": "always", "approvals": 2}]}\n' \
	>"$WORK/policy.json"
cs import "$WORK/policy.json" >/dev/null
import_passing_trades q "$N"
progress "imported $N trades under a quorum"
approvals q "$N" >"$WORK/approvals"
killed partial approval approval "$WORK/approvals"
expect_eq "resumed: one approval for each of the $N actions" \
	"$(db_sql "SELECT count(DISTINCT action_id) || ' ' || count(*) FROM approval")" "$N $N"
expect_eq "... all still pending" \
	"$(db_sql "SELECT count(*) FROM action WHERE status = 'pending'")" "$N"
progress "partial approvals killed and resumed"

### 2. Judgments: the requester judges each change's NEEDS-PO criterion.
cs import "$EXAMPLES/standards_index.json" >/dev/null
jq -c --arg me "$ME" --argjson n "$N" 'range(0; $n) as $i
	| .proposed_action.action_id = "j-\($i)"
	| .proposed_action.pr_url = "https://example.invalid/pr/\($i)"
	| .proposed_action.requested_by = $me
	| .reviewer_verdict.action_id = "j-\($i)"' \
	"$EXAMPLES/packet-change.json" >"$WORK/changes.jsonl"
cs import "$WORK/changes.jsonl" >/dev/null
progress "imported $N changes"
jq -nc --argjson n "$N" 'range(0; $n) |
	{action_id: "j-\(.)", decision: "judge", po_judgments: {"AC-3": "met"}}' \
	>"$WORK/judgments"
killed judged po_judgment po_judgment "$WORK/judgments"
expect_eq "resumed: one judgment row for each of the $N changes" \
	"$(db_sql "SELECT count(DISTINCT action_id) || ' ' || count(*) FROM po_judgment")" "$N $N"
finish
