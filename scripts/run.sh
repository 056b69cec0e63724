#!/usr/bin/env bash
# Set up, build, show what clearjit sees on this host, and tune it quickly.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
BUILD="$CLEARJIT_ROOT/build"
setup_and_build "$BUILD"
"$BUILD/clearjit" cpu
echo
"$BUILD/clearjit" list --level quick
echo
# A quick tune (under a minute): the profile and its report land in build/.
"$BUILD/clearjit" tune --level quick -o "$BUILD/quick-profile.toml" --report "$BUILD/quick-report.html"
echo
echo "Use it:  CLEARJIT_PROFILE=$BUILD/quick-profile.toml $BUILD/clearjit bench"
