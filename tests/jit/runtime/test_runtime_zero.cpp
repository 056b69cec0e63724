// clearjit_zero in fresh processes: first calls from many threads at once, what verbose says,
// and a bad profile falling back to the built-in default.
//
// clearjit_zero initialises once per process, so each test runs it in a re-executed child
// (death-test style "threadsafe"), where the first call really happens there. The child
// reports problems on stderr and through its exit code.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <latch>
#include <string>
#include <thread>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

//! Pattern-fills, clears with clearjit_zero and checks one buffer; "" or what went wrong.
std::string zero_and_check(uint8_t *buf, size_t cap, size_t n, size_t off) {
  test::fill_pattern(buf, cap);
  clearjit_zero(buf + off, n);
  if (size_t i = first_nonzero(buf + off, n); i != n)
    return "n=" + std::to_string(n) + " off=" + std::to_string(off) + ": byte " +
           std::to_string(i) + " not zero";
  if (test::first_pattern_mismatch(buf, off) != off ||
      test::first_pattern_mismatch(buf + off + n, cap - off - n, off + n) != cap - off - n)
    return "n=" + std::to_string(n) + " off=" + std::to_string(off) +
           ": a byte outside the range changed";
  return {};
}

//! `threads` threads wait at a latch, then all call clearjit_zero first; "" or the failures.
std::string zero_from_many_threads(int threads) {
  static const size_t kSizes[] = {0,    1,    7,    63,    255,   256,           300,
                                  2047, 2048, 4099, 65600, k1M64, (4u << 20) + 3};
  std::latch start(threads);
  std::vector<std::string> errors(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const size_t cap = (4u << 20) + 256;
      std::vector<uint8_t> buf(cap);
      const size_t first = kSizes[size_t(t) % std::size(kSizes)], off = size_t(t) % 64;
      test::fill_pattern(buf.data(), cap);
      start.arrive_and_wait();
      clearjit_zero(buf.data() + off, first); // the first call in the process, from every thread
      std::string e;
      if (size_t i = first_nonzero(buf.data() + off, first); i != first)
        e = "thread " + std::to_string(t) + ": first clear of " + std::to_string(first) +
            " bytes: byte " + std::to_string(i) + " not zero";
      for (size_t k = 0; e.empty() && k < std::size(kSizes); ++k)
        e = zero_and_check(buf.data(), kSizes[k] + 128, kSizes[k], (k * 13 + size_t(t)) % 64);
      errors[size_t(t)] = e;
    });
  for (auto &th : pool)
    th.join();
  std::string out;
  for (const auto &e : errors)
    if (!e.empty()) out += e + "\n";
  return out;
}

TEST(runtime_ZeroDeathTest, ManyThreadsCallFirstAtOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Three fresh processes: the race on the lazy initialisation differs each time.
  for (int round = 0; round < 3; ++round)
    EXPECT_EXIT(
        {
          unsetenv("CLEARJIT_VERBOSE");
          child_exit(zero_from_many_threads(16));
        },
        ::testing::ExitedWithCode(0), "^$") // not verbose: nothing on stderr
        << "round " << round;
}

TEST(runtime_ZeroDeathTest, VerboseSaysOnceWhatItChose) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::string error;
        {
          TempDir dir;
          const std::string path = dir / "zero_profile.toml";
          write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
          setenv("CLEARJIT_PROFILE", path.c_str(), 1);
          setenv("CLEARJIT_VERBOSE", "1", 1);
          error = zero_from_many_threads(8); // one line even when several threads race
        }
        child_exit(error);
      },
      ::testing::ExitedWithCode(0),
      "^clearjit: clearjit_zero uses \\$CLEARJIT_PROFILE \\([^\n]*/zero_profile\\.toml\\)\n$");
}

TEST(runtime_ZeroDeathTest, BadProfileFallsBackToBuiltInAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string bad = (kRuntimeProfiles / "bad.toml").string();
  EXPECT_EXIT(
      {
        setenv("CLEARJIT_PROFILE", bad.c_str(), 1);
        setenv("CLEARJIT_VERBOSE", "1", 1);
        child_exit(zero_from_many_threads(4));
      },
      ::testing::ExitedWithCode(0),
      "^clearjit: clearjit_zero uses built-in default, because [^\n]*/bad\\.toml:15: "
      "dispatch\\.reuse\\[1\\]\\.below: [^\n]*\n$");
}

} // namespace
} // namespace cjit::detail
