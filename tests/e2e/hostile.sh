#!/bin/sh
# Hostile input (SPEC 1 and 9): every file of the tests/hostile corpus is
# refused with the exit status and message its EXPECTED line gives, names
# the file, writes no raw control byte to stderr and leaves the database
# byte for byte as it was; or, an EXPECTED status of 0, imports, checks,
# is decided and replays.  Inputs too big to commit, or that cannot live in
# git (a FIFO, symlink loops, a file name with escape sequences), are made
# here.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

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

HOSTILE="$TOP_SRCDIR/tests/hostile"
TAB=$(printf '\t')
# No C0 control (newline aside), DEL, C1 (as UTF-8), bidi or invisible
# format character: what the sanitizer must keep off a terminal.
RAW_CONTROL='[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xa9]|\xd8\x9c|\xef\xbb\xbf'
command -v timeout >/dev/null 2>&1 || { echo "timeout (coreutils) is needed"; exit 77; }

# The corpus itself: every file has a line, every line a file, >= 60.
entries=$(grep -c . "$HOSTILE/EXPECTED")
expect_eq "EXPECTED lists at least 60 files" "$([ "$entries" -ge 60 ] && echo yes || echo "only $entries")" yes
expect_eq "EXPECTED names each file once" "$(cut -f1 "$HOSTILE/EXPECTED" | sort | uniq -d)" ""
expect_eq "every EXPECTED line has three tab-separated fields" \
	"$(awk -F '\t' 'NF != 3 || $3 == "" { print NR }' "$HOSTILE/EXPECTED")" ""
unlisted=
for f in "$HOSTILE"/* "$HOSTILE"/.[!.]*; do
	[ -e "$f" ] || continue
	name=${f##*/}
	case $name in EXPECTED | BASES | README | .gitattributes) continue ;; esac
	cut -f1 "$HOSTILE/EXPECTED" | grep -qxF -- "$name" || unlisted="$unlisted $name"
done
expect_eq "every corpus file has an EXPECTED line" "$unlisted" ""

# The objects the corpus was derived from import cleanly (on a scratch
# database), so each refusal below is its mutation's doing.
cp "$HOSTILE/BASES" "$WORK/bases.jsonl"
expect_status "the unmutated base objects import" 0 \
	"$COUNTERSIGN" --db "$WORK/bases.db" import "$WORK/bases.jsonl"
expect_contains "all eight of them" "$WORK/out" "8 imported, 0 unchanged"

cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$EXAMPLES/standards_index.json" \
	"$EXAMPLES/roster.json" >/dev/null

# store_state: what "unchanged" compares, once a file.  On SQLite the
# whole dump.  On PostgreSQL a pg_dump a file cost more than the import
# (0.17 s, 200 files, each CI pass): one psql kept open prints every
# table's rows, sorted, and the schema's columns, indexes, triggers,
# functions and grants; its end is marked, so a psql gone is a failure,
# never an empty match.
if on_pg; then
	mkfifo "$WORK/state.in" "$WORK/state.out"
	psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" <"$WORK/state.in" \
		>"$WORK/state.out" 2>&1 &
	exec 4>"$WORK/state.in" 5<"$WORK/state.out"
	STATE_QUERY="SELECT format('SELECT %L, x::text FROM %I.%I x ORDER BY 2',
		table_name, table_schema, table_name)
	FROM information_schema.tables WHERE table_type = 'BASE TABLE'
	AND table_schema = current_schema() ORDER BY 1 \\gexec
SELECT table_name, column_name, data_type, column_default, is_nullable,
	collation_name FROM information_schema.columns
	WHERE table_schema = current_schema() ORDER BY 1, 2;
SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1;
SELECT tgrelid::regclass, tgname, tgenabled, pg_get_triggerdef(oid)
	FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2;
SELECT proname, md5(prosrc), proacl FROM pg_proc
	WHERE pronamespace = current_schema()::text::regnamespace ORDER BY 1, 2;
SELECT grantee, table_name, privilege_type
	FROM information_schema.role_table_grants
	WHERE table_schema = current_schema() ORDER BY 1, 2, 3;
\\echo state-end"
fi
store_state() {
	if ! on_pg; then
		dump
		return
	fi
	printf '%s\n' "$STATE_QUERY" >&4
	while IFS= read -r state_line <&5; do
		[ "$state_line" != state-end ] || return 0
		printf '%s\n' "$state_line"
	done
	echo "FAIL: psql ended before the store's state was read"
	return 1
}
store_state >"$WORK/before"

