#!/bin/sh
# Issue 38: the two backends' schemas are written side by side
# (src/store/schema.c, src/store/pg_schema.c), so here they are compared
# as the databases themselves report them: the same tables and columns,
# NOT NULL and primary keys, foreign keys, unique indexes, and the
# triggers that keep rows final.  Types are each backend's own.  Then a
# column added to one backend only must make the comparison fail.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: sqlite3 is needed"; exit 77; }
. "$TOP_SRCDIR/tests/e2e/pg_lib.sh"

pg_start

# describe_sqlite FILE, describe_pg DBNAME: one sorted line per fact.
# Left out on purpose: PostgreSQL's rowid columns (SQLite's implicit one,
# which the queries order by, made explicit) and its TRUNCATE triggers
# (SQLite has no TRUNCATE); SQLite's INSERT triggers that refuse a row
# whose key exists, which are there against INSERT OR REPLACE (it
# deletes without firing delete triggers) and which PostgreSQL, with no
# such statement, leaves to the primary key.
describe_sqlite() {
	{
		sqlite3 "$1" <"$TOP_SRCDIR/tests/e2e/schema_sqlite.sql"
		sqlite3 -separator ' ' "$1" "SELECT tbl_name, replace(sql, char(10), ' ') FROM sqlite_schema
			WHERE type = 'trigger' AND name NOT LIKE '%replace%'" |
			sed -E -n 's/^([a-z_]+) .* (BEFORE|AFTER|INSTEAD OF) (INSERT|UPDATE|DELETE) .*/trigger \1 \3/p'
	} | sort -u
}
describe_pg() {
	pg_psql "$1" -At -f "$TOP_SRCDIR/tests/e2e/schema_pg.sql" | sort -u
}

"$COUNTERSIGN" --db "$WORK/lite.db" import "$EXAMPLES/security_map.json" >/dev/null 2>&1
DB=$(pg_createdb schema)
cs import "$EXAMPLES/security_map.json" >/dev/null 2>&1
describe_sqlite "$WORK/lite.db" >"$WORK/lite.txt"
describe_pg schema >"$WORK/pg.txt"

expect_eq "both at the same schema version" \
	"$(pg_psql schema -At -c 'SELECT max(version) FROM schema_version')" \
	"$(sqlite3 "$WORK/lite.db" 'SELECT max(version) FROM schema_version')"
for what in column fk unique trigger; do
	expect_eq "SQLite describes some of: $what" "$(grep -c "^$what " "$WORK/lite.txt" | awk '{ print ($1 > 0) }')" 1
done
expect_eq "the decision table's foreign keys are seen" \
	"$(grep -c '^fk decision ' "$WORK/pg.txt")" 2
if diff -u "$WORK/lite.txt" "$WORK/pg.txt" >"$WORK/diff"; then
	pass "the two schemas agree ($(wc -l <"$WORK/lite.txt") facts)"
else
	fail "the two schemas differ (- SQLite, + PostgreSQL):"
	grep '^[-+][a-z]' "$WORK/diff" | sed 's/^/    /'
fi

# A negative case: a column added to one backend only is found.
sqlite3 "$WORK/lite.db" "ALTER TABLE decision ADD COLUMN only_here TEXT"
describe_sqlite "$WORK/lite.db" >"$WORK/lite2.txt"
expect_eq "a column on SQLite only is a difference" \
	"$(diff "$WORK/lite2.txt" "$WORK/pg.txt" | grep '^[<>]')" \
	"< column decision only_here notnull=0 pk=0"
pg_psql schema -c "ALTER TABLE action ADD COLUMN only_there TEXT NOT NULL DEFAULT ''" >/dev/null
describe_pg schema >"$WORK/pg2.txt"
expect_eq "a column on PostgreSQL only is a difference" \
	"$(diff "$WORK/lite.txt" "$WORK/pg2.txt" | grep '^[<>]')" \
	"> column action only_there notnull=1 pk=0"
pg_psql schema -c "ALTER TABLE queue_index DROP CONSTRAINT queue_index_action_id_fkey" >/dev/null
expect_eq "a foreign key missing on one is a difference" \
	"$(describe_pg schema | diff "$WORK/pg2.txt" - | grep '^[<>]')" \
	"< fk queue_index (action_id) -> action (action_id)"
finish
