#!/bin/sh
# The signed log (issue 32, SPEC 13), in one run:
# - receipt: of records picked at random in a 1,000,000-record log, in
#   one warm process (receipt_time.c), median; target <= 10 ms; and
#   `countersign receipt`, the program's start included, median of R;
# - audit verify of that log, tree and checkpoints included, beside
#   sha256sum over the bytes the chain hashes; target <= 2.5x;
# - a durable batch and a --atomic batch of M decisions through a service
#   that signs, beside the same without a key; target within 10%.
#
#   bench/signed_log.sh [R] [M]   (default 31 and 2000; needs a built
#                                  ./countersign, cc, jq, socat)
#   bench/signed_log.sh --instructions [M]
#                                  the batches alone, once each, counted
#                                  by callgrind (the service and its
#                                  request's child): on a loaded machine
#                                  the ratios that wall time blurs
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
MODE=time WRAP=
if [ "${1:-}" = --instructions ]; then
	MODE=instructions
	shift
	set -- 1 "${1:-2000}"
fi
R=${1:-31} M=${2:-2000}
CS=${COUNTERSIGN:-$top/countersign}
EX=$top/tests/data/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-bench.XXXXXX")
SERVICE_PID=
cleanup() {
	[ -z "$SERVICE_PID" ] || kill "$SERVICE_PID" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
sock=$work/sock
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.5f\n", b - a }'; }
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.5f\n", v[int((NR + 1) / 2)] }'; }
serve() {
	rm -f "$sock"
	$WRAP "$CS" serve --socket "$sock" --officers "$(id -gn)" --importers "$(id -gn)" \
		"$@" 2>>"$work/serve.log" &
	SERVICE_PID=$!
	until socat -u OPEN:/dev/null "UNIX-CONNECT:$sock" 2>/dev/null; do sleep 0.05; done
}
stop() { kill "$SERVICE_PID"; wait "$SERVICE_PID" || true; SERVICE_PID=; }

cc -O2 -o "$work/make_chain" "$here/make_chain.c" -lsqlite3 -lcrypto
# The receipt inside one warm process, linked as the program is.
libs=$(sed -n -e 's/^\(CJSON\|SQLITE\|UUID\|CRYPTO\|NCURSESW\|ICU\|LIBPQ\)_LIBS = //p' "$top/Makefile" | tr '\n' ' ')
# shellcheck disable=SC2086
cc -O2 -I"$top/include" -I"$top" -o "$work/receipt_time" "$here/receipt_time.c" \
	"$top/libcountersign.a" $libs -lm
"$CS" keygen bench.example/log "$work/log" >/dev/null

# --- receipt and audit verify over 1,000,000 records -------------------------
if [ $MODE = time ]; then
"$CS" --db "$work/v.db" import "$EX/security_map.json" >/dev/null 2>&1
"$work/make_chain" "$work/v.db" 999995 "$work/chain-bytes"
jq -c '.proposed_action.action_id = "r-0" | .reviewer_verdict.action_id = "r-0"' \
	"$EX/packet-trade-pass.json" >"$work/r.jsonl"
serve --db "$work/v.db" --signing-key "$work/log.key"
t0=$(now)
# The first append builds the tree of the log kept before (once).
"$CS" --connect "$sock" import "$EX/ips.json" "$EX/holdings.json" "$work/r.jsonl" >/dev/null
t1=$(now)
printf '%s\n' '{"action_id":"r-0","decision":"approve"}' | "$CS" --connect "$sock" batch >/dev/null
stop
records=$(sqlite3 "$work/v.db" "SELECT max(seq) FROM audit_log")
echo "log of $records records; its tree built at the first append in $(elapsed "$t0" "$t1") s"
"$CS" --db "$work/v.db" receipt r-0 >/dev/null	# warm
: >"$work/rt"
i=0
while [ $i -lt "$R" ]; do
	a=$(now); "$CS" --db "$work/v.db" receipt r-0 >/dev/null; b=$(now)
	elapsed "$a" "$b" >>"$work/rt"; i=$((i + 1))
done
echo "countersign receipt (the program, start included) of record $records: median $(median "$work/rt") s over $R runs"
"$work/receipt_time" "$work/v.db" 1000
/usr/bin/time -f "the program's start alone (--version): %e s" "$CS" --version >/dev/null
"$CS" --db "$work/v.db" receipt r-0 | "$CS" verify-receipt /dev/stdin --key "$work/log.pub" >/dev/null 2>&1 ||
	"$CS" --db "$work/v.db" receipt r-0 -o "$work/r.receipt"
: >"$work/va"; : >"$work/vb"
for i in 1 2 3; do
	sync
	a=$(now); "$CS" --db "$work/v.db" audit verify --key "$work/log.pub" >/dev/null; b=$(now)
	elapsed "$a" "$b" >>"$work/va"
	sync
	a=$(now); sha256sum "$work/chain-bytes" >/dev/null; b=$(now)
	elapsed "$a" "$b" >>"$work/vb"
done
va=$(median "$work/va") vb=$(median "$work/vb")
echo "audit verify (tree included): median $va s; sha256sum floor $vb s; ratio $(awk -v a="$va" -v b="$vb" 'BEGIN { printf "%.2f", a / b }') (target <= 2.5)"

fi

# --- batches through a service, signing or not -------------------------------
jq -c --argjson n "$M" 'range(0; $n) as $i | .proposed_action.action_id = "b-\($i)"
	| .reviewer_verdict.action_id = "b-\($i)"' "$EX/packet-trade-pass.json" >"$work/b.jsonl"
jq -nc --argjson n "$M" 'range(0; $n) | {action_id: "b-\(.)", decision: "approve"}' >"$work/d"
batch_time() { # KIND [serve options]: seconds of one batch of M decisions
	kind=$1; shift
	rm -f "$work/b.db" "$work/b.db-wal" "$work/b.db-shm"
	"$CS" --db "$work/b.db" import "$EX/security_map.json" "$EX/ips.json" \
		"$EX/holdings.json" "$work/b.jsonl" >/dev/null 2>&1
	rm -f "$work"/cg.*
	[ $MODE = time ] || WRAP="valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=$work/cg.%p"
	serve --db "$work/b.db" "$@"
	WRAP=
	sync
	a=$(now)
	if [ "$kind" = atomic ]; then
		"$CS" --connect "$sock" batch --atomic "$work/d" >/dev/null
	else
		"$CS" --connect "$sock" batch "$work/d" >/dev/null
	fi
	b=$(now)
	stop
	if [ $MODE = time ]; then
		elapsed "$a" "$b"
	else
		# every process of the service: its start, the batch's child
		# (each file says its total twice: summary and totals)
		cat "$work"/cg.* | awk '/^summary:/ { n += $2 } END { printf "%.0f\n", n }'
	fi
}
if [ $MODE = time ]; then runs="1 2 3" unit=s; else runs=1 unit=instructions; fi
for kind in durable atomic; do
	: >"$work/s"; : >"$work/u"
	for i in $runs; do
		batch_time "$kind" --signing-key "$work/log.key" >>"$work/s"
		signed=$(sqlite3 "$work/b.db" 'SELECT count(*) FROM log_checkpoint')
		batch_time "$kind" >>"$work/u"
	done
	s=$(median "$work/s") u=$(median "$work/u")
	[ $MODE = time ] || { s=$(cat "$work/s"); u=$(cat "$work/u"); }
	echo "batch $kind, $M decisions through the service: signed $s $unit, unsigned $u $unit; ratio $(awk -v a="$s" -v b="$u" 'BEGIN { printf "%.3f", a / b }') (target <= 1.10)"
	echo "    checkpoints signed by the signing run: $signed (one a commit); by the other: $(sqlite3 "$work/b.db" 'SELECT count(*) FROM log_checkpoint')"
done
