#!/bin/sh
# Service mode on a shared host (SPEC 10, issue 19): a service account that
# alone owns the store, two officers (one of them an importer too), an
# importer, a non-officer, one service on a temporary socket.  The operator is whoever the kernel says connected:
# not USER, not a user namespace, not an LD_PRELOAD shim; officers cannot
# touch the store.  Needs root to create the accounts: .ci/run runs it; it
# is not part of `make check`.  Usage: tests/service_host.sh [countersign]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
CS=${1:-$top/countersign}
case $CS in /*) ;; *) CS=$(pwd)/$CS ;; esac
EX=$top/tests/data/examples
[ "$(id -u)" -eq 0 ] || { echo "service_host.sh: needs root (it creates accounts)"; exit 77; }
command -v jq >/dev/null || { echo "service_host.sh: needs jq"; exit 77; }
# Two runs at once would add and delete each other's accounts (on a
# developer's machine, helpers' trees side by side): one at a time.
if [ -z "${CS_HOST_TEST_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	export CS_HOST_TEST_LOCKED=1
	exec flock /tmp/countersign-host-tests.lock sh "$0" "$@"
fi

SVC=cs-svc OFFICERS=cs-svc-officers IMPORTERS=cs-svc-importers READERS=cs-svc-readers
# issue 35, point 2: readers and importers who attack the service.
READING_ATTACKERS="cs-att1 cs-att2 cs-att3 cs-att4 cs-att5 cs-att6 cs-att7 cs-att8"
IMPORTING_ATTACKERS="cs-imp1 cs-imp2 cs-imp3 cs-imp4"
ATTACKERS="$READING_ATTACKERS $IMPORTING_ATTACKERS"
dir=$(mktemp -d /tmp/cs-service.XXXXXX)
chmod 755 "$dir"
STATE=$dir/state RUN=$dir/run
SOCK=$RUN/sock DB=$STATE/countersign.db CKPT=$STATE/checkpoints
FAILURES=0
SERVICE_PID=
fail() { echo "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
ok() { echo "ok: $*"; }
check() { what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
cleanup() {
	[ -z "$SERVICE_PID" ] || kill -KILL "$SERVICE_PID" 2>/dev/null || true
	! command -v tmux >/dev/null 2>&1 || tm kill-server 2>/dev/null || true
	rm -rf "$dir"
	for u in cs-carol cs-dave cs-erin cs-frank cs-gina $ATTACKERS "$SVC"; do userdel "$u" 2>/dev/null || true; done
	for g in "$OFFICERS" "$IMPORTERS" "$READERS" "$SVC"; do groupdel "$g" 2>/dev/null || true; done
}
trap cleanup EXIT
groupadd -f "$OFFICERS"
groupadd -f "$IMPORTERS"
groupadd -f "$READERS"
id "$SVC" >/dev/null 2>&1 || useradd -r -M -U -s /usr/sbin/nologin "$SVC"
for u in cs-carol cs-dave cs-erin cs-frank cs-gina; do
	id "$u" >/dev/null 2>&1 || useradd -M -U -s /bin/sh "$u"
done
usermod -a -G "$OFFICERS,$IMPORTERS" cs-carol
usermod -a -G "$OFFICERS" cs-dave
# gina imports: an orchestrator's account, no officer.
usermod -a -G "$IMPORTERS" cs-gina
# (v3) frank reads: an auditor, or an executor waiting for decisions.
usermod -a -G "$READERS" cs-frank
for u in $ATTACKERS; do id "$u" >/dev/null 2>&1 || useradd -M -U -s /bin/sh "$u"; done
for u in $READING_ATTACKERS; do usermod -a -G "$READERS" "$u"; done
for u in $IMPORTING_ATTACKERS; do usermod -a -G "$IMPORTERS" "$u"; done
# The program must be reachable by every account.
p=$(dirname "$CS")
while [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done

mkdir -m 700 "$STATE"
mkdir -m 755 "$RUN"
chown "$SVC:$SVC" "$STATE" "$RUN"

as() { u=$1; shift; runuser -u "$u" -- "$@"; }

# setpriv execs: $! is the service itself, which SIGTERM reaches.
setpriv --reuid="$SVC" --regid="$SVC" --init-groups "$CS" serve --socket "$SOCK" --db "$DB" --officers "$OFFICERS" \
	--importers "$IMPORTERS" --readers "$READERS" --checkpoint-file "$CKPT" --spool-limit 8 2>"$dir/serve.log" &
SERVICE_PID=$!
i=0
until [ -S "$SOCK" ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done

# Data the officers can read; a packet carol requested herself.
mkdir -m 755 "$dir/in"
cp "$EX"/security_map.json "$EX"/ips.json "$EX"/holdings.json \
	"$EX"/packet-trade-pass.json "$dir/in/"
jq -c 'range(0; 6) as $i | .proposed_action.action_id = "h-\($i)"
	| .reviewer_verdict.action_id = "h-\($i)"
	| if $i < 2 then .proposed_action.requested_by = "cs-carol" else . end' \
	"$EX/packet-trade-pass.json" >"$dir/in/more.jsonl"
chmod 644 "$dir/in"/*
check "gina imports through the service" sh -c \
	"runuser -u cs-gina -- '$CS' --connect '$SOCK' import '$dir/in' >/dev/null"
check "dave, no importer, may not import" sh -c \
	"runuser -u cs-dave -- '$CS' --connect '$SOCK' import '$dir/in/ips.json' 2>&1 | grep -q forbidden"

decide() { # decide USER ACTION [ENV...]: the status of one approval
	u=$1 a=$2
	shift 2
	echo "{\"action_id\": \"$a\", \"decision\": \"approve\"}" |
		as "$u" env "$@" "$CS" --connect "$SOCK" batch | jq -r '.code // .status'
}
who() {
	as "$SVC" "$CS" --db "$DB" audit export |
		jq -r --arg id "$1" 'select(.record.action_id == $id) | .record | "\(.operator.login) \(.operator.uid)"'
}
CAROL="cs-carol $(id -u cs-carol)"
DAVE_UID=$(id -u cs-dave)

check "carol may not approve what she requested" [ "$(decide cs-carol h-0)" = self_approval ]
check "... dave may" [ "$(decide cs-dave h-0)" = recorded ]
check "... recorded as dave" [ "$(who h-0)" = "cs-dave $DAVE_UID" ]
check "USER and LOGNAME do not make carol dave" \
	[ "$(decide cs-carol h-2 USER=cs-dave LOGNAME=cs-dave)" = recorded ]
check "... recorded as carol" [ "$(who h-2)" = "$CAROL" ]

# A user namespace in which carol's uid reads as dave's.
echo '{"action_id": "h-3", "decision": "approve"}' >"$dir/h3"
chmod 644 "$dir/h3"
if as cs-carol unshare --user --map-user="$DAVE_UID" true 2>/dev/null; then
	as cs-carol unshare --user --map-user="$DAVE_UID" sh -c \
		'id -u; "$0" --connect "$1" batch "$2"' "$CS" "$SOCK" "$dir/h3" >"$dir/ns" 2>&1 || true
	check "inside the namespace carol's uid reads as dave's" [ "$(head -n 1 "$dir/ns")" = "$DAVE_UID" ]
	check "... and her decision is recorded as carol" [ "$(who h-3)" = "$CAROL" ]
	as cs-carol unshare --user --map-user=0 sh -c '"$0" --connect "$1" batch "$2"' \
		"$CS" "$SOCK" "$dir/h3" >/dev/null 2>&1 || true
	check "... and unshare -r makes her no root" [ "$(who h-3)" = "$CAROL" ]
else
	echo "skip: unprivileged user namespaces are not allowed here"
fi

# An LD_PRELOAD shim: getuid and getpwuid say dave, the clock says 2019.
if command -v cc >/dev/null 2>&1; then
	cat >"$dir/shim.c" <<EOF
#define _GNU_SOURCE
#include <pwd.h>
#include <time.h>
#include <unistd.h>
#include <dlfcn.h>
uid_t getuid(void) { return $DAVE_UID; }
uid_t geteuid(void) { return $DAVE_UID; }
struct passwd *getpwuid(uid_t u) {
	static struct passwd pw = { "cs-dave", "x", $DAVE_UID, $DAVE_UID, "", "/", "/bin/sh" };
	(void)u; return &pw;
}
int clock_gettime(clockid_t c, struct timespec *ts) {
	(void)c; ts->tv_sec = 1546300800; ts->tv_nsec = 0; return 0;
}
EOF
	cc -shared -fPIC -o "$dir/shim.so" "$dir/shim.c" -ldl
	chmod 755 "$dir/shim.so"
	check "under the shim" [ "$(decide cs-carol h-4 LD_PRELOAD="$dir/shim.so")" = recorded ]
	check "... the decision is carol's" [ "$(who h-4)" = "$CAROL" ]
	year=$(as "$SVC" "$CS" --db "$DB" audit export |
		jq -r 'select(.record.action_id == "h-4") | .record.decided_at[0:4]')
	check "... at the service's time, not 2019" [ "$year" = "$(date -u +%Y)" ]
	check "under the shim carol still cannot approve her own request" \
		[ "$(decide cs-carol h-1 LD_PRELOAD="$dir/shim.so")" = self_approval ]
fi

check "erin, no officer, is forbidden" sh -c \
	"runuser -u cs-erin -- '$CS' --connect '$SOCK' list 2>&1 | grep -q 'forbidden: cs-erin is not in the group .$OFFICERS.'"
check "... with exit status 1" sh -c "runuser -u cs-erin -- '$CS' --connect '$SOCK' list >/dev/null 2>&1; [ \$? -eq 1 ]"

# (v3) SPEC 12: a reader reads and waits, and neither decides nor imports.
jq -c '.proposed_action.action_id = "h-read" | .reviewer_verdict.action_id = "h-read"' \
	"$EX/packet-trade-pass.json" >"$dir/in/read.json"
chmod 644 "$dir/in/read.json"
as cs-carol "$CS" --connect "$SOCK" import "$dir/in/read.json" >/dev/null
check "frank, a reader, lists the queue" sh -c \
	"runuser -u cs-frank -- '$CS' --connect '$SOCK' list >/dev/null"
check "frank reads a status" sh -c \
	"runuser -u cs-frank -- '$CS' --connect '$SOCK' status h-read | jq -e '.state == \"pending\"' >/dev/null"
check "frank may not decide" [ "$(echo '{"action_id": "h-read", "decision": "approve"}' |
	as cs-frank "$CS" --connect "$SOCK" batch 2>&1 | grep -c forbidden)" = 1 ]
check "frank may not import" sh -c \
	"runuser -u cs-frank -- '$CS' --connect '$SOCK' import '$dir/in/ips.json' 2>&1 | grep -q forbidden"
for call in "status h-read" "wait h-read --timeout 0" "events" "receipt h-read" \
	"audit checkpoint"; do
	check "erin, no role, may not: $call" sh -c \
		"runuser -u cs-erin -- '$CS' --connect '$SOCK' $call 2>&1 | grep -q forbidden"
done
check "frank follows the log" sh -c \
	"runuser -u cs-frank -- '$CS' --connect '$SOCK' events | tail -n 1 | jq -e '.seq > 0' >/dev/null"
cat >"$dir/submit.py" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
f.write(b'{"jsonrpc":"2.0","id":1,"method":"submit","params":{"lines":[]}}\n'); f.flush()
print(json.loads(f.readline())["error"]["data"]["code"])
PY
chmod 644 "$dir/submit.py"
check "frank may not submit" [ "$(as cs-frank python3 "$dir/submit.py" "$SOCK")" = forbidden ]
# A wait from one account, woken by another's decision (the status
# behind it on the same connection shows the wait is held).
mkdir -m 700 "$dir/frank"
chown cs-frank "$dir/frank"
as cs-frank python3 -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
for i, m, p in ((1, "wait", {"action_id": "h-read", "timeout_ms": 120000}),
                (2, "status", {"action_id": "h-read"})):
    f.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": m, "params": p}).encode() + b"\n")
f.flush(); f.readline(); open(sys.argv[2], "w").close()
print(json.loads(f.readline())["result"]["state"])' "$SOCK" "$dir/frank/held" >"$dir/waited" &
WAITER=$!
i=0
until [ -e "$dir/frank/held" ] || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
decide cs-dave h-read >/dev/null
wait "$WAITER" || true
check "frank's wait is woken by dave's decision" [ "$(cat "$dir/waited")" = approved ]

# SPEC 5 (v3), issue 35 point 4: carol, an importer who is also an
# officer, may not approve what she imported through the service; dave
# may, and she may still reject it.
mkdir -m 755 "$dir/own"
jq -c 'range(0; 3) as $i | .proposed_action.action_id = "own-\($i)"
	| .reviewer_verdict.action_id = "own-\($i)"' "$EX/packet-trade-pass.json" >"$dir/own/c.jsonl"
chmod 644 "$dir/own"/*
as cs-carol "$CS" --connect "$SOCK" import "$dir/own" >/dev/null
check "importer: carol may not approve what she imported" [ "$(decide cs-carol own-0)" = self_approval ]
check "importer: ... the message says why" [ "$(echo '{"action_id": "own-0", "decision": "approve"}' |
	as cs-carol "$CS" --connect "$SOCK" batch | jq -r .message)" = "cs-carol imported this action and cannot approve it" ]
check "importer: ... nor under another name (USER, LOGNAME)" \
	[ "$(decide cs-carol own-0 USER=cs-dave LOGNAME=cs-dave)" = self_approval ]
check "importer: dave approves it" [ "$(decide cs-dave own-0)" = recorded ]
check "importer: ... recorded as dave" [ "$(who own-0)" = "cs-dave $DAVE_UID" ]
check "importer: carol may reject what she imported" [ "$(echo '{"action_id": "own-1", "decision": "reject", "reason": "withdrawn"}' |
	as cs-carol "$CS" --connect "$SOCK" batch | jq -r '.code // .status')" = recorded ]
check "importer: the store names carol as the service's importer" [ "$(as "$SVC" "$CS" --db "$DB" list --json |
	jq -r 'select(.action_id == "own-2") | "\(.imported_by.login) \(.imported_by.via)"')" = "cs-carol service" ]
check "importer: ... and gina as h-5's" [ "$(as "$SVC" "$CS" --db "$DB" list --json |
	jq -r 'select(.action_id == "h-5") | .imported_by.login')" = cs-gina ]

# SPEC 14 (issue 33): a quorum of two, carol and dave through the service.
# The service's own account imports, so that neither officer imported it.
mkdir -m 755 "$dir/quorum"
printf '{"type": "approval_policy", "policy_id": "four-eyes", "version": 1, "quorum": [{"kind": "trade", "when": "always", "approvals": 2}]}\n' \
	>"$dir/quorum/policy.json"
jq -c 'range(0; 2) as $i | .proposed_action.action_id = "q-\($i)"
	| .reviewer_verdict.action_id = "q-\($i)"' "$EX/packet-trade-pass.json" >"$dir/quorum/q.jsonl"
chmod 644 "$dir/quorum"/*
as "$SVC" "$CS" --db "$DB" import "$dir/quorum" >/dev/null 2>&1
decided_by() {
	as "$SVC" "$CS" --db "$DB" audit export | jq -r --arg id "$1" \
		'select(.record.action_id == $id and .record.event == "decision") | .record | "\(.operator.login) \(.operator.uid) \(.approvals | length)"'
}
check "quorum: carol's approval is partial" [ "$(decide cs-carol q-0)" = partial ]
check "quorum: carol again is duplicate_approver" [ "$(decide cs-carol q-0)" = duplicate_approver ]
check "quorum: dave completes it" [ "$(decide cs-dave q-0)" = recorded ]
check "quorum: the decision is dave's, naming one approval" [ "$(decided_by q-0)" = "cs-dave $DAVE_UID 1" ]
# Not a bare wait: the service is a child of this shell too.
decide cs-carol q-1 >"$dir/race-carol" &
carol_pid=$!
decide cs-dave q-1 >"$dir/race-dave" &
wait "$carol_pid" $!
check "quorum: carol and dave at once give one approval and one decision" \
	[ "$(cat "$dir/race-carol" "$dir/race-dave" | sort | tr '\n' ' ')" = "partial recorded " ]
# What carol imported herself she may not approve even in part.
jq -c '.proposed_action.action_id = "q-2" | .reviewer_verdict.action_id = "q-2"' \
	"$EX/packet-trade-pass.json" >"$dir/own/q2.json"
chmod 644 "$dir/own/q2.json"
as cs-carol "$CS" --connect "$SOCK" import "$dir/own/q2.json" >/dev/null
check "quorum: carol's partial approval of her own import is self_approval" [ "$(decide cs-carol q-2)" = self_approval ]
check "quorum: ... dave's is partial" [ "$(decide cs-dave q-2)" = partial ]
check "quorum: the log verifies" sh -c "runuser -u cs-dave -- '$CS' --connect '$SOCK' audit verify >/dev/null"

# SPEC 2.3 (v3, issue 36 point 7): carol, the product owner who asked for a
# change, judges its NEEDS-PO criterion through the service; dave approves.
mkdir -m 755 "$dir/judge"
jq -c '.proposed_action.action_id = "pj-1" | .proposed_action.requested_by = "cs-carol"' \
	"$EX/packet-change.json" >"$dir/judge/change.json"
cp "$EX/standards_index.json" "$dir/judge/"
chmod 644 "$dir/judge"/*
as "$SVC" "$CS" --db "$DB" import "$dir/judge" >/dev/null 2>&1
judge() { # judge USER ACTION JUDGMENT: the answer's status or code
	echo "{\"action_id\": \"$2\", \"decision\": \"judge\", \"po_judgments\": {\"AC-3\": \"$3\"}}" |
		as "$1" "$CS" --connect "$SOCK" batch | jq -r '.code // .status'
}
approve_change() { # approve_change USER ACTION: the answer's status or code
	echo "{\"action_id\": \"$2\", \"decision\": \"approve\", \"reason\": \"read\", \"acknowledge\": [\"high_stakes\", \"divergence\"]}" |
		as "$1" "$CS" --connect "$SOCK" batch | jq -r '.code // .status'
}
check "judge: carol judges the change she requested" [ "$(judge cs-carol pj-1 met)" = judged ]
check "judge: ... recorded as carol" [ "$(as "$SVC" "$CS" --db "$DB" audit export |
	jq -r 'select(.record.event == "po_judgment" and .record.action_id == "pj-1") | .record.operator.login')" = cs-carol ]
check "judge: dave judging otherwise is po_judgment_conflict" [ "$(judge cs-dave pj-1 unmet)" = po_judgment_conflict ]
check "judge: carol still may not approve it" [ "$(approve_change cs-carol pj-1)" = self_approval ]
check "judge: dave approves without judging again" [ "$(approve_change cs-dave pj-1)" = recorded ]
check "judge: the decision counts carol's judgment" [ "$(as "$SVC" "$CS" --db "$DB" audit export |
	jq -c 'select(.record.event == "decision" and .record.action_id == "pj-1") | [.record.operator.login, .record.po_judgments]')" = '["cs-dave",{"AC-3":"met"}]' ]

# --- issue 35, point 2: the exhaustion attacks ------------------------------
# Each attack runs until its stop file exists; while it runs, the service's
# RSS stays under 64 MiB, its spool under the cap (--spool-limit 8: 8 MiB an
# account, 32 MiB in all, 24 MiB of it for non-officers), and an officer's
# list is answered (within 10 s: latency is measured in bench/).
ATTACK=$top/tests/service_attack.py
mkdir -m 1777 "$dir/attack"
A=$dir/attack
rss_mib() { awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$SERVICE_PID/status"; }
# The upload spools: the service's unnamed files (O_TMPFILE), in MiB.
spool_kib() {
	python3 -c '
import os, re, sys
d = "/proc/%s/fd" % sys.argv[1]
total = 0
for fd in os.listdir(d):
    try:
        if re.search(r"/#[0-9]+ \(deleted\)$", os.readlink(os.path.join(d, fd))):
            total += os.stat(os.path.join(d, fd)).st_size
    except OSError:
        pass
print(total >> 10)' "$SERVICE_PID"
}
# until_ready FILE...: waits (at most 60 s) until each exists.
until_ready() {
	for f in "$@"; do
		i=0
		until [ -s "$f" ] || [ $i -ge 1200 ]; do sleep 0.05; i=$((i + 1)); done
		[ -s "$f" ] || { fail "no $(basename "$f") within 60 s"; return 1; }
	done
}
officer_lists() { timeout 10 runuser -u cs-carol -- "$CS" --connect "$SOCK" list >/dev/null 2>&1; }
# attack USER MODE NAME ARGS...: the helper as USER, ready file $A/NAME.
attack() {
	u=$1 mode=$2 name=$3
	shift 3
	runuser -u "$u" -- python3 "$ATTACK" "$mode" "$SOCK" "$A/$name" "$A/stop-$mode" "$@" \
		>"$A/$name.out" 2>&1 &
	echo $! >>"$A/pids-$mode"
}
end_attack() { touch "$A/stop-$1"; for p in $(cat "$A/pids-$1"); do wait "$p" || true; done; }
RSS_BEFORE=$(rss_mib)

# 1. Requests with 1 MB ids, and answers piled up unread, never read.
attack cs-att1 ids ids
until_ready "$A/ids" || true
check "ids: more than 96 MiB sent at the service" [ "$(cat "$A/ids")" -gt 96 ]
check "ids: the service's RSS stays under 64 MiB ($(rss_mib) MiB)" [ "$(rss_mib)" -lt 64 ]
check "ids: an officer's list is answered during the attack" officer_lists
check "ids: ... and the RSS is still under 64 MiB" [ "$(rss_mib)" -lt 64 ]
end_attack ids

# 2. Uploads spooled and left idle: 4 importers, 8 connections of 2 MiB each.
for u in $IMPORTING_ATTACKERS; do attack "$u" uploads "up-$u" 8 2048; done
attack cs-erin uploads up-erin 1 64
until_ready $(for u in $IMPORTING_ATTACKERS; do echo "$A/up-$u"; done) "$A/up-erin" || true
check "uploads: the spool stays under the non-officers' 24 MiB ($(spool_kib) KiB)" \
	[ "$(spool_kib)" -le $((24 * 1024)) ]
check "uploads: ... and holds what was allowed" [ "$(spool_kib)" -ge $((16 * 1024)) ]
for u in $IMPORTING_ATTACKERS; do
	check "uploads: $u keeps at most 8 MiB ($(cut -d' ' -f1-4 "$A/up-$u"))" \
		[ "$(cut -d' ' -f2 "$A/up-$u")" -le 4 ]
done
check "uploads: refused as too_large or busy" sh -c "cat $A/up-cs-imp* | grep -q 'too_large\|busy'"
check "uploads: erin, no role, is forbidden before anything is spooled" \
	[ "$(cat "$A/up-erin")" = "kept 0 refused 1 forbidden" ]
check "uploads: an officer's list is answered" officer_lists
got=$(decide cs-dave h-5 2>&1)
check "uploads: an officer's batch upload is taken meanwhile ($got)" [ "$got" = partial ]
check "uploads: the RSS stays under 64 MiB" [ "$(rss_mib)" -lt 64 ]
end_attack uploads

# 3. Connection slots: 8 readers holding 16 connections each, and erin.
for u in $READING_ATTACKERS; do attack "$u" hold "hold-$u" 16; done
attack cs-erin hold hold-erin 16
until_ready $(for u in $READING_ATTACKERS; do echo "$A/hold-$u"; done) "$A/hold-erin" || true
held=$(cat $(for u in $READING_ATTACKERS; do echo "$A/hold-$u"; done) | awk '{ n += $2 } END { print n }')
check "slots: the readers hold at most the 96 slots not kept for officers ($held)" [ "$held" -le 96 ]
check "slots: ... and were refused busy past them" sh -c "cat $A/hold-cs-att* | grep -q busy"
check "slots: erin, no role, holds one connection" [ "$(cut -d' ' -f1-3 "$A/hold-erin")" = "kept 1 forbidden" ]
check "slots: an officer's list is answered" officer_lists
check "slots: ... and another officer's" sh -c \
	"timeout 10 runuser -u cs-dave -- '$CS' --connect '$SOCK' list >/dev/null 2>&1"
check "slots: the RSS stays under 64 MiB" [ "$(rss_mib)" -lt 64 ]
end_attack hold
for what in "has no role" "connections, .* not officers'" "uploads over" "without the officer or importer role" \
    "bytes unread"; do
	check "the service logged the limit: $what" grep -q "limit: .*$what" "$dir/serve.log"
done
echo "RSS before the attacks: $RSS_BEFORE MiB"

for f in "$DB" "$DB-wal" "$CKPT" "$STATE"; do
	check "carol cannot read $(basename "$f")" sh -c "! runuser -u cs-carol -- cat '$f' >/dev/null 2>&1"
	check "carol cannot delete $(basename "$f")" sh -c "! runuser -u cs-carol -- rm -rf '$f' 2>/dev/null"
done
check "carol cannot open the store with sqlite3" sh -c \
	"! runuser -u cs-carol -- '$CS' --db '$DB' list >/dev/null 2>&1"
check "the store is still there" [ -s "$DB" ]

check "the checkpoint file has the head" [ "$(tail -n 1 "$CKPT" | cut -d' ' -f1)" = \
	"$(as "$SVC" "$CS" --db "$DB" audit export | tail -n 1 | jq -r .seq)" ]
check "dave verifies the chain through the service" sh -c \
	"runuser -u cs-dave -- '$CS' --connect '$SOCK' audit verify >/dev/null"

# SPEC 10 (v3), issue 35 point 3: an officer removed from the group while
# her review screens are open cannot approve from them, one action or the
# tagged ones; the screens say why and end.  tmux drives them.
TMUX_SOCKET="cs-service-host-$$"
tm() { tmux -L "$TMUX_SOCKET" "$@"; }
pane() { tm capture-pane -p -t 0; }
keys() { tm send-keys -t 0 "$@"; }
# pane_shows TEXT: waits until the pane does (30 s at most).
pane_shows() {
	i=0
	until pane 2>/dev/null | grep -qF -- "$1" || [ $i -ge 600 ]; do sleep 0.05; i=$((i + 1)); done
	pane 2>/dev/null | grep -qF -- "$1"
}
# screens_as USER: USER's review screens through the service, in a pane.
screens_as() {
	tm kill-server 2>/dev/null || true
	# A new session sent to a server still on its way out fails ("server
	# exited unexpectedly"): wait until the old one answers no more.
	i=0
	while tm has-session 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	rm -f "$dir/screens-exit"
	i=0
	until tm -f /dev/null new-session -d -x 200 -y 40 \
		"runuser -u $1 -- env TERM=xterm LANG=C.UTF-8 '$CS' --connect '$SOCK'; echo \$? >'$dir/screens-exit'; exec sleep 60" ||
		[ $i -ge 5 ]; do sleep 0.2; i=$((i + 1)); done
	pane_shows "pending"
}
screens_exit() {
	i=0
	until [ -s "$dir/screens-exit" ] || [ $i -ge 600 ]; do sleep 0.05; i=$((i + 1)); done
	cat "$dir/screens-exit" 2>/dev/null || echo running
}
dave_decided() {
	as "$SVC" "$CS" --db "$DB" audit export |
		jq -r --arg id "$1" 'select(.record.action_id == $id and .record.operator.login == "cs-dave") | .record.event' | wc -l
}
if command -v tmux >/dev/null 2>&1; then
	# SPEC 5 (v3): the detail names the importer; carol's own import is
	# refused in her screens, alone or tagged.
	screens_as cs-dave
	keys /; keys "own-2" Enter
	pane_shows "> " || true
	keys Enter
	check "screens: the detail names the importer" pane_shows "imported by cs-carol through the service"
	screens_as cs-carol
	keys /; keys "own-2" Enter
	pane_shows "> " || true
	keys a
	check "screens: carol's approve dialog for own-2" pane_shows "Approve own-2"
	keys Enter
	check "screens: ... refused, saying why" pane_shows "Refused (self_approval): cs-carol imported this action"
	keys Escape
	keys /; keys "own-2" Enter
	pane_shows "> " || true
	keys t
	keys /; keys C-u Enter
	pane_shows "1 tagged" || true
	keys A
	check "screens: carol's bulk approval leaves own-2 out" pane_shows "own-2 skipped: your own action"
	keys Escape
	check "screens: ... and own-2 is still pending" [ "$(as "$SVC" "$CS" --db "$DB" status own-2 | jq -r .state)" = pending ]
	screens_as cs-dave
	keys /; keys "h-1" Enter
	pane_shows "> " || true
	keys a
	check "screens: dave's approve dialog is open" pane_shows "Approve h-1"
	gpasswd -d cs-dave "$OFFICERS" >/dev/null
	keys Enter
	check "screens: removed, dave's approval is refused: the screens say why" \
		pane_shows "review screens ended: cs-dave is no longer in the group '$OFFICERS'"
	check "screens: ... and end, with exit status 1" [ "$(screens_exit)" = 1 ]
	check "screens: ... and nothing of dave's is recorded for h-1" [ "$(dave_decided h-1)" = 0 ]
	# The same for the tagged actions (A): none of them is decided.
	usermod -a -G "$OFFICERS" cs-dave
	screens_as cs-dave
	keys /; keys "h-1" Enter
	pane_shows "> " || true
	keys t
	keys /; keys C-u Enter
	check "screens: dave tags h-1" pane_shows "1 tagged"
	keys A
	check "screens: the bulk dialog" pane_shows "Approve 1 tagged"
	gpasswd -d cs-dave "$OFFICERS" >/dev/null
	keys 1 Enter
	check "screens: removed, the bulk approval is refused: the screens say why" \
		pane_shows "review screens ended: cs-dave is no longer in the group '$OFFICERS'"
	check "screens: ... and end, with exit status 1" [ "$(screens_exit)" = 1 ]
	check "screens: ... and nothing of dave's is recorded for h-1" [ "$(dave_decided h-1)" = 0 ]
	usermod -a -G "$OFFICERS" cs-dave
	tm kill-server 2>/dev/null || true
else
	echo "skip: the review screens of a removed officer (tmux is needed)"
fi

# Group membership is read at each request: no restart needed.
gpasswd -d cs-dave "$OFFICERS" >/dev/null
check "dave, removed from the officers, is forbidden at once" sh -c \
	"! runuser -u cs-dave -- '$CS' --connect '$SOCK' list >/dev/null 2>&1"

kill -TERM "$SERVICE_PID"
wait "$SERVICE_PID" && ok "the service stops on SIGTERM with status 0" || fail "the service's status on SIGTERM"
SERVICE_PID=

# Idle connections and their spools are closed after --idle-timeout.
setpriv --reuid="$SVC" --regid="$SVC" --init-groups "$CS" serve --socket "$SOCK" --db "$DB" --officers "$OFFICERS" \
	--importers "$IMPORTERS" --idle-timeout 2 2>>"$dir/serve.log" &
SERVICE_PID=$!
i=0
until [ -S "$SOCK" ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
rm -f "$A/pids-uploads" "$A/stop-uploads"
attack cs-imp1 uploads idle-up 2 1024
until_ready "$A/idle-up" || true
check "idle: the uploads are spooled ($(cat "$A/idle-up"))" [ "$(cut -d' ' -f1-2 "$A/idle-up")" = "kept 2" ]
# The helper ends once the service has closed both (at most 60 s).
i=0
while [ "$(grep -c 'closed by the service' "$A/idle-up.out" 2>/dev/null)" = 0 ] && [ $i -lt 1200 ]; do
	sleep 0.05; i=$((i + 1)); done
check "idle: the service closed both connections" grep -q 'closed by the service: 2 of 2' "$A/idle-up.out"
check "idle: ... and dropped their spools" [ "$(spool_kib)" = 0 ]
check "idle: ... and said so" grep -q 'limit: .*idle for 2 s, its uploads dropped: closed' "$dir/serve.log"
end_attack uploads
kill -TERM "$SERVICE_PID"
wait "$SERVICE_PID" || fail "the second service's status on SIGTERM"
SERVICE_PID=
SERVICE_PID=
if [ "$FAILURES" -ne 0 ]; then
	echo "$FAILURES check(s) failed"
	cat "$dir/serve.log"
	exit 1
fi
echo "all checks passed"
