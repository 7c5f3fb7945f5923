#!/bin/sh
# A fresh CEL differential run against upstream: N random device selectors
# from celoracle (tests/cel/oracle) with seed SEED, upstream's verdicts, and
# schedkit's through SelectorCache/Matches (the hidden [.fresh] test case of
# schedkit_dra_tests). Prints agree / disagree / needs-checker counts.
#   tests/dra/cel_differential.sh SEED N [BUILD_DIR]   (default build)
set -eu
seed=${1:?seed}
n=${2:?count}
build=${3:-build}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here/../cel/oracle" && go build -o "$work/celoracle" .)
"$work/celoracle" gen -seed "$seed" -n "$n" > "$work/inputs.jsonl"
"$work/celoracle" eval < "$work/inputs.jsonl" > "$work/upstream.jsonl"
SCHEDKIT_CEL_DIFF_INPUTS="$work/inputs.jsonl" SCHEDKIT_CEL_DIFF_UPSTREAM="$work/upstream.jsonl" \
  "$build/tests/schedkit_dra_tests" "[.fresh]"
