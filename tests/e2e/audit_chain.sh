#!/bin/sh
# SPEC 6 and 7: the audit hash chain recomputed outside countersign, the
# database triggers, tampering, truncation and checkpoints, CSV export
# neutralisation, and replay.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

on_pg || command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed"; exit 77; }
command -v sha256sum >/dev/null 2>&1 || { echo "sha256sum is needed"; exit 77; }

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
ZEROS=0000000000000000000000000000000000000000000000000000000000000000
out=$WORK/out

# on DB ARGS...: countersign on another database.
on() { d=$1; shift; "$COUNTERSIGN" --db "$d" "$@"; }
q() { db_q "$1" "$2"; }
# The record's stored bytes, as each backend counts them.
if on_pg; then BYTES='octet_length(record_json)'; else BYTES='length(CAST(record_json AS BLOB))'; fi
# expect_match WHAT FILE ERE
expect_match() {
	if grep -qE -- "$3" "$2"; then pass "$1"; else
		fail "$1: /$3/ not in $2:"; sed 's/^/    /' "$2"; fi
}
variant() {
	jq -c --arg id "$1" \
		".proposed_action.action_id = \$id | .reviewer_verdict.action_id = \$id | $2" \
		"${3:-$EXAMPLES/packet-trade-pass.json}"
}

### A log with policy imports and decisions of every shape.
expect_status "import the trade examples and policies" 0 cs import \
	"$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-trade-divergent.json" "$EXAMPLES/roster.json" \
	"$EXAMPLES/standards_index.json"
{
	variant c1 '.'; variant c2 '.'; variant c3 '.'; variant c4 '.'
	variant c5 '.'; variant c6 '.'; variant c7 '.'; variant c8 '.'
} >"$WORK/variants.jsonl"
cs import "$WORK/variants.jsonl" >/dev/null
TAB=$(printf '\t')
CR=$(printf '\r')
jq -nc --arg pass "$PASS" --arg div "$DIVERGENT" '
	{action_id: $pass, decision: "approve", reason: "Within band; rebalancing."},
	{action_id: $div, decision: "reject", reason: "=HYPERLINK(\"http://x\",\"y\")", reassign_to: "action-drafting-b"},
	{action_id: "c1", decision: "reject", reason: "-2+3"},
	{action_id: "c2", decision: "reject", reason: "She said \"no\", twice"},
	{action_id: "c3", decision: "reject", reason: "+1 for rejecting\u001b]0;pwned\u0007"},
	{action_id: "c4", decision: "reject", reason: "@SUM(A1:A9)"},
	{action_id: "c5", decision: "reject", reason: "\tcmd|/c calc"},
	{action_id: "c6", decision: "reject", reason: "Caf\u00e9 \u2713 \u2014 non-ASCII, 1-2 safe", escalate: true},
	{action_id: "c8", decision: "reject", reason: "\rX=1"}
' >"$WORK/decisions.jsonl"
expect_status "record nine decisions" 0 cs batch "$WORK/decisions.jsonl"
expect_eq "all recorded" "$(jq -s -c '[.[].status] | unique' "$out")" '["recorded"]'
printf '%s\n' '{"action_id":"c7","decision":"approve"}' >"$WORK/c7.jsonl"
expect_status "a later approve" 0 cs batch "$WORK/c7.jsonl"
APPROVE_SEQ=$(q "$DB" "SELECT seq FROM audit_log WHERE record_json LIKE '%\"action_id\":\"$PASS\"%' AND record_json LIKE '%\"event\":\"decision\"%'")
expect_eq "the approve of the passing trade has one record" "$(printf '%s\n' "$APPROVE_SEQ" | grep -c .)" 1

### 1. Recompute the whole chain outside countersign.
expect_status "audit verify" 0 cs audit verify
cp "$out" "$WORK/verify"
N=$(q "$DB" "SELECT count(*) FROM audit_log")
expect_eq "seq runs 1..N without gaps" \
	"$(q "$DB" "SELECT min(seq) || ' ' || max(seq) FROM audit_log")" "1 $N"
