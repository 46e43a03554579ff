#!/bin/sh
# SPEC 13 (issue 32): keygen, a service that signs a checkpoint at every
# commit, receipts verified with the public key alone (approve and
# reject), bad receipts refused naming the step, and tampering as the
# service account, root or the superuser would: a record rewritten with
# the chain recomputed, a tail truncated, a correctly chained row
# appended by SQL.  Runs on PostgreSQL too (postgresql.sh).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }
command -v xxd >/dev/null 2>&1 || { echo "xxd is needed"; exit 77; }

MYGROUP=$(id -gn)
SOCK="$WORK/sock"
CKPT="$WORK/checkpoints"
SERVICE_PID=

# serve [OPTIONS...]: the service on $SOCK and $DB, once it answers.
serve() {
	"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --officers "$MYGROUP" \
		--importers "$MYGROUP" --checkpoint-file "$CKPT" "$@" \
		2>>"$WORK/serve.log" &
	SERVICE_PID=$!
	wait_for_socket "$SOCK" "$WORK/serve.log"
}
stop() {
	kill -TERM "$SERVICE_PID" 2>/dev/null || true
	wait "$SERVICE_PID" 2>/dev/null || true
	SERVICE_PID=
}
trap '[ -z "$SERVICE_PID" ] || kill -KILL "$SERVICE_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
remote() { "$COUNTERSIGN" --connect "$SOCK" "$@"; }
# decide ID approve|reject: one decision through the service.
decide() {
	printf '{"action_id":"%s","decision":"%s","reason":"checked"}\n' "$1" "$2" |
		remote batch
}

### 1. keygen: the signed-note encodings, the private key 0600.
cd "$WORK"
expect_status "keygen" 0 "$COUNTERSIGN" keygen gate.example/log "$WORK/log"
expect_eq "the private key is 0600" "$(stat -c %a "$WORK/log.key")" 600
expect_eq "stdout is the public key" "$(cat "$WORK/out")" "$(cat "$WORK/log.pub")"
expect_contains "private key encoding" "$WORK/log.key" "PRIVATE+KEY+gate.example/log+"
if grep -Eq '^gate\.example/log\+[0-9a-f]{8}\+A[Q-Za-f][A-Za-z0-9+/]{42}$' "$WORK/log.pub"; then
	pass "public key: NAME+KEYID+base64(0x01 || key)"
else fail "public key encoding: $(cat "$WORK/log.pub")"; fi
expect_status "keygen does not overwrite" 4 "$COUNTERSIGN" keygen gate.example/log "$WORK/log"
expect_status "a key name with a space" 2 "$COUNTERSIGN" keygen "a b" "$WORK/bad"
"$COUNTERSIGN" keygen other.example/log "$WORK/other" >/dev/null

### 2. serve: a key others may read is refused; without one, it says so.
cp "$WORK/log.key" "$WORK/open.key" && chmod 644 "$WORK/open.key"
import_passing_trades t 8
expect_status "serve refuses a key file others can read" 2 \
	"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --signing-key "$WORK/open.key"
expect_contains "it says why" "$WORK/err" "chmod 600"
expect_status "the key's name must be the log's name" 2 "$COUNTERSIGN" serve \
	--db "$DB" --socket "$SOCK" --signing-key "$WORK/log.key" --log-name x.example/y
serve
stop
expect_contains "without a key nothing is signed, and it says so" "$WORK/serve.log" \
	"no --signing-key: nothing is signed"

### 3. Decide, then receipts for approve and reject.
serve --signing-key "$WORK/log.key"
expect_status "approve t-0" 0 decide t-0 approve
expect_status "reject t-1" 0 decide t-1 reject
expect_status "receipt of the approval" 0 cs receipt t-0 -o "$WORK/r0"
expect_status "receipt of the rejection" 0 cs receipt t-1 -o "$WORK/r1"
expect_eq "a receipt's first line" "$(head -1 "$WORK/r0")" "c2sp.org/tlog-proof@v1"
expect_status "receipt of an undecided action" 1 cs receipt t-5
SHA=$(db_sql "SELECT record_json FROM audit_log WHERE seq = (SELECT audit_seq FROM decision WHERE action_id = 't-0')" | jq -r .packet_sha256)
expect_status "verify-receipt of the approval" 0 "$COUNTERSIGN" verify-receipt \
	"$WORK/r0" --key "$WORK/log.pub" --action t-0 --expect-sha256 "$SHA" --decision approve
