#!/usr/bin/env bash
# Set up, build, and run the whole test suite: a normal build, then an ASan+UBSan build.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
JOBS="$(nproc)"

setup_and_build "$CLEARJIT_ROOT/build"
(cd "$CLEARJIT_ROOT/build" && ctest --output-on-failure -j "$JOBS")

echo "clearjit: the same suite under AddressSanitizer and UndefinedBehaviorSanitizer" >&2
setup_and_build "$CLEARJIT_ROOT/build-sanitize" -DCLEARJIT_SANITIZE=ON
(cd "$CLEARJIT_ROOT/build-sanitize" && ctest --output-on-failure -j "$JOBS")
