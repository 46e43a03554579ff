#!/bin/sh
# SPEC 9 (issue 24, point 1): no command writes a raw control byte.  Every
# command runs over a hostile corpus (ids, names, reasons, paths and
# stored records holding ESC, CR, C1, DEL and bidi controls, and a chain
# broken at such a record), and stdout and stderr are searched for C0
# controls (newline aside), DEL, C1 (as UTF-8, or raw: invalid UTF-8), ESC
# and bidi or invisible format characters.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

# Reported made visible: a failing run must not attack the log's reader.
fail() { printf 'FAIL: %s\n' "$*" | cat -v; FAILURES=$((FAILURES + 1)); }
RAW_CONTROL='[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xa9]|\xd8\x9c|\xef\xbb\xbf'
# The payload: repaint the line as "intact", retitle the terminal, CSI as
# C1, DEL, a right-to-left override.
EVIL='\r\u001b[2Kaudit log intact\u001b]0;pwned\u0007\u009b31m\u007f\u202e'
EVIL_ID="x$EVIL"

# clean WHAT COMMAND...: runs it; nothing raw on stdout or stderr.
clean() {
	what=$1
	shift
	set +e
	"$@" >"$WORK/out" 2>"$WORK/err" </dev/null
	set -e
	for stream in out err; do
		n=$(LC_ALL=C grep -c -P "$RAW_CONTROL" "$WORK/$stream" || true)
		if [ "$n" -eq 0 ]; then
			pass "$what: no raw control on std$stream"
		else
			fail "$what: raw control on std$stream:"
			LC_ALL=C grep -P "$RAW_CONTROL" "$WORK/$stream" | head -5 | cat -v | sed 's/^/    /'
		fi
		# A raw C1 byte (0x9b is CSI to an 8-bit terminal) is invalid UTF-8.
		if iconv -f UTF-8 -t UTF-8 "$WORK/$stream" >/dev/null 2>&1; then
			pass "$what: std$stream is valid UTF-8"
		else
			fail "$what: std$stream is not valid UTF-8:"
			head -5 "$WORK/$stream" | cat -v | sed 's/^/    /'
		fi
	done
}

# The corpus: a trade, a legal draft and a change whose every string
# field the rules read carries the payload.
jq -c --argjson e "\"$EVIL\"" '
	.proposed_action.action_id = ("x" + $e)
	| .reviewer_verdict.action_id = ("x" + $e)
	| .proposed_action.author = ("a" + $e)
	| .proposed_action.requested_by = ("r" + $e)
	| .proposed_action.ticker = ("T" + $e)
	| .reviewer_verdict.rule_results[0].rule_id = ("rule" + $e)' \
	"$EXAMPLES/packet-trade-divergent.json" >"$WORK/evil-trade.jsonl"
for kind in legal-draft change; do
	jq -c --argjson e "\"$EVIL\"" --arg k "$kind" '
		.proposed_action.action_id = ($k + $e)
		| .proposed_action.author = ("a" + $e)' \
		"$EXAMPLES/packet-$kind.json" >"$WORK/evil-$kind.jsonl"
done
jq -c --argjson e "\"$EVIL\"" '.authors += ["n" + $e]' \
	"$EXAMPLES/roster.json" >"$WORK/evil-roster.json"
EVIL_NAME="$WORK/evil$(printf '\033]0;pwned\007\302\233\342\200\256\r').jsonl"
cp "$WORK/evil-trade.jsonl" "$EVIL_NAME"
ID=$(jq -r .proposed_action.action_id "$WORK/evil-trade.jsonl")

clean "import" cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/standards_index.json" \
	"$WORK/evil-roster.json" "$EVIL_NAME" "$WORK/evil-legal-draft.jsonl" \
	"$WORK/evil-change.jsonl"
expect_eq "the corpus imported" "$(cs list --json | wc -l | tr -d ' ')" 3
clean "import again (unchanged)" cs import "$EVIL_NAME"
jq -c '.proposed_action.quantity = 2' "$WORK/evil-trade.jsonl" >"$WORK/evil-conflict.jsonl"
clean "import of a conflict" cs import "$WORK/evil-conflict.jsonl"
clean "import of a missing file" cs import "$WORK/missing$(printf '\033[2J')"
clean "list" cs list
clean "list --all" cs list --all
clean "list --json" cs list --json
clean "check" cs check
clean "check ID" cs check "$ID"
clean "check of an unknown ID" cs check "u$(printf '\033[2J\302\233')"

