#!/bin/sh
# SPEC 7: usage errors, help, version, the database path and exit codes.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

expect_status "--version" 0 "$COUNTERSIGN" --version
expect_contains "prints the version" "$WORK/out" "countersign "
expect_status "--help" 0 "$COUNTERSIGN" --help
for word in import list check demo --db --all --json; do
	expect_contains "help names $word" "$WORK/out" "$word"
done
expect_status "an unknown command" 2 "$COUNTERSIGN" frobnicate
expect_contains "errors start with countersign:" "$WORK/err" "countersign: "
expect_status "an unknown option" 2 "$COUNTERSIGN" list --frob
expect_status "a short option that does not exist" 2 "$COUNTERSIGN" -d x.db list
expect_contains "is an unknown option, not one without a value" "$WORK/err" "unknown option -d"
expect_status "--db without a value" 2 "$COUNTERSIGN" list --db
expect_contains "needs a value" "$WORK/err" "--db needs a value"
expect_status "an option of another command" 2 "$COUNTERSIGN" check --all
expect_status "-o without a value" 2 "$COUNTERSIGN" receipt x -o
expect_contains "says -o needs one" "$WORK/err" "-o needs a value"
# The command table (issue 38): --help lists each verb once, no variant.
expect_status "--help again" 0 "$COUNTERSIGN" --help
expect_eq "audit checkpoint listed once" "$(grep -c '^  audit checkpoint' "$WORK/out")" 1
expect_status "an option of another audit verb" 2 "$COUNTERSIGN" audit export --all
expect_contains "the usage is that verb's" "$WORK/err" "Usage: countersign audit export"
# What the service cannot carry is refused before connecting, by name.
remote_usage() { # remote_usage WHAT MESSAGE ARGS...
	what=$1 message=$2
	shift 2
	expect_status "$what" 2 "$COUNTERSIGN" --connect "$WORK/no.sock" "$@"
	expect_contains "$what: says why" "$WORK/err" "$message"
}
remote_usage "--key through --connect" "countersign: --key does not work through --connect" \
	audit verify --key k.pub
remote_usage "--size of audit export through --connect" \
	"countersign: --size does not work through --connect" audit export --size 3
remote_usage "--csv with audit checkpoint --size through --connect" \
	"countersign: --csv does not work through --connect" audit checkpoint --size 2 --csv
remote_usage "audit consistency through --connect" \
	"countersign: 'audit' does not work through --connect" audit consistency note
remote_usage "serve through --connect" "countersign: 'serve' does not work through --connect" serve
# $COUNTERSIGN_SOCKET: every command the service runs goes there, the
# ones it never runs stay here, and --db keeps a command local.
expect_status "list with \$COUNTERSIGN_SOCKET" 4 env COUNTERSIGN_SOCKET="$WORK/no.sock" \
	"$COUNTERSIGN" list
expect_contains "tries the service" "$WORK/err" "cannot connect to the service at $WORK/no.sock"
expect_status "keygen with \$COUNTERSIGN_SOCKET" 2 env COUNTERSIGN_SOCKET="$WORK/no.sock" \
	"$COUNTERSIGN" keygen
expect_contains "stays local" "$WORK/err" "Usage: countersign keygen NAME PREFIX"
expect_status "list --db with \$COUNTERSIGN_SOCKET" 4 env COUNTERSIGN_SOCKET="$WORK/no.sock" \
	"$COUNTERSIGN" --db "$WORK/none.db" list
expect_contains "opens the database" "$WORK/err" "no database at"
# What was typed is echoed through the sanitizer, as every message is.
esc=$(printf '\033')
bel=$(printf '\007')
expect_status "an unknown command with escapes" 2 "$COUNTERSIGN" "bogus${esc}]0;X${bel}"
expect_contains "the command shows escaped" "$WORK/err" "unknown command 'bogus\\e]0;X^G'"
expect_eq "and no raw escape reaches stderr" "$(tr -d '\n' <"$WORK/err" | grep -c "$esc")" 0
expect_status "an unknown option with escapes" 2 "$COUNTERSIGN" list "--x${esc}]0;X${bel}"
expect_contains "the option shows escaped" "$WORK/err" "unknown option --x\\e]0;X^G"
expect_eq "and no raw escape reaches stderr" "$(tr -d '\n' <"$WORK/err" | grep -c "$esc")" 0
expect_status "import without paths" 2 cs import
expect_status "list takes no operands" 2 cs list extra

# An audit usage error says what is wrong, prefixed, before the usage.
usage_error() { # usage_error WHAT FIRST-LINE ARGS...
	what=$1 first=$2
	shift 2
	expect_status "$what" 2 cs "$@"
	expect_eq "$what: the first line says why" "$(head -n 1 "$WORK/err")" "$first"
	expect_contains "$what: then the usage" "$WORK/err" "Usage: countersign audit verify"
}
usage_error "audit alone" "countersign: audit needs verify, export or replay" audit
usage_error "an unknown audit command" "countersign: unknown audit command 'frob'" audit frob
usage_error "audit verify --csv" "countersign: an option given does not apply to 'audit verify'" audit verify --csv
usage_error "audit export --checkpoint" "countersign: an option given does not apply to 'audit export'" \
	audit export --checkpoint 1:x
