#!/bin/sh
# The manual pages: every command and option that --help prints has an
# entry in countersign(1), and so does every refusal code, exit status,
# environment variable and review-screen key the program knows; both pages
# render without a single warning; countersign-packets(5) names every rule.
# What is documented is taken from the program and its sources, so a new
# option, code or rule without documentation fails here.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

PAGE1="$TOP_SRCDIR/man/countersign.1"
PAGE5="$TOP_SRCDIR/man/countersign-packets.5"
SRC="$TOP_SRCDIR/src"

if command -v groff >/dev/null 2>&1; then
	FORMATTER=groff
elif command -v mandoc >/dev/null 2>&1; then
	FORMATTER=mandoc
else
	echo "neither groff nor mandoc is installed"
	exit 77
fi
echo "formatting with $FORMATTER"

# render PAGE: plain text, never hyphenated, in lines so wide that no
# name is split across two.
render() {
	case $FORMATTER in
	groff) groff -man -Tascii -P-cbou -rHY=0 -rLL=250n "$1" ;;
	mandoc) mandoc -Tascii -Owidth=250 "$1" | col -b ;;
	esac
}

# lint PAGE: whatever the formatter has to say about the page.
lint() {
	case $FORMATTER in
	groff) groff -man -Tutf8 -ww -z "$1" 2>&1 >/dev/null ;;
	mandoc) mandoc -Tlint -Wwarning "$1" 2>&1 ;;
	esac
}

# section HEADING < rendered: the lines of one section (headings start in
# the first column, everything else is indented).
section() {
	awk -v h="$1" '$0 == h { on = 1; next } /^[^ ]/ { on = 0 } on'
}

# tagged WORD FILE: FILE has an entry (a line indented as the tag of a
# list item, 7 columns) that starts with WORD or lists it among others.
tagged() {
	pattern=$(printf '%s' "$1" | sed 's/[][\.*^$?+(){}|/]/\\&/g')
	grep -Eq -e "^ {7}(.*[ ,])?$pattern([ ,]|\$)" "$2"
}

# source_tags SECTION PAGE: the tags of the .TP items of one section of
# the page's source, a word a line.
source_tags() {
	awk -v h=".SH $1" '$0 == h { on = 1; next } /^\.SH / { on = 0 }
	    on && prev == ".TP" { print } { prev = $0 }' "$2" |
	    sed -e 's/^\.[A-Z]* //' -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' \
	    -e 's/"//g' | tr ' ,' '\n\n' | grep -v '^$'
}

for page in "$PAGE1" "$PAGE5"; do
	name=$(basename "$page")
	if [ ! -s "$page" ]; then
		fail "$name is missing"
		continue
	fi
	lint "$page" >"$WORK/lint" || true
	if [ -s "$WORK/lint" ]; then
		fail "$name renders with warnings:"
		sed 's/^/    /' "$WORK/lint"
	else
		pass "$name renders without warnings"
	fi
	if [ "$FORMATTER" = groff ] &&
	    ! groff -man -Tutf8 -ww "$page" >/dev/null 2>&1; then
		fail "groff fails on $name"
	fi
done
[ -s "$PAGE1" ] && [ -s "$PAGE5" ] || { finish; exit 1; }
render "$PAGE1" >"$WORK/page1"
render "$PAGE5" >"$WORK/page5"

# The help in English: the page is.
expect_status "--help" 0 env LC_ALL=C "$COUNTERSIGN" --help
cp "$WORK/out" "$WORK/help"

# Commands: the first word of each line of the help's command list, and
# the second after "audit".
awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 }
    on && /^  [a-z]/ { print ($1 == "audit" ? $1 " " $2 : $1) }' \
    "$WORK/help" | sort -u >"$WORK/commands"
expect_eq "the help lists commands" "$(test -s "$WORK/commands" && echo yes)" yes
section COMMANDS <"$WORK/page1" >"$WORK/commands-section"
while read -r command; do
	if tagged "$command" "$WORK/commands-section"; then
		pass "command $command is documented"
	else
		fail "command $command (in --help) has no entry under COMMANDS"
	fi
done <"$WORK/commands"
for command in review import list check batch "audit verify" "audit export" \
    "audit replay" demo; do
	grep -qxF -- "$command" "$WORK/commands" ||
		fail "--help does not list $command"
done

# Options: every long and short option the help mentions.
{
	grep -oE -- '--[a-z][a-z0-9-]*' "$WORK/help"
	grep -oE -- '(^|[ ,])-[A-Za-z]([ ,]|$)' "$WORK/help" | tr -d ' ,'
} | sort -u >"$WORK/options"
expect_eq "the help lists options" "$(test -s "$WORK/options" && echo yes)" yes
section OPTIONS <"$WORK/page1" >"$WORK/options-section"
while read -r option; do
	if tagged "$option" "$WORK/options-section"; then
		pass "option $option is documented"
	else
		fail "option $option (in --help) has no entry under OPTIONS"
	fi
done <"$WORK/options"

