#!/usr/bin/env bash
# outputs.sh CLEARJIT PRELOAD: an output named on the command line (here `trace --json`) that
# replaces a file keeps that file's mode, and one over a file another user owns exits 2 before
# the program runs, the file unchanged.
set -uo pipefail
clearjit="$1" preload="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect_lib.sh"
trace=(trace --preload "$preload")

out="$work/private.json"
echo old >"$out"
chmod 0600 "$out"
expect 0 "" "$clearjit" "${trace[@]}" --json "$out" -- /bin/true
[[ $(stat -c %a "$out") == 600 ]] || fail "$out: mode $(stat -c %a "$out"), not 600"
[[ -s $out && $(cat "$out") != old ]] || fail "$out: not rewritten"

if [[ $(id -u) == 0 ]]; then # root can make a file another user owns
  theirs="$work/theirs.json"
  echo theirs >"$theirs"
  chown 65534:65534 "$theirs"
  chmod 0600 "$theirs"
  expect 2 "$theirs: owned by another user (uid 65534); refusing to replace it" "$clearjit" \
    "${trace[@]}" --json "$theirs" -- touch "$work/ran"
  [[ -e $work/ran ]] && fail "the program ran"
  [[ $(stat -c '%u %a' "$theirs") == "65534 600" ]] || fail "$theirs: $(stat -c '%u %a' "$theirs")"
  [[ $(cat "$theirs") == theirs ]] || fail "$theirs was changed"
else
  echo "outputs: not root, so no file of another user to try" >&2
fi

finish outputs
