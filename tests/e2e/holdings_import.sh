#!/bin/sh
# SPEC 1 and 6 (v2) for holdings: a snapshot dated more than 5 minutes
# ahead of the importing clock is refused (it would stay the current one
# for ever and could turn a failing trade into a clean one), and every
# holdings import is recorded in the audit log as a policy_import.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
holdings_events() {
	cs audit export | jq -c 'select(.record.event == "policy_import" and .record.type == "holdings") | .record'
}
# at SECONDS: now plus SECONDS, ISO-8601 UTC.
at() { date -u -d "@$(( $(date +%s) + $1 ))" +%Y-%m-%dT%H:%M:%SZ; }

expect_status "import the examples" 0 cs import "$EXAMPLES/security_map.json" \
	"$EXAMPLES/ips.json" "$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json"
holdings_events >"$WORK/events"
expect_eq "the holdings import is one policy_import record" "$(wc -l <"$WORK/events")" 1
expect_eq "it names the snapshot and its digest" \
	"$(jq -c '[.identity.snapshot_id, .identity.user_id, (.object_sha256 | length), .object.cash_usd]' "$WORK/events")" \
	'["h-u-1001-2026-11-28","u-1001",64,20000]'
expect_status "re-importing it changes nothing" 0 cs import "$EXAMPLES/holdings.json"
expect_eq "... and records nothing" "$(holdings_events | wc -l)" 1

# A snapshot dated 9999 with a portfolio in which the failing trade passes.
jq '.snapshot_id = "h-pinned" | .as_of = "9999-12-31T23:59:59Z"' \
	"$EXAMPLES/holdings.json" >"$WORK/pinned.json"
expect_status "a snapshot dated 9999 is refused" 3 cs import "$WORK/pinned.json"
expect_contains "the error names the file, line and field" "$WORK/err" "pinned.json:5: as_of:"
expect_contains "and says why" "$WORK/err" "more than 5 minutes ahead"
expect_eq "nothing of it is stored or recorded" "$(holdings_events | wc -l)" 1
expect_status "check still uses the real snapshot" 0 cs check "$PASS"
expect_contains "holdings_as_of names it" "$WORK/out" "snapshot h-u-1001-2026-11-28 as of"

# The limit is 5 minutes: 4 minutes ahead is accepted, 6 are not.
jq -c --arg t "$(at 240)" '.snapshot_id = "h-soon" | .as_of = $t' \
	"$EXAMPLES/holdings.json" >"$WORK/soon.json"
jq -c --arg t "$(at 360)" '.snapshot_id = "h-later" | .as_of = $t' \
	"$EXAMPLES/holdings.json" >"$WORK/later.json"
expect_status "4 minutes ahead is accepted" 0 cs import "$WORK/soon.json"
expect_status "6 minutes ahead is refused" 3 cs import "$WORK/later.json"
expect_contains "naming the field" "$WORK/err" "later.json:1: as_of:"
expect_eq "the accepted one is recorded too" \
	"$(holdings_events | jq -r .identity.snapshot_id | tr '\n' ' ')" "h-u-1001-2026-11-28 h-soon "
expect_status "the audit chain verifies" 0 cs audit verify

finish
