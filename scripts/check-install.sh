#!/usr/bin/env bash
# Installs a build into a scratch prefix, then builds and runs the examples against it the way
# an outside project would: the C++ one with find_package (static and shared), the C one with
# pkg-config (shared, static), the Python ctypes example, and the preload with its generator.
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
# clearjit::shared: linked to libclearjit.so.0 (CMake's build rpath finds it in the prefix).
ldd "$WORK/cmake-example/pool_shared" | grep "libclearjit.so.0 => $WORK/prefix/" >/dev/null ||
  { echo "pool_shared is not linked to the installed libclearjit.so.0" >&2; exit 1; }
"$WORK/cmake-example/pool_shared" 2

export PKG_CONFIG_PATH="$WORK/prefix/lib/pkgconfig"
# pkg-config --libs clearjit: the shared library.
cc -std=c11 -Wall -Wextra -o "$WORK/pool_c" "$ROOT/examples/pool.c" $(pkg-config --cflags --libs clearjit)
ldd "$WORK/pool_c" | grep "libclearjit.so.0 =>" >/dev/null || { echo "pool_c: not linked to libclearjit.so.0" >&2; exit 1; }
LD_LIBRARY_PATH="$WORK/prefix/lib" "$WORK/pool_c"
# clearjit-static: the archive; no libclearjit.so needed at run time.
cc -std=c11 -Wall -Wextra -o "$WORK/pool_c_static" "$ROOT/examples/pool.c" $(pkg-config --cflags --libs clearjit-static)
! ldd "$WORK/pool_c_static" | grep libclearjit >/dev/null || { echo "pool_c_static needs libclearjit.so" >&2; exit 1; }
"$WORK/pool_c_static"
# pkg-config --static --libs clearjit: adds what libclearjit.a needs, for links that take archives.
[[ "$(pkg-config --static --libs clearjit)" == *"-lclearjit"*"-lstdc++"* ]] ||
  { echo "pkg-config --static --libs clearjit: $(pkg-config --static --libs clearjit)" >&2; exit 1; }
# The Python ctypes example, through the installed shared library.
if command -v python3 >/dev/null; then
  python3 "$ROOT/examples/clear_ctypes.py" "$WORK/prefix/lib/libclearjit.so.0"
fi
test -L "$WORK/prefix/lib/libclearjit.so" -a -L "$WORK/prefix/lib/libclearjit.so.0" -a -f "$WORK/prefix/lib/libclearjit.a"
# The preload finds its generator beside it: the installed pair generates code (the checker's
# threads clear 90000 bytes).
if [[ -f "$WORK/prefix/lib/libclearjit-preload.so" ]]; then
  err="$(LD_PRELOAD="$WORK/prefix/lib/libclearjit-preload.so" CLEARJIT_VERBOSE=1 \
    "$BUILD/tests/preload_check" --race 2>&1 >/dev/null)"
  [[ "$err" == *"clearjit-preload: clearjit from"* ]] || { echo "installed preload: $err" >&2; exit 1; }
fi
echo "install check: CMake static and shared, pkg-config shared, static and --static, Python," \
  "preload: passed"