expect_eq "policy imports and decisions are both in the log" \
	"$(cs audit export | jq -s -c '[.[].record.event] | unique')" '["decision","policy_import"]'
prev=$ZEROS
bad=0
seq=1
while [ "$seq" -le "$N" ]; do
	rec=$(q "$DB" "SELECT record_json FROM audit_log WHERE seq = $seq")
	stored_prev=$(q "$DB" "SELECT prev_hash FROM audit_log WHERE seq = $seq")
	stored=$(q "$DB" "SELECT hash FROM audit_log WHERE seq = $seq")
	bytes=$(q "$DB" "SELECT $BYTES FROM audit_log WHERE seq = $seq")
	if [ "$(printf '%s' "$rec" | wc -c)" -ne "$bytes" ]; then
		fail "seq $seq: could not read the record's exact bytes"; bad=1
	fi
	if [ "$stored_prev" != "$prev" ]; then
		fail "seq $seq: prev_hash [$stored_prev] is not the previous hash [$prev]"; bad=1
	fi
	h=$(printf '%s\n%s' "$prev" "$rec" | sha256sum | cut -d' ' -f1)
	if [ "$h" != "$stored" ]; then
		fail "seq $seq: stored hash [$stored], recomputed [$h]"; bad=1
	fi
	prev=$h
	seq=$((seq + 1))
done
expect_eq "every row's hash recomputes with SQL and sha256sum ($N rows)" "$bad" 0
expect_eq "the first prev_hash is 64 zeros" "$(q "$DB" "SELECT prev_hash FROM audit_log WHERE seq = 1")" "$ZEROS"
expect_eq "hashes are lowercase hex" \
	"$(q "$DB" "SELECT hash FROM audit_log" | grep -cvE '^[0-9a-f]{64}$' || true)" 0
expect_contains "audit verify prints the recomputed head" "$WORK/verify" "$prev"
cs audit export >"$WORK/export"
expect_eq "audit export shows the same chain" \
	"$(jq -r '[.seq, .prev_hash, .hash] | @tsv' "$WORK/export")" \
	"$(q "$DB" "SELECT seq || '$TAB' || prev_hash || '$TAB' || hash FROM audit_log ORDER BY seq")"
expect_eq "audit export's records are the stored JSON" \
	"$(jq -c .record "$WORK/export" | sha256sum)" \
	"$(q "$DB" "SELECT record_json FROM audit_log ORDER BY seq" | jq -c . | sha256sum)"

### 2. The triggers refuse UPDATE, DELETE and INSERT OR REPLACE (on
### PostgreSQL: TRUNCATE and INSERT ... ON CONFLICT DO UPDATE).
snapshot() { q "$DB" "SELECT seq, record_json, prev_hash, hash FROM audit_log ORDER BY seq" | sha256sum; }
before=$(snapshot)
# sql_refused WHAT SQL: the database must refuse it.
sql_refused() {
	if db_sql "$2" >"$WORK/out" 2>"$WORK/err"; then
		fail "$1: the database took it"
	else
		pass "$1"
	fi
}
sql_refused "UPDATE is refused" \
	"UPDATE audit_log SET record_json = replace(record_json, 'approve', 'reject') WHERE seq = $APPROVE_SEQ"
sql_refused "UPDATE of a hash is refused" "UPDATE audit_log SET hash = prev_hash"
sql_refused "DELETE of the last row is refused" \
	"DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)"
sql_refused "DELETE of everything is refused" "DELETE FROM audit_log"
if on_pg; then
	UPSERT="ON CONFLICT (seq) DO UPDATE SET record_json = excluded.record_json"
	sql_refused "TRUNCATE is refused" "TRUNCATE audit_log CASCADE"
	sql_refused "an upsert of row 1 (with its own prev_hash) is refused" \
		"INSERT INTO audit_log (seq, record_json, prev_hash, hash) VALUES (1, '{}', '$ZEROS', '$ZEROS') $UPSERT"
	sql_refused "an upsert of row 1 citing the head is refused" \
		"INSERT INTO audit_log (seq, record_json, prev_hash, hash) SELECT 1, '{}', hash, hash FROM audit_log ORDER BY seq DESC LIMIT 1 $UPSERT"
	sql_refused "an upsert of the last row is refused" \
		"INSERT INTO audit_log (seq, record_json, prev_hash, hash) SELECT seq, '{}', prev_hash, hash FROM audit_log ORDER BY seq DESC LIMIT 1 $UPSERT"
