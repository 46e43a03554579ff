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

dump() { sqlite3 "$DB" .dump; }

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

# The store under test as SQL, on either backend (issue 20): a STORE is a
# SQLite file or a postgresql:// URI (postgresql.sh's server, reached as
# its superuser).  Rows print as sqlite3 prints them: "a|b", NULL empty
# (PostgreSQL's booleans print t and f).
is_pg() { case $1 in postgres://* | postgresql://*) return 0 ;; *) return 1 ;; esac; }
on_pg() { is_pg "$DB"; }

# db_q STORE SQL: SQL on that store; db_sql SQL: on $DB.
db_q() {
	if is_pg "$1"; then
		PGCLIENTENCODING=UTF8 PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" -c "$2"
	else
		sqlite3 "$1" "$2"
	fi
}
db_sql() { db_q "$DB" "$1"; }

# pg_name: $DB's database name; pg_named NAME: $DB's server, database NAME.
pg_name() { printf '%s\n' "$DB" | sed 's|^[a-z]*://[^/]*/\([^?]*\).*|\1|'; }
pg_named() { printf '%s\n' "$DB" | sed "s|^\([a-z]*://[^/]*/\)[^?]*|\1$1|"; }
# pg_create NAME [TEMPLATE]: database $DB's name_NAME made again, printed.
pg_create() {
	n="$(pg_name)_$1"
	db_q "$(pg_named postgres)" "DROP DATABASE IF EXISTS \"$n\" WITH (FORCE)" >/dev/null
	db_q "$(pg_named postgres)" "CREATE DATABASE \"$n\"${2:+ TEMPLATE \"$2\"}" >/dev/null
	pg_named "$n"
}

# db_new NAME: a new, empty store (prints it); db_copy NAME: a copy of $DB
# as it is now (countersign holds no connection to it between commands).
db_new() {
	if on_pg; then pg_create "$1"; else rm -f "$WORK/$1.db"; echo "$WORK/$1.db"; fi
}
db_copy() {
	if on_pg; then pg_create "$1" "$(pg_name)"; else cp "$DB" "$WORK/$1.db"; echo "$WORK/$1.db"; fi
}

# db_tamper STORE "TRIGGER..." SQL: SQL as a writer of the store can run
# it past the named refusing triggers: SQLite's are dropped; on PostgreSQL
# the superuser sets session_replication_role, which silences them all (as
# the tables' owner could disable them).
db_tamper() {
	if is_pg "$1"; then
		db_q "$1" "SET session_replication_role = replica; $3"
	else
		t_drops=
		for t in $2; do t_drops="$t_drops DROP TRIGGER IF EXISTS $t;"; done
		db_q "$1" "$t_drops $3"
	fi
}

# sqlite_only WHAT: false, saying so, on PostgreSQL; for the checks of
# SQLite itself (its file, its pragmas, its typing).
sqlite_only() {
	if on_pg; then echo "skip: $1 (SQLite only)"; return 1; fi
	return 0
}