# refused WHAT STATUS FRAGMENT PATH [SHOWN-PATH]: `import PATH` exits
# STATUS, says FRAGMENT, names the file, prints no raw control byte and
# changes nothing.  A hang counts as a failure (status 124 from timeout).
HANG_LIMIT=30
refused() {
	r_what=$1 r_status=$2 r_fragment=$3 r_path=$4 r_shown=${5:-$4}
	expect_status "$r_what: exit status" "$r_status" \
		timeout "$HANG_LIMIT" "$COUNTERSIGN" --db "$DB" import "$r_path"
	expect_contains "$r_what: the message" "$WORK/err" "$r_fragment"
	expect_contains "$r_what: names the file" "$WORK/err" "countersign: $r_shown"
	expect_eq "$r_what: no raw control byte on stderr" \
		"$(LC_ALL=C grep -c -P "$RAW_CONTROL" "$WORK/err" || true)" 0
	expect_eq "$r_what: nothing on stdout" "$(wc -c <"$WORK/out" | tr -d ' ')" 0
	store_state >"$WORK/after" || fail "$r_what: the store's state unread"
	if cmp -s "$WORK/before" "$WORK/after"; then
		pass "$r_what: the database is unchanged"
	else
		fail "$r_what: the database changed:"
		diff "$WORK/before" "$WORK/after" | head -20 | sed 's/^/    /' | cat -v
		cp "$WORK/after" "$WORK/before"
	fi
}

# accepted NAME FRAGMENT: a status-0 entry (issue 36: structured legal
# reviews that once aborted import, check and the record writer) imports,
# checks with FRAGMENT in its line, is decided and replays, none of it
# printing a raw control byte.  The database it leaves is the next
# entry's "before".
accepted() {
	a_name=$1 a_fragment=$2 a_id=$(jq -r .proposed_action.action_id "$HOSTILE/$1")
	expect_status "$a_name: imports" 0 \
		timeout "$HANG_LIMIT" "$COUNTERSIGN" --db "$DB" import "$HOSTILE/$a_name"
	expect_contains "$a_name: one object" "$WORK/out" "$a_name: 1 imported, 0 unchanged"
	expect_status "$a_name: checks" 0 timeout "$HANG_LIMIT" "$COUNTERSIGN" --db "$DB" check "$a_id"
	expect_contains "$a_name: the check says" "$WORK/out" "$a_fragment"
	printf '{"action_id": "%s", "decision": "approve", "reason": "%s", "acknowledge": %s}\n' \
		"$a_id" "structured review read" '["high_stakes", "divergence"]' >"$WORK/accepted.batch"
	expect_status "$a_name: is approved" 0 timeout "$HANG_LIMIT" "$COUNTERSIGN" --db "$DB" batch "$WORK/accepted.batch"
	expect_contains "$a_name: recorded" "$WORK/out" '"status":"recorded"'
	expect_status "$a_name: the decision replays" 0 cs audit replay "$a_id"
	expect_eq "$a_name: no raw control byte in the replay" \
		"$(LC_ALL=C grep -c -P "$RAW_CONTROL" "$WORK/out" || true)" 0
	store_state >"$WORK/before" || fail "$a_name: the store's state unread"
}

# Read through fd 3: nothing the loop runs can eat the list.
exec 3<"$HOSTILE/EXPECTED"
while IFS=$TAB read -r name status fragment <&3; do
	[ -n "$name" ] || continue
	if [ "$status" = 0 ]; then
		accepted "$name" "$fragment"
		continue
	fi
	refused "$name" "$status" "$fragment" "$HOSTILE/$name"
	expect_contains "$name: all or nothing" "$WORK/err" \
		"countersign: $HOSTILE/$name: nothing imported from this file"
done
exec 3<&-
expect_status "the chain verifies after the accepted entries" 0 cs audit verify

# The whole corpus as one directory: every *.json / *.jsonl refused, each
# on its own, nothing imported (the accepted ones are there already).
json_files=$(awk -F '\t' '$2 != 0 { print $1 }' "$HOSTILE/EXPECTED" | grep -c -E '\.jsonl?$')
expect_status "the corpus directory at once" 3 \
	timeout 120 "$COUNTERSIGN" --db "$DB" import "$HOSTILE"
expect_eq "each of its JSON files refused on its own" \
	"$(grep -c 'nothing imported from this file$' "$WORK/err")" "$json_files"
expect_eq "the others (.png, .sh, .yaml, EXPECTED, BASES) skipped" \
	"$(grep -c -e /not-json-png.png -e /not-json-script.sh -e /not-json-yaml.yaml \
	-e /EXPECTED -e /BASES -e /README "$WORK/err" || true)" 0
store_state >"$WORK/after" || fail "the store's state unread"
expect_eq "the directory import changed nothing" \
	"$(cmp -s "$WORK/before" "$WORK/after" && echo same || echo changed)" same

# ---- made at test time ----
ROSTER_HEAD='{"type":"roster","authors":["'

