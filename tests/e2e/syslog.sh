#!/bin/sh
# SPEC 6 / issue 3: after each commit the new audit head goes to syslog
# (facility authpriv), so a truncated log can be caught against it; and
# (SPEC 13) a service's refusal to extend the signed log goes there too, at
# authpriv.err.  strace shows what countersign sends; when nothing listens
# on /dev/log, a throw-away socat listener takes the message.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

command -v strace >/dev/null 2>&1 || { echo "strace is needed"; exit 77; }

# No syslog (issue 24, SPEC v2 6): a command that writes new heads says
# so on stderr, once.  Without /dev/log here that is the host as it is;
# with one, a mount namespace hides it, where that is allowed.
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" >/dev/null 2>&1
jq -c '.proposed_action.action_id = "n1" | .reviewer_verdict.action_id = "n1"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/n.jsonl"
jq -c '.proposed_action.action_id = "n2" | .reviewer_verdict.action_id = "n2"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/n.jsonl"
cs import "$WORK/n.jsonl" >/dev/null 2>&1
printf '%s\n' '{"action_id":"n1","decision":"approve"}' \
	'{"action_id":"n2","decision":"approve"}' >"$WORK/n.batch"
nosink=
if [ ! -e /dev/log ]; then
	"$COUNTERSIGN" --db "$DB" batch "$WORK/n.batch" >/dev/null 2>"$WORK/nosink" && nosink=yes
elif unshare -rm sh -c 'mount --bind /dev/null /dev/log' 2>/dev/null; then
	unshare -rm sh -c 'mount --bind /dev/null /dev/log &&
		exec "$1" --db "$2" batch "$3"' sh "$COUNTERSIGN" "$DB" "$WORK/n.batch" \
		>/dev/null 2>"$WORK/nosink" && nosink=yes
fi
if [ -n "$nosink" ]; then
	expect_eq "no syslog: said once for two new heads" \
		"$(grep -c '^countersign: no syslog listens at /dev/log: the new audit head (seq [0-9]*, hash [0-9a-f]*) has no copy outside the database' "$WORK/nosink")" 1
else
	echo "skip: cannot run without a syslog here"
fi
if on_pg; then DB=$(db_new heads); else rm -f "$DB" "$DB-wal" "$DB-shm"; fi
listener=""
if [ ! -e /dev/log ]; then
	command -v socat >/dev/null 2>&1 && [ -w /dev ] || { echo "cannot listen on /dev/log"; exit 77; }
	socat -u UNIX-RECV:/dev/log,mode=666 OPEN:"$WORK/syslog",creat,append &
	listener=$!
	tries=0
	while [ ! -S /dev/log ] && [ $tries -lt 6000 ]; do sleep 0.01; tries=$((tries + 1)); done
fi
cleanup() {
	if [ -n "$listener" ]; then kill "$listener" 2>/dev/null || true; rm -f /dev/log; fi
	rm -rf "$WORK"
}
trap cleanup EXIT

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" >/dev/null
echo '{"action_id": "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11", "decision": "approve"}' >"$WORK/d"
# LeakSanitizer cannot run under ptrace: in a sanitizer build, skip it here.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -s 512 -e trace=sendto,sendmsg,write -o "$WORK/trace" \
	"$COUNTERSIGN" --db "$DB" batch "$WORK/d" >/dev/null
cs audit verify >"$WORK/verify"
# Security map, IPS and (v2) holdings: three policy records, then the decision.
head=$(sed -n 's/.*head seq \([0-9]*\) hash \([0-9a-f]*\).*/seq=\1 hash=\2/p' "$WORK/verify")
expect_eq "the head is known" "$(echo "$head" | cut -c1-6)" "seq=4 "
expect_contains "the head was sent to syslog" "$WORK/trace" "audit head $head"
# Facility authpriv (10 * 8) with severity info (6): priority 86.
expect_contains "at authpriv.info" "$WORK/trace" '"<86>'
if [ -n "$listener" ]; then
	sleep 0.2
	expect_contains "the listener received it" "$WORK/syslog" "audit head $head"
