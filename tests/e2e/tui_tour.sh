#!/bin/sh
# The README's five-minute tour, step by step, three times: in English,
# in German (the build tree's catalogue, LANGUAGE=de) and under the POSIX
# locale (ASCII only).  Whatever the language, the same decisions are
# recorded, in English.  The German run also shows the rules' own words
# translated on screen while the record keeps them in English (issue 25).
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

DEMO="$TOP_SRCDIR/data/demo"
UTF8=$(locale -a 2>/dev/null |
    grep -i -m 1 -E '^(C\.utf-?8|en_US\.utf-?8|de_DE\.utf-?8)$' || true)
[ -n "$UTF8" ] || { echo "no UTF-8 locale (locale -a)"; exit 77; }

# The German catalogue and two of the rules' own words, as a translator
# would add them (po/de.po gets them at the next merge of the .pot).
GERMAN=no
if command -v msgfmt >/dev/null 2>&1 && command -v msgcat >/dev/null 2>&1 &&
    grep -q bindtextdomain "$COUNTERSIGN"; then
	cat >"$WORK/rules.po" <<'EOP'
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

#, c-format
msgid "sector %s is excluded by IPS %s v%lld"
msgstr "Sektor %s ist durch IPS %s v%lld ausgeschlossen"

#, c-format
msgid "value %s > %s (approval_required_above_usd)"
msgstr "Wert %s > %s (approval_required_above_usd)"

msgid "the advisory passes what fails locally"
msgstr "die Empfehlung lässt durch, was lokal scheitert"
EOP
	mkdir -p "$WORK/locale/de/LC_MESSAGES"
	msgcat --use-first "$WORK/rules.po" "$TOP_SRCDIR/po/de.po" \
	    -o "$WORK/de.po" &&
	    msgfmt -o "$WORK/locale/de/LC_MESSAGES/countersign.mo" \
	    "$WORK/de.po" && GERMAN=yes
fi

# make check (as make demo) points COUNTERSIGN_LOCALEDIR at the build
# tree's catalogues: LANGUAGE=de is German without installing anything.
if grep -q bindtextdomain "$COUNTERSIGN"; then
	expect_status "the demo without a terminal, in German" 0 env -u LC_ALL \
	    -u LC_MESSAGES LANGUAGE=de LANG="$UTF8" TMPDIR="$WORK" \
	    COUNTERSIGN_DATA_DIR="$TOP_SRCDIR/data" "$COUNTERSIGN" demo
	expect_contains "it found the build tree's catalogue" "$WORK/out" \
	    "7 importiert, 0 unverändert"
fi

record() { cs audit export | jq -c --arg id "$1" "select(.record.action_id == \$id) | .record${2-}"; }

# tour LANG-NAME ENV: the demo's data in a fresh database, the tour's
# keys, and what each step must leave recorded.  The screen checks that
# depend on the language are the caller's, between the steps, through
# the variables set here.
fresh() {
	DB="$WORK/$1.db"
	cs import "$DEMO" >/dev/null
	cs batch "$DEMO/decisions.batch" >/dev/null
	cs batch "$DEMO/judgments.batch" >/dev/null
	# What the header counts: the demo's pending actions.
	PENDING=$(cs list --json | wc -l)
}

# Runs in the pane's language; $1 the environment before the program.
launch() {
	tui_launch 80 24 "env -u LC_ALL -u LC_MESSAGES $1 COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' --db '$DB'"
	wait_for "$2"
}

