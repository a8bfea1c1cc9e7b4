#!/usr/bin/env bash
# Installs Node.js from Debian's packages when it is missing (the WASM
# tests run under Node). Needs root and apt-get; otherwise says what to do.
set -euo pipefail
if command -v node >/dev/null; then exit 0; fi
if command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
	echo "+ apt-get install nodejs"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs
	exit 0
fi
echo "make: node is not on PATH and cannot be installed here; the WASM tests need Node 20 (apt-get install nodejs)" >&2
exit 1