usage_error "audit replay without an id" "countersign: audit replay needs an ACTION_ID" audit replay
usage_error "audit verify with an operand" "countersign: too many arguments" audit verify extra

expect_status "list on a database that does not exist" 4 cs list
if on_pg; then
	# An empty PostgreSQL database: no tables are made in it either.
	expect_contains "says so" "$WORK/err" "has no countersign data yet"
	expect_eq "and did not create it" \
		"$(db_sql "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")" 0
else
	expect_contains "says so" "$WORK/err" "no database at"
	expect_eq "and did not create it" "$(test -e "$DB" && echo yes || echo no)" no
fi

echo 'this is not a database at all, not even close to one, really' >"$WORK/bad.db"
expect_status "a file that is not SQLite" 4 "$COUNTERSIGN" --db "$WORK/bad.db" list

# $COUNTERSIGN_DB, then $XDG_DATA_HOME; --db wins over both.
COUNTERSIGN_DB="$WORK/env.db" "$COUNTERSIGN" import "$EXAMPLES/ips.json" >/dev/null
expect_eq "COUNTERSIGN_DB is used" "$(test -f "$WORK/env.db" && echo yes)" yes
env -u COUNTERSIGN_DB XDG_DATA_HOME="$WORK/xdg" "$COUNTERSIGN" import "$EXAMPLES/ips.json" >/dev/null
expect_eq "XDG_DATA_HOME is used, directories made" \
	"$(test -f "$WORK/xdg/countersign/countersign.db" && echo yes)" yes
COUNTERSIGN_DB="$WORK/env.db" "$COUNTERSIGN" --db "$WORK/flag.db" import "$EXAMPLES/ips.json" >/dev/null
expect_eq "--db wins" "$(test -f "$WORK/flag.db" && echo yes)" yes
# An empty --db is a mistake (an unset variable), not "the default".
expect_status "--db with an empty path" 2 env COUNTERSIGN_DB="$WORK/env.db" "$COUNTERSIGN" --db "" list
expect_contains "says so" "$WORK/err" "countersign: --db needs a path"
expect_status "--db= with an empty path" 2 env COUNTERSIGN_DB="$WORK/env.db" "$COUNTERSIGN" --db= list
# An empty COUNTERSIGN_DB is unset, as the convention goes.
env COUNTERSIGN_DB= XDG_DATA_HOME="$WORK/xdg2" "$COUNTERSIGN" import "$EXAMPLES/ips.json" >/dev/null
expect_eq "an empty COUNTERSIGN_DB counts as unset" \
	"$(test -f "$WORK/xdg2/countersign/countersign.db" && echo yes)" yes

expect_status "list on an empty queue" 0 cs import "$EXAMPLES/ips.json"
expect_status "list" 0 cs list
expect_contains "says the queue is empty" "$WORK/out" "No pending actions."

# The demo runs from the build tree on the bundled data and cleans up.
export TMPDIR="$WORK"
expect_status "demo" 0 env COUNTERSIGN_DATA_DIR="$TOP_SRCDIR/data" "$COUNTERSIGN" demo
expect_contains "demo shows the queue" "$WORK/out" "BUY MO x600"
expect_eq "demo removed its database" "$(ls -d "$WORK"/countersign-demo-* 2>/dev/null | wc -l)" 0

# Without COUNTERSIGN_DATA_DIR, a program with a data/ beside it (a build
# tree) runs its demo; a copy is used so that the build's own layout
# cannot matter.
mkdir "$WORK/tree"
cp "$COUNTERSIGN" "$WORK/tree/countersign"
cp -R "$TOP_SRCDIR/data" "$WORK/tree/data"
expect_status "demo finds the data beside the program" 0 \
	env -u COUNTERSIGN_DATA_DIR "$WORK/tree/countersign" demo
expect_contains "and shows its queue" "$WORK/out" "BUY MO x600"
# Missing data is an installation problem (4), named where it was looked for.
expect_status "demo without its data" 4 \
	env COUNTERSIGN_DATA_DIR="$WORK/none" "$COUNTERSIGN" demo
expect_contains "it names where it looked" "$WORK/err" "not installed (looked in $WORK/none)"
rm -rf "$WORK/tree/data"
set +e
env -u COUNTERSIGN_DATA_DIR "$WORK/tree/countersign" demo >"$WORK/out" 2>"$WORK/err"
status=$?
set -e
if [ $status -eq 0 ]; then
	pass "demo without data beside it: the installed data is used"
else
	expect_eq "demo without any data (exit status)" $status 4
	expect_contains "it names both places" "$WORK/err" ", $WORK/tree/data)"
fi
finish