# Refusal codes: those the decision path and batch mode can give.
{
	grep -ohE 'refuse\(&?[a-z_]+, "[a-z_]+"' "$SRC/commands/decide.c" |
		sed 's/.*"\([a-z_]*\)"/\1/'
	grep -ohE 'code = "[a-z_]+"' "$SRC/commands/cmd_batch.c" |
		sed 's/.*"\([a-z_]*\)"/\1/'
} | sort -u >"$WORK/codes"
if [ "$(wc -l <"$WORK/codes")" -ge 13 ]; then
	pass "refusal codes found in the sources"
else
	fail "only these refusal codes found in the sources:"
	sed 's/^/    /' "$WORK/codes"
fi
section DECIDING <"$WORK/page1" >"$WORK/deciding"
while read -r code; do
	if tagged "$code" "$WORK/deciding"; then
		pass "refusal code $code is documented"
	else
		fail "refusal code $code has no entry under DECIDING"
	fi
	grep -qw -- "$code" "$WORK/page5" ||
		fail "countersign-packets.5 does not mention refusal code $code"
done <"$WORK/codes"

# Exit statuses (include/exit_codes.h).
section "EXIT STATUS" <"$WORK/page1" >"$WORK/exit"
for status in 0 1 2 3 4; do
	if tagged "$status" "$WORK/exit"; then
		pass "exit status $status is documented"
	else
		fail "exit status $status has no entry under EXIT STATUS"
	fi
done

# Environment: every variable the program reads, and the locale's.
{
	grep -rohE 'getenv\("[A-Za-z_]+"\)' "$SRC" | sed 's/getenv("\(.*\)")/\1/'
	printf '%s\n' LANGUAGE LC_ALL LC_MESSAGES LANG
} | sort -u >"$WORK/environment"
section ENVIRONMENT <"$WORK/page1" >"$WORK/environment-section"
while read -r variable; do
	if tagged "$variable" "$WORK/environment-section"; then
		pass "environment variable $variable is documented"
	else
		fail "environment variable $variable has no entry under ENVIRONMENT"
	fi
done <"$WORK/environment"

# Files: the database and its companions, the reasons, the system log.
section FILES <"$WORK/page1" >"$WORK/files"
for file in countersign.db countersign.db-wal countersign.db-shm \
    countersign/reasons authpriv "audit head seq="; do
	expect_contains "FILES names $file" "$WORK/files" "$file"
done

# Keys: every key of the table that drives the review screens (and its
# help), and the keys of the approve and reject dialogs.
{
	sed -nE "s/^[[:space:]]*\{ ('[^']*'|KEY_[A-Z]+|[0-9]+), (N_\()?\"([^\"]*)\".*/\3/p" \
	    "$SRC/tui/keys.c"
	printf '%s\n' h d m u 1 9 0 Tab r e n Enter Esc
} | sort -u >"$WORK/keys"
expect_eq "keys found in src/tui/keys.c" \
    "$(grep -cxE 'Enter|Esc|PgDn|\?' "$WORK/keys")" 4
source_tags "THE REVIEW SCREENS" "$PAGE1" | sort -u >"$WORK/key-tags"
while read -r key; do
	if grep -qxF -- "$key" "$WORK/key-tags"; then
		pass "key $key is documented"
	else
		fail "key $key has no entry under THE REVIEW SCREENS"
	fi
done <"$WORK/keys"

# Rules: those the examples produce, and every one of SPEC 2.1 to 2.4
# (the examples have no revision, so author_lockout is named here).
cs import "$EXAMPLES"/*.json >/dev/null
set +e
cs check >"$WORK/check"
set -e
jq -r '.local_verdict.rule_results[].rule_id' "$WORK/check" >"$WORK/rules"
for kind in trade legal_draft change; do
	expect_eq "the examples have a $kind" \
	    "$(jq -r --arg k "$kind" 'select(.kind == $k) | .kind' "$WORK/check" | sort -u)" \
	    "$kind"
done
printf '%s\n' excluded_ticker excluded_sector concentration_limit \
    allocation_band_direction ips_version_current \
    no_unfixed_legal_issues gates_clear \
    review_pass_consistent \
    ac_coverage met_has_evidence no_unmet ci_green \
    applicable_standards_met no_block needs_po_judged \
    author_lockout >>"$WORK/rules"
sort -u "$WORK/rules" -o "$WORK/rules"
section RULES <"$WORK/page5" >"$WORK/rules-section"
while read -r rule; do
	if grep -qw -- "$rule" "$WORK/rules-section"; then
		pass "rule $rule is documented"
	else
		fail "rule $rule is not described under RULES in countersign-packets.5"
	fi
done <"$WORK/rules"

# Objects, kinds, and the records and lines countersign writes.
for word in security_map ips holdings packet standards_index roster \
    trade legal_draft change reviewer_verdict proposed_action \
    revision_of requested_by expires_at author \
    local_verdict divergence high_stakes_reasons \
    decision_id status code message acknowledge reassign_to escalate \
    po_judgments policy_import rule_inputs rule_inputs_sha256 lockout \
    program approved_artifact_sha256 prev_hash record_json; do
	if grep -qw -- "$word" "$WORK/page5"; then
		pass "countersign-packets.5 describes $word"
	else
		fail "countersign-packets.5 does not describe $word"
	fi
done
finish