else
	sql_refused "INSERT OR REPLACE of row 1 (with its own prev_hash) is refused" \
		"INSERT OR REPLACE INTO audit_log (seq, record_json, prev_hash, hash) VALUES (1, '{}', '$ZEROS', '$ZEROS')"
	sql_refused "INSERT OR REPLACE of row 1 citing the head is refused" \
		"INSERT OR REPLACE INTO audit_log (seq, record_json, prev_hash, hash) SELECT 1, '{}', hash, hash FROM audit_log ORDER BY seq DESC LIMIT 1"
	sql_refused "REPLACE of the last row is refused" \
		"REPLACE INTO audit_log (seq, record_json, prev_hash, hash) SELECT seq, '{}', prev_hash, hash FROM audit_log ORDER BY seq DESC LIMIT 1"
fi
sql_refused "an insert that does not extend the head is refused" \
	"INSERT INTO audit_log (seq, record_json, prev_hash, hash) VALUES ((SELECT max(seq) + 1 FROM audit_log), '{}', '$ZEROS', '$ZEROS')"
expect_eq "the log is unchanged" "$(snapshot)" "$before"
expect_status "audit verify after the refused writes" 0 cs audit verify

### 3. Tampering with a record is found, at its seq.
TAMPERED=$(db_copy tampered)
db_tamper "$TAMPERED" audit_log_no_update "UPDATE audit_log SET record_json = replace(record_json, 'approve', 'reject') WHERE seq = $APPROVE_SEQ"
expect_eq "the record did change" \
	"$(q "$TAMPERED" "SELECT record_json FROM audit_log WHERE seq = $APPROVE_SEQ" | jq -r .decision)" reject
expect_status "audit verify on the tampered log" 1 on "$TAMPERED" audit verify
expect_match "it names seq $APPROVE_SEQ" "$WORK/out" "seq $APPROVE_SEQ([^0-9]|$)"
expect_status "a checkpoint at an earlier row does not hide it" 1 \
	on "$TAMPERED" audit verify --checkpoint "1:$(q "$DB" "SELECT hash FROM audit_log WHERE seq = 1")"

# A record that is not JSON at all still exports as a line of JSON, its
# text kept as a string (the one-pass check cannot vouch for it).
NOT_JSON=$(db_copy not_json)
db_tamper "$NOT_JSON" audit_log_no_update "UPDATE audit_log SET record_json = '{\"event\": oops' WHERE seq = $APPROVE_SEQ"
expect_status "audit export of a log with a record that is not JSON" 0 on "$NOT_JSON" audit export
expect_eq "... every line is JSON" "$(jq -c . <"$WORK/out" >/dev/null 2>&1 && echo yes)" yes
expect_eq "... that record kept as its text" \
	"$(jq -r "select(.seq == $APPROVE_SEQ) | .record_json" <"$WORK/out")" '{"event": oops'
expect_eq "... the others as records" \
	"$(jq -r 'select(.seq == 1) | .record.event' <"$WORK/out")" policy_import

REHASHED=$(db_copy rehashed)
# A wrong stored hash (record untouched) is found too.
db_tamper "$REHASHED" audit_log_no_update "UPDATE audit_log SET hash = '$ZEROS' WHERE seq = $N"
expect_status "a wrong stored hash on the last row" 1 on "$REHASHED" audit verify
expect_match "it names seq $N" "$WORK/out" "seq $N([^0-9]|$)"