# Nesting 100,000 deep, arrays and objects (cJSON stops at 1,000).
awk 'BEGIN { printf "{\"type\":\"roster\",\"authors\":[\"a\"],\"x\":";
	for (i = 0; i < 100000; i++) printf "[";
	for (i = 0; i < 100000; i++) printf "]"; print "}" }' >"$WORK/deep-100000.jsonl"
refused "nesting 100,000 deep (arrays)" 3 ":1: nested deeper than 1000 levels" "$WORK/deep-100000.jsonl"
awk 'BEGIN { printf "{\"type\":\"roster\",\"authors\":[\"a\"],\"x\":";
	for (i = 0; i < 100000; i++) printf "{\"a\":";
	printf "1"; for (i = 0; i < 100000; i++) printf "}"; print "}" }' >"$WORK/deep-objects.json"
refused "nesting 100,000 deep (objects)" 3 ":1: nested deeper than 1000 levels" "$WORK/deep-objects.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' >"$WORK/open-brackets.jsonl"
refused "100,000 open brackets, never closed" 3 ":1: nested deeper than 1000 levels" "$WORK/open-brackets.jsonl"

# A 2 MiB line, alone and after a good line; one byte over 1 MiB.
{ printf '%s' "$ROSTER_HEAD"; head -c 2097152 /dev/zero | tr '\0' a; printf '"]}\n'; } >"$WORK/line-2mib.jsonl"
refused "a 2 MiB line" 3 ":1: the line is 2097184 bytes; at most 1 MiB is allowed" "$WORK/line-2mib.jsonl"
{ sed -n 8p "$HOSTILE/BASES"; cat "$WORK/line-2mib.jsonl"; } >"$WORK/line-2mib-second.jsonl"
refused "a 2 MiB second line" 3 ":2: the line is 2097184 bytes" "$WORK/line-2mib-second.jsonl"
{ printf '%s' "$ROSTER_HEAD"; head -c 1048545 /dev/zero | tr '\0' a; printf '"]}'; } >"$WORK/line-1mib-plus-1.jsonl"
expect_eq "that line is 1 MiB + 1 byte" "$(wc -c <"$WORK/line-1mib-plus-1.jsonl" | tr -d ' ')" 1048577
refused "a line of 1 MiB + 1 byte" 3 ":1: the line is 1048577 bytes; at most 1 MiB is allowed" "$WORK/line-1mib-plus-1.jsonl"

# A 70 MiB file (sparse after a valid first object), and 64 MiB + 1 byte.
sed -n 8p "$HOSTILE/BASES" >"$WORK/huge.jsonl"
truncate -s 70M "$WORK/huge.jsonl"
refused "a 70 MiB file" 3 "the file is 73400320 bytes; at most 64 MiB is imported" "$WORK/huge.jsonl"
sed -n 8p "$HOSTILE/BASES" >"$WORK/huge-by-one.jsonl"
truncate -s 67108865 "$WORK/huge-by-one.jsonl"
refused "a file of 64 MiB + 1 byte" 3 "the file is 67108865 bytes; at most 64 MiB is imported" "$WORK/huge-by-one.jsonl"

# A directory with symlink loops (to itself, to its parent, and two links
# to each other) and one bad file: it ends, refuses the bad file and the
# unresolvable links, imports nothing.
mkdir -p "$WORK/loops/sub"
cp "$HOSTILE/num-zero-quantity.jsonl" "$WORK/loops/sub/bad.jsonl"
ln -s . "$WORK/loops/self"
ln -s .. "$WORK/loops/sub/up"
ln -s b.json "$WORK/loops/a.json"
ln -s a.json "$WORK/loops/b.json"
refused "a directory with symlink loops" 3 "proposed_action.quantity: must be greater than 0" \
	"$WORK/loops" "$WORK/loops/sub/bad.jsonl"
expect_contains "the looping file link is reported" "$WORK/err" "$WORK/loops/a.json: Too many levels of symbolic links"
expect_eq "the bad file is read once, not once per loop" \
	"$(grep -c 'bad.jsonl: nothing imported' "$WORK/err")" 1

# A roster over 10,000 authors, an index over 10,000 standards (SPEC v2 1,
# issue 24): refused; 10,000 of either imports.
jq -nc '{type: "roster", authors: [range(0; 10001) | "author-\(.)"]}' >"$WORK/roster-10001.json"
refused "a roster of 10,001 authors" 3 ":1: authors: 10001 authors; a roster holds at most 10,000" \
	"$WORK/roster-10001.json"
jq -nc '{type: "standards_index", standards: [range(0; 10001) | {id: "S-\(.)",
	assertion: "a", status: "Accepted", applies_to: {file_patterns: ["*"]}}]}' >"$WORK/index-10001.json"
refused "an index of 10,001 standards" 3 ":1: standards: 10001 standards; a standards_index holds at most 10,000" \
	"$WORK/index-10001.json"
