"""Where under PREFIX this Python imports modules from (issue 31).

Usage: python3 -E -s scripts/python-sitedir.py PREFIX AUTOMAKE_DIR

configure runs it after AM_PATH_PYTHON.  automake takes the purelib path
of the posix_prefix scheme (PREFIX/lib/pythonX.Y/site-packages), which
Debian's python3 never searches: its packages live in
/usr/lib/python3/dist-packages and /usr/local/lib/pythonX.Y/dist-packages.
Prints AUTOMAKE_DIR when this Python searches it, else the first
site-packages or dist-packages directory on sys.path under PREFIX/lib,
else nothing (a prefix of one's own: PYTHONPATH must name it).
"""

import os
import sys


def main():
    prefix = os.path.normpath(sys.argv[1])
    automake_dir = os.path.normpath(sys.argv[2])
    searched = [os.path.normpath(p) for p in sys.path if p]
    if automake_dir in searched:
        print(automake_dir)
        return
    for path in searched:
        # PREFIX/lib..., so that /usr never takes /usr/local's.
        under = os.path.relpath(path, prefix).split(os.sep)
        if (under[0].startswith("lib") and
                under[-1] in ("site-packages", "dist-packages")):
            print(path)
            return


main()
