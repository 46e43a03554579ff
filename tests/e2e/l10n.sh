#!/bin/sh
# Translations: with LANGUAGE=de and a UTF-8 locale, the help, the error
# messages, the list and the review screens speak German, while everything
# scripts read (JSON, batch results, refusal codes, the CSV export, the
# audit records) stays exactly as it is in English.
#
# The German catalogue is compiled from po/de.po into $WORK/locale, and
# countersign is pointed at it with COUNTERSIGN_LOCALEDIR, so no
# installation is needed.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/tui_lib.sh"

command -v msgfmt >/dev/null 2>&1 || { echo "msgfmt is needed (gettext)"; exit 77; }
# A program built without NLS (--disable-nls) has nothing to translate.
if ! grep -q bindtextdomain "$COUNTERSIGN"; then
	echo "countersign was built without translations"
	exit 77
fi
# gettext translates only under a locale other than C or POSIX; any UTF-8
# one will do, since LANGUAGE picks the language.
UTF8=$(locale -a 2>/dev/null |
    grep -i -m 1 -E '^(C\.utf-?8|en_US\.utf-?8|de_DE\.utf-?8)$' || true)
[ -n "$UTF8" ] || { echo "no UTF-8 locale (locale -a)"; exit 77; }

mkdir -p "$WORK/locale/de/LC_MESSAGES"
expect_status "de.po compiles" 0 \
    msgfmt --check -o "$WORK/locale/de/LC_MESSAGES/countersign.mo" \
    "$TOP_SRCDIR/po/de.po"
[ -s "$WORK/locale/de/LC_MESSAGES/countersign.mo" ] || { finish; exit 1; }

# Every file that marks a string for translation is in po/POTFILES.in
# (a split file once left its dialog's strings out of the catalogue), and
# de.po translates every string xgettext finds in them.
missing=
for f in $(cd "$TOP_SRCDIR" && grep -rl '_("' src --include='*.c'); do
	grep -qx "$f" "$TOP_SRCDIR/po/POTFILES.in" || missing="$missing $f"
done
if [ -z "$missing" ]; then pass "po/POTFILES.in names every translated file"
else fail "po/POTFILES.in lacks:$missing"; fi
if command -v xgettext >/dev/null 2>&1 && command -v msgcmp >/dev/null 2>&1; then
	keywords=$(sed -n 's/^XGETTEXT_OPTIONS = //p' "$TOP_SRCDIR/po/Makevars")
	# shellcheck disable=SC2086
	(cd "$TOP_SRCDIR" && grep -v '^#' po/POTFILES.in |
	    xargs xgettext $keywords -o "$WORK/countersign.pot") ||
	    fail "xgettext over po/POTFILES.in"
	expect_status "de.po translates every string" 0 \
	    msgcmp "$TOP_SRCDIR/po/de.po" "$WORK/countersign.pot"
fi

# Any LC_* left over (LC_CTYPE=C would turn every umlaut into "?").
for variable in $(env | sed -n 's/^\(LC_[A-Z_]*\)=.*/\1/p'); do
	unset "$variable"
done
export LANGUAGE=de LANG="$UTF8" COUNTERSIGN_LOCALEDIR="$WORK/locale"

# english COMMAND...: the same command in the C locale.
english() { env -u LANGUAGE -u COUNTERSIGN_LOCALEDIR LANG=C LC_ALL=C "$@"; }

# --help.
expect_status "--help" 0 "$COUNTERSIGN" --help
if ! grep -q "Befehle:" "$WORK/out"; then
	fail "countersign does not find the catalogue in \$COUNTERSIGN_LOCALEDIR"
	echo "    (main.c must bind its text domain to \$COUNTERSIGN_LOCALEDIR"
	echo "    when it is set, and to LOCALEDIR otherwise)"
	finish		# nothing after this could be German either
fi
expect_contains "the help is German" "$WORK/out" \
    "Aufruf: countersign [--db PATH] COMMAND [ARGS]"
expect_contains "command summaries are German" "$WORK/out" \
    "die Warteschlange als Tabelle oder als JSON-Zeilen"
