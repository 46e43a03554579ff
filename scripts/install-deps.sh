#!/bin/sh
# Installs what countersign needs to build and test on Debian 12.
# Runs apt-get as root (directly, or through sudo for other users).
set -eu

packages="build-essential autoconf automake autopoint gettext pkg-config
libncurses-dev libcjson-dev uuid-dev libsqlite3-dev libssl-dev libcmocka-dev
libicu-dev jq sqlite3 tmux strace socat libpq-dev postgresql
python3 xxd"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	as_root=""
else
	as_root="sudo"
fi
echo "installing:$missing" >&2
$as_root apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