expect_eq "it prints the record's fields" "$(jq -r '[.action_id, .decision, .packet_sha256] | join(" ")' "$WORK/out")" \
	"t-0 approve $SHA"
expect_eq "and the decision's id" "$(jq -r .decision_id "$WORK/out")" \
	"$(db_sql "SELECT decision_id FROM decision WHERE action_id = 't-0'")"
expect_status "verify-receipt of the rejection" 0 "$COUNTERSIGN" verify-receipt \
	"$WORK/r1" --key "$WORK/log.pub" --decision reject
expect_status "a rejection is not an approval" 1 "$COUNTERSIGN" verify-receipt \
	"$WORK/r1" --key "$WORK/log.pub" --decision approve
expect_contains "it names the step" "$WORK/err" "decision:"
expect_status "another action" 1 "$COUNTERSIGN" verify-receipt "$WORK/r0" \
	--key "$WORK/log.pub" --action t-1
expect_status "another packet" 1 "$COUNTERSIGN" verify-receipt "$WORK/r0" \
	--key "$WORK/log.pub" --expect-sha256 "$(printf x | sha256sum | cut -c1-64)"
expect_status "another log's key" 1 "$COUNTERSIGN" verify-receipt "$WORK/r0" \
	--key "$WORK/other.pub"
expect_contains "the signature step" "$WORK/err" "signature:"
expect_status "no key" 2 "$COUNTERSIGN" verify-receipt "$WORK/r0"

# Truncated, reordered, re-encoded, bit-flipped.
head -c 200 "$WORK/r0" >"$WORK/bad"
expect_status "a truncated receipt is not the format" 3 \
	"$COUNTERSIGN" verify-receipt "$WORK/bad" --key "$WORK/log.pub"
awk 'NR == 3 { held = $0; next } { print } NR == 4 { print held }' "$WORK/r0" >"$WORK/bad"
expect_status "index and proof reordered" 3 \
	"$COUNTERSIGN" verify-receipt "$WORK/bad" --key "$WORK/log.pub"
change_line_start 4 "$WORK/r0" >"$WORK/bad"
expect_status "a proof hash changed" 1 \
	"$COUNTERSIGN" verify-receipt "$WORK/bad" --key "$WORK/log.pub"
expect_contains "the inclusion step" "$WORK/err" "inclusion:"
sed '2s/=*$//' "$WORK/r0" >"$WORK/bad"
if cmp -s "$WORK/bad" "$WORK/r0"; then
	sed '2s/^extra /extra  /' "$WORK/r0" >"$WORK/bad"; fi
expect_status "extra re-encoded" 3 \
	"$COUNTERSIGN" verify-receipt "$WORK/bad" --key "$WORK/log.pub"
# The record itself changed: approve becomes reject, base64 redone.
extra=$(sed -n '2s/^extra //p' "$WORK/r0" | base64 -d | sed 's/"approve"/"reject"/' | base64 -w0)
sed "2s|.*|extra $extra|" "$WORK/r0" >"$WORK/bad"
expect_status "a record rewritten in the receipt" 1 \
	"$COUNTERSIGN" verify-receipt "$WORK/bad" --key "$WORK/log.pub"
# The checkpoint's size changed under its signature.
awk '/^gate.example\/log$/ { print; getline; print $0 + 1; next } { print }' "$WORK/r0" >"$WORK/bad"
expect_status "a checkpoint changed under its signature" 1 \
	"$COUNTERSIGN" verify-receipt "$WORK/bad" --key "$WORK/log.pub"

### 4. The checkpoint: stored, in the file's fourth field, consistent.
expect_status "audit checkpoint" 0 cs audit checkpoint
cp "$WORK/out" "$WORK/cp-early"
expect_eq "the checkpoint file's fourth field is the latest note" \
	"$(tail -1 "$CKPT" | cut -d' ' -f4 | base64 -d)" "$(cat "$WORK/cp-early")"
