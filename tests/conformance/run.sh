#!/usr/bin/env bash
# Differential conformance tests: schedkit-sim against schedkit-oracle (the
# real kube-scheduler code of the reference release) on generated scenarios and on the kept
# regression scenarios. See tests/conformance/README.md.
#
# Environment:
#   SCENARIOS    number of generated scenarios (default 500)
#   SEED         generator seed (default 20251129)
#   SIM          path of schedkit-sim (default build/examples/schedkit-sim,
#                relative to the repository root)
#   JOBS         scenarios run in parallel (default 2)
#   TIMEOUT      seconds allowed per program run (default 120)
#   ORACLE_ONLY  1: run only the oracle (smoke test: it must exit 0 with
#                valid JSON); no simulator needed
#   RERUNS       on a mismatch, how many more times to run the oracle to see
#                whether upstream itself decides differently (default 10)
#
# A scenario directory (generated or under regressions/) may hold
# scheduler.conf, a KubeSchedulerConfiguration passed to both programs with
# --config, and feature-gates, one line passed to both with --feature-gates.
#
# Mismatches land in tests/conformance/out/<seed>-<index>/ (the scenario,
# both outputs, the full diff); out/ is emptied at the start of a run.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SCENARIOS="${SCENARIOS:-500}"
SEED="${SEED:-20251129}"
JOBS="${JOBS:-2}"
TIMEOUT="${TIMEOUT:-120}"
ORACLE_ONLY="${ORACLE_ONLY:-0}"
RERUNS="${RERUNS:-10}"
SIM="${SIM:-build/examples/schedkit-sim}"
case "$SIM" in /*) ;; *) SIM="$ROOT/$SIM" ;; esac

BIN="$HERE/.bin"
OUT="$HERE/out"
mkdir -p "$BIN"

if [[ "$ORACLE_ONLY" != 1 && ! -x "$SIM" ]]; then
  echo "run.sh: simulator not found at $SIM (build it, set SIM=..., or ORACLE_ONLY=1)" >&2
  exit 2
fi

# Go builds are incremental (GOCACHE); the first one takes minutes.
echo "building the oracle, generator and comparator..."
export CGO_ENABLED=0
(cd "$HERE/oracle" && go build -o "$BIN/schedkit-oracle" .)
(cd "$HERE/gen" && go build -o "$BIN/schedkit-gen" . && go build -o "$BIN/schedkit-compare" ./compare)
echo "the oracle's own tests..."
(cd "$HERE/oracle" && go test -count=1 .)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/schedkit-conformance.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
rm -rf "$OUT"

echo "seed $SEED: generating $SCENARIOS scenarios"
"$BIN/schedkit-gen" --seed "$SEED" --count "$SCENARIOS" --out "$WORK/gen"

# The list of scenario directories: generated ones, then regressions.
: > "$WORK/list"
total=0
for ((i = 0; i < SCENARIOS; i++)); do
  printf '%s\0%s\0' "$WORK/gen/$SEED-$i" "$SEED-$i" >> "$WORK/list"
  total=$((total + 1))
done
if [[ -d "$HERE/regressions" ]]; then
  for d in "$HERE"/regressions/*/; do
    [[ -d "$d" ]] || continue
    printf '%s\0%s\0' "${d%/}" "regression-$(basename "$d")" >> "$WORK/list"
    total=$((total + 1))
  done
fi
echo "running $total scenarios, $JOBS at a time (SIM=$([[ $ORACLE_ONLY == 1 ]] && echo none || echo "$SIM"))"

