#!/usr/bin/env bash
# The upstream release schedkit reproduces, and the Go modules built at it.
#
#   tests/conformance/upstream-version.sh            prints it (v1.35.8)
#   tests/conformance/upstream-version.sh check      fails, naming the file, where
#                                                    a go.mod or the README names another
#   tests/conformance/upstream-version.sh set V      moves everything to V (v1.X.Y)
#
# The one place that names it is include/schedkit/base/upstream_version.h.
# `set` writes that line, then the oracle's and the test API server's go.mod
# from k8s.io/kubernetes@V's own go.mod (every staging module it replaces,
# pinned to v0.X.Y, as a consumer of k8s.io/kubernetes must), and the
# generator's k8s.io/api; it downloads modules and runs `go mod tidy`.
# `check` reads files only (no Go): the ctest upstream/version_agrees runs it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HEADER="$ROOT/include/schedkit/base/upstream_version.h"
GOMODS=("$ROOT/tests/conformance/oracle/go.mod" "$ROOT/tests/kube/apiserver/go.mod")
GEN_GOMOD="$ROOT/tests/conformance/gen/go.mod"

current() {
  sed -n 's/^inline constexpr std::string_view kUpstreamVersion = "\(v[0-9.]*\)";$/\1/p' "$HEADER"
}

# v1.35.8 -> v0.35.8, and the minor line v1.35.
staging_of() { echo "v0.${1#v1.}"; }
minor_of() { echo "${1%.*}"; }

check() {
  local v s bad=0
  v="$(current)"
  [[ "$v" =~ ^v1\.[0-9]+\.[0-9]+$ ]] || { echo "$HEADER: no kUpstreamVersion line" >&2; exit 1; }
  s="$(staging_of "$v")"
  for mod in "${GOMODS[@]}"; do
    # Every k8s.io/kubernetes pin and every staging replace.
    while read -r line; do
      case "$line" in
        *"k8s.io/kubernetes v"*) [[ "$line" == *"k8s.io/kubernetes $v" ]] || { echo "$mod: $line (want $v)" >&2; bad=1; } ;;
        *"=> k8s.io/"*) [[ "$line" == *" $s" ]] || { echo "$mod: $line (want $s)" >&2; bad=1; } ;;
      esac
    done < <(grep -E 'k8s\.io/kubernetes v|=> k8s\.io/' "$mod")
    grep -q "k8s.io/kubernetes $v" "$mod" || { echo "$mod: does not require k8s.io/kubernetes $v" >&2; bad=1; }
  done
  grep -q "k8s.io/api $s" "$GEN_GOMOD" || { echo "$GEN_GOMOD: k8s.io/api is not $s" >&2; bad=1; }
  # The README's "v1.N" and "v1.N.M" are the reference's.
  while read -r mention; do
    [[ "$v" == "$mention" || "$(minor_of "$v")" == "$mention" ]] || { echo "$ROOT/README.md: names $mention (want $v)" >&2; bad=1; }
  done < <(grep -oE '\bv1\.[0-9]+(\.[0-9]+)?\b' "$ROOT/README.md" | sort -u)
  exit "$bad"
}

set_version() {
  local v="$1" s kk
  [[ "$v" =~ ^v1\.[0-9]+\.[0-9]+$ ]] || { echo "usage: $0 set v1.X.Y" >&2; exit 2; }
  s="$(staging_of "$v")"
  go mod download "k8s.io/kubernetes@$v"
  kk="$(go env GOMODCACHE)/k8s.io/kubernetes@$v/go.mod"
  # k/k requires neither sample-cli-plugin nor sample-controller, and the
  # proxy serves no tag of them for most patches: they are left out.
  mapfile -t staging < <(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*#\1#p' "$kk" |
    grep -vx -e k8s.io/sample-cli-plugin -e k8s.io/sample-controller)
  [[ ${#staging[@]} -gt 0 ]] || { echo "$kk: no staging replaces found" >&2; exit 1; }
  for mod in "${GOMODS[@]}"; do
    local dir args=()
    dir="$(dirname "$mod")"
    # Drop the old staging replaces (a release may retire one), then pin this release's.
    while read -r old; do args+=("-dropreplace=$old"); done < <(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => k8s\.io/.*#\1#p' "$mod")
    for m in "${staging[@]}"; do args+=("-replace=$m=$m@$s"); done
    args+=("-replace=k8s.io/kubernetes=k8s.io/kubernetes@$v" "-require=k8s.io/kubernetes@$v")
    while read -r req; do args+=("-require=$req@$s"); done < <(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) v0\.[0-9]*\.[0-9]*\( // indirect\)\{0,1\}$#\1#p' "$mod")
    (cd "$dir" && go mod edit "${args[@]}" && go mod tidy)
  done
  (cd "$(dirname "$GEN_GOMOD")" && go get "k8s.io/api@$s" "k8s.io/apimachinery@$s" && go mod tidy)
  sed -i "s/^inline constexpr std::string_view kUpstreamVersion = \"v[0-9.]*\";$/inline constexpr std::string_view kUpstreamVersion = \"$v\";/" "$HEADER"
  echo "now $(current); review the README's mentions (check names them)"
}

case "${1:-}" in
  "") current ;;
  check) check ;;
  set) set_version "${2:-}" ;;
  *) echo "usage: $0 [check | set v1.X.Y]" >&2; exit 2 ;;
esac