size_early=$(sed -n 2p "$WORK/cp-early")
expect_eq "one checkpoint a commit" "$(db_sql "SELECT count(*) FROM log_checkpoint")" 2
expect_status "audit checkpoint --size" 0 cs audit checkpoint --size "$size_early"
expect_status "no checkpoint of that size" 1 cs audit checkpoint --size 3
expect_status "audit checkpoint --size through the service" 0 \
	"$COUNTERSIGN" --connect "$SOCK" audit checkpoint --size "$size_early"
expect_eq "... the same note" "$(cat "$WORK/out")" "$(cat "$WORK/cp-early")"
expect_status "... and none of that size, as local mode" 1 \
	"$COUNTERSIGN" --connect "$SOCK" audit checkpoint --size 3
expect_status "--size is checkpoint's only" 2 "$COUNTERSIGN" --connect "$SOCK" audit verify --size 3
expect_status "a batch of two decisions" 0 sh -c "printf '%s\n%s\n' \
	'{\"action_id\":\"t-2\",\"decision\":\"approve\"}' \
	'{\"action_id\":\"t-3\",\"decision\":\"approve\"}' |
	\"$COUNTERSIGN\" --connect \"$SOCK\" batch"
expect_eq "signs once" "$(db_sql "SELECT count(*) FROM log_checkpoint")" 3
# The service's receipt and checkpoint methods (SPEC 12) answer the same texts.
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"receipt","params":{"action_id":"t-0"}}' |
	socat -t 30 - "UNIX-CONNECT:$SOCK" >"$WORK/rpc"
cs receipt t-0 >"$WORK/r0-now"
expect_eq "the receipt method answers the receipt" "$(jq -r .result.receipt "$WORK/rpc")" "$(cat "$WORK/r0-now")"
# countersign receipt through --connect (SPEC 12): the same text, -o
# written by the client, the same refusal's exit status.
expect_status "receipt through the service" 0 "$COUNTERSIGN" --connect "$SOCK" receipt t-0
expect_eq "... the same text as local mode" "$(cat "$WORK/out")" "$(cat "$WORK/r0-now")"
expect_status "receipt -o through the service" 0 "$COUNTERSIGN" --connect "$SOCK" receipt t-0 -o "$WORK/r0-remote"
expect_eq "... the file the client wrote" "$(cat "$WORK/r0-remote")" "$(cat "$WORK/r0-now")"
set +e
cs receipt t-0 -o "$WORK/r0-remote" 2>/dev/null
local_rc=$?
set -e
[ "$local_rc" -ne 0 ] || fail "local receipt -o wrote over a file"
expect_status "... never over a file that exists, as local mode" "$local_rc" \
	"$COUNTERSIGN" --connect "$SOCK" receipt t-0 -o "$WORK/r0-remote"
expect_status "receipt of an undecided action through the service" 1 "$COUNTERSIGN" --connect "$SOCK" receipt t-5
expect_contains "... not_decided" "$WORK/err" not_decided
expect_status "receipt without an id through the service" 2 "$COUNTERSIGN" --connect "$SOCK" receipt
printf '%s\n' '{"jsonrpc":"2.0","id":2,"method":"checkpoint"}' |
	socat -t 30 - "UNIX-CONNECT:$SOCK" >"$WORK/rpc"
cs audit checkpoint >"$WORK/cp-now"
expect_eq "the checkpoint method answers the latest checkpoint" "$(jq -r .result.checkpoint "$WORK/rpc")" "$(cat "$WORK/cp-now")"
expect_status "audit verify with the key" 0 cs audit verify --key "$WORK/log.pub"
expect_contains "it checked the signature" "$WORK/out" "its signature verified"
# The imports before the service had a key: unsigned up to the first checkpoint.
first=$(db_sql "SELECT min(size) FROM log_checkpoint")
expect_contains "it reports the unsigned stretch as such" "$WORK/out" \
	"unsigned up to its first checkpoint (tree size $first): records 1 to $first were signed only then"
expect_status "audit verify with another key" 1 cs audit verify --key "$WORK/other.pub"
expect_status "the early checkpoint is consistent" 0 \
	cs audit consistency "$WORK/cp-early" --key "$WORK/log.pub"
expect_status "not under another key" 1 \
	cs audit consistency "$WORK/cp-early" --key "$WORK/other.pub"
stop

