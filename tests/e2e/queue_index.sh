#!/bin/sh
# The queue index that import writes as it goes (from each packet's parsed
# tree) must be the index a full re-check writes, whatever the order of
# objects in a file: revisions before their originals, packets before the
# policy they are checked against, packets between two policy objects.
# The header's totals, kept as rows change, must stay the counted ones.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

DEMO=$TOP_SRCDIR/data/demo
policy() { for f in "$@"; do jq -c . "$DEMO/$f.json"; done; }
packets() { cat "$DEMO"/packets-*.jsonl; }
reversed() { packets | tac; }

# rows DB: what the review screens and list show of each pending action
rows() {
	db_q "$1" "SELECT action_id, kind, care, flags, who, summary,
		advisory, divergence_count, expires_at_ms, listed FROM queue_index
		ORDER BY action_id"
}
# totals DB: the header's kept totals, then the same counted afresh
totals() {
	db_q "$1" "SELECT pending || ' ' || high_stakes || ' ' || needs_care
		FROM queue_totals"
	db_q "$1" "SELECT count(*) || ' ' || coalesce(sum((flags & 1) <> 0), 0)
		|| ' ' || coalesce(sum((flags & 6) <> 0), 0) FROM queue_index"
}
# expect_totals WHAT DB: the kept totals are the counted ones
expect_totals() {
	totals "$2" >"$WORK/totals"
	if [ "$(wc -l <"$WORK/totals")" -ne 2 ]; then
		fail "$1: no kept totals to compare: $(tr '\n' ' ' <"$WORK/totals")"
		return
	fi
	expect_eq "$1: the header's totals are the queue's" \
		"$(head -1 "$WORK/totals")" "$(tail -1 "$WORK/totals")"
}
stale() {
	db_q "$1" "SELECT count(*) FROM queue_index WHERE epoch <>
		(SELECT value FROM meta WHERE key = 'policy_epoch')"
}

# The reference: policy first, one file each, then the packets.
REF=$(db_new ref)
for f in security_map ips holdings roster standards_index; do
	"$COUNTERSIGN" --db "$REF" import "$DEMO/$f.json" >/dev/null
done
"$COUNTERSIGN" --db "$REF" import "$DEMO"/packets-*.jsonl >/dev/null
rows "$REF" >"$WORK/ref.rows"
[ "$(wc -l <"$WORK/ref.rows")" -ge 17 ] && pass "the reference indexes every demo packet" ||
	fail "the reference indexes $(wc -l <"$WORK/ref.rows") rows"
grep -q '|1|' "$WORK/ref.rows" && grep -q '|2|' "$WORK/ref.rows" &&
	pass "the reference has high-stakes and failing rows" ||
	fail "the demo data no longer exercises care levels"

{ policy security_map ips holdings roster standards_index; reversed; } >"$WORK/policy-first.jsonl"
{ reversed; policy security_map ips holdings roster standards_index; } >"$WORK/policy-last.jsonl"
# Packets last: nothing after them would make their rows stale.
{ policy security_map ips; packets | head -8; policy holdings;
  packets | sed -n 9,12p; policy roster standards_index;
  packets | tail -n +13 | tac; } >"$WORK/interleaved.jsonl"

for order in policy-first policy-last interleaved; do
	db=$(db_new "$(echo "$order" | tr - _)")
	"$COUNTERSIGN" --db "$db" import "$WORK/$order.jsonl" >/dev/null
	expect_eq "$order: no row left stale" "$(stale "$db")" 0
	rows "$db" >"$WORK/$order.rows"
	if cmp -s "$WORK/ref.rows" "$WORK/$order.rows"; then
		pass "$order: the index import wrote is the reference's"
	else
		fail "$order: the index differs from the reference"
		diff "$WORK/ref.rows" "$WORK/$order.rows" | sed 's/^/    /'
	fi
	# And a full re-check of every row changes nothing.
	db_q "$db" "UPDATE queue_index SET epoch = 0"
	"$COUNTERSIGN" --db "$db" import "$WORK/$order.jsonl" >/dev/null
	rows "$db" >"$WORK/$order.again"
	cmp -s "$WORK/$order.rows" "$WORK/$order.again" &&
		pass "$order: a full re-check agrees" ||
		fail "$order: a full re-check writes another index"
	expect_totals "$order" "$db"
done

# The totals follow decisions and flags that a new policy changes.
db=$(db_named policy_first)
expect_eq "the demo queue has high-stakes and failing rows" \
	"$(db_q "$db" "SELECT CASE WHEN high_stakes > 0 AND needs_care > 0 THEN 1 END FROM queue_totals")" 1
"$COUNTERSIGN" --db "$db" batch "$DEMO/decisions.batch" >/dev/null 2>&1
expect_eq "the demo batch decided some actions" \
	"$(db_q "$db" "SELECT CASE WHEN count(*) > 0 THEN 1 END FROM decision")" 1
