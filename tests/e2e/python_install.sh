#!/bin/sh
# Issue 31 (SPEC 12): make install puts countersign_client.py where the
# configured Python imports it.  A make install into a DESTDIR, imported
# by that Python from the DESTDIR's copy of $(pythondir); pythondir on
# the Python's own path when the prefix has a site directory; and for
# Debian's /usr/bin/python3, the directories configure would choose for
# --prefix=/usr and /usr/local (scripts/python-sitedir.py) are ones it
# imports from, not automake's site-packages, which it never searches.
. "$TOP_SRCDIR/tests/e2e/lib.sh"

[ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] ||
	{ echo "configure found no Python 3.9 or later"; exit 77; }
: "${CS_BUILDDIR:?run through make check}" "${CS_PYTHONDIR:?run through make check}"
SITEDIR_PY=$TOP_SRCDIR/scripts/python-sitedir.py

### make install DESTDIR=...: the module, importable from there.
progress "make install into a DESTDIR"
DEST=$WORK/dest
# A make of its own: not the jobs of the make check that runs this test.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$CS_BUILDDIR" \
    install DESTDIR="$DEST" >"$WORK/install.log" 2>&1; then
	pass "make install DESTDIR="
else
	fail "make install DESTDIR="; tail -5 "$WORK/install.log"
fi
expect_eq "the module is in DESTDIR's pythondir" \
	"$(cmp "$DEST$CS_PYTHONDIR/countersign_client.py" "$TOP_SRCDIR/python/countersign_client.py" && echo same)" same
PYTHONPATH=$DEST$CS_PYTHONDIR "$PYTHON" -s -c 'import os
import countersign_client as cc
print(os.path.dirname(os.path.abspath(cc.__file__)))
print(" ".join(n for n in ("Client", "Error") if hasattr(cc, n)))
print(" ".join(m for m in ("submit", "status", "wait", "events", "receipt",
                           "checkpoint") if callable(getattr(cc.Client, m, None))))
' >"$WORK/import.out" 2>&1 || true
expect_eq "$PYTHON imports it from DESTDIR's pythondir" \
	"$(sed -n 1p "$WORK/import.out")" "$DEST$CS_PYTHONDIR"
expect_eq "... Client and Error" "$(sed -n 2p "$WORK/import.out")" "Client Error"
expect_eq "... and the methods of SPEC 12" "$(sed -n 3p "$WORK/import.out")" \
	"submit status wait events receipt checkpoint"

### The installed place is on the Python's own path, when there is one.
progress "pythondir on the configured Python's path"
on_path() { # PYTHON DIR: yes when PYTHON, without PYTHONPATH, searches DIR
	"$1" -E -s -c 'import os, sys
print("yes" if os.path.normpath(sys.argv[1]) in
      [os.path.normpath(p) for p in sys.path if p] else "no")' "$2"
}
CS_PREFIX=$(sed -n 's/^prefix = //p' "$CS_BUILDDIR/Makefile")
if [ -n "$("$PYTHON" -E -s "$SITEDIR_PY" "$CS_PREFIX" /nowhere)" ]; then
	expect_eq "$CS_PYTHONDIR is on $PYTHON's path" "$(on_path "$PYTHON" "$CS_PYTHONDIR")" yes
else
	echo "skip: $PYTHON has no site directory under the prefix $CS_PREFIX (PYTHONPATH)"
fi

### Debian's python3: what configure would choose for its prefixes.
progress "Debian's /usr/bin/python3 and --prefix=/usr or /usr/local"
if [ -x /usr/bin/python3 ] && [ "$(on_path /usr/bin/python3 /usr/lib/python3/dist-packages)" = yes ]; then
	version=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
	for prefix in /usr /usr/local; do
		# automake's answer, which Debian's python3 does not search.
		chosen=$(/usr/bin/python3 -E -s "$SITEDIR_PY" "$prefix" \
			"$prefix/lib/python$version/site-packages")
		expect_eq "--prefix=$prefix: $chosen is on /usr/bin/python3's path" \
			"$(on_path /usr/bin/python3 "${chosen:-/nowhere}")" yes
	done
	expect_eq "--prefix=/usr: Debian's dist-packages" \
		"$(/usr/bin/python3 -E -s "$SITEDIR_PY" /usr "/usr/lib/python$version/site-packages")" \
		/usr/lib/python3/dist-packages
	expect_eq "a prefix of one's own: nothing, PYTHONPATH it is" \
		"$(/usr/bin/python3 -E -s "$SITEDIR_PY" "$WORK/opt" "$WORK/opt/lib/python$version/site-packages")" ""
else
	echo "skip: no Debian /usr/bin/python3"
fi

finish
