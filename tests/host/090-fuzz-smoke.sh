#!/usr/bin/env bash
# timeout: 300
# tests/host/090-fuzz-smoke.sh: every libFuzzer target (tests/fuzz/fuzz_*.c,
# built by make fuzz-bins) runs FUZZ_SMOKE_SECONDS (15) on its seed corpus
# with no crash, leak or sanitizer report.  `make fuzz` runs them longer.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
build=${BUILD:-$repo/build}
names=()
for f in "$repo"/tests/fuzz/fuzz_*.c; do
	n=$(basename "$f" .c)
	names+=("${n#fuzz_}")
done
FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-15} exec "$repo/scripts/fuzz" "$build/fuzz" "${names[@]}"
