#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang and runs each for
# SECONDS (default 60) on a copy of its seed corpus.
#
#   bash tests/fuzz/run.sh [SECONDS]
#
# Runs from any directory; needs neither ./configure nor make.  Everything it
# writes (objects, binaries, the working corpora, crash reproducers, logs)
# goes to a scratch directory outside the source tree, removed afterwards
# unless something failed or FUZZ_KEEP=1.
#
# Environment:
#   FUZZ_TARGETS="check sanitize"  run only these targets (default: all)
#   FUZZ_WORK=DIR                  scratch directory to use (kept afterwards)
#   FUZZ_KEEP=1                    keep the scratch directory
#   FUZZ_TIMEOUT=SECONDS           one input slower than this is a failure (25)
#   FUZZ_JOBS=N                    targets run at once (default: one per core)
#   CC=clang-14                    the compiler (default: clang)
#
# Exit status: 0 every target built and ran clean; 1 a target crashed,
# leaked, broke an invariant, timed out or ran out of memory, or the
# toolchain is missing (the message names the Debian package); 2 usage.

set -u

usage() {
	echo "usage: $0 [SECONDS]" >&2
	exit 2
}

[ $# -le 1 ] || usage
seconds=${1:-60}
case $seconds in
'' | *[!0-9]*) usage ;;
esac
[ "$seconds" -ge 1 ] || usage
timeout=${FUZZ_TIMEOUT:-25}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P) || exit 1
top=$(cd "$here/../.." && pwd -P) || exit 1
if [ ! -f "$top/include/object.h" ] || [ ! -d "$top/src" ]; then
	echo "run.sh: $top does not look like the countersign tree" >&2
	exit 1
fi

all_targets="object_load json_strict json_extract batch_line check sanitize receipt"
targets=${FUZZ_TARGETS:-$all_targets}
for t in $targets; do
	[ -f "$here/fuzz_$t.c" ] || {
		echo "run.sh: no target $t (tests/fuzz/fuzz_$t.c)" >&2
		exit 2
	}
done

CC=${CC:-clang}
fail_toolchain() {
	echo "run.sh: $*" >&2
	exit 1
}

# ---- toolchain ----------------------------------------------------------

command -v "$CC" >/dev/null 2>&1 ||
	fail_toolchain "$CC not found: install the Debian package clang" \
	    "(apt-get install clang; on Debian 12 that is clang-14)"
clang_major=$("$CC" -dumpversion 2>/dev/null | cut -d. -f1)
case $clang_major in
'' | *[!0-9]*) clang_major=14 ;;
esac

# ---- scratch directory (never inside the source tree) -----------------

if [ -n "${FUZZ_WORK:-}" ]; then
	mkdir -p "$FUZZ_WORK" || exit 1
	work=$(cd "$FUZZ_WORK" && pwd -P) || exit 1
	keep=1
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/countersign-fuzz.XXXXXX") || exit 1
	keep=${FUZZ_KEEP:-0}
