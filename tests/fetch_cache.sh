#!/usr/bin/env bash
# fetch_cache.sh: the fetch scripts' check of a cached tree (scripts/debian-archive.sh), offline,
# on a package built here: a kept .deb whose bytes changed no longer has the index's hash (so the
# script fetches it again), and a cached tree that differs in any way from the package unpacked
# afresh (a changed, added or removed file, a mode, a link's target) is replaced, not reused.
set -uo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# shellcheck source=scripts/debian-archive.sh
source "$(dirname "$0")/../scripts/debian-archive.sh"
source "$(dirname "$0")/expect_lib.sh"

mkdir -p "$work/pkg/DEBIAN" "$work/pkg/usr/lib/x86_64-linux-gnu"
printf 'Package: libfake\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
  >"$work/pkg/DEBIAN/control"
echo library >"$work/pkg/usr/lib/x86_64-linux-gnu/libc.so.6"
ln -s libc.so.6 "$work/pkg/usr/lib/x86_64-linux-gnu/libc.so"
dpkg-deb -b --root-owner-group "$work/pkg" "$work/kept.deb" >/dev/null || fail "dpkg-deb -b"
hash="$(sha256sum <"$work/kept.deb" | cut -d' ' -f1)"

has_sha256 "$work/kept.deb" "$hash" || fail "the intact package lacks its own hash"
cp "$work/kept.deb" "$work/changed.deb"
echo x >>"$work/changed.deb"
has_sha256 "$work/changed.deb" "$hash" && fail "a changed package passed as the index's"
ln -s kept.deb "$work/link.deb"
has_sha256 "$work/link.deb" "$hash" && fail "a link passed as the kept package"
has_sha256 "$work/none.deb" "$hash" && fail "a missing package passed"

unpack() { # DIR: the package unpacked afresh into DIR
  rm -rf "$1"
  dpkg-deb -x "$work/kept.deb" "$1"
}
tree="$work/tree"
unpack "$tree"
inode="$(stat -c %i "$tree")"
unpack "$work/fresh"
keep_or_replace "$tree" "$work/fresh" test 2>"$work/said"
[[ $(stat -c %i "$tree") == "$inode" ]] || fail "an intact tree was not reused"
[[ -e $work/fresh ]] && fail "the fresh copy of an intact tree was left behind"
[[ -s $work/said ]] && fail "an intact tree was reported: $(cat "$work/said")"

lib="usr/lib/x86_64-linux-gnu"
for change in "echo planted >>$lib/libc.so.6" "touch $lib/libplanted.so" "rm $lib/libc.so" \
  "chmod 0666 $lib/libc.so.6" "ln -sfn /tmp/evil $lib/libc.so" "chmod 0777 ."; do
  unpack "$tree"
  (cd "$tree" && eval "$change")
  unpack "$work/fresh"
  keep_or_replace "$tree" "$work/fresh" test 2>"$work/said"
  grep -qF "test: $tree differs from its checked package: unpacked again" "$work/said" ||
    fail "$change: not reported"
  unpack "$work/check"
  same_tree "$tree" "$work/check" || fail "$change: the tree was not replaced by the package"
  [[ -e $work/fresh ]] && fail "$change: the fresh copy is still there"
done

finish fetch_cache
