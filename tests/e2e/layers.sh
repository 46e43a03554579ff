#!/bin/sh
# The one-way layers of HACKING: tui -> commands -> store -> domain.
# src/main.c, the program, stands above them all and is not checked.
# A file may include headers of its own layer and the layers below it,
# never above, and only the tui includes a terminal library:
#   domain:   no store, commands or tui header, no sqlite3.h, libpq-fe.h
#             or curses;
#   store:    no commands or tui header, no curses;
#   commands: no tui header, no curses;
# and sqlite3.h and libpq-fe.h only in the store's backends, and
# cJSON_Print* is called in src/domain/json_writer.c only.
# Checked on the source tree, then on a copy given a domain file that
# includes curses, a store file that includes tui.h and a commands file
# that includes ncurses: the check must catch each (its negative case).
. "$TOP_SRCDIR/tests/e2e/lib.sh"

# layer_of FILE (relative to a tree): domain, store, commands, tui, or
# nothing for what no layer owns.  A header in include/ is in the layer
# of the source file of its name, or of the map below.
layer_of() {
	case $1 in
	src/domain/*|src/store/*|src/commands/*|src/tui/*)
		f=${1#src/}; echo "${f%%/*}"; return ;;
	# The service is a front end at the commands' level: it runs them
	# for its clients and reaches the screens as they do (review_run).
	src/service/*|include/service.h) echo commands; return ;;
	include/decision.h|include/commands.h|include/i18n.h)
		echo commands; return ;;
	include/store.h) echo store; return ;;
	include/*.h)
		base=$(basename "$1" .h)
		for layer in domain store commands tui; do
			if [ -e "$tree/src/$layer/$base.c" ]; then
				echo "$layer"; return
			fi
		done ;;
	esac
}

# forbidden LAYER: an ERE of the headers that layer must not include,
# matched on the whole name as written ("../tui/tui.h" too).
forbidden() {
	curses='n?curses(w)?\.h|term\.h|panel\.h|menu\.h|form\.h'
	tui='tui\.h|reasons\.h'
	commands='commands\.h|decision\.h'
	store='store\.h|store_internal\.h|sqlite3\.h|libpq-fe\.h'
	case $1 in
	domain) echo "(^|/)($curses|$tui|$commands|$store)\$|(^|/)(tui|commands|store)/" ;;
	store) echo "(^|/)($curses|$tui|$commands)\$|(^|/)(tui|commands)/" ;;
	commands) echo "(^|/)($curses|$tui)\$|(^|/)tui/" ;;
	esac
}

# check_tree TREE: prints each include that crosses a layer upward, as
# FILE:LINE: LAYER includes HEADER; fails when there is one.
check_tree() {
	tree=$1 crossings=0
	for path in "$tree"/src/*/*.[ch] "$tree"/include/*.h; do
		[ -e "$path" ] || continue
		file=${path#"$tree"/}
		layer=$(layer_of "$file")
		[ -n "$layer" ] || continue
		ere=$(forbidden "$layer")
		[ -n "$ere" ] || continue
		found=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^>"]*\)[>"].*/\1/p' "$path" |
			grep -E "$ere" || true)
		[ -n "$found" ] || continue
		for header in $found; do
			line=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]$(printf '%s' "$header" | sed 's/[.\/]/\\&/g')[>\"]" "$path" | head -1 | cut -d: -f1)
			echo "$file:$line: $layer includes $header"
			crossings=$((crossings + 1))
		done
	done
	[ "$crossings" -eq 0 ]
}

### The tree as it is.
if check_tree "$TOP_SRCDIR" >"$WORK/layers"; then
	pass "no include crosses a layer upward"
else
	fail "includes cross the layers:"; sed 's/^/    /' "$WORK/layers"
fi

# expect_none FILE PASS FAIL: PASS when the check wrote nothing to FILE,
# else FAIL and what it wrote.
expect_none() {
	if [ -s "$1" ]; then
		fail "$3"; sed 's/^/    /' "$1"
	else
		pass "$2"
	fi
}

# tree_copy DIR: a copy of the sources and headers, for a negative case.
tree_copy() {
	mkdir "$1"
	cp -R "$TOP_SRCDIR/src" "$TOP_SRCDIR/include" "$1/"
}

