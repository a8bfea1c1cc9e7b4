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

# fuzz runs one target, its output both shown and kept in $log.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fuzz() {
	echo "+ $GO test -run '^\$' -fuzz '^$2\$' -fuzztime $FUZZTIME -fuzzminimizetime $FUZZMINIMIZETIME $1"
	"$GO" test -run '^$' -fuzz "^$2\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "$1" </dev/null 2>&1 | tee "$log"
}

# Go 1.26's fuzzing coordinator can fail a target with a bare "context
# deadline exceeded" when -fuzztime ends while a worker is busy (a race in
# internal/fuzz's stop, golang/go#75804, fixed in Go 1.27): no input
# failed, none is written. Such a failure, and only such, is run once
# more; a real one says "Failing input written to" (or panics, or reports
# an error) and fails at once.
deadline_race() {
	grep -q '^    context deadline exceeded$' "$log" &&
		! grep -q 'Failing input written to\|panic:\|_test.go:[0-9]' "$log"
}

failed=()
while read -r pkg name; do
	if fuzz "$pkg" "$name"; then
		continue
	fi
	if deadline_race; then
		echo "fuzz: $pkg.$name failed with the fuzzing coordinator's deadline race (golang/go#75804), no input failed: running it once more"
		if fuzz "$pkg" "$name"; then
			continue
		fi
	fi
	failed+=("$pkg.$name")
done <<<"$targets"

if ((${#failed[@]} > 0)); then
	echo "fuzz targets that failed: ${failed[*]}" >&2
	exit 1
fi
echo "all fuzz targets passed"
