#!/usr/bin/env bash
# Fetches a Debian release's libc6 binary package and unpacks it, for `clearjit bench|tune|verify
# --libc DIR`: clearjit then runs under that glibc's loader and races its memset.
# Usage: fetch-libc.sh DIR [SUITE]   (SUITE: trixie, Debian 13's glibc 2.41, unless given;
#                                     prints the unpacked tree: DIR/libc6-<version>)
#
# Nothing is installed: a private apt configuration under DIR/apt (its own sources.list, lists,
# cache and an empty dpkg status) downloads the .deb, which dpkg-deb unpacks into a folder of its
# own. apt checks the Packages index against the Debian archive key and the .deb against the
# index's hash. Idempotent: a tree already unpacked for the suite's current version is reused.
set -euo pipefail
# shellcheck source=scripts/debian-archive.sh
source "$(dirname "${BASH_SOURCE[0]}")/debian-archive.sh"
DIR="$(mkdir -p "$1" && cd "$1" && pwd)"
SUITE="${2:-trixie}"
MIRROR="$(debian_archive)" || exit 1

APT="$DIR/apt-$SUITE"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial"
echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main" \
  >"$APT/sources.list"
: >"$APT/status"
apt_private=(apt-get -q -o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts=-
  -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o Dir::State::status="$APT/status"
  -o APT::Get::List-Cleanup=0 -o APT::Architecture=amd64)
# apt drops privileges to _apt for downloads, which cannot write to a root-owned private dir.
[[ $(id -u) -ne 0 ]] || apt_private+=(-o APT::Sandbox::User=root)

echo "fetch-libc: libc6 from $MIRROR $SUITE (private apt configuration in $APT)" >&2
"${apt_private[@]}" update >/dev/null
VERSION="$(apt-cache -o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts=- \
  -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o Dir::State::status="$APT/status" \
  show --no-all-versions libc6 | sed -n 's/^Version: //p' | head -1)"
[[ -n "$VERSION" ]] || { echo "fetch-libc: no libc6 in $SUITE" >&2; exit 1; }
TREE="$DIR/libc6-$VERSION"
if [[ -f "$TREE/.clearjit-version" && "$(cat "$TREE/.clearjit-version")" == "$VERSION" ]]; then
  echo "$TREE"
  exit 0
fi
WORK="$(mktemp -d "$DIR/unpack.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && "${apt_private[@]}" download "libc6=$VERSION" >/dev/null)
DEB="$(find "$WORK" -maxdepth 1 -name 'libc6_*.deb' | head -1)"
[[ -n "$DEB" ]] || { echo "fetch-libc: apt downloaded no libc6 package" >&2; exit 1; }
dpkg-deb -x "$DEB" "$WORK/tree"
[[ -f "$WORK/tree/usr/lib/x86_64-linux-gnu/libc.so.6" ]] ||
  { echo "fetch-libc: no usr/lib/x86_64-linux-gnu/libc.so.6 in $(basename "$DEB")" >&2; exit 1; }
echo "$VERSION" >"$WORK/tree/.clearjit-version"
rm -rf "$TREE"
mv "$WORK/tree" "$TREE"
echo "$TREE"
