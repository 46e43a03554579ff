#!/bin/sh
# Builds cJSON from a source tree (a release checkout of
# https://github.com/DaveGamble/cJSON, e.g. tag v1.7.19) into a private
# prefix, then configures, builds and runs `make check` on a clean copy of
# countersign (the committed HEAD) against it, with --enable-werror.
# When this tree also has a ./countersign built against the system's cJSON,
# decisions recorded by each build are replayed by the other: both must
# answer "same inputs, same verdict" (issue 27).
#
#   scripts/check-cjson-source.sh CJSON_SRC_DIR [WORK_DIR]
#
# WORK_DIR (default: a new directory under $TMPDIR) keeps the prefix, the
# build and its test logs.  Needs what scripts/install-deps.sh installs;
# cJSON itself is compiled with cc alone (no cmake).  Nothing of cJSON is
# copied into this repository.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 CJSON_SRC_DIR [WORK_DIR]" >&2; exit 2; }
src=$(cd "$1" && pwd)
[ -f "$src/cJSON.c" ] && [ -f "$src/cJSON.h" ] ||
	{ echo "$0: $src has no cJSON.c and cJSON.h" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/cs-cjson.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
prefix=$work/prefix

### cJSON, static, with the .pc file configure looks for.
version=$(awk '/#define CJSON_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v ? "." : "") $3 } END { print v }' "$src/cJSON.h")
echo "cJSON $version from $src"
mkdir -p "$prefix/include/cjson" "$prefix/lib/pkgconfig" "$work/cjson-build"
${CC:-cc} -std=c89 -O2 -fPIC -c "$src/cJSON.c" -o "$work/cjson-build/cJSON.o"
ar rcs "$prefix/lib/libcjson.a" "$work/cjson-build/cJSON.o"
cp "$src/cJSON.h" "$prefix/include/cjson/cJSON.h"
cat >"$prefix/lib/pkgconfig/libcjson.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libcjson
Description: cJSON $version built from $src
Version: $version
Libs: \${libdir}/libcjson.a -lm
Cflags: -I\${includedir} -I\${includedir}/cjson
PC

### countersign, a clean copy of HEAD, against it.
rm -rf "$work/countersign"
mkdir "$work/countersign"
git -C "$top" archive HEAD | tar -x -C "$work/countersign"
cd "$work/countersign"
autoreconf -fi >"$work/autoreconf.log" 2>&1
PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
	./configure --enable-werror >"$work/configure.log" 2>&1 ||
	{ tail -20 "$work/configure.log"; exit 1; }
found=$(sed -n 's/^  cJSON: *//p' "$work/configure.log")
[ "$found" = "$version" ] ||
	{ echo "$0: configure found cJSON '$found', not $version" >&2; exit 1; }
echo "configured against cJSON $found"
make -j2 >"$work/make.log" 2>&1 || { tail -30 "$work/make.log"; exit 1; }
# The program must not load the system's libcjson.so: it is linked static.
if ldd ./countersign | grep -q libcjson; then
	echo "$0: ./countersign still loads a shared libcjson" >&2; exit 1
fi
status=0
make -j2 check >"$work/check.log" 2>&1 || status=$?
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR)' "$work/check.log" || true
if [ "$status" -ne 0 ]; then
	grep -E '^(FAIL|ERROR):' "$work/check.log" || true
	echo "$0: make check failed against cJSON $version (logs in $work/countersign)" >&2
	exit 1
fi

### Each build's decisions replayed by the other.
other=$top/countersign
if [ -x "$other" ] && command -v sqlite3 >/dev/null && command -v jq >/dev/null; then
	mine=$work/countersign/countersign
	for pair in "$other $mine" "$mine $other"; do
		set -- $pair
		rm -f "$work/cross.sql" "$work/cross.db"
		"$work/countersign/tests/data/format1/make-db.sh" "$1" "$work/cross.sql"
		sqlite3 "$work/cross.db" <"$work/cross.sql"
		"$2" --db "$work/cross.db" audit verify >/dev/null
		for id in 0b6c1d52-5d8e-4a57-9a43-3f1f0f7c2a11 \
		    9d2e7b10-1c4f-4f0e-b7a2-6a5c3e8d4f22; do
			out=$("$2" --db "$work/cross.db" audit replay "$id") || {
				echo "$0: recorded by $1, replayed by $2: $out" >&2
				exit 1
			}
			echo "recorded by $1, replayed by $2: $out"
		done
	done
else
	echo "(no ./countersign built in $top: cross replay skipped)"
fi
echo "make check passed against cJSON $version"
