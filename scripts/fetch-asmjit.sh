#!/usr/bin/env bash
# Fetches and unpacks AsmJit's Debian source package, the same version as the installed
# libasmjit-dev, so that CMake can build it position-independent (Debian's libasmjit.a is not).
# Usage: fetch-asmjit.sh DIR   (prints the unpacked source tree: DIR/asmjit-src)
#
# The deb-src entry lives in a private apt configuration under DIR/apt (its own sources.list,
# lists and cache): the machine's /etc/apt is never changed. apt checks the Sources index
# against the Debian archive key and the downloaded files against the index's hashes. The
# source package's files are kept (DIR/asmjit-kept) and checked again on every run: apt
# verifies kept files against the index and fetches any that differ, dpkg-source checks the
# tarballs against the .dsc, and the tree is unpacked afresh and compared with the cached one
# (else replaced). Idempotent: an intact tree is reused as it is, so builds do not redo AsmJit.
set -euo pipefail
# shellcheck source=scripts/debian-archive.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian-archive.sh"
DIR="$(mkdir -p "$1" && cd "$1" && pwd)"
SUITE="${CLEARJIT_DEBIAN_SUITE:-bookworm}"

VERSION="$(dpkg-query -W -f='${Version}' libasmjit-dev 2>/dev/null)" ||
  { echo "fetch-asmjit: libasmjit-dev is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
SRC="$DIR/asmjit-src"
KEPT="$DIR/asmjit-kept" # the source package SRC came from

MIRROR="$(debian_archive)" || exit 1
APT="$DIR/apt"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$KEPT"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main" \
  >"$APT/sources.list"
apt_private=(apt-get -q -o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts=-
  -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o APT::Get::List-Cleanup=0)
# apt drops privileges to _apt for downloads, which cannot write to a root-owned private dir.
[[ $(id -u) -ne 0 ]] || apt_private+=(-o APT::Sandbox::User=root)

echo "fetch-asmjit: asmjit $VERSION from $MIRROR $SUITE (private apt configuration in $APT)" >&2
"${apt_private[@]}" update >/dev/null
# Pinning the version makes apt refuse a source package that differs from libasmjit-dev; a kept
# file whose hash is not the index's is fetched again.
(cd "$KEPT" && "${apt_private[@]}" source --download-only "asmjit=$VERSION" >/dev/null)
DSC="$KEPT/asmjit_${VERSION#*:}.dsc"
[[ -f "$DSC" ]] || { echo "fetch-asmjit: apt kept no $(basename "$DSC")" >&2; exit 1; }
WORK="$(mktemp -d "$DIR/unpack.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
dpkg-source -q -x "$DSC" "$WORK/asmjit" >/dev/null 2>"$WORK/dpkg-source.log" ||
  { echo "fetch-asmjit: dpkg-source -x $DSC failed: $(tail -1 "$WORK/dpkg-source.log")" >&2; exit 1; }
UNPACKED="$WORK/asmjit"
[[ -f "$UNPACKED/CMakeLists.txt" && -d "$UNPACKED/src/asmjit" ]] ||
  { echo "fetch-asmjit: no AsmJit source tree in the unpacked package" >&2; exit 1; }
GOT="$(dpkg-parsechangelog -l "$UNPACKED/debian/changelog" -S Version)"
[[ "$GOT" == "$VERSION" ]] ||
  { echo "fetch-asmjit: source package is $GOT, libasmjit-dev is $VERSION" >&2; exit 1; }
echo "$VERSION" >"$UNPACKED/.clearjit-version"
keep_or_replace "$SRC" "$UNPACKED" fetch-asmjit
echo "$SRC"
