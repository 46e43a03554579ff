# A throw-away PostgreSQL server for the tests (issue 20), never a system
# cluster: initdb into a temporary directory, listening only on a Unix
# socket in it, stopped and removed on exit.  Sourced after lib.sh.
# initdb refuses root: as root (CI) the server runs as the postgres account.
#
#   pg_start          starts it; sets PG_SOCKDIR
#   pg_createdb NAME  a new database, prints its URI
#   pg_psql NAME ...  psql on it as the superuser
#   pg_kill           SIGKILLs the postmaster (crash tests); pg_start again
#                     to recover on the same data directory

PG_BINDIR=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PG_BINDIR" ] || [ ! -x "$PG_BINDIR/initdb" ] || [ ! -x "$PG_BINDIR/pg_ctl" ]; then
	echo "SKIP: no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb);"
	echo "      scripts/install-deps.sh installs them (package postgresql)"
	exit 77
fi

PG_SOCKDIR=$(mktemp -d "${TMPDIR:-/tmp}/cs-pg.XXXXXX")
if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || { echo "FAIL: running as root and there is no postgres account"; exit 1; }
	chown postgres "$PG_SOCKDIR"
	# Any local account may reach the socket (its own mode is 0777).
	chmod 0755 "$PG_SOCKDIR"
	pg_as() { runuser -u postgres -- "$@"; }
else
	pg_as() { "$@"; }
fi

pg_ctl_() { pg_as "$PG_BINDIR/pg_ctl" -D "$PG_SOCKDIR/data" "$@"; }

pg_start() {
	if [ ! -d "$PG_SOCKDIR/data" ]; then
		pg_as "$PG_BINDIR/initdb" -D "$PG_SOCKDIR/data" -A trust -U postgres -E UTF8 --locale=C \
			>"$PG_SOCKDIR/initdb.log" 2>&1 ||
			{ echo "FAIL: initdb:"; cat "$PG_SOCKDIR/initdb.log"; exit 1; }
	fi
	# Waits for the server as long as it takes (recovery after pg_kill on
	# a loaded machine took over pg_ctl's default minute), not a fixed time.
	pg_ctl_ -o "-k $PG_SOCKDIR -c listen_addresses='' -c max_connections=120" \
		-l "$PG_SOCKDIR/server.log" -w -t 600 start >/dev/null 7>&- ||
		{ echo "FAIL: pg_ctl start:"; cat "$PG_SOCKDIR/server.log"; exit 1; }
}

pg_stop() {
	[ -f "$PG_SOCKDIR/data/postmaster.pid" ] && pg_ctl_ -m immediate stop >/dev/null 2>&1
	rm -rf "$PG_SOCKDIR"
}

pg_kill() {
	# The postmaster and its backends at once, as a power cut would.
	pm=$(head -n 1 "$PG_SOCKDIR/data/postmaster.pid")
	kids=$(ps -o pid= --ppid "$pm" || true)
	# shellcheck disable=SC2086
	kill -KILL "$pm" $kids 2>/dev/null || true
	while kill -0 "$pm" 2>/dev/null; do sleep 0.1; done
}

psql_() {
	db=$1
	shift
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -U postgres -d "$db" "$@"
}

pg_uri() { echo "postgresql://postgres@/$1?host=$PG_SOCKDIR"; }

pg_createdb() {
	psql_ postgres -c "CREATE DATABASE \"$1\"" >/dev/null
	pg_uri "$1"
}

pg_psql() { psql_ "$@"; }

trap 'pg_stop; rm -rf "$WORK"' EXIT
