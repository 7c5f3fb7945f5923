#!/usr/bin/env bash
# What changed in upstream's scheduler between two releases, for the issue
# that moves schedkit's reference (tests/conformance/README.md, "Moving to a
# new release"):
#
#   tests/conformance/upstream-diff.sh v1.35.8 v1.37.2
#
# Prints, from the two k8s.io/kubernetes modules (and the staging modules the
# scheduler leans on) in the Go module cache, downloading them if needed:
#   1. feature gates: each gate whose versioned spec list changed, added or
#      removed, marked (S) when pkg/scheduler reads it in the newer release;
#   2. the default plugin list (apis/config/v1/default_plugins.go), as a diff;
#   3. lines added/removed per scheduler plugin and package, and in the
#      helper libraries (component-helpers resource and nodedeclaredfeatures,
#      dynamic-resource-allocation's structured allocator and cel), tests and
#      generated code left out; unchanged ones are not listed.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 <old tag, e.g. v1.35.8> <new tag, e.g. v1.37.2>" >&2
  exit 2
fi
OLD="$1" NEW="$2"
staging() { echo "v0.${1#v1.}"; }
dir() { go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'; }
export GOFLAGS=-mod=mod
cd "$(mktemp -d)"
go mod init upstreamdiff >/dev/null 2>&1
K_OLD="$(dir k8s.io/kubernetes "$OLD")"
K_NEW="$(dir k8s.io/kubernetes "$NEW")"

echo "== 1. feature gates (pkg/features/kube_features.go; (S): read by pkg/scheduler in $NEW)"
gates() {
  # One line per gate: its name and its versioned specs, whitespace squeezed.
  awk '/^var defaultVersionedKubernetesFeatureGates/ {on=1} on' "$1/pkg/features/kube_features.go" |
    awk '/^\t[A-Z][A-Za-z0-9]*: \{$/ {name=$1; sub(":", "", name); spec=""; next}
         /^\t\},$/ && name != "" {print name " " spec; name=""; next}
         name != "" {gsub(/^[ \t]+/, ""); spec=spec " " $0}' | sort
}
gates "$K_OLD" > old.gates
gates "$K_NEW" > new.gates
read_by="$(grep -rhoE '\bfeatures\.[A-Z][A-Za-z0-9]*' --include='*.go' --exclude='*_test.go' "$K_NEW/pkg/scheduler" |
  sed 's/features\.//' | sort -u)"
join -a1 -a2 -e MISSING -o 0,1.2,2.2 <(awk '{n=$1; $1=""; print n "\t" $0}' old.gates | sort -t$'\t' -k1,1) \
  <(awk '{n=$1; $1=""; print n "\t" $0}' new.gates | sort -t$'\t' -k1,1) -t$'\t' |
  while IFS=$'\t' read -r name was now; do
    [[ "$was" == "$now" ]] && continue
    mark=""
    grep -qx "$name" <<<"$read_by" && mark=" (S)"
    if [[ "$was" == MISSING ]]; then echo "  + $name$mark:$now"
    elif [[ "$now" == MISSING ]]; then echo "  - $name$mark"
    else echo "  ~ $name$mark:$now"; fi
  done > gates.diff
# The scheduler's gates first.
grep -F ' (S)' gates.diff || true
grep -vF ' (S)' gates.diff || true

echo
echo "== 2. default plugins (pkg/scheduler/apis/config/v1/default_plugins.go)"
diff -u "$K_OLD/pkg/scheduler/apis/config/v1/default_plugins.go" \
  "$K_NEW/pkg/scheduler/apis/config/v1/default_plugins.go" | sed -n '3,$p' || true

echo
echo "== 3. lines added/removed (non-test, non-generated Go)"
count() {  # old dir, new dir, label
  local a="$1" b="$2" label="$3"
  local stat
  # diff exits 1 when the trees differ: not a failure here.
  stat="$({ diff -r -N -x '*_test.go' -x 'zz_generated*' -x 'testdata' -x 'testing' "$a" "$b" 2>/dev/null || true; } |
    awk '/^>/ {add++} /^</ {del++} END {printf "+%d/-%d", add, del}')"
  [[ "$stat" != "+0/-0" ]] && printf '  %-60s %s\n' "$label" "$stat"
  return 0
}
for d in "$K_NEW"/pkg/scheduler/framework/plugins/*/ "$K_OLD"/pkg/scheduler/framework/plugins/*/; do
  echo "$(basename "$d")"
done | sort -u | while read -r p; do
  count "$K_OLD/pkg/scheduler/framework/plugins/$p" "$K_NEW/pkg/scheduler/framework/plugins/$p" "plugins/$p"
done
for p in framework framework/runtime framework/preemption backend/queue backend/cache; do
  # The package's own files only.
  mkdir -p "o/$p" "n/$p"
  cp "$K_OLD/pkg/scheduler/$p"/*.go "o/$p/" 2>/dev/null || true
  cp "$K_NEW/pkg/scheduler/$p"/*.go "n/$p/" 2>/dev/null || true
  count "o/$p" "n/$p" "pkg/scheduler/$p"
done
mkdir -p o/top n/top
cp "$K_OLD"/pkg/scheduler/*.go o/top/ && cp "$K_NEW"/pkg/scheduler/*.go n/top/
count o/top n/top "pkg/scheduler (schedule_one.go, scheduler.go, eventhandlers.go, ...)"
CH_OLD="$(dir k8s.io/component-helpers "$(staging "$OLD")")"
CH_NEW="$(dir k8s.io/component-helpers "$(staging "$NEW")")"
count "$CH_OLD/resource" "$CH_NEW/resource" "component-helpers/resource"
count "$CH_OLD/nodedeclaredfeatures" "$CH_NEW/nodedeclaredfeatures" "component-helpers/nodedeclaredfeatures"
DRA_OLD="$(dir k8s.io/dynamic-resource-allocation "$(staging "$OLD")")"
DRA_NEW="$(dir k8s.io/dynamic-resource-allocation "$(staging "$NEW")")"
count "$DRA_OLD/structured" "$DRA_NEW/structured" "dynamic-resource-allocation/structured"
count "$DRA_OLD/cel" "$DRA_NEW/cel" "dynamic-resource-allocation/cel"
