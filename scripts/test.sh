#!/usr/bin/env bash
# Set up, build, and run the whole test suite: a normal build, the worker pool under
# ThreadSanitizer, 30 s of fuzzing the profile loader and 10 s each the trace and raw readers, then the suite
# again under AddressSanitizer and UndefinedBehaviorSanitizer. The sources' formatting is checked
# first (clang-format), and the fuzzers' build is a library-only configuration
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
part "the worker pool under TSan"

echo "clearjit: the worker pool under ThreadSanitizer" >&2
mkdir -p "$CLEARJIT_ROOT/build-tsan"
clang++ -std=c++20 -O1 -g -fsanitize=thread -Wall -Wextra -I"$CLEARJIT_ROOT" \
  "$CLEARJIT_ROOT/jit/runtime/pool.cpp" "$CLEARJIT_ROOT/tests/tsan/pool_tsan.cpp" \
  -o "$CLEARJIT_ROOT/build-tsan/pool_tsan"
TSAN_OPTIONS=halt_on_error=1 "$CLEARJIT_ROOT/build-tsan/pool_tsan"

part "the fuzzers' build"
echo "clearjit: fuzzing the profile loader for ${CLEARJIT_FUZZ_SECONDS:-30} s" >&2
CC=clang CXX=clang++ cmake -S "$CLEARJIT_ROOT" -B "$CLEARJIT_ROOT/build-fuzz" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLEARJIT_FUZZ=ON -DCLEARJIT_TOOLS=OFF >/dev/null
cmake --build "$CLEARJIT_ROOT/build-fuzz" --target profile_fuzzer trace_json_fuzzer raw_json_fuzzer
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

part "the ASan and UBSan build"
echo "clearjit: the same suite under AddressSanitizer and UndefinedBehaviorSanitizer" >&2
# Clang at -O1, -g1: the sanitizers' build in well under GCC's time, line numbers still in every
# report.
setup_and_build "$CLEARJIT_ROOT/build-sanitize" -DCLEARJIT_SANITIZE=ON \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
part "the suite under ASan and UBSan"
(cd "$CLEARJIT_ROOT/build-sanitize" && ctest --output-on-failure -j "$TEST_JOBS")
part ""
