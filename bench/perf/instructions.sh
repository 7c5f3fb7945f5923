#!/usr/bin/env bash
# Instructions and simulated cache misses per scheduled pod, under Valgrind's
# cachegrind (Debian package `valgrind`). Unlike wall time, these counts do
# not move with other load on the machine, so small changes show; the other
# threads' waits still move them by up to about 3% between runs.
#
#   bench/perf/instructions.sh SMALL BIG [schedkit-perf args...]
#   bench/perf/instructions.sh 1000 3000 --workload SchedulingBasic --threads 1
#
# Runs the workload twice, with SMALL and BIG measured pods, and divides the
# difference by BIG - SMALL, so building the cluster and the init pods cancel
# out. "L2 miss" simulates a 2 MiB last level (one core's L2 on the machine in
# bench/README.md); "D1 miss" the first-level data cache.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 SMALL BIG [schedkit-perf args...]" >&2
  exit 2
fi
small=$1
big=$2
shift 2
bin=${SCHEDKIT_PERF:-$(dirname "$0")/../../build/bench/schedkit-perf}
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 2; }

count() {
  valgrind --tool=cachegrind --cache-sim=yes --LL=2097152,16,64 --cachegrind-out-file=/dev/null \
    "$bin" "$@" 2>&1 >/dev/null |
    awk '/I +refs:/ {gsub(",", "", $4); i = $4}
         /D1 +misses:/ {gsub(",", "", $4); d = $4}
         /LLd +misses:/ {gsub(",", "", $4); l = $4}
         END {print i, d, l}'
}

read -r i1 d1 l1 < <(count "$@" --pods "$small")
read -r i2 d2 l2 < <(count "$@" --pods "$big")
awk -v i1="$i1" -v i2="$i2" -v d1="$d1" -v d2="$d2" -v l1="$l1" -v l2="$l2" -v n=$((big - small)) \
  'BEGIN {printf "per pod: %.0f instructions, %.0f D1 misses, %.0f L2 misses\n", (i2 - i1) / n, (d2 - d1) / n, (l2 - l1) / n}'
