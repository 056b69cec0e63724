#!/usr/bin/env bash
# Installs a build into a scratch prefix, then builds and runs the examples against it the way
# an outside project would: the C++ one with find_package, the C one with pkg-config.
set -euo pipefail
BUILD="$1"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
test -f "$WORK/prefix/share/clearjit/profiles/README.md" -o -n "$(ls "$WORK/prefix/share/clearjit/profiles" 2>/dev/null)" \
  || { echo "no profiles installed" >&2; exit 1; }
# No user or system profile may leak into the run: the examples use what the lookup finds.
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config"
unset CLEARJIT_PROFILE

cmake -S "$ROOT/examples" -B "$WORK/cmake-example" -G Ninja -DCMAKE_PREFIX_PATH="$WORK/prefix" >/dev/null
cmake --build "$WORK/cmake-example" >/dev/null
"$WORK/cmake-example/pool" 2

export PKG_CONFIG_PATH="$WORK/prefix/lib/pkgconfig"
cc -std=c11 -Wall -Wextra -o "$WORK/pool_c" "$ROOT/examples/pool.c" $(pkg-config --cflags --libs clearjit)
"$WORK/pool_c"
echo "install check: 2 passed, 0 failed"
