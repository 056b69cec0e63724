#!/usr/bin/env bash
# libc_peer.sh CLEARJIT [PRELOAD]: `--libc DIR` runs clearjit again under DIR's loader. Tested with a copy
# of the system's own loader and libc.so.6 (what a fetched Debian tree holds, flat), and with
# each bad DIR, including trees another user could change: the error names it, exits 2, and
# nothing runs.
set -uo pipefail
clearjit="$1" preload="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect_lib.sh"
loader="$(readlink -f /lib64/ld-linux-x86-64.so.2)"
libc="$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)"
version="$("$loader" --version | sed -n '1s/.*release version \([0-9.]*[0-9]\).*/\1/p')"

# The system's own glibc, copied: bench's memset is that glibc's, and the header says so.
mkdir "$work/same"
cp "$loader" "$work/same/ld-linux-x86-64.so.2"
cp "$libc" "$work/same/libc.so.6"
quick=(--sizes 64 --no-warm --intent reuse --repetitions 1)
expect 0 "memset: glibc $version's" "$clearjit" bench --libc "$work/same" "${quick[@]}"
expect 0 "memset is glibc $version's, from $work/same" "$clearjit" bench --libc="$work/same" \
  "${quick[@]}"
# The process under the other loader checks what its arguments say it runs: a glibc it does not
# run, or the same from another folder, is refused.
child=(--re-executed-under-libc "$clearjit")
expect 2 "meant to run under glibc $version from $work/none, but runs glibc $version from" \
  "$clearjit" "${child[@]}" "glibc $version" "$work/none" "$work/same" cpu
expect 2 "meant to run under glibc 9.99, but runs glibc $version" "$clearjit" "${child[@]}" \
  "glibc 9.99" "" "$work/same" cpu
expect 2 "--re-executed-under-libc takes 4 values" "$clearjit" --re-executed-under-libc x y
# The variables that once said it are ignored (a hand-set or stale value steers nothing), and
# not passed on: the traced program's environment shows none of them.
for variable in CLEARJIT_LIBC="glibc 9.99" CLEARJIT_LIBC_LIBDIR="$work/none" \
  CLEARJIT_LIBC_DIR="$work/none" CLEARJIT_SELF=/bin/false; do
  expect 0 "vendor" env "$variable" "$clearjit" cpu
done
expect 0 "memset is glibc $version's, from $work/same" env CLEARJIT_SELF=/bin/false \
  "$clearjit" bench --libc "$work/same" "${quick[@]}"
if [[ -n ${preload:-} ]]; then
  env CLEARJIT_SELF=/bin/false CLEARJIT_LIBC="glibc 9.99" CLEARJIT_LIBC_LIBDIR=x \
    CLEARJIT_LIBC_DIR=y "$clearjit" trace --preload "$preload" -- env >"$work/env" 2>&1
  if grep -q '^CLEARJIT_\(SELF\|LIBC\)' "$work/env"; then
    fail "trace passed on $(grep '^CLEARJIT_\(SELF\|LIBC\)' "$work/env" | head -1)"
  fi
fi

# Bad DIRs, for each command that takes --libc.
for command in bench tune verify; do
  args=("$command")
  [[ $command == verify ]] && args+=(/nonexistent.toml)
  expect 2 "--libc $work/none: No such file or directory" "$clearjit" "${args[@]}" \
    --libc "$work/none"
done
expect 2 "not a directory" "$clearjit" bench --libc "$libc"
mkdir "$work/empty"
expect 2 "no ld-linux-x86-64.so.2 in" "$clearjit" tune --libc "$work/empty"
mkdir "$work/nolibc"
cp "$loader" "$work/nolibc/ld-linux-x86-64.so.2"
expect 2 "a loader but no libc.so.6" "$clearjit" bench --libc "$work/nolibc"
mkdir "$work/outside"
ln -s "$loader" "$work/outside/ld-linux-x86-64.so.2"
expect 2 "leads outside $work/outside" "$clearjit" bench --libc "$work/outside"
mkdir "$work/garbage"
head -c 4096 /dev/urandom >"$work/garbage/ld-linux-x86-64.so.2"
chmod +x "$work/garbage/ld-linux-x86-64.so.2"
cp "$libc" "$work/garbage/libc.so.6"
expect 2 "does not start: Exec format error" "$clearjit" bench --libc "$work/garbage"
mkdir "$work/fails"
printf '#!/bin/sh\necho "cannot map libc" >&2\nexit 127\n' >"$work/fails/ld-linux-x86-64.so.2"
chmod +x "$work/fails/ld-linux-x86-64.so.2"
cp "$libc" "$work/fails/libc.so.6"
expect 2 "does not start: exit status 127 (it said: cannot map libc)" "$clearjit" verify \
  /nonexistent.toml --libc "$work/fails"