# rechain STORE SEQ: every hash from SEQ on recomputed, as whoever can
# write the store could (SPEC 6's chain: prev_hash, "\n", record_json).
rechain() {
	last=$(db_q "$1" "SELECT max(seq) FROM audit_log")
	prev=$(db_q "$1" "SELECT prev_hash FROM audit_log WHERE seq = $2")
	s=$2
	while [ "$s" -le "$last" ]; do
		hex=$(db_q "$1" "SELECT $(sql_hex record_json) FROM audit_log WHERE seq = $s")
		h=$({ printf '%s\n' "$prev"; printf '%s' "$hex" | xxd -r -p; } | sha256sum | cut -c1-64)
		db_tamper "$1" audit_log_no_update \
			"UPDATE audit_log SET prev_hash = '$prev', hash = '$h' WHERE seq = $s"
		prev=$h
		s=$((s + 1))
	done
}
SAVED=$(db_copy saved)
cp "$CKPT" "$WORK/ckpt-saved"
# restore: the store and its checkpoint file as they were saved.
restore() { db_restore "$SAVED"; cp "$WORK/ckpt-saved" "$CKPT"; }

### 5. An old record rewritten, the chain recomputed (root; the superuser).
seq1=$(db_sql "SELECT audit_seq FROM decision WHERE action_id = 't-1'")
db_tamper "$DB" audit_log_no_update "UPDATE audit_log SET record_json = replace(record_json, '\"reason\":\"checked\"', '\"reason\":\"fine!!\"') WHERE seq = $seq1"
rechain "$DB" "$seq1"
expect_status "audit verify fails" 1 cs audit verify
# The chain is checked first: this is the tree's finding, the chain held.
expect_contains "the chain holds, the signed tree does not" "$WORK/out" \
	"no longer have the root their signed checkpoint gave"
expect_status "audit consistency with the early checkpoint fails" 1 \
	cs audit consistency "$WORK/cp-early" --key "$WORK/log.pub"
serve --signing-key "$WORK/log.key"
decide t-4 approve >/dev/null 2>&1 || true
stop
expect_status "after one more decision audit verify still fails" 1 cs audit verify
expect_status "and so does audit consistency" 1 \
	cs audit consistency "$WORK/cp-early" --key "$WORK/log.pub"

### 6. A tail truncated in the store, then one more decision.
restore
last=$(db_sql "SELECT max(seq) FROM audit_log")
db_tamper "$DB" "audit_log_no_delete audit_log_no_update decision_no_delete" \
	"DELETE FROM decision WHERE audit_seq = $last; DELETE FROM audit_log WHERE seq = $last"
serve --signing-key "$WORK/log.key"
expect_status "the service refuses to decide" 4 decide t-5 approve
stop
expect_contains "the checkpoint file's last head is gone" "$WORK/err" "no longer on the chain"
expect_status "audit verify fails" 1 cs audit verify
expect_contains "it says BROKEN" "$WORK/out" "BROKEN"

