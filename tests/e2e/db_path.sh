#!/bin/sh
# Issue 24, points 10 and 11: a database path that is a symbolic link is
# followed only when --db names it, a dangling one is never created
# through; a database created outside a setgid directory is 0600.
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

# Point 11: a new database is the officer's alone, whatever the umask.
(umask 022 && "$COUNTERSIGN" --db "$WORK/private/new.db" import "$EXAMPLES/security_map.json" >/dev/null)
expect_eq "created 0600 outside a setgid directory" "$(stat -c %a "$WORK/private/new.db")" 600
expect_eq "its directory 0700" "$(stat -c %a "$WORK/private")" 700
for f in "$WORK/private/new.db-wal" "$WORK/private/new.db-shm"; do
	[ -e "$f" ] && expect_eq "${f##*/} follows it" "$(stat -c %a "$f")" 600
done
mkdir "$WORK/shared" && chmod 2770 "$WORK/shared"
(umask 022 && "$COUNTERSIGN" --db "$WORK/shared/new.db" import "$EXAMPLES/security_map.json" >/dev/null)
expect_eq "created 0660 in a setgid directory" "$(stat -c %a "$WORK/shared/new.db")" 660
finish
