#!/bin/sh
# The detail shows what an officer needs to judge (v2, issue 23): a legal
# draft whose review failed says so, shows the review's error and the
# draft as a document, and is approved as high stakes; a formatting-only
# draft approves the draft, the reviewer's rewrite shown as the diff not
# approved; a trade shows its notes and the holdings they are about.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

DEMO="$TOP_SRCDIR/data/demo"
cs import "$DEMO" >/dev/null
record() { cs audit export | jq -c --arg id "$1" "select(.record.action_id == \$id) | .record | $2"; }
open_detail() { keys /; keys C-u "$1" Enter; wait_for "$1"; keys Enter; wait_for "$2"; }

tui_start 100 60

# A failed review: nothing fails, but there is no review to rely on.
open_detail legal-2026-0064 "power_of_attorney"
expect_screen "no usable review, saying why" \
	"Review: NONE USABLE (the review failed: all 3 attempts failed)"
expect_screen "the review's error is shown" "Review error: all 3 attempts failed"
expect_screen "it says which text approval approves" \
	"Approving approves the FIRST-PASS DRAFT (draft_text):"
screen >"$WORK/failed"
expect_eq "the draft reads as lines, not ^J" \
	"$(grep -c '^  SPECIAL POWER OF ATTORNEY$' "$WORK/failed") $(grep -c '\^J' "$WORK/failed")" "1 0"
expect_contains "its next line is a line of its own" "$WORK/failed" "  I, A. Mehta, appoint B. Mehta to sell plot 17, Sector 9,"
expect_contains "the high stakes name no_review" "$WORK/failed" "the draft goes on with gates-only quality"
keys a
wait_for "Approve legal-2026-0064"
keys Enter
expect_screen "refused without acknowledging" "Refused (high_stakes_unacknowledged)"
keys h d Tab "Read in full; gates-only is enough" Enter Enter
expect_screen "approved with both acknowledged and a reason" "approved (decision"
DRAFT_SHA=$(grep -F '"legal-2026-0064"' "$DEMO/packets-judgment.jsonl" |
	jq -j .proposed_action.draft_text | sha256sum | cut -d' ' -f1)
expect_eq "the record approves the draft, as no_review" \
	"$(record legal-2026-0064 '[.approved_artifact_sha256, [.high_stakes_reasons[].code], .acknowledged]')" \
	"[\"$DRAFT_SHA\",[\"no_review\"],[\"high_stakes\",\"divergence\"]]"

# A formatting-only issue: the draft is approved, not the rewrite.
open_detail legal-2026-0061 "demand_letter"
expect_screen "the draft is what approval approves" "Approving approves the FIRST-PASS DRAFT (draft_text):"
expect_screen "the rewrite is named as not approved" "NOT approved: the review's rewrite (final_artifacts[0].text)"
expect_screen "and shown as a diff" "+ Rent of 85,000 (eighty-five thousand) for October and November 2026 is due."
expect_screen "the reviewer's checks are shown" "Reviewer's checks (2)"
keys q

# The band crossing: clean, but the notes say what the rules do not.
open_detail c5e1a7d2-band-2002 "BUY BND x2000"
expect_screen "the class is noted leaving its band" \
	"class_share: fixed_income: 30% of the portfolio before, 45% after the buy, above its max"
expect_screen "the buy is noted against the cash" \
	"cash: the buy of \$150,000.00 exceeds the cash of \$100,000.00 by \$50,000.00"
expect_screen "the snapshot's age is noted" "holdings_as_of: snapshot h-u-2002-2026-11-27 as of 2026-11-27T21:00:00Z"
expect_screen "the holdings table marks the traded ticker" "> BND             \$300,000.00  fixed_income          30%"
keys q

# The price deviation is a high-stakes reason in the detail.
open_detail e0a4b9f3-price-vxus "BUY VXUS x1000000"
expect_screen "the price deviation is shown" "the packet prices VXUS at \$0.000001 a unit"
keys q q
tui_stop
finish
