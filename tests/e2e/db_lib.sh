# The store under test as SQL, on either backend (issue 20).  Sourced by
# lib.sh; alone by a test's own child shells, for db_q.  A STORE is a
# SQLite file or a postgresql:// URI (postgresql.sh's server, reached as
# its superuser).  Rows print as sqlite3 prints them: "a|b", NULL empty
# (PostgreSQL's booleans print t and f).
is_pg() { case $1 in postgres://* | postgresql://*) return 0 ;; *) return 1 ;; esac; }
on_pg() { is_pg "$DB"; }

# db_q STORE SQL: SQL on that store; db_sql SQL: on $DB.
db_q() {
	if is_pg "$1"; then
		# On stdin: a statement may be longer than an argument may.
		printf '%s\n' "$2" | PGCLIENTENCODING=UTF8 \
			PGOPTIONS="-c client_min_messages=warning" \
			psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" -f -
	else
		# As a client of a busy store: it waits for the writer.
		sqlite3 -cmd ".timeout 10000" "$1" "$2"
	fi
}
db_sql() { db_q "$DB" "$1"; }

# pg_name [STORE]: its database's name (of $DB by default);
# pg_named NAME: $DB's server, database NAME.
pg_name() { printf '%s\n' "${1:-$DB}" | sed 's|^[a-z]*://[^/]*/\([^?]*\).*|\1|'; }
pg_named() { printf '%s\n' "$DB" | sed "s|^\([a-z]*://[^/]*/\)[^?]*|\1$1|"; }
# pg_create NAME [TEMPLATE]: database $DB's name_NAME made again, printed.
pg_create() {
	n="$(pg_name)_$1"
	db_q "$(pg_named postgres)" "DROP DATABASE IF EXISTS \"$n\" WITH (FORCE)" >/dev/null
	db_q "$(pg_named postgres)" "CREATE DATABASE \"$n\"${2:+ TEMPLATE \"$2\"}" >/dev/null
	pg_named "$n"
}

# db_new NAME: a new, empty store (prints it); db_copy NAME: a copy of $DB
# as it is now (countersign holds no connection to it between commands).
db_new() {
	if on_pg; then pg_create "$1"; else rm -f "$WORK/$1.db"; echo "$WORK/$1.db"; fi
}
db_copy() {
	if on_pg; then pg_create "$1" "$(pg_name)"; else cp "$DB" "$WORK/$1.db"; echo "$WORK/$1.db"; fi
}
# db_named NAME: the store db_new or db_copy NAME made.
db_named() {
	if on_pg; then pg_named "$(pg_name)_$1"; else echo "$WORK/$1.db"; fi
}
# db_restore STORE: $DB made again, a copy of STORE (one db_copy made).
db_restore() {
	if on_pg; then
		db_q "$(pg_named postgres)" "DROP DATABASE \"$(pg_name)\" WITH (FORCE)" >/dev/null
		db_q "$(pg_named postgres)" "CREATE DATABASE \"$(pg_name)\" TEMPLATE \"$(pg_name "$1")\"" >/dev/null
	else
		cp "$1" "$DB"
	fi
}

# db_tamper STORE "TRIGGER..." SQL: SQL as a writer of the store can run
# it past the named refusing triggers: SQLite's are dropped; on PostgreSQL
# the superuser sets session_replication_role, which silences them all (as
# the tables' owner could disable them).
db_tamper() {
	if is_pg "$1"; then
		db_q "$1" "SET session_replication_role = replica; $3"
	else
		t_drops=
		for t in $2; do t_drops="$t_drops DROP TRIGGER IF EXISTS $t;"; done
		db_q "$1" "$t_drops $3"
	fi
}

# sqlite_only WHAT: false, saying so, on PostgreSQL; for the checks of
# SQLite itself (its file, its pragmas, its typing).
sqlite_only() {
	if on_pg; then echo "skip: $1 (SQLite only)"; return 1; fi
	return 0
}

# sql_hex EXPR: SQL for EXPR's stored bytes in hex, on $DB's backend.
sql_hex() {
	if on_pg; then echo "encode(convert_to($1, 'UTF8'), 'hex')"; else echo "hex($1)"; fi
}

# sql_file_text FILE: SQL for FILE's bytes as text, on $DB's backend (on
# PostgreSQL the server cannot read the test's files: quoted inline).
sql_file_text() {
	# shellcheck disable=SC2016 # a dollar-quoted SQL literal
	if on_pg; then printf '$file$%s$file$' "$(cat "$1")"; else echo "CAST(readfile('$1') AS TEXT)"; fi
}
