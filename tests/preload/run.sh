#!/usr/bin/env bash
# The preload under real use: the checker with and without it, silence unless CLEARJIT_VERBOSE=1,
# CLEARJIT_PRELOAD_MIN's values, no generator beside it, a bad profile, switched off, a `libc`
# kernel, no executable pages (a seccomp filter), the lazy path (when the code is generated:
# never for small fills, not in a signal handler, SA_NODEFER ones too, once when threads race, in
# a forked child, on a small stack, with a cancellation pending), the code generated at start
# (CLEARJIT_PRELOAD_EAGER=1, or under an allocator whose calloc zero-fills with its lock held, in
# either preload order), ordinary programs (shell, coreutils, Python)
# starting under it.
# Usage: run.sh libclearjit-preload.so preload_check lock_allocator.so
set -euo pipefail
PRELOAD="$1" CHECK="$2" ALLOCATOR="$3"
# CLEARJIT_TEST_RUNTIME (the sanitizer build's, tests/CMakeLists.txt): the sanitizers' runtime,
# preloaded before the preload into every program. Its malloc is not glibc's, so the preload
# would generate its code at start: the checks of the lazy path ask for that path (LAZY).
RUNTIME="${CLEARJIT_TEST_RUNTIME:-}"
PRELOADS="${RUNTIME:+$RUNTIME:}$PRELOAD"
LAZY=()
[[ -z $RUNTIME ]] || LAZY=(CLEARJIT_PRELOAD_EAGER=0)
WORK="$(mktemp -d)"
# The runtime's reports go to files ($WORK/sanitizer.PID), so that stderr is the preload's alone;
# at exit any report fails the test, but the one warning every use of swapcontext (the
# preload's generator runs on a stack of its own) gives.
sanitizer_reports() {
  local f
  for f in "$WORK"/sanitizer.*; do
    [[ -e $f ]] || continue
    grep -v "WARNING: ASan doesn't fully support makecontext/swapcontext" "$f" || true
  done
}
at_exit() {
  local rc=$? reports
  reports="$(sanitizer_reports)"
  [[ -z $reports ]] || { printf 'preload: the sanitizers reported:\n%s\n' "$reports" >&2; rc=1; }
  rm -rf "$WORK"
  exit $rc
}
trap at_exit EXIT
[[ -z $RUNTIME ]] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$WORK/sanitizer"
export HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config"
unset CLEARJIT_PROFILE CLEARJIT_VERBOSE CLEARJIT_TRACE CLEARJIT_PRELOAD CLEARJIT_PRELOAD_MIN \
  CLEARJIT_DUMP CLEARJIT_PERF_MAP CLEARJIT_PRELOAD_EAGER
fail() { echo "preload: $*" >&2; exit 1; }

"$CHECK" >/dev/null || fail "checker fails without the preload"
LD_PRELOAD="$PRELOADS" "$CHECK" --expect-preload >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err" >&2; fail "checker"; }
[[ ! -s "$WORK/err" ]] || fail "printed on stderr without CLEARJIT_VERBOSE: $(cat "$WORK/err")"
# Every size through clearjit, and every size through libc.
LD_PRELOAD="$PRELOADS" CLEARJIT_PRELOAD_MIN=0 "$CHECK" --expect-preload >/dev/null || fail "CLEARJIT_PRELOAD_MIN=0"
LD_PRELOAD="$PRELOADS" CLEARJIT_PRELOAD=off "$CHECK" --expect-preload >/dev/null || fail "CLEARJIT_PRELOAD=off"
# CLEARJIT_PRELOAD and CLEARJIT_VERBOSE as switch_word reads them (jit/profile/env_switch.hpp):
# 0/1, off/on, no/yes, false/true in any case; anything else keeps the default, said once.
for w in off OFF 0 no No false FALSE; do
  LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=yes CLEARJIT_PRELOAD=$w /bin/true 2>"$WORK/err"
  [[ $(cat "$WORK/err") == "clearjit-preload: off" ]] || fail "CLEARJIT_PRELOAD=$w: $(cat "$WORK/err")"
