#!/bin/sh
# Issue 37: T tags every action the current search shows, on all pages,
# and again untags them; bulk approval of 2,000 so tagged out of a queue
# of 10,000 goes through the plan, the reason and the confirmation as
# before, and the plan counts all 2,000.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"
trap 'tui_stop; rm -rf "$WORK"' EXIT

# 2,000 B- trades and 8,000 O- trades, all clean.
import_passing_trades B 2000
import_passing_trades O 8000
expect_eq "10,000 pending" "$(cs list --json 2>/dev/null | wc -l)" 10000

tui_start 100 30
keys /; keys "B-" Enter
expect_screen "the search shows the 2,000" "2000 of 10000 shown"
keys T
expect_screen "T tags all 2,000, not only the screenful" "2000 tagged: A approve them"
keys T
expect_gone "T again untags them" "2000 tagged"
keys T
expect_screen "and T tags them again" "2000 tagged: A approve them"
keys A
expect_screen "A: the plan counts all of them" "Approve 2000 tagged"
expect_screen "A: how many will be approved" "2000 will be approved, 0 skipped"
expect_eq "A: nothing recorded before the reason" \
    "$(cs audit export 2>/dev/null | jq -c 'select(.record.event == "decision")' | wc -l)" 0
keys Enter
expect_screen "A: Enter without a reason is still refused" "A bulk decision needs a reason"
keys 2 Enter
# 2,000 decisions: the screen says so once they are all recorded.
tries=0
until screen | grep -qF "2000 approved, 0 left tagged (bulk " || [ $tries -ge 1200 ]; do
	sleep 0.1; tries=$((tries + 1)); done
expect_screen "A: what it did" "2000 approved, 0 left tagged (bulk "
expect_eq "2,000 approved" "$(cs list --all --json 2>/dev/null | jq -r 'select(.status == "approved") | .action_id' | grep -c '^B-')" 2000
expect_eq "none of the others" "$(cs list --all --json 2>/dev/null | jq -r 'select(.status == "approved") | .action_id' | grep -c '^O-' || true)" 0
expect_eq "one bulk of 2,000" \
    "$(cs audit export 2>/dev/null | jq -r 'select(.record.event == "decision") | "\(.record.bulk.id) \(.record.bulk.count)"' | sort -u | wc -l) $(cs audit export 2>/dev/null | jq -r 'select(.record.event == "decision") | .record.bulk.count' | sort -u)" \
    "1 2000"
expect_eq "the CSV names the bulk" \
    "$(cs audit export --csv 2>/dev/null | tail -n +2 | awk -F'","' '{ print $NF }' | tr -d '"' | sort -u | wc -l)" 1
expect_eq "...the record's bulk id" \
    "$(cs audit export --csv 2>/dev/null | sed -n 2p | awk -F'","' '{ print $NF }' | tr -d '"')" \
    "$(cs audit export 2>/dev/null | jq -r 'select(.record.event == "decision") | .record.bulk.id' | head -1)"
finish
