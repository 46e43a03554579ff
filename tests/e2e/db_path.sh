#!/bin/sh
# Issue 24, point 10: a database path that is a symbolic link is followed
# only when --db names it, and a dangling one is never created through.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

cs import "$EXAMPLES/security_map.json" >/dev/null
ln -s "$DB" "$WORK/link.db"
mkdir "$WORK/elsewhere"
ln -s "$WORK/elsewhere/target.db" "$WORK/dangling.db"

expect_status "COUNTERSIGN_DB naming a link: refused" 4 \
	env COUNTERSIGN_DB="$WORK/link.db" "$COUNTERSIGN" list
expect_contains "it says so, and how to use it anyway" "$WORK/err" \
	"$WORK/link.db is a symbolic link; countersign follows one only when --db names it"
mkdir -p "$WORK/xdg/countersign"
ln -s "$DB" "$WORK/xdg/countersign/countersign.db"
expect_status "the XDG default being a link: refused" 4 \
	env -u COUNTERSIGN_DB XDG_DATA_HOME="$WORK/xdg" "$COUNTERSIGN" list
expect_contains "it says so" "$WORK/err" "is a symbolic link"
expect_status "--db naming the link: followed" 0 "$COUNTERSIGN" --db "$WORK/link.db" list

expect_status "a dangling link given to import with --db: refused" 4 \
	"$COUNTERSIGN" --db "$WORK/dangling.db" import "$EXAMPLES/security_map.json"
expect_contains "it says so" "$WORK/err" "is a symbolic link to nothing"
expect_status "and through COUNTERSIGN_DB" 4 \
	env COUNTERSIGN_DB="$WORK/dangling.db" "$COUNTERSIGN" import "$EXAMPLES/security_map.json"
expect_eq "its target was not created" "$(ls "$WORK/elsewhere" | wc -l | tr -d ' ')" 0

finish
