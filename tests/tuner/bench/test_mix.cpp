// `clearjit bench --mix` (tuner/bench/mix.cpp): a trace's octaves measured at their mean sizes,
// warm below the L2 and cold above, and the table with its totals weighted by the recorded calls.
// The timings are not asserted, only that every row was timed.
#include "tests/support/support.hpp"
#include "tuner/bench/mix.hpp"

#include "clearjit/clearjit.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace cjit::detail::test {
namespace {

// One row of mix_text's table, as it prints it.
std::string row_line(const MixRow &r) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-22s %10llu %5s %12llu %12.1f %12.1f %7.2fx\n",
                octave_range(r.octave).c_str(), (unsigned long long)r.size,
                r.warm ? "warm" : "cold", (unsigned long long)r.calls, r.memset_ns, r.tuned_ns,
                r.memset_ns / r.tuned_ns);
  return line;
}

TEST(mix, TheTotalsAreWeightedByTheCallsAndThePreloadKeepsLibcBelowItsMinimum) {
  MixResult r;
  r.source = "p.toml";
  r.preload_min = 256;
  // 1000 calls of 200 B at 20 ns (10 through clearjit), 2 of 1.5 MiB at 100 us (50 us).
  r.rows = {{.octave = 8,
             .size = 200,
             .calls = 1000,
             .bytes = 200000,
             .warm = true,
             .memset_ns = 20,
             .tuned_ns = 10},
            {.octave = 21,
             .size = 3 << 19,
             .calls = 2,
             .bytes = 3 << 20,
             .warm = false,
             .memset_ns = 100000,
             .tuned_ns = 50000}};
  const std::string text = mix_text(r);
  EXPECT_TRUE(text.starts_with("the recorded mix: memset against the dispatcher (p.toml)")) << text;
  for (const MixRow &row : r.rows)
    EXPECT_NE(text.find(row_line(row)), std::string::npos) << row_line(row) << text;
  // memset 0.02 + 0.2 ms; clearjit 0.01 + 0.1 ms; the preload memset's 0.02 + clearjit's 0.1 ms.
  EXPECT_NE(text.find("weighted by the recorded calls: memset 0.220 ms, every call through "
                      "clearjit 0.110 ms (2.00x), as the preload does it (libc below 256 B) "
                      "0.120 ms (1.83x)\n"),
            std::string::npos)
      << text;
  r.preload_min = 0;
  EXPECT_NE(mix_text(r).find("(libc below 0 B) 0.110 ms (2.00x)"), std::string::npos);
}

TEST(mix, AnEmptyTraceSaysSo) {
  MixResult r;
  r.source = "p.toml";
  const std::string text = mix_text(r);
  EXPECT_TRUE(text.ends_with("no zero fills above 0 bytes in the trace\n")) << text;
  EXPECT_EQ(text.find("weighted"), std::string::npos);
}

TEST(mix, EachOctaveIsMeasuredAtItsMeanSize) {
  const std::filesystem::path path = std::filesystem::path(testing::TempDir()) / "mix.toml";
  write_file(path, profile_text(host_cpu(), {{4096, "mov"}, {0, "stosb"}}));
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(clearjit_open(path.c_str(), nullptr, 0),
                                                     clearjit_close);
  ASSERT_NE(cj, nullptr);
  Histogram h;
  h.calls[0] = 5;                       // memset(p, 0, 0): not measured
  h.calls[7] = 3, h.bytes[7] = 300;     // 100 B
  h.calls[13] = 2, h.bytes[13] = 10001; // 5000.5 B: 5001, rounded
  h.calls[14] = 1, h.bytes[14] = 9000;  // above the L2 below: cold
  const MixResult r = measure_mix(h, cj.get(), 8192, 1 << 20, 1);
  EXPECT_EQ(r.source, path.string());
  ASSERT_EQ(r.rows.size(), 3u);
  const uint64_t sizes[] = {100, 5001, 9000}, calls[] = {3, 2, 1};
  const int octaves[] = {7, 13, 14};
  for (size_t k = 0; k < 3; ++k) {
    const MixRow &row = r.rows[k];
    EXPECT_EQ(row.octave, octaves[k]);
    EXPECT_EQ(row.size, sizes[k]);
    EXPECT_EQ(row.calls, calls[k]);
    EXPECT_EQ(row.bytes, h.bytes[octaves[k]]);
    EXPECT_EQ(row.warm, k < 2) << row.size;
    EXPECT_GT(row.memset_ns, 0) << row.size;
    EXPECT_GT(row.tuned_ns, 0) << row.size;
  }
}

} // namespace
} // namespace cjit::detail::test
