#!/bin/sh
# Fails when a source of the profile loader includes an AsmJit header (directly or through
# another header): loading and checking a profile is data only, so the parser and the fuzzer
# need no assembler. Usage: check_no_asmjit.sh CXX SOURCE_ROOT TOML_INCLUDE FILE...
set -eu
cxx=$1 root=$2 toml=$3
shift 3
status=0
for f in "$@"; do
  deps=$("$cxx" -std=c++20 -M -MG -I"$root/include" -I"$root" -idirafter "$toml" "$root/$f")
  if printf '%s\n' "$deps" | grep -q 'asmjit/'; then
    echo "$f includes AsmJit:" >&2
    printf '%s\n' "$deps" | tr ' ' '\n' | grep 'asmjit/' | head -3 >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "no AsmJit header in $# profile-loader sources"
exit "$status"