done
for w in on ON 1 yes True; do
  LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=TRUE CLEARJIT_PRELOAD=$w /bin/true 2>"$WORK/err"
  grep -q "^clearjit-preload: on from" "$WORK/err" || fail "CLEARJIT_PRELOAD=$w: $(cat "$WORK/err")"
done
LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=1 CLEARJIT_PRELOAD=disable /bin/true 2>"$WORK/err"
grep -q "^clearjit-preload: CLEARJIT_PRELOAD=disable is not on or off (0/1, off/on, no/yes, false/true), taken as on$" \
  "$WORK/err" && grep -q "^clearjit-preload: on from" "$WORK/err" ||
  fail "CLEARJIT_PRELOAD=disable: $(cat "$WORK/err")"
for w in 0 off No FALSE; do
  LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=$w /bin/true 2>"$WORK/err"
  [[ ! -s "$WORK/err" ]] || fail "CLEARJIT_VERBOSE=$w: $(cat "$WORK/err")"
done
# Said once, also where the generator, which reads it too, is loaded at start.
for eager in 0 1; do
  LD_PRELOAD="$PRELOADS" CLEARJIT_PRELOAD_EAGER=$eager CLEARJIT_VERBOSE=2 /bin/true 2>"$WORK/err"
  [[ $(cat "$WORK/err") == "clearjit-preload: CLEARJIT_VERBOSE=2 is not on or off (0/1, off/on, no/yes, false/true), taken as off" ]] ||
    fail "CLEARJIT_VERBOSE=2, CLEARJIT_PRELOAD_EAGER=$eager: $(cat "$WORK/err")"
