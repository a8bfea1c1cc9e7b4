#!/usr/bin/env bash
# Finds a Chromium for the end-to-end tests (make test-e2e): $CHROMIUM when
# set, else /usr/bin/chromium, else it installs Debian's chromium package
# with apt-get (as root only). On success it prints the browser's path on
# stdout (its only output there; messages go to stderr). When there is no
# browser it says why on stderr and exits 0 with nothing on stdout, so the
# tests skip, unless REQUIRE_BROWSER=1 (CI), when it exits 1.
set -euo pipefail

require=${REQUIRE_BROWSER:-0}

missing() {
	echo "install-browser: $*" >&2
	if [[ $require == 1 ]]; then
		echo "install-browser: REQUIRE_BROWSER=1, so this is an error" >&2
		exit 1
	fi
	echo "install-browser: the browser tests will be skipped (REQUIRE_BROWSER=1 makes this an error)" >&2
	exit 0
}

usable() { [[ -f $1 && -x $1 ]]; }

found() {
	echo "install-browser: using $1" >&2
	echo "$1"
	exit 0
}

# An explicit choice is not second-guessed: no fallback, no install.
if [[ -n ${CHROMIUM:-} ]]; then
	usable "$CHROMIUM" || missing "CHROMIUM=$CHROMIUM is not an executable file"
	found "$CHROMIUM"
fi

browser=/usr/bin/chromium
usable "$browser" && found "$browser"

hint="install Chromium or set CHROMIUM=/path/to/chromium"
command -v apt-get >/dev/null || missing "$browser not found and apt-get is not available; $hint"
[[ $(id -u) == 0 ]] || missing "$browser not found and installing it needs root (sudo apt-get install chromium); or $hint"

echo "+ apt-get install chromium" >&2
apt-get update -qq >&2 || missing "apt-get update failed; $hint"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 ||
	missing "apt-get install chromium failed (run it by hand to see why); $hint"
usable "$browser" || missing "apt-get installed chromium but $browser is not there; $hint"
found "$browser"
