#!/bin/sh
# Issue 37: q in the demo's queue asks before quitting, since quitting
# deletes the demo's database and every decision in it; any key but y
# stays.  Elsewhere q goes back (the detail view to the queue), and q in
# the queue of a database of one's own quits at once.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

UTF8=$(locale -a 2>/dev/null |
    grep -i -m 1 -E '^(C\.utf-?8|en_US\.utf-?8|de_DE\.utf-?8)$' || true)
[ -n "$UTF8" ] || { echo "no UTF-8 locale (locale -a)"; exit 77; }
trap 'tui_stop; rm -rf "$WORK"' EXIT
mkdir "$WORK/tmp"

tui_launch 100 30 "env LANG=$UTF8 LC_ALL=$UTF8 TMPDIR='$WORK/tmp' \
    COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' demo"
wait_for "pending"
expect_eq "the demo made its database" "$(ls "$WORK/tmp" | grep -c '^countersign-demo-')" 1

keys q
expect_screen "q in the demo's queue asks first" "Quit the demo? Its database and decisions are deleted."
keys n
expect_gone "any other key stays: the question goes" "Quit the demo?"
expect_screen "...back on the queue" "pending"
expect_eq "...still running" "$(test -s "$WORK/tui-exit" && echo ended || echo running)" running

# q elsewhere goes back, without asking.
keys Enter
expect_gone "Enter opens the action: the queue's key line goes" "q quit"
keys q
expect_screen "q in the detail view goes back to the queue" "q quit"
expect_eq "...without a question" "$(screen | grep -c 'Quit the demo?' || true)" 0

keys q
expect_screen "asked again" "Quit the demo?"
keys y
i=0
while [ ! -s "$WORK/tui-exit" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
expect_eq "y quits, exit 0" "$(cat "$WORK/tui-exit" 2>/dev/null)" 0
expect_eq "...and the demo's database is gone" "$(ls "$WORK/tmp" | grep -c '^countersign-demo-' || true)" 0

# A database of one's own: q quits at once.
import_passing_trades Q 2
tui_start 100 30
keys q
i=0
while [ ! -s "$WORK/tui-exit" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
expect_eq "q in one's own queue quits at once" "$(cat "$WORK/tui-exit" 2>/dev/null)" 0
finish