# run_one DIR NAME: runs both programs, compares, prints one result line.
run_one() {
  local dir="$1" name="$2" res="$WORK/res/$2"
  mkdir -p "$res"
  local args=(--cluster "$dir" --output json --explain --tie-break name)
  # The scenario's KubeSchedulerConfiguration ("config" feature), if any:
  # scheduler.conf, which --cluster DIR does not read (not *.json/*.yaml).
  [[ -f "$dir/scheduler.conf" ]] && args+=(--config "$dir/scheduler.conf")
  # Feature gates away from their defaults ("gates" feature): feature-gates.
  [[ -f "$dir/feature-gates" ]] && args+=(--feature-gates "$(tr -d '\n' < "$dir/feature-gates")")
  local orc=0 simc=0
  timeout "$TIMEOUT" "$BIN/schedkit-oracle" "${args[@]}" > "$res/oracle.json" 2> "$res/oracle.stderr" || orc=$?
  if [[ "$ORACLE_ONLY" == 1 ]]; then
    cp "$res/oracle.json" "$res/sim.json"
  else
    timeout "$TIMEOUT" "$SIM" "${args[@]}" > "$res/sim.json" 2> "$res/sim.stderr" || simc=$?
  fi
  local line=""
  if [[ $orc -ne 0 || $simc -ne 0 ]]; then
    line="exit codes: sim $simc | oracle $orc: $(cat "$res/sim.stderr" "$res/oracle.stderr" 2>/dev/null | head -c 300 | tr '\n' ' ')"
  else
    local cmpc=0
    "$BIN/schedkit-compare" "$res/sim.json" "$res/oracle.json" > "$res/diff.txt" 2>&1 || cmpc=$?
    if [[ $cmpc -ne 0 && "$ORACLE_ONLY" != 1 ]]; then
      # Upstream breaks some ties by Go map order or time.Now() (see
      # README.md, "Upstream nondeterminism"): rerun the oracle; if its own
      # answers differ, accept any of them from the simulator.
      local nondet=0 k
      for ((k = 1; k <= RERUNS; k++)); do
        timeout "$TIMEOUT" "$BIN/schedkit-oracle" "${args[@]}" > "$res/oracle.$k.json" 2>/dev/null || continue
        if ! "$BIN/schedkit-compare" "$res/oracle.$k.json" "$res/oracle.json" > /dev/null 2>&1; then
          nondet=1
          if "$BIN/schedkit-compare" "$res/sim.json" "$res/oracle.$k.json" > /dev/null 2>&1; then
            echo "PASS $name (upstream nondeterministic; matched oracle run $k)"
            rm -rf "$res"
            return 0
          fi
        fi
      done
      if [[ $nondet == 1 ]]; then
        echo "NONDET $name: upstream gave different answers across runs; none matched: $(head -n 1 "$res/diff.txt" | cut -c 1-300)"
        rm -rf "$res"
        return 0
      fi
    fi
    if [[ $cmpc -ne 0 ]]; then
      local n
      n="$(wc -l < "$res/diff.txt")"
      line="$(head -n 1 "$res/diff.txt" | cut -c 1-400)"
      ((n > 1)) && line="$line (+$((n - 1)) more)"
    fi
  fi
  if [[ -z "$line" ]]; then
    echo "PASS $name"
    rm -rf "$res"
    return 0
  fi
  local keep="$OUT/$name"
  mkdir -p "$keep/scenario"
  cp "$dir"/*.json "$keep/scenario/" 2>/dev/null || true
  cp "$dir"/*.yaml "$dir"/*.yml "$dir"/*.txt "$dir"/scheduler.conf "$keep/scenario/" 2>/dev/null || true
  cp "$res"/* "$keep/"
  echo "FAIL $name: $line"
}
export -f run_one
export WORK BIN SIM OUT TIMEOUT ORACLE_ONLY RERUNS

start=$(date +%s)
xargs -0 -P "$JOBS" -n 2 bash -c 'run_one "$1" "$2"' _ < "$WORK/list" \
  | tee "$WORK/results" | grep -E '^(FAIL|NONDET)' || true
passed="$(grep -c '^PASS' "$WORK/results" || true)"
failed="$(grep -c '^FAIL' "$WORK/results" || true)"
nondet="$(grep -c '^NONDET' "$WORK/results" || true)"
missing=$((total - passed - failed - nondet))
echo "seed $SEED: $((passed)) passed, $((failed + missing)) failed in $(( $(date +%s) - start )) s" \
  "($nondet undecided: upstream itself nondeterministic; $(grep -c 'upstream nondeterministic' "$WORK/results" || true) of the passed matched one of upstream's answers)"
if ((failed + missing > 0)); then
  echo "mismatches kept in $OUT/ (scenario/, sim.json, oracle.json, diff.txt)"
  exit 1
fi
