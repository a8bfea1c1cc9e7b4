#!/usr/bin/env bash
# Installs Node.js and npm from Debian's packages when either is missing
# (the WASM tests run under Node; npm installs the editor's, the e2e
# tests' and the Worker's packages). Needs root and apt-get; otherwise
# says what to do.
set -euo pipefail
if command -v node >/dev/null && command -v npm >/dev/null; then exit 0; fi
if command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
	pkgs=()
	command -v node >/dev/null || pkgs+=(nodejs)
	command -v npm >/dev/null || pkgs+=(npm)
	echo "+ apt-get install ${pkgs[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}"
	exit 0
fi
echo "make: node or npm is not on PATH and cannot be installed here; the tests need Node 20 and npm (apt-get install nodejs npm)" >&2
exit 1
