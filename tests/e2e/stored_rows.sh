#!/bin/sh
# Issue 24, point 8: crafted database contents (an IPS row
# {"constraints":5}, a packet of the wrong shape or under another id, a
# NULL record) crashed every command with SIGSEGV.  Stored rows are held
# to what import accepts; a shape error is a storage error (exit 4)
# naming the row.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/roster.json" \
	"$EXAMPLES/standards_index.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-trade-divergent.json" "$EXAMPLES/packet-change.json" >/dev/null
echo '{"action_id": "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22", "decision": "reject", "reason": "no"}' |
	cs batch >/dev/null
CLEAN=$(db_copy clean)
# sql_set COLUMN KEY VALUE: SQL for the JSON in COLUMN with KEY set to VALUE.
sql_set() {
	if on_pg; then echo "jsonb_set($1::jsonb, '{$2}', '$3')::text"; else echo "json_set($1, '\$.$2', $3)"; fi
}

# crafted WHAT SQL NAMED COMMAND...: on a copy with SQL applied, each
# COMMAND (";"-separated words) exits 4 naming NAMED, never by a signal.
crafted() {
	c_what=$1 c_sql=$2 c_named=$3
	shift 3
	db_restore "$CLEAN"
	if on_pg; then
		db_sql "ALTER TABLE audit_log ALTER record_json DROP NOT NULL;
			ALTER TABLE action ALTER raw_json DROP NOT NULL;
			ALTER TABLE ips ALTER raw_json DROP NOT NULL;
			ALTER TABLE holdings ALTER raw_json DROP NOT NULL;
			ALTER TABLE policy_document ALTER raw_json DROP NOT NULL"
	else
		sqlite3 "$DB" "PRAGMA writable_schema = ON;
			UPDATE sqlite_master SET sql = replace(replace(sql,
			  'record_json TEXT NOT NULL', 'record_json TEXT'),
			  'raw_json TEXT NOT NULL', 'raw_json TEXT');"
	fi
	db_tamper "$DB" "action_immutable audit_log_no_update" "$c_sql"
	for c_cmd in "$@"; do
		# shellcheck disable=SC2086
		expect_status "$c_what: $c_cmd" 4 cs $c_cmd
		expect_contains "$c_what: $c_cmd names the row" "$WORK/err" "$c_named"
	done
}

crafted "an IPS row {\"constraints\":5}" \
	"UPDATE ips SET raw_json = '{\"constraints\":5}'" "the stored ips (" \
	list "list --json" check "check $PASS" "audit replay 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22"
crafted "an IPS of the right type and the wrong shape" \
	"UPDATE ips SET raw_json = $(sql_set raw_json constraints 5)" \
	"constraints" list check
crafted "a holdings row with positions 5" \
	"UPDATE holdings SET raw_json = $(sql_set raw_json positions 5)" \
	"the stored holdings (u-1001)" list check
crafted "a NULL holdings row" "UPDATE holdings SET raw_json = NULL" \
	"the stored holdings (u-1001) is not valid JSON" list check
crafted "a roster that is a number" \
	"UPDATE policy_document SET raw_json = '5' WHERE type = 'roster'" \
	"the stored roster (roster)" list check
crafted "a standards index without standards" \
	"UPDATE policy_document SET raw_json = '{\"type\":\"standards_index\"}'
	 WHERE type = 'standards_index'" "the stored standards_index" list check
crafted "a packet whose proposed_action is 5" \
	"UPDATE action SET raw_json = '{\"type\":\"packet\",\"kind\":\"trade\",\"proposed_action\":5}'
	 WHERE action_id = '$PASS'" "the stored packet ($PASS)" list check "check $PASS"
crafted "a packet under another action's id" \
	"UPDATE action SET raw_json = (SELECT raw_json FROM action WHERE
	 action_id = '9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22') WHERE action_id = '$PASS'" \
	"the stored packet $PASS is about trade 9d2e7b10" list check
crafted "a packet of another kind than its row" \
	"UPDATE action SET kind = 'change' WHERE action_id = '$PASS'" \
	"not its row's" list check
crafted "a NULL decision record" \
	"UPDATE audit_log SET record_json = NULL WHERE seq = (SELECT max(seq) FROM audit_log)" \
	"is not stored as text" "audit replay 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22"

# A batch decision on such a row is a storage error too, recording nothing.
db_restore "$CLEAN"
db_sql "UPDATE ips SET raw_json = '{\"constraints\":5}'"
echo "{\"action_id\": \"$PASS\", \"decision\": \"approve\"}" >"$WORK/req"
expect_status "a decision over a crafted IPS" 4 cs batch "$WORK/req"
expect_eq "records nothing" "$(db_sql "SELECT count(*) FROM decision")" 1
finish
