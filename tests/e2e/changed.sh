#!/bin/sh
# SPEC 5 `changed` (issue 24, point 4): the packet an officer was shown is
# the packet decided.  packet_sha256 in check, list --json, the detail and
# the decision record; expect_sha256 in batch; the TUI always sends it; and
# INSERT OR REPLACE of an action is refused by the database.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
out=$WORK/out
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-trade-divergent.json" >/dev/null

# stored_sha256 ID: SHA-256 of the packet's stored bytes, from the store.
stored_sha256() {
	db_sql "SELECT $(sql_hex raw_json) FROM action WHERE action_id = '$1'" |
		xxd -r -p | sha256sum | cut -c1-64
}
# variant ID: the passing packet under another id.
variant() {
	jq -c --arg id "$1" '.proposed_action.action_id = $id
		| .reviewer_verdict.action_id = $id' "$EXAMPLES/packet-trade-pass.json"
}
# swap ID: another officer with the file rewrites the packet under its id
# (past the triggers, as the file's or the tables' owner can).
swap() {
	variant "$1" | jq -c '.proposed_action.quantity = 9999
		| .proposed_action.estimated_value_usd = 1' >"$WORK/swapped"
	if on_pg; then
		db_tamper "$DB" "" "UPDATE action SET raw_json = \$s\$$(cat "$WORK/swapped")\$s\$
		  WHERE action_id = '$1'" 2>"$WORK/sqlerr" ||
			{ fail "swap $1: $(cat "$WORK/sqlerr")"; }
		return
	fi
	sqlite3 "$DB" "DROP TRIGGER IF EXISTS action_refuses_replace;
		INSERT OR REPLACE INTO action (action_id, kind, user_id, raw_json,
		  imported_at_ms) SELECT action_id, kind, user_id,
		  CAST(readfile('$WORK/swapped') AS TEXT), imported_at_ms
		  FROM action WHERE action_id = '$1';" 2>"$WORK/sqlerr" ||
		{ fail "swap $1: $(cat "$WORK/sqlerr")"; }
}
decide() { printf '%s\n' "$1" >"$WORK/req"; cs batch "$WORK/req" >"$out" 2>"$WORK/err" || true; }

digest=$(stored_sha256 "$PASS")
expect_status "check" 0 cs check "$PASS"
expect_eq "check prints packet_sha256" "$(jq -r .packet_sha256 "$out")" "$digest"
expect_status "list --json" 0 cs list --json
expect_eq "list --json prints packet_sha256" \
	"$(jq -r --arg a "$PASS" 'select(.action_id == $a) | .packet_sha256' "$out")" "$digest"

# expect_sha256: a malformed one is a bad request.
decide "{\"action_id\":\"$PASS\",\"decision\":\"approve\",\"expect_sha256\":\"abc\"}"
expect_eq "a malformed expect_sha256 is a bad request" "$(jq -r .code "$out")" bad_request
decide "{\"action_id\":\"$PASS\",\"decision\":\"approve\",\"expect_sha256\":7}"
expect_eq "a number is a bad request" "$(jq -r .code "$out")" bad_request

# Another digest: refused `changed`, approve and reject alike.
other=$(printf x | sha256sum | cut -c1-64)
decide "{\"action_id\":\"$PASS\",\"decision\":\"approve\",\"expect_sha256\":\"$other\"}"
expect_eq "approve with another digest: changed" "$(jq -r .code "$out")" changed
decide "{\"action_id\":\"$PASS\",\"decision\":\"reject\",\"reason\":\"no\",\"expect_sha256\":\"$other\"}"
expect_eq "reject with another digest: changed" "$(jq -r .code "$out")" changed
# changed comes before the later refusals: no reason given here either.
decide "{\"action_id\":\"$PASS\",\"decision\":\"reject\",\"expect_sha256\":\"$other\"}"
expect_eq "changed before reason_required" "$(jq -r .code "$out")" changed
decide "{\"action_id\":\"nope\",\"decision\":\"approve\",\"expect_sha256\":\"$other\"}"
expect_eq "unknown_action before changed" "$(jq -r .code "$out")" unknown_action

# The digest shown, in upper case even: recorded, and the record names it.
upper=$(printf %s "$digest" | tr a-f A-F)
decide "{\"action_id\":\"$PASS\",\"decision\":\"approve\",\"expect_sha256\":\"$upper\"}"
expect_eq "the digest shown: recorded" "$(jq -r .status "$out")" recorded
expect_eq "the record names packet_sha256" \
	"$(cs audit export | jq -r --arg a "$PASS" 'select(.record.action_id == $a) | .record.packet_sha256')" "$digest"
decide "{\"action_id\":\"$PASS\",\"decision\":\"approve\",\"expect_sha256\":\"$other\"}"
expect_eq "already_decided before changed" "$(jq -r .code "$out")" already_decided

# REPLACE on the action table (an upsert on PostgreSQL) is refused by
# the database.
variant swapme >"$WORK/swapme.json"
cs import "$WORK/swapme.json" >/dev/null
if on_pg; then
	REPLACE="INSERT INTO action (action_id, kind, raw_json, imported_at_ms)
	  VALUES ('swapme', 'trade', '{}', 0) ON CONFLICT (action_id) DO UPDATE
	  SET kind = excluded.kind, raw_json = excluded.raw_json,
	  imported_at_ms = excluded.imported_at_ms"
else
	REPLACE="INSERT OR REPLACE INTO action (action_id, kind, raw_json,
	  imported_at_ms) VALUES ('swapme', 'trade', '{}', 0);"
fi
set +e
db_sql "$REPLACE" 2>"$WORK/sqlerr"
got=$?
set -e
expect_eq "INSERT OR REPLACE INTO action is refused" "$([ "$got" -ne 0 ] && echo refused)" refused
expect_contains "by the trigger" "$WORK/sqlerr" "immutable"

# A packet swapped under the digest an officer saw: refused, not approved.
shown=$(stored_sha256 swapme)
swap swapme
decide "{\"action_id\":\"swapme\",\"decision\":\"approve\",\"expect_sha256\":\"$shown\"}"
expect_eq "a swapped packet: changed" "$(jq -r .code "$out")" changed
expect_eq "and nothing recorded" \
	"$(cs audit export | jq -r 'select(.record.action_id == "swapme")' | wc -l)" 0

# The TUI: the detail shows the digest, and a swap under the open detail
# is refused when approving from it.
variant tuiswap >"$WORK/tuiswap.json"
cs import "$WORK/tuiswap.json" >/dev/null
tui_start 160 70
keys /; keys tuiswap Enter
wait_for "tuiswap"
keys Enter
expect_screen "the detail shows the packet's digest" "packet sha256: $(stored_sha256 tuiswap)"
swap tuiswap
keys a
wait_for "Approve tuiswap"
keys Enter
expect_screen "approving the swapped packet from the detail: refused" "Refused (changed)"
keys Escape
keys q
tui_stop
expect_eq "nothing recorded for it" \
	"$(cs audit export | jq -r 'select(.record.action_id == "tuiswap")' | wc -l)" 0

finish