fi

# A newline in the database path cannot forge a second syslog line.
EVIL_DB="$WORK/x
forged.db"
"$COUNTERSIGN" --db "$EVIL_DB" import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" >/dev/null
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -s 512 -e trace=sendto,sendmsg,write -o "$WORK/trace2" \
	"$COUNTERSIGN" --db "$EVIL_DB" batch "$WORK/d" >/dev/null
expect_contains "the path's newline is sent escaped" "$WORK/trace2" 'db='"$WORK"'/x^Jforged.db'
expect_eq "and never raw" "$(grep -c 'db=[^"]*\\nforged' "$WORK/trace2" || true)" 0

# SPEC 13: a service that refuses to extend the signed log (here: the
# checkpoint file's last head is no longer on the chain) says so on its
# own stderr and to syslog, at authpriv.err (10 * 8 + 3: priority 83).
if command -v socat >/dev/null 2>&1; then
	"$COUNTERSIGN" keygen syslog.example/log "$WORK/log" >/dev/null
	for id in sl-1 sl-2; do
		jq -c --arg id "$id" '.proposed_action.action_id = $id | .reviewer_verdict.action_id = $id' \
			"$EXAMPLES/packet-trade-pass.json"
	done >"$WORK/sl.jsonl"
	cs import "$WORK/sl.jsonl" >/dev/null 2>&1
	# serve_traced: the signing service under strace, once it answers.
	serve_traced() {
		rm -f "$WORK/sock"
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -s 1024 -e trace=sendto,sendmsg -o "$WORK/$1" \
			"$COUNTERSIGN" serve --db "$DB" --socket "$WORK/sock" \
			--officers "$(id -gn)" --importers "$(id -gn)" \
			--checkpoint-file "$WORK/checkpoints" \
			--signing-key "$WORK/log.key" 2>"$WORK/serve.log" &
		strace_pid=$!
		wait_for_socket "$WORK/sock" "$WORK/serve.log"
	}
	# stop_traced: the service (strace's child) stopped, then strace ends.
	stop_traced() {
		kill -TERM $(ps -o pid= --ppid "$strace_pid") 2>/dev/null || true
		wait "$strace_pid" 2>/dev/null || true
	}
	decide_sl() {
		printf '{"action_id":"%s","decision":"approve"}\n' "$1" |
			"$COUNTERSIGN" --connect "$WORK/sock" batch
	}
	serve_traced trace-signed
	expect_status "a signing service decides" 0 decide_sl sl-1
	stop_traced
	expect_eq "  and refused nothing" "$(grep -c 'refusing to extend' "$WORK/trace-signed" || true)" 0
	sed '$s/ [0-9a-f]\{64\} / 0000000000000000000000000000000000000000000000000000000000000000 /' \
		"$WORK/checkpoints" >"$WORK/rewritten"
	cp "$WORK/rewritten" "$WORK/checkpoints"
	serve_traced trace-refused
	expect_status "a checkpoint file off the chain: the next decision is refused" 4 decide_sl sl-2
	stop_traced
	expect_contains "  the client is told" "$WORK/err" "no longer on the chain"
	expect_contains "  the service's stderr says so" "$WORK/serve.log" \
		"countersign: the last line of the checkpoint file"
	expect_contains "  syslog is told, naming the line" "$WORK/trace-refused" \
		"refusing to extend the audit log: the last line of the checkpoint file"
	expect_contains "  at authpriv.err" "$WORK/trace-refused" '"<83>'
	if [ -n "$listener" ]; then
		tries=0
		until grep -q 'refusing to extend' "$WORK/syslog" 2>/dev/null || [ $tries -ge 600 ]; do
			sleep 0.05; tries=$((tries + 1)); done
		expect_contains "  the listener received it" "$WORK/syslog" \
			"refusing to extend the audit log"
	fi
else
	echo "skip: the refusal to extend the signed log (no socat)"
fi
finish
