#!/bin/sh
# SPEC 7 (v3): audit export --csv --since T --until T keeps the decisions
# made in [since, until), with a header row and the columns of what was
# approved (side, ticker, quantity, amount), at whose request and on which
# packet; bad times and misplaced options are usage errors.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

import_passing_trades C 3
cs import "$EXAMPLES/packet-legal-draft.json" >/dev/null 2>&1
# One decision per batch run, so that each has its own decided_at.
for i in 0 1 2; do
	approvals C 3 | sed -n "$((i + 1))p" | cs batch >/dev/null 2>&1
done
printf '%s\n' '{"action_id": "legal-2026-0042", "decision": "reject", "reason": "not this one"}' |
	cs batch >/dev/null 2>&1
cs audit export 2>/dev/null | jq -r 'select(.record.event == "decision") | .record.decided_at' >"$WORK/times"
expect_eq "four decisions recorded" "$(wc -l <"$WORK/times")" 4

# csv ARGS...: the export's data rows (after the header), their action ids.
csv_ids() { cs audit export --csv "$@" 2>/dev/null | tail -n +2 | cut -d, -f3 | tr -d '"' | tr '\n' ' ' | sed 's/ $//'; }
# decided SINCE UNTIL: the ids the JSON export says were decided in [SINCE, UNTIL).
decided() {
	cs audit export 2>/dev/null | jq -r --arg s "$1" --arg u "$2" \
	    'select(.record.event == "decision") | .record
	     | select(.decided_at >= $s and ($u == "" or .decided_at < $u)) | .action_id' |
	    tr '\n' ' ' | sed 's/ $//'
}

# --- the header and the new columns -----------------------------------------
cs audit export --csv >"$WORK/csv" 2>/dev/null
head -n 1 "$WORK/csv" | tr -d '"' | tr ',' '\n' >"$WORK/header"
for column in seq event action_id kind decision operator decided_at reason \
    requested_by side ticker quantity estimated_value_usd packet_sha256 bulk_id; do
	if grep -qx "$column" "$WORK/header"; then pass "column $column"; else fail "no column $column"; fi
done
# cell ID COLUMN: that column of ID's row, through a CSV reader.
cell() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print([r for r in rows if r["action_id"] == sys.argv[2]][0][sys.argv[3]])' "$WORK/csv" "$1" "$2"
}
if command -v python3 >/dev/null 2>&1; then
	expect_eq "side" "$(cell C-1 side)" buy
	expect_eq "ticker" "$(cell C-1 ticker)" BND
	expect_eq "quantity" "$(cell C-1 quantity)" 100
	expect_eq "estimated_value_usd" "$(cell C-1 estimated_value_usd)" 7500
	expect_eq "requested_by" "$(cell C-1 requested_by)" pm.lee
	expect_eq "event" "$(cell C-1 event)" decision
	expect_eq "operator" "$(cell C-1 operator)" "$(id -un)"
	expect_eq "packet_sha256: the record's" "$(cell C-1 packet_sha256)" \
	    "$(cs audit export 2>/dev/null | jq -r 'select(.record.action_id == "C-1") | .record.packet_sha256')"
	expect_eq "packet_sha256: what list --json names" "$(cell C-1 packet_sha256)" \
	    "$(cs list --all --json 2>/dev/null | jq -r 'select(.action_id == "C-1") | .packet_sha256')"
	expect_eq "a legal draft has no side" "$(cell legal-2026-0042 side)" ""
	expect_eq "...nor ticker nor amount" "$(cell legal-2026-0042 ticker)$(cell legal-2026-0042 estimated_value_usd)" ""
	expect_eq "...but its reason" "$(cell legal-2026-0042 reason)" "not this one"
	expect_eq "bulk_id empty outside a bulk" "$(cell C-1 bulk_id)" ""
else
	echo "skip: the cells (python3 reads the CSV)"
fi
expect_eq "every data row has as many cells as the header" \
    "$(tail -n +2 "$WORK/csv" | python3 -c 'import csv, sys; print(sorted({len(r) for r in csv.reader(sys.stdin)}))' 2>/dev/null || echo skip)" \
    "[$(wc -l <"$WORK/header")]"

# --- --since, --until: [since, until) ----------------------------------------
t1=$(sed -n 2p "$WORK/times") t2=$(sed -n 3p "$WORK/times")
expect_eq "no bounds: all four" "$(csv_ids)" "$(decided '' '')"
expect_eq "--since the second" "$(csv_ids --since "$t1")" "$(decided "$t1" '')"
expect_eq "...is three decisions" "$(csv_ids --since "$t1" | wc -w)" 3
expect_eq "--until the second (excluded)" "$(csv_ids --until "$t1")" "$(decided '' "$t1")"
expect_eq "...is one decision" "$(csv_ids --until "$t1" | wc -w)" 1
expect_eq "--since and --until" "$(csv_ids --since "$t1" --until "$t2")" "$(decided "$t1" "$t2")"
expect_eq "...is one decision" "$(csv_ids --since "$t1" --until "$t2" | wc -w)" 1
# The same instant with a zone offset.
t1_plus=$(TZ=Etc/GMT-1 date -d "$t1" +%Y-%m-%dT%H:%M:%S.%3N%:z)
expect_eq "an offset is the same instant ($t1_plus)" "$(csv_ids --since "$t1_plus")" "$(csv_ids --since "$t1")"
expect_eq "a window before everything: the header only" \
    "$(cs audit export --csv --until 2000-01-01T00:00:00+01:00 2>/dev/null | wc -l)" 1
expect_eq "a window after everything: the header only" \
    "$(cs audit export --csv --since 2999-01-01T00:00:00Z 2>/dev/null | wc -l)" 1

# --- usage errors -------------------------------------------------------------
expect_status "a time that is no time" 2 cs audit export --csv --since yesterday
expect_contains "...names it" "$WORK/err" "'yesterday'"
expect_status "a time without a zone" 2 cs audit export --csv --until 2026-12-01T09:00:00
expect_status "--since without --csv" 2 cs audit export --since "$t1"
expect_status "--until on verify" 2 cs audit verify --until "$t1"
expect_status "--since on list" 2 cs list --since "$t1"
expect_status "--since without a value" 2 cs audit export --csv --since
finish
