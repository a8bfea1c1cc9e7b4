#!/usr/bin/env bash
# conformance-long.sh BINARY SEEDS SEED_START JOBS
#
# Runs the conformance test binary's TestRandom over seeds
# SEED_START .. SEED_START+SEEDS-1, split into JOBS contiguous ranges run
# as separate processes (the harness compares one scenario at a time per
# process: Kueue's feature gates are process-wide). Each process logs to
# build/conformance/long-<first seed>.log; minimized failing scenarios go to
# build/conformance/failures. Prints each range's result and the wall time,
# and exits non-zero if any range had a disagreement.
set -euo pipefail

bin=$1 seeds=$2 start=$3 jobs=$4
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/conformance
mkdir -p "$out/failures"
if (( jobs < 1 )); then jobs=1; fi
if (( jobs > seeds )); then jobs=$seeds; fi

began=$(date +%s)
pids=() logs=()
per=$(( (seeds + jobs - 1) / jobs ))
for (( first = start; first < start + seeds; first += per )); do
	n=$(( start + seeds - first ))
	(( n > per )) && n=$per
	log=$out/long-$first.log
	logs+=("$log")
	# The test binary runs in conformance/, like go test would.
	(cd "$root/conformance" && exec "$bin" -test.run '^TestRandom$' -test.timeout 0 -test.v \
		-seeds "$n" -seed-start "$first" -failures "$out/failures") >"$log" 2>&1 &
	pids+=($!)
	echo "seeds $first..$(( first + n - 1 )): pid $!, log $log"
done

status=0
for i in "${!pids[@]}"; do
	if ! wait "${pids[$i]}"; then
		status=1
	fi
	grep -E 'generated scenarios agreed|^--- FAIL|disagree' "${logs[$i]}" | head -n 20 || true
done
echo "conformance-long: $seeds seeds from $start in $(( $(date +%s) - began )) s with $jobs processes"
if (( status != 0 )); then
	echo "conformance-long: disagreements (or errors) above; minimized scenarios in $out/failures" >&2
fi
exit $status
