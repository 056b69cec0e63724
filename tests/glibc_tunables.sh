#!/usr/bin/env bash
# glibc_tunables.sh CLEARJIT: `tune --glibc-tunables FILE` refuses, in a second and before any
# measuring, what cannot give a checked line: a C library that is not glibc or has no memset
# tunable (fake loaders under --libc DIR), a tunables check whose child cannot start or prints
# something else (CLEARJIT_SELF, the program the check runs), and a FILE that cannot be written
# (a missing directory, a directory, a symbolic link). Each exits 2, names the problem, and
# writes nothing.
set -uo pipefail
clearjit="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect_lib.sh"
nothing_written() { # PATH
  if [[ -e $1 || -L $1 ]]; then
    echo "FAIL: $1 was written" >&2
    failures=$((failures + 1))
  fi
}
loader="$(readlink -f /lib64/ld-linux-x86-64.so.2)"
libc="$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)"
out="$work/glibc.env"
quick=(tune --level quick --max-size 64K)

# A glibc whose loader lists no memset tunable: the system's, behind a script that hides them.
mkdir "$work/old"
cat >"$work/old/ld-linux-x86-64.so.2" <<SCRIPT
#!/bin/sh
if [ "\$1" = --list-tunables ]; then
  "$loader" --list-tunables | grep -v -e x86_rep_stosb_threshold -e x86_memset_non_temporal
  exit 0
fi
exec "$loader" "\$@"
SCRIPT
chmod +x "$work/old/ld-linux-x86-64.so.2"
cp "$libc" "$work/old/libc.so.6"
expect 2 "has neither glibc.cpu.x86_memset_non_temporal_threshold nor glibc.cpu.x86_rep_stosb_threshold" \
  "$clearjit" "${quick[@]}" --libc "$work/old" --glibc-tunables "$out"
nothing_written "$out"

# Not glibc at all.
mkdir "$work/musl"
printf '#!/bin/sh\necho "musl libc (x86_64)"\n' >"$work/musl/ld-linux-x86-64.so.2"
chmod +x "$work/musl/ld-linux-x86-64.so.2"
cp "$libc" "$work/musl/libc.so.6"
expect 2 "is not glibc's loader" "$clearjit" "${quick[@]}" --libc "$work/musl" \
  --glibc-tunables "$out"
nothing_written "$out"

# The check's child: one that fails, one that prints something else, one that is no program.
expect 2 "the tunables check cannot run: memset without GLIBC_TUNABLES: exit status 1" \
  env CLEARJIT_SELF=/bin/false "$clearjit" "${quick[@]}" --glibc-tunables "$out"
expect 2 "the tunables check cannot run: memset without GLIBC_TUNABLES: printed no result ('memset-rows --rows" \
  env CLEARJIT_SELF=/bin/echo "$clearjit" "${quick[@]}" --glibc-tunables "$out"
printf '#!/bin/sh\necho hello\n' >"$work/script"
chmod +x "$work/script"
expect 2 "the tunables check cannot run: memset without GLIBC_TUNABLES: exit status 127" \
  env CLEARJIT_SELF="$work/script" "$clearjit" "${quick[@]}" --glibc-tunables "$out"
nothing_written "$out"

# FILE: a missing directory, a directory, a symbolic link.
expect 2 "--glibc-tunables: /nonexistent/glibc.env: cannot write in /nonexistent" "$clearjit" "${quick[@]}" \
  --glibc-tunables /nonexistent/glibc.env
mkdir "$work/dir"
expect 2 "$work/dir: is a directory" "$clearjit" "${quick[@]}" --glibc-tunables "$work/dir"
touch "$work/target"
ln -s "$work/target" "$work/link"
expect 2 "is a symbolic link" "$clearjit" "${quick[@]}" --glibc-tunables "$work/link"
[[ -s $work/target ]] && { echo "FAIL: the link's target was written" >&2; failures=$((failures + 1)); }

finish glibc_tunables