### The store's seam (issue 38): each backend's header only in its backend.
# sqlite3.h in db_sqlite.c, libpq-fe.h in the pg_ files; db.h and every
# layer above stay free of both, so the store's calls are its own.
# backend_leaks TREE: each file that includes a backend's header outside
# that backend, as FILE: HEADER.
backend_leaks() {
	for path in "$1"/src/*/*.[ch] "$1"/include/*.h; do
		[ -e "$path" ] || continue
		file=${path#"$1"/}
		for header in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^>"]*\)[>"].*/\1/p' "$path" |
			grep -E '(^|/)(sqlite3|libpq-fe)\.h$' || true); do
			case $header:$file in
			*sqlite3.h:src/store/db_sqlite.c) ;;
			*libpq-fe.h:src/store/pg_*) ;;
			*) echo "$file: $header" ;;
			esac
		done
	done
}
backend_leaks "$TOP_SRCDIR" >"$WORK/leaks"
expect_none "$WORK/leaks" \
	"sqlite3.h only in db_sqlite.c, libpq-fe.h only in the pg_ files" \
	"a backend's header outside its backend:"
tree_copy "$WORK/seam"
printf '#include <sqlite3.h>\n' >>"$WORK/seam/src/store/db.h"
printf '#include <libpq-fe.h>\n' >>"$WORK/seam/src/commands/common.c"
backend_leaks "$WORK/seam" >"$WORK/leaks"
expect_eq "the seam check catches db.h including sqlite3.h and a command libpq-fe.h" \
	"$(cat "$WORK/leaks")" "src/commands/common.c: libpq-fe.h
src/store/db.h: sqlite3.h"

### One JSON printer (issue 38): cJSON_Print* only in json_writer.c.
# Digests, records and protocol messages are printed by the writer, so no
# byte of them depends on the cJSON installed (json_writer.h).
# print_calls TREE: each call of cJSON_Print* elsewhere, as FILE:LINE.
print_calls() {
	(cd "$1" && grep -nE 'cJSON_Print[A-Za-z]*[[:space:]]*\(' \
		src/*/*.[ch] include/*.h) |
		grep -v '^src/domain/json_writer\.c:' | cut -d: -f1,2 || true
}
print_calls "$TOP_SRCDIR" >"$WORK/prints"
expect_none "$WORK/prints" \
	"cJSON_Print* is called in src/domain/json_writer.c only" \
	"cJSON_Print* outside src/domain/json_writer.c:"
tree_copy "$WORK/printer"
printf 'static char *probe(cJSON *m) { return cJSON_PrintUnformatted(m); }\n' \
	>>"$WORK/printer/src/service/serve.c"
printf '#define PROBE(m) cJSON_PrintBuffered ((m), 64, 0)\n' \
	>>"$WORK/printer/include/json_strict.h"
printf 'static char *probe(cJSON *m) { return cJSON_Print(m); }\n' \
	>>"$WORK/printer/src/domain/json_writer.c"
print_calls "$WORK/printer" >"$WORK/prints"
expect_eq "the printer check catches a call in serve.c and in a header, not in json_writer.c" \
	"$(cat "$WORK/prints")" "src/service/serve.c:$(wc -l <"$WORK/printer/src/service/serve.c" | tr -d ' ')
include/json_strict.h:$(wc -l <"$WORK/printer/include/json_strict.h" | tr -d ' ')"

### The negative case: a copy with three crossings, each caught.
mkdir "$WORK/tree"
cp -R "$TOP_SRCDIR/src" "$TOP_SRCDIR/include" "$WORK/tree/"
printf '#include "config.h"\n\n#include <curses.h>\n' >"$WORK/tree/src/domain/layers_probe.c"
printf '#include "config.h"\n#include "../tui/tui.h"\n' >"$WORK/tree/src/store/layers_probe.c"
printf '#  include <ncursesw/ncurses.h>\n' >"$WORK/tree/src/commands/layers_probe.c"
printf '#include "store.h"\n' >>"$WORK/tree/include/verdict.h"
if check_tree "$WORK/tree" >"$WORK/crossings"; then
	fail "the check passes a tree whose domain includes curses"
else
	pass "the check fails on a tree whose domain includes curses"
fi
expect_contains "names the domain file, its line and the header" "$WORK/crossings" \
	"src/domain/layers_probe.c:3: domain includes curses.h"
expect_contains "catches store including the tui" "$WORK/crossings" \
	"src/store/layers_probe.c:2: store includes ../tui/tui.h"
expect_contains "catches commands including ncurses" "$WORK/crossings" \
	"src/commands/layers_probe.c:1: commands includes ncursesw/ncurses.h"
expect_contains "catches a domain header including the store's" "$WORK/crossings" \
	"include/verdict.h:"
expect_eq "and nothing else" "$(wc -l <"$WORK/crossings" | tr -d ' ')" 4

finish
