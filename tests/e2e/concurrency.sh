#!/bin/sh
# SPEC 5: at most one decision per action whatever runs concurrently.
# Four batch processes approve the same 500 actions at once.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

N=500
import_passing_trades c "$N"

# Each process walks the actions in its own order, so they collide often.
approvals c "$N" >"$WORK/d0"
tac "$WORK/d0" >"$WORK/d1"
awk 'NR % 2 == 0' "$WORK/d0" >"$WORK/d2"; awk 'NR % 2 == 1' "$WORK/d0" >>"$WORK/d2"
awk 'NR % 2 == 1' "$WORK/d1" >"$WORK/d3"; awk 'NR % 2 == 0' "$WORK/d1" >>"$WORK/d3"

for p in 0 1 2 3; do
	cs batch "$WORK/d$p" >"$WORK/out$p" 2>"$WORK/err$p" &
done
wait

cat "$WORK"/out? >"$WORK/all"
expect_eq "every request answered" "$(wc -l <"$WORK/all")" $((4 * N))
expect_eq "exactly $N recorded" \
	"$(jq -r 'select(.status == "recorded") | .action_id' "$WORK/all" | wc -l)" "$N"
expect_eq "each action recorded once" \
	"$(jq -r 'select(.status == "recorded") | .action_id' "$WORK/all" | sort -u | wc -l)" "$N"
expect_eq "every other answer is already_decided" \
	"$(jq -r 'select(.status == "refused") | .code' "$WORK/all" | sort -u)" already_decided
expect_eq "no process reported an error" "$(stderr_but_sink "$WORK"/err? | wc -c)" 0
expect_eq "no busy error anywhere" "$(grep -ci 'busy\|locked' "$WORK/all" || true)" 0
expect_status "the chain verifies" 0 cs audit verify
expect_contains "with $N decisions" "$WORK/out" "($N decisions)"
expect_eq "every action approved" \
	"$(db_sql "SELECT count(*) FROM action WHERE status = 'approved'")" "$N"
finish
