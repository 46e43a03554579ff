# Shared by the end-to-end tests: a scratch database and small assertions.
# Sourced; $COUNTERSIGN and $TOP_SRCDIR come from the Makefile.
set -eu

: "${COUNTERSIGN:?run through make check}"
: "${TOP_SRCDIR:?run through make check}"

command -v jq >/dev/null 2>&1 || { echo "jq is needed (scripts/install-deps.sh)"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cs-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# tests/e2e/postgresql.sh runs the store's tests again with a PostgreSQL
# URI here (issue 20).
DB="${COUNTERSIGN_TEST_DB:-$WORK/countersign.db}"
EXAMPLES="$TOP_SRCDIR/tests/data/examples"
FAILURES=0

# The bundled copy must be the contract's examples, not a drifted copy.
if [ -d "$TOP_SRCDIR/../shared/spec/examples" ]; then
	diff -r "$TOP_SRCDIR/../shared/spec/examples" "$EXAMPLES" >/dev/null ||
		{ echo "FAIL: tests/data/examples differs from shared/spec/examples"; exit 1; }
fi

cs() { "$COUNTERSIGN" --db "$DB" "$@"; }

fail() { echo "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
pass() { echo "ok: $*"; }

# progress TEXT: a line for whoever watches make check, which keeps a
# test's own output in its log until it ends.  Makefile.am hands tests
# the terminal's stderr as descriptor 7 (AM_TESTS_FD_REDIRECT); a test run
# by hand has no descriptor 7 and prints nothing (nor one that another
# test runs, which closes it for it).
# Each line says how long the script has run, so that a CI log shows
# where the time goes; nothing reads it back.
PROGRESS_START=$(date +%s)
progress() {
	{ printf '  %s: +%ss %s\n' "${0##*/}" "$(($(date +%s) - PROGRESS_START))" \
	    "$*" >&7; } 2>/dev/null || true
}

# expect_eq WHAT GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got [$2], want [$3]"; fi
}

# expect_status WHAT WANT COMMAND...: runs it, output to $WORK/out, $WORK/err
expect_status() {
	what=$1 want=$2
	shift 2
	set +e
	"$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
	set -e
	expect_eq "$what (exit status)" "$got" "$want"
}

# expect_contains WHAT FILE TEXT
expect_contains() {
	if grep -qF -- "$3" "$2"; then pass "$1"; else
		fail "$1: [$3] not in $2:"; sed 's/^/    /' "$2"; fi
}

# wait_for_socket SOCKET [LOG]: until a service answers at SOCKET (a
# condition, polled for up to a minute); if none does, LOG is shown and
# the test ends failed.  socat runs without LD_PRELOAD, which is for the
# service alone (signed_log_faults.sh).
wait_for_socket() {
	wfs_tries=0
	until env -u LD_PRELOAD socat -u OPEN:/dev/null "UNIX-CONNECT:$1" 2>/dev/null; do
		if [ $wfs_tries -ge 1200 ]; then
			[ -z "${2:-}" ] || cat "$2"
			echo "FAIL: no service at $1"
			exit 1
		fi
		sleep 0.05
		wfs_tries=$((wfs_tries + 1))
	done
}

# change_line_start N FILE: FILE on stdout with line N's first character
# changed for certain (to A, or to B when it was A); the receipts' hashes
# are random, so a fixed replacement is sometimes no change at all.
change_line_start() {
	awk -v n="$1" 'NR == n { $0 = (substr($0, 1, 1) == "A" ? "B" : "A") substr($0, 2) } { print }' "$2"
}

# dump: the whole store as text (on PostgreSQL without the rowid
# sequences' values, which a rolled-back insert advances too, nor the
# random key of each dump's \restrict line).
dump() {
	if on_pg; then
		pg_dump --no-owner -d "$DB" >"$WORK/pg_dump"
		grep -v -e '^\\\(un\)\{0,1\}restrict ' -e "^SELECT pg_catalog\.setval('[^']*_rowid_seq'" "$WORK/pg_dump"
	else
		sqlite3 "$DB" .dump
	fi
}

# stderr_but_sink FILE...: the files' text without the line that says no
# syslog took the new audit head (SPEC v2 6), which a host without one
# prints once per command.
stderr_but_sink() { cat "$@" | grep -v '^countersign: no syslog listens at ' || true; }

finish() {
	if [ "$FAILURES" -ne 0 ]; then
		echo "$FAILURES check(s) failed"
		exit 1
	fi
	echo "all checks passed"
}

# import_passing_trades PREFIX N: the policy examples and N copies of the
# passing trade, PREFIX-0 .. PREFIX-(N-1), each with an agreeing advisory.
import_passing_trades() {
	cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
		"$EXAMPLES/holdings.json" >/dev/null
	jq -c --arg p "$1" --argjson n "$2" 'range(0; $n) as $i
		| .proposed_action.action_id = "\($p)-\($i)"
		| .reviewer_verdict.action_id = "\($p)-\($i)"' \
		"$EXAMPLES/packet-trade-pass.json" >"$WORK/packets-$1.jsonl"
	cs import "$WORK/packets-$1.jsonl" >/dev/null
}

# approvals PREFIX N: batch lines approving PREFIX-0 .. PREFIX-(N-1).
approvals() {
	jq -nc --arg p "$1" --argjson n "$2" \
		'range(0; $n) | {action_id: "\($p)-\(.)", decision: "approve"}'
}

# kill_batch_after N STATUS LINES OUT: run batch on LINES into OUT and
# SIGKILL it once N answers of STATUS are written (or it ends first).
# Not through cs(): $! must be countersign itself, not a subshell.
kill_batch_after() {
	: >"$4"
	"$COUNTERSIGN" --db "$DB" batch "$3" >"$4" 2>/dev/null &
	kill_pid=$!
	kill_tries=0
	while [ "$(grep -c "\"$2\"" "$4")" -lt "$1" ] &&
		[ $kill_tries -lt 3000 ] &&
		kill -0 $kill_pid 2>/dev/null; do
		sleep 0.01
		kill_tries=$((kill_tries + 1))
	done
	kill -KILL $kill_pid 2>/dev/null ||
		echo "note: killed after $1: the batch had finished"
	wait $kill_pid 2>/dev/null || true
}

# db_sql and its kin: the store's rows on either backend (issue 20).
. "$TOP_SRCDIR/tests/e2e/db_lib.sh"
