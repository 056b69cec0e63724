#!/usr/bin/env bash
# cli_expect.sh RC PATTERN COMMAND [ARGS...]: COMMAND exits with RC and its output (stdout and
# stderr) contains PATTERN (a fixed string). An argument @EMPTY@ is passed as "" (CMake drops
# empty arguments).
set -uo pipefail
want_rc="$1" pattern="$2"
shift 2
args=()
for a in "$@"; do [[ $a == @EMPTY@ ]] && args+=("") || args+=("$a"); done
out="$("${args[@]}" 2>&1)"
rc=$?
printf '%s\n' "$out"
if [[ $rc -ne $want_rc ]]; then
  echo "cli_expect: exit code $rc, expected $want_rc" >&2
  exit 1
fi
if ! grep -qF -- "$pattern" <<<"$out"; then
  echo "cli_expect: output lacks '$pattern'" >&2
  exit 1
fi
