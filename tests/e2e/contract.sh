#!/bin/sh
# doc/CONTRACT.md maps each section of the contract the code cites as
# "SPEC n" to the man page section that documents it.  Checked: every
# section the table names exists in its page, and every "SPEC n" cited in
# src/ and include/ is a row of the table.  Then the negative cases: a
# table naming a section no page has, and a source citing a section the
# table lacks, are each caught.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

# page_of NAME: the man page file of countersign(1) and its siblings.
page_of() {
	case $1 in
	'countersign(1)') echo "$TOP_SRCDIR/man/countersign.1" ;;
	'countersign-packets(5)') echo "$TOP_SRCDIR/man/countersign-packets.5" ;;
	'countersign-protocol(7)') echo "$TOP_SRCDIR/man/countersign-protocol.7" ;;
	esac
}

# check_table CONTRACT: prints each citation whose page or section is
# missing; fails when there is one.
check_table() {
	missing=0
	rows=$(grep -E '^\| [0-9]+(\.[0-9]+)? ' "$1" | cut -d'|' -f4 | tr ';' '\n' |
		sed 's/^ *//; s/ *$//')
	[ -n "$rows" ] || { echo "no rows in $1"; return 1; }
	while IFS= read -r cite; do
		[ -n "$cite" ] || continue
		name=${cite%% *}
		page=$(page_of "$name")
		if [ -z "$page" ] || [ ! -f "$page" ]; then
			echo "$cite: no page $name"; missing=$((missing + 1)); continue
		fi
		[ "$name" != "$cite" ] || continue	# the whole page
		rest=${cite#* }
		heading=${rest%%,*}
		if ! grep -qxF ".SH $heading" "$page"; then
			echo "$cite: $name has no section $heading"
			missing=$((missing + 1)); continue
		fi
		case $rest in
		*,*)
			sub=${rest#*, }
			# A subsection, or an item (a command) under the section.
			if ! grep -qE "^\.(SS|B|BR|BI) \"?$sub" "$page"; then
				echo "$cite: $name has no $sub"
				missing=$((missing + 1))
			fi ;;
		esac
	done <<ROWS
$rows
ROWS
	[ "$missing" -eq 0 ]
}

# check_cited CONTRACT TREE: prints each "SPEC n" cited under TREE's src/
# and include/ that the table has no row for; fails when there is one.
check_cited() {
	mapped=$(grep -E '^\| [0-9]+(\.[0-9]+)? ' "$1" | cut -d'|' -f2 | tr -d ' ')
	unmapped=0
	for n in $(grep -rhoE --include='*.[ch]' 'SPEC( section)? [0-9]+(\.[0-9]+)?' \
		"$2/src" "$2/include" | sed -E 's/SPEC( section)? //' | sort -u); do
		if ! printf '%s\n' "$mapped" | grep -qxF "$n"; then
			echo "SPEC $n is cited but not in the table"
			unmapped=$((unmapped + 1))
		fi
	done
	[ "$unmapped" -eq 0 ]
}

CONTRACT="$TOP_SRCDIR/doc/CONTRACT.md"

if check_table "$CONTRACT" >"$WORK/table"; then
	pass "every section the table names is in its man page"
else
	fail "the table names sections the pages lack:"; sed 's/^/    /' "$WORK/table"
fi
if check_cited "$CONTRACT" "$TOP_SRCDIR" >"$WORK/cited"; then
	pass "every SPEC section the code cites is in the table"
else
	fail "the code cites sections the table lacks:"; sed 's/^/    /' "$WORK/cited"
fi

### The negative cases.
sed 's/countersign(1) TERMINAL SAFETY/countersign(1) TERMINAL SAFENESS/' \
	"$CONTRACT" >"$WORK/renamed.md"
if check_table "$WORK/renamed.md" >"$WORK/renamed"; then
	fail "a section no page has went unnoticed"
else
	expect_contains "catches a section no page has" "$WORK/renamed" \
		"has no section TERMINAL SAFENESS"
fi
mkdir -p "$WORK/tree/src/domain" "$WORK/tree/include"
printf '/* As SPEC 99 says. */\n' >"$WORK/tree/src/domain/cites.c"
if check_cited "$CONTRACT" "$WORK/tree" >"$WORK/uncited"; then
	fail "a citation of a section the table lacks went unnoticed"
else
	expect_contains "catches a citation the table lacks" "$WORK/uncited" \
		"SPEC 99 is cited"
fi

finish
