#!/usr/bin/env bash
# clearjit trace and bench --mix as a new user tries them: a program with known fills, its
# histogram and JSON, the mix measured from it, and bad input.
# Usage: trace.sh clearjit preload_check
set -euo pipefail
CLEARJIT="$1" CHECK="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "trace: $*" >&2; exit 1; }

"$CLEARJIT" trace --json "$WORK/t.json" -- "$CHECK" --pattern >"$WORK/out" 2>"$WORK/err" ||
  { cat "$WORK/err" >&2; fail "trace failed"; }
for line in '{"min": 64, "max": 127, "calls": 3, "bytes": 300}' \
  '{"min": 4096, "max": 8191, "calls": 2, "bytes": 10000}' \
  '{"min": 1048576, "max": 2097151, "calls": 1, "bytes": 1048576}' \
  '"fill_calls": 1,' '"fill_bytes": 300' '"processes": 1,'; do
  grep -qF "$line" "$WORK/t.json" || { cat "$WORK/t.json" >&2; fail "no '$line' in the JSON"; }
done
grep -q '^calls below 256 B: 3 of 6 (50.0%)' "$WORK/err" || { cat "$WORK/err" >&2; fail "text"; }
grep -q '^total: 6 zero fills, 1058876 bytes' "$WORK/err" || { cat "$WORK/err" >&2; fail "total"; }
# A forked child writes its own record, without the parent's counts (4 fills of 100 B, not 7).
"$CLEARJIT" trace --json "$WORK/f.json" -- "$CHECK" --pattern-fork >/dev/null 2>&1 || fail "fork"
for line in '{"min": 64, "max": 127, "calls": 4, "bytes": 400}' '"processes": 2,'; do
  grep -qF "$line" "$WORK/f.json" || { cat "$WORK/f.json" >&2; fail "fork: no '$line'"; }
done
# The program's status comes back; a program that is not there is an error.
set +e
"$CLEARJIT" trace -- sh -c 'exit 3' 2>/dev/null; [[ $? == 3 ]] || fail "exit status not passed on"
"$CLEARJIT" trace -- /nonexistent/program 2>"$WORK/err"; [[ $? == 1 ]] || fail "missing program"
grep -q "cannot run '/nonexistent/program'" "$WORK/err" || fail "missing program: $(cat "$WORK/err")"
"$CLEARJIT" trace 2>/dev/null; [[ $? == 2 ]] || fail "no program: not a usage error"
set -e
# bench --mix on the trace (one repetition: this checks it runs, not how fast).
"$CLEARJIT" bench --mix "$WORK/t.json" --repetitions 1 >"$WORK/mix" || fail "bench --mix"
grep -q '^weighted by the recorded calls: memset' "$WORK/mix" || { cat "$WORK/mix" >&2; fail "mix text"; }
[[ "$(grep -c 'warm\|cold' "$WORK/mix")" == 3 ]] || { cat "$WORK/mix" >&2; fail "mix rows"; }
# Bad input: clear errors, no crash.
set +e
for bad in '' 'garbage' '{"format": "clearjit-trace"}' '{"format": "x", "octaves": []}' \
  '{"format": "clearjit-trace", "octaves": [{"min": 3, "calls": 1, "bytes": 3}]}' \
  '{"format": "clearjit-trace", "octaves": [{"min": 64, "calls": 1, "bytes": 3}]}' \
  '{"format": "clearjit-trace", "octaves": [{"min": 64, "calls": 1, "bytes": 99999999999999999999999}]}'; do
  printf '%s' "$bad" >"$WORK/bad.json"
  "$CLEARJIT" bench --mix "$WORK/bad.json" >/dev/null 2>"$WORK/err"
  rc=$?
  [[ $rc == 1 ]] && grep -q "clearjit bench --mix: .*bad.json: " "$WORK/err" ||
    fail "bad trace '$bad': exit $rc, $(cat "$WORK/err")"
done
"$CLEARJIT" bench --mix "$WORK" >/dev/null 2>"$WORK/err"; [[ $? == 1 ]] || fail "a directory"
"$CLEARJIT" bench --mix "$WORK/t.json" --seeds >/dev/null 2>&1; [[ $? == 2 ]] || fail "--mix --seeds"
set -e
echo "trace: histogram, JSON, exit status, bench --mix, bad input: passed"
