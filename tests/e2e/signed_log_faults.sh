#!/bin/sh
# SPEC 13 (issue 32), the signed log under faults: a signing failure at a
# commit never reports a decision recorded that is not in the log; and a
# signing service killed with SIGKILL during group commits leaves a tree
# and a chain that agree, under a latest checkpoint that verifies, with
# every decision it answered "recorded" in the log.  Runs on PostgreSQL
# too (postgresql.sh).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }

MYGROUP=$(id -gn)
SOCK="$WORK/sock"
CKPT="$WORK/checkpoints"
SERVICE_PID=

# serve [OPTIONS...]: the signing service on $SOCK and $DB, once it answers.
serve() {
	rm -f "$SOCK"
	"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --officers "$MYGROUP" \
		--importers "$MYGROUP" --checkpoint-file "$CKPT" \
		--signing-key "$WORK/log.key" "$@" 2>>"$WORK/serve.log" &
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
decide() {
	printf '{"action_id":"%s","decision":"approve"}\n' "$1" | remote batch
}
# recorded_in_log RUNFILE WHAT: every line of RUNFILE answered "recorded"
# names an action decided in the store.
recorded_in_log() {
	jq -R -r 'fromjson? | select(.status == "recorded") | .action_id' "$1" |
		sort >"$WORK/said"
	db_sql "SELECT action_id FROM decision" | sort >"$WORK/there"
	expect_eq "$2: every answer \"recorded\" is in the log" \
		"$(comm -23 "$WORK/said" "$WORK/there" | wc -l)" 0
}
# agree WHAT: audit verify under the key: chain, tree and the latest
# checkpoint's signature; and a decision row per decision record.
agree() {
	expect_status "$1: audit verify with the key" 0 cs audit verify --key "$WORK/log.pub"
	expect_contains "$1: the latest checkpoint's signature verified" "$WORK/out" \
		"its signature verified"
	expect_eq "$1: the latest checkpoint covers the whole log" \
		"$(db_sql 'SELECT max(size) FROM log_checkpoint')" \
		"$(db_sql 'SELECT max(seq) FROM audit_log')"
	expect_eq "$1: a decision row per decision record" \
		"$(db_sql 'SELECT count(*) FROM decision')" \
		"$(db_sql "SELECT count(*) FROM audit_log WHERE json_extract(record_json, '\$.event') = 'decision'")"
}

"$COUNTERSIGN" keygen faults.example/log "$WORK/log" >/dev/null
N=11000
import_passing_trades k "$N"
approvals k "$N" >"$WORK/decisions"

serve
expect_status "a first signed decision" 0 decide k-0
stop

### 1. Signing fails at commit time (the key unusable): nothing is said
# recorded that is not in the log; a decision is refused (storage) and
# rolled back, and the next commit that signs covers all there is.
preload=
# Under AddressSanitizer its runtime must come first among what is loaded.
asan_runtime=$(ldd "$COUNTERSIGN" 2>/dev/null | awk '/libasan/ { print $3; exit }')
if command -v cc >/dev/null 2>&1 &&
	cc -shared -fPIC -o "$WORK/sign_fail.so" "$TOP_SRCDIR/tests/e2e/sign_fail.c" -ldl 2>"$WORK/cc.err" &&
	LD_PRELOAD="${asan_runtime:+$asan_runtime }$WORK/sign_fail.so" "$COUNTERSIGN" --version >/dev/null 2>"$WORK/cc.err"; then
	preload="${asan_runtime:+$asan_runtime }$WORK/sign_fail.so"
fi
if [ -n "$preload" ]; then
	: >"$WORK/serve.log"
	COUNTERSIGN_TEST_SIGN_FAIL="$WORK/fail-signing" LD_PRELOAD="$preload" serve
	touch "$WORK/fail-signing"
	expect_status "signing fails: the decision is refused" 4 decide k-1
	expect_contains "  as a storage error" "$WORK/out" '"storage_error"'
	expect_eq "  and it is not in the log" \
		"$(db_sql "SELECT count(*) FROM decision WHERE action_id = 'k-1'")" 0
	sed -n '2,200p' "$WORK/decisions" >"$WORK/group"
	set +e
	remote batch "$WORK/group" >"$WORK/run" 2>/dev/null
	set -e
	recorded_in_log "$WORK/run" "a group while signing fails"
	expect_eq "  none was answered recorded" "$(grep -c '"recorded"' "$WORK/run" || true)" 0
	agree "after signing failed"
	rm "$WORK/fail-signing"
	expect_status "signing works again: the decision is recorded" 0 decide k-1
	stop
	agree "the next signed commit"
	expect_status "its receipt verifies" 0 cs receipt k-1 -o "$WORK/r1"
	expect_status "  with the public key" 0 "$COUNTERSIGN" verify-receipt "$WORK/r1" \
		--key "$WORK/log.pub" --action k-1
else
	echo "skip: signing made to fail (cannot preload a shared object here: $(cat "$WORK/cc.err" 2>/dev/null))"
fi

### 2. SIGKILL of the signing service during group commits, several times.
# A file sent whole is at hand at once: its lines share commits of up to
# 512 (SPEC 8), each commit signs once; the answers of a group come after
# its commit, so each kill lands in a later group's, wherever in it.
# The service and its request's child die together, as a crash or
# systemd's SIGKILL of the unit's processes would leave them.
from=201
for at in 1 300 513 800 1025; do
	sed -n "$from,$((from + 1499))p" "$WORK/decisions" >"$WORK/slice"
	from=$((from + 1500))
	serve
	: >"$WORK/run"
	"$COUNTERSIGN" --connect "$SOCK" batch "$WORK/slice" >"$WORK/run" 2>/dev/null &
	client=$!
	tries=0
	while [ "$(grep -c '"recorded"' "$WORK/run" || true)" -lt "$at" ] && [ $tries -lt 6000 ] &&
		kill -0 $client 2>/dev/null; do
		sleep 0.01
		tries=$((tries + 1))
	done
	kill -0 $client 2>/dev/null || echo "note: killed after $at: the batch had finished"
	# shellcheck disable=SC2046
	kill -KILL "$SERVICE_PID" $(ps -o pid= --ppid "$SERVICE_PID") 2>/dev/null || true
	wait "$SERVICE_PID" 2>/dev/null || true
	SERVICE_PID=
	wait $client 2>/dev/null || true
	agree "killed after $at recorded"
	recorded_in_log "$WORK/run" "killed after $at recorded"
done
# The service carries on over what the killed ones left.
serve
expect_status "a new service decides on" 0 decide k-10999
agree "after the kills"

### 3. audit verify while the service commits: one snapshot, never a
# false BROKEN from records, tree and checkpoints of different commits.
sed -n "$from,10998p" "$WORK/decisions" >"$WORK/slice"
"$COUNTERSIGN" --connect "$SOCK" batch "$WORK/slice" >"$WORK/run" 2>/dev/null &
client=$!
during=0 broken=0 rounds=0
while kill -0 $client 2>/dev/null && [ $rounds -lt 200 ]; do
	rounds=$((rounds + 1))
	if cs audit verify >"$WORK/v" 2>&1; then :; else
		broken=$((broken + 1)); cp "$WORK/v" "$WORK/v-broken"; fi
	kill -0 $client 2>/dev/null && during=$((during + 1))
done
wait $client 2>/dev/null || true
stop
[ "$during" -gt 0 ] || echo "note: the batch ended before audit verify could overlap it"
expect_eq "audit verify, $during times while the service decided: never BROKEN" "$broken" 0
[ "$broken" -eq 0 ] || cat "$WORK/v-broken"
agree "after deciding under audit verify"
finish