mkdir "$work/musl"
printf '#!/bin/sh\necho "musl libc (x86_64)"\necho "Version 1.2.3"\n' >"$work/musl/ld-linux-x86-64.so.2"
chmod +x "$work/musl/ld-linux-x86-64.so.2"
cp "$libc" "$work/musl/libc.so.6"
expect 2 "is not glibc's loader (its --version says 'musl libc (x86_64)')" "$clearjit" bench \
  --libc "$work/musl"
mkdir "$work/hangs"
printf '#!/bin/sh\nexec sleep 60\n' >"$work/hangs/ld-linux-x86-64.so.2"
chmod +x "$work/hangs/ld-linux-x86-64.so.2"
cp "$libc" "$work/hangs/libc.so.6"
expect 2 "does not start: did not finish in" "$clearjit" bench \
  --libc "$work/hangs"

# Trees someone else could change: refused before anything in them runs. The planted loader
# would leave a mark; the system's loader beside it would otherwise pass every check.
planted() { # DIR: a copy of the system's glibc whose loader leaves $work/ran when it runs
  mkdir -p "$1"
  printf '#!/bin/sh\ntouch %s/ran\nexec %s "$@"\n' "$work" "$loader" >"$1/ld-linux-x86-64.so.2"
  chmod 0755 "$1/ld-linux-x86-64.so.2"
  cp "$libc" "$1/libc.so.6"
}
never_ran() {
  if [[ -e $work/ran ]]; then
    fail "the planted loader ran ($1)"
    rm -f "$work/ran"
  fi
}
planted "$work/open"
chmod 0777 "$work/open"
expect 2 "--libc $work/open: $work/open is writable by everyone; only a tree that nobody but you and root can change is run" \
  "$clearjit" bench --libc "$work/open" "${quick[@]}"
never_ran "a world-writable DIR"
planted "$work/group/lib64"
chmod 0775 "$work/group"
expect 2 "$work/group is writable by its group" "$clearjit" tune --libc "$work/group"
never_ran "a group-writable folder"
planted "$work/loader"
chmod 0775 "$work/loader/ld-linux-x86-64.so.2"
expect 2 "$work/loader/ld-linux-x86-64.so.2 is writable by its group" "$clearjit" verify \
  /nonexistent.toml --libc "$work/loader"
never_ran "a group-writable loader"
planted "$work/libc"
chmod 0666 "$work/libc/libc.so.6"
expect 2 "$work/libc/libc.so.6 is writable by everyone" "$clearjit" bench --libc "$work/libc"
never_ran "a world-writable libc.so.6"
if [[ $(id -u) == 0 ]]; then # root can make what another user owns
  planted "$work/theirs"
  chown 65534 "$work/theirs"
  expect 2 "$work/theirs is owned by uid 65534, neither you nor root" "$clearjit" bench \
    --libc "$work/theirs"
  never_ran "a DIR owned by another user"
  planted "$work/their-loader"
  chown 65534 "$work/their-loader/ld-linux-x86-64.so.2"
  expect 2 "ld-linux-x86-64.so.2 is owned by uid 65534" "$clearjit" bench --libc "$work/their-loader"
  never_ran "a loader owned by another user"
fi
# The same planted tree, made safe, runs: the checks above refused it for its modes alone.
planted "$work/safe"
expect 0 "memset: glibc $version's" "$clearjit" bench --libc "$work/safe" "${quick[@]}"
[[ -e $work/ran ]] || fail "the safe planted loader did not run"

finish libc_peer