### 3b. Replay (before the IPS changes below).
expect_status "audit replay of the approved trade" 0 cs audit replay "$PASS"
expect_contains "same verdict" "$WORK/out" "same verdict"
expect_status "audit replay of the rejected trade" 0 cs audit replay "$DIVERGENT"
expect_contains "same verdict (rejected)" "$WORK/out" "same verdict"
expect_status "audit replay of an undecided action" 1 cs audit replay no-such-action

### 4. Truncation: the chain stays consistent, a checkpoint catches it.
DECISION_LAST=$(db_copy decision_last)
jq -c '.version = 4' "$EXAMPLES/ips.json" >"$WORK/ips-v4.json"
expect_status "import a new IPS version last" 0 cs import "$WORK/ips-v4.json"
LAST=$(q "$DB" "SELECT seq || ':' || hash FROM audit_log ORDER BY seq DESC LIMIT 1")
expect_eq "the last row is a policy_import" \
	"$(q "$DB" "SELECT record_json FROM audit_log ORDER BY seq DESC LIMIT 1" | jq -r .event)" policy_import
expect_status "the checkpoint is on the chain" 0 cs audit verify --checkpoint "$LAST"
FIRST=$(q "$DB" "SELECT seq || ':' || hash FROM audit_log WHERE seq = 1")
expect_status "an early checkpoint is on the chain" 0 cs audit verify --checkpoint "$FIRST"
expect_status "a checkpoint's hash in capitals names the same row" 0 \
	cs audit verify --checkpoint "$(printf '%s' "$LAST" | tr a-f A-F)"
expect_status "and a wrong one in capitals is still wrong" 1 \
	cs audit verify --checkpoint "${LAST%%:*}:$(printf '%064d' 0 | tr 0 A)"
expect_status "a checkpoint with the wrong hash" 1 cs audit verify --checkpoint "${LAST%%:*}:$ZEROS"
expect_status "a checkpoint past the end" 1 cs audit verify --checkpoint "$((N + 50)):$ZEROS"
for bad in " ${LAST}" "+${LAST}" "99999999999999999999999:${LAST#*:}"; do
	expect_status "a malformed checkpoint ('$(printf '%.12s' "$bad")...') is a usage error" 2 \
		cs audit verify --checkpoint "$bad"
done
TRUNCATED=$(db_copy truncated)
# With the IPS row it wrote: audit verify holds policy rows to the
# imports on the chain (issue 35), and a row left behind gives it away.
db_tamper "$TRUNCATED" audit_log_no_delete "DELETE FROM audit_log WHERE seq = ${LAST%%:*};
	DELETE FROM ips WHERE version = 4"
expect_eq "the row is gone" "$(q "$TRUNCATED" "SELECT count(*) FROM audit_log")" "$N"
# The stored tree (SPEC 13) still has the row's leaf, and says so ...
expect_status "the tree remembers the removed record" 1 on "$TRUNCATED" audit verify
expect_contains "... as removed" "$WORK/out" "records were removed"
# ... unless its nodes go too, as a thorough writer would; then only a
# checkpoint, or a signed one, catches it.
db_tamper "$TRUNCATED" merkle_node_no_delete \
	"DELETE FROM merkle_node WHERE ((idx + 1) << level) > $N"
expect_status "plain audit verify on the truncated log" 0 on "$TRUNCATED" audit verify
expect_status "audit verify --checkpoint on the truncated log" 1 \
	on "$TRUNCATED" audit verify --checkpoint "$LAST"
expect_match "it names the checkpoint's seq" "$WORK/out" "seq ${LAST%%:*}([^0-9]|$)"
expect_status "an earlier checkpoint still holds" 0 on "$TRUNCATED" audit verify --checkpoint "$FIRST"

# When the truncated row is a decision, the decided action gives it away.
DLAST=$(q "$DECISION_LAST" "SELECT seq FROM audit_log ORDER BY seq DESC LIMIT 1")
expect_eq "its last row is c7's approval" \
	"$(q "$DECISION_LAST" "SELECT record_json FROM audit_log WHERE seq = $DLAST" | jq -r '.event + " " + .action_id')" "decision c7"