recorded_steps() {
	expect_eq "$1: step 1 rejected the MO trade with the trade reason" \
		"$(record 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22 '| "\(.decision) \(.reason)"')" \
		'"reject Violates an exclusion"'
	expect_eq "$1: step 2 approved the BND trade" \
		"$(record 0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11 .decision)" '"approve"'
	expect_eq "$1: step 3 approved 7c41e2a0, acknowledged, with a reason" \
		"$(record 7c41e2a0-0a8b-4b55-9d3e-1f2a3b4c5d60 '| [.acknowledged, (.reason != null)]')" \
		'[["high_stakes"],true]'
	expect_eq "$1: step 4 left the expired trade pending" \
		"$(record 0c9d11aa-52e4-4c1b-8f70-2b9d6e3a4f18)" ""
	expect_eq "$1: step 5 approved one in a bulk of one" \
		"$(record 4a1f0c33-8e2d-4f6a-b1c9-7d5e3a2b1c04 .bulk.count)" 1
	expect_eq "$1: and skipped the failing one" \
		"$(record 9f3b77c2-6d1a-4e8b-a0c5-3e9d2f1b7a66)" ""
	expect_eq "$1: the divergence's notes are recorded in English" \
		"$(record 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22 '.divergence[] | select(.what == "overall_pass") | .note')" \
		'"the advisory passes what fails locally"'
	expect_eq "$1: the records are in English" \
		"$(record 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22 '.local_verdict.rule_results[] | select(.rule_id == "excluded_sector") | .detail')" \
		'"sector Tobacco is excluded by IPS ips-7f3a v3"'
	expect_status "$1: the chain verifies" 0 cs audit verify
}

# The tour's keys.  $1 names the run; $2 what the detail says of the
# MO trade's excluded_sector; $3 what a says of it ("cannot be
# approved: local rules fail"); $4 the
# ellipsis of a cut id; $5 the header's "1 of N shown" (N is
# $PENDING); $6 the expired trade's "EXPIRED"; $7 a record's "bulk"
# label.
tour() {
	name=$1
	# 1: search, open, refused, rejected.
	keys /; keys 9d2e Enter
	expect_screen "$name: 1 of $PENDING shown" "$5"
	keys Enter
	expect_screen "$name: the detail's head" "trade 9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22"
	expect_screen "$name: the rule's words" "$2"
	keys a
	expect_screen "$name: a says at once it cannot be approved" "$3"
	keys r
	wait_for "1 Violates an exclusion"
	keys 1 Enter
	wait_for "9d2e7b10$4"
	# 2: Esc clears the search; the BND trade approved.
	keys Escape
	keys /; keys 0b6c Enter; wait_for "> "; keys Enter
	expect_screen "$name: requested by pm.lee" "pm.lee"
	keys a; wait_for "0b6c1d52"; keys Enter
	wait_for "0b6c1d52$4"
	# 3: high stakes, acknowledged, with a standard reason.
	keys /; keys 7c41 Enter; wait_for "> "; keys Enter
	keys a; wait_for "[ ]"; keys h 1 Enter
	wait_for "7c41e2a0$4"
	# 4: the expired trade.
	keys /; keys 0c9d Enter; wait_for "> "; keys Enter
	expect_screen "$name: the expired trade says so" "$6"
	keys q
	# 5: bulk.
	keys /; keys 4a1f Enter; wait_for "> "; keys t
	keys /; keys 9f3b Enter; wait_for "> "; keys t
	keys Escape
	keys A
	expect_screen "$name: the bulk dialog names the skipped one" "9f3b77c2$4"
	keys 1 Enter
	screen_until lacks "9f3b77c2$4 " || true
	sleep 0.3
	# 6: the legal draft's reasons.
	keys /; keys legal-2026-0042 Enter; wait_for "> "; keys Enter
	keys r
	expect_screen "$name: the legal draft's reasons" "1 Blocking issue not fixed"
	keys Escape
	keys q
	# 7: the history, a record.
	keys Escape
	keys h
	keys Enter
	expect_screen "$name: the history opens a record" "$7 "
	keys q q q
}

# English.
fresh en
launch "LANG=$UTF8 LANGUAGE=en" "pending"
expect_screen "en: the three legal drafts read whole" "legal-2026-0053"
tour en "sector Tobacco is excluded by IPS" "cannot be approved: local rules fail" "…" \
	"1 of $PENDING shown" "EXPIRED" "bulk"
tui_stop
recorded_steps en

