#!/usr/bin/env bash
# Set up, build, and show what clearjit sees on this host.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
BUILD="$CLEARJIT_ROOT/build"
setup_and_build "$BUILD"
"$BUILD/clearjit" cpu
echo
"$BUILD/clearjit" list --level quick
