#!/usr/bin/env bash
# Installs the Debian packages schedkit's build needs, only when some are missing.
# Idempotent and quiet when everything is present; safe to run before every build.
set -euo pipefail

packages=(
  libabsl-dev libprotobuf-dev protobuf-compiler nlohmann-json3-dev libtbb-dev
  catch2 libbenchmark-dev libyaml-cpp-dev libdivide-dev cmake ninja-build g++ ccache
  libcurl4-openssl-dev libssl-dev libcpp-httplib-dev libre2-dev clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >/dev/null
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
