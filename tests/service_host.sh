#!/bin/sh
# Service mode on a shared host (SPEC 10, issue 19): a service account that
# alone owns the store, two officers and a non-officer, one service on a
# temporary socket.  The operator is whoever the kernel says connected:
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

SVC=cs-svc OFFICERS=cs-svc-officers IMPORTERS=cs-svc-importers READERS=cs-svc-readers
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
	rm -rf "$dir"
	for u in cs-carol cs-dave cs-erin cs-frank "$SVC"; do userdel "$u" 2>/dev/null || true; done
	for g in "$OFFICERS" "$IMPORTERS" "$READERS" "$SVC"; do groupdel "$g" 2>/dev/null || true; done
}
trap cleanup EXIT
groupadd -f "$OFFICERS"
groupadd -f "$IMPORTERS"
groupadd -f "$READERS"
id "$SVC" >/dev/null 2>&1 || useradd -r -M -U -s /usr/sbin/nologin "$SVC"
for u in cs-carol cs-dave cs-erin cs-frank; do
	id "$u" >/dev/null 2>&1 || useradd -M -U -s /bin/sh "$u"
done
usermod -a -G "$OFFICERS,$IMPORTERS" cs-carol
usermod -a -G "$OFFICERS" cs-dave
# (v3) frank reads: an auditor, or an executor waiting for decisions.
usermod -a -G "$READERS" cs-frank
# The program must be reachable by every account.
p=$(dirname "$CS")
while [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done

mkdir -m 700 "$STATE"
mkdir -m 755 "$RUN"
chown "$SVC:$SVC" "$STATE" "$RUN"

as() { u=$1; shift; runuser -u "$u" -- "$@"; }

# setpriv execs: $! is the service itself, which SIGTERM reaches.
setpriv --reuid="$SVC" --regid="$SVC" --init-groups "$CS" serve --socket "$SOCK" --db "$DB" --officers "$OFFICERS" \
	--importers "$IMPORTERS" --readers "$READERS" --checkpoint-file "$CKPT" 2>"$dir/serve.log" &
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
check "carol imports through the service" sh -c \
	"runuser -u cs-carol -- '$CS' --connect '$SOCK' import '$dir/in' >/dev/null"
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

# Group membership is read at each request: no restart needed.
gpasswd -d cs-dave "$OFFICERS" >/dev/null
check "dave, removed from the officers, is forbidden at once" sh -c \
	"! runuser -u cs-dave -- '$CS' --connect '$SOCK' list >/dev/null 2>&1"

kill -TERM "$SERVICE_PID"
wait "$SERVICE_PID" && ok "the service stops on SIGTERM with status 0" || fail "the service's status on SIGTERM"
SERVICE_PID=
if [ "$FAILURES" -ne 0 ]; then
	echo "$FAILURES check(s) failed"
	cat "$dir/serve.log"
	exit 1
fi
echo "all checks passed"
