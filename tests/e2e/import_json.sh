#!/bin/sh
# import --json (issue 37): one JSON line per object read, with file, line,
# type, id, status and error: imported, unchanged, and for a file refused
# the object it failed at and the ones rolled back with it; the same
# through the service.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

jq -c '.proposed_action.action_id = "J-1" | .reviewer_verdict.action_id = "J-1"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/good.jsonl"
jq -c '.proposed_action.action_id = "J-2" | .reviewer_verdict.action_id = "J-2"' \
	"$EXAMPLES/packet-trade-pass.json" >>"$WORK/good.jsonl"

# fields FILE: each JSON line's values, tab-separated (null as "-").
fields() { jq -r '[.file, .line, .type, .id, .status, .error] | map(. // "-" | tostring) | join("\t")' "$1"; }
TAB=$(printf '\t')

expect_status "import --json" 0 cs import --json "$EXAMPLES/security_map.json" "$WORK/good.jsonl"
cp "$WORK/out" "$WORK/first"
expect_eq "one line per object" "$(wc -l <"$WORK/first")" 3
expect_eq "every line is JSON with the six keys" \
    "$(jq -c 'keys' "$WORK/first" | sort -u)" '["error","file","id","line","status","type"]'
expect_eq "a policy object: no id" "$(fields "$WORK/first" | sed -n 1p)" \
    "$EXAMPLES/security_map.json${TAB}1${TAB}security_map${TAB}-${TAB}imported${TAB}-"
expect_eq "a packet: its id and line" "$(fields "$WORK/first" | sed -n 3p)" \
    "$WORK/good.jsonl${TAB}2${TAB}packet${TAB}J-2${TAB}imported${TAB}-"
expect_eq "nothing on stderr but the head's note" "$(stderr_but_sink "$WORK/err")" ""

expect_status "again" 0 cs import --json "$WORK/good.jsonl"
expect_eq "unchanged the second time" "$(jq -r '.status' "$WORK/out" | sort -u)" unchanged

# A file whose fourth line is broken: nothing from it is stored.
jq -c '.proposed_action.action_id = "J-3" | .reviewer_verdict.action_id = "J-3"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/bad.jsonl"
cat "$WORK/good.jsonl" >>"$WORK/bad.jsonl"
echo '{"type": "packet", "kind": "trade"}' >>"$WORK/bad.jsonl"
echo '{"type": "security_map", "securities": {}}' >>"$WORK/bad.jsonl"
expect_status "a broken file: exit 3" 3 cs import --json "$WORK/bad.jsonl"
expect_eq "the lines up to the broken one" "$(jq -r '[.line, .status] | join(":")' "$WORK/out" | tr '\n' ' ')" \
    "1:rolled_back 2:rolled_back 3:rolled_back 4:refused "
expect_eq "the refused line says why" "$(jq -r 'select(.status == "refused") | .error' "$WORK/out")" \
    "proposed_action: required field is missing"
expect_eq "...as stderr does" "$(grep -c 'bad.jsonl:4: proposed_action' "$WORK/err")" 1
expect_eq "J-3 was not stored" "$(cs list --json 2>/dev/null | jq -r .action_id | grep -c J-3 || true)" 0

# A one-object file broken on its fourth line.
printf '{"type": "packet",\n "kind": "trade",\n "proposed_action":\n   [1, 2,]}\n' >"$WORK/one.json"
expect_status "a broken one-object file" 3 cs import --json "$WORK/one.json"
expect_eq "its line is the bad byte's" "$(jq -r '[.line, .status, .type] | map(tostring) | join(":")' "$WORK/out")" \
    "4:refused:null"
# A file that cannot be read.
printf '' >"$WORK/unreadable.json"
chmod 000 "$WORK/unreadable.json"
if [ -r "$WORK/unreadable.json" ]; then
	echo "skip: an unreadable file (running as a user who reads everything)"
else
	expect_status "an unreadable file" 3 cs import --json "$WORK/unreadable.json"
	expect_eq "...one refused line without line, type or id" \
	    "$(jq -c '[.line, .type, .id, .status]' "$WORK/out")" '[null,null,null,"refused"]'
fi
expect_status "--json without --json's meaning elsewhere: batch refuses it" 2 cs batch --json </dev/null

# --- through the service ------------------------------------------------------
if ! command -v socat >/dev/null 2>&1; then
	echo "skip: the service part (socat is needed)"
	finish
	exit 0
fi
SOCK="$WORK/sock"
"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --officers "$(id -gn)" \
	--importers "$(id -gn)" 2>>"$WORK/serve.log" &
SERVICE_PID=$!
trap 'kill -TERM "$SERVICE_PID" 2>/dev/null; wait "$SERVICE_PID" 2>/dev/null; chmod 600 "$WORK/unreadable.json" 2>/dev/null; rm -rf "$WORK"' EXIT
wait_for_socket "$SOCK" "$WORK/serve.log"
jq -c '.proposed_action.action_id = "J-4" | .reviewer_verdict.action_id = "J-4"' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/remote.jsonl"
cat "$WORK/good.jsonl" >>"$WORK/remote.jsonl"
expect_status "import --json through --connect" 0 \
    "$COUNTERSIGN" --connect "$SOCK" import --json "$WORK/remote.jsonl"
expect_eq "...a line per object, as local mode" "$(jq -r '[.line, .id, .status] | map(tostring) | join(":")' "$WORK/out" | tr '\n' ' ')" \
    "1:J-4:imported 2:J-1:unchanged 3:J-2:unchanged "
expect_eq "...named as the user typed the file" "$(jq -r .file "$WORK/out" | sort -u)" "$WORK/remote.jsonl"
chmod 600 "$WORK/unreadable.json"
finish
