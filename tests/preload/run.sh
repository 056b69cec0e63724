#!/usr/bin/env bash
# The preload under real use: the checker with and without it, silence unless CLEARJIT_VERBOSE=1,
# a bad profile, switched off, a `libc` kernel, ordinary programs (shell, coreutils, Python)
# starting under it.
# Usage: run.sh libclearjit-preload.so preload_check
set -euo pipefail
PRELOAD="$1" CHECK="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config"
unset CLEARJIT_PROFILE CLEARJIT_VERBOSE CLEARJIT_TRACE CLEARJIT_PRELOAD CLEARJIT_PRELOAD_MIN
fail() { echo "preload: $*" >&2; exit 1; }

"$CHECK" >/dev/null || fail "checker fails without the preload"
LD_PRELOAD="$PRELOAD" "$CHECK" --expect-preload >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err" >&2; fail "checker"; }
[[ ! -s "$WORK/err" ]] || fail "printed on stderr without CLEARJIT_VERBOSE: $(cat "$WORK/err")"
# Every size through clearjit, and every size through libc.
LD_PRELOAD="$PRELOAD" CLEARJIT_PRELOAD_MIN=0 "$CHECK" --expect-preload >/dev/null || fail "CLEARJIT_PRELOAD_MIN=0"
LD_PRELOAD="$PRELOAD" CLEARJIT_PRELOAD=off "$CHECK" --expect-preload >/dev/null || fail "CLEARJIT_PRELOAD=off"
# A bad profile: the built-in default, silently.
echo 'format = "bad"' >"$WORK/bad.toml"
LD_PRELOAD="$PRELOAD" CLEARJIT_PROFILE="$WORK/bad.toml" "$CHECK" >/dev/null 2>"$WORK/err" || fail "bad profile"
[[ ! -s "$WORK/err" ]] || fail "printed with a bad profile: $(cat "$WORK/err")"
LD_PRELOAD="$PRELOAD" CLEARJIT_VERBOSE=1 CLEARJIT_PROFILE="$WORK/bad.toml" "$CHECK" >/dev/null 2>"$WORK/err"
grep -q "clearjit-preload uses built-in default, because" "$WORK/err" || fail "CLEARJIT_VERBOSE=1 says nothing: $(cat "$WORK/err")"
# A `libc` kernel calls memset, which under the preload is the preload's: it must reach libc's
# (it recursed until the stack ran out).
printf '%s\n' 'format = 1' '[host]' 'vendor = "AuthenticAMD"' 'family = 0' 'model = 0' \
  '[[dispatch.reuse]]' 'kernel = "libc"' >"$WORK/libc.toml"
LD_PRELOAD="$PRELOAD" CLEARJIT_PROFILE="$WORK/libc.toml" "$CHECK" --expect-preload >/dev/null ||
  fail "a profile of the libc kernel"
# Ordinary programs start and run under it, silently.
out="$(LD_PRELOAD="$PRELOAD" sh -c 'echo a | tr a b; printf "%s\n" "$(seq 3 | sort -r | head -1)"' 2>&1)"
[[ "$out" == $'b\n3' ]] || fail "sh/tr/seq/sort: '$out'"
if command -v python3 >/dev/null; then
  out="$(LD_PRELOAD="$PRELOAD" python3 -c 'print(len(bytearray(1 << 20)), sum(bytes(5000)))' 2>&1)"
  [[ "$out" == "1048576 0" ]] || fail "python3: '$out'"
fi
echo "preload: checker (default, MIN=0, off), bad profile, verbose, libc kernel, sh, python3: passed"
