#!/usr/bin/env bash
# Set up, build, and run the whole test suite: a normal build; a ThreadSanitizer build (the
# worker pool, the parallel clear, the preload's first calls); 30 s of fuzzing the profile
# loader, 10 s each the trace and raw readers, and 30 s of clears against memset (random
# profiles, kernels, sizes and offsets); then the suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer, the preload's test among it. The sources' formatting is checked
# first (clang-format); the TSan and fuzzers' builds are library-only configurations
# (CLEARJIT_TOOLS=OFF: no CLI11, no Google Benchmark). Each part's time is listed at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# Two tests per CPU: most of a test's time is process start-up (under the sanitizers above all)
# and waiting (a pipe without a writer, a child's exit); none asserts a timing.
TEST_JOBS=$((2 * $(nproc)))

# Each part's wall time, listed at the end, also after a failure: CI must stay under 30 minutes.
part_name="set-up and the format check" part_started=$SECONDS parts=()
CORPUS="" TRACE_CORPUS="" RAW_CORPUS="" # the fuzzers' corpora, removed at exit
part() { # NAME: the part running ends, NAME begins ("" at the end)
  parts+=("$(printf '%-44s %5d s' "$part_name" $((SECONDS - part_started)))")
  part_name="$1" part_started=$SECONDS
}
at_exit() {
  local rc=$?
  [[ -z $part_name ]] || part "" # the part that failed, as far as it got
  printf 'clearjit: %s\n' "${parts[@]}" "$(printf '%-44s %5d s' total "$SECONDS")" >&2
  rm -rf "$CORPUS" "$TRACE_CORPUS" "$RAW_CORPUS"
  return $rc
}
trap at_exit EXIT

install_missing_packages
"$CLEARJIT_ROOT/scripts/check-format.sh"
part "build"
setup_and_build "$CLEARJIT_ROOT/build"
part "the suite"
(cd "$CLEARJIT_ROOT/build" && ctest --output-on-failure -j "$TEST_JOBS")
part "the TSan build"

echo "clearjit: the worker pool, the parallel clear and the preload under ThreadSanitizer" >&2
TSAN="$CLEARJIT_ROOT/build-tsan"
setup_and_build "$TSAN" -DCLEARJIT_TSAN=ON -DCLEARJIT_TOOLS=OFF \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
part "the races under TSan"
TSAN_OPTIONS=halt_on_error=1 "$TSAN/pool_tsan"
TSAN_OPTIONS=halt_on_error=1 "$TSAN/parallel_tsan"
# The preload's first calls, as tests/preload/run.sh makes them: threads racing to the first
# large fill, a forked child's, a signal handler's, one with the signal blocked, a cancellation
# pending, the checker's sweep (from threads once the code is there); then the sweep with the
# code generated at start. The runtime's malloc is not glibc's, so the lazy path is asked for
# (CLEARJIT_PRELOAD_EAGER=0), and its fatal-signal handlers (SA_NODEFER) are left out: beside
# them the lazy path never generates. Each run must have generated the code.
for run in --race --fork-first --signal-first --blocked --cancel-pending "" eager; do
  TSAN_OPTIONS=halt_on_error=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0 \
    CLEARJIT_PRELOAD_EAGER=$([[ $run == eager ]] && echo 1 || echo 0) CLEARJIT_VERBOSE=1 \
    LD_PRELOAD="$TSAN/libclearjit-preload.so" "$TSAN/preload_check_tsan" ${run:+${run/eager/}} \
    >/dev/null 2>"$TSAN/preload.err" &&
    grep -q '^clearjit-preload: clearjit from .* (set up in' "$TSAN/preload.err" ||
    { cat "$TSAN/preload.err" >&2; echo "clearjit: the preload under TSan: ${run:-the sweep}" >&2; exit 1; }
done

part "the fuzzers' build"
echo "clearjit: fuzzing the profile loader for ${CLEARJIT_FUZZ_SECONDS:-30} s" >&2
CC=clang CXX=clang++ cmake -S "$CLEARJIT_ROOT" -B "$CLEARJIT_ROOT/build-fuzz" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLEARJIT_FUZZ=ON -DCLEARJIT_TOOLS=OFF >/dev/null
cmake --build "$CLEARJIT_ROOT/build-fuzz" --target profile_fuzzer trace_json_fuzzer raw_json_fuzzer clear_fuzzer
part "fuzzing"
CORPUS="$(mktemp -d)" TRACE_CORPUS="$(mktemp -d)" RAW_CORPUS="$(mktemp -d)"
cp "$CLEARJIT_ROOT"/tests/profiles/good/* "$CLEARJIT_ROOT"/tests/profiles/bad/* "$CORPUS"/
"$CLEARJIT_ROOT/build-fuzz/profile_fuzzer" -max_total_time="${CLEARJIT_FUZZ_SECONDS:-30}" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 "$CORPUS" 2>&1 | tail -n 12

echo "clearjit: fuzzing the trace reader for ${CLEARJIT_TRACE_FUZZ_SECONDS:-10} s" >&2
cp "$CLEARJIT_ROOT"/fuzz/trace_corpus/* "$TRACE_CORPUS"/
"$CLEARJIT_ROOT/build-fuzz/trace_json_fuzzer" -max_total_time="${CLEARJIT_TRACE_FUZZ_SECONDS:-10}" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -dict="$CLEARJIT_ROOT/fuzz/trace_json.dict" \
  "$TRACE_CORPUS" 2>&1 | tail -n 12

echo "clearjit: fuzzing the raw measurements' reader for ${CLEARJIT_RAW_FUZZ_SECONDS:-10} s" >&2
cp "$CLEARJIT_ROOT"/fuzz/raw_corpus/* "$RAW_CORPUS"/
"$CLEARJIT_ROOT/build-fuzz/raw_json_fuzzer" -max_total_time="${CLEARJIT_RAW_FUZZ_SECONDS:-10}" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -dict="$CLEARJIT_ROOT/fuzz/trace_json.dict" \
  "$RAW_CORPUS" 2>&1 | tail -n 12

echo "clearjit: fuzzing clears against memset for ${CLEARJIT_CLEAR_FUZZ_SECONDS:-30} s" >&2
"$CLEARJIT_ROOT/build-fuzz/clear_fuzzer" -max_total_time="${CLEARJIT_CLEAR_FUZZ_SECONDS:-30}" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12

part "the ASan and UBSan build"
echo "clearjit: the same suite under AddressSanitizer and UndefinedBehaviorSanitizer" >&2
# Clang at -O1, -g1: the sanitizers' build in well under GCC's time, line numbers still in every
# report.
# A tree configured with another compiler (GCC's, up to cc9014b) starts afresh: a change of
# compiler makes CMake drop its cache, and with it the options.
if [[ -f "$CLEARJIT_ROOT/build-sanitize/CMakeCache.txt" ]] &&
  ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++$' "$CLEARJIT_ROOT/build-sanitize/CMakeCache.txt"; then
  rm -rf "$CLEARJIT_ROOT/build-sanitize"
fi
setup_and_build "$CLEARJIT_ROOT/build-sanitize" -DCLEARJIT_SANITIZE=ON \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
part "the suite under ASan and UBSan"
(cd "$CLEARJIT_ROOT/build-sanitize" && ctest --output-on-failure -j "$TEST_JOBS")
part ""
