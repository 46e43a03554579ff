#!/bin/sh
# SPEC 13 (issue 32): a receipt and a checkpoint of a signing service
# verify with Go's golang.org/x/mod/sumdb/note and sumdb/tlog (Debian's
# golang-golang-x-mod-dev), which share no code with countersign: the
# formats are checked, not the code.  Offline: GOPATH mode on the Debian
# sources, no module proxy.  Skips where Go or those sources are absent,
# but not in CI (.ci/run installs them and sets COUNTERSIGN_CI).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

GOSRC=/usr/share/gocode
missing() {
	if [ -n "${COUNTERSIGN_CI:-}" ]; then echo "FAIL: $1 (CI installs it)"; exit 1; fi
	echo "SKIP: $1"; exit 77
}
command -v go >/dev/null 2>&1 || missing "go is not installed (golang-go)"
[ -d "$GOSRC/src/golang.org/x/mod/sumdb/note" ] ||
	missing "golang.org/x/mod is not installed (golang-golang-x-mod-dev)"
command -v socat >/dev/null 2>&1 || missing "socat is needed"

# Build the checker once, offline, in GOPATH mode.
mkdir -p "$WORK/gocache"
if ! GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH="$GOSRC" GOCACHE="$WORK/gocache" \
	go build -o "$WORK/verify_receipt" "$TOP_SRCDIR/tests/go/verify_receipt/main.go" \
	>"$WORK/go.log" 2>&1; then
	cat "$WORK/go.log"; echo "FAIL: the Go checker does not build"; exit 1
fi

MYGROUP=$(id -gn)
SOCK="$WORK/sock"
"$COUNTERSIGN" keygen gate.example/go-check "$WORK/log" >/dev/null
import_passing_trades g 4
"$COUNTERSIGN" serve --db "$DB" --socket "$SOCK" --officers "$MYGROUP" \
	--signing-key "$WORK/log.key" 2>>"$WORK/serve.log" &
SERVICE_PID=$!
trap 'kill -KILL "$SERVICE_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
wait_for_socket "$SOCK"
printf '%s\n' '{"action_id":"g-0","decision":"approve"}' '{"action_id":"g-1","decision":"reject","reason":"no"}' |
	"$COUNTERSIGN" --connect "$SOCK" batch >/dev/null
printf '%s\n' '{"action_id":"g-2","decision":"approve"}' |
	"$COUNTERSIGN" --connect "$SOCK" batch >/dev/null
kill -TERM "$SERVICE_PID"; wait "$SERVICE_PID" || true

cs audit checkpoint >"$WORK/checkpoint"
for a in g-0 g-1 g-2; do
	cs receipt "$a" -o "$WORK/$a.receipt"
	expect_status "Go verifies the receipt and checkpoint ($a)" 0 \
		"$WORK/verify_receipt" "$WORK/log.pub" "$WORK/$a.receipt" "$WORK/checkpoint"
	expect_contains "... by tlog.CheckRecord and note.Open" "$WORK/out" "checkpoint verified: gate.example/go-check"
done
# The checker can fail: a proof hash changed, another key.
change_line_start 4 "$WORK/g-0.receipt" >"$WORK/bad"
expect_status "Go refuses a changed proof" 1 "$WORK/verify_receipt" "$WORK/log.pub" "$WORK/bad"
"$COUNTERSIGN" keygen gate.example/go-check "$WORK/other" >/dev/null
expect_status "Go refuses another key" 1 "$WORK/verify_receipt" "$WORK/other.pub" "$WORK/g-0.receipt"
finish
