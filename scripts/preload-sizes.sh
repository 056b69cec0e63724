#!/usr/bin/env bash
# How fast a program's memset(p, 0, n) is at each size with libc, and with every size sent
# through clearjit by the preload (CLEARJIT_PRELOAD_MIN=0): where the preload's minimum belongs.
# Usage: scripts/preload-sizes.sh [BUILD_DIR] [MAX_SIZE]   (default build/, 16 MiB)
set -euo pipefail
BUILD="${1:-$(dirname "${BASH_SOURCE[0]}")/../build}"
MAX="${2:-16777216}"
echo "warm memset(p, 0, n), ns per call, medians of 7 alternating rounds (preload: every size"
echo "through clearjit, CLEARJIT_PRELOAD_MIN=0; profile: ${CLEARJIT_PROFILE:-default lookup})"
printf "%10s %10s %10s %14s\n" size libc preload "libc/preload"
LD_PRELOAD="$BUILD/libclearjit-preload.so" CLEARJIT_PRELOAD_MIN=0 "$BUILD/preload_sizes" "$MAX" |
  awk '{printf "%10d %10.2f %10.2f %13.2fx\n", $1, $2, $3, $4}'
