#!/bin/sh
# Through the service, messages advise what an officer can do there
# (issue 37): a member of the importers' group imports, the service's
# administrator starts it otherwise; never local mode's "give --db".
. "$TOP_SRCDIR/tests/e2e/lib.sh"
command -v socat >/dev/null 2>&1 || { echo "socat is needed"; exit 77; }

SOCK="$WORK/sock"
GROUP=$(id -gn)
SERVICE_PID=
trap '[ -z "$SERVICE_PID" ] || kill "$SERVICE_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

# service_start ARGS...: serve with ARGS, up once its socket answers.
service_start() {
	COUNTERSIGN_DATA_DIR="$TOP_SRCDIR/data" "$COUNTERSIGN" serve \
		--socket "$SOCK" "$@" 2>>"$WORK/serve.log" &
	SERVICE_PID=$!
	wait_for_socket "$SOCK" "$WORK/serve.log"
}

service_stop() {
	kill "$SERVICE_PID"
	wait "$SERVICE_PID" || true
	SERVICE_PID=
}

# lacks WHAT FILE TEXT
lacks() {
	if grep -qF -- "$3" "$2"; then fail "$1: [$3] in $(cat "$2")"; else
		pass "$1"; fi
}

# No database yet, importers named: ask one of them.
service_start --db "$WORK/none.db" --officers "$GROUP" --importers "$GROUP"
expect_status "no database: list through the service" 4 \
	"$COUNTERSIGN" --connect "$SOCK" list
expect_contains "... says to ask an importer" "$WORK/err" \
	"the service has no database at $WORK/none.db yet (No such file or directory): ask a member of the group '$GROUP' to import something (serve --importers)"
lacks "... and not to give --db" "$WORK/err" "give --db"
expect_status "no database: check through the service" 4 \
	"$COUNTERSIGN" --connect "$SOCK" check
expect_contains "... the same" "$WORK/err" "ask a member of the group '$GROUP'"
lacks "... no --db" "$WORK/err" "give --db"
expect_status "no database: status, answered in the loop" 4 \
	"$COUNTERSIGN" --connect "$SOCK" status x
expect_contains "... the same" "$WORK/err" "ask a member of the group '$GROUP'"
lacks "... no --db" "$WORK/err" "give --db"

# A head no sink took: the service's administrator gives the file.
if [ ! -S /dev/log ]; then
	expect_status "import through the service" 0 \
		"$COUNTERSIGN" --connect "$SOCK" import "$EXAMPLES/ips.json"
	expect_contains "the unsunk head: ask for serve --checkpoint-file" \
		"$WORK/err" "ask the service's administrator for serve --checkpoint-file"
	lacks "... not run the service (the officer cannot)" "$WORK/err" \
		"or run the service with"
	if grep -q bindtextdomain "$COUNTERSIGN" && command -v msgfmt >/dev/null &&
	    UTF8=$(locale -a 2>/dev/null | grep -i -m 1 -E \
	    '^(C\.utf-?8|en_US\.utf-?8|de_DE\.utf-?8)$'); then
		mkdir -p "$WORK/locale/de/LC_MESSAGES"
		msgfmt -o "$WORK/locale/de/LC_MESSAGES/countersign.mo" \
			"$TOP_SRCDIR/po/de.po"
		service_stop
		COUNTERSIGN_LOCALEDIR="$WORK/locale" service_start \
			--db "$WORK/none.db" --officers "$GROUP" --importers "$GROUP"
		expect_status "German: import through the service" 0 env \
			LANGUAGE=de LANG="$UTF8" LC_ALL="$UTF8" \
			"$COUNTERSIGN" --connect "$SOCK" import "$EXAMPLES/holdings.json"
		expect_contains "... the advice in German" "$WORK/err" \
			"bitten Sie die Administration des Dienstes um serve --checkpoint-file"
	fi
else
	echo "skip: a syslog listens at /dev/log, no head goes unsunk"
fi
service_stop

# No importers' group at all: only the administrator can help.
service_start --db "$WORK/other.db" --officers "$GROUP"
expect_status "no database, no importers: list" 4 \
	"$COUNTERSIGN" --connect "$SOCK" list
expect_contains "... ask the administrator" "$WORK/err" \
	"gives no group the import role: ask its administrator (serve --importers)"
lacks "... no --db" "$WORK/err" "give --db"
service_stop

# The service's default database is a link: the administrator's to fix.
: >"$WORK/target.db"
ln -s "$WORK/target.db" "$WORK/link.db"
COUNTERSIGN_DB="$WORK/link.db" service_start --officers "$GROUP"
expect_status "a linked default database: list" 4 \
	"$COUNTERSIGN" --connect "$SOCK" list
expect_contains "... the administrator's" "$WORK/err" \
	"the service's database $WORK/link.db is a symbolic link, which it follows only when serve --db names it: ask the service's administrator"
lacks "... not the officer's --db" "$WORK/err" "(countersign --db"
service_stop

# Local mode keeps its own advice.
expect_status "local: no database" 4 "$COUNTERSIGN" --db "$WORK/none2.db" list
expect_contains "... give --db" "$WORK/err" "import something first or give --db"
finish