db_tamper "$DECISION_LAST" audit_log_no_delete "DELETE FROM audit_log WHERE seq = $DLAST"
expect_eq "the decision row is gone" \
	"$(q "$DECISION_LAST" "SELECT count(*) FROM audit_log WHERE seq = $DLAST")" 0
expect_status "audit verify without the last decision record" 1 on "$DECISION_LAST" audit verify
expect_contains "it names the decided action" "$WORK/out" c7

for bad in abc 5 "5:" ":$ZEROS" "x:$ZEROS" "5:$(printf '%063d' 0)" "5:${ZEROS}0" "5:$(printf '%064d' 0 | tr 0 g)"; do
	expect_status "--checkpoint '$bad' is a usage error" 2 cs audit verify --checkpoint "$bad"
done
expect_status "--checkpoint without a value is a usage error" 2 cs audit verify --checkpoint

### 5. CSV export neutralises formulas and quotes every cell.
expect_status "audit export --csv" 0 cs audit export --csv
cp "$out" "$WORK/csv"
DECISIONS=$(cs audit export | jq -s '[.[] | select(.record.event == "decision")] | length')
expect_eq "ten decisions so far" "$DECISIONS" 10
expect_eq "a header then one row per decision" "$(wc -l <"$WORK/csv")" $((DECISIONS + 1))
expect_eq "the header is the first line: it names the columns" \
	"$(head -n 1 "$WORK/csv" | grep -c 'action_id.*reason\|reason.*action_id')" 1
expect_eq "the header holds no decision id" \
	"$(head -n 1 "$WORK/csv" | grep -cE '[0-9a-f]{8}-[0-9a-f]{4}-' || true)" 0
