#!/usr/bin/env bash
# Installs what clearjit needs from Debian 12 packages (only what is missing) and builds it.
# Sourced by run.sh and test.sh; usage: setup_and_build BUILD_DIR [cmake options...]
set -euo pipefail

CLEARJIT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLEARJIT_PACKAGES=(g++ cmake ninja-build pkg-config
  libasmjit-dev libtomlplusplus-dev libbenchmark-dev libgtest-dev libcli11-dev libzydis-dev libboost-dev
  nlohmann-json3-dev libllvmlibc-19-dev
  clang clang-format libclang-rt-14-dev dpkg-dev xz-utils python3 zstd sqlite3 stockfish)

install_missing_packages() {
  local missing=()
  for p in "${CLEARJIT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "clearjit: installing ${missing[*]}" >&2
    local sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

setup_and_build() {
  local dir="$1"
  shift
  install_missing_packages
  # AsmJit's Debian source, unpacked once per checkout and shared by every build directory.
  local asmjit
  asmjit="$("$CLEARJIT_ROOT/scripts/fetch-asmjit.sh" "$CLEARJIT_ROOT/.deps")"
  # -g1 (line tables): every backtrace and sanitizer report still names its lines, at a fraction
  # of -g's compile time (options after BUILD_DIR may set other flags).
  cmake -S "$CLEARJIT_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCLEARJIT_ASMJIT_SOURCE="$asmjit" "$@" >/dev/null
  cmake --build "$dir"
}
