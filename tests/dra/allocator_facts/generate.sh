#!/usr/bin/env bash
# Regenerates the DRA allocator facts in this folder by running upstream's
# allocator test table against upstream's incubating allocator and writing
# down what goes in and what comes out (see README.md).
#
#   tests/dra/allocator_facts/generate.sh
#
# Writes, in this folder only:
#   incubating.jsonl              one fact per line, sorted by name
#   incubating.summary.json       counts, scheduler default features
#
# Needs Go and the modules k8s.io/dynamic-resource-allocation@v0.37.2 and
# k8s.io/kubernetes@v1.37.2 (with the dependencies of
# tests/conformance/oracle/go.mod); `go mod download` fetches what is
# missing. Works in a scratch directory; changes no Go setting (no go env -w).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
DRA_MODULE=k8s.io/dynamic-resource-allocation
DRA_VERSION=v0.37.2
ORACLE_GOMOD="$ROOT/tests/conformance/oracle/go.mod"

# The upstream files this script relies on, as they were when the recorder
# was written. Any other content (a new version) needs a fresh look at
# the harness before the facts can be trusted.
declare -A UPSTREAM_SHA256=(
  [structured/internal/allocatortesting/allocator_testing.go]=aa8f7aa6b61c09b36a8ed20e63cb936e86869a0eebaf474c133a678b5cf226b0
  [structured/internal/allocatortesting/lexicographical_testing.go]=c0fead929a9fbf1a062691564afec962387e122e1c61d5b929778c4b83b11324
  [structured/internal/incubating/allocator_test.go]=55e68accb5a84adbd5573ec973dc1a79ac9c3c8646431b55bfc5b73b1ed7ea3d
)

die() { echo "generate.sh: $*" >&2; exit 1; }

start=$(date +%s)
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/schedkit-dra-facts.XXXXXX")"
# KEEP_SCRATCH=1 keeps the scratch directory for a look after a failure.
cleanup() {
  if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then echo "generate.sh: scratch kept in $SCRATCH" >&2; return; fi
  chmod -R u+w "$SCRATCH" 2>/dev/null || true; rm -rf "$SCRATCH"
}
trap cleanup EXIT

# 1. A writable copy of the module.
SRC="$(go env GOMODCACHE)/$DRA_MODULE@$DRA_VERSION"
if [[ ! -d "$SRC" ]]; then
  (cd "$SCRATCH" && go mod download "$DRA_MODULE@$DRA_VERSION")
fi
[[ -d "$SRC" ]] || die "$SRC missing"
DRA="$SCRATCH/dra"
cp -R "$SRC" "$DRA"
chmod -R u+w "$DRA"

for f in "${!UPSTREAM_SHA256[@]}"; do
  got="$(sha256sum "$DRA/$f" | cut -d' ' -f1)"
  [[ "$got" == "${UPSTREAM_SHA256[$f]}" ]] || die "$f: sha256 $got, expected ${UPSTREAM_SHA256[$f]}"
done

# 2. The observation hook: our file in package allocatortesting, and one call
#    to it as the first statement of each subtest RunTestAllocator starts.
HARNESS="$DRA/structured/internal/allocatortesting/allocator_testing.go"
awk '
  pending && $0 == "\t\tt.Run(name, func(t *testing.T) {" {
    print; print "\t\t\tschedkitObserveCase(t, name, tc)"; inserted++; pending = 0; next
  }
  { pending = ($0 == "\tfor name, tc := range testcases {") }
  { print }
  END { if (inserted != 1) exit 1 }
' "$HARNESS" > "$HARNESS.new" || die "could not place the hook call in RunTestAllocator"
mv "$HARNESS.new" "$HARNESS"
cp "$HERE/hook_allocatortesting.go.in" "$DRA/structured/internal/allocatortesting/zz_schedkit_hook.go"

#    The recorder replaces upstream's TestAllocator (same calls, wrapped
#    allocator).
rm "$DRA/structured/internal/incubating/allocator_test.go"
cp "$HERE/record_test.go.in" "$DRA/structured/internal/incubating/zz_schedkit_record_test.go"

# 3. The features kube-scheduler v1.37.2 gives the allocator by default,
#    computed by the scheduler's own code, in a module pinned like the
#    conformance oracle.
grep -q '^[[:space:]]*k8s.io/kubernetes v1.37.2$' "$ORACLE_GOMOD" \
  || die "$ORACLE_GOMOD does not pin k8s.io/kubernetes v1.37.2"
DEFAULTS="$SCRATCH/defaults"
mkdir -p "$DEFAULTS"
cp "$ORACLE_GOMOD" "$DEFAULTS/go.mod"
cp "${ORACLE_GOMOD%.mod}.sum" "$DEFAULTS/go.sum"
chmod u+w "$DEFAULTS/go.mod" "$DEFAULTS/go.sum"
cp "$HERE/scheduler_defaults.go.in" "$DEFAULTS/main.go"
(cd "$DEFAULTS" && GOFLAGS="${GOFLAGS:-} -mod=mod" go run . > "$SCRATCH/scheduler_defaults.json") \
  || die "scheduler_defaults failed"

# 4. Upstream's test table, recorded.
OUT="$SCRATCH/out"
mkdir -p "$OUT"
set +e
(cd "$DRA" && SCHEDKIT_DRA_FACTS_DIR="$OUT" SCHEDKIT_DRA_SCHEDULER_DEFAULTS="$SCRATCH/scheduler_defaults.json" \
  go test -count=1 -json -run 'TestAllocator' ./structured/internal/incubating/ > "$SCRATCH/test.json" 2> "$SCRATCH/test.stderr")
rc=$?
set -e
if [[ $rc -ne 0 ]]; then
  cat "$SCRATCH/test.stderr" >&2
  grep -o '"Output":"[^"]*\(FAIL\|\.go:[0-9]\)[^"]*"' "$SCRATCH/test.json" | head -40 >&2 || true
  die "go test failed (exit $rc)"
fi
for f in incubating.jsonl incubating.summary.json; do
  [[ -s "$OUT/$f" ]] || die "recorder wrote no $f"
done

# 5. Cross-check the recorder's verdicts with go test's own report.
go_count() { grep -c "\"Action\":\"$1\",\"Package\":\"[^\"]*\",\"Test\":\"TestAllocator/" "$SCRATCH/test.json" || true; }
fact_count() { grep -c "\"status\":\"$1\"" "$OUT/incubating.jsonl" || true; }
# go test also reports the parent TestAllocator/interrupt, which is no fact.
go_pass=$(( $(go_count pass) - 1 ))
[[ "$go_pass" == "$(fact_count pass)" ]] || die "go test passed $go_pass subtests, facts say $(fact_count pass)"
[[ "$(go_count skip)" == "$(fact_count skip)" ]] || die "go test skipped $(go_count skip) subtests, facts say $(fact_count skip)"
[[ "$(fact_count fail)" == 0 ]] || die "facts record failures"

# 6. Into place.
for f in incubating.jsonl incubating.summary.json; do
  cp "$OUT/$f" "$HERE/$f.tmp"
  mv "$HERE/$f.tmp" "$HERE/$f"
done
echo "generate.sh: $(wc -l < "$HERE/incubating.jsonl") facts, $(fact_count pass) passed, $(fact_count skip) skipped; $(( $(date +%s) - start ))s" >&2