fi
case $work/ in
"$top"/*)
	echo "run.sh: the scratch directory $work is inside the source tree" >&2
	exit 2
	;;
esac
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	if [ "$keep" = 1 ]; then
		echo "scratch directory kept: $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$work/obj" "$work/bin" "$work/include" "$work/corpus" \
    "$work/artifacts" "$work/logs" || exit 1

# libFuzzer and the sanitizer runtimes: clang links them from compiler-rt,
# which Debian ships apart from the compiler.
cat >"$work/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
EOF
if ! "$CC" -fsanitize=fuzzer,address,undefined "$work/probe.c" \
    -o "$work/probe" >"$work/logs/probe.log" 2>&1; then
	cat "$work/logs/probe.log" >&2
	arch=$(uname -m)
	fuzzer_lib="$("$CC" -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-$arch.a"
	pkg=libclang-rt-$clang_major-dev
	owner=$(dpkg -S "libclang_rt.fuzzer-$arch.a" 2>/dev/null | cut -d: -f1 |
	    sort -u | tr '\n' ' ')
	echo "run.sh: $CC cannot link -fsanitize=fuzzer,address,undefined:" \
	    "libFuzzer and the sanitizer runtimes (compiler-rt) are missing" >&2
	echo "run.sh: install the Debian package $pkg" \
	    "(apt-get install $pkg), which provides $fuzzer_lib" >&2
	if [ -n "$owner" ]; then
		echo "run.sh: installed packages that hold a libFuzzer:" \
		    "$owner(does CC=$CC match their clang version?)" >&2
	fi
	exit 1
fi

# The libraries the project links, each with the package that has its header.
missing=""
for pair in cjson/cJSON.h:libcjson-dev sqlite3.h:libsqlite3-dev \
    uuid/uuid.h:uuid-dev openssl/evp.h:libssl-dev curses.h:libncurses-dev \
    unicode/uspoof.h:libicu-dev libpq-fe.h:libpq-dev; do
	header=${pair%%:*}
	printf '#include <%s>\n' "$header" >"$work/probe_h.c"
	# shellcheck disable=SC2046  # libpq's header is in a directory of its own
	"$CC" -E $(pkg-config --cflags-only-I libpq 2>/dev/null) \
	    "$work/probe_h.c" -o /dev/null >/dev/null 2>&1 ||
		missing="$missing ${pair#*:}"
done
[ -z "$missing" ] ||
	fail_toolchain "headers missing: install the Debian packages$missing" \
	    "(apt-get install$missing)"

# ---- config.h -------------------------------------------------------------

includes=()
if [ -f "$top/config.h" ]; then
	config="$top/config.h (from ./configure)"
else
	cat >"$work/include/config.h" <<'EOF'
/* Minimal config.h for the fuzz build (tests/fuzz/run.sh): no ./configure. */
#define PACKAGE "countersign"
#define PACKAGE_VERSION "0.1.0"
#define ENABLE_NLS 0
#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif
EOF
	includes+=("-I$work/include")
	config="minimal, written to $work/include/config.h"
fi
includes+=("-I$top/include" "-I$top")

# ---- flags ----------------------------------------------------------------

pc_cflags=""
pc_libs=""
if command -v pkg-config >/dev/null 2>&1 &&
    pkg-config --exists libcjson sqlite3 uuid libcrypto ncursesw icu-uc icu-i18n libpq 2>/dev/null; then
	pc_cflags=$(pkg-config --cflags libcjson sqlite3 uuid libcrypto ncursesw icu-uc icu-i18n libpq)
	pc_libs=$(pkg-config --libs libcjson sqlite3 uuid libcrypto ncursesw icu-uc icu-i18n libpq)
fi
[ -n "$pc_cflags" ] || pc_cflags="-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600 -I/usr/include/postgresql"
[ -n "$pc_libs" ] || pc_libs="-lcjson -lsqlite3 -luuid -lcrypto -lncursesw -licui18n -licuuc -licudata -lpq"
# shellcheck disable=SC2206
pc_cflags_a=($pc_cflags)
# shellcheck disable=SC2206
pc_libs_a=($pc_libs -lm)

common=(-std=c11 -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all
    "${includes[@]}" "${pc_cflags_a[@]}")
# The project's code is instrumented for coverage without libFuzzer's main().
lib_flags=("-fsanitize=fuzzer-no-link,address,undefined" "${common[@]}")
target_flags=("-fsanitize=fuzzer,address,undefined" "${common[@]}")

# ---- build ----------------------------------------------------------------

echo "countersign fuzzing: $CC $("$CC" -dumpversion), ${seconds}s per target"
echo "  tree:    $top"
echo "  config:  $config"
echo "  scratch: $work"

sources=()
while IFS= read -r src; do
	sources+=("$src")
done < <(cd "$top" && find src -name '*.c' ! -path src/main.c |
    LC_ALL=C sort)
