#!/usr/bin/env bash
# Runs every libFuzzer target of build dir $1 for $2 seconds each, from a
# copy of its seed corpus (tests/fuzz/corpus/<target>) with its dictionary,
# and prints the executions each ran. Fails on the first crash, leak,
# sanitizer report or timeout; the input that caused it is left in
# $FUZZ_ARTIFACTS (default /tmp/schedkit-fuzz-artifacts) to become a
# regression test in the ordinary suite.
set -euo pipefail
build=$1
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
artifacts=${FUZZ_ARTIFACTS:-/tmp/schedkit-fuzz-artifacts}
mkdir -p "$artifacts"
total=0
for bin in "$build"/tests/fuzz/*_fuzz; do
  target=$(basename "$bin" _fuzz)
  corpus=$(mktemp -d)
  cp "$here/corpus/$target"/* "$corpus/"
  log=$(mktemp)
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -dict="$here/$target.dict" -artifact_prefix="$artifacts/$target-" -print_final_stats=1 \
      "$corpus" > "$log" 2>&1; then
    tail -60 "$log" >&2
    echo "fuzz: $target failed; the input is in $artifacts" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz: $target: $runs executions in ${seconds}s, no crash"
  total=$((total + runs))
  rm -rf "$corpus" "$log"
done
echo "fuzz: $total executions in all"