expect_eq "every data cell is double-quoted" \
	"$(tail -n +2 "$WORK/csv" | grep -cvE '^"([^"]|"")*"(,"([^"]|"")*")*$' || true)" 0
row() { # row ACTION_ID: the CSV row of that action
	grep -F "\"$1\"" "$WORK/csv" || true
}
expect_eq "each decision's action appears in exactly one row" \
	"$(for a in "$PASS" "$DIVERGENT" c1 c2 c3 c4 c5 c6 c7 c8; do row "$a" | wc -l; done | sort -u)" 1
row "$DIVERGENT" >"$WORK/row"
expect_contains "=HYPERLINK is neutralised and its quotes doubled" "$WORK/row" \
	',"'\''=HYPERLINK(""http://x"",""y"")"'
row c1 >"$WORK/row"
expect_contains "-2+3 is neutralised" "$WORK/row" ',"'\''-2+3"'
row c2 >"$WORK/row"
expect_contains "a double quote is doubled" "$WORK/row" ',"She said ""no"", twice"'
row c3 >"$WORK/row"
expect_contains "+ is neutralised" "$WORK/row" ',"'\''+1 for rejecting'
expect_contains "an escape sequence is shown escaped, even in a file" "$WORK/row" 'rejecting\e]0;pwned^G"'
expect_eq "no raw ESC or BEL in the CSV" "$(tr -d -c '\033\007' <"$WORK/csv" | wc -c)" 0
row c4 >"$WORK/row"
expect_contains "@ is neutralised" "$WORK/row" ',"'\''@SUM(A1:A9)"'
row c5 >"$WORK/row"
# The tab itself may be kept or shown as a visible escape; the quote comes first.
expect_match "a leading tab is neutralised" "$WORK/row" ",\"'(${TAB}|\\^I|\\\\t|\\\\x09)cmd\\|/c calc\""
row c8 >"$WORK/row"
expect_match "a leading CR is neutralised" "$WORK/row" ",\"'(${CR}|\\^M|\\\\r|\\\\x0[dD])X=1\""
row c6 >"$WORK/row"
expect_contains "UTF-8 passes through unchanged" "$WORK/row" ',"Café ✓ — non-ASCII, 1-2 safe"'
row "$PASS" >"$WORK/row"
expect_contains "a plain reason is left alone" "$WORK/row" ',"Within band; rebalancing."'
expect_eq "no cell starts with a live formula character" \
	"$(tail -n +2 "$WORK/csv" | grep -cE "(^|,)\"[=+@${TAB}${CR}-]" || true)" 0

### 6. The advisory verdict is recorded exactly as received (SPEC 6).
# A parse into doubles would print 9007199254740993 as 9.00719925474099e+15,
# 12345678901234567890123 as 1.2345678901234568e+22, 1E2 as 100, 1.0 as 1.
RAW=$(db_new raw)
VERDICT='{"review_pass":true,"blocking_issues":[],"non_blocking_issues":[],"final_artifacts":[],"n1":12345678901234567890123,"g":9007199254740993,"n2":1E2,"n3":1.0,"n4":-0,"s":"caf\u00e9 \/ x"}'
legal() { # legal ACTION_ID VERDICT: a legal_draft packet, its verdict as given
	printf '{"type":"packet","kind":"legal_draft","proposed_action":{"action_id":"%s","doc_type":"x","law_domain":"civil","user_request":"u","draft_text":"d"},"reviewer_verdict":%s}\n' "$1" "$2"
}
legal L-raw "$VERDICT" >"$WORK/raw.jsonl"
legal L-null null >>"$WORK/raw.jsonl"
printf '{"type":"packet","kind":"legal_draft","proposed_action":{"action_id":"L-none","doc_type":"x","law_domain":"civil","user_request":"u","draft_text":"d"}}\n' >>"$WORK/raw.jsonl"
# A pretty-printed packet, CRLF and all: its white space may go, not its numbers.
printf '{\r\n  "type": "packet",\r\n  "kind": "legal_draft",\r\n  "reviewer_verdict": {\r\n    "review_pass": true, "blocking_issues": [ ],\r\n    "non_blocking_issues": [], "final_artifacts": [],\r\n    "n": [ 1.50 , 2e-0 ], "s": "a  b"\r\n  },\r\n  "proposed_action": {"action_id": "L-pretty", "doc_type": "x", "law_domain": "civil", "user_request": "u", "draft_text": "d"}\r\n}\r\n' >"$WORK/pretty.json"
expect_status "import packets with verdicts a double cannot hold" 0 on "$RAW" import "$WORK/raw.jsonl" "$WORK/pretty.json"
printf '{"action_id":"%s","decision":"approve","acknowledge":["divergence"]}\n' L-raw L-pretty >"$WORK/raw-batch"
# No verdict fails advisory_parseable: those two can only be rejected.
printf '{"action_id":"%s","decision":"reject","reason":"no verdict"}\n' L-null L-none >>"$WORK/raw-batch"
expect_status "decide them" 0 on "$RAW" batch "$WORK/raw-batch"
advisory() { # advisory ACTION_ID: the record's advisory_verdict, as stored
	q "$RAW" "SELECT record_json FROM audit_log WHERE json_extract(record_json, '\$.action_id') = '$1'" |
		sed 's/.*"advisory_verdict":\(.*\),"local_verdict":.*/\1/'
}
expect_eq "the record holds the verdict's bytes" "$(advisory L-raw)" "$VERDICT"
expect_eq "a null verdict is null" "$(advisory L-null)" null
expect_eq "a missing verdict is null" "$(advisory L-none)" null
expect_eq "a pretty-printed verdict: white space gone, numbers and strings kept" "$(advisory L-pretty)" \
	'{"review_pass":true,"blocking_issues":[],"non_blocking_issues":[],"final_artifacts":[],"n":[1.50,2e-0],"s":"a  b"}'
expect_status "audit verify with verbatim verdicts" 0 on "$RAW" audit verify
on "$RAW" audit export >"$WORK/raw-export"
expect_eq "audit export keeps the record's bytes" \
	"$(sed 's/^.*"record"://; s/}$//' "$WORK/raw-export")" "$(q "$RAW" 'SELECT record_json FROM audit_log ORDER BY seq')"

expect_status "audit verify at the end" 0 cs audit verify
finish
