#!/usr/bin/env bash
# Set up, build, and run the whole test suite: a normal build, the worker pool under
# ThreadSanitizer, 30 s of fuzzing the profile loader and 10 s each the trace and raw readers, then the suite
# again under AddressSanitizer and UndefinedBehaviorSanitizer. The sources' formatting is checked
# first (clang-format), and the fuzzers' build is a library-only configuration
# (CLEARJIT_TOOLS=OFF: no CLI11, no Google Benchmark).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# Two tests per CPU: most of a test's time is process start-up (under the sanitizers above all)
# and waiting (a pipe without a writer, a child's exit); none asserts a timing.
TEST_JOBS=$((2 * $(nproc)))

install_missing_packages
"$CLEARJIT_ROOT/scripts/check-format.sh"
setup_and_build "$CLEARJIT_ROOT/build"
(cd "$CLEARJIT_ROOT/build" && ctest --output-on-failure -j "$TEST_JOBS")

echo "clearjit: the worker pool under ThreadSanitizer" >&2
mkdir -p "$CLEARJIT_ROOT/build-tsan"
clang++ -std=c++20 -O1 -g -fsanitize=thread -Wall -Wextra -I"$CLEARJIT_ROOT" \
  "$CLEARJIT_ROOT/jit/runtime/pool.cpp" "$CLEARJIT_ROOT/tests/tsan/pool_tsan.cpp" \
  -o "$CLEARJIT_ROOT/build-tsan/pool_tsan"
TSAN_OPTIONS=halt_on_error=1 "$CLEARJIT_ROOT/build-tsan/pool_tsan"

echo "clearjit: fuzzing the profile loader for ${CLEARJIT_FUZZ_SECONDS:-30} s" >&2
CC=clang CXX=clang++ cmake -S "$CLEARJIT_ROOT" -B "$CLEARJIT_ROOT/build-fuzz" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLEARJIT_FUZZ=ON -DCLEARJIT_TOOLS=OFF >/dev/null
cmake --build "$CLEARJIT_ROOT/build-fuzz" --target profile_fuzzer trace_json_fuzzer raw_json_fuzzer
CORPUS="$(mktemp -d)" TRACE_CORPUS="$(mktemp -d)" RAW_CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS" "$TRACE_CORPUS" "$RAW_CORPUS"' EXIT
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

echo "clearjit: the same suite under AddressSanitizer and UndefinedBehaviorSanitizer" >&2
# -O1 -g1: half the compile time of -O2 -g under the sanitizers (test_fleet.cpp 28 s against 57 s),
# with line numbers still in every report.
setup_and_build "$CLEARJIT_ROOT/build-sanitize" -DCLEARJIT_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
(cd "$CLEARJIT_ROOT/build-sanitize" && ctest --output-on-failure -j "$TEST_JOBS")