expect_contains "options are German" "$WORK/out" \
    "--atomic        batch: alle Zeilen erfassen oder keine"
expect_contains "an umlaut comes through" "$WORK/out" "Prüfansicht"
expect_contains "command words stay" "$WORK/out" "  audit verify [--checkpoint SEQ:HASH]"
english "$COUNTERSIGN" --help >"$WORK/help-en"
expect_contains "without LANGUAGE it is English" "$WORK/help-en" \
    "the queue as a table, or JSON lines"

# Errors.
expect_status "import without paths" 2 cs import
expect_contains "a usage error is German" "$WORK/err" \
    "countersign: import braucht mindestens eine Datei oder ein Verzeichnis"
expect_status "an unknown command" 2 "$COUNTERSIGN" frobnicate
expect_contains "says so in German" "$WORK/err" "countersign: unbekannter Befehl 'frobnicate'"
expect_contains "and where to look" "$WORK/err" "Mehr dazu: 'countersign --help'."
expect_status "no terminal" 2 cs
expect_contains "the review screen's refusal is German" "$WORK/err" \
    "für Skripte gibt es 'countersign batch'"

# Import and list: the human text is German.
expect_status "import" 0 cs import "$EXAMPLES/security_map.json" \
    "$EXAMPLES/ips.json" "$EXAMPLES/holdings.json" \
    "$EXAMPLES/packet-trade-pass.json" "$EXAMPLES/packet-trade-divergent.json"
expect_contains "import counts in German" "$WORK/out" "1 importiert, 0 unverändert"
echo '{"type": "frob"}' >"$WORK/bad.json"
expect_status "a bad file" 3 cs import "$WORK/bad.json"
expect_contains "is refused in German" "$WORK/err" \
    "bad.json: aus dieser Datei wurde nichts importiert"
expect_status "list" 0 cs list
expect_contains "list headings are German" "$WORK/out" "ZUSAMMENFASSUNG"
expect_contains "divergences are German" "$WORK/out" \
    "excluded_sector: Empfehlung ja, lokal NEIN"

# What scripts read does not change with the language.
strip() { jq -c 'del(.local_verdict.verdict_id, .local_verdict.reviewed_at)'; }
set +e
cs check | strip >"$WORK/check-de"
english "$COUNTERSIGN" --db "$DB" check | strip >"$WORK/check-en"
set -e
expect_eq "check prints the same JSON" "$(cmp -s "$WORK/check-de" "$WORK/check-en" && echo same)" same
expect_eq "list --json is the same" "$(cs list --json)" \
    "$(english "$COUNTERSIGN" --db "$DB" list --json)"
echo '{"action_id": "9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22", "decision": "approve"}' |
    cs batch >"$WORK/refused" || true
expect_eq "a refusal keeps its code" "$(jq -r .code "$WORK/refused")" rules_failed
expect_contains "and its English message" "$WORK/refused" '"message":"local rules fail: '
echo '{"action_id": "x", "decision": "maybe"}' | cs batch >"$WORK/bad-request" || true
expect_eq "bad_request is not translated" "$(jq -r .code "$WORK/bad-request")" bad_request
echo '{"action_id": "0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11", "decision": "approve"}' |
    cs batch >"$WORK/recorded"
expect_eq "a recorded line" "$(jq -r .status "$WORK/recorded")" recorded
expect_status "audit export --csv" 0 cs audit export --csv
expect_eq "the CSV header is the contract's" "$(head -n 1 "$WORK/out" | cut -d, -f1-5)" \
    '"seq","decided_at","action_id","kind","decision"'
expect_eq "CSV verdicts stay pass and fail" "$(sed -n 2p "$WORK/out" | cut -d, -f9)" '"pass"'
expect_eq "audit records are English" \
    "$(cs audit export | jq -r 'select(.record.event == "decision") | .record.decision')" approve
