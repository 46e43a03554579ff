#!/bin/sh
# SPEC 7 (v3): list --filter on every field and operator, terms combined,
# the usage errors that name the term, and the same filter through the
# service (params.filter).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/roster.json" \
	"$EXAMPLES/standards_index.json" >/dev/null 2>&1
# F-small: the passing trade, expiring in three hours; F-big: a $150,000
# XOM buy for another requester; F-old: expired a year ago.  With the
# legal draft, the change NB-412 and the divergent MO trade.
soon=$(date -u -d '+3 hours' +%Y-%m-%dT%H:%M:%SZ)
jq -c --arg soon "$soon" '.proposed_action.action_id = "F-small"
	| .reviewer_verdict.action_id = "F-small"
	| .proposed_action.expires_at = $soon' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/trades.jsonl"
jq -c '.proposed_action.action_id = "F-big" | .reviewer_verdict.action_id = "F-big"
	| .proposed_action.ticker = "XOM" | .proposed_action.quantity = 1200
	| .proposed_action.estimated_value_usd = 150000
	| .proposed_action.requested_by = "desk.ortiz"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/trades.jsonl"
jq -c '.proposed_action.action_id = "F-old" | .reviewer_verdict.action_id = "F-old"
	| .proposed_action.expires_at = "2025-11-30T00:00:00Z"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/trades.jsonl"
cs import "$WORK/trades.jsonl" "$EXAMPLES/packet-legal-draft.json" \
	"$EXAMPLES/packet-change.json" "$EXAMPLES/packet-trade-divergent.json" \
	>/dev/null 2>&1
DIV=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22

# ids EXPR: the ids list --filter EXPR prints as JSON lines, sorted.
ids() { cs list --json --filter "$1" 2>/dev/null | jq -r .action_id | sort | tr '\n' ' ' | sed 's/ $//'; }
# flagged WORD: the ids list --json shows with that flag word, sorted.
flagged() { cs list --json 2>/dev/null | jq -r --arg w "$1" 'select(.flags | index($w)) | .action_id' | sort | tr '\n' ' ' | sed 's/ $//'; }

expect_eq "no filter: all six" "$(ids '')" "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22 F-big F-old F-small NB-412 legal-2026-0042"

# --- FIELD:TEXT, case-insensitive substrings of one field ------------------
expect_eq "id:" "$(ids 'id:F-SMALL')" "F-small"
expect_eq "id: any part" "$(ids 'id:b-4')" "NB-412"
expect_eq "kind:" "$(ids 'kind:LEGAL')" "legal-2026-0042"
expect_eq "user:" "$(ids 'user:u-1001')" "$DIV F-big F-old F-small"
expect_eq "ticker:" "$(ids 'ticker:xom')" "F-big"
expect_eq "ticker: of a trade only" "$(ids 'ticker:MO')" "$DIV"
expect_eq "requester:" "$(ids 'requester:ORTIZ')" "F-big"
expect_eq "author:" "$(ids 'author:developer')" "NB-412"
expect_eq "summary:" "$(ids 'summary:x1200')" "F-big"
expect_eq "a field names only itself" "$(ids 'author:ortiz')" ""

# --- bare words: any field, as the screens' search -------------------------
expect_eq "bare word" "$(ids 'ortiz')" "F-big"
expect_eq "bare word, any case" "$(ids 'MARKDOWNLINT')" "NB-412"

# --- flag:F, each as list --json flags it ----------------------------------
expect_eq "flag:H" "$(ids 'flag:H')" "$(flagged high_stakes)"
expect_eq "flag:x" "$(ids 'flag:x')" "$(flagged local_fail)"
expect_eq "flag:!" "$(ids 'flag:!')" "$(flagged divergence)"
expect_eq "flag:E" "$(ids 'flag:E')" "F-old"
expect_eq "flag:H names someone" "$(ids 'flag:H' | wc -w)" 3
expect_eq "flag:L (none locked out)" "$(ids 'flag:L')" "$(flagged locked_out)"
expect_eq "flag:D (none deadlocked)" "$(ids 'flag:D')" "$(flagged deadlocked)"
expect_eq "flag:Q (no quorum pending)" "$(ids 'flag:Q')" ""

# --- value>N, value<N: trades only -----------------------------------------
expect_eq "value>N" "$(ids 'value>10000')" "$DIV F-big"
expect_eq "value>N is strict" "$(ids 'value>150000')" ""
expect_eq "value<N" "$(ids 'value<10000')" "F-old F-small"
expect_eq "value<N is strict" "$(ids 'value<7500')" ""
expect_eq "value>0: no other kind" "$(ids 'value>0')" "$DIV F-big F-old F-small"
expect_eq "value with cents" "$(ids 'value>7499.99 value<7500.01')" "F-old F-small"

# --- expires<D: pending, not yet expired ------------------------------------
expect_eq "expires<4h" "$(ids 'expires<4h')" "F-small"
expect_eq "expires<1d" "$(ids 'expires<1d')" "F-small"
expect_eq "expires<2h" "$(ids 'expires<2h')" ""
expect_eq "expires<300m" "$(ids 'expires<300m')" "F-small"

