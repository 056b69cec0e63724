// `clearjit bench`'s engine (tuner/bench/bench.hpp): its text from results made by hand.
#include "tuner/bench/bench.hpp"

#include <gtest/gtest.h>

using namespace cjit;
using namespace cjit::detail;

namespace {

const uint64_t KiB = 1024;

} // namespace

// The cached rows have a section of their own.
TEST(bench_Text, CachedRowsHaveTheirOwnSectionAndStayOutOfTheColdMeans) {
  BenchResult r;
  r.source = "test";
  auto row = [](Pattern p, double tuned, double memset) {
    BenchRow x;
    x.size = 64 * KiB;
    x.intent = Intent::stream;
    x.pattern = p;
    x.tuned_kernel = "clzero";
    x.oracle_kernel = "clzero";
    x.tuned = x.oracle = tuned;
    x.memset = memset;
    return x;
  };
  r.rows = {row(Pattern::scattered, 40, 20), row(Pattern::consecutive, 40, 20),
            row(Pattern::cached, 10, 40)};
  const std::string text = bench_text(r);
  EXPECT_NE(text.find("stream (clear only), cached destinations (half the L2 cleared piece by"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("stream, cached: geometric mean vs memset 0.25x, worst vs memset 0.25x"),
            std::string::npos)
      << text;
  // Both cold patterns gained 2x; the cached row's 0.25x is not in their mean.
  EXPECT_NE(text.find("stream, both patterns: geometric mean vs memset 2.00x"), std::string::npos)
      << text;
}
