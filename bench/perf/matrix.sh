#!/usr/bin/env bash
# Every schedkit-perf workload three ways (memo on, memo off, distinct pods),
# each beside upstream's kube-scheduler on the same cluster (--vs-upstream),
# printed as the rows of bench/README.md's table "Every workload against
# kube-scheduler".
#
#   bench/perf/matrix.sh [BUILD_DIR] [-- schedkit-perf args...]
#   bench/perf/matrix.sh build -- --threads 2
#   WORKLOADS="SchedulingBasic TopologySpreading" bench/perf/matrix.sh
#   VARIANTS=distinct bench/perf/matrix.sh build -- --threads 2
#
# Needs the oracle (`make oracle`, or $SCHEDKIT_ORACLE). One run per row;
# the runs go one after the other, so nothing competes.
set -euo pipefail
build=${1:-build}
shift || true
[[ ${1:-} == -- ]] && shift
perf="$build/bench/schedkit-perf"
[[ -x $perf ]] || { echo "$0: $perf not built (make build)" >&2; exit 2; }
workloads=${WORKLOADS:-$("$perf" --list | awk 'NR > 1 { print $1 }')}
# Which rows per workload: any of memo (identical pods, memo on), no-memo
# (identical pods, memo off), distinct (distinct pods).
variants=${VARIANTS:-memo no-memo distinct}

# The figure after "= " on the table line that starts with $1.
figure() { sed -n "s/^  $1 .*= \([0-9.]*\) pods\/s.*/\1/p" | head -1; }

echo "| workload | pods | schedkit pods/s | attempt p50 / p99 ms | kube-scheduler pods/s | ratio |"
echo "|---|---|---|---|---|---|"
for w in $workloads; do
  for v in $variants; do
    case $v in
      memo) variant="" ;;
      no-memo) variant=--no-memo ;;
      distinct) variant=--distinct-pods ;;
      *) echo "$0: unknown variant $v (memo, no-memo, distinct)" >&2; exit 2 ;;
    esac
    out=$("$perf" --workload "$w" $variant --vs-upstream "$@" 2>&1) || {
      echo "$0: $w $variant failed:" >&2
      echo "$out" >&2
      exit 1
    }
    ours=$(figure "whole run" <<<"$out")
    attempts=$(sed -n 's/^  attempt ms .* p50 \([0-9.]*\) .* p99 \([0-9.]*\) .*/\1 \/ \2/p' <<<"$out")
    theirs=$(figure "upstream" <<<"$out")
    ratio=$(sed -n "s/.*schedkit's whole run is \([0-9.]*\)x.*/\1×/p" <<<"$out")
    case $variant in
      "") label="identical, memo on" ;;
      --no-memo) label="identical, memo off" ;;
      *) label="distinct" ;;
    esac
    echo "| $w | $label | $ours | $attempts | ${theirs:-—} | ${ratio:-—} |"
  done
done
