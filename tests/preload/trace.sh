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
# The JSON as a reader sees it (python3's json): the octaves and counts the program made.
json_has() { # FILE PYTHON-EXPRESSION over the parsed object j
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}
octave() { echo "{'min': $1, 'max': $2, 'calls': $3, 'bytes': $4} in j['octaves']"; }
for check in "$(octave 64 127 3 300)" "$(octave 4096 8191 2 10000)" \
  "$(octave 1048576 2097151 1 1048576)" "j['fill_calls'] == 1" "j['fill_bytes'] == 300" \
  "j['processes'] == 1"; do
  json_has "$WORK/t.json" "$check" || { cat "$WORK/t.json" >&2; fail "not in the JSON: $check"; }
done
grep -q '^calls below 256 B: 3 of 6 (50.0%)' "$WORK/err" || { cat "$WORK/err" >&2; fail "text"; }
grep -q '^total: 6 zero fills, 1058876 bytes' "$WORK/err" || { cat "$WORK/err" >&2; fail "total"; }
# A forked child writes its own record, without the parent's counts (4 fills of 100 B, not 7).
"$CLEARJIT" trace --json "$WORK/f.json" -- "$CHECK" --pattern-fork >/dev/null 2>&1 || fail "fork"
for check in "$(octave 64 127 4 400)" "j['processes'] == 2"; do
  json_has "$WORK/f.json" "$check" || { cat "$WORK/f.json" >&2; fail "fork: not in the JSON: $check"; }
done
# A program that clears nothing large still writes its record (the preload generates no code).
"$CLEARJIT" trace -- /bin/true >/dev/null 2>"$WORK/err" || fail "/bin/true"
grep -q '), 1 process$' "$WORK/err" || { cat "$WORK/err" >&2; fail "/bin/true: no record"; }
# The program's status comes back; a program that is not there is the invocation's error (2).
set +e
"$CLEARJIT" trace -- sh -c 'exit 3' 2>/dev/null; [[ $? == 3 ]] || fail "exit status not passed on"
"$CLEARJIT" trace -- /nonexistent/program 2>"$WORK/err"; [[ $? == 2 ]] || fail "missing program"
grep -q "cannot run '/nonexistent/program'" "$WORK/err" || fail "missing program: $(cat "$WORK/err")"
"$CLEARJIT" trace 2>/dev/null; [[ $? == 2 ]] || fail "no program: not a usage error"
set -e
# bench --mix on the trace (one repetition: this checks it runs, not how fast).
"$CLEARJIT" bench --mix "$WORK/t.json" --repetitions 1 >"$WORK/mix" || fail "bench --mix"
grep -q '^weighted by the recorded calls: memset' "$WORK/mix" || { cat "$WORK/mix" >&2; fail "mix text"; }
[[ "$(grep -c 'warm\|cold' "$WORK/mix")" == 3 ]] || { cat "$WORK/mix" >&2; fail "mix rows"; }
# Bad input: clear errors, no crash, exit 2 (a malformed input file is the invocation's).
set +e
for bad in '' 'garbage' '{"format": "clearjit-trace"}' '{"format": "x", "octaves": []}' \
  '{"format": "clearjit-trace", "octaves": [{"min": 3, "calls": 1, "bytes": 3}]}' \
  '{"format": "clearjit-trace", "octaves": [{"min": 64, "calls": 1, "bytes": 3}]}' \
  '{"format": "clearjit-trace", "octaves": [{"min": 64, "calls": 1, "bytes": 99999999999999999999999}]}'; do
  printf '%s' "$bad" >"$WORK/bad.json"
  "$CLEARJIT" bench --mix "$WORK/bad.json" >/dev/null 2>"$WORK/err"
  rc=$?
  [[ $rc == 2 ]] && grep -q "clearjit bench --mix: .*bad.json: " "$WORK/err" ||
    fail "bad trace '$bad': exit $rc, $(cat "$WORK/err")"
done
"$CLEARJIT" bench --mix "$WORK" >/dev/null 2>"$WORK/err"; [[ $? == 2 ]] || fail "a directory"
"$CLEARJIT" bench --mix "$WORK/t.json" --seeds >/dev/null 2>&1; [[ $? == 2 ]] || fail "--mix --seeds"
set -e
echo "trace: histogram, JSON, exit status, bench --mix, bad input: passed"
