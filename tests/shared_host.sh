#!/bin/sh
# Two Unix accounts in one group share one database in a setgid directory
# (issue 8).  Needs root to create the accounts: .ci/run runs it; it is not
# part of `make check`.  Usage: tests/shared_host.sh [path/to/countersign]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
CS=${1:-$top/countersign}
EX=$top/tests/data/examples
[ "$(id -u)" -eq 0 ] || { echo "shared_host.sh: needs root (it creates accounts)"; exit 77; }
command -v jq >/dev/null || { echo "shared_host.sh: needs jq"; exit 77; }
# One run at a time, as service_host.sh: two would share the accounts.
if [ -z "${CS_HOST_TEST_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	export CS_HOST_TEST_LOCKED=1
	exec flock /tmp/countersign-host-tests.lock sh "$0" "$@"
fi

GROUP=cs-officers
dir=$(mktemp -d /tmp/cs-shared.XXXXXX)
FAILURES=0
fail() { echo "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
ok() { echo "ok: $*"; }
cleanup() {
	rm -rf "$dir"
	for u in cs-alice cs-bob; do userdel "$u" 2>/dev/null || true; done
	groupdel "$GROUP" 2>/dev/null || true
}
trap cleanup EXIT
groupadd -f "$GROUP"
for u in cs-alice cs-bob; do
	id "$u" >/dev/null 2>&1 || useradd -M -N -g "$GROUP" -s /bin/sh "$u"
done
chgrp "$GROUP" "$dir"
chmod 2770 "$dir"
chmod o+rx "$(dirname "$CS")" 2>/dev/null || true
DB=$dir/countersign.db

# as USER COMMAND...: as that account, with a private umask.
as() {
	u=$1
	shift
	runuser -u "$u" -- sh -c 'umask 077; exec "$@"' sh "$@"
}

as cs-alice "$CS" --db "$DB" import "$EX/security_map.json" "$EX/ips.json" \
	"$EX/holdings.json" "$EX/packet-trade-pass.json" "$EX/packet-trade-divergent.json" >/dev/null
jq -c 'range(0; 200) as $i | .proposed_action.action_id = "s-\($i)" | .reviewer_verdict.action_id = "s-\($i)"' \
	"$EX/packet-trade-pass.json" >"$dir/more.jsonl"
chmod 644 "$dir/more.jsonl"
as cs-bob "$CS" --db "$DB" import "$dir/more.jsonl" >/dev/null && ok "bob imports into alice's database" ||
	fail "bob cannot import"

for f in "$DB" "$DB-wal" "$DB-shm"; do
	[ -e "$f" ] || continue
	mode=$(stat -c %a "$f"); group=$(stat -c %G "$f")
	[ "$mode" = 660 ] && [ "$group" = "$GROUP" ] && ok "$(basename "$f") is 660 $GROUP despite umask 077" ||
		fail "$(basename "$f") is $mode $group"
done

echo '{"action_id": "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11", "decision": "approve"}' >"$dir/a"
echo '{"action_id": "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22", "decision": "reject", "reason": "Stale IPS"}' >"$dir/b"
chmod 644 "$dir/a" "$dir/b"
as cs-alice env USER=cs-bob LOGNAME=cs-bob "$CS" --db "$DB" batch "$dir/a" >/dev/null && ok "alice decides" || fail "alice cannot decide"
as cs-bob env USER=cs-alice LOGNAME=cs-alice "$CS" --db "$DB" batch "$dir/b" >/dev/null && ok "bob decides" || fail "bob cannot decide"
who() { "$CS" --db "$DB" audit export | jq -r --arg id "$1" 'select(.record.action_id == $id) | .record.operator | "\(.login) \(.uid)"'; }
[ "$(who 0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11)" = "cs-alice $(id -u cs-alice)" ] && ok "alice's decision records alice, whatever USER says" ||
	fail "alice's decision records $(who 0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11)"
[ "$(who 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22)" = "cs-bob $(id -u cs-bob)" ] && ok "bob's decision records bob" ||
	fail "bob's decision records $(who 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22)"

# Eight processes, both accounts, overlapping actions: each decided once.
jq -nc 'range(0; 200) | {action_id: "s-\(.)", decision: "approve"}' >"$dir/all"
tac "$dir/all" >"$dir/reversed"
chmod 644 "$dir/all" "$dir/reversed"
for p in 1 2 3 4 5 6 7 8; do
	u=cs-alice; [ $((p % 2)) -eq 0 ] && u=cs-bob
	f=$dir/all; [ $((p % 3)) -eq 0 ] && f=$dir/reversed
	as "$u" "$CS" --db "$DB" batch "$f" >"$dir/out$p" 2>"$dir/err$p" &
done
wait
recorded=$(cat "$dir"/out? | jq -r 'select(.status == "recorded") | .action_id' | sort | uniq | wc -l)
total=$(cat "$dir"/out? | jq -r 'select(.status == "recorded") | .action_id' | wc -l)
[ "$recorded" = 200 ] && [ "$total" = 200 ] && ok "eight processes: 200 actions, each recorded once" ||
	fail "eight processes: $total recorded, $recorded distinct"
# Without syslog (a container), each process says once that no sink
# took its head (SPEC 6): that is not an error of the decisions.
grep -hv '^countersign: no syslog listens at ' "$dir"/err? >"$dir/errors" || true
[ "$(wc -c <"$dir/errors")" = 0 ] && ok "no process reported an error" || { fail "errors:"; cat "$dir/errors"; }
grep -qi 'busy\|locked' "$dir"/out? && fail "a busy error reached a user" || ok "no busy error reached a user"
"$CS" --db "$DB" audit verify >/dev/null && ok "the chain verifies" || fail "audit verify failed"
for f in "$DB" "$DB-wal" "$DB-shm"; do
	[ -e "$f" ] || continue
	[ "$(stat -c %a "$f")" = 660 ] && ok "$(basename "$f") still 660" || fail "$(basename "$f") is $(stat -c %a "$f")"
done
# A database left read-only (for alice): a clear refusal, no damage.
RO=$dir/readonly.db
cp "$DB" "$RO"
rm -f "$RO-wal" "$RO-shm"
chown root "$RO"
chmod 644 "$RO"
before=$(sha256sum <"$RO")
set +e
as cs-alice "$CS" --db "$RO" import "$EX/roster.json" >"$dir/ro.out" 2>"$dir/ro.err"
status=$?
set -e
[ "$status" = 4 ] && ok "importing into a read-only database: exit 4" || fail "read-only import exited $status"
grep -q 'countersign: .*readonly\|countersign: .*read-only\|countersign: .*permission' "$dir/ro.err" &&
	ok "with a clear message: $(head -1 "$dir/ro.err")" || { fail "unclear message:"; cat "$dir/ro.err"; }
[ "$(sha256sum <"$RO")" = "$before" ] && ok "the read-only database is unchanged" || fail "the read-only database changed"

echo "shared host: $((FAILURES == 0 ? 1 : 0)) passed, $((FAILURES == 0 ? 0 : 1)) failed"
[ "$FAILURES" -eq 0 ]
