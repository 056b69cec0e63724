#!/usr/bin/env bash
# Fetches a Debian release's libc6 binary package and unpacks it, for `clearjit bench|tune|verify
# --libc DIR`: clearjit then runs under that glibc's loader and races its memset.
# Usage: fetch-libc.sh DIR [SUITE]   (SUITE: trixie, Debian 13's glibc 2.41, unless given;
#                                     prints the unpacked tree: DIR/libc6-<version>)
#
# Nothing is installed: a private apt configuration under DIR/apt (its own sources.list, lists,
# cache and an empty dpkg status) downloads the .deb, which dpkg-deb unpacks into a folder of its
# own. apt checks the Packages index against the Debian archive key and the .deb against the
# index's hash. The .deb is kept beside the tree (DIR/libc6_<version>_amd64.deb) and checked
# again on every run: against the index's hash (else fetched again), then the tree against it
# (unpacked afresh and compared: else replaced). Idempotent: an intact tree is reused as it is.
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
SHOW="$(apt-cache -o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts=- \
  -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o Dir::State::status="$APT/status" \
  show --no-all-versions libc6)"
VERSION="$(sed -n 's/^Version: //p' <<<"$SHOW" | head -1)"
SHA256="$(sed -n 's/^SHA256: //p' <<<"$SHOW" | head -1)"
[[ -n "$VERSION" && -n "$SHA256" ]] || { echo "fetch-libc: no libc6 in $SUITE" >&2; exit 1; }
TREE="$DIR/libc6-$VERSION"
KEPT="$DIR/libc6_${VERSION}_amd64.deb" # the package TREE came from
WORK="$(mktemp -d "$DIR/unpack.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if ! has_sha256 "$KEPT" "$SHA256"; then
  [[ -e $KEPT || -L $KEPT ]] &&
    echo "fetch-libc: $KEPT does not have the index's hash: fetched again" >&2
  (cd "$WORK" && "${apt_private[@]}" download "libc6=$VERSION" >/dev/null)
  DEB="$(find "$WORK" -maxdepth 1 -name 'libc6_*.deb' | head -1)"
  [[ -n "$DEB" ]] || { echo "fetch-libc: apt downloaded no libc6 package" >&2; exit 1; }
  has_sha256 "$DEB" "$SHA256" ||
    { echo "fetch-libc: $(basename "$DEB") does not have the index's hash" >&2; exit 1; }
  rm -f "$KEPT"
  mv "$DEB" "$KEPT"
fi
dpkg-deb -x "$KEPT" "$WORK/tree"
[[ -f "$WORK/tree/usr/lib/x86_64-linux-gnu/libc.so.6" ]] ||
  { echo "fetch-libc: no usr/lib/x86_64-linux-gnu/libc.so.6 in $(basename "$KEPT")" >&2; exit 1; }
echo "$VERSION" >"$WORK/tree/.clearjit-version"
keep_or_replace "$TREE" "$WORK/tree" fetch-libc
echo "$TREE"
