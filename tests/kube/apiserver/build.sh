#!/usr/bin/env bash
# Builds the test kube-apiserver helper, OUTDIR/schedkit-test-apiserver, and
# upstream's kube-scheduler from the same module's dependencies (the release
# tests/conformance/upstream-version.sh names, which go.mod pins),
# OUTDIR/kube-scheduler (run beside schedkit-kube by the e2e tests and by
# bench/kube/kube_bench).
# Usage: tests/kube/apiserver/build.sh OUTDIR
# Incremental through the normal Go build cache (the first build of
# k8s.io/kubernetes takes minutes); quiet unless something fails.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
mkdir -p "$1"
out="$(cd "$1" && pwd)/schedkit-test-apiserver"
cd "$(dirname "$0")"
# Stamp the version the apiserver reports on /version (otherwise v0.0.0-master).
version="$(../../conformance/upstream-version.sh)"
minor="${version#v1.}"
minor="${minor%%.*}"
pkg=k8s.io/component-base/version
ldflags="-s -w -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
CGO_ENABLED=0 go test -c -ldflags "$ldflags" -o "$out" .
CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$(dirname "$out")/kube-scheduler" k8s.io/kubernetes/cmd/kube-scheduler
