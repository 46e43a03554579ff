# Driving the real binary in tmux, as tig's tests drive tig: keys in,
# screen text out.  Sourced after lib.sh.
command -v tmux >/dev/null 2>&1 || { echo "tmux is needed"; exit 77; }

TMUX_SOCKET="cs-test-$$"
tm() { tmux -L "$TMUX_SOCKET" "$@"; }

# tui_launch COLS ROWS COMMAND: COMMAND in a fresh pane; how it ended goes
# to $WORK/tui-exit, and the pane stays for a look.
#
# The pane's shell ignores hangups so that killing the server cannot end
# it before countersign.  If the shell went first, countersign's process
# group would be orphaned, and the kernel sends an orphaned group SIGHUP
# and SIGCONT when a member is stopped.  Under ASan one is: LeakSanitizer
# stops the process for its exit scan, the SIGCONT cancels that stop, and
# the scan waits for ever while countersign spins (seen in CI, and
# reproduced about one time in six).  countersign installs its own SIGHUP
# handler, so the ignored disposition it inherits changes nothing for it.
tui_launch() {
	cols=$1 rows=$2
	tui_stop
	rm -f "$WORK/tui-exit"
	# A tmux server starting beside another test's can fail to come up
	# ("server exited unexpectedly"): try again rather than fail the test.
	for attempt in 1 2 3; do
		if tm -f /dev/null new-session -d -x "$cols" -y "$rows" \
		    "trap '' HUP; $3; echo \$? >'$WORK/tui-exit'; trap - HUP; exec sleep 60"; then
			break
		fi
		sleep 0.5
	done
}

# tui_start COLS ROWS ARGS...: countersign on $DB in a fresh pane.
tui_start() {
	cols=$1 rows=$2
	shift 2
	tui_launch "$cols" "$rows" \
	    "env COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' --db '$DB' $*"
	wait_for "pending"
}

screen() { tm capture-pane -p -t 0; }
keys() { tm send-keys -t 0 "$@"; }

# screen_until shows|lacks TEXT: until the screen does (30 s at most);
# 1 if it never did.  tmux draws what it has read from the pane, and
# under load that can trail the program's last write by a moment, so
# every look at the screen waits for what it expects.
screen_until() {
	tries=0
	while :; do
		if screen 2>/dev/null | grep -qF -- "$2"; then
			seen=shows
		else
			seen=lacks
		fi
		[ "$seen" = "$1" ] && return 0
		tries=$((tries + 1))
		if [ $tries -gt 600 ]; then
			return 1
		fi
		sleep 0.05
	done
}

# show_screen: the screen, indented under a failure.
show_screen() { screen | sed 's/^/    /'; }

# wait_for TEXT: until the screen shows TEXT.
wait_for() {
	screen_until shows "$1" && return 0
	fail "screen never showed [$1]:"
	show_screen
	return 1
}

# expect_screen WHAT TEXT
expect_screen() {
	if wait_for "$2"; then pass "$1"; fi
}

# expect_gone WHAT TEXT: until the screen no longer shows TEXT.
expect_gone() {
	if screen_until lacks "$2"; then
		pass "$1"
	else
		fail "$1: the screen still shows [$2]:"
		show_screen
	fi
}

# tui_vanish: the terminal goes away (the server is killed); the pane's
# shell and countersign are remembered for tui_reap.
tui_vanish() {
	vanished_pane=$(tm list-panes -t 0 -F '#{pane_pid}' 2>/dev/null) ||
		vanished_pane=
	vanished_cs=
	if [ -n "$vanished_pane" ]; then
		vanished_cs=$(pgrep -P "$vanished_pane" countersign) ||
			vanished_cs=
	fi
	tm kill-server 2>/dev/null || true
}

# tui_reap: returns once countersign has ended and its shell has recorded
# how (30 seconds at most for each), so nothing writes to $WORK after
# this, then ends the shell.  Only then: the shell's end would send
# countersign a SIGHUP of its own.
tui_reap() {
	[ -n "$vanished_pane" ] || return 0
	tries=0
	while [ -n "$vanished_cs" ] && alive "$vanished_cs" &&
	    [ $tries -lt 600 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	tries=0
	while [ ! -s "$WORK/tui-exit" ] && [ $tries -lt 600 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	kill -9 "$vanished_pane" 2>/dev/null || true
	vanished_pane=
}

tui_stop() { tui_vanish; tui_reap; }

# tui_pid: the countersign process in the pane.
tui_pid() { pgrep -P "$(tm list-panes -t 0 -F '#{pane_pid}')" countersign; }

# tui_exit_status: how it ended, waiting up to 30 seconds (an ASan build
# under a parallel make check needs more than one); "running" if not.
tui_exit_status() {
	tries=0
	while [ ! -s "$WORK/tui-exit" ] && [ $tries -lt 600 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	if [ -s "$WORK/tui-exit" ]; then cat "$WORK/tui-exit"; else echo running; fi
}

# tui_demo_trades: the demo's trades with its batch of decisions made,
# every flag in a queue that fits one screen; PASS passes, DIVERGENT
# fails and diverges.
tui_demo_trades() {
	demo="$TOP_SRCDIR/data/demo"
	cs import "$demo/security_map.json" "$demo/ips.json" \
		"$demo/holdings.json" "$demo/roster.json" \
		"$demo/packets-trade.jsonl" "$demo/packets-trade-more.jsonl" \
		>/dev/null
	cs batch "$demo/decisions.batch" >/dev/null
	PASS=0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
	DIVERGENT=9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22
}

# tui_serve: a service on $DB at $SOCK for the officers' group, its
# stderr added to $WORK/serve.log, up once its socket answers.  Its pid
# is SERVICE_PID until the test reaps it and empties that; the exit
# kills it.
SERVICE_PID=
tui_serve() {
	COUNTERSIGN_DATA_DIR="$TOP_SRCDIR/data" "$COUNTERSIGN" serve \
		--db "$DB" --socket "$SOCK" --officers "$(id -gn)" \
		2>>"$WORK/serve.log" &
	SERVICE_PID=$!
	wait_for_socket "$SOCK" "$WORK/serve.log"
}
trap 'tui_stop; [ -z "$SERVICE_PID" ] || kill "$SERVICE_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

# alive PID: running, not merely a zombie waiting for its parent.  The
# state is read once, and no state at all means gone: between a kill -0
# that finds the zombie and the read of its stat, the parent may reap it
# (seen in CI, where an empty state once counted as running).
alive() {
	alive_state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) ||
		alive_state=
	[ -n "$alive_state" ] && [ "$alive_state" != Z ]
}

# expect_re WHAT REGEX: until a line of the screen matches REGEX (grep's
# basic syntax), 30 seconds at most, as expect_screen waits for text.
# expect_drawn WHAT EXPECTED COMMAND...: COMMAND reads the screen; until
# it prints EXPECTED (30 s at most), since a header can be drawn a moment
# before the rows under it.
expect_drawn() {
	drawn_what=$1 drawn_want=$2
	shift 2
	tries=0
	until [ "$("$@")" = "$drawn_want" ] || [ $tries -ge 600 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	expect_eq "$drawn_what" "$("$@")" "$drawn_want"
}

expect_re() {
	tries=0
	until screen 2>/dev/null | grep -q -- "$2"; do
		tries=$((tries + 1))
		if [ $tries -gt 600 ]; then
			fail "$1: no line matches [$2]:"
			show_screen
			return 0
		fi
		sleep 0.05
	done
	pass "$1"
}
