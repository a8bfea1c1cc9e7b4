#!/usr/bin/env bash
# Runs every fuzz target in the module in turn, each for $FUZZTIME, and fails
# at the end if any of them failed. Used by `make fuzz`.
#
#   FUZZTIME          how long to fuzz each target (default 30s)
#   FUZZMINIMIZETIME  how long to minimise each new input (default 5s)
#   GO                the go command (default go)
set -euo pipefail

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-5s}
cd "$(dirname "$0")/.."

# `go test -list` prints each package's matching names, then a line
# "ok <package> <time>"; turn that into "<package> <name>" lines.
echo "+ $GO test -list '^Fuzz' ./..."
targets=$("$GO" test -list '^Fuzz' ./... | awk '
	/^Fuzz/ { names[n++] = $1; next }
	/^ok[ \t]/ { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }
')
if [[ -z $targets ]]; then
	echo "no fuzz targets found"
	exit 0
fi

failed=()
while read -r pkg name; do
	echo "+ $GO test -run '^\$' -fuzz '^$name\$' -fuzztime $FUZZTIME -fuzzminimizetime $FUZZMINIMIZETIME $pkg"
	if ! "$GO" test -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "$pkg" </dev/null; then
		failed+=("$pkg.$name")
	fi
done <<<"$targets"

if ((${#failed[@]} > 0)); then
	echo "fuzz targets that failed: ${failed[*]}" >&2
	exit 1
fi
echo "all fuzz targets passed"
