#!/bin/sh
# Records keep replaying when the canonical form changes: a database
# written by the release before records carried "format" (made by
# tests/data/format1/make-db.sh) still verifies and replays with this
# build, new records say "format": 2, and a replay reads the digest in the
# format its record names (countersign-packets(5), CANONICAL JSON).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed"; exit 77; }

FIXTURE=$TOP_SRCDIR/tests/data/format1/format1.sql
PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
out=$WORK/out
# load SQL DB: a database from a dump.
load() { sqlite3 "$2" <"$1"; }
on() { d=$1; shift; "$COUNTERSIGN" --db "$d" "$@"; }

### The old database, as it was written.
load "$FIXTURE" "$WORK/old.db"
expect_eq "the fixture has no format in its records" \
	"$(sqlite3 "$WORK/old.db" "SELECT count(*) FROM audit_log WHERE record_json LIKE '%\"format\"%'")" 0
expect_contains "its IPS has -0 in a band" "$FIXTURE" '"min_percent":-0,'
expect_status "audit verify of the old database" 0 on "$WORK/old.db" audit verify
expect_contains "intact" "$out" "audit log intact: 6 records (2 decisions)"
expect_status "replay of the old approval" 0 on "$WORK/old.db" audit replay "$PASS"
expect_contains "same inputs" "$out" "$PASS: same inputs, same verdict (pass)"
expect_status "replay of the old rejection" 0 on "$WORK/old.db" audit replay "$DIVERGENT"
expect_contains "same inputs" "$out" "$DIVERGENT: same inputs, same verdict (fail)"

### The format a record names is the one its digest is read in: the
### same record claiming format 2 no longer matches (-0, 1e15 and 2^53-1
### print differently), and a format this build does not know is refused.
sed 's/{"event":"decision",/{"event":"decision","format":2,/' "$FIXTURE" >"$WORK/claims2.sql"
load "$WORK/claims2.sql" "$WORK/claims2.db"
expect_status "an old record read as format 2" 1 on "$WORK/claims2.db" audit replay "$PASS"
expect_contains "differs" "$out" "the rule inputs differ from those recorded"
sed 's/{"event":"decision",/{"event":"decision","format":3,/' "$FIXTURE" >"$WORK/claims3.sql"
load "$WORK/claims3.sql" "$WORK/claims3.db"
expect_status "a record of an unknown format" 1 on "$WORK/claims3.db" audit replay "$PASS"
expect_contains "refused" "$out" "$PASS: the record's format is not one this build knows"

### A new decision on the old database: format 2, and it replays.
jq -c '.proposed_action.action_id = "new-1" | .reviewer_verdict.action_id = "new-1"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/new.json"
on "$WORK/old.db" import "$WORK/new.json" >/dev/null
printf '%s\n' '{"action_id":"new-1","decision":"approve"}' >"$WORK/new.jsonl"
expect_status "a new approval on the old database" 0 on "$WORK/old.db" batch "$WORK/new.jsonl"
expect_eq "the new record names format 2" \
	"$(sqlite3 "$WORK/old.db" "SELECT record_json FROM audit_log ORDER BY seq DESC LIMIT 1" | jq -c .format)" 2
expect_status "replay of the new approval" 0 on "$WORK/old.db" audit replay new-1
expect_contains "same inputs" "$out" "new-1: same inputs, same verdict (pass)"
expect_status "the log with both formats verifies" 0 on "$WORK/old.db" audit verify
expect_status "and the old approval still replays" 0 on "$WORK/old.db" audit replay "$PASS"

finish
