// The chooser is a pure function of measurements: tested here on synthetic data (and the
// reports written from them).
#include "tests/support/candidate_text.hpp"
#include "tuner/choose/choose.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/tune.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

using namespace cjit;
using namespace cjit::detail;

namespace {

const uint64_t KiB = 1024, MiB = 1024 * KiB;

} // namespace

TEST(choose, SummarizeMedianAndCv) {
  Measurement m{candidate("x"), 1, Intent::reuse, {10, 12, 11, 100, 9}, 0, 0};
  summarize(m);
  EXPECT_DOUBLE_EQ(m.gbps, 11); // the outlier does not move the median
  EXPECT_GT(m.cv, 0.5);
}

TEST(choose, DispatchTableMergesWinnersAndSplitsAtTheGeometricMiddle) {
  const std::vector<Winner> ws{{4 * KiB, candidate("avx2"), 50},
                               {16 * KiB, candidate("avx2"), 50},
                               {64 * KiB, candidate("ntavx2"), 60},
                               {256 * KiB, candidate("ntavx2"), 60}};
  auto table = dispatch_table(ws);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(format_spec(table[0].kernel), "avx2");
  EXPECT_EQ(table[0].below, 32 * KiB); // sqrt(16K * 64K)
  EXPECT_EQ(format_spec(table[1].kernel), "ntavx2");
  EXPECT_EQ(table[1].below, 0u); // the last class is unbounded
  EXPECT_NEAR(table[1].gbps, 60, 0.1);
}

TEST(choose, BoundariesAreRounded) {
  EXPECT_EQ(round_boundary(1000), 1024u);
  EXPECT_EQ(round_boundary(10), 64u);
  EXPECT_EQ(round_boundary(100000), 98304u); // 4 KiB multiple above 64 KiB
}

TEST(choose, NontemporalFromNeedsEveryLaterClass) {
  std::vector<SizeClass> t{{4096, *parse_spec("avx2"), 0},
                           {65536, *parse_spec("ntavx2"), 0},
                           {1 << 20, *parse_spec("stosb"), 0},
                           {0, *parse_spec("clzero"), 0}};
  EXPECT_EQ(nontemporal_from(t), uint64_t(1 << 20));
}

namespace {

// stosb against temporal stores on a quarter-octave sweep, with a step at `step` (0: none).
void sweep(uint64_t step, std::vector<Measurement> &s, std::vector<Measurement> &t,
           double jitter = 0, double below = 16) {
  int i = 0;
  for (double x = 8; x <= 256; x *= std::pow(2.0, 0.25), ++i) {
    uint64_t size = uint64_t(std::llround(x)) * MiB;
    double noise = jitter * ((i % 3) - 1);
    s.push_back(point("stosb", size, (step && size >= step ? 45 : below) * (1 + noise)));
    t.push_back(point("avx512", size, 16));
  }
}

} // namespace

TEST(choose, NoAllocateStepIsFound) {
  std::vector<Measurement> s, t;
  sweep(32 * MiB, s, t);
  NoAllocate na = find_no_allocate(s, t);
  ASSERT_TRUE(na.size) << na.reason;
  EXPECT_EQ(*na.size, 32 * MiB);
  EXPECT_NEAR(na.ratio_below, 1.0, 0.01);
  EXPECT_NEAR(na.ratio_above, 45.0 / 16, 0.01);
}

TEST(choose, NoAllocateStepSurvivesOneOutlier) {
  std::vector<Measurement> s, t;
  sweep(32 * MiB, s, t, 0.05);
  // One spike well below the step, one dip well above it.
  s[2] = point("stosb", s[2].size, 40);
  s[s.size() - 3] = point("stosb", s[s.size() - 3].size, 15);
  NoAllocate na = find_no_allocate(s, t);
  ASSERT_TRUE(na.size) << na.reason;
  EXPECT_GE(*na.size, 27 * MiB);
  EXPECT_LE(*na.size, 39 * MiB);
}

TEST(choose, NoAllocateStepOnTopOfALead) {
  // rep stosb 1.3x ahead below the step already (as on AMD family 26 model 2, Zen 5), 2.8x above.
  std::vector<Measurement> s, t;
  sweep(32 * MiB, s, t, 0.03, 21);
  NoAllocate na = find_no_allocate(s, t);
  ASSERT_TRUE(na.size) << na.reason;
  EXPECT_EQ(*na.size, 32 * MiB);
}

TEST(choose, NoStepOnACpuWithout) {
  // Intel-like: rep stosb allocates at every size, so it never pulls away.
  std::vector<Measurement> s, t;
  sweep(0, s, t, 0.03);
  NoAllocate na = find_no_allocate(s, t);
  EXPECT_FALSE(na.size);
  EXPECT_NE(na.reason.find("never"), std::string::npos) << na.reason;
}

TEST(choose, SmallestGoodChunk) {
  std::map<uint64_t, double> g{{0, 40}, {4096, 13}, {2 << 20, 15}, {8 << 20, 37}, {32 << 20, 39}};
  EXPECT_EQ(smallest_good_chunk(g), uint64_t(8 << 20));
  g[8 << 20] = 30;
  EXPECT_EQ(smallest_good_chunk(g), uint64_t(32 << 20));
  EXPECT_FALSE(smallest_good_chunk({{4096, 10}}));
}
