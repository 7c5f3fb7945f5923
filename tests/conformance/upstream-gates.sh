#!/usr/bin/env bash
# schedkit's table of kube-scheduler's feature gates (lib/framework/feature_gate_table.inc)
# from upstream's own, at the release the test API server's module pins
# (tests/conformance/upstream-version.sh):
#
#   tests/conformance/upstream-gates.sh          writes the table
#   tests/conformance/upstream-gates.sh check    fails when the table differs (make e2e runs it)
#
# The table lists every gate kube-scheduler's --feature-gates accepts, with the
# spec component-base applies at its emulation version, and marks the gates
# upstream's pkg/scheduler reads (tests/kube/apiserver/gates).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TABLE="$ROOT/lib/framework/feature_gate_table.inc"
MODULE="$ROOT/tests/kube/apiserver"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
(
  cd "$MODULE"
  src="$(go list -m -f '{{.Dir}}' k8s.io/kubernetes)"
  CGO_ENABLED=0 go run ./gates "$src/pkg/scheduler"
) > "$out"
case "${1:-}" in
  "") cp "$out" "$TABLE"; echo "wrote $TABLE ($(grep -c '^    {' "$TABLE") gates)" ;;
  check)
    if ! diff -u "$TABLE" "$out"; then
      echo "$TABLE differs from kube-scheduler's gates at $("$ROOT/tests/conformance/upstream-version.sh"): run $0" >&2
      exit 1
    fi ;;
  *) echo "usage: $0 [check]" >&2; exit 2 ;;
esac