# The README's step 7: the demo's one action under an approval quorum.
launch "LANG=$UTF8 LANGUAGE=en" "pending"
keys /; keys c5e1 Enter; wait_for "> "; keys Enter
expect_screen "en: c5e1a7d2 is under the demo's quorum" "APPROVALS    2 officers must approve this"
keys a; wait_for "Approve c5e1a7d2"; keys h d 1; wait_for "[x] I have reviewed the divergence"; keys Enter
expect_screen "en: approving it waits for one more" "waiting for 1 more"
expect_screen "en: the queue shows 1/2" "1/2 BUY BND"
keys Enter
expect_screen "en: approve is unavailable to the same officer" "a approve (unavailable: you approved it)"
keys q q
tui_stop
expect_eq "en: an approval event, no decision" \
	"$(cs audit export | jq -r 'select(.record.action_id == "c5e1a7d2-band-2002") | .record.event')" approval

# The README's step 6, its product owner's judgments: NB-436 was judged
# when the demo loaded; J on NB-412 judges without approving.
ME=$(id -un)
launch "LANG=$UTF8 LANGUAGE=en" "pending"
keys /; keys NB-436 Enter; wait_for "> "; keys Enter
expect_screen "en: NB-436 shows the demo's judgment and who made it" "AC-2 met, judged by $ME at "
keys q
keys /; keys C-u NB-412 Enter; wait_for "> "; keys Enter
expect_screen "en: NB-412 offers J" "J judge"
keys J; wait_for "Judge NB-412 (product owner)"; keys m Enter
expect_screen "en: J judged AC-3 and approved nothing" "judgment recorded (judgment"
keys q q
tui_stop
expect_eq "en: NB-412 judged, still pending" \
	"$(cs audit export | jq -r 'select(.record.action_id == "NB-412") | .record.event') $(cs list --json | jq -r 'select(.action_id == "NB-412") | .status')" \
	"po_judgment pending"

# German.
if [ $GERMAN = yes ]; then
	fresh de
	launch "LANGUAGE=de LANG=$UTF8 COUNTERSIGN_LOCALEDIR='$WORK/locale'" "$PENDING offen"
	expect_screen "de: the keys are German" "a genehmigen  r ablehnen"
	keys /; keys 9d2e Enter; wait_for "> "; keys Enter
	expect_screen "de: the rule table is German" "REGEL"
	expect_screen "de: a rule's own words are German on screen" \
		"Sektor Tobacco ist durch IPS"
	expect_screen "de: wrapped under its column" "↪  ips-7f3a v3 ausgeschlossen"
	keys G
	expect_screen "de: and a divergence's note" \
		"overall_pass: die Empfehlung lässt durch, was lokal scheitert"
	# The notes follow the divergence: the high stakes are a page up.
	keys PPage
	expect_screen "de: and a high-stakes reason" "Wert \$31,000.00 > \$25,000.00"
	keys q Escape
	tour de "Sektor Tobacco ist durch IPS" "kann nicht genehmigt werden: lokale Regeln verletzt" "…" \
		"1 von $PENDING angezeigt" "ABGELAUFEN" "Sammel"
	tui_stop
	recorded_steps de
else
	echo "skipped the German run: no gettext tools or no NLS"
fi

# The POSIX locale: the same tour in ASCII.
fresh posix
launch "LC_ALL=C LANG=C LANGUAGE=" "pending"
expect_screen "posix: separators are ASCII" "$PENDING pending | "
expect_screen "posix: a cut id ends in ..." "9d2e7b10-1c4..."
expect_eq "posix: no byte outside ASCII on the screen" \
	"$(screen | LC_ALL=C tr -d '\000-\177' | wc -c)" 0
# The BND trade's dialog (a failing trade opens none: issue 37).
keys /; keys 0b6c Enter; wait_for "> "; keys a
expect_screen "posix: a dialog's box is ASCII" "+- Approve 0b6c1d52"
expect_screen "posix: its sides too" "| Enter confirm | Esc cancel"
keys Escape
tm resize-window -t 0 -x 60 -y 15
keys a
expect_screen "posix: at 60x15, more below, in ASCII" "v more below (PgDn)"
keys Escape Escape
tm resize-window -t 0 -x 80 -y 24
wait_for "$PENDING pending"
tour posix "sector Tobacco is excluded by IPS" "cannot be approved: local rules fail" "..." \
	"1 of $PENDING shown" "EXPIRED" "bulk"
tui_stop
recorded_steps posix
finish