done
# CLEARJIT_PRELOAD_MIN in the one size grammar (size_text.hpp); anything else keeps 16 KiB, said.
for min in 0=0 4096=4096 64K=65536 64k=65536 64KiB=65536 3M=3145728 3m=3145728 3MiB=3145728 \
  1G=1073741824 1g=1073741824 1GiB=1073741824 x=16384 K=16384 4KB=16384 4kb=16384 4MB=16384 \
  -1=16384 18446744073709551616=16384 17179869184G=16384; do
  LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=1 CLEARJIT_PRELOAD_MIN="${min%=*}" /bin/true 2>"$WORK/err"
  grep -q "^clearjit-preload: on from ${min#*=} bytes" "$WORK/err" || fail "MIN=${min%=*}: $(cat "$WORK/err")"
  [[ ${min#*=} != 16384 ]] || grep -q "CLEARJIT_PRELOAD_MIN=${min%=*} is not a size" "$WORK/err" ||
    fail "MIN=${min%=*}: not said: $(cat "$WORK/err")"
done
LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=1 CLEARJIT_PRELOAD_MIN=4KB /bin/true 2>"$WORK/err"
grep -q "write 4K or 4KiB: clearjit sizes are powers of 1024" "$WORK/err" ||
  fail "MIN=4KB: no hint: $(cat "$WORK/err")"
# Without the generator beside it: everything to libc, said under CLEARJIT_VERBOSE=1.
mkdir "$WORK/alone"
cp "$PRELOAD" "$WORK/alone/"
LD_PRELOAD="${RUNTIME:+$RUNTIME:}$WORK/alone/$(basename "$PRELOAD")" CLEARJIT_VERBOSE=1 "$CHECK" >/dev/null 2>"$WORK/err" ||
  fail "without the generator"
grep -q '^clearjit-preload: off (.*libclearjit-preload-generator.so' "$WORK/err" ||
  fail "without the generator: not said: $(cat "$WORK/err")"
# A bad profile: the built-in default, silently.
echo 'format = "bad"' >"$WORK/bad.toml"
LD_PRELOAD="$PRELOADS" CLEARJIT_PROFILE="$WORK/bad.toml" "$CHECK" >/dev/null 2>"$WORK/err" || fail "bad profile"
[[ ! -s "$WORK/err" ]] || fail "printed with a bad profile: $(cat "$WORK/err")"
LD_PRELOAD="$PRELOADS" CLEARJIT_VERBOSE=1 CLEARJIT_PROFILE="$WORK/bad.toml" "$CHECK" >/dev/null 2>"$WORK/err"
grep -q "clearjit-preload uses built-in default, because" "$WORK/err" || fail "CLEARJIT_VERBOSE=1 says nothing: $(cat "$WORK/err")"
# A `libc` kernel calls memset, which under the preload is the preload's: it must reach libc's
# (it recursed until the stack ran out).
printf '%s\n' 'format = 1' '[host]' 'vendor = "AuthenticAMD"' 'family = 0' 'model = 0' \
  '[[dispatch.reuse]]' 'kernel = "libc"' >"$WORK/libc.toml"
LD_PRELOAD="$PRELOADS" CLEARJIT_PROFILE="$WORK/libc.toml" "$CHECK" --expect-preload >/dev/null ||
  fail "a profile of the libc kernel"
# The same for memset's small path and its bands, with every size through clearjit.
printf '%s\n' '[small.reuse]' 'strategy = "libc"' 'max = 256' >>"$WORK/libc.toml"
LD_PRELOAD="$PRELOADS" CLEARJIT_PRELOAD_MIN=0 CLEARJIT_PROFILE="$WORK/libc.toml" "$CHECK" \
  --expect-preload >/dev/null || fail "a profile whose small path is memset"
printf '%s\n' 'format = 1' '[host]' 'vendor = "AuthenticAMD"' 'family = 0' 'model = 0' \
  '[[dispatch.reuse]]' 'kernel = "stosb"' '[small.reuse]' 'strategy = "tree"' 'max = 256' \
  'bands = [{ below = 64, strategy = "libc" }]' >"$WORK/bands.toml"
LD_PRELOAD="$PRELOADS" CLEARJIT_PRELOAD_MIN=0 CLEARJIT_PROFILE="$WORK/bands.toml" "$CHECK" \
  --expect-preload >/dev/null || fail "a profile whose small path has a band of memset"
# Where no code can be mapped (memfd_create and mprotect to PROT_EXEC denied): every fill goes to
# libc, and CLEARJIT_VERBOSE=1 says why, once.
env LD_PRELOAD="$PRELOADS" "${LAZY[@]}" CLEARJIT_VERBOSE=1 "$CHECK" --no-exec-pages >/dev/null \
  2>"$WORK/err" || { cat "$WORK/err" >&2; fail "no executable pages"; }
grep -q '^clearjit-preload: off (no dispatcher)' "$WORK/err" &&
  [[ $(grep -c '^clearjit: no generated code here (cannot map generated code: mprotect PROT_EXEC' \
    "$WORK/err") == 1 ]] || fail "no executable pages: not said once: $(cat "$WORK/err")"
# From 256 MiB up, the pages of new memory never faulted in are left to the kernel
# (untouched.hpp): of 300 MiB with 3 pages written, about 12 KiB are in memory after the clear.
# CLEARJIT_PRELOAD_UNTOUCHED=0 and plain memset write them all. Exact in every case.
untouched_kib() { # ENV...: the KiB in memory after --untouched $UNTOUCHED_MIB under ENV
  local out
  out=$(env "$@" "$CHECK" --untouched "${UNTOUCHED_MIB:-300}") || fail "untouched under $*: not cleared"
  [[ "$out" =~ ^rss\ ([0-9]+)$ ]] || fail "untouched under $*: $out"
  echo "${BASH_REMATCH[1]}"
}
(($(untouched_kib LD_PRELOAD="$PRELOADS") < 1024)) || fail "untouched pages written"
(($(untouched_kib LD_PRELOAD="$PRELOADS" CLEARJIT_PRELOAD_UNTOUCHED=0) >= 300 * 1024)) ||
  fail "CLEARJIT_PRELOAD_UNTOUCHED=0: untouched pages not written"
(($(untouched_kib CLEARJIT_UNUSED=1) >= 300 * 1024)) || fail "memset: untouched pages not written"
# A profile's own untouched=skip works below 256 MiB too (64 MiB here, which the preload's rule
# writes); CLEARJIT_PRELOAD_UNTOUCHED=0 takes it away.
printf '%s\n' 'format = 1' '[host]' 'vendor = "AuthenticAMD"' 'family = 0' 'model = 0' \
  '[[dispatch.reuse]]' 'kernel = "stosb:untouched=skip"' >"$WORK/skip.toml"
(($(UNTOUCHED_MIB=64 untouched_kib LD_PRELOAD="$PRELOADS") >= 64 * 1024)) ||
  fail "64 MiB under the built-in: untouched pages not written"
(($(UNTOUCHED_MIB=64 untouched_kib LD_PRELOAD="$PRELOADS" CLEARJIT_PROFILE="$WORK/skip.toml") < 1024)) ||
  fail "a profile's untouched=skip: untouched pages written"
(($(UNTOUCHED_MIB=64 untouched_kib LD_PRELOAD="$PRELOADS" CLEARJIT_PROFILE="$WORK/skip.toml" \
  CLEARJIT_PRELOAD_UNTOUCHED=0) >= 64 * 1024)) ||
  fail "CLEARJIT_PRELOAD_UNTOUCHED=0: a profile's untouched=skip kept"
# The lazy path: the code is generated by the first zero fill of CLEARJIT_PRELOAD_MIN bytes or
# more, once, never with a handled signal blocked (maybe in its handler). CLEARJIT_VERBOSE=1 names
# the fill that generated it; CLEARJIT_DUMP shows whether anything was generated.
verbose() { # PROGRAM ARGS...: run under the preload, CLEARJIT_VERBOSE=1, stderr in $WORK/err
  local lazy=("${LAZY[@]}")
  [[ -z ${CLEARJIT_PRELOAD_EAGER+set} ]] || lazy=() # the caller's choice
  env LD_PRELOAD="$PRELOADS" "${lazy[@]}" CLEARJIT_VERBOSE=1 "$@" >/dev/null 2>"$WORK/err" ||
    { cat "$WORK/err" >&2; fail "$*"; }
}
generated() { grep -c '^clearjit-preload: clearjit from 16384 bytes (set up in' "$WORK/err" || true; }
at() { grep -q "at a zero fill of $1 bytes)\$" "$WORK/err"; }
said() { fail "$1: $(cat "$WORK/err")"; }
mkdir "$WORK/dump"
for program in /bin/true "$CHECK"; do # the checker makes small fills only
  args=(); [[ "$program" == "$CHECK" ]] && args=(--small-only)
  CLEARJIT_DUMP="$WORK/dump" verbose "$program" "${args[@]}"
  grep -q '^clearjit-preload: on from 16384 bytes, untouched pages left .*, code generated at' \
    "$WORK/err" || said "$program"
  [[ $(generated) == 0 && -z "$(ls "$WORK/dump")" ]] || said "$program ${args[*]}: generated code"
done
CLEARJIT_DUMP="$WORK/dump" verbose "$CHECK" --race
[[ $(generated) == 1 && -n "$(ls "$WORK/dump")" ]] || said "--race: nothing in CLEARJIT_DUMP"
verbose "$CHECK" --signal-first
[[ $(generated) == 1 ]] && at 65541 || said "--signal-first: generated in the handler, or not after"
verbose "$CHECK" --blocked
[[ $(generated) == 1 ]] && at 70001 || said "--blocked: generated with SIGUSR1 blocked, or not after"
verbose "$CHECK" --blocked-always
[[ $(generated) == 0 ]] && grep -q '^clearjit-preload: off (at each of 16 zero fills' "$WORK/err" ||
  said "--blocked-always: not off after 16 tries"
# A handler installed with SA_NODEFER may run with its signal unblocked, inside malloc: while
# one is installed, no large fill generates the code (off after 16 tries); 30 runs of a handler
# clearing 64 KiB every 50 us beside a malloc loop all pass. CLEARJIT_PRELOAD_EAGER=1 generates
# the code at start, before any handler: the handler's fills then take it.
verbose "$CHECK" --nodefer
[[ $(generated) == 0 ]] && grep -q '^clearjit-preload: off (at each of 16 zero fills' "$WORK/err" ||
  said "--nodefer: generated with an SA_NODEFER handler installed"
for i in $(seq 30); do
  env LD_PRELOAD="$PRELOADS" "${LAZY[@]}" "$CHECK" --nodefer 2>"$WORK/err" || said "--nodefer: run $i of 30"
done
for i in $(seq 5); do
  CLEARJIT_PRELOAD_EAGER=1 verbose "$CHECK" --nodefer
  grep -q '^clearjit-preload: clearjit from 16384 bytes (set up in .* ms, at start, before any fill of 16384 bytes)$' \
    "$WORK/err" || said "--nodefer, CLEARJIT_PRELOAD_EAGER=1: not generated at start"
done
# An allocator whose calloc zero-fills through memset with its own lock held, in either preload
# order: under another malloc than glibc's the code is generated at start, so no fill re-enters
# it (the allocator aborts if one does). CLEARJIT_PRELOAD_EAGER=0 keeps the lazy path (not run:
# it would re-enter).
# Not under the sanitizers' runtime, whose malloc and calloc come first: the allocator's never run.
if [[ -z $RUNTIME ]]; then
  for order in "$ALLOCATOR:$PRELOAD" "$PRELOAD:$ALLOCATOR"; do
    timeout 60 env LD_PRELOAD="$order" CLEARJIT_VERBOSE=1 "$CHECK" --calloc >/dev/null 2>"$WORK/err" ||
      said "--calloc under $order"
    grep -q "^clearjit-preload: on from 16384 bytes, .*code generated at start (malloc is not glibc's" \
      "$WORK/err" && [[ $(grep -c '(set up in .* ms, at start,' "$WORK/err") == 1 ]] ||
      said "--calloc under $order: not generated at start"
    timeout 60 env LD_PRELOAD="$order" "$CHECK" >/dev/null 2>"$WORK/err" || said "checker under $order"
  done
fi
verbose "$CHECK" --fork-first
[[ $(generated) == 2 ]] && at 81920 && at 81921 || said "--fork-first: not generated by child and parent"
for i in 1 2 3 4 5; do
  verbose "$CHECK" --race
  [[ $(generated) == 1 ]] || said "--race: generated $(generated) times"
done
env LD_PRELOAD="$PRELOADS" "${LAZY[@]}" CLEARJIT_PROFILE="$WORK/libc.toml" "$CHECK" --small-stack ||
  fail "the first large clear on a thread with the smallest stack"
env LD_PRELOAD="$PRELOADS" "${LAZY[@]}" "$CHECK" --cancel-pending || fail "the first large clear with a cancellation pending"
# Ordinary programs start and run under it, silently.
out="$(LD_PRELOAD="$PRELOADS" sh -c 'echo a | tr a b; printf "%s\n" "$(seq 3 | sort -r | head -1)"' 2>&1)"
[[ "$out" == $'b\n3' ]] || fail "sh/tr/seq/sort: '$out'"
if command -v python3 >/dev/null; then
  out="$(LD_PRELOAD="$PRELOADS" python3 -c 'print(len(bytearray(1 << 20)), sum(bytes(5000)))' 2>&1)"
  [[ "$out" == "1048576 0" ]] || fail "python3: '$out'"
fi
echo "preload: checker (default, MIN=0, off), switch words, MIN values, no generator, bad profile, verbose," \
  "libc kernel, lazy path, SA_NODEFER handler, allocator, sh, python3: passed"