expect_totals "after a batch" "$db"
jq -c '.version = 4 | .constraints.concentration_limit_percent = 1
	| .approval_required_above_usd = 10' "$DEMO/ips.json" >"$WORK/ips-v4.json"
before=$(totals "$db" | head -1)
"$COUNTERSIGN" --db "$db" import "$WORK/ips-v4.json" >/dev/null
expect_totals "after a stricter IPS" "$db"
[ "$(totals "$db" | head -1)" != "$before" ] &&
	pass "the stricter IPS changed the totals" ||
	fail "the stricter IPS left the totals as they were: $before"
# A decision changes the lockout of the action's revisions (SPEC 2.4):
# their rows are marked for a re-check, and the next refresh writes what
# a queue that saw the rejection first would hold.
chain() { grep -h '"rev-77ab-' "$DEMO"/packets-*.jsonl; }
revision_rows() {
	db_q "$1" "SELECT action_id, care, flags, advisory, divergence_count
		FROM queue_index WHERE action_id LIKE 'rev-77ab-v2%' ORDER BY action_id"
}
REJECT='{"action_id":"rev-77ab-v1","decision":"reject","reason":"stale","reassign_to":"action-drafting-b"}'
later=$(db_new later)
for f in security_map ips holdings roster; do
	"$COUNTERSIGN" --db "$later" import "$DEMO/$f.json" >/dev/null
done
chain >"$WORK/chain.jsonl"
"$COUNTERSIGN" --db "$later" import "$WORK/chain.jsonl" >/dev/null
expect_eq "the revisions are fresh before the decision" "$(stale "$later")" 0
printf '%s\n' "$REJECT" | "$COUNTERSIGN" --db "$later" batch >/dev/null
expect_eq "rejecting their original marks both revisions for a re-check" \
	"$(stale "$later")" 2
"$COUNTERSIGN" --db "$later" import "$DEMO/roster.json" >/dev/null
expect_eq "the next refresh re-checks them" "$(stale "$later")" 0
first=$(db_new first)
for f in security_map ips holdings roster; do
	"$COUNTERSIGN" --db "$first" import "$DEMO/$f.json" >/dev/null
done
chain | jq -c 'select(.proposed_action.action_id == "rev-77ab-v1")' >"$WORK/v1.jsonl"
"$COUNTERSIGN" --db "$first" import "$WORK/v1.jsonl" >/dev/null
expect_eq "the first queue holds the original alone" \
	"$(db_q "$first" "SELECT action_id FROM queue_index")" rev-77ab-v1
printf '%s\n' "$REJECT" | "$COUNTERSIGN" --db "$first" batch >/dev/null
"$COUNTERSIGN" --db "$first" import "$WORK/chain.jsonl" >/dev/null
expect_eq "their rows are those of a queue that saw the rejection first" \
	"$(revision_rows "$later")" "$(revision_rows "$first")"
[ "$(revision_rows "$later" | wc -l)" -eq 2 ] && pass "both revisions compared" ||
	fail "expected two revision rows, got: $(revision_rows "$later")"

# A database from before schema 5 gets its totals counted (a PostgreSQL
# store starts at 10).
if sqlite_only "a store from before schema 5"; then
sqlite3 "$db" "DROP TABLE queue_totals; DROP TRIGGER action_immutable;
	CREATE TRIGGER action_no_replace BEFORE INSERT ON action
	WHEN EXISTS (SELECT 1 FROM action WHERE action_id = NEW.action_id)
	BEGIN SELECT RAISE(ABORT, 'an imported action is immutable'); END;
	DROP INDEX holdings_by_user;
	ALTER TABLE holdings DROP COLUMN as_of_beyond_ms;
	CREATE INDEX holdings_by_user ON holdings (user_id, as_of_ms);
	DROP INDEX action_by_artifact; ALTER TABLE action DROP COLUMN artifact_id;
	ALTER TABLE decision DROP COLUMN blocked_on;
	ALTER TABLE decision DROP COLUMN escalate_expertise;
	ALTER TABLE queue_index DROP COLUMN requester;
	ALTER TABLE queue_index DROP COLUMN author;
	ALTER TABLE queue_index DROP COLUMN drafted_at_ms;
	ALTER TABLE queue_index DROP COLUMN listed;
	ALTER TABLE security DROP COLUMN price_usd;
	DROP TABLE merkle_node; DROP TABLE log_checkpoint; DROP TABLE log_name;
	DROP TABLE po_judgment;
	ALTER TABLE action DROP COLUMN importer_login;
	ALTER TABLE action DROP COLUMN importer_uid;
	ALTER TABLE action DROP COLUMN importer_via;
	UPDATE schema_version SET version = 4"
"$COUNTERSIGN" --db "$db" list >/dev/null
expect_eq "the migrations bring the schema to the latest" \
	"$(sqlite3 "$db" "SELECT version FROM schema_version")" 23
expect_totals "after the migration" "$db"
fi

finish
