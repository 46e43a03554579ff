#!/bin/sh
# SPEC v2 6 (issue 24, point 6): a decision record names the roster and
# the standards index it used by the SHA-256 of their stored JSON, each
# stored once, instead of copying them (a 64 MiB roster was once written
# into every record); audit replay resolves them, and records written
# before, with the copies, still replay.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
# A roster of 10,000 authors (the examples' own first), about 150 kB.
jq -c '.authors += [range(0; 9990) | "author-\(.)"]' "$EXAMPLES/roster.json" >"$WORK/roster.json"
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/standards_index.json" \
	"$WORK/roster.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-change.json" >/dev/null 2>&1
jq -c '.proposed_action.action_id = "second" | .reviewer_verdict.action_id = "second"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/second.json"
cs import "$WORK/second.json" >/dev/null 2>&1
{
	echo "{\"action_id\": \"$PASS\", \"decision\": \"approve\"}"
	echo '{"action_id": "second", "decision": "approve"}'
	echo '{"action_id": "NB-412", "decision": "approve", "reason": "ok", "acknowledge": ["high_stakes", "divergence"], "po_judgments": {"AC-3": "met"}}'
} >"$WORK/decide"
cs batch "$WORK/decide" >"$WORK/decided" 2>&1 || { cat "$WORK/decided"; fail "the three decisions"; }
record() { cs audit export | jq -c --arg a "$1" 'select(.record.action_id == $a) | .record'; }
record "$PASS" >"$WORK/rec"

roster_sha=$(cs audit export | jq -r 'select(.record.type == "roster") | .record.object_sha256')
expect_eq "the record names the roster by the digest of its import" \
	"$(jq -r .rule_inputs.roster_sha256 "$WORK/rec")" "$roster_sha"
expect_eq "and copies neither roster nor index" \
	"$(jq -c '.rule_inputs | [has("roster"), has("standards_index")]' "$WORK/rec")" '[false,false]'
expect_eq "a record stays small beside a 10,000-author roster" \
	"$([ "$(wc -c <"$WORK/rec")" -lt 20000 ] && echo small)" small
expect_eq "a trade names no standards index" "$(jq -r .rule_inputs.standards_index_sha256 "$WORK/rec")" null
expect_eq "the change names the index" \
	"$(record NB-412 | jq -r .rule_inputs.standards_index_sha256)" \
	"$(cs audit export | jq -r 'select(.record.type == "standards_index") | .record.object_sha256')"
expect_eq "three decisions, each object stored once" \
	"$(db_sql "SELECT type || ':' || count(*) FROM policy_object GROUP BY type ORDER BY type" | tr '\n' ' ')" \
	"roster:1 standards_index:1 "
expect_eq "stored byte for byte under its digest" \
	"$(db_sql "SELECT $(sql_hex json) FROM policy_object WHERE type = 'roster'" | xxd -r -p | sha256sum | cut -c1-64)" \
	"$roster_sha"
expect_status "replay resolves them" 0 cs audit replay "$PASS"
expect_contains "same inputs, same verdict" "$WORK/out" "same inputs, same verdict"
expect_status "the change too" 0 cs audit replay NB-412

# A new roster: the first decision still replays with the one it used.
jq -c '.authors += ["someone-new"]' "$WORK/roster.json" >"$WORK/roster2.json"
cs import "$WORK/roster2.json" >/dev/null 2>&1
jq -c '.proposed_action.action_id = "third" | .reviewer_verdict.action_id = "third"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/third.json"
cs import "$WORK/third.json" >/dev/null 2>&1
echo '{"action_id": "third", "decision": "approve"}' | cs batch >/dev/null 2>&1
expect_eq "two rosters stored" "$(db_sql "SELECT count(*) FROM policy_object WHERE type = 'roster'")" 2
expect_status "the first decision replays against its own roster" 0 cs audit replay "$PASS"
expect_status "the last against the new one" 0 cs audit replay third

# A record written before (the roster and index copied in): still replays.
seq=$(db_sql "SELECT audit_seq FROM decision WHERE action_id = 'second'")
old=$(db_sql "SELECT record_json FROM audit_log WHERE seq = $seq" |
	jq -c --slurpfile r "$WORK/roster.json" \
	'.rule_inputs |= (del(.roster_sha256, .standards_index_sha256) + {standards_index: null, roster: $r[0]})')
OLD=$(db_copy old)
printf '%s' "$old" >"$WORK/old-record"
db_tamper "$OLD" audit_log_no_update "
	UPDATE audit_log SET record_json = $(sql_file_text "$WORK/old-record") WHERE seq = $seq"
expect_status "an older record, inputs copied, still replays" 0 \
	"$COUNTERSIGN" --db "$OLD" audit replay second
expect_contains "with the same verdict" "$WORK/out" "same inputs, same verdict"

# A policy object changed under its name: replay says so, exit 4.
TAMPERED=$(db_copy tampered)
db_tamper "$TAMPERED" policy_object_no_update "
	UPDATE policy_object SET json = replace(json, 'author-1\"', 'author-X\"')
	WHERE sha256 = '$roster_sha'"
expect_status "a policy object that lost its digest: storage error" 4 \
	"$COUNTERSIGN" --db "$TAMPERED" audit replay "$PASS"
expect_contains "it says so" "$WORK/err" "no longer has that SHA-256"
# And one that is gone.
db_tamper "$TAMPERED" policy_object_no_delete "
	DELETE FROM policy_object WHERE sha256 = '$roster_sha'"
expect_status "a policy object that is gone: storage error" 4 \
	"$COUNTERSIGN" --db "$TAMPERED" audit replay "$PASS"
expect_contains "it says so" "$WORK/err" "is not stored"
# The database refuses to change or drop one.
expect_eq "UPDATE of a policy object refused" \
	"$(db_sql "UPDATE policy_object SET type = 'x'" 2>&1 | grep -c immutable)" 1
# SQLite's REPLACE; PostgreSQL's plain INSERT, which the same trigger skips.
if on_pg; then REPLACE=INSERT; else REPLACE="INSERT OR REPLACE"; fi
expect_eq "REPLACE of one keeps it" \
	"$(db_sql "$REPLACE INTO policy_object VALUES ('$roster_sha', 'roster', '{}');
	  SELECT CASE WHEN length(json) > 2 THEN 1 ELSE 0 END FROM policy_object WHERE sha256 = '$roster_sha'")" 1
finish