[ ${#sources[@]} -gt 0 ] || fail_toolchain "no sources under $top/src"

jobs=$(nproc 2>/dev/null || echo 2)
objects=()
pids=()
build_failed=0
for src in "${sources[@]}"; do
	obj="$work/obj/$(echo "${src%.c}" | tr '/' '_').o"
	objects+=("$obj")
	"$CC" "${lib_flags[@]}" -c "$top/$src" -o "$obj" \
	    >"$obj.log" 2>&1 &
	pids+=($!)
	if [ ${#pids[@]} -ge "$jobs" ]; then
		wait "${pids[0]}" || build_failed=1
		pids=("${pids[@]:1}")
	fi
done
for pid in "${pids[@]}"; do
	wait "$pid" || build_failed=1
done
for obj in "${objects[@]}"; do
	if [ -s "$obj.log" ]; then
		cat "$obj.log" >&2
	fi
done
[ "$build_failed" = 0 ] || {
	echo "run.sh: the project's sources did not compile (see above)" >&2
	keep=1
	exit 1
}

for t in $targets; do
	if ! "$CC" "${target_flags[@]}" "$here/fuzz_$t.c" "${objects[@]}" \
	    "${pc_libs_a[@]}" -o "$work/bin/fuzz_$t" \
	    >"$work/logs/build_$t.log" 2>&1; then
		cat "$work/logs/build_$t.log" >&2
		echo "run.sh: fuzz_$t did not build" >&2
		keep=1
		exit 1
	fi
	[ -s "$work/logs/build_$t.log" ] && cat "$work/logs/build_$t.log" >&2
done
echo "built: $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)"

# ---- run ------------------------------------------------------------------

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# run_target T: one target's run, its exit status left in a file, so that
# targets run side by side (FUZZ_JOBS at a time, default one per core) and
# are reported in order afterwards.
run_target() {
	local t=$1 corpus="$work/corpus/$1" artifacts="$work/artifacts/$1/"
	mkdir -p "$corpus" "$artifacts"
	# A copy: libFuzzer adds what it finds to its first corpus directory.
	if [ -d "$here/corpus/$t" ]; then
		cp -R "$here/corpus/$t/." "$corpus/"
	fi
	(cd "$work" && "$work/bin/fuzz_$t" \
	    -max_total_time="$seconds" -dict="$here/json.dict" \
	    -max_len=65536 -timeout="$timeout" -print_final_stats=1 \
	    -artifact_prefix="$artifacts" "$corpus" >"$work/logs/run_$t.log" 2>&1)
	echo $? >"$work/logs/run_$t.rc"
}

run_jobs=${FUZZ_JOBS:-$jobs}
pids=()
for t in $targets; do
	run_target "$t" &
	pids+=($!)
	if [ ${#pids[@]} -ge "$run_jobs" ]; then
		wait "${pids[0]}"
		pids=("${pids[@]:1}")
	fi
done
for pid in "${pids[@]}"; do
	wait "$pid"
done

total=0
failed=0
failures=""
printf '%-22s %14s  %s\n' target executions result
for t in $targets; do
	artifacts="$work/artifacts/$t/"
	log="$work/logs/run_$t.log"
	rc=$(cat "$work/logs/run_$t.rc" 2>/dev/null || echo 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9][0-9]*\).*/\1/p' \
	    "$log" | tail -n 1)
	execs=${execs:-0}
	total=$((total + execs))
	result=ok
	if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
		failed=$((failed + 1))
		if grep -q 'INVARIANT BROKEN' "$log"; then
			result="invariant broken"
		elif grep -q 'ERROR: LeakSanitizer' "$log"; then
			result="leak"
		elif grep -q 'ERROR: AddressSanitizer' "$log"; then
			result="crash (AddressSanitizer)"
		elif grep -q 'runtime error:' "$log"; then
			result="undefined behaviour (UBSan)"
		elif grep -q 'ALARM: libFuzzer: timeout' "$log"; then
			result="timeout (one input over ${timeout}s)"
		elif grep -q 'out-of-memory' "$log"; then
			result="out of memory"
		elif grep -q 'deadly signal' "$log"; then
			result="crash (signal)"
		else
			result="failed (exit $rc)"
		fi
		failures="$failures $t"
	fi
	printf '%-22s %14s  %s\n' "fuzz_$t" "$execs" "$result"
done
printf '%-22s %14s  %s\n' total "$total" \
    "$(echo "$targets" | wc -w) targets, $failed failed"

if [ "$failed" -gt 0 ]; then
	keep=1
	for t in $failures; do
		echo
		echo "== fuzz_$t: $work/logs/run_$t.log"
		grep -E -A 30 'INVARIANT BROKEN|ERROR: (Address|Leak)Sanitizer|runtime error:|ALARM: libFuzzer|out-of-memory|deadly signal' \
		    "$work/logs/run_$t.log" | head -n 60
		for a in "$work/artifacts/$t"/*; do
			[ -e "$a" ] || continue
			echo "reproducer: $a"
			echo "  replay:   $work/bin/fuzz_$t $a"
			echo "  bytes:    $(od -An -tx1 -v "$a" | tr -d '\n' |
			    sed 's/^ //' | cut -c1-600)"
		done
	done
	exit 1
fi
exit 0