jq -c '.authors |= .[:10000]' "$WORK/roster-10001.json" >"$WORK/roster-10000.json"
jq -c '.standards |= .[:10000]' "$WORK/index-10001.json" >"$WORK/index-10000.json"
expect_status "10,000 authors and 10,000 standards import" 0 \
	"$COUNTERSIGN" --db "$WORK/limits.db" import "$WORK/roster-10000.json" "$WORK/index-10000.json"

# Directories whose links point at each other (issue 24): seven of them,
# each linking to every other, once made an import read 949,000 files in
# a minute.  Each directory is read once per import, each bad file seen
# once.
mkdir "$WORK/mesh"
for i in 1 2 3 4 5 6 7; do
	mkdir "$WORK/mesh/d$i"
	cp "$HOSTILE/num-zero-quantity.jsonl" "$WORK/mesh/d$i/bad.jsonl"
	for j in 1 2 3 4 5 6 7; do
		[ "$i" = "$j" ] || ln -s "../d$j" "$WORK/mesh/d$i/to-d$j"
	done
done
HANG_LIMIT=20
refused "directories whose links point at each other" 3 \
	"proposed_action.quantity: must be greater than 0" "$WORK/mesh" "$WORK/mesh/d1/bad.jsonl"
expect_eq "each of the seven directories is read once" \
	"$(grep -c 'bad.jsonl: nothing imported' "$WORK/err")" 7
HANG_LIMIT=30

# Not regular files: a device and a FIFO must be refused at once, never
# waited on (a FIFO nobody writes would block open() for ever).
HANG_LIMIT=10
refused "a character device" 3 "not a regular file" /dev/zero
mkfifo "$WORK/fifo.jsonl"
refused "a FIFO named on the command line" 3 "not a regular file" "$WORK/fifo.jsonl"
mkdir "$WORK/drop"
mkfifo "$WORK/drop/a-fifo.json"
cp "$HOSTILE/num-zero-quantity.jsonl" "$WORK/drop/b-bad.jsonl"
refused "a FIFO named *.json inside a directory" 3 "not a regular file" \
	"$WORK/drop" "$WORK/drop/a-fifo.json"
expect_contains "the file after the FIFO is still read" "$WORK/err" \
	"$WORK/drop/b-bad.jsonl:1: proposed_action.quantity: must be greater than 0"

HANG_LIMIT=30

# A file named with terminal controls: the name is shown escaped.
evil_name="$WORK/evil$(printf '\033]0;pwned\007\302\233\342\200\256').jsonl"
cp "$HOSTILE/num-zero-quantity.jsonl" "$evil_name"
refused "a file name with escape sequences" 3 ":1: proposed_action.quantity: must be greater than 0" \
	"$evil_name" "$WORK/evil\\e]0;pwned^G<U+009B><U+202E>.jsonl"

# Several files in one command stay independent: a good one beside two bad.
sed -n 4p "$HOSTILE/BASES" >"$WORK/good.jsonl"
expect_status "a good file between two bad ones" 3 \
	cs import "$HOSTILE/dup-key-top.jsonl" "$WORK/good.jsonl" "$HOSTILE/nul-raw-byte.jsonl"
expect_contains "the good one is imported" "$WORK/out" "good.jsonl: 1 imported, 0 unchanged"
expect_eq "both bad ones refused" "$(grep -c 'nothing imported from this file' "$WORK/err")" 2
expect_eq "and only the good one's packet is new" \
	"$(cs list --json | jq -r .action_id)" h-trade

# Nesting that import allows (an unknown field 100 deep, under its limit
# of 1,000) but deeper than the record writer walks: a decision on it is
# recorded and replays (it once aborted on an invalid free).
deep=$(awk 'BEGIN { for (i = 0; i < 100; i++) printf "[";
	printf "{\"k\":0.1}"; for (i = 0; i < 100; i++) printf "]" }')
jq -c --argjson d "$deep" '.proposed_action.extra = $d
	| .proposed_action.action_id = "deep-100"
	| .reviewer_verdict.action_id = "deep-100" | .reviewer_verdict.extra = $d' \
	"$EXAMPLES/packet-trade-pass.json" >"$WORK/deep-100.jsonl"
cs import "$EXAMPLES/security_map.json" "$EXAMPLES/ips.json" \
	"$EXAMPLES/holdings.json" "$WORK/deep-100.jsonl" >/dev/null
echo '{"action_id": "deep-100", "decision": "approve", "reason": "deep"}' >"$WORK/deep.batch"
expect_status "a decision on a packet nested 100 deep" 0 cs batch "$WORK/deep.batch"
expect_contains "it is recorded" "$WORK/out" '"status":"recorded"'
expect_status "the chain verifies" 0 cs audit verify
expect_status "and the decision replays" 0 cs audit replay deep-100
finish