# Batch: refusals naming the id, a reason and a reassignee with the payload.
{
	jq -nc --arg id "$ID" '{action_id: $id, decision: "approve"}'
	jq -nc --arg id "u$(printf '\033[2J')" '{action_id: $id, decision: "approve"}'
	printf '{"action_id": "\\u001b[2J", "decision": 5}\n'
	printf '{"action_id": "\\u001b[2J", "decision": "approve", "\\u009bx": 1}\n'
	jq -nc --arg id "$ID" --argjson e "\"$EVIL\"" \
		'{action_id: $id, decision: "reject", reason: ("r" + $e), reassign_to: ("n" + $e)}'
	jq -nc --arg id "$ID" --argjson e "\"$EVIL\"" \
		'{action_id: $id, decision: "reject", reason: ("r" + $e), escalate: true}'
	jq -nc --arg id "$ID" '{action_id: $id, decision: "approve"}'
} >"$WORK/evil.batch"
clean "batch" cs batch "$WORK/evil.batch"
expect_contains "a decision was recorded" "$WORK/out" '"status":"recorded"'
clean "batch --atomic" cs batch --atomic "$WORK/evil.batch"
clean "list --all after decisions" cs list --all
clean "audit verify (intact)" cs audit verify
clean "audit export" cs audit export
clean "audit export --csv" cs audit export --csv
clean "audit replay" cs audit replay "$ID"
clean "audit replay of an unknown id" cs audit replay "u$(printf '\033[2J')"

# A chain broken at such a record: the action row is deleted, and its
# decision record names it (audit verify once printed the id raw, repainting "BROKEN").
BROKEN=$(db_copy broken)
db_tamper "$BROKEN" "" "DELETE FROM action WHERE action_id IN
	(SELECT action_id FROM decision);"
clean "audit verify (broken at a hostile id)" \
	"$COUNTERSIGN" --db "$BROKEN" audit verify
expect_contains "it is reported broken" "$WORK/out" "BROKEN"
# A record that is not JSON, holding raw controls.
RAW=$(db_copy raw)
if on_pg; then CHR=chr; else CHR=char; fi
db_tamper "$RAW" audit_log_append_only "
	INSERT INTO audit_log VALUES ((SELECT max(seq) + 1 FROM audit_log),
	  $CHR(13) || $CHR(27) || '[2K' || $CHR(127) || $CHR(194) || $CHR(155), 'x', 'y');
	-- And one that is valid JSON holding raw DEL, C1 and bidi characters.
	INSERT INTO audit_log VALUES ((SELECT max(seq) + 1 FROM audit_log),
	  '{\"event\":\"x' || $CHR(127) || $CHR(155) || $CHR(8238) || '\"}', 'x', 'y');"
expect_eq "the two raw records are stored" "$(db_q "$RAW" "SELECT count(*) FROM audit_log")" \
	$(($(db_sql "SELECT count(*) FROM audit_log") + 2))
clean "audit verify (a raw record)" "$COUNTERSIGN" --db "$RAW" audit verify
clean "audit export (a raw record)" "$COUNTERSIGN" --db "$RAW" audit export
clean "audit export --csv (a raw record)" "$COUNTERSIGN" --db "$RAW" audit export --csv

# Paths: a database and a TMPDIR whose names hold the payload.
EVIL_DIR="$WORK/d$(printf '\033]0;pwned\007\302\233\r')"
clean "a database path that cannot be opened" \
	"$COUNTERSIGN" --db "$EVIL_DIR/no/such.db" list
mkdir -p "$EVIL_DIR"
clean "a database path that is a directory" "$COUNTERSIGN" --db "$EVIL_DIR" list
printf 'not a database' >"$EVIL_DIR/x.db"
clean "a file that is not a database" "$COUNTERSIGN" --db "$EVIL_DIR/x.db" list
clean "demo with a TMPDIR that does not exist" \
	env TMPDIR="$EVIL_DIR/none" COUNTERSIGN_DATA_DIR="$TOP_SRCDIR/data" "$COUNTERSIGN" demo
clean "demo with a hostile TMPDIR" \
	env TMPDIR="$EVIL_DIR" COUNTERSIGN_DATA_DIR="$TOP_SRCDIR/data" "$COUNTERSIGN" demo
clean "an unknown command" cs "$(printf '\033[2J')"
clean "an unknown option" cs "--$(printf '\033[2J')"
clean "an unknown audit word" cs audit "$(printf '\033[2J')"
finish