# --- terms together: all must hold ------------------------------------------
expect_eq "kind, flag and value" "$(ids 'kind:trade flag:H value>100000')" "F-big"
expect_eq "one term failing fails all" "$(ids 'ticker:bnd value>100000')" ""

# --- the table: the header, the rows and "Nothing matches." ---------------
cs list --filter 'ticker:xom' >"$WORK/table" 2>/dev/null
expect_eq "the table: a header and F-big's row" \
    "$(grep -c 'F-big' "$WORK/table") $(grep -c '^FLG' "$WORK/table") $(grep -c 'F-small' "$WORK/table")" "1 1 0"
cs list --filter 'ticker:none' >"$WORK/table" 2>/dev/null
expect_eq "an empty result says so" "$(cat "$WORK/table")" "Nothing matches."
# list's AGE counts from drafted_at (2026-11-29), not from import (now).
age=$(cs list --filter 'id:F-small' 2>/dev/null | awk '/F-small/ { print $NF }')
case $age in *s) fail "AGE from drafting: got $age, the import's age" ;; *) pass "AGE from drafting ($age)" ;; esac

# --- with --all: decided actions are filtered too ---------------------------
printf '%s\n' '{"action_id": "F-small", "decision": "approve"}' | cs batch >/dev/null 2>&1
expect_eq "a decided action leaves the pending filter" "$(ids 'ticker:bnd')" "F-old"
expect_eq "--all --filter finds it" "$(cs list --all --json --filter 'ticker:bnd' 2>/dev/null |
    jq -r '[.action_id, .status] | join(":")' | sort | tr '\n' ' ')" "F-old:expired F-small:approved "
expect_eq "expires<D: a decided action is not pending" "$(cs list --all --json --filter 'expires<1d' 2>/dev/null | wc -l)" 0

# --- usage errors: exit 2, naming the term ----------------------------------
for term in 'colour:red' 'user:' 'user>5' 'flag:Z' 'flag:Hx' 'value>ten' \
    'value:5' 'value<' 'expires<2w' 'expires>1d' 'expires<1'; do
	expect_status "usage error: $term" 2 cs list --filter "kind:trade $term"
	expect_contains "the message names $term" "$WORK/err" "'$term'"
	expect_eq "nothing on stdout for $term" "$(wc -c <"$WORK/out")" 0
done
expect_contains "an unknown field lists the known ones" "$WORK/err" "countersign: filter term"
expect_status "--filter without a value" 2 cs list --filter
expect_contains "says it needs one" "$WORK/err" "--filter needs a value"
expect_status "--filter is list's" 2 cs check --filter kind:trade
expect_status "a bad filter fails before any database is opened" 2 \
    "$COUNTERSIGN" --db "$WORK/none/none.db" list --filter 'colour:red'
expect_contains "...naming the term, not the database" "$WORK/err" "'colour:red'"

# --- through the service: params.filter -------------------------------------
if ! command -v socat >/dev/null 2>&1; then
	echo "skip: the service part (socat is needed)"
	finish
	exit 0
fi
SOCK="$WORK/sock"
"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --officers "$(id -gn)" \
	2>>"$WORK/serve.log" &
SERVICE_PID=$!
trap 'kill -TERM "$SERVICE_PID" 2>/dev/null; wait "$SERVICE_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
wait_for_socket "$SOCK" "$WORK/serve.log"
remote() { "$COUNTERSIGN" --connect "$SOCK" "$@"; }

expect_eq "through --connect: the same ids" \
    "$(remote list --json --filter 'kind:trade flag:H value>100000' 2>/dev/null | jq -r .action_id)" "F-big"
expect_eq "through --connect: value<N" \
    "$(remote list --json --filter 'value<10000' 2>/dev/null | jq -r .action_id | sort | tr '\n' ' ')" "F-old "
expect_status "through --connect: a usage error" 2 remote list --filter 'colour:red'
expect_contains "...naming the term" "$WORK/err" "'colour:red'"
# A client other than ours: params.filter must be a string, and list's.
request() { printf '%s\n' "$1" | socat -t 5 - "UNIX-CONNECT:$SOCK" 2>/dev/null || true; }
request '{"jsonrpc": "2.0", "id": 1, "method": "list", "params": {"filter": 5}}' >"$WORK/reply"
expect_contains "a filter that is no string is refused" "$WORK/reply" "filter"
expect_eq "...as invalid params" "$(jq -r 'select(.id == 1) | .error.data.reason' "$WORK/reply")" invalid_params
request '{"jsonrpc": "2.0", "id": 2, "method": "check", "params": {"filter": "kind:trade"}}' >"$WORK/reply"
expect_eq "a filter on check is refused" "$(jq -r 'select(.id == 2) | .error.data.reason' "$WORK/reply")" invalid_params
finish
