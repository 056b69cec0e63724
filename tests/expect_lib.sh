# Sourced by the shell tests: `expect RC PATTERN COMMAND...` runs COMMAND (60 s at most) and
# counts a failure, said on stderr, unless it exits RC with PATTERN (a fixed string) in its
# output; `fail WHY` counts a failure of the caller's own check, said on stderr; `finish NAME`
# exits 1 if any expectation or check failed.
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
expect() {
  local want_rc="$1" pattern="$2" out rc
  shift 2
  out="$(timeout 60 "$@" 2>&1)"
  rc=$?
  if [[ $rc -ne $want_rc ]] || ! grep -qF -- "$pattern" <<<"$out"; then
    printf 'FAIL: %s\n  want exit %s and "%s"; got exit %s:\n%s\n' "$*" "$want_rc" "$pattern" \
      "$rc" "$out" >&2
    failures=$((failures + 1))
  fi
}
finish() {
  [[ $failures -eq 0 ]] || { echo "$1: $failures failed" >&2; exit 1; }
  echo "$1: all passed"
}