### 7. A decision "by bob" appended in SQL, correctly chained, as the
# service role could: the record, its decision row, the action decided.
restore
head_seq=$(db_sql "SELECT max(seq) FROM audit_log")
head_hash=$(db_sql "SELECT hash FROM audit_log WHERE seq = $head_seq")
forged=$(db_sql "SELECT record_json FROM audit_log WHERE seq = (SELECT audit_seq FROM decision WHERE action_id = 't-0')" |
	jq -c '.action_id = "t-6" | .operator.login = "bob"
		| .decision_id = "00000000-0000-4000-8000-000000000006"')
fh=$({ printf '%s\n' "$head_hash"; printf '%s' "$forged"; } | sha256sum | cut -c1-64)
at=$(printf '%s' "$forged" | jq -r .decided_at)
uid=$(printf '%s' "$forged" | jq -r .operator.uid)
db_sql "INSERT INTO audit_log (seq, record_json, prev_hash, hash) VALUES ($((head_seq + 1)), '$forged', '$head_hash', '$fh');
	INSERT INTO decision (action_id, decision_id, decision, operator_login, operator_uid, decided_at, audit_seq, escalate)
	VALUES ('t-6', '00000000-0000-4000-8000-000000000006', 'approve', 'bob', $uid, '$at', $((head_seq + 1)), 0);
	UPDATE action SET status = 'approved' WHERE action_id = 't-6';
	DELETE FROM queue_index WHERE action_id = 't-6'"
expect_status "audit verify fails on the forged row" 1 cs audit verify
expect_contains "naming its seq" "$WORK/out" "seq $((head_seq + 1))"
expect_contains "as beyond the signed checkpoint" "$WORK/out" "beyond the latest signed checkpoint"
serve --signing-key "$WORK/log.key"
expect_status "the next decision is refused" 4 decide t-5 approve
expect_contains "naming the first unattested record" "$WORK/err" "record $((head_seq + 1))"
stop
expect_contains "the service's own stderr says so too" "$WORK/serve.log" \
	"audit record $((head_seq + 1)) lies beyond the latest signed checkpoint"

### 8. The checkpoint file checked whole: missing, shorter, a line rewritten.
restore
rm "$CKPT"
serve --signing-key "$WORK/log.key"
expect_status "a missing checkpoint file stops the service deciding" 4 decide t-5 approve
expect_contains "... saying so" "$WORK/err" "is missing"
expect_status "audit verify through the service reports it" 1 remote audit verify
expect_contains "... as missing" "$WORK/out" "checkpoint file is missing"
stop
head -n 1 "$WORK/ckpt-saved" >"$CKPT"
serve --signing-key "$WORK/log.key"
expect_status "a shorter checkpoint file stops it too" 4 decide t-5 approve
expect_contains "... saying so" "$WORK/err" "shorter than the log left it"
stop
# An early line's head rewritten: only audit verify reads every line.
awk 'NR == 1 { $2 = "0000000000000000000000000000000000000000000000000000000000000000" } { print }' \
	"$WORK/ckpt-saved" >"$CKPT"
serve --signing-key "$WORK/log.key"
expect_status "audit verify reads every line" 1 remote audit verify
expect_contains "... naming it" "$WORK/out" "line 1 of the checkpoint file"
stop
restore
serve --signing-key "$WORK/log.key"
expect_status "the whole file as it was: deciding goes on" 0 decide t-5 approve
expect_status "and audit verify through the service holds" 0 remote audit verify
stop

### 9. The example orchestrator (SPEC 12, 13) against this signed log:
### it executes an approved trade only once verify-receipt accepts the
### receipt under the log's public key, and never a rejected one.
# orchestrate ID approve|reject: the orchestrator's exit status, its
# output in $WORK/orch.out, the officer's decision made meanwhile.
orchestrate() {
	# The orchestrator's account may not approve what it submitted
	# through the service (SPEC 5 v3), and here it is the officer's too:
	# the packet is imported in local mode first, which the gate does not
	# compare, and the submission finds it unchanged.
	jq -c --arg id "$1" '.proposed_action.action_id = $id
		| .reviewer_verdict.action_id = $id' \
		"$EXAMPLES/packet-trade-pass.json" >"$WORK/orch-packet.json"
	cs import "$WORK/orch-packet.json" >/dev/null
	python3 "$TOP_SRCDIR/examples/orchestrator.py" --socket "$SOCK" \
		--action-id "$1" --timeout 120 --key "$WORK/log.pub" \
		--countersign "$COUNTERSIGN" >"$WORK/orch.out" 2>&1 &
	orch=$!
	i=0
	until remote status "$1" >/dev/null 2>&1 || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
	decide "$1" "$2" >/dev/null
	set +e
	wait "$orch"
	orch_status=$?
	set -e
}
if command -v python3 >/dev/null 2>&1; then
	serve --signing-key "$WORK/log.key"
	orchestrate orch-1 approve
	expect_eq "orchestrator: an approval with a receipt that verifies is executed" "$orch_status" 0
	expect_contains "  and says what it executed" "$WORK/orch.out" "executed: buy BND x100"
	orchestrate orch-2 reject
	expect_eq "orchestrator: a rejection is not executed" "$orch_status" 1
	expect_contains "  and says why" "$WORK/orch.out" "not executed"
	stop
	serve
	orchestrate orch-3 approve
	expect_eq "orchestrator: an approval without a signed receipt is not executed" "$orch_status" 1
	expect_contains "  and says why" "$WORK/orch.out" "no receipt"
	stop
else
	echo "skip: the example orchestrator (no python3)"
fi

finish