expect_status "audit verify" 0 cs audit verify
expect_contains "says the log is intact in German" "$WORK/out" "Audit-Protokoll intakt:"
expect_status "audit replay" 0 cs audit replay 0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11
expect_contains "replay speaks German" "$WORK/out" "gleiche Eingaben, gleiches Ergebnis (bestanden)"

# Through the service (issue 37): a service in the C locale speaks each
# client's language, whatever command it runs for it.
if command -v socat >/dev/null 2>&1; then
	SOCK="$WORK/sock"
	env -u LANGUAGE LANG=C LC_ALL=C "$COUNTERSIGN" serve --db "$DB" \
	    --socket "$SOCK" --officers "$(id -gn)" --importers "$(id -gn)" \
	    2>"$WORK/serve.log" &
	SERVE_PID=$!
	wait_for_socket "$SOCK" "$WORK/serve.log"
	expect_status "audit verify through the service" 0 "$COUNTERSIGN" \
	    --connect "$SOCK" audit verify
	expect_contains "... is German, as the client's locale is" "$WORK/out" \
	    "Audit-Protokoll intakt:"
	expect_status "list --all through the service" 0 "$COUNTERSIGN" \
	    --connect "$SOCK" list --all
	expect_contains "... its headings German" "$WORK/out" "ZUSAMMENFASSUNG"
	english "$COUNTERSIGN" --connect "$SOCK" audit verify >"$WORK/en" 2>&1
	expect_contains "... and English to a client in the C locale" "$WORK/en" \
	    "audit log intact"
	kill -TERM "$SERVE_PID" 2>/dev/null || true
	wait "$SERVE_PID" 2>/dev/null || true
else
	echo "skip: the language through the service (socat is needed)"
fi

# The review screens.  tui_start waits for the English "pending", so the
# pane is started here, with the environment spelled out.
tui_start_de() {
	tui_launch "$1" "$2" \
	    "env -u LC_ALL -u LC_MESSAGES LANGUAGE=de LANG='$UTF8' COUNTERSIGN_LOCALEDIR='$WORK/locale' COUNTERSIGN_DATA_DIR='$TOP_SRCDIR/data' '$COUNTERSIGN' --db '$DB'"
}
# A second trade that passes, for the approve dialog (a failing one is
# refused at once, with no dialog: issue 37).
jq -c '.proposed_action.action_id = "l10n-pass-2" | .reviewer_verdict.action_id = "l10n-pass-2"' \
    "$EXAMPLES/packet-trade-pass.json" >"$WORK/pass-2.json"
cs import "$WORK/pass-2.json" >/dev/null 2>&1
tui_start_de 100 30
expect_screen "the queue's header is German" "2 offen"
expect_screen "the flag legend is German" "H Risiko  x Verstoß  ! Abweichung"
expect_screen "the keys are German" "a genehmigen  r ablehnen"
expect_screen "the column headings are German" "ZUSAMMENFASSUNG"
keys '?'
expect_screen "the help is German" "countersign: Tasten"
expect_screen "its sections are German" "Warteschlange"
expect_screen "key descriptions are German" "den gewählten Vorgang öffnen"
keys q
wait_for "2 offen"
keys Enter
expect_screen "the detail's rule table is German" "REGEL"
expect_screen "the verdict cells are German" "excluded_sector             ja       NEIN"
expect_screen "rule ids stay" "ips_version_current"
wait_for "a genehmigen (gesperrt"
keys a
expect_screen "a refusal said at once is German, rule ids kept" \
    "kann nicht genehmigt werden: lokale Regeln verletzt (excluded_sector"
keys q
wait_for "2 offen"
keys /; keys l10n-pass-2 Enter
wait_for "1 von 2 angezeigt"
keys a
expect_screen "the approve dialog is German" "l10n-pass-2 genehmigen"
expect_screen "its notes are German" "Hinweise (zur Beurteilung; von den Regeln nicht durchgesetzt)"
expect_screen "its reason line is German" "Begründung (freiwillig"
keys Escape
wait_for "1 von 2 angezeigt"
keys Escape
wait_for "2 offen"
keys q
expect_eq "quits with status 0" "$(tui_exit_status)" 0
tui_stop
finish
