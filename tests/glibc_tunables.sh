#!/usr/bin/env bash
# glibc_tunables.sh CLEARJIT: `tune --glibc-tunables FILE` refuses, in a second and before any
# measuring, what cannot give a checked line: a C library that is not glibc or has no memset
# tunable (fake loaders under --libc DIR), a tunables check whose child cannot start or prints
# something else (the program the check runs, as the arguments of a process --libc started name
# it), and a FILE that cannot be written
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
# The check runs clearjit's own path, which only the arguments of a process --libc started can
# set: such a process, under the running glibc, told another path.
version="$("$loader" --version | sed -n '1s/.*release version \([0-9.]*[0-9]\).*/\1/p')"
as_child() { # SELF: clearjit as --libc starts it, under the running glibc, with SELF its path
  printf '%s\n' "$clearjit" --re-executed-under-libc "$1" "glibc $version" "$(dirname "$libc")" ""
}
mapfile -t child < <(as_child /bin/false)
expect 2 "the tunables check cannot run: memset without GLIBC_TUNABLES: exit status 1" \
  "${child[@]}" "${quick[@]}" --glibc-tunables "$out"
mapfile -t child < <(as_child /bin/echo)
expect 2 "the tunables check cannot run: memset without GLIBC_TUNABLES: printed no result ('memset-rows --rows" \
  "${child[@]}" "${quick[@]}" --glibc-tunables "$out"
printf '#!/bin/sh\necho hello\n' >"$work/script"
chmod +x "$work/script"
mapfile -t child < <(as_child "$work/script")
expect 2 "the tunables check cannot run: memset without GLIBC_TUNABLES: exit status 127" \
  "${child[@]}" "${quick[@]}" --glibc-tunables "$out"
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
