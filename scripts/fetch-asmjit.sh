#!/usr/bin/env bash
# Fetches and unpacks AsmJit's Debian source package, the same version as the installed
# libasmjit-dev, so that CMake can build it position-independent (Debian's libasmjit.a is not).
# Usage: fetch-asmjit.sh DIR   (prints the unpacked source tree: DIR/asmjit-src)
#
# The deb-src entry lives in a private apt configuration under DIR/apt (its own sources.list,
# lists and cache): the machine's /etc/apt is never changed. apt checks the Sources index
# against the Debian archive key and the downloaded files against the index's hashes.
# Idempotent: a tree already unpacked for the installed version is reused.
set -euo pipefail
# shellcheck source=scripts/debian-archive.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian-archive.sh"
DIR="$(mkdir -p "$1" && cd "$1" && pwd)"
SUITE="${CLEARJIT_DEBIAN_SUITE:-bookworm}"

VERSION="$(dpkg-query -W -f='${Version}' libasmjit-dev 2>/dev/null)" ||
  { echo "fetch-asmjit: libasmjit-dev is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
SRC="$DIR/asmjit-src"
if [[ -f "$SRC/.clearjit-version" && "$(cat "$SRC/.clearjit-version")" == "$VERSION" ]]; then
  echo "$SRC"
  exit 0
fi

MIRROR="$(debian_archive)" || exit 1
APT="$DIR/apt"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main" \
  >"$APT/sources.list"
apt_private=(apt-get -q -o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts=-
  -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o APT::Get::List-Cleanup=0)
# apt drops privileges to _apt for downloads, which cannot write to a root-owned private dir.
[[ $(id -u) -ne 0 ]] || apt_private+=(-o APT::Sandbox::User=root)

echo "fetch-asmjit: asmjit $VERSION from $MIRROR $SUITE (private apt configuration in $APT)" >&2
"${apt_private[@]}" update >/dev/null
WORK="$(mktemp -d "$DIR/unpack.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# Pinning the version makes apt refuse a source package that differs from libasmjit-dev.
(cd "$WORK" && "${apt_private[@]}" source "asmjit=$VERSION" >/dev/null)
UNPACKED="$(find "$WORK" -mindepth 1 -maxdepth 1 -type d -name 'asmjit-*')"
[[ -n "$UNPACKED" && -f "$UNPACKED/CMakeLists.txt" && -d "$UNPACKED/src/asmjit" ]] ||
  { echo "fetch-asmjit: no AsmJit source tree in the unpacked package" >&2; exit 1; }
GOT="$(dpkg-parsechangelog -l "$UNPACKED/debian/changelog" -S Version)"
[[ "$GOT" == "$VERSION" ]] ||
  { echo "fetch-asmjit: source package is $GOT, libasmjit-dev is $VERSION" >&2; exit 1; }
echo "$VERSION" >"$UNPACKED/.clearjit-version"
rm -rf "$SRC"
mv "$UNPACKED" "$SRC"
echo "$SRC"
