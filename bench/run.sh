#!/usr/bin/env bash
# Runs every Google Benchmark built in BUILD_DIR (default: build) and prints
# their tables; extra arguments go to each benchmark binary.
set -euo pipefail
build=${1:-build}
shift || true
for b in "$build"/bench/*_benchmark; do
  [ -x "$b" ] || continue
  echo "=== $(basename "$b")"
  "$b" --benchmark_min_time=0.2 "$@"
done
