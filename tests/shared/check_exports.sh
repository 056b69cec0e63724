#!/usr/bin/env bash
# The shared library's dynamic symbol table defines the C API (clearjit_*) and nothing else:
# exactly the functions clearjit.h declares. Usage: check_exports.sh LIB clearjit.h
set -euo pipefail
LIB="$1" HEADER="$2"
soname="$(readelf -d "$LIB" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[[ "$soname" == "libclearjit.so.0" ]] || { echo "SONAME is '$soname', not libclearjit.so.0" >&2; exit 1; }
defined="$(nm -D --defined-only "$LIB" | awk '{print $NF}')"
others="$(grep -v '^clearjit_' <<<"$defined" || true)"
if [[ -n "$others" ]]; then
  echo "exported besides clearjit_*:" >&2
  echo "$others" >&2
  exit 1
fi
# Functions the header declares, less its static inline helpers (debug checks, scope exit).
inline_helpers="$(grep '^static inline' "$HEADER" | grep -o '\bclearjit_[a-z_]*(' | tr -d '(' | sort -u)"
declared="$(grep -o '\bclearjit_[a-z_]*(' "$HEADER" | tr -d '(' | sort -u |
  comm -23 - <(echo "$inline_helpers"))"
if [[ "$(sort -u <<<"$defined")" != "$declared" ]]; then
  echo "exported and declared differ:" >&2
  diff <(echo "$declared") <(sort -u <<<"$defined") >&2 || true
  exit 1
fi
echo "$LIB: SONAME $soname, $(wc -l <<<"$defined") symbols, exactly clearjit.h's functions"
