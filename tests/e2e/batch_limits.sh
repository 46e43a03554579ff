#!/bin/sh
# Issue 24, point 7: batch reads at most 1 MiB + 1 byte of a line and drops
# the rest up to its newline (a 200 MB line once took 200 MB, /dev/zero a
# gigabyte), and --atomic holds a piped input of at most 64 MiB in its
# temporary file (it once filled /tmp at 480 MB a second).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

import_passing_trades t 3
out=$WORK/out

# A 2 MiB line between two good ones: refused on its own, the others decided.
{ approvals t 1; head -c 2097152 /dev/zero | tr '\0' ' '; echo; approvals t 2 | tail -1; } >"$WORK/long.batch"
expect_status "a 2 MiB line between two good ones" 1 cs batch "$WORK/long.batch"
expect_eq "three results" "$(wc -l <"$out" | tr -d ' ')" 3
expect_eq "the long line is a bad request, over 1 MiB" \
	"$(sed -n 2p "$out" | jq -c '[.line, .code, .message]')" '[2,"bad_request","the line is over 1 MiB"]'
expect_eq "the lines around it are recorded" \
	"$(jq -r .status "$out" | tr '\n' ' ')" "recorded refused recorded "

# 300 MB of NUL bytes without a newline, from a pipe: one bad request,
# read in little memory (under half the line, room left for sanitizers).
if [ -x /usr/bin/time ]; then
	set +e
	head -c 300000000 /dev/zero | /usr/bin/time -f %M -o "$WORK/rss" \
		"$COUNTERSIGN" --db "$DB" batch >"$out" 2>"$WORK/err"
	set -e
	expect_eq "300 MB without a newline: one bad request" \
		"$(jq -c '[.line, .code]' "$out")" '[1,"bad_request"]'
	rss=$(tail -1 "$WORK/rss")
	expect_eq "read in under 150 MB of memory (was ${rss} kB)" \
		"$([ "$rss" -lt 150000 ] && echo yes)" yes
fi

# --atomic from a pipe: more than 64 MiB is refused before any decision.
set +e
{ approvals t 3 | tail -1; head -c 68000000 /dev/zero | tr '\0' ' '; echo; } |
	"$COUNTERSIGN" --db "$DB" batch --atomic >"$out" 2>"$WORK/err"
got=$?
set -e
expect_eq "--atomic over 64 MiB from a pipe: bad input" "$got" 3
expect_contains "it says why" "$WORK/err" "at most 64 MiB"
expect_eq "nothing recorded" "$(db_sql "SELECT count(*) FROM decision")" 2
# Under the limit it runs as ever.
expect_status "--atomic under the limit from a pipe" 0 sh -c \
	"printf '%s\n' '{\"action_id\":\"t-2\",\"decision\":\"approve\"}' | \"$COUNTERSIGN\" --db \"$DB\" batch --atomic"
finish
