#!/bin/sh
# SPEC 9: list shows a packet's escape sequences as visible escapes and
# never writes a raw control byte from a packet.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/packet-trade-pass.json" \
	"$EXAMPLES/packet-trade-divergent.json" >/dev/null

# A hostile packet: controls in every field the queue shows.
printf '%s\n' '{"type":"packet","kind":"trade","proposed_action":{"action_id":"evil\u001b[2J\u009b31m\u202e","user_id":"u\r\u0008x\u001b]52;c;aGk=\u0007","ticker":"MO\u001b]0;pwned\u0007","side":"sell","quantity":1,"estimated_value_usd":5,"ips_version_referenced":{"ips_id":"ips-7f3a","version":3}},"reviewer_verdict":{"action_id":"other","overall_pass":true,"rule_results":[]}}' >"$WORK/evil.jsonl"
cs import "$WORK/evil.jsonl" >/dev/null

for args in "list" "list --all" "list --json" "check"; do
	set +e
	# shellcheck disable=SC2086
	cs $args >"$WORK/list" 2>&1
	set -e
	# No C0 control but newline, no DEL, no C1 (raw or UTF-8), no bidi.
	bad=$(LC_ALL=C tr -d '\n' <"$WORK/list" | LC_ALL=C grep -c -P '[\x00-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' || true)
	expect_eq "no raw control bytes in '$args'" "$bad" 0
done

cs list >"$WORK/list"
expect_contains "the advisory's ESC sequence is shown escaped" "$WORK/list" \
	'advisory said: \e[2J\e]0;approved^GAll clear'
expect_contains "CR and BS are visible" "$WORK/list" 'u^M^Hx\e]52'
expect_contains "CSI in an id is visible" "$WORK/list" 'evil\e[2J'
expect_eq "one table line per action plus divergences" \
	"$(grep -c '^[ Hx!LDE]\{6\} trade' "$WORK/list")" 3
finish
